//! The first stage: a request resolved into plans. A person's [`DrawRequest`] (spots, sides,
//! marks, a stroke) becomes one [`Plan`] per pair of corners it could use, in the order they
//! are tried ([`request_plans`]); a computer's move becomes one in `super::prepare_move`. A
//! plan is topology only (two corners, what the route must enclose, the stroke, the band's
//! lean): where it lies on the picture is the next stage's business ([`super::frame`]).

use sprouts_geom::Point;
use sprouts_topo::{BoundaryId, Corner, Position, SpotId};

use super::{BoardView, Refusal};
use crate::analyse::Analysis;

/// Which side of a spot a curve uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Side {
    /// Any side that leads somewhere (the first that works).
    Any,
    /// This corner of the position (see [`Analysis::corner_sector`]).
    Corner(Corner),
    /// The side of the spot facing this point (the pointer).
    Toward(Point),
}

/// A move as a person asks for it (spec 3.1).
#[derive(Clone, Debug, PartialEq)]
pub struct DrawRequest {
    /// The spot the curve leaves.
    pub from: SpotId,
    /// The side it leaves on.
    pub from_side: Side,
    /// The spot it reaches (the same for a loop).
    pub to: SpotId,
    /// The side it arrives on.
    pub to_side: Side,
    /// Marked spots: the curve must enclose the boundaries they lie on, and not the others
    /// (`None`: the shortest way, whatever it encloses).
    pub enclose: Option<Vec<SpotId>>,
    /// The pointer's stroke, used as the start of the curve if it reaches the destination
    /// without touching anything.
    pub stroke: Option<Vec<Point>>,
}

impl DrawRequest {
    /// The shortest way from `from` to `to`, any sides, nothing marked, no stroke.
    pub fn new(from: SpotId, to: SpotId) -> DrawRequest {
        DrawRequest {
            from,
            from_side: Side::Any,
            to,
            to_side: Side::Any,
            enclose: None,
            stroke: None,
        }
    }
}

/// What the route must do with the region's other boundaries.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Want {
    /// Nothing: the shortest way, the move is whatever it draws.
    Any,
    /// Exactly these boundaries go with `B_a` (a `sprouts-topo` move).
    SideA(Vec<BoundaryId>),
    /// Exactly these boundaries are inside the closed curve (a person's marks).
    Inside(Vec<BoundaryId>),
}

/// A move to draw, resolved to corners: takes a request (or a computer's move) and gives what
/// every later stage works from. Why a type of its own: the same plan is drawn at each
/// clearance of the ladder (`super::prepare`) and, for a computer's move, again with the band
/// leaning (`super::sparing_corridors`) or with other interchangeable boundaries.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// The corner the curve leaves.
    pub(crate) from: Corner,
    /// The corner it reaches.
    pub(crate) to: Corner,
    /// What it must do with the region's other boundaries.
    pub(crate) want: Want,
    /// The pointer's stroke, used as the route when it is usable.
    pub(crate) stroke: Option<Vec<Point>>,
    /// The band's lean ([`super::band::relax_leaning`]): `0` but for a computer's move drawn
    /// again ([`super::corridors`]).
    pub(crate) lean: f64,
}

/// The spot at corner `c`.
pub(super) fn spot_of(pos: &Position, c: Corner) -> Result<SpotId, Refusal> {
    pos.spot_at(c)
        .ok_or(Refusal::Illegal(format!("no corner {c:?}")))
}

/// The plans of a person's request, in the order they are tried: every pair of a corner of
/// `from` on its side and a corner of `to` on its side that face one region (a loop with `Any`
/// sides takes each pair once), each a plan or the refusal of that pair (marks given for a
/// curve joining two boundaries, or marking a spot outside the region). Empty when no pair
/// faces a common region.
///
/// # Errors
/// An unknown spot, or a side that is not a side of its spot.
pub(crate) fn request_plans(
    view: &BoardView<'_>,
    request: &DrawRequest,
) -> Result<Vec<Result<Plan, Refusal>>, Refusal> {
    let pos = view.position();
    let analysis = view.analysis;
    let froms = corners_for(pos, analysis, request.from, request.from_side)?;
    let tos = corners_for(pos, analysis, request.to, request.to_side)?;
    let mut plans = Vec::new();
    for &f in &froms {
        for &t in &tos {
            if pos.region_of(f.boundary) != pos.region_of(t.boundary) {
                continue;
            }
            // A loop at one spot: with `Any` sides, each pair of corners once.
            if request.from == request.to && t < f && request.from_side == request.to_side {
                continue;
            }
            let want = match &request.enclose {
                None => Want::Any,
                Some(marks) => {
                    if f.boundary != t.boundary {
                        plans.push(Err(Refusal::BadMarks(
                            "a curve joining two boundaries encloses nothing".into(),
                        )));
                        continue;
                    }
                    let region = pos.region_of(f.boundary).expect("a corner's region");
                    match boundaries_of_spots(pos, region, marks) {
                        Ok(bs) => Want::Inside(bs),
                        Err(e) => {
                            plans.push(Err(e));
                            continue;
                        }
                    }
                }
            };
            plans.push(Ok(Plan {
                from: f,
                to: t,
                want,
                stroke: request.stroke.clone(),
                lean: 0.0,
            }));
        }
    }
    Ok(plans)
}

/// Spots of a region's boundaries: the boundaries of region `r` holding the spots.
fn boundaries_of_spots(
    pos: &Position,
    region: sprouts_topo::RegionId,
    spots: &[SpotId],
) -> Result<Vec<BoundaryId>, Refusal> {
    let r = pos
        .region(region)
        .ok_or(Refusal::BadMarks("no such region".into()))?;
    let mut out = Vec::new();
    for &s in spots {
        let b = r
            .boundaries()
            .find(|b| b.corners().contains(&s))
            .ok_or_else(|| Refusal::BadMarks(format!("spot {s} is not in the move's region")))?;
        out.push(b.id());
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// The corners of `spot` a curve may use on `side`.
pub(super) fn corners_for(
    pos: &Position,
    analysis: &Analysis,
    spot: SpotId,
    side: Side,
) -> Result<Vec<Corner>, Refusal> {
    if pos.lives(spot).is_none() {
        return Err(Refusal::UnknownSpot(spot));
    }
    match side {
        Side::Any => Ok(pos.corners_of(spot)),
        Side::Corner(c) => {
            if pos.spot_at(c) == Some(spot) {
                Ok(vec![c])
            } else {
                Err(Refusal::NoSuchSide(spot))
            }
        }
        Side::Toward(p) => analysis
            .corner_at(spot, p)
            .map(|c| vec![c])
            .ok_or(Refusal::NoSuchSide(spot)),
    }
}
