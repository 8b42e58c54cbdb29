//! The solver against a plain mex recursion over whole positions: every move, no heap, no
//! decomposition into lands, no pruning. The decomposition is what the solver assumes; these
//! tests attack it with every position reachable from 1 to 4 spots, random positions from 5 and
//! 6 spots, and sums of random lands.

use std::collections::HashMap;

use sprouts_ai::Limits;
use sprouts_ai::impartial::{Nimber, Outcome};
use sprouts_ai::solver::{Solver, SolverConfig};
use sprouts_topo::Position;

/// Nimbers by the definition: the mex of the children's nimbers, memoised by the whole
/// position's unreduced canonical form (dead regions and stumps dropped, nothing else).
#[derive(Default)]
struct Reference {
    memo: HashMap<String, u32>,
}

impl Reference {
    fn nimber(&mut self, pos: &Position) -> u32 {
        let key = pos.canonical_unreduced().into_string();
        if let Some(&n) = self.memo.get(&key) {
            return n;
        }
        let mut seen = Vec::new();
        for mv in pos.distinct_moves() {
            let child = pos.play(&mv).expect("listed moves are legal");
            seen.push(self.nimber(&child));
        }
        seen.sort_unstable();
        seen.dedup();
        let n = seen
            .iter()
            .enumerate()
            .find(|&(i, &v)| v != i as u32)
            .map_or(seen.len() as u32, |(i, _)| i as u32);
        self.memo.insert(key, n);
        n
    }
}

fn solver(threads: usize) -> Solver {
    Solver::new(SolverConfig {
        threads,
        ..SolverConfig::default()
    })
    .expect("the solver starts")
}

/// A one-thread solver that solves the smaller lands of a child outright (the other way).
fn settling_solver() -> Solver {
    Solver::new(SolverConfig {
        threads: 1,
        interleave_lands: false,
        ..SolverConfig::default()
    })
    .expect("the solver starts")
}

/// A one-thread solver that interleaves lands but solves those of at most 6 lives outright.
fn hybrid_solver() -> Solver {
    Solver::new(SolverConfig {
        threads: 1,
        settle_lives: 6,
        ..SolverConfig::default()
    })
    .expect("the solver starts")
}

/// Every position reachable from the n-spot start, one per unreduced canonical form.
fn reachable(n: u32) -> Vec<Position> {
    let mut seen = HashMap::new();
    let mut stack = vec![Position::new(n)];
    let mut out = Vec::new();
    while let Some(p) = stack.pop() {
        if seen
            .insert(p.canonical_unreduced().into_string(), ())
            .is_some()
        {
            continue;
        }
        for mv in p.distinct_moves() {
            stack.push(p.play(&mv).unwrap());
        }
        out.push(p);
    }
    out
}

/// Checks the solver's nimber, outcome and couples `P + *k` (k < 4) on `pos`.
fn check(solver: &Solver, reference: &mut Reference, pos: &Position) {
    let expected = reference.nimber(pos);
    let got = solver.nimber(pos, &Limits::none()).value;
    assert_eq!(got, Some(Nimber(expected)), "nimber of {pos}");
    let outcome = solver.outcome(pos, &Limits::none()).value;
    assert_eq!(
        outcome,
        Some(Outcome::from_win(expected != 0)),
        "outcome of {pos}"
    );
    for k in 0..4 {
        let got = solver.couple_outcome(pos, Nimber(k), &Limits::none()).value;
        assert_eq!(got, Some(Outcome::from_win(expected != k)), "{pos} + *{k}");
    }
}

#[test]
fn every_position_from_1_to_4_spots() {
    let mut reference = Reference::default();
    let mut multi_land = 0;
    let mut total = 0;
    for n in 1..=4 {
        // A fresh solver per start, and one shared: the second answers from its table.
        let shared = solver(1);
        let settling = settling_solver();
        for pos in reachable(n) {
            let fresh = solver(1);
            check(&fresh, &mut reference, &pos);
            check(&shared, &mut reference, &pos);
            check(&settling, &mut reference, &pos);
            multi_land += usize::from(pos.canonical().lands().count() > 1);
            total += 1;
        }
    }
    assert_eq!(total, 3 + 22 + 212 + 2454, "plain forms from 1 to 4 spots");
    assert!(
        multi_land > 500,
        "only {multi_land} positions of several lands"
    );
}

/// A small deterministic generator (SplitMix64) for the random samples.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A position after `moves` random moves from the n-spot start (fewer if the game ends).
fn random_position(rng: &mut Rng, n: u32, moves: usize) -> Position {
    let mut p = Position::new(n);
    for _ in 0..moves {
        let all: Vec<_> = p.moves().collect();
        if all.is_empty() {
            break;
        }
        p = p.play(&all[rng.below(all.len())]).unwrap();
    }
    p
}

#[test]
fn random_positions_from_5_and_6_spots() {
    let mut rng = Rng(0x5eed);
    let mut reference = Reference::default();
    let shared = solver(1);
    let settling = settling_solver();
    let hybrid = hybrid_solver();
    let mut multi_land = 0;
    for i in 0..200 {
        let n = 5 + (i % 2) as u32;
        // Deep enough that the plain recursion stays quick.
        let depth = n as usize + 1 + rng.below(n as usize);
        let pos = random_position(&mut rng, n, depth);
        multi_land += usize::from(pos.canonical().lands().count() > 1);
        check(&shared, &mut reference, &pos);
        check(&settling, &mut reference, &pos);
        check(&hybrid, &mut reference, &pos);
    }
    assert!(
        multi_land > 40,
        "only {multi_land} positions of several lands"
    );
}

#[test]
fn sums_of_random_lands() {
    // Two and three positions side by side: the reference sees one position, the solver
    // splits it and folds nimbers into a heap.
    let mut rng = Rng(0xadd);
    let mut reference = Reference::default();
    let shared = solver(1);
    let settling = settling_solver();
    let hybrid = hybrid_solver();
    for _ in 0..150 {
        let parts = 2 + rng.below(2);
        let mut text = Vec::new();
        for _ in 0..parts {
            // The reference pays for the product of the parts' game trees: keep them small.
            let n = 1 + rng.below(if parts == 2 { 3 } else { 2 }) as u32;
            let depth = rng.below(2 * n as usize + 1);
            let pos = random_position(&mut rng, n, depth);
            if !pos.is_over() {
                text.push(pos.to_glop());
            }
        }
        if text.is_empty() {
            continue;
        }
        let sum = Position::parse_glop(&text.join("+")).expect("a sum of positions reads");
        check(&shared, &mut reference, &sum);
        check(&settling, &mut reference, &sum);
        check(&hybrid, &mut reference, &sum);
    }
}

#[test]
fn threads_agree_with_one_thread() {
    let one = solver(1);
    let many = solver(3);
    for n in 0..=7 {
        let p = Position::new(n);
        assert_eq!(
            one.nimber(&p, &Limits::none()).value,
            many.nimber(&p, &Limits::none()).value,
            "{n} spots"
        );
    }
}
