//! Misère Sprouts by parts against a plain win/loss search, and the n-spot outcomes.
//!
//! The reference is [`OutcomeSolver`] on a game that ignores the decomposition into lands: the
//! definition of misère play and nothing else. [`MisereSproutsSolver`] is checked against it on
//! every position reachable from 1 to 4 spots and on a sample from 5, in three settings (trees for
//! small lands and a search for the rest; search only; trees only), so that both the tree
//! machinery and the search are exercised on their own.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use sprouts_ai::impartial::{Convention, ImpartialGame, Outcome, OutcomeSolver};
use sprouts_ai::misere_play::{MisereConfig, MisereSproutsSolver};
use sprouts_ai::{Limits, SproutsGame};
use sprouts_topo::{CanonicalForm, Position};

/// Sprouts without its decomposition: the reference search sees whole positions only.
struct Whole;

impl ImpartialGame for Whole {
    type Position = Position;
    type Key = CanonicalForm;

    fn key(&self, position: &Position) -> CanonicalForm {
        position.canonical()
    }

    fn children(&self, position: &Position, out: &mut Vec<Position>) {
        SproutsGame.children(position, out);
    }
}

/// The three settings: the default, search only (no tree is ever computed for a land that has
/// not been solved whole), and trees only (every land solved).
fn configs() -> [MisereConfig; 3] {
    [
        MisereConfig::default(),
        MisereConfig {
            tree_lives: 0,
            side_tree_lives: 0,
            table_bytes: None,
        },
        MisereConfig {
            tree_lives: u32::MAX,
            side_tree_lives: u32::MAX,
            table_bytes: None,
        },
    ]
}

/// Every canonical form reachable from the n-spot start (the start included), sorted.
fn reachable(n: u32) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![Position::new(n).canonical().into_string()];
    while let Some(form) = todo.pop() {
        if !seen.insert(form.clone()) {
            continue;
        }
        if form == "!" {
            continue;
        }
        for child in SproutsGame::position_of(&form).distinct_children() {
            if !seen.contains(child.as_str()) {
                todo.push(child.into_string());
            }
        }
    }
    seen
}

fn position(form: &str) -> Position {
    match form {
        "!" => Position::new(0),
        _ => SproutsGame::position_of(form),
    }
}

fn misere(solver: &MisereSproutsSolver, position: &Position) -> Outcome {
    solver
        .outcome(position, &Limits::none())
        .value
        .expect("no limits, so an answer")
}

#[test]
fn every_position_from_1_to_4_spots_matches_plain_search() {
    let mut forms = BTreeSet::new();
    for n in 1..=4 {
        forms.extend(reachable(n));
    }
    let mut reference = OutcomeSolver::new(Whole, Convention::Misere);
    let want: Vec<Outcome> = forms
        .iter()
        .map(|f| reference.outcome(&position(f)))
        .collect();
    let wins = want.iter().filter(|o| o.is_win()).count();
    // Both outcomes occur often, and the positions include sums of several lands.
    assert!(forms.len() > 1000, "{} positions", forms.len());
    assert!(wins > 100 && forms.len() - wins > 100, "{wins} wins");
    assert!(forms.iter().filter(|f| f.contains('+')).count() > 100);
    // The default setting on all of them, smallest first.
    let fresh = MisereSproutsSolver::new();
    for (form, &outcome) in forms.iter().zip(&want) {
        assert_eq!(misere(&fresh, &position(form)), outcome, "{form}");
    }
}

/// Search only and trees only, each on its own, on every position reachable from 1 to 3 spots
/// and on the 4-spot start.
#[test]
#[ignore = "about a minute: cargo test --release -p sprouts-ai --test misere_sprouts -- --ignored search_alone"]
fn search_alone_and_trees_alone_match_plain_search() {
    let mut forms = BTreeSet::new();
    for n in 1..=3 {
        forms.extend(reachable(n));
    }
    forms.insert(Position::new(4).canonical().into_string());
    let mut reference = OutcomeSolver::new(Whole, Convention::Misere);
    for config in configs() {
        let solver = MisereSproutsSolver::with_config(config.clone());
        for form in forms.iter().rev() {
            let p = position(form);
            assert_eq!(
                misere(&solver, &p),
                reference.outcome(&p),
                "{form}, {config:?}"
            );
        }
    }
}

/// Sums of two and three lands reachable from 3 spots (the decomposition at work on sums the
/// game itself reaches only rarely), against plain search on the whole sum.
#[test]
#[ignore = "about 40 s: cargo test --release -p sprouts-ai --test misere_sprouts -- --ignored sums_of_small_lands"]
fn sums_of_small_lands_match_plain_search() {
    let lands: Vec<String> = reachable(3)
        .into_iter()
        .filter(|f| f != "!" && !f.contains('+'))
        .collect();
    assert!(lands.len() > 40, "{} lands", lands.len());
    let mut reference = OutcomeSolver::new(Whole, Convention::Misere);
    let solvers: Vec<MisereSproutsSolver> = configs()
        .into_iter()
        .map(MisereSproutsSolver::with_config)
        .collect();
    let mut checked = 0;
    for (i, a) in lands.iter().enumerate() {
        for (j, b) in lands.iter().enumerate().skip(i) {
            let mut sums = vec![format!("{a}+{b}")];
            // A third land, chosen deterministically, on some of the pairs.
            if (i + j) % 7 == 0 {
                sums.push(format!(
                    "{a}+{b}+{}",
                    lands[(i * 31 + j * 17) % lands.len()]
                ));
            }
            for sum in sums {
                let p = position(&sum);
                let want = reference.outcome(&p);
                for solver in &solvers {
                    assert_eq!(misere(solver, &p), want, "{sum}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} sums");
}

/// A deterministic sample of the positions reachable from 5 spots (every 40th of those at most
/// four moves deep).
#[test]
fn a_sample_from_5_spots_matches_plain_search() {
    let mut layer = BTreeSet::from([Position::new(5).canonical().into_string()]);
    let mut sample = Vec::new();
    for _ in 0..4 {
        let mut next = BTreeSet::new();
        for form in &layer {
            if form != "!" {
                for child in position(form).distinct_children() {
                    next.insert(child.into_string());
                }
            }
        }
        sample.extend(next.iter().step_by(40).cloned());
        layer = next;
    }
    assert!(sample.len() > 20, "{} positions", sample.len());
    let mut reference = OutcomeSolver::new(Whole, Convention::Misere);
    let solver = MisereSproutsSolver::new();
    for form in &sample {
        let p = position(form);
        assert_eq!(misere(&solver, &p), reference.outcome(&p), "{form}");
    }
}

/// Outcomes of the n-spot starts in misère play: OEIS A164950 (Lemoine and Viennot,
/// arXiv:0908.4407, figure 1, and the SproutsWiki records for 18 to 20), W = 1.
const A164950: [u8; 20] = [1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0];

fn check_starts(solver: &MisereSproutsSolver, spots: std::ops::RangeInclusive<u32>) {
    for n in spots {
        let want = Outcome::from_win(A164950[n as usize - 1] == 1);
        let solved = solver.outcome(&Position::new(n), &Limits::none());
        assert_eq!(solved.value, Some(want), "{n} spots");
    }
}

#[test]
fn n_spot_starts_1_to_10() {
    check_starts(&MisereSproutsSolver::new(), 1..=10);
}

/// 11 to 14 spots, one solver: about 20 s of CPU (timings in docs/performance.md, "Misère
/// Sprouts").
#[test]
fn n_spot_starts_11_to_14() {
    check_starts(&MisereSproutsSolver::new(), 1..=14);
}

#[test]
fn limits_give_unknown_never_a_guess() {
    let solver = MisereSproutsSolver::new();
    let solved = solver.outcome(&Position::new(9), &Limits::nodes(50));
    assert_eq!(solved.value, None);
    assert!(solved.nodes >= 50);
    let stop = Arc::new(AtomicBool::new(true));
    let solved = solver.outcome(&Position::new(9), &Limits::none().with_stop(stop));
    assert_eq!(solved.value, None);
    // What was proven before the limits struck is kept, and the answer is still right.
    check_starts(&solver, 9..=9);
}

#[test]
fn deterministic_and_shareable_between_threads() {
    let counts = |solver: &MisereSproutsSolver| -> Vec<u64> {
        (1..=8)
            .map(|n| solver.outcome(&Position::new(n), &Limits::none()).nodes)
            .collect()
    };
    let first = counts(&MisereSproutsSolver::new());
    assert_eq!(first, counts(&MisereSproutsSolver::new()));
    let shared = Arc::new(MisereSproutsSolver::new());
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let solver = Arc::clone(&shared);
            std::thread::spawn(move || check_starts(&solver, 1..=9))
        })
        .collect();
    for handle in handles {
        handle.join().expect("no panic");
    }
}

/// Two and three threads, each with its own tables, against one: every position of the 5-spot
/// sample and the starts 1 to 10.
#[test]
fn threads_agree_with_one_thread() {
    let one = MisereSproutsSolver::new();
    for threads in [2, 3] {
        let many = MisereSproutsSolver::with_threads(MisereConfig::default(), threads);
        assert_eq!(many.threads(), threads);
        for n in 1..=10 {
            let p = Position::new(n);
            assert_eq!(
                many.outcome(&p, &Limits::none()).value,
                one.outcome(&p, &Limits::none()).value,
                "{n} spots, {threads} threads"
            );
        }
        for form in ["0*3+0*2", "0*4+0.AB|AB", "!", "0.AB|AB"] {
            let p = position(form);
            let want = misere(&one, &p);
            assert_eq!(
                many.outcome(&p, &Limits::none()).value,
                Some(want),
                "{form}"
            );
        }
    }
}

/// Limits on several threads: the nodes of all threads count, a raised stop flag ends them all,
/// and either gives "unknown".
#[test]
fn limits_on_several_threads_give_unknown() {
    let solver = MisereSproutsSolver::with_threads(MisereConfig::default(), 2);
    let solved = solver.outcome(&Position::new(9), &Limits::nodes(50));
    assert_eq!(solved.value, None);
    let stop = Arc::new(AtomicBool::new(true));
    let solved = solver.outcome(&Position::new(9), &Limits::none().with_stop(stop));
    assert_eq!(solved.value, None);
    // What was proven stays: the same solver then decides 9 spots.
    let solved = solver.outcome(&Position::new(9), &Limits::none());
    assert_eq!(solved.value, Some(Outcome::Loss));
}

/// Budgets far below what the tables would take: the starts 1 to 10 come out as with no budget,
/// the bounded tables stay within the budget, and what goes first is what is cheapest to do
/// again (proof numbers and children lists), not proven positions.
#[test]
fn a_small_memory_budget_keeps_the_outcomes() {
    let unbounded = MisereSproutsSolver::new();
    check_starts(&unbounded, 1..=10);
    let whole = unbounded.stats().table_bytes;
    for budget in [whole / 2, whole / 6] {
        let solver = MisereSproutsSolver::with_config(MisereConfig {
            table_bytes: Some(budget),
            ..MisereConfig::default()
        });
        check_starts(&solver, 1..=10);
        let stats = solver.stats();
        assert!(stats.table_bytes <= budget, "{budget}: {stats:?}");
        assert_eq!(stats.evicted, 0, "{budget}: {stats:?}");
    }
}
