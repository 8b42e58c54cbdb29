//! The descent of spec 4.5: argmin's L-BFGS (eight correction pairs) on the [`Model`]'s energy
//! with the exact gradient, under [`CappedSearch`], a backtracking line search whose steps
//! never exceed the PrEd caps ([`super::net::Net::caps`]), so nothing crosses at any step.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use argmin::core::{
    CostFunction, Error, Executor, Gradient, IterState, KV, Problem, Solver, State,
    TerminationReason, TerminationStatus,
};
use argmin::solver::linesearch::LineSearch;
use argmin::solver::quasinewton::LBFGS;

use super::energy::Model;

/// The energy as argmin's problem; a set stop flag makes every evaluation fail, which ends
/// the descent where it is.
struct Problem_<'a> {
    model: &'a Model,
    stop: &'a AtomicBool,
}

/// The descent was stopped (the stop flag was set).
#[derive(Debug, thiserror::Error)]
#[error("stopped")]
struct Stopped;

impl CostFunction for Problem_<'_> {
    type Param = Vec<f64>;
    type Output = f64;

    fn cost(&self, x: &Vec<f64>) -> Result<f64, Error> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(Stopped.into());
        }
        Ok(self.model.eval(x, None))
    }
}

impl Gradient for Problem_<'_> {
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;

    fn gradient(&self, x: &Vec<f64>) -> Result<Vec<f64>, Error> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(Stopped.into());
        }
        let mut g = Vec::with_capacity(x.len());
        self.model.eval(x, Some(&mut g));
        Ok(g)
    }
}

/// A backtracking line search (Armijo's condition) that starts from the largest step the
/// PrEd caps allow and never tries a longer one; it rejects non-finite energies.
#[derive(Clone)]
pub(crate) struct CappedSearch {
    model: Arc<Model>,
    direction: Vec<f64>,
    first: f64,
}

/// The line search found no step that lowers the energy.
#[derive(Debug, thiserror::Error)]
#[error("no step along the direction lowers the energy")]
struct NoDescent;

impl CappedSearch {
    /// The largest step along `d` from `x` that keeps every node within its cap.
    pub(crate) fn max_step(model: &Model, x: &[f64], d: &[f64]) -> f64 {
        let pts = model.positions(x);
        let caps = model.net.caps(&pts, model.w.comfort);
        let mut alpha = f64::INFINITY;
        for (k, &v) in model.free.iter().enumerate() {
            let len = d[2 * k].hypot(d[2 * k + 1]);
            if len > 0.0 {
                alpha = alpha.min(caps[v].max(0.0) / len);
            }
        }
        // Strictly inside the caps, so the gaps stay positive whatever the rounding.
        alpha * (1.0 - 1e-6)
    }
}

impl LineSearch<Vec<f64>, f64> for CappedSearch {
    fn search_direction(&mut self, direction: Vec<f64>) {
        self.direction = direction;
    }

    fn initial_step_length(&mut self, step: f64) -> Result<(), Error> {
        self.first = step;
        Ok(())
    }
}

type St = IterState<Vec<f64>, Vec<f64>, (), (), (), f64>;

impl<O> Solver<O, St> for CappedSearch
where
    O: CostFunction<Param = Vec<f64>, Output = f64>
        + Gradient<Param = Vec<f64>, Gradient = Vec<f64>>,
{
    fn name(&self) -> &str {
        "capped backtracking"
    }

    /// The whole search: from the capped first step, halve until Armijo's condition holds.
    fn init(&mut self, problem: &mut Problem<O>, mut state: St) -> Result<(St, Option<KV>), Error> {
        let x = state.take_param().ok_or(NoDescent)?;
        let f0 = if state.get_cost().is_finite() {
            state.get_cost()
        } else {
            problem.cost(&x)?
        };
        let g0 = match state.take_gradient() {
            Some(g) => g,
            None => problem.gradient(&x)?,
        };
        let d = &self.direction;
        let slope: f64 = g0.iter().zip(d).map(|(a, b)| a * b).sum();
        if slope.is_nan() || slope >= 0.0 {
            return Err(NoDescent.into());
        }
        let mut alpha = self.first.min(CappedSearch::max_step(&self.model, &x, d));
        for _ in 0..40 {
            if alpha.is_nan() || alpha <= 0.0 {
                break;
            }
            let y: Vec<f64> = x.iter().zip(d).map(|(a, b)| a + alpha * b).collect();
            let f = problem.cost(&y)?;
            if f.is_finite() && f <= f0 + 1e-4 * alpha * slope && f < f0 {
                let st = state.param(y).cost(f);
                return Ok((st, None));
            }
            alpha *= 0.5;
        }
        Err(NoDescent.into())
    }

    fn next_iter(&mut self, _: &mut Problem<O>, state: St) -> Result<(St, Option<KV>), Error> {
        Ok((state, None))
    }

    fn terminate(&mut self, _: &St) -> TerminationStatus {
        TerminationStatus::Terminated(TerminationReason::SolverConverged)
    }
}

/// How a descent ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Descent {
    /// L-BFGS iterations taken (over every restart).
    pub iterations: u64,
    /// The energy before and after.
    pub energy: (f64, f64),
    /// Whether the stop flag ended it.
    pub stopped: bool,
}

/// Minimises the model's energy from its start, in rounds of at most `per_round` L-BFGS
/// iterations (each round starting its memory afresh), until a round moves no node by a pixel
/// or gains less than a pixel's worth of energy per 24 steps, or `rounds` are done. Returns the parameters reached and how.
pub(crate) fn descend(
    model: &Arc<Model>,
    rounds: u32,
    per_round: u64,
    stop: &AtomicBool,
) -> (Vec<f64>, Descent) {
    let mut x = model.start();
    let e0 = model.eval(&x, None);
    let mut energy = e0;
    let mut iterations = 0;
    let mut stopped = false;
    for _ in 0..rounds {
        if stop.load(Ordering::Relaxed) {
            stopped = true;
            break;
        }
        let search = CappedSearch {
            model: Arc::clone(model),
            direction: Vec::new(),
            first: 1.0,
        };
        let solver = LBFGS::new(search, 8);
        let problem = Problem_ {
            model: model.as_ref(),
            stop,
        };
        let run = Executor::new(problem, solver)
            .configure(|c| c.param(x.clone()).max_iters(per_round))
            .ctrlc(false)
            .run();
        let Ok(result) = run else {
            stopped = stop.load(Ordering::Relaxed);
            break;
        };
        let state = result.state();
        iterations += state.get_iter();
        let best = state
            .get_best_param()
            .filter(|_| state.get_best_cost() < energy)
            .cloned();
        let Some(best) = best else {
            stopped = stop.load(Ordering::Relaxed);
            break;
        };
        let moved = best
            .chunks(2)
            .zip(x.chunks(2))
            .map(|(a, b)| (a[0] - b[0]).hypot(a[1] - b[1]))
            .fold(0.0, f64::max);
        let gain = energy - state.get_best_cost();
        energy = state.get_best_cost();
        x = best;
        // The drawing no longer changes visibly: no point moved by a pixel, or the round
        // gained less than a pixel's worth of energy for every 24 of its steps.
        if moved < 1.0 || gain < state.get_iter().max(1) as f64 / 24.0 {
            break;
        }
    }
    (
        x,
        Descent {
            iterations,
            energy: (e0, energy),
            stopped,
        },
    )
}
