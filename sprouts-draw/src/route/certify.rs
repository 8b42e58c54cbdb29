//! The sixth stage: a route made into a certified spline (spec 3.5, 3.6). For each route to
//! fit in turn ([`super::relax`]), the [`Certifier`] bows a route between two close spots out
//! ([`spot::bow_out`]), sets the ports by the sector rules, fits the clamped spline, places the
//! new spot ([`spot::new_spot_at`]), certifies the curve and the new spot's disc (the refined
//! control polygon keeps `0.6 d0` from everything), checks the picture with the curve in it
//! ([`marked::picture_check`]) and judges the fitted curve again. A curve the certificate
//! refuses is fitted again more closely; one whose new spot has no room is bulged where the
//! disc fits; a one-boundary move's lens is widened for the next move. The first route that
//! passes gives a [`Certified`] curve, and [`prepared`] the move it draws.

use sprouts_geom::{DRAWING_FIT_TOLERANCE, Point, Spline, Vector, refined_polygon};
use sprouts_topo::{BoundaryId, Move, SpotId};

use super::frame::Frame;
use super::plan::Want;
use super::planner::FreeGrid;
use super::search::RouteMethod;
use super::{Refusal, crossing, fit, marked, spot};
use crate::analyse::Analysed;

/// The fit's tolerance when the curve fitted within [`DRAWING_FIT_TOLERANCE`] fails the
/// certificate (pixels).
const FINE_FIT_TOLERANCE: f64 = 0.5;

/// A curve fitted and certified: what the certificate's stage gives the last one. A type so
/// that the bulges that make room ([`spot::room_for_the_new_spot`],
/// [`spot::room_for_the_next_move`]) can fit and certify again and compare.
pub(super) struct Certified {
    /// The polyline the spline was fitted to (the route with its stubs).
    pub(super) pts: Vec<Point>,
    /// The spline.
    pub(super) spline: Spline,
    /// The arc length at which the spline is cut for the new spot.
    pub(super) cut_at: f64,
    /// Its certified clearance.
    pub(super) clearance: f64,
    /// Its refined control polygon.
    pub(super) curve: Vec<Point>,
    /// The picture with the move in it and what the picture check read off it.
    pub(super) picture: Analysed,
}

/// A route made into a certified spline, not yet played: what the route gives the board,
/// whose checked transaction plays it.
pub(crate) struct Prepared {
    /// The move the curve draws (a move of the board's position).
    pub(crate) mv: Move,
    /// The spline, from the move's first spot to its second.
    spline: Spline,
    /// The arc length at which the spline is cut for the new spot.
    cut_at: f64,
    /// The relaxed route the spline was fitted to.
    pub(crate) route: Vec<Point>,
    /// The certified clearance of the spline (pixels).
    pub(crate) clearance: f64,
    /// How the route was found.
    pub(crate) method: RouteMethod,
    /// The picture with the move in it, as the picture's check before play read it (the
    /// board's transaction reads the move off it instead of analysing the picture again).
    pub(crate) picture: Analysed,
}

impl Prepared {
    /// The spline cut where the new spot goes, for the board to play.
    ///
    /// # Errors
    /// What [`fit::new_spot_cut`] refuses (the same cut passed the picture check).
    pub(crate) fn cut(&self) -> Result<sprouts_geom::Cut, sprouts_geom::SplineError> {
        fit::new_spot_cut(&self.spline, self.cut_at)
    }
}

/// The first of `tries` that makes a certified curve, or the first refusal.
///
/// # Errors
/// The first route's refusal ([`Refusal::Fit`], [`Refusal::Certificate`],
/// [`Refusal::Picture`], [`Refusal::WrongEnclosure`]) when none passes.
pub(super) fn first_certified(
    frame: &Frame<'_>,
    grid: &FreeGrid,
    tries: Vec<Vec<Point>>,
    observer: &mut dyn FnMut(&[Point]),
) -> Result<Certified, Refusal> {
    let certifier = Certifier::new(frame, grid)?;
    let mut first_refusal = None;
    let ntries = tries.len();
    for route in tries {
        match certifier.route(route, observer) {
            Ok(x) => return Ok(x),
            Err(e) => {
                tracing::debug!(tries = ntries, refusal = e.detail(), "a route failed");
                first_refusal.get_or_insert(e);
            }
        }
    }
    Err(first_refusal.expect("a route was tried"))
}

/// The move `certified` draws, ready to play: for a computer's move its own `B_a`, else the
/// boundaries the curve puts on its `B_a` side.
///
/// # Errors
/// [`Refusal::Illegal`] if the position has no such move.
pub(super) fn prepared(
    frame: &Frame<'_>,
    method: RouteMethod,
    certified: Certified,
) -> Result<Prepared, Refusal> {
    let Certified {
        pts,
        spline,
        cut_at,
        clearance,
        curve,
        picture,
    } = certified;
    let plan = frame.plan;
    let side_a: Vec<BoundaryId> = match (&plan.want, &frame.enclosure) {
        (Want::SideA(s), _) => s.clone(),
        (_, Some(e)) => e.side_a_of(&e.a_sides(&curve)[0]),
        (_, None) => Vec::new(),
    };
    let mv = frame
        .view
        .position()
        .make_move(plan.from, plan.to, &side_a)
        .map_err(|e| Refusal::Illegal(e.to_string()))?;
    Ok(Prepared {
        mv,
        spline,
        cut_at,
        route: pts,
        clearance,
        method,
        picture,
    })
}

/// Fits and certifies the routes of one frame.
struct Certifier<'a> {
    frame: &'a Frame<'a>,
    /// The free space the way was found in (for the new spot's room and the bow).
    grid: &'a FreeGrid,
    /// What the certificate measures the curve against.
    obstacles: fit::Obstacles,
    /// The certificate's clearance, `0.6 d0` of the settings (not of the ladder's rung).
    need: f64,
    /// A one-boundary move whose end spots keep a life between them leaves two regions where
    /// the game goes on (each has the new spot's life and theirs): both need room for a move.
    ends_keep_a_life: bool,
}

impl<'a> Certifier<'a> {
    /// # Errors
    /// [`Refusal::Fit`] when the picture's obstacles cannot be indexed.
    fn new(frame: &'a Frame<'a>, grid: &'a FreeGrid) -> Result<Certifier<'a>, Refusal> {
        let settings = frame.view.settings;
        let pos = frame.view.position();
        let obstacles =
            fit::Obstacles::new(&frame.scene).ok_or(Refusal::Fit("bad obstacles".into()))?;
        let need = 0.6 * settings.min_clearance;
        let (a, b) = (frame.a, frame.b);
        let lives = |s: SpotId| pos.lives(s).map_or(0, |l| u32::from(l.get()));
        let ends_keep_a_life = frame.one_boundary
            && if a == b {
                lives(a) >= 3
            } else {
                lives(a) + lives(b) >= 3
            };
        Ok(Certifier {
            frame,
            grid,
            obstacles,
            need,
            ends_keep_a_life,
        })
    }

    /// One route made into a certified curve: bowed, given its ports and stubs, fitted and
    /// certified at the drawing's tolerance and then more closely, bulged for the new spot,
    /// its lens widened.
    fn route(
        &self,
        route: Vec<Point>,
        observer: &mut dyn FnMut(&[Point]),
    ) -> Result<Certified, Refusal> {
        let f = self.frame;
        let (a, b, ca, ra, cb, rb) = (f.a, f.b, f.ca, f.ra, f.cb, f.rb);
        let scene = &f.scene;
        // Two spots close together: the new spot, near half the arc length, needs its disc
        // clear of both, so a route too short for it bows out to one side.
        let route = if a != b {
            spot::bow_out(&route, self.grid, scene, (ca, ra), (cb, rb), &|r| {
                f.judge(r)
                    && crossing::is_simple(r)
                    && marked::keeps_its_sides(r, scene, f.view.analysis, (&f.t_from, &f.t_to))
            })
        } else {
            route
        };

        // Ports, fit, certificate: with the route eased into its ports first, then as the
        // route goes (whose refusal is the one given).
        let stub = ra.max(rb) + 0.5 * scene.d0;
        let reach = stub + fit::EASE;
        if let Ok(ports) = self.ports(&route, stub, reach)
            && let Some(pts) = fit::eased(&route, (ca, ports.0), (cb, ports.1), stub, reach)
            && let Ok(x) = self.fitted(pts, ports, stub, observer)
        {
            return Ok(x);
        }
        let ports = self.ports(&route, stub, 2.0 * stub)?;
        self.fitted(
            fit::with_stubs(&route, (ca, ports.0), (cb, ports.1), stub, 3.0),
            ports,
            stub,
            observer,
        )
    }

    /// The ports of `route` by the sector rules (spec 3.5), each wanted towards the route's
    /// first point farther than `ahead` (at least two stubs) from its spot.
    ///
    /// # Errors
    /// [`Refusal::Fit`] for a route that never leaves its spot.
    fn ports(&self, route: &[Point], stub: f64, ahead: f64) -> Result<(Vector, Vector), Refusal> {
        let f = self.frame;
        let (ca, cb) = (f.ca, f.cb);
        let away = |p: &Point, c: Point| (p - c).norm() > ahead.max(2.0 * stub);
        let first = route.iter().find(|p| away(p, ca)).copied().unwrap_or(cb);
        let last = route
            .iter()
            .rev()
            .find(|p| away(p, cb))
            .copied()
            .unwrap_or(ca);
        let (mut wa, mut wb): (Vector, Vector) = (first - ca, last - cb);
        if wa.norm() < 1e-9 || wb.norm() < 1e-9 {
            // A route that never leaves the spots' neighbourhood: its own first and last legs.
            wa = route[1] - ca;
            wb = route[route.len() - 2] - cb;
            if wa.norm() < 1e-9 || wb.norm() < 1e-9 {
                return Err(Refusal::Fit("the route does not leave its spot".into()));
            }
        }
        Ok(if f.same_corner {
            fit::loop_ports(f.sector_a, wa, wb)
        } else {
            (fit::port(f.sector_a, wa), fit::port(f.sector_b, wb))
        })
    }

    /// The polyline `pts` (the route with its stubs in the directions of `ports`) fitted,
    /// certified, bulged for its new spot and widened for the next move.
    fn fitted(
        &self,
        pts: Vec<Point>,
        ports: (Vector, Vector),
        stub: f64,
        observer: &mut dyn FnMut(&[Point]),
    ) -> Result<Certified, Refusal> {
        let scene = &self.frame.scene;
        observer(&pts);
        // A bulged polyline is fitted and certified again if it keeps the move.
        let attempt = |tolerance: f64| {
            move |p: &[Point]| {
                self.keeps(p)
                    .then(|| self.certified(p.to_vec(), ports, tolerance).ok())?
            }
        };
        // A curve that fails the certificate is fitted again more closely (the fit's 1.5 px
        // can take a curve along a narrow corridor, or a hook at its port, too close); one
        // whose new spot has no room is bulged where its disc would fit.
        let mut first = None;
        for tolerance in [DRAWING_FIT_TOLERANCE, FINE_FIT_TOLERANCE] {
            let e = match self.certified(pts.clone(), ports, tolerance) {
                Ok(x) => return Ok(self.leave_room(x, stub, &attempt(tolerance))),
                Err(e) => e,
            };
            let new_spot = matches!(e, Refusal::Certificate { new_spot: true, .. });
            let again = matches!(e, Refusal::Certificate { .. }) && !new_spot;
            first.get_or_insert(e);
            if new_spot {
                let bulged = spot::room_for_the_new_spot(
                    &pts,
                    scene,
                    &self.obstacles,
                    (self.need, stub),
                    &attempt(tolerance),
                );
                if let Some(x) = bulged {
                    return Ok(self.leave_room(x, stub, &attempt(tolerance)));
                }
            }
            if !again {
                break;
            }
        }
        Err(first.expect("a fit was tried"))
    }

    /// The polyline `pts` fitted within `tolerance` with the ports `(ua, ub)`, its new spot
    /// placed, certified, its picture checked and its curve judged again.
    fn certified(
        &self,
        pts: Vec<Point>,
        (ua, ub): (Vector, Vector),
        tolerance: f64,
    ) -> Result<Certified, Refusal> {
        let f = self.frame;
        let (a, b, scene, need) = (f.a, f.b, &f.scene, self.need);
        let spline = fit::fit(&pts, ua, ub, tolerance).map_err(Refusal::Fit)?;
        let cut_at = spot::new_spot_at(
            &spline,
            self.grid,
            scene,
            &self.obstacles,
            (f.ca, f.ra),
            (f.cb, f.rb),
            need,
        );
        let clearance = fit::certify(&spline, scene, &self.obstacles, [a, b], need, cut_at)
            .map_err(|c| Refusal::Certificate {
                clearance: c.clearance,
                needed: need,
                spots: c.spots,
                curves: c.curves,
                new_spot: c.new_spot,
            })?;
        let picture =
            marked::picture_check(&f.view, (a, b), &spline, cut_at).map_err(Refusal::Picture)?;
        let curve = refined_polygon(&spline, 0.25, 16.0)
            .map(|p| p.points().to_vec())
            .map_err(|e| Refusal::Fit(e.to_string()))?;
        if !f.judge(&curve) {
            return Err(Refusal::WrongEnclosure {
                words: format!("{a} -> {b}"),
                detail: "the fitted curve sorts the boundaries differently from its route".into(),
                widest: None,
                needed: scene.d0,
                spots: Vec::new(),
                curves: Vec::new(),
            });
        }
        Ok(Certified {
            pts,
            spline,
            cut_at,
            clearance,
            curve,
            picture,
        })
    }

    /// Whether a bulged polyline keeps the move: the sides judged by its first and last
    /// points outside the end spots' discs (the stubs, in the ports' directions).
    fn keeps(&self, p: &[Point]) -> bool {
        let f = self.frame;
        let (ca, ra, cb, rb) = (f.ca, f.ra, f.cb, f.rb);
        let outside = |q: &&Point| (*q - ca).norm() > ra && (*q - cb).norm() > rb;
        let mut sides = vec![ca];
        sides.extend(p.iter().filter(outside));
        sides.push(cb);
        f.judge(p)
            && crossing::is_simple(p)
            && marked::keeps_its_sides(&sides, &f.scene, f.view.analysis, (&f.t_from, &f.t_to))
    }

    /// `x`, or its lens widened for the next move when the end spots keep a life.
    fn leave_room(
        &self,
        x: Certified,
        stub: f64,
        attempt: &dyn Fn(&[Point]) -> Option<Certified>,
    ) -> Certified {
        if !self.ends_keep_a_life {
            return x;
        }
        spot::room_for_the_next_move(
            x,
            &self.frame.scene,
            &self.obstacles,
            (self.need, stub),
            attempt,
        )
    }
}
