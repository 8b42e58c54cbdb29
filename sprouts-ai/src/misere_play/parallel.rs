//! One misère position on several threads: the position's children shared out among searches
//! that each keep their own tables, in jobs of growing node budgets.
//!
//! A position is won when one child is lost and lost when every child is won, so the children
//! can be decided apart. Deciding them one by one to the end would sink into the first hard
//! child of a won position while an easy lost child waits; instead each job is a child with a
//! budget of nodes (four times its last one), the child with the least work done going first,
//! until a lost child is found or every child is won. A search cut short by its budget keeps
//! what it proved and its proof numbers, so a later job on that child goes on where it stopped
//! when the same thread takes it (and starts again from what its own tables hold otherwise).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sprouts_topo::LandForm;

use super::search::Search;
use crate::Limits;
use crate::impartial::Outcome;

/// The node budget of a child in the first round.
const FIRST_BUDGET: u64 = 20_000;

/// The distinct positions one move leads to from the sum of `lands`, each as its lands (sorted
/// by text, so that equal positions compare equal).
pub(super) fn children_of(lands: &[LandForm]) -> Vec<Vec<LandForm>> {
    let mut out: Vec<Vec<LandForm>> = Vec::new();
    for idx in 0..lands.len() {
        if idx > 0 && lands[..idx].contains(&lands[idx]) {
            continue;
        }
        for child in lands[idx].children() {
            let mut sum: Vec<LandForm> = lands[..idx].to_vec();
            sum.extend_from_slice(&lands[idx + 1..]);
            sum.extend(child);
            sum.sort_by(|a, b| a.as_str().cmp(b.as_str()));
            out.push(sum);
        }
    }
    out.sort_by(|a, b| {
        let key = |s: &Vec<LandForm>| s.iter().map(|l| l.as_str().to_owned()).collect::<Vec<_>>();
        key(a).cmp(&key(b))
    });
    out.dedup();
    out
}

/// What is known of one child while the threads work.
#[derive(Clone, Copy, Debug, Default)]
struct Child {
    /// Its outcome, once decided.
    value: Option<Outcome>,
    /// The node budget of its next job.
    budget: u64,
    /// Whether a thread is working on it.
    busy: bool,
}

/// The undecided child that is not being worked on and has had the least work, with the budget
/// of its job (marked busy), or `None` when there is none.
fn take_job(children: &mut [Child]) -> Option<(usize, u64)> {
    let (i, child) = children
        .iter_mut()
        .enumerate()
        .filter(|(_, c)| c.value.is_none() && !c.busy)
        .min_by_key(|(i, c)| (c.budget, *i))?;
    child.busy = true;
    Some((i, child.budget))
}

/// The outcome of the sum of `lands` decided by `searches` side by side (one thread each), and
/// the nodes they visited in all. `None` when `limits` end the work first; `limits.nodes` counts
/// the nodes of all the threads.
///
/// A thread takes the undecided child with the least work done that no other thread is on, and
/// works on it within its budget (four times the last one's); no thread waits for another until
/// every undecided child is being worked on.
pub(super) fn outcome(
    searches: &[Mutex<Search>],
    lands: &[LandForm],
    limits: &Limits,
) -> (Option<Outcome>, u64) {
    let forms = children_of(lands);
    if forms.is_empty() {
        // No move: the player to move has won.
        return (Some(Outcome::Win), 0);
    }
    let first = Child {
        budget: FIRST_BUDGET,
        ..Child::default()
    };
    let children = Mutex::new(vec![first; forms.len()]);
    let total = AtomicU64::new(0);
    let stop = Arc::new(AtomicBool::new(false));
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let workers: Vec<_> = searches
            .iter()
            .map(|search| {
                let (forms, children, total, stop) = (&forms, &children, &total, &stop);
                scope.spawn(move || {
                    let mut search = search.lock().unwrap_or_else(|e| e.into_inner());
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let job = take_job(&mut children.lock().unwrap_or_else(|e| e.into_inner()));
                        let Some((child, budget)) = job else {
                            break;
                        };
                        // The caller's node limit counts the nodes of every thread.
                        let left = limits.nodes.map_or(u64::MAX, |n| {
                            n.saturating_sub(total.load(Ordering::Relaxed))
                        });
                        let job_limits = Limits {
                            nodes: Some(budget.min(left)),
                            deadline: limits.deadline,
                            stop: Some(stop.clone()),
                            clock: limits.clock.clone(),
                        };
                        let (value, nodes) = search.outcome(&forms[child], &job_limits);
                        total.fetch_add(nodes, Ordering::Relaxed);
                        if value == Some(Outcome::Loss) {
                            stop.store(true, Ordering::Relaxed);
                        }
                        let mut children = children.lock().unwrap_or_else(|e| e.into_inner());
                        let entry = &mut children[child];
                        entry.value = value;
                        entry.busy = false;
                        entry.budget = budget.saturating_mul(4);
                        if left <= budget {
                            // The caller's node limit is reached.
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                })
            })
            .collect();
        // The caller's limits (its stop flag, its deadline) end every thread's job.
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if limits.exceeded(total.load(Ordering::Relaxed)) {
                    stop.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        for worker in workers {
            // A panic in a thread is raised again here, once the watcher is told to end.
            if let Err(panic) = worker.join() {
                done.store(true, Ordering::Relaxed);
                std::panic::resume_unwind(panic);
            }
        }
        done.store(true, Ordering::Relaxed);
    });
    let nodes = total.into_inner();
    let children = children.into_inner().unwrap_or_else(|e| e.into_inner());
    if children.iter().any(|c| c.value == Some(Outcome::Loss)) {
        return (Some(Outcome::Win), nodes);
    }
    match children.iter().all(|c| c.value == Some(Outcome::Win)) {
        true => (Some(Outcome::Loss), nodes),
        false => (None, nodes),
    }
}
