//! Parity search (spec 5.4, 5.6, 5.8): negamax alpha-beta over canonical positions.
//!
//! Every move removes one life, so a game is decided by the parity of the number of moves left.
//! Leaves are valued `±1 / (1 + M - m)` from the bounds of [`crate::bounds`] (positive when `M`
//! has the parity the player to move wants: odd in normal play, even in misère), where Sharp
//! takes for `M` the exact longest game of every part when [`LongestGame`] finds it within a
//! small budget. Values `±2` are exact: game ends, positions whose every game has the same
//! length (`m = M`), and, in normal play, positions whose parts are all solved. Parts whose bound
//! fits in the remaining depth are solved for their nimber (memoised by canonical form) and
//! folded into one nim heap (Sprague-Grundy; Lemoine and Viennot's technique), so the search
//! pays for the sum of the parts' trees instead of their product.
//!
//! The transposition table is keyed by the canonical form of the unsolved parts and the heap.
//! Inside the tree a family with more than 64 enclosure choices contributes 64 random distinct
//! ones (a position whose sampled moves all lose is then not called lost); at the root every
//! move is considered, duplicates by canonical form dropped. Iterative deepening one ply at a
//! time, the clock read at every node; depth 1 is always completed. The root candidates are
//! split among worker threads, each with its own tables.
//!
//! Alpha-beta in negamax form: D. E. Knuth, R. W. Moore, "An analysis of alpha-beta pruning",
//! Artificial Intelligence 6, 1975.

use std::rc::Rc;
use std::time::Duration;

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;
use sprouts_topo::canon::{Canonicalizer, DEFAULT_BUDGET};
use sprouts_topo::{BoundaryId, Position, Reductions, SpotId};

use super::candidates::{Stopped, stopped_choice};
use super::montecarlo::monte_carlo_shares;
use super::{Candidate, Choice, MonteCarloBudget, Player, Report, candidates_within};
use crate::Limits;
use crate::bounds::{BoundsScratch, LongestGame, lower_bound, upper_bound};
use crate::impartial::{Convention, Outcome};
use crate::seed::splitmix64;

/// An exact win for the player to move.
const WIN: f64 = 2.0;
/// A value that is not exact but near a loss: every sampled move loses.
const SAMPLED_LOSS: f64 = -1.999;
/// Positions with at most this many moves left (by the upper bound) have their candidates
/// decided exactly first, within [`PROBE_NODES`].
const PROBE_MOVES: u32 = 20;
/// The nodes of the exact decision of the candidates, per move (the tables are kept across
/// moves, so later moves reuse what earlier ones proved).
const PROBE_NODES: u64 = 20_000;
/// Values this close count as equal at the root.
const TIE: f64 = 1e-9;
/// The tie-break plays its games per candidate for at most this many tied candidates in all.
pub(crate) const TIE_FIELD: usize = 16;
/// The depth stored with exact values.
const EXACT_DEPTH: u32 = u32::MAX;

/// Settings of a parity search.
#[derive(Clone, Debug, PartialEq)]
pub struct ParityConfig {
    /// Sharp (exact longest games at the leaves where they are found in time) or fast (bounds).
    pub sharp: bool,
    /// The deepest search (plies); `None`: as deep as the time allows.
    pub depth: Option<u32>,
    /// Time per move; `None`: no clock of its own (the caller's limits still apply).
    pub time: Option<Duration>,
    /// Worker threads for the root candidates (0: one per core).
    pub threads: usize,
    /// Enclosure choices a family contributes inside the tree (the rest are sampled).
    pub sample: usize,
    /// Random games per tied candidate to break ties.
    pub tie_games: u32,
    /// The work budget (nodes) of the exact longest game of one part at a leaf (Sharp).
    pub leaf_budget: u64,
}

impl Default for ParityConfig {
    fn default() -> ParityConfig {
        ParityConfig {
            sharp: false,
            depth: Some(6),
            time: None,
            threads: 0,
            sample: 64,
            tie_games: 32,
            leaf_budget: 2_000,
        }
    }
}

/// The parity search player (spec 5.4).
pub struct ParitySearch {
    config: ParityConfig,
    seed: u64,
    moves: u64,
    workers: Vec<Searcher>,
}

/// What a root search found.
pub(crate) struct RootResult {
    pub(crate) cands: Vec<Candidate>,
    /// The value of every candidate for the player to move (exact where `±2`), or an upper
    /// bound on it where `exact` is false (a candidate shown to be no better than the best).
    pub(crate) values: Vec<f64>,
    /// Whether each value is the candidate's value rather than an upper bound.
    pub(crate) exact: Vec<bool>,
    /// The deepest completed search; when every candidate is decided exactly, at least the
    /// moves left by the upper bound (the search saw to the end).
    pub(crate) depth: u32,
    pub(crate) nodes: u64,
    /// The candidates decided exactly before the search.
    pub(crate) proved: usize,
}

impl RootResult {
    /// A result with every candidate at value 0, exact.
    pub(crate) fn new(cands: Vec<Candidate>) -> RootResult {
        RootResult {
            values: vec![0.0; cands.len()],
            exact: vec![true; cands.len()],
            cands,
            depth: 0,
            nodes: 0,
            proved: 0,
        }
    }

    /// The proved verdict for the player to move, if any.
    pub(crate) fn verdict(&self) -> Option<Outcome> {
        if (0..self.values.len()).any(|i| self.exact[i] && self.values[i] >= WIN) {
            Some(Outcome::Win)
        } else if !self.values.is_empty() && self.values.iter().all(|&v| v <= -WIN) {
            Some(Outcome::Loss)
        } else {
            None
        }
    }

    /// The best value and the candidates shown to tie with it (exact values only: a candidate
    /// only shown to be no better is not among them).
    pub(crate) fn best(&self) -> (f64, Vec<usize>) {
        let pool = |exact_only: bool| {
            (0..self.values.len())
                .filter(|&i| !exact_only || self.exact[i])
                .map(|i| self.values[i])
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let mut best = pool(true);
        let exact_only = best > f64::NEG_INFINITY;
        if !exact_only {
            best = pool(false);
        }
        let tied = (0..self.values.len())
            .filter(|&i| (self.exact[i] || !exact_only) && self.values[i] >= best - TIE)
            .collect();
        (best, tied)
    }

    /// The candidates that may tie with the best but were not checked (their upper bound
    /// reaches the best value).
    pub(crate) fn unchecked(&self) -> usize {
        let (best, _) = self.best();
        (0..self.values.len())
            .filter(|&i| !self.exact[i] && self.values[i] >= best - TIE)
            .count()
    }
}

impl ParitySearch {
    /// A parity search with the given settings and seed (for sampling and ties).
    pub fn new(config: ParityConfig, seed: u64) -> ParitySearch {
        ParitySearch {
            config,
            seed,
            moves: 0,
            workers: Vec::new(),
        }
    }

    /// The settings.
    pub fn config(&self) -> &ParityConfig {
        &self.config
    }

    /// Searches the root: every candidate valued at the deepest completed depth within `limits`
    /// (the player's own time is applied by [`Player::choose`]).
    pub(crate) fn search(
        &mut self,
        position: &Position,
        convention: Convention,
        limits: &Limits,
    ) -> Result<RootResult, Stopped> {
        self.moves += 1;
        let threads = match self.config.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        };
        let cands = candidates_within(position, limits)?;
        let n_workers = threads.min(cands.len()).max(1);
        while self.workers.len() < n_workers {
            let seed = splitmix64(self.seed ^ splitmix64(self.workers.len() as u64 + 1));
            self.workers.push(Searcher::new(&self.config, seed));
        }
        for w in &mut self.workers {
            w.start_move(convention, limits);
        }
        let mut result = RootResult::new(cands);
        if result.cands.is_empty() {
            return Ok(result);
        }
        let moves_left = upper_bound(position);
        let max_depth = self
            .config
            .depth
            .unwrap_or(u32::MAX)
            .min(moves_left + 1)
            .max(1);
        // Near the end of the game, the candidates are first decided exactly where the
        // solver's search of their parts (nimbers, couples) finishes within a small budget.
        if convention == Convention::Normal && moves_left <= PROBE_MOVES {
            let w = &mut self.workers[0];
            let mut left = PROBE_NODES;
            for (i, c) in result.cands.iter().enumerate() {
                let lands: Vec<&str> = c.form.lands().collect();
                let before = w.nodes;
                let child_wins = w.probe(&lands, left);
                left = left.saturating_sub(w.nodes - before);
                if let Some(child_wins) = child_wins {
                    result.values[i] = if child_wins { -WIN } else { WIN };
                    result.proved += 1;
                    if !child_wins {
                        break;
                    }
                }
                if left == 0 {
                    break;
                }
            }
        }
        let mut order: Vec<usize> = (0..result.cands.len())
            .filter(|&i| result.values[i].abs() < WIN)
            .collect();
        for depth in 1..=max_depth {
            let must_complete = depth == 1;
            // Round-robin over the workers, best candidates of the last depth first.
            let mut chunks: Vec<Vec<usize>> = vec![Vec::new(); n_workers];
            for (k, &i) in order.iter().enumerate() {
                chunks[k % n_workers].push(i);
            }
            let cands = &result.cands;
            let want_ties = (2 * TIE_FIELD).div_ceil(n_workers);
            let outcomes: Vec<Result<Vec<RootValue>, Abort>> = std::thread::scope(|s| {
                let handles: Vec<_> = self.workers[..n_workers]
                    .iter_mut()
                    .zip(&chunks)
                    .map(|(w, chunk)| {
                        s.spawn(move || {
                            w.unlimited = must_complete;
                            let r = w.search_root(cands, chunk, depth, want_ties);
                            w.unlimited = false;
                            r
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a search worker panicked"))
                    .collect()
            });
            result.nodes = self.workers.iter().map(|w| w.nodes).sum();
            if outcomes.iter().any(|o| o.is_err()) {
                break;
            }
            for o in outcomes.into_iter().flatten() {
                for r in o {
                    result.values[r.index] = r.value;
                    result.exact[r.index] = r.exact;
                }
            }
            result.depth = depth;
            order.sort_by(|&a, &b| result.values[b].total_cmp(&result.values[a]));
            if result.values.iter().all(|v| v.abs() >= WIN) || limits.exceeded(0) {
                // Every candidate decided exactly: the search saw to the end of the game.
                let proved = (0..result.values.len()).all(|i| {
                    result.values[i] <= -WIN || (result.exact[i] && result.values[i] >= WIN)
                });
                if proved {
                    result.depth = depth.max(moves_left);
                }
                break;
            }
        }
        Ok(result)
    }

    /// Breaks a tie among `tied` candidates by random games, then at random.
    fn break_tie(
        &self,
        result: &RootResult,
        tied: &[usize],
        convention: Convention,
        limits: &Limits,
    ) -> usize {
        break_tie(
            result,
            tied,
            convention,
            self.config.tie_games,
            splitmix64(self.seed ^ self.moves),
            limits,
        )
    }
}

/// Breaks a tie among `tied` candidates by Monte Carlo, then at random.
///
/// A budget of `games` random games per candidate for up to [`TIE_FIELD`] candidates is spent
/// on a field of at most twice that many tied candidates (drawn at random) by successive
/// halving: the tied candidates get an equal share of a round's games, the better
/// half by wins goes on to the next round, until one round's winners are left. A large tie (the
/// middle game of a 30-spot start ties hundreds of moves) so costs a bounded number of games, and
/// the clock of `limits` is read before each round: when the time is already up, the choice is
/// made at random among the tied candidates without any games.
///
/// Successive halving: Z. Karnin, T. Koren, O. Somekh, "Almost optimal exploration in
/// multi-armed bandits", ICML 2013.
pub(crate) fn break_tie(
    result: &RootResult,
    tied: &[usize],
    convention: Convention,
    games: u32,
    seed: u64,
    limits: &Limits,
) -> usize {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 1);
    if tied.len() == 1 || games == 0 || limits.exceeded(0) {
        return *tied.choose(&mut rng).expect("a tied candidate");
    }
    // A larger tie: a random field of twice that many (random choice among the rest).
    let field: Vec<usize> = if tied.len() > 2 * TIE_FIELD {
        tied.choose_multiple(&mut rng, 2 * TIE_FIELD)
            .copied()
            .collect()
    } else {
        tied.to_vec()
    };
    let total = u64::from(games) * field.len().min(TIE_FIELD) as u64;
    let rounds = u64::from(usize::BITS - (field.len() - 1).leading_zeros()).max(1);
    // Alive: the tied candidates still in the running, with their wins and games so far.
    let mut alive: Vec<(usize, u32, u32)> = field.iter().map(|&i| (i, 0, 0)).collect();
    let mut round = 0u64;
    loop {
        let per = (total / rounds / alive.len() as u64).clamp(1, u64::from(games)) as u32;
        let sub: Vec<Candidate> = alive
            .iter()
            .map(|&(i, _, _)| result.cands[i].clone())
            .collect();
        let (wins, _) = monte_carlo_shares(
            &sub,
            MonteCarloBudget::Games(per),
            splitmix64(seed ^ splitmix64(round + 1)),
            convention,
            &Limits::none(),
        );
        for (a, w) in alive.iter_mut().zip(wins) {
            a.1 += w;
            a.2 += per;
        }
        round += 1;
        // The better half by share of wins (equal shares: the earlier candidate, a stable order).
        alive.sort_by(|a, b| {
            (u64::from(b.1) * u64::from(a.2)).cmp(&(u64::from(a.1) * u64::from(b.2)))
        });
        let share = |a: &(usize, u32, u32)| f64::from(a.1) / f64::from(a.2.max(1));
        let top = share(&alive[0]);
        let best_count = alive.iter().take_while(|a| share(a) >= top).count();
        if round >= rounds || alive.len() == 1 || limits.exceeded(0) {
            return alive[*(0..best_count)
                .collect::<Vec<_>>()
                .choose(&mut rng)
                .expect("a best one")]
            .0;
        }
        let keep = alive.len().div_ceil(2).max(best_count);
        alive.truncate(keep);
    }
}

impl Player for ParitySearch {
    fn choose(
        &mut self,
        position: &Position,
        convention: Convention,
        limits: &Limits,
    ) -> Option<Choice> {
        let start = limits.now();
        let mut limits = limits.clone();
        if let Some(t) = self.config.time {
            limits = limits.with_time(t);
        }
        // A fifth of the time is kept for breaking ties.
        let mut search_limits = limits.clone();
        if let Some(d) = limits.deadline {
            search_limits.deadline = Some(start + d.saturating_duration_since(start).mul_f64(0.8));
        }
        let Ok(result) = self.search(position, convention, &search_limits) else {
            return stopped_choice(position, splitmix64(self.seed ^ splitmix64(self.moves)));
        };
        if result.cands.is_empty() {
            return None;
        }
        let (best, tied) = result.best();
        let pick = self.break_tie(&result, &tied, convention, &limits);
        let verdict = result.verdict();
        Some(Choice {
            mv: result.cands[pick].mv.clone(),
            report: Report {
                depth: result.depth,
                candidates: result.cands.len(),
                verdict,
                value: Some(best),
                work: result.nodes,
                words: {
                    let mut w = String::new();
                    if result.proved > 0 {
                        w.push_str(&format!("{} decided exactly; ", result.proved));
                    }
                    w.push_str(&format!("{} tied at the best value", tied.len()));
                    let unchecked = result.unchecked();
                    if unchecked > 0 {
                        w.push_str(&format!(" ({unchecked} more no better, not checked)"));
                    }
                    w
                },
            },
        })
    }

    fn name(&self) -> String {
        let kind = if self.config.sharp { "sharp" } else { "fast" };
        match (self.config.time, self.config.depth) {
            (Some(t), _) => format!("parity-{kind}:{}s", t.as_secs_f64()),
            (None, Some(d)) => format!("parity-{kind}:depth={d}"),
            (None, None) => format!("parity-{kind}"),
        }
    }
}

/// The value of one root candidate found by a worker.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootValue {
    index: usize,
    value: f64,
    /// Whether `value` is exact (otherwise an upper bound).
    exact: bool,
}

/// The search ran out of time.
#[derive(Debug)]
pub(crate) struct Abort;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Debug)]
struct Entry {
    depth: u32,
    value: f64,
    bound: Bound,
    best: Option<Box<str>>,
}

/// What is known of one part (land), by canonical form.
#[derive(Clone, Copy, Debug, Default)]
struct LandInfo {
    upper: u32,
    /// The exact longest game (Sharp), or `None`; `tried` when the budget ran out.
    longest: Option<u32>,
    tried: bool,
    nimber: Option<u32>,
}

/// The parts solved and folded into the heap.
#[derive(Debug, Default)]
struct Frozen {
    /// Their canonical forms, sorted.
    forms: Vec<Box<str>>,
    /// Their live spots, sorted.
    spots: Vec<SpotId>,
    /// The sum of their upper bounds.
    upper: u32,
}

/// A position in the search: the real position, the solved parts taken out of play, the heap.
#[derive(Clone)]
struct Node {
    pos: Position,
    whole: String,
    frozen: Rc<Frozen>,
    heap: u32,
}

/// One worker: its tables and its budget.
pub(crate) struct Searcher {
    tt: FxHashMap<Box<str>, Entry>,
    lands: FxHashMap<Box<str>, LandInfo>,
    couples: FxHashMap<(Box<str>, u32), bool>,
    longest: LongestGame,
    scratch: BoundsScratch,
    canon: Canonicalizer,
    rng: Xoshiro256PlusPlus,
    nodes: u64,
    convention: Convention,
    sharp: bool,
    sample: usize,
    leaf_budget: u64,
    limits: Limits,
    unlimited: bool,
}

impl Searcher {
    pub(crate) fn new(config: &ParityConfig, seed: u64) -> Searcher {
        let mut canon = Canonicalizer::new();
        canon.remember_lands(true);
        Searcher {
            tt: FxHashMap::default(),
            lands: FxHashMap::default(),
            couples: FxHashMap::default(),
            longest: LongestGame::new(),
            scratch: BoundsScratch::new(),
            canon,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            nodes: 0,
            convention: Convention::Normal,
            sharp: config.sharp,
            sample: config.sample.max(1),
            leaf_budget: config.leaf_budget,
            limits: Limits::none(),
            unlimited: false,
        }
    }

    /// Whether the search must give up now: at its limits, or, while a depth that must complete
    /// is searched, only when the stop flag is raised.
    fn must_stop(&self) -> bool {
        match self.unlimited {
            true => self.limits.stop_raised(),
            false => self.limits.exceeded(self.nodes),
        }
    }

    pub(crate) fn start_move(&mut self, convention: Convention, limits: &Limits) {
        if convention != self.convention {
            self.tt.clear();
        }
        // Keep the tables bounded across moves.
        if self.tt.len() > 1_000_000 {
            self.tt.clear();
        }
        // The canonicalizer's memory of land forms is per move.
        self.canon.remember_lands(true);
        if self.lands.len() > 1_000_000 || self.couples.len() > 4_000_000 {
            self.lands.clear();
            self.couples.clear();
            self.canon.remember_lands(true);
        }
        self.convention = convention;
        self.limits = limits.clone();
        self.nodes = 0;
    }

    #[cfg(test)]
    fn node_of(&mut self, pos: Position) -> Node {
        let mut whole = String::new();
        self.canon
            .canonical_into(&pos, Reductions::Glop, DEFAULT_BUDGET, &mut whole);
        Node {
            pos,
            whole,
            frozen: Rc::new(Frozen::default()),
            heap: 0,
        }
    }

    /// Values the candidates of `chunk` (best first by the last depth) at `depth`.
    ///
    /// At depth 1 every candidate is valued exactly. Deeper, ties are everywhere (hundreds of
    /// candidates share the best value in a 30-spot middle game), and showing that a candidate
    /// ties needs every reply searched, where showing that it is no better needs only one good
    /// reply. So each candidate after the first is first searched with a window that only asks
    /// whether it is better than the best so far (its value is then exact, and the new best);
    /// otherwise its value is an upper bound. Then candidates whose bound reaches the best are
    /// checked in random order, with the full window, until `want_ties` ties are shown (the
    /// tie-break plays among at most that many) or the clock runs out: the depth is complete
    /// after the first pass.
    fn search_root(
        &mut self,
        cands: &[Candidate],
        chunk: &[usize],
        depth: u32,
        want_ties: usize,
    ) -> Result<Vec<RootValue>, Abort> {
        let node = |i: usize| Node {
            pos: cands[i].child.clone(),
            whole: cands[i].form.as_str().to_string(),
            frozen: Rc::new(Frozen::default()),
            heap: 0,
        };
        let mut out: Vec<RootValue> = Vec::with_capacity(chunk.len());
        let mut best = f64::NEG_INFINITY;
        if depth == 1 {
            for &i in chunk {
                let v = -self.negamax(&node(i), 0, f64::NEG_INFINITY, f64::INFINITY)?;
                out.push(RootValue {
                    index: i,
                    value: v,
                    exact: true,
                });
            }
            return Ok(out);
        }
        for &i in chunk {
            let child = node(i);
            if best == f64::NEG_INFINITY {
                let v = -self.negamax(&child, depth - 1, f64::NEG_INFINITY, f64::INFINITY)?;
                best = v;
                out.push(RootValue {
                    index: i,
                    value: v,
                    exact: true,
                });
                continue;
            }
            // Is the candidate better than the best (by more than a tie)? The reply search stops
            // at the first reply that holds it to the best.
            let beta = -(best + TIE);
            let r = self.negamax(&child, depth - 1, f64::NEG_INFINITY, beta)?;
            if r >= beta {
                out.push(RootValue {
                    index: i,
                    value: -r,
                    exact: false,
                });
            } else {
                best = -r;
                out.push(RootValue {
                    index: i,
                    value: -r,
                    exact: true,
                });
            }
        }
        // Check the candidates that may tie, in random order, until enough ties are shown.
        let mut ties = out
            .iter()
            .filter(|r| r.exact && r.value >= best - TIE)
            .count();
        let mut maybe: Vec<usize> = (0..out.len())
            .filter(|&k| !out[k].exact && out[k].value >= best - TIE)
            .collect();
        maybe.shuffle(&mut self.rng);
        for k in maybe {
            if ties >= want_ties {
                break;
            }
            let child = node(out[k].index);
            let beta = -(best - TIE);
            let Ok(r) = self.negamax(&child, depth - 1, f64::NEG_INFINITY, beta) else {
                break;
            };
            if r >= beta {
                // Worse than the best: the bound is tighter now.
                out[k].value = -r;
            } else {
                out[k].value = -r;
                out[k].exact = true;
                ties += 1;
            }
        }
        Ok(out)
    }

    fn terminal(&self, heap: u32) -> f64 {
        match self.convention {
            Convention::Normal if heap != 0 => WIN,
            Convention::Normal => -WIN,
            Convention::Misere => WIN,
        }
    }

    fn land_info(&mut self, form: &str) -> LandInfo {
        if let Some(&i) = self.lands.get(form) {
            return i;
        }
        let p = Position::parse_glop(form).expect("canonical forms read back");
        let info = LandInfo {
            upper: upper_bound(&p),
            ..LandInfo::default()
        };
        self.lands.insert(form.into(), info);
        info
    }

    /// `M` of a part: the exact longest game (Sharp, when found within the leaf budget) or the
    /// upper bound.
    fn land_upper(&mut self, form: &str) -> u32 {
        let info = self.land_info(form);
        if !self.sharp {
            return info.upper;
        }
        if let Some(l) = info.longest {
            return l;
        }
        // Past the clock (a depth that must complete), the fast bound: the exact longest game
        // is a refinement, not worth overrunning the move's time for.
        if info.tried || self.limits.exceeded(self.nodes) {
            return info.upper;
        }
        let mut limits = Limits::nodes(self.leaf_budget);
        if !self.unlimited {
            limits.deadline = self.limits.deadline;
            limits.clock = self.limits.clock.clone();
            limits.stop = self.limits.stop.clone();
        }
        let r = self.longest.longest_of_lands(&[form], &limits).value;
        let e = self.lands.get_mut(form).expect("entered above");
        e.longest = r;
        e.tried = true;
        r.unwrap_or(e.upper)
    }

    /// The nimber of a part: the least heap `h` such that the part beside `*h` is lost for the
    /// player to move (memoised).
    fn nimber(&mut self, form: &str) -> Result<u32, Abort> {
        if let Some(n) = self.land_info(form).nimber {
            return Ok(n);
        }
        let mut h = 0;
        while self.win_couple(form, h)? {
            h += 1;
        }
        self.lands.get_mut(form).expect("entered above").nimber = Some(h);
        Ok(h)
    }

    /// Whether the sum of `lands` is a win for the player to move (normal play), if that is
    /// worked out within `budget` more nodes (and the move's limits).
    fn probe(&mut self, lands: &[&str], budget: u64) -> Option<bool> {
        let saved = self.limits.clone();
        let cap = self.nodes.saturating_add(budget);
        self.limits.nodes = Some(saved.nodes.map_or(cap, |n| n.min(cap)));
        let r = self.win_sum(lands, 0).ok();
        self.limits = saved;
        r
    }

    /// Whether the sum of `lands` and a heap `*heap` is a win for the player to move (normal
    /// play): the smaller lands by their nimbers, the largest by a win/loss search beside the
    /// heap of the others (the couples of Lemoine and Viennot), which stops at the first
    /// winning move.
    pub(crate) fn win_sum(&mut self, lands: &[&str], heap: u32) -> Result<bool, Abort> {
        if lands.is_empty() {
            return Ok(heap != 0);
        }
        let largest = (0..lands.len())
            .max_by_key(|&i| (self.land_info(lands[i]).upper, lands[i].len()))
            .expect("non-empty");
        let mut h = heap;
        for (i, l) in lands.iter().enumerate() {
            if i != largest {
                h ^= self.nimber(l)?;
            }
        }
        self.win_couple(lands[largest], h)
    }

    /// Whether the land `form` beside `*heap` is a win for the player to move.
    fn win_couple(&mut self, form: &str, heap: u32) -> Result<bool, Abort> {
        if let Some(n) = self.land_info(form).nimber {
            return Ok(n != heap);
        }
        if let Some(&w) = self.couples.get(&(Box::from(form), heap)) {
            return Ok(w);
        }
        self.nodes += 1;
        if self.must_stop() {
            return Err(Abort);
        }
        let p = Position::parse_glop(form).expect("canonical forms read back");
        let mut children: Vec<Vec<Box<str>>> = Vec::new();
        p.for_each_child_lands(|c| children.push(c.lands().map(Box::from).collect()));
        // Fewest lives left first: small children are quick to decide.
        children.sort_by_key(|c| c.iter().map(|l| l.len()).sum::<usize>());
        let mut win = false;
        for child in &children {
            let refs: Vec<&str> = child.iter().map(|l| &**l).collect();
            if !self.win_sum(&refs, heap)? {
                win = true;
                break;
            }
        }
        if !win {
            for h in 0..heap {
                if !self.win_couple(form, h)? {
                    win = true;
                    break;
                }
            }
        }
        self.couples.insert((Box::from(form), heap), win);
        Ok(win)
    }

    fn evaluate(&mut self, node: &Node, lands: &[&str]) -> f64 {
        let upper: u32 = lands.iter().map(|l| self.land_upper(l)).sum();
        let lower = lower_bound(&node.pos)
            .saturating_sub(node.frozen.upper)
            .max(lands.len() as u32);
        self.leaf_value(upper, lower, node.heap)
    }

    /// The value of a leaf with `upper` and `lower` bounds on the moves left in its unsolved
    /// parts, beside a heap.
    fn leaf_value(&self, upper: u32, lower: u32, heap: u32) -> f64 {
        if upper == 0 {
            return self.terminal(heap);
        }
        let lower = lower.min(upper);
        let want_odd = self.convention == Convention::Normal;
        if upper == lower {
            // Every game has `upper` moves: the parity decides, exactly.
            return match self.convention {
                Convention::Normal if (upper % 2) ^ heap != 0 => WIN,
                Convention::Normal => -WIN,
                Convention::Misere if upper.is_multiple_of(2) => WIN,
                Convention::Misere => -WIN,
            };
        }
        let v = 1.0 / f64::from(1 + upper - lower);
        if (upper % 2 == 1) == want_odd { v } else { -v }
    }

    /// Fast search one ply above the leaves: the children are valued straight from the real
    /// positions (the bounds need no canonical form), without forms or deduplication.
    fn search_last_ply(
        &mut self,
        node: &Node,
        mut alpha: f64,
        beta: f64,
    ) -> Result<(f64, bool), Abort> {
        let pos = &node.pos;
        let frozen_region = self.frozen_regions(node);
        let mut complete = true;
        let mut best = f64::NEG_INFINITY;
        let mut child = Position::new(0);
        // The children of a complete position are complete.
        let whole_picture = Some(pos.is_complete());
        'families: for fam in pos.families() {
            if frozen_region[fam.region().index()] {
                continue;
            }
            let moves: Vec<sprouts_topo::Move> = if fam.distinct_move_count() <= self.sample as u128
            {
                fam.distinct_moves().collect()
            } else {
                complete = false;
                self.sample_enclosures(&fam)
            };
            for mv in moves {
                if pos.play_into(&mv, &mut child).is_err() {
                    continue;
                }
                self.nodes += 1;
                if self.must_stop() {
                    return Err(Abort);
                }
                let b = self.scratch.bounds_with(&child, whole_picture);
                let upper = b.upper.saturating_sub(node.frozen.upper);
                let lower = b.lower.saturating_sub(node.frozen.upper).max(1);
                let v = -self.leaf_value(upper, lower, node.heap);
                best = best.max(v);
                alpha = alpha.max(v);
                if alpha >= beta {
                    break 'families;
                }
            }
        }
        Ok((best, complete))
    }

    fn frozen_regions(&self, node: &Node) -> Vec<bool> {
        let pos = &node.pos;
        if node.frozen.spots.is_empty() {
            return vec![false; pos.region_count()];
        }
        pos.regions()
            .map(|r| {
                r.boundaries().any(|b| {
                    b.corners()
                        .iter()
                        .any(|s| node.frozen.spots.binary_search(s).is_ok())
                })
            })
            .collect()
    }

    fn negamax(&mut self, node: &Node, depth: u32, alpha: f64, beta: f64) -> Result<f64, Abort> {
        self.nodes += 1;
        if self.must_stop() {
            return Err(Abort);
        }
        let lands = unsolved(&node.whole, &node.frozen.forms);
        if lands.is_empty() {
            return Ok(self.terminal(node.heap));
        }
        // Parts whose bound fits in the remaining depth are solved and folded into the heap.
        if self.convention == Convention::Normal && lands.len() >= 2 {
            let mut newly: Vec<&str> = Vec::new();
            let mut heap = node.heap;
            for &l in &lands {
                if self.land_info(l).upper <= depth {
                    heap ^= self.nimber(l)?;
                    newly.push(l);
                }
            }
            if newly.len() == lands.len() {
                return Ok(if heap != 0 { WIN } else { -WIN });
            }
            if !newly.is_empty() {
                let folded = self.freeze(node, &newly, heap);
                return self.search_node(&folded, depth, alpha, beta);
            }
        }
        self.search_node(node, depth, alpha, beta)
    }

    fn search_node(
        &mut self,
        node: &Node,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
    ) -> Result<f64, Abort> {
        let lands = unsolved(&node.whole, &node.frozen.forms);
        if depth == 0 {
            return Ok(self.evaluate(node, &lands));
        }
        let mut key = lands.join("+");
        if node.heap != 0 {
            key.push_str(&format!("#{}", node.heap));
        }
        let mut tt_best: Option<Box<str>> = None;
        if let Some(e) = self.tt.get(key.as_str()) {
            if e.depth >= depth {
                match e.bound {
                    Bound::Exact => return Ok(e.value),
                    Bound::Lower => alpha = alpha.max(e.value),
                    Bound::Upper => beta = beta.min(e.value),
                }
                if alpha >= beta {
                    return Ok(e.value);
                }
            }
            tt_best.clone_from(&e.best);
        }
        let alpha0 = alpha;
        if depth == 1 && !self.sharp {
            let (mut best, complete) = self.search_last_ply(node, alpha, beta)?;
            if alpha < beta && best < beta {
                for h in 0..node.heap {
                    let child = Node {
                        heap: h,
                        ..node.clone()
                    };
                    let v = -self.search_node(&child, 0, -beta, -alpha)?;
                    best = best.max(v);
                    alpha = alpha.max(v);
                    if alpha >= beta {
                        break;
                    }
                }
            }
            return Ok(self.store(key, best, complete, alpha0, beta, depth, None));
        }
        let (mut children, complete) = self.children(node, false);
        if let Some(b) = &tt_best
            && let Some(k) = children.iter().position(|c| c.whole.as_str() == &**b)
        {
            children.swap(0, k);
        }
        let mut best = f64::NEG_INFINITY;
        let mut best_key: Option<Box<str>> = None;
        for child in &children {
            let v = -self.negamax(child, depth - 1, -beta, -alpha)?;
            if v > best {
                best = v;
                best_key = Some(child.whole.as_str().into());
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        // Moves in the heap.
        if alpha < beta {
            for h in 0..node.heap {
                let child = Node {
                    heap: h,
                    ..node.clone()
                };
                let v = -self.search_node(&child, depth - 1, -beta, -alpha)?;
                best = best.max(v);
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        Ok(self.store(key, best, complete, alpha0, beta, depth, best_key))
    }

    /// Stores a searched value in the table and returns it (a sampled loss is not exact).
    #[allow(
        clippy::too_many_arguments,
        reason = "the search's state at one node, stored once"
    )]
    fn store(
        &mut self,
        key: String,
        mut best: f64,
        complete: bool,
        alpha0: f64,
        beta: f64,
        depth: u32,
        best_key: Option<Box<str>>,
    ) -> f64 {
        if best == f64::NEG_INFINITY {
            // No move at all (cannot happen with unsolved parts left): lost in normal play.
            best = self.terminal(0);
        }
        if !complete && best <= -WIN {
            best = SAMPLED_LOSS;
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let exact =
            (best >= WIN && bound != Bound::Upper) || (best <= -WIN && bound != Bound::Lower);
        self.tt.insert(
            key.into_boxed_str(),
            Entry {
                depth: if exact { EXACT_DEPTH } else { depth },
                value: best,
                bound: if exact { Bound::Exact } else { bound },
                best: best_key,
            },
        );
        best
    }

    /// Takes the solved parts `newly` out of play into the heap.
    fn freeze(&mut self, node: &Node, newly: &[&str], heap: u32) -> Node {
        let mut frozen = Frozen {
            forms: node.frozen.forms.clone(),
            spots: node.frozen.spots.clone(),
            upper: node.frozen.upper,
        };
        let mut wanted: Vec<&str> = newly.to_vec();
        let mut text = String::new();
        for land in node.pos.lands() {
            let live: Vec<SpotId> = land
                .spots()
                .filter(|(_, l)| l.get() > 0)
                .map(|(s, _)| s)
                .collect();
            if live.iter().any(|s| frozen.spots.binary_search(s).is_ok()) {
                continue;
            }
            self.canon
                .canonical_into(&land, Reductions::Glop, DEFAULT_BUDGET, &mut text);
            if let Some(k) = wanted.iter().position(|w| *w == text) {
                wanted.swap_remove(k);
                frozen.upper += self.land_info(&text).upper;
                frozen.forms.push(text.as_str().into());
                frozen.spots.extend(live);
            }
        }
        frozen.forms.sort_unstable();
        frozen.spots.sort_unstable();
        Node {
            pos: node.pos.clone(),
            whole: node.whole.clone(),
            frozen: Rc::new(frozen),
            heap,
        }
    }

    /// The distinct children (by canonical form), and whether every move was considered
    /// (families with many enclosures are sampled inside the tree).
    fn children(&mut self, node: &Node, root: bool) -> (Vec<Node>, bool) {
        let pos = &node.pos;
        let frozen_region = self.frozen_regions(node);
        let mut complete = true;
        let mut seen: FxHashSet<String> = FxHashSet::default();
        let mut out = Vec::new();
        let mut child = Position::new(0);
        let mut text = String::new();
        for fam in pos.families() {
            if frozen_region[fam.region().index()] {
                continue;
            }
            let moves: Vec<sprouts_topo::Move> =
                if root || fam.distinct_move_count() <= self.sample as u128 {
                    fam.distinct_moves().collect()
                } else {
                    complete = false;
                    self.sample_enclosures(&fam)
                };
            for mv in moves {
                if pos.play_into(&mv, &mut child).is_err() {
                    continue;
                }
                self.canon
                    .canonical_into(&child, Reductions::Glop, DEFAULT_BUDGET, &mut text);
                if seen.insert(text.clone()) {
                    out.push(Node {
                        pos: child.clone(),
                        whole: text.clone(),
                        frozen: Rc::clone(&node.frozen),
                        heap: node.heap,
                    });
                }
            }
        }
        (out, complete)
    }

    /// Up to `sample` random distinct enclosure choices of a family (by how many of each group
    /// of interchangeable boundaries go inside).
    fn sample_enclosures(&mut self, fam: &sprouts_topo::Family) -> Vec<sprouts_topo::Move> {
        let groups = fam.interchangeable_groups();
        let free = fam.free_boundaries();
        let mut chosen: FxHashSet<SmallVec<[u32; 8]>> = FxHashSet::default();
        let mut out = Vec::new();
        let mut tries = 0;
        while out.len() < self.sample && tries < 4 * self.sample {
            tries += 1;
            let digits: SmallVec<[u32; 8]> = groups
                .iter()
                .map(|&g| self.rng.random_range(0..=g))
                .collect();
            if !chosen.insert(digits.clone()) {
                continue;
            }
            let mut side: SmallVec<[BoundaryId; 8]> = SmallVec::new();
            let mut start = 0usize;
            for (g, &size) in groups.iter().enumerate() {
                side.extend_from_slice(&free[start..start + digits[g] as usize]);
                start += size as usize;
            }
            if let Some(mv) = fam.with_side_a(&side) {
                out.push(mv);
            }
        }
        out
    }
}

/// The lands of `whole` (a canonical form) that are not among `frozen` (a sorted multiset).
fn unsolved<'a>(whole: &'a str, frozen: &[Box<str>]) -> Vec<&'a str> {
    if whole == "!" {
        return Vec::new();
    }
    let mut used = vec![false; frozen.len()];
    whole
        .split('+')
        .filter(|l| {
            for (k, f) in frozen.iter().enumerate() {
                if !used[k] && &**f == *l {
                    used[k] = true;
                    return false;
                }
            }
            true
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::candidates;

    #[test]
    fn unsolved_lands() {
        let frozen: Vec<Box<str>> = vec!["0".into()];
        assert_eq!(unsolved("0+0+22", &frozen), vec!["0", "22"]);
        assert_eq!(unsolved("!", &frozen), Vec::<&str>::new());
    }

    #[test]
    fn nimbers_of_parts() {
        let mut s = Searcher::new(&ParityConfig::default(), 1);
        // The n-spot starts from 1: 0 0 1 1 1 0 (Applegate, Jacobson, Sleator).
        for (n, want) in [(1, 0), (2, 0), (3, 1), (4, 1), (5, 1), (6, 0)] {
            let form = Position::new(n).canonical();
            let x = form.lands().fold(0, |x, l| x ^ s.nimber(l).unwrap());
            assert_eq!(x, want, "{n} spots");
        }
    }

    /// The root search with its narrow windows finds the same best value as searching every
    /// candidate with the full window; its exact values are the values, its bounds are bounds.
    #[test]
    fn root_windows_agree_with_full_windows() {
        use rand::SeedableRng;
        let config = ParityConfig::default();
        for (spots, moves, seed) in [(8, 3, 1), (10, 5, 2), (12, 2, 3), (9, 8, 4)] {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut p = Position::new(spots);
            for _ in 0..moves {
                let mv = super::super::random_move(&p, &mut rng).unwrap();
                p = p.play(&mv).unwrap();
            }
            let cands = candidates(&p);
            let chunk: Vec<usize> = (0..cands.len()).collect();
            for depth in [2, 3] {
                let mut fast = Searcher::new(&config, seed);
                fast.start_move(Convention::Normal, &Limits::none());
                let got = fast.search_root(&cands, &chunk, depth, 3).unwrap();
                let mut full = Searcher::new(&config, seed);
                full.start_move(Convention::Normal, &Limits::none());
                let want: Vec<f64> = chunk
                    .iter()
                    .map(|&i| {
                        let node = full.node_of(cands[i].child.clone());
                        -full
                            .negamax(&node, depth - 1, f64::NEG_INFINITY, f64::INFINITY)
                            .unwrap()
                    })
                    .collect();
                let best = want.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let got_best = got
                    .iter()
                    .filter(|r| r.exact)
                    .map(|r| r.value)
                    .fold(f64::NEG_INFINITY, f64::max);
                assert!((got_best - best).abs() < TIE, "{p:?} depth {depth}");
                let ties = want.iter().filter(|&&v| v >= best - TIE).count();
                let shown = got
                    .iter()
                    .filter(|r| r.exact && r.value >= best - TIE)
                    .count();
                assert!(shown >= ties.min(3), "{shown} ties shown of {ties}");
                for r in &got {
                    let w = want[r.index];
                    if r.exact {
                        assert!((r.value - w).abs() < TIE, "{p:?} depth {depth}");
                    } else {
                        assert!(r.value >= w - TIE && r.value <= best + TIE, "{p:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn node_of_start() {
        let mut s = Searcher::new(&ParityConfig::default(), 1);
        let node = s.node_of(Position::new(3));
        assert_eq!(node.whole, "0*3");
        let (children, complete) = s.children(&node, true);
        assert!(complete);
        assert_eq!(children.len(), Position::new(3).distinct_children().len());
    }
}
