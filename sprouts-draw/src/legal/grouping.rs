//! Grouping a picture's curves into moves: the combinatorial half of "is this picture reached by
//! moves from some n-spot start?".
//!
//! A move draws two curves, `x - z` and `z - y`, that meet at its new spot `z` (its *middle*;
//! `x = y` for a loop). So a picture reached by moves has its curves grouped in pairs, each
//! pair at the middle spot of its move, every middle spot the middle of one move, and the
//! moves drawn in an order where each move's end spots `x` and `y` are there before it: a
//! seed, or the middle of an earlier move.
//!
//! Orient each curve towards the middle of the move it belongs to. A grouping is then an
//! orientation in which every spot has 0 curves coming in (a seed) or 2 (a middle); and the
//! moves can be ordered exactly when the orientation has no directed cycle, since a curve
//! `u → z` says that `u` must be there before the move that makes `z`, and every spot on a
//! directed cycle has a curve coming in, so is a middle. [`group_moves`] searches for such an
//! orientation; [`group_moves_by_peeling`] is the slow reference that takes moves off the
//! picture, last first, in every order.

use std::collections::{HashMap, HashSet};

use sprouts_topo::SpotId;

use crate::drawing::CurveId;

/// The most search steps (spots branched on) [`group_moves`] takes before it gives up with
/// [`Unreachable::TooIntricate`]. A picture drawn by hand in the editor (a few dozen moves)
/// takes a few hundred at most.
pub const MAX_GROUPING_STEPS: u64 = 1_000_000;

/// One move of a grouping: the curves `from - middle` and `middle - to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupedMove {
    /// One end spot of the move.
    pub from: SpotId,
    /// The move's new spot, where its two curves meet.
    pub middle: SpotId,
    /// The other end spot (the same as `from` for a loop).
    pub to: SpotId,
    /// The curves `from - middle` and `middle - to`.
    pub curves: [CurveId; 2],
}

/// How a picture was reached: its seeds (the spots of the start) and its moves, in an order in
/// which each move's end spots are there before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveHistory {
    /// The spots that are no move's middle, in increasing order: the n-spot start.
    pub seeds: Vec<SpotId>,
    /// The moves in an order that draws the picture.
    pub moves: Vec<GroupedMove>,
}

/// Why a grouping under construction fails: the reason a search branch (or the picture
/// itself) is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Conflict {
    /// More than two curves must belong to the move that made one spot.
    #[error(
        "curves {} can only have been drawn by the move that made spot {spot}, which draws two curves at its new spot",
        curve_list(curves)
    )]
    Crowded {
        /// The spot.
        spot: SpotId,
        /// The curves that would be its move's.
        curves: Vec<CurveId>,
    },
    /// A curve must belong to the move that made a spot, and the spot has no second curve
    /// for that move.
    #[error(
        "curve {curve} can only have been drawn by the move that made spot {spot}, but spot {spot} has no second curve for that move"
    )]
    Lone {
        /// The spot.
        spot: SpotId,
        /// The curve.
        curve: CurveId,
    },
    /// The moves that made these spots each need the next one's spot first (the last needs
    /// the first's).
    #[error("{}", cycle_words(spots))]
    Cycle {
        /// The middle spots, in the order of the cycle.
        spots: Vec<SpotId>,
    },
}

impl Conflict {
    /// The spots and curves the conflict names (for a picture to mark).
    pub fn marks(&self) -> (Vec<SpotId>, Vec<CurveId>) {
        match self {
            Conflict::Crowded { spot, curves } => (vec![*spot], curves.clone()),
            Conflict::Lone { spot, curve } => (vec![*spot], vec![*curve]),
            Conflict::Cycle { spots } => (spots.clone(), Vec::new()),
        }
    }
}

fn curve_list(curves: &[CurveId]) -> String {
    let names: Vec<String> = curves.iter().map(ToString::to_string).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

fn cycle_words(spots: &[SpotId]) -> String {
    let names: Vec<String> = spots.iter().map(ToString::to_string).collect();
    match names.as_slice() {
        [a, b] => format!("the moves that made spots {a} and {b} each need the other's spot first"),
        _ => format!(
            "the moves that made spots {} each need the next one's spot first, and the last needs the first's",
            names.join(", ")
        ),
    }
}

/// Why a picture's curves cannot be grouped into moves drawn one after another.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unreachable {
    /// A curve names a spot that is not in the list.
    #[error("curve {curve} ends at spot {spot}, which is not in the picture")]
    UnknownSpot {
        /// The curve.
        curve: CurveId,
        /// The spot.
        spot: SpotId,
    },
    /// A spot has more than three curve ends.
    #[error("spot {spot} has {ends} curve ends; a spot has at most three")]
    TooManyEnds {
        /// The spot.
        spot: SpotId,
        /// Its curve ends.
        ends: usize,
    },
    /// A curve starts and ends at the same spot: no move draws such a curve (a loop move
    /// draws two curves, through its new spot).
    #[error(
        "curve {curve} starts and ends at spot {spot}: each curve of a move joins the move's new spot to another spot"
    )]
    LoopCurve {
        /// The curve.
        curve: CurveId,
        /// The spot.
        spot: SpotId,
    },
    /// A connected piece of the picture has an odd number of curves; each move draws two,
    /// both in one piece.
    #[error(
        "the piece of the picture through spot {spot} has {curves} curves, an odd number: every move draws two"
    )]
    OddCurves {
        /// A spot of the piece.
        spot: SpotId,
        /// Its curves.
        curves: usize,
    },
    /// The picture itself forces a conflict, before any choice.
    #[error("{0}")]
    Forced(Conflict),
    /// Every grouping fails.
    #[error(
        "the curves cannot be grouped into moves drawn one after another: all {tried} groupings tried fail, the first because {first}"
    )]
    NoGrouping {
        /// How many groupings were tried (branches of the search that failed).
        tried: u64,
        /// Why the first one failed.
        first: Conflict,
    },
    /// The search took more than [`MAX_GROUPING_STEPS`] steps.
    #[error(
        "the picture is too intricate to check within {MAX_GROUPING_STEPS} search steps; start from it as any valid position instead"
    )]
    TooIntricate,
}

impl Unreachable {
    /// The spots and curves the reason names (for a picture to mark).
    pub fn marks(&self) -> (Vec<SpotId>, Vec<CurveId>) {
        match self {
            Unreachable::UnknownSpot { curve, .. } => (Vec::new(), vec![*curve]),
            Unreachable::LoopCurve { curve, spot } => (vec![*spot], vec![*curve]),
            Unreachable::TooManyEnds { spot, .. } | Unreachable::OddCurves { spot, .. } => {
                (vec![*spot], Vec::new())
            }
            Unreachable::Forced(c) | Unreachable::NoGrouping { first: c, .. } => c.marks(),
            Unreachable::TooIntricate => (Vec::new(), Vec::new()),
        }
    }
}

/// The spots and curves as indices, checked: no unknown spot, at most three ends a spot.
struct Graph {
    ids: Vec<SpotId>,
    /// Curve `c` joins spots `ends[c].0` and `ends[c].1`.
    ends: Vec<(usize, usize)>,
    /// The curves at each spot (a curve from a spot to itself twice).
    at: Vec<Vec<usize>>,
}

impl Graph {
    fn new(spots: &[SpotId], curves: &[(SpotId, SpotId)]) -> Result<Graph, Unreachable> {
        let mut index = HashMap::with_capacity(spots.len());
        let mut ids = Vec::with_capacity(spots.len());
        for &s in spots {
            if index.insert(s, ids.len()).is_none() {
                ids.push(s);
            }
        }
        let mut at = vec![Vec::new(); ids.len()];
        let mut ends = Vec::with_capacity(curves.len());
        for (c, &(a, b)) in curves.iter().enumerate() {
            let curve = curve_id(c);
            let find = |s: SpotId| {
                index
                    .get(&s)
                    .copied()
                    .ok_or(Unreachable::UnknownSpot { curve, spot: s })
            };
            let (i, j) = (find(a)?, find(b)?);
            at[i].push(c);
            at[j].push(c);
            ends.push((i, j));
        }
        for (i, list) in at.iter().enumerate() {
            if list.len() > 3 {
                return Err(Unreachable::TooManyEnds {
                    spot: ids[i],
                    ends: list.len(),
                });
            }
        }
        Ok(Graph { ids, ends, at })
    }

    fn other(&self, c: usize, s: usize) -> usize {
        let (a, b) = self.ends[c];
        if a == s { b } else { a }
    }

    /// The connected pieces that have curves, each as its spots.
    fn pieces(&self) -> Vec<Vec<usize>> {
        let mut seen = vec![false; self.ids.len()];
        let mut res = Vec::new();
        for start in 0..self.ids.len() {
            if seen[start] || self.at[start].is_empty() {
                continue;
            }
            seen[start] = true;
            let mut piece = vec![start];
            let mut k = 0;
            while k < piece.len() {
                let s = piece[k];
                k += 1;
                for &c in &self.at[s] {
                    let t = self.other(c, s);
                    if !seen[t] {
                        seen[t] = true;
                        piece.push(t);
                    }
                }
            }
            res.push(piece);
        }
        res
    }
}

fn curve_id(c: usize) -> CurveId {
    CurveId(u32::try_from(c).unwrap_or(u32::MAX))
}

/// Groups the curves into moves (see the module docs): `curves[c]` joins the two spots of
/// curve `c` (named `CurveId(c)` in the answer).
///
/// The search orients the curves of each connected piece in turn. It propagates what each
/// spot forces (a spot with two curves in sends the rest out; one in and one curve left takes
/// it in; none in and one left sends it out), refuses an orientation that closes a directed
/// cycle as soon as it does, and branches on a spot with curves left, the most constrained
/// first. A spot has at most three curves, so a spot has at most four choices.
///
/// # Errors
/// Why not: the checks of the input ([`Unreachable::UnknownSpot`],
/// [`Unreachable::TooManyEnds`]), a curve from a spot to itself, a piece with an odd number of
/// curves, a conflict the picture forces, every grouping failing, or the search running past
/// [`MAX_GROUPING_STEPS`].
///
/// # Examples
/// Two seeds joined by a move (`1 - 3 - 2`), and a lone curve between two spots:
/// ```
/// use sprouts_draw::{group_moves, Unreachable};
/// use sprouts_topo::SpotId;
/// let s = |n| SpotId::new(n).unwrap();
/// let history = group_moves(&[s(1), s(2), s(3)], &[(s(1), s(3)), (s(3), s(2))]).unwrap();
/// assert_eq!(history.seeds, [s(1), s(2)]);
/// assert_eq!(history.moves[0].middle, s(3));
/// let refused = group_moves(&[s(1), s(2)], &[(s(1), s(2))]).unwrap_err();
/// assert!(matches!(refused, Unreachable::OddCurves { curves: 1, .. }));
/// ```
pub fn group_moves(
    spots: &[SpotId],
    curves: &[(SpotId, SpotId)],
) -> Result<MoveHistory, Unreachable> {
    let graph = Graph::new(spots, curves)?;
    for (c, &(a, b)) in graph.ends.iter().enumerate() {
        if a == b {
            return Err(Unreachable::LoopCurve {
                curve: curve_id(c),
                spot: graph.ids[a],
            });
        }
    }
    let pieces = graph.pieces();
    for piece in &pieces {
        let ends: usize = piece.iter().map(|&s| graph.at[s].len()).sum();
        if (ends / 2) % 2 == 1 {
            return Err(Unreachable::OddCurves {
                spot: piece
                    .iter()
                    .map(|&s| graph.ids[s])
                    .min()
                    .expect("a piece has a spot"),
                curves: ends / 2,
            });
        }
    }
    let mut search = Search::new(&graph);
    for piece in &pieces {
        search.solve(piece)?;
    }
    Ok(search.history())
}

/// The orientation being searched for.
struct Search<'g> {
    graph: &'g Graph,
    /// The middle each curve goes to, once chosen.
    head: Vec<Option<usize>>,
    /// Curves coming in at each spot.
    into: Vec<u8>,
    /// Curves not yet oriented at each spot.
    open: Vec<u8>,
    /// The curves oriented, in order (undone back to a mark).
    trail: Vec<usize>,
    steps: u64,
    tried: u64,
    first: Option<Conflict>,
}

impl<'g> Search<'g> {
    fn new(graph: &'g Graph) -> Search<'g> {
        Search {
            graph,
            head: vec![None; graph.ends.len()],
            into: vec![0; graph.ids.len()],
            open: graph
                .at
                .iter()
                .map(|l| u8::try_from(l.len()).unwrap_or(u8::MAX))
                .collect(),
            trail: Vec::new(),
            steps: 0,
            tried: 0,
            first: None,
        }
    }

    /// Orients the curves of one piece, or says why it cannot be done.
    fn solve(&mut self, piece: &[usize]) -> Result<(), Unreachable> {
        if let Err(c) = self.propagate(piece.to_vec()) {
            return Err(Unreachable::Forced(c));
        }
        self.tried = 0;
        self.first = None;
        match self.branch(piece) {
            Ok(true) => Ok(()),
            Ok(false) => Err(Unreachable::NoGrouping {
                tried: self.tried,
                first: self
                    .first
                    .take()
                    .expect("a failed search records its first conflict"),
            }),
            Err(()) => Err(Unreachable::TooIntricate),
        }
    }

    /// Depth-first search over the choices at one spot after another: `Ok(true)` when every
    /// curve of the piece is oriented, `Err` past the step limit.
    fn branch(&mut self, piece: &[usize]) -> Result<bool, ()> {
        // The spot with curves left and the fewest choices: one curve in already (it picks
        // its second), else any.
        let pick = piece
            .iter()
            .copied()
            .filter(|&s| self.open[s] > 0)
            .min_by_key(|&s| (u8::from(self.into[s] != 1), self.open[s]));
        let Some(s) = pick else {
            return Ok(true);
        };
        self.steps += 1;
        if self.steps > MAX_GROUPING_STEPS {
            return Err(());
        }
        let open: Vec<usize> = self.graph.at[s]
            .iter()
            .copied()
            .filter(|&c| self.head[c].is_none())
            .collect();
        // Each choice: the curves that come in at `s` (the others go out).
        let mut choices: Vec<Vec<usize>> = Vec::new();
        if self.into[s] == 1 {
            choices.extend(open.iter().map(|&c| vec![c]));
        } else {
            for i in 0..open.len() {
                for j in i + 1..open.len() {
                    choices.push(vec![open[i], open[j]]);
                }
            }
            choices.push(Vec::new());
        }
        for choice in choices {
            let mark = self.trail.len();
            let mut res = Ok(());
            for &c in &open {
                let to = if choice.contains(&c) {
                    s
                } else {
                    self.graph.other(c, s)
                };
                res = self.orient(c, to);
                if res.is_err() {
                    break;
                }
            }
            let touched: Vec<usize> = open
                .iter()
                .flat_map(|&c| [self.graph.ends[c].0, self.graph.ends[c].1])
                .collect();
            let res = res.and_then(|()| self.propagate(touched));
            match res {
                Ok(()) => {
                    if self.branch(piece)? {
                        return Ok(true);
                    }
                }
                Err(conflict) => {
                    self.tried += 1;
                    if self.first.is_none() {
                        self.first = Some(conflict);
                    }
                }
            }
            self.undo(mark);
        }
        Ok(false)
    }

    /// Orients curve `c` towards the middle `to`, refusing a directed cycle.
    fn orient(&mut self, c: usize, to: usize) -> Result<(), Conflict> {
        let from = self.graph.other(c, to);
        if let Some(path) = self.path(to, from) {
            let spots = path.iter().map(|&s| self.graph.ids[s]).collect();
            return Err(Conflict::Cycle { spots });
        }
        self.head[c] = Some(to);
        self.into[to] += 1;
        let (a, b) = self.graph.ends[c];
        self.open[a] -= 1;
        self.open[b] -= 1;
        self.trail.push(c);
        Ok(())
    }

    /// A directed path from `a` to `b` along oriented curves (tail to middle), its spots from
    /// `a` to `b`, if there is one.
    fn path(&self, a: usize, b: usize) -> Option<Vec<usize>> {
        let mut parent: HashMap<usize, usize> = HashMap::new();
        let mut stack = vec![a];
        let mut seen = HashSet::from([a]);
        while let Some(s) = stack.pop() {
            if s == b {
                let mut path = vec![b];
                let mut t = b;
                while let Some(&p) = parent.get(&t) {
                    path.push(p);
                    t = p;
                }
                path.reverse();
                return Some(path);
            }
            for &c in &self.graph.at[s] {
                if let Some(h) = self.head[c]
                    && h != s
                    && seen.insert(h)
                {
                    parent.insert(h, s);
                    stack.push(h);
                }
            }
        }
        None
    }

    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let c = self.trail.pop().expect("above the mark");
            let h = self.head[c].take().expect("an oriented curve");
            self.into[h] -= 1;
            let (a, b) = self.graph.ends[c];
            self.open[a] += 1;
            self.open[b] += 1;
        }
    }

    /// Applies what each spot forces until nothing changes (see [`group_moves`]).
    fn propagate(&mut self, mut queue: Vec<usize>) -> Result<(), Conflict> {
        while let Some(s) = queue.pop() {
            let into = self.into[s];
            let open: Vec<usize> = self.graph.at[s]
                .iter()
                .copied()
                .filter(|&c| self.head[c].is_none())
                .collect();
            let forced: Vec<(usize, usize)> = match (into, open.len()) {
                (3.., _) => {
                    let curves = self.graph.at[s]
                        .iter()
                        .filter(|&&c| self.head[c] == Some(s))
                        .map(|&c| curve_id(c))
                        .collect();
                    return Err(Conflict::Crowded {
                        spot: self.graph.ids[s],
                        curves,
                    });
                }
                (2, _) => open.iter().map(|&c| (c, self.graph.other(c, s))).collect(),
                (1, 0) => {
                    let curve = self.graph.at[s]
                        .iter()
                        .copied()
                        .find(|&c| self.head[c] == Some(s))
                        .map(curve_id)
                        .expect("one curve comes in");
                    return Err(Conflict::Lone {
                        spot: self.graph.ids[s],
                        curve,
                    });
                }
                (1, 1) => vec![(open[0], s)],
                (0, 1) => vec![(open[0], self.graph.other(open[0], s))],
                _ => Vec::new(),
            };
            for (c, to) in forced {
                self.orient(c, to)?;
                let (a, b) = self.graph.ends[c];
                queue.extend([a, b]);
            }
        }
        Ok(())
    }

    /// The seeds and the moves in an order that draws them (Kahn's algorithm, the lowest
    /// middle first among those ready).
    fn history(&self) -> MoveHistory {
        let g = self.graph;
        let n = g.ids.len();
        let ins = |z: usize| -> Vec<usize> {
            g.at[z]
                .iter()
                .copied()
                .filter(|&c| self.head[c] == Some(z))
                .collect()
        };
        let mut seeds: Vec<SpotId> = (0..n)
            .filter(|&s| self.into[s] == 0)
            .map(|s| g.ids[s])
            .collect();
        seeds.sort_unstable();
        // A middle is ready when both its end spots are there.
        let mut there: Vec<bool> = (0..n).map(|s| self.into[s] == 0).collect();
        let mut waiting: Vec<usize> = (0..n).filter(|&s| self.into[s] == 2).collect();
        waiting.sort_unstable_by_key(|&s| g.ids[s]);
        let mut moves = Vec::with_capacity(waiting.len());
        while !waiting.is_empty() {
            let k = waiting
                .iter()
                .position(|&z| ins(z).iter().all(|&c| there[g.other(c, z)]))
                .expect("an acyclic orientation has a middle ready");
            let z = waiting.remove(k);
            let c = ins(z);
            there[z] = true;
            moves.push(GroupedMove {
                from: g.ids[g.other(c[0], z)],
                middle: g.ids[z],
                to: g.ids[g.other(c[1], z)],
                curves: [curve_id(c[0]), curve_id(c[1])],
            });
        }
        MoveHistory { seeds, moves }
    }
}

/// The slow reference for [`group_moves`]: takes the moves off the picture last first, in
/// every order, and answers how many moves the picture was drawn by (`None` if no order
/// empties it).
///
/// The last move of a picture has a middle spot with exactly its two curves, each to another
/// spot; taking it away (the spot and its curves) leaves the picture before it. So a picture is
/// reached by moves exactly when some sequence of such removals takes every curve away. The
/// states (the curves left) are remembered once they fail, so equal states are not searched
/// twice; it is still exponential, for small pictures only (at most 64 curves).
///
/// # Panics
/// If there are more than 64 curves, or a curve names a spot not in `spots`.
pub fn group_moves_by_peeling(spots: &[SpotId], curves: &[(SpotId, SpotId)]) -> Option<usize> {
    assert!(curves.len() <= 64, "the reference takes at most 64 curves");
    for (a, b) in curves {
        assert!(
            spots.contains(a) && spots.contains(b),
            "curves join listed spots"
        );
    }
    let all = if curves.len() == 64 {
        u64::MAX
    } else {
        (1u64 << curves.len()) - 1
    };
    let mut failed = HashSet::new();
    peel(spots, curves, all, &mut failed).then_some(curves.len() / 2)
}

fn peel(
    spots: &[SpotId],
    curves: &[(SpotId, SpotId)],
    left: u64,
    failed: &mut HashSet<u64>,
) -> bool {
    if left == 0 {
        return true;
    }
    if failed.contains(&left) {
        return false;
    }
    for &z in spots {
        let at: Vec<usize> = (0..curves.len())
            .filter(|&c| left >> c & 1 == 1 && (curves[c].0 == z || curves[c].1 == z))
            .collect();
        let ends: usize = at
            .iter()
            .map(|&c| usize::from(curves[c].0 == z) + usize::from(curves[c].1 == z))
            .sum();
        let to_others = at.iter().all(|&c| curves[c].0 != curves[c].1);
        if at.len() == 2 && ends == 2 && to_others {
            let rest = left & !(1u64 << at[0]) & !(1u64 << at[1]);
            if peel(spots, curves, rest, failed) {
                return true;
            }
        }
    }
    failed.insert(left);
    false
}

#[cfg(test)]
mod tests;
