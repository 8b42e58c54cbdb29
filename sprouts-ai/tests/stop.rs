//! Every player on a huge position returns promptly once its stop flag is raised or its deadline
//! passes, with a legal move: the loops over moves and children read the limits, not only the
//! searches below them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use sprouts_ai::impartial::Convention;
use sprouts_ai::players::{candidates_within, player_from_spec};
use sprouts_ai::{Limits, ManualClock};
use sprouts_topo::Position;

/// Every kind of player, each with a budget of its own far longer than the bound below.
const SPECS: [&str; 6] = [
    "random",
    "montecarlo:1000000",
    "parity-fast",
    "parity-sharp",
    "perfect",
    "perfect:600s",
];

/// How long a player may take to return after the flag is raised or the deadline passes. The
/// machine is shared, so this is generous against the milliseconds a check costs.
const PROMPT: Duration = Duration::from_secs(3);

fn huge() -> Position {
    Position::new(2000)
}

#[test]
fn a_raised_stop_flag_ends_every_player_on_a_huge_position() {
    let p = huge();
    for spec in SPECS {
        let mut player = player_from_spec(spec, 1).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits::none().with_stop(Arc::clone(&stop));
        let raised_at = std::thread::scope(|s| {
            let raiser = s.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                stop.store(true, Ordering::Relaxed);
                Instant::now()
            });
            let choice = player.choose(&p, Convention::Normal, &limits);
            let returned = Instant::now();
            let raised_at = raiser.join().unwrap();
            let choice = choice.unwrap_or_else(|| panic!("{spec}: no move"));
            assert!(p.is_legal(&choice.mv), "{spec}: an illegal move");
            returned.saturating_duration_since(raised_at)
        });
        eprintln!("{spec}: returned {raised_at:?} after the flag");
        assert!(raised_at < PROMPT, "{spec}: {raised_at:?} after the flag");
    }
}

#[test]
fn a_passed_deadline_ends_every_player_on_a_huge_position() {
    let p = huge();
    for spec in SPECS {
        for convention in [Convention::Normal, Convention::Misere] {
            let mut player = player_from_spec(spec, 1).unwrap();
            // A deadline already passed on a manual clock: no sleeping, no race.
            let clock = ManualClock::new();
            let limits = Limits::none()
                .with_clock(clock.clock())
                .with_time(Duration::from_secs(1));
            clock.advance(Duration::from_secs(1));
            let start = Instant::now();
            let choice = player.choose(&p, convention, &limits);
            let took = start.elapsed();
            let choice = choice.unwrap_or_else(|| panic!("{spec}: no move"));
            assert!(p.is_legal(&choice.mv), "{spec}: an illegal move");
            eprintln!("{spec} {convention:?}: {took:?} past the deadline");
            assert!(took < PROMPT, "{spec} {convention:?}: {took:?}");
        }
    }
}

#[test]
fn the_candidates_stop_when_told_and_are_complete_otherwise() {
    let stopped = Limits::none().with_stop(Arc::new(AtomicBool::new(true)));
    let start = Instant::now();
    assert!(candidates_within(&huge(), &stopped).is_err());
    assert!(start.elapsed() < PROMPT);
    let p = Position::new(6);
    let all = candidates_within(&p, &Limits::none()).unwrap();
    let reference = sprouts_ai::players::candidates(&p);
    assert_eq!(all.len(), reference.len());
    for (a, b) in all.iter().zip(&reference) {
        assert_eq!((&a.mv, &a.form), (&b.mv, &b.form));
    }
}

/// How long `run` takes to return after a stop flag it reads is raised 100 ms into it.
fn after_the_flag<T: Send>(run: impl FnOnce(&Limits) -> T + Send) -> (T, Duration) {
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits::none().with_stop(Arc::clone(&stop));
    std::thread::scope(|s| {
        let raiser = s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
            Instant::now()
        });
        let value = run(&limits);
        let returned = Instant::now();
        (
            value,
            returned.saturating_duration_since(raiser.join().unwrap()),
        )
    })
}

#[test]
fn the_solvers_stop_inside_a_huge_lands_children() {
    use sprouts_ai::misere_play::MisereSproutsSolver;
    use sprouts_ai::solver::{Solver, SolverConfig};
    // The listing of a land's moves by orbit (`Position::symmetric_moves`) is one step the
    // flag cannot cut short: about 0.6 s at 700 spots, 1.9 s at 1000 on the machine this was
    // measured on. What follows it reads the flag after every child.
    let p = Position::new(700);
    let solver = Solver::new(SolverConfig {
        threads: 1,
        ..SolverConfig::default()
    })
    .expect("the solver starts");
    let (value, took) = after_the_flag(|l| solver.outcome(&p, l).value);
    eprintln!("solver: {took:?} after the flag");
    assert_eq!(value, None);
    assert!(took < PROMPT, "{took:?}");
    let misere = MisereSproutsSolver::new();
    let (value, took) = after_the_flag(|l| misere.outcome(&p, l).value);
    eprintln!("misère solver: {took:?} after the flag");
    assert_eq!(value, None);
    assert!(took < PROMPT, "{took:?}");
}

/// A region with many boundaries that are not interchangeable (300 seeds, then 40 random moves):
/// its moves are exponentially many, and the solver gives up listing them when the flag rises.
#[test]
fn the_solver_stops_while_listing_an_exponential_land() {
    use rand::SeedableRng;
    use sprouts_ai::players::random_move;
    use sprouts_ai::solver::{Solver, SolverConfig};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    let mut p = Position::new(300);
    for _ in 0..40 {
        let mv = random_move(&p, &mut rng).expect("a move");
        p = p.play(&mv).expect("a legal move");
    }
    let solver = Solver::new(SolverConfig {
        threads: 1,
        ..SolverConfig::default()
    })
    .expect("the solver starts");
    let (value, took) = after_the_flag(|l| solver.outcome(&p, l).value);
    eprintln!("solver on an exponential land: {took:?} after the flag");
    assert_eq!(value, None);
    assert!(took < PROMPT, "{took:?}");
}
