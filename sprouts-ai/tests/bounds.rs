//! The bounds on the moves left against brute force, on every position reachable from 1 to 5
//! seeds (`cargo test -p sprouts-ai --test bounds -- --nocapture` prints the counts).

use rustc_hash::FxHashMap;
use sprouts_ai::Limits;
use sprouts_ai::bounds::{
    BoundsScratch, LongestGame, UpperOptions, bounds, bounds_reference, land_upper_bounds,
    land_upper_bounds_reference, lower_bound_with, upper_bound, upper_bound_with,
};
use sprouts_topo::Position;

/// The longest and shortest game of every position class (plain canonical forms: dead regions
/// and stumps dropped, nothing else), by plain recursion over every distinct move.
#[derive(Default)]
struct Brute {
    memo: FxHashMap<String, (u32, u32)>,
}

impl Brute {
    fn lengths(&mut self, pos: &Position) -> (u32, u32) {
        let key = pos.canonical_unreduced().into_string();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut longest = 0;
        let mut shortest = u32::MAX;
        for mv in pos.distinct_moves() {
            let child = pos.play(&mv).expect("listed moves are legal");
            let (l, s) = self.lengths(&child);
            longest = longest.max(l + 1);
            shortest = shortest.min(s + 1);
        }
        let v = (longest, if shortest == u32::MAX { 0 } else { shortest });
        self.memo.insert(key, v);
        v
    }
}

#[derive(Default, Debug)]
struct Stats {
    classes: u64,
    upper_exact: u64,
    spec_upper_exact: u64,
    positions: u64,
    lower_gap_sum: u64,
    lower_exact: u64,
    spec_lower_above: u64,
}

/// Checks every position reachable from `n` seeds: every child of every class's first
/// representative (so every class, with many representatives).
fn check_seeds(n: u32) -> Stats {
    let mut brute = Brute::default();
    let mut longest = LongestGame::new();
    let mut stats = Stats::default();
    let mut seen: FxHashMap<String, u32> = FxHashMap::default();
    let start = Position::new(n);
    let mut stack = vec![start.clone()];
    check_one(&start, &mut brute, &mut longest, &mut seen, &mut stats);
    while let Some(pos) = stack.pop() {
        for mv in pos.distinct_moves() {
            let child = pos.play(&mv).expect("listed moves are legal");
            if check_one(&child, &mut brute, &mut longest, &mut seen, &mut stats) {
                stack.push(child);
            }
        }
    }
    stats
}

/// Checks one position; returns whether its class is new.
fn check_one(
    pos: &Position,
    brute: &mut Brute,
    longest: &mut LongestGame,
    seen: &mut FxHashMap<String, u32>,
    stats: &mut Stats,
) -> bool {
    let (long, short) = brute.lengths(pos);
    let b = bounds(pos);
    assert_eq!(
        b,
        bounds_reference(pos),
        "fast and reference bounds at {pos:?}"
    );
    assert!(
        b.upper >= long,
        "M = {} < longest {long} at {pos:?}",
        b.upper
    );
    assert!(
        b.lower <= short,
        "m = {} > shortest {short} at {pos:?}",
        b.lower
    );
    stats.positions += 1;
    if lower_bound_with(pos, false) > short {
        if stats.spec_lower_above == 0 {
            eprintln!("the specification's m is above the shortest game {short} at {pos:?}");
        }
        stats.spec_lower_above += 1;
    }
    stats.lower_gap_sum += u64::from(short - b.lower);
    stats.lower_exact += u64::from(short == b.lower);
    let spec = upper_bound_with(pos, UpperOptions::SPEC);
    assert!(
        spec >= long,
        "the specification's M = {spec} < {long} at {pos:?}"
    );
    let key = pos.canonical_unreduced().into_string();
    if let Some(&m) = seen.get(&key) {
        assert_eq!(m, b.upper, "M depends on the game only: {pos:?}");
        return false;
    }
    seen.insert(key, b.upper);
    // The bound read back from the reduced canonical form is the same.
    let form = pos.canonical();
    let reduced: u32 = form
        .lands()
        .map(|l| {
            let land = Position::parse_glop(l).unwrap();
            assert_eq!(bounds(&land), bounds_reference(&land), "{l}");
            upper_bound(&land)
        })
        .sum();
    assert_eq!(
        reduced, b.upper,
        "M of the canonical form {form} at {pos:?}"
    );
    // The exact longest game by `reach`.
    assert_eq!(
        longest.longest(pos, &Limits::none()).value,
        Some(long),
        "reach at {pos:?}"
    );
    stats.classes += 1;
    stats.upper_exact += u64::from(b.upper == long);
    stats.spec_upper_exact += u64::from(spec == long);
    true
}

fn report(n: u32, s: &Stats) {
    eprintln!(
        "{n} seeds: {} classes, M = longest on {} (spec's formula: {}); {} positions checked, \
         m = shortest on {}, mean gap of m {:.3}; the specification's m above the shortest on {}",
        s.classes,
        s.upper_exact,
        s.spec_upper_exact,
        s.positions,
        s.lower_exact,
        s.lower_gap_sum as f64 / s.positions as f64,
        s.spec_lower_above
    );
}

#[test]
fn bounds_hold_from_one_to_four_seeds() {
    // Plain classes per start (sprouts-topo's perft data): 3, 22, 212, 2,454.
    let classes = [3, 22, 212, 2454];
    for n in 1..=4 {
        let s = check_seeds(n);
        report(n, &s);
        assert_eq!(s.classes, classes[n as usize - 1]);
        assert!(s.upper_exact >= s.spec_upper_exact);
    }
}

#[test]
fn bounds_hold_from_five_seeds() {
    let s = check_seeds(5);
    report(5, &s);
    assert_eq!(s.classes, 32_134);
    // The specification's count with greedy pairs: 31,407 of 32,140.
    assert!(s.upper_exact >= 31_407);
}

/// The bounds computed in reusable buffers equal the reference survey on every position of
/// random games from 6 to 30 spots, on every child of some of them (with the completeness
/// given), and on the positions read back from their canonical forms (not complete).
#[test]
fn fast_bounds_equal_the_reference() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    let mut scratch = BoundsScratch::new();
    let mut checked = 0u64;
    for game in 0..60u32 {
        let mut pos = Position::new(6 + game % 25);
        loop {
            let want = bounds_reference(&pos);
            assert_eq!(scratch.bounds(&pos), want, "{pos:?}");
            assert_eq!(bounds(&pos), want, "{pos:?}");
            assert_eq!(land_upper_bounds(&pos), land_upper_bounds_reference(&pos));
            let read = Position::parse_glop(pos.canonical().as_str()).unwrap();
            assert_eq!(scratch.bounds(&read), bounds_reference(&read), "{read:?}");
            checked += 3;
            let moves: Vec<_> = pos.distinct_moves().collect();
            if moves.is_empty() {
                break;
            }
            if rng.random_range(0..4) == 0 {
                for mv in moves.iter().take(200) {
                    let child = pos.play(mv).unwrap();
                    let got = scratch.bounds_with(&child, Some(true));
                    assert_eq!(got, bounds_reference(&child), "{child:?}");
                    checked += 1;
                }
            }
            let mv = sprouts_ai::players::random_move(&pos, &mut rng).unwrap();
            pos = pos.play(&mv).unwrap();
        }
    }
    eprintln!("{checked} positions: fast bounds = reference");
}

#[test]
fn longest_game_within_a_budget() {
    let mut longest = LongestGame::new();
    // One node is not enough for eight spots; the answer is then "not known".
    assert_eq!(
        longest.longest(&Position::new(8), &Limits::nodes(1)).value,
        None
    );
    // With no limit it is 3n - 1, and the table keeps what was proved.
    assert_eq!(
        longest.longest(&Position::new(8), &Limits::none()).value,
        Some(23)
    );
    assert!(longest.known_parts() > 0);
}
