//! A fixed workload of canonical forms for profiling (e.g. under `valgrind --tool=callgrind`):
//! mid-game positions of random 12-spot games (every move equally likely, seeded), after 9 to 25
//! moves, canonicalised; or the distinct children of some of them (the solver's enumeration).
//!
//! ```sh
//! cargo run --release -p sprouts-topo --example canon_profile -- canon 2000
//! cargo run --release -p sprouts-topo --example canon_profile -- canon 300000 1 5  # five passes, each fresh
//! cargo run --release -p sprouts-topo --example canon_profile -- canon-each 300000 1 5  # by canonical_each
//! cargo run --release -p sprouts-topo --example canon_profile -- canon-both 300000 9  # both, in turn
//! cargo run --release -p sprouts-topo --example canon_profile -- canon-cold 2000   # no small-land memory
//! cargo run --release -p sprouts-topo --example canon_profile -- canon-plain 2000  # read back from plain forms
//! cargo run --release -p sprouts-topo --example canon_profile -- canon-glop 2000   # read back from their forms
//! cargo run --release -p sprouts-topo --example canon_profile -- canon-late 2000   # after 26 moves or more
//! cargo run --release -p sprouts-topo --example canon_profile -- children 40
//! cargo run --release -p sprouts-topo --example canon_profile -- one '0*4.1Aab1baBCD|ADCB+122' 100000
//! cargo run --release -p sprouts-topo --example canon_profile -- dump 5000 > forms.txt
//! ```

use rand::{Rng, SeedableRng};
use sprouts_topo::canon::{Canonicalizer, DEFAULT_BUDGET};
use sprouts_topo::{Position, Reductions};

/// `count` positions from random 12-spot games, after 9 to 25 moves.
fn positions(count: usize, seed: u64) -> Vec<Position> {
    positions_between(count, seed, 9, 25)
}

/// `count` positions from random 12-spot games, after `from` to `to` moves (in the games that
/// last so long).
fn positions_between(count: usize, seed: u64, from: usize, to: usize) -> Vec<Position> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut p = Position::new(12);
        for depth in 0..to {
            let moves: Vec<_> = p.moves().collect();
            if moves.is_empty() {
                break;
            }
            p = p
                .play(&moves[rng.random_range(0..moves.len())])
                .expect("legal");
            if depth + 1 >= from && out.len() < count {
                out.push(p.clone());
            }
        }
    }
    out
}

/// The form of `p`, `n` times, through one reused canonicalizer (remembering small lands, or
/// not when `cold`).
#[inline(never)]
fn forms_of(p: &Position, n: usize, cold: bool) -> usize {
    let mut c = Canonicalizer::new();
    c.remember_small_lands(!cold);
    let mut out = String::new();
    let mut total = 0;
    for _ in 0..n {
        c.canonical_into(p, Reductions::Glop, DEFAULT_BUDGET, &mut out);
        total += out.len();
    }
    total
}

/// The forms of every position of `ps`, `reps` times over, through one reused canonicalizer
/// (remembering small lands, or not when `cold`): with `each`, by `canonical_each` (the
/// position two ahead prefetched), otherwise by `canonical_into` one position at a time.
#[inline(never)]
fn set_forms(ps: &[Position], reps: usize, cold: bool, each: bool) -> usize {
    let mut c = Canonicalizer::new();
    c.remember_small_lands(!cold);
    let mut out = String::new();
    let mut total = 0usize;
    for _ in 0..reps {
        if each {
            c.canonical_each(ps, Reductions::Glop, DEFAULT_BUDGET, |_, form, _| {
                total += form.len();
            });
            continue;
        }
        for p in ps {
            c.canonical_into(p, Reductions::Glop, DEFAULT_BUDGET, &mut out);
            total += out.len();
        }
    }
    total
}

/// The solver's enumeration: every distinct child of every position, as canonical lands.
#[inline(never)]
fn children(ps: &[Position], reps: usize) -> usize {
    let mut n = 0usize;
    for _ in 0..reps {
        for p in ps {
            p.for_each_child_lands(|c| n += c.as_str().len());
        }
    }
    n
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("canon", String::as_str);
    let count: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let reps: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let cold = what.ends_with("-cold");
    let what = what.trim_end_matches("-cold");
    // `-each`: the set workloads through `canonical_each` rather than one call a position.
    let each = what.ends_with("-each");
    match what.trim_end_matches("-each") {
        w @ ("canon" | "canon-plain" | "canon-glop" | "canon-late") => {
            let mut ps = if w == "canon-late" {
                // The end of games: after 26 moves or more, most regions dead.
                positions_between(count, 7, 26, 35)
            } else {
                positions(count, 7)
            };
            let mut played = Vec::new();
            if w == "canon-glop" {
                // The same positions read back from their canonical forms: how a solver that
                // keeps its positions as forms holds them (each land written canonically).
                played = std::mem::take(&mut ps);
                ps = played
                    .iter()
                    .map(|p| Position::parse_glop(p.canonical().as_str()).expect("reads back"))
                    .collect();
            }
            if w == "canon-plain" {
                // The same positions read back from their plain forms (dead regions and stumps
                // dropped, nothing merged): what a position kept reduced as played would be.
                ps = ps
                    .iter()
                    .map(|p| {
                        Position::parse_glop(p.canonical_unreduced().as_str()).expect("reads back")
                    })
                    .collect();
            }
            // Passes over the same positions, each through a new canonicalizer (so each is
            // one pass over positions it has not seen), for less noise than runs apart.
            let passes: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
            let mut rates = Vec::with_capacity(passes);
            for _ in 0..passes {
                let t = std::time::Instant::now();
                let total = set_forms(&ps, reps, cold, each);
                let s = t.elapsed().as_secs_f64();
                let n = (ps.len() * reps) as f64;
                eprintln!(
                    "{n} forms in {s:.3} s: {:.0} forms/s ({total} bytes)",
                    n / s
                );
                rates.push(n / s);
            }
            if passes > 1 {
                rates.sort_by(f64::total_cmp);
                eprintln!(
                    "median of {passes} passes: {:.0} forms/s",
                    rates[passes / 2]
                );
            }
            drop(played);
        }
        "canon-both" => {
            // `canon-both N R`: R rounds, each one pass by `canonical_into` and one by
            // `canonical_each` over the same N positions (each pass through a new
            // canonicalizer), so that both meet the same load on a noisy machine.
            let ps = positions(count, 7);
            let (mut one, mut each, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
            for round in 0..reps {
                let rate = |by_each: bool| {
                    let t = std::time::Instant::now();
                    std::hint::black_box(set_forms(&ps, 1, cold, by_each));
                    ps.len() as f64 / t.elapsed().as_secs_f64()
                };
                // Alternate which goes first.
                let (a, b) = if round % 2 == 0 {
                    let a = rate(false);
                    (a, rate(true))
                } else {
                    let b = rate(true);
                    (rate(false), b)
                };
                eprintln!("round {round}: canonical_into {a:.0}, canonical_each {b:.0} forms/s");
                one.push(a);
                each.push(b);
                ratios.push(b / a);
            }
            for v in [&mut one, &mut each, &mut ratios] {
                v.sort_by(f64::total_cmp);
            }
            let m = reps / 2;
            eprintln!(
                "medians over {reps} rounds: canonical_into {:.0}, canonical_each {:.0} forms/s; each/into {:.3}",
                one[m], each[m], ratios[m]
            );
        }
        "children" => {
            let ps = positions(count, 11);
            let forms: usize = ps.iter().map(|p| p.distinct_moves().count()).sum::<usize>() * reps;
            let t = std::time::Instant::now();
            let n = children(&ps, reps);
            let s = t.elapsed().as_secs_f64();
            eprintln!(
                "{forms} children in {s:.3} s: {:.0} children/s ({n} bytes)",
                forms as f64 / s
            );
        }
        "one" => {
            // `one GLOP N`: the form of one position, N times (for per-form instruction counts).
            let text = args.get(2).map_or("0*12", String::as_str);
            let p = match Position::parse_glop(text) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("not a position in GLOP notation: {text:?}: {e}");
                    std::process::exit(2);
                }
            };
            let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10_000);
            let t = std::time::Instant::now();
            let total = forms_of(&p, n, cold);
            let s = t.elapsed().as_secs_f64();
            eprintln!(
                "{n} forms in {s:.3} s: {:.0} forms/s ({total} bytes)",
                n as f64 / s
            );
        }
        "dump" => {
            for p in positions(count, 3) {
                println!(
                    "{}\t{}\t{}",
                    p.to_glop(),
                    p.canonical(),
                    p.canonical_unreduced()
                );
                for child in p.distinct_children() {
                    println!("\t{child}");
                }
            }
        }
        other => {
            eprintln!(
                "unknown workload {other}: canon, children, one or dump (canon-cold, one-cold: small lands not remembered; canon-each, canon-glop-each, ...: through canonical_each; canon-both: both in turn)"
            );
            std::process::exit(2);
        }
    }
}
