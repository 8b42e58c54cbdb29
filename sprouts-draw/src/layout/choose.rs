//! Z's choice among layouts (spec 4.6): one fresh layout per choice of outside region, made in
//! parallel (rayon) in rounds as wide as the worker threads, with the present outside first;
//! each polished by R's descent (spec 4.5) with the spots grown in stages; the best kept by the
//! [`PictureQuality`] report.
//!
//! A layout counts when it reads back as the position wanted and every spot has the settings'
//! size, or, when the • step allows it ([`FreshOptions::smaller_spots`]), when no spot is below
//! the least size ([`Settings::least_spot_radius`]). Z stops after the first round in which a
//! layout counts: the purpose is to draw the move, not the most beautiful picture. The best of
//! that round is kept: full-size layouts before those with spots drawn smaller (the least
//! shrinking first), then the widest least gap, then the least crowding.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use sprouts_topo::{GameKey, RegionId};

use super::map::{Bnd, Map};
use super::{FreshOptions, FreshReport, LayoutError, MovePart, fresh_drawing};
use crate::analyse::analyse;
use crate::drawing::{Drawing, Settings};
use crate::quality::PictureQuality;
use crate::room::{RelaxMode, RelaxOptions, relax_drawing};

/// A layout that counts, with what it is judged by.
struct Kept {
    drawing: Drawing,
    report: FreshReport,
    quality: PictureQuality,
    /// Spots drawn below the settings' size.
    shrunk: usize,
    /// The smallest spot's radius.
    smallest: f64,
}

impl Kept {
    /// Whether `self` is a better picture than `other` (see the module docs).
    fn better_than(&self, other: &Kept) -> bool {
        if (self.shrunk == 0) != (other.shrunk == 0) {
            return self.shrunk == 0;
        }
        if self.shrunk > 0 && self.smallest != other.smallest {
            return self.smallest > other.smallest;
        }
        if self.shrunk != other.shrunk {
            return self.shrunk < other.shrunk;
        }
        let (a, b) = (
            self.quality.least_gap_pixels(),
            other.quality.least_gap_pixels(),
        );
        // Gaps within a tenth of a pixel are the same; crowding decides.
        if (a - b).abs() > 0.1 {
            return a > b;
        }
        self.quality.within_8 < other.quality.within_8
    }
}

/// The regions to try as the outside, in order: `first`, then the others by the number of
/// half-edges on their walks, most first (a long walk outside leaves the inside open).
fn outside_order(map: &Map, first: usize) -> Vec<usize> {
    let size = |r: usize| -> usize {
        map.regions[r]
            .iter()
            .map(|b| match b {
                Bnd::Walk(hs) => hs.len(),
                Bnd::Lone(_) => 1,
            })
            .sum()
    };
    let mut rest: Vec<usize> = (0..map.regions.len()).filter(|&r| r != first).collect();
    rest.sort_by_key(|&r| (std::cmp::Reverse(size(r)), r));
    let mut out = vec![first];
    out.extend(rest);
    out
}

/// What Z lays out: the picture, its map (after the move, for a move), the game key the
/// picture must read back as, the settings and options, the move's part for a move, and the
/// stop flag (it ends the descents where they are and starts no further round).
pub(crate) struct Layouts<'a> {
    pub drawing: &'a Drawing,
    pub map: &'a Map,
    pub expected: &'a GameKey,
    pub settings: &'a Settings,
    pub options: &'a FreshOptions,
    pub mv: Option<&'a MovePart>,
    pub stop: &'a AtomicBool,
}

/// The best fresh layout (see the module docs), with `first` the region tried first (alone
/// when `options.outside` is given).
///
/// # Errors
/// The first layout's error when no layout counts (with every layout's reason when several
/// were made).
pub(crate) fn best_fresh(
    job: &Layouts<'_>,
    first: usize,
) -> Result<(Drawing, FreshReport), LayoutError> {
    let Layouts {
        map, options, stop, ..
    } = *job;
    let _span = tracing::debug_span!("best_fresh", regions = map.regions.len()).entered();
    let order = if options.outside.is_some() {
        vec![first]
    } else {
        outside_order(map, first)
    };
    let width = match options.layouts {
        0 => rayon::current_num_threads().max(2),
        k => k,
    };
    let mut failures: Vec<String> = Vec::new();
    let mut first_error: Option<LayoutError> = None;
    let mut made = 0;
    for round in order.chunks(width) {
        let results: Vec<Result<Kept, LayoutError>> = round
            .par_iter()
            .map(|&outside| one_layout(job, outside))
            .collect();
        made += results.len();
        let mut best: Option<Kept> = None;
        let mut counted = 0;
        for (r, &outside) in results.into_iter().zip(round) {
            match r {
                Ok(k) => {
                    counted += 1;
                    if best.as_ref().is_none_or(|b| k.better_than(b)) {
                        best = Some(k);
                    }
                }
                Err(e) => {
                    failures.push(format!("outside region {outside}: {e}"));
                    first_error.get_or_insert(e);
                }
            }
        }
        if let Some(mut k) = best {
            k.report.layouts = (made, counted);
            k.report.failures = failures;
            return Ok((k.drawing, k.report));
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    let e = first_error.unwrap_or_else(|| LayoutError::Picture("no layout was made".into()));
    if failures.len() > 1 {
        return Err(LayoutError::Picture(format!(
            "no layout of {made} could be kept: {}",
            failures.join("; ")
        )));
    }
    Err(e)
}

/// One layout with `outside` as the outside region, polished and judged.
fn one_layout(job: &Layouts<'_>, outside: usize) -> Result<Kept, LayoutError> {
    let Layouts {
        drawing,
        map,
        expected,
        settings,
        options,
        mv,
        stop,
    } = *job;
    let _span = tracing::debug_span!("one_layout", outside).entered();
    let (mut d, mut report) = fresh_drawing(drawing, map, outside, settings, options, mv)?;
    if options.descent {
        polish_by_descent(&mut d, &mut report, settings, options, stop);
    }
    let analysis = analyse(&d).map_err(|e| LayoutError::Picture(e.to_string()))?;
    if analysis.position().game_key() != *expected {
        return Err(LayoutError::WrongChild);
    }
    let full = settings.spot_radius;
    let least = settings.least_spot_radius();
    let small: Vec<_> = d
        .spots()
        .iter()
        .filter(|s| s.radius < full * (1.0 - 1e-9))
        .collect();
    let smallest = d.spots().iter().map(|s| s.radius).fold(full, f64::min);
    if smallest < least * (1.0 - 1e-9) {
        return Err(LayoutError::Picture(format!(
            "spot {} has room for a radius of {smallest:.2} px only, below the least {least} px",
            small
                .iter()
                .min_by(|a, b| a.radius.total_cmp(&b.radius))
                .map_or(0, |s| s.id.get())
        )));
    }
    if !small.is_empty() && !options.smaller_spots {
        return Err(LayoutError::Picture(format!(
            "{} spots have no room for their full size (the • step draws them smaller)",
            small.len()
        )));
    }
    report.smaller_spots = small.iter().map(|s| s.id).collect();
    let quality = PictureQuality::of(&d, settings);
    report.clearance = quality.least_gap_pixels();
    report.outside = RegionId::from_index(outside);
    Ok(Kept {
        shrunk: small.len(),
        smallest,
        drawing: d,
        report,
        quality,
    })
}

/// R's descent on a fresh layout, in stages: after each, the spots drawn smaller grow as far
/// as their room allows (the refit does it), and another stage runs while some spot is still
/// smaller and the last stage let one grow. A stage that fails leaves the picture as the stage
/// before left it.
fn polish_by_descent(
    d: &mut Drawing,
    report: &mut FreshReport,
    settings: &Settings,
    options: &FreshOptions,
    stop: &AtomicBool,
) {
    let relax = RelaxOptions::default();
    for _ in 0..options.stages {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        match relax_drawing(d, settings, RelaxMode::Rearrange, &relax, stop) {
            Ok((relaxed, r)) => {
                *d = relaxed;
                report.descent.0 += 1;
                report.descent.1 += r.iterations;
                report.straight_curves = r.straight_curves;
                let smaller = d
                    .spots()
                    .iter()
                    .any(|s| s.radius < settings.spot_radius * (1.0 - 1e-9));
                if !smaller || r.grown_spots.is_empty() || r.stopped {
                    break;
                }
            }
            Err(e) => {
                tracing::debug!("a stage of R's descent on a fresh layout failed: {e}");
                break;
            }
        }
    }
}
