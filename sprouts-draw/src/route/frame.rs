//! The second stage: a [`Plan`] framed on the picture at one clearance of the ladder. It
//! checks what the position must allow (lives, one region), finds the two end spots' centres,
//! discs and sectors, and the move's [`Enclosure`] (the region's other boundaries and where
//! they lie), and says what a route must do with them: the hypotheses on which boundaries
//! are inside it, and the judge that accepts or rejects a route. Every later stage reads the
//! frame; none changes it.

use sprouts_geom::Point;
use sprouts_topo::SpotId;

use super::marked::Enclosure;
use super::plan::{Plan, Want, spot_of};
use super::planner::{Scene, Terminal};
use super::{BoardView, Refusal, fit};

/// A plan on the picture at the clearance `tight d0`: takes a [`BoardView`] and a [`Plan`],
/// gives the move's ends and enclosure and the judge of routes. A type of its own so that the
/// walls, the search, the relaxation and the certificate all read one account of the move.
pub(super) struct Frame<'a> {
    /// The board read.
    pub(super) view: BoardView<'a>,
    /// The plan framed.
    pub(super) plan: &'a Plan,
    /// The picture's obstacles, with the planner's clearance `tight d0` as its `d0`.
    pub(super) scene: Scene,
    /// The spot the curve leaves, its centre and radius.
    pub(super) a: SpotId,
    pub(super) ca: Point,
    pub(super) ra: f64,
    /// The spot it reaches, its centre and radius.
    pub(super) b: SpotId,
    pub(super) cb: Point,
    pub(super) rb: f64,
    /// Whether the two corners are on one boundary (the move splits the region in two).
    pub(super) one_boundary: bool,
    /// Whether the two corners are one (a loop through one corner).
    pub(super) same_corner: bool,
    /// The region's other boundaries, for a one-boundary move.
    pub(super) enclosure: Option<Enclosure>,
    /// The sectors of the two corners at their spots (start angle, width), `None` at a spot
    /// with no curve.
    pub(super) sector_a: Option<(f64, f64)>,
    pub(super) sector_b: Option<(f64, f64)>,
    /// The cells to leave from and arrive at are those of these terminals.
    pub(super) t_from: Terminal,
    pub(super) t_to: Terminal,
    /// What the route must enclose, as hypotheses on which of the enclosure's other
    /// boundaries are inside it (empty: anything goes).
    pub(super) hypotheses: Vec<Vec<bool>>,
}

impl<'a> Frame<'a> {
    /// Frames `plan` on `view`'s picture with the planner's clearance `tight d0`.
    ///
    /// # Errors
    /// A corner that is not in the position, a spot without the lives the move needs, two
    /// corners not in one region, a spot not in the picture.
    pub(super) fn new(
        view: &BoardView<'a>,
        plan: &'a Plan,
        tight: f64,
    ) -> Result<Frame<'a>, Refusal> {
        let pos = view.position();
        let analysis = view.analysis;
        let drawing = view.drawing;
        let (a, b) = (spot_of(pos, plan.from)?, spot_of(pos, plan.to)?);
        for s in [a, b] {
            if pos.lives(s).is_none_or(|l| l.get() == 0) {
                return Err(Refusal::NoLife(s));
            }
        }
        if a == b && pos.lives(a).is_none_or(|l| l.get() < 2) {
            return Err(Refusal::LoopNeedsTwoLives(a));
        }
        if pos.region_of(plan.from.boundary) != pos.region_of(plan.to.boundary) {
            return Err(Refusal::NotInOneRegion(a, b));
        }
        let one_boundary = plan.from.boundary == plan.to.boundary;
        let mut scene = Scene::new(drawing, view.settings);
        scene.d0 *= tight;
        let (ca, ra) = scene.spot(a).ok_or(Refusal::UnknownSpot(a))?;
        let (cb, rb) = scene.spot(b).ok_or(Refusal::UnknownSpot(b))?;
        let same_corner = plan.from == plan.to;
        let enclosure = if one_boundary {
            Enclosure::new(pos, analysis, &scene, plan.from, plan.to)
        } else {
            None
        };
        let sector_a = fit::sector_angles(analysis, drawing, plan.from);
        let sector_b = fit::sector_angles(analysis, drawing, plan.to);
        let t_from = Terminal {
            spot: a,
            centre: ca,
            radius: ra,
            corners: vec![plan.from],
        };
        let t_to = Terminal {
            spot: b,
            centre: cb,
            radius: rb,
            corners: vec![plan.to],
        };
        let hypotheses = hypotheses(&plan.want, enclosure.as_ref());
        Ok(Frame {
            view: *view,
            plan,
            scene,
            a,
            ca,
            ra,
            b,
            cb,
            rb,
            one_boundary,
            same_corner,
            enclosure,
            sector_a,
            sector_b,
            t_from,
            t_to,
            hypotheses,
        })
    }

    /// The end spots as terminals of the free space: one for a loop (with both its corners),
    /// two otherwise.
    pub(super) fn mask(&self) -> Vec<Terminal> {
        let (a, b, plan) = (self.a, self.b, self.plan);
        if a == b {
            let mut cs = vec![plan.from];
            if plan.to != plan.from {
                cs.push(plan.to);
            }
            vec![Terminal {
                spot: a,
                centre: self.ca,
                radius: self.ra,
                corners: cs,
            }]
        } else {
            vec![self.t_from.clone(), self.t_to.clone()]
        }
    }

    /// Whether `route` does with the region's other boundaries what the plan wants: for a
    /// computer's move, the boundaries of `B_a` on one side of it (either side, the arc
    /// deciding which is which); for a person's marks, exactly the marked ones inside it.
    pub(super) fn judge(&self, route: &[Point]) -> bool {
        match (&self.plan.want, &self.enclosure) {
            (Want::SideA(_), Some(e)) if !self.hypotheses.is_empty() => {
                e.a_sides(route).contains(&self.hypotheses[0])
            }
            (Want::Inside(_), Some(e)) if !self.hypotheses.is_empty() => {
                e.inside(route) == self.hypotheses[0]
            }
            _ => true,
        }
    }

    /// The move in words when the plan is a computer's move, else `a -> b`.
    pub(super) fn words(&self) -> String {
        let (pos, plan) = (self.view.position(), self.plan);
        match &plan.want {
            Want::SideA(s) => pos
                .make_move(plan.from, plan.to, s)
                .map(|m| m.describe(pos))
                .unwrap_or_else(|_| format!("{} -> {}", self.a, self.b)),
            _ => format!("{} -> {}", self.a, self.b),
        }
    }
}

/// The hypotheses of a plan's enclosure: for `B_a` (a computer's move), the boundaries of
/// `B_a` inside and the others out, or the other way round; for a person's marks, the marked
/// ones inside. Empty without an enclosure or other boundaries, or without marks.
fn hypotheses(want: &Want, enclosure: Option<&Enclosure>) -> Vec<Vec<bool>> {
    let others = enclosure.map_or(0, |e| e.others.len());
    match (want, enclosure) {
        (Want::SideA(s), Some(e)) if others > 0 => {
            let m: Vec<bool> = e.others.iter().map(|(b, _)| s.contains(b)).collect();
            let flip = m.iter().map(|&x| !x).collect();
            vec![m, flip]
        }
        (Want::Inside(s), Some(e)) if others > 0 => {
            vec![e.others.iter().map(|(b, _)| s.contains(b)).collect()]
        }
        _ => Vec::new(),
    }
}
