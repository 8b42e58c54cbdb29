//! The fifth stage: the way relaxed by the elastic band ([`super::band`], spec 3.4), with the
//! pressure of the two regions a one-boundary move makes (spec 4.5). [`routes_to_fit`] takes
//! the frame, the grid and the way found, and gives the routes the certificate's stage tries
//! in turn: the relaxed route when the judge still accepts it and it does not cross itself,
//! then the route as found (a band that pulls a small loop tight or a curve into a corner can
//! leave it without room for the new spot or the certificate); loops with room inside first.

use sprouts_geom::Point;

use super::band::{self, BandSettings};
use super::frame::Frame;
use super::planner::FreeGrid;
use super::{crossing, spot};

/// The routes to fit, best first: the way relaxed (when it is still usable) and as found.
pub(super) fn routes_to_fit(
    frame: &Frame<'_>,
    grid: &FreeGrid,
    route: Vec<Point>,
    observer: &mut dyn FnMut(&[Point]),
) -> Vec<Vec<Point>> {
    let (scene, settings) = (&frame.scene, frame.view.settings);
    let ends = [frame.a, frame.b];
    let band = BandSettings::from_settings(settings);
    let pressure = if frame.one_boundary {
        band::Pressure::new(grid, &route, scene, ends, band.pressure)
    } else {
        None
    };
    let relaxed = band::relax_leaning(
        &route,
        scene,
        &ends,
        &band,
        pressure.as_ref(),
        frame.plan.lean,
        observer,
    );
    let mut tries = Vec::with_capacity(2);
    if frame.judge(&relaxed) && crossing::is_simple(&relaxed) {
        tries.push(relaxed);
    } else {
        tracing::debug!(
            judged = frame.judge(&relaxed),
            crossing = ?crossing::first_crossing(&relaxed),
            "the relaxed route is not used"
        );
    }
    tries.push(route);
    if frame.a == frame.b {
        tries = spot::loops_with_room_first(tries, scene, 0.6 * settings.min_clearance);
    }
    tries
}
