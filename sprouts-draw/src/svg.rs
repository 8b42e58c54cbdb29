//! SVG pictures of a board (and PNG through resvg): spots coloured by lives, curves as native
//! cubic Bézier path commands, optional spot labels and region shading.
//!
//! Elements carry classes and data attributes for the web UI: `path.curve[data-curve]`,
//! `circle.spot.lives-N[data-spot]`, `path.region[data-region]`, `text.label[data-spot]`.

use std::fmt::Write;

use sprouts_geom::{Point, Spline};

use crate::analyse::{Analysis, BoundaryPicture};
use crate::board::Board;
use crate::drawing::{Drawing, DrawnSpot, HalfEdgeId};

/// What a picture shows besides spots and curves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SvgOptions {
    /// Write each spot's number beside it.
    pub labels: bool,
    /// Shade the regions: live regions (two lives or more) in light colours, dead ones grey.
    pub shade_regions: bool,
}

impl Default for SvgOptions {
    /// Labels on, no shading.
    fn default() -> SvgOptions {
        SvgOptions {
            labels: true,
            shade_regions: false,
        }
    }
}

/// The colour of a spot with `lives` lives: seeds green, sprouts blue, links orange, stumps
/// grey.
pub fn lives_colour(lives: u8) -> &'static str {
    match lives {
        3 => "#2e7d32",
        2 => "#1565c0",
        1 => "#ef6c00",
        _ => "#757575",
    }
}

/// Light fills for live regions, in turn.
const REGION_FILLS: [&str; 6] = [
    "#e3f2fd", "#fff3e0", "#e8f5e9", "#f3e5f5", "#fffde7", "#e0f7fa",
];
const DEAD_FILL: &str = "#eeeeee";

/// The SVG picture of a board, in world coordinates (the `viewBox` is the world).
pub fn board_svg(board: &Board, options: &SvgOptions) -> String {
    drawing_svg(board.drawing(), board.analysis(), options)
}

/// The SVG picture of a drawing with its analysis (the analysis gives lives and regions).
pub fn drawing_svg(drawing: &Drawing, analysis: &Analysis, options: &SvgOptions) -> String {
    let world = drawing.world();
    let mut out = String::new();
    let w = num(world.width);
    let h = num(world.height);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let _ = writeln!(out, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    let pos = analysis.position();
    if options.shade_regions {
        let _ = writeln!(
            out,
            r#"<g class="regions" fill-rule="evenodd" stroke="none">"#
        );
        let mut live = 0;
        for region in pos.regions() {
            let fill = if region.is_alive() {
                live += 1;
                REGION_FILLS[(live - 1) % REGION_FILLS.len()]
            } else {
                DEAD_FILL
            };
            let mut d = String::new();
            if Some(region.id()) == analysis.outside() {
                let _ = write!(d, "M0 0 H{w} V{h} H0 Z");
            }
            for b in region.boundaries() {
                if let Some(BoundaryPicture::Walk(hs)) = analysis.boundary(b.id()) {
                    walk_path(drawing, hs, &mut d);
                }
            }
            let _ = writeln!(
                out,
                r#"<path class="region" data-region="{}" fill="{fill}" d="{d}"/>"#,
                region.id().index()
            );
        }
        let _ = writeln!(out, "</g>");
    }
    let _ = writeln!(
        out,
        r##"<g class="curves" fill="none" stroke="#212121" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">"##
    );
    for (e, c) in drawing.curves().iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<path class="curve" data-curve="{e}" d="{}"/>"#,
            c.spline.svg_path()
        );
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(out, r#"<g class="spots" stroke="none">"#);
    for s in drawing.spots() {
        let lives = pos.lives(s.id).map_or(0, |l| l.get());
        let _ = writeln!(
            out,
            r#"<circle class="spot lives-{lives}" data-spot="{}" cx="{}" cy="{}" r="{}" fill="{}"/>"#,
            s.id,
            num(s.centre.x),
            num(s.centre.y),
            num(s.radius.max(2.0)),
            lives_colour(lives)
        );
    }
    let _ = writeln!(out, "</g>");
    if options.labels {
        let _ = writeln!(
            out,
            r##"<g class="labels" font-family="DejaVu Sans, sans-serif" font-size="{LABEL_FONT_SIZE}" fill="#424242">"##
        );
        for s in drawing.spots() {
            let at = label_anchor(s);
            let _ = writeln!(
                out,
                r#"<text class="label" data-spot="{}" x="{}" y="{}">{}</text>"#,
                s.id,
                num(at.x),
                num(at.y),
                s.id
            );
        }
        let _ = writeln!(out, "</g>");
    }
    out.push_str("</svg>\n");
    out
}

/// The font size of the spot labels (pixels).
const LABEL_FONT_SIZE: f64 = 12.0;

/// The advance of one digit of the label font, as a share of the font size (DejaVu Sans).
const LABEL_DIGIT_ADVANCE: f64 = 0.64;

/// The height of a digit above the baseline, as a share of the font size (DejaVu Sans).
const LABEL_DIGIT_HEIGHT: f64 = 0.73;

/// Where a spot's label starts: its baseline's left end, up and to the right of the spot.
fn label_anchor(spot: &DrawnSpot) -> Point {
    let off = spot.radius.max(2.0) + 2.0;
    Point::new(spot.centre.x + off, spot.centre.y - off)
}

/// The box a spot's label covers in the picture, `(low corner, high corner)`: its digits at
/// [`label_anchor`], measured with the label font's digit advance and height.
pub(crate) fn label_box(spot: &DrawnSpot) -> (Point, Point) {
    let at = label_anchor(spot);
    let digits = spot.id.to_string().len() as f64;
    (
        Point::new(at.x, at.y - LABEL_DIGIT_HEIGHT * LABEL_FONT_SIZE),
        Point::new(at.x + digits * LABEL_DIGIT_ADVANCE * LABEL_FONT_SIZE, at.y),
    )
}

/// Appends a closed subpath along the splines of a walk.
fn walk_path(drawing: &Drawing, walk: &[HalfEdgeId], d: &mut String) {
    for (k, &h) in walk.iter().enumerate() {
        let spline = &drawing.curves()[h.curve().index()].spline;
        let reversed;
        let s: &Spline = if h.is_forward() {
            spline
        } else {
            reversed = spline.reversed();
            &reversed
        };
        if k == 0 {
            let p = s.start();
            let _ = write!(d, "M{} {}", num(p.x), num(p.y));
        }
        for piece in s.pieces() {
            let b = &piece.bez;
            let _ = write!(
                d,
                " C{} {} {} {} {} {}",
                num(b.p1.x),
                num(b.p1.y),
                num(b.p2.x),
                num(b.p2.y),
                num(b.p3.x),
                num(b.p3.y)
            );
        }
    }
    d.push_str(" Z ");
}

/// A number with at most three decimals, trailing zeros dropped.
fn num(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// Why a PNG could not be made.
#[cfg(feature = "png")]
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    /// The SVG could not be read (it was not written by this module).
    #[error("cannot read the SVG: {0}")]
    Svg(String),
    /// The scaled size is zero or too large.
    #[error("cannot make a picture of {0} x {1} pixels")]
    Size(f64, f64),
    /// PNG encoding failed.
    #[error("cannot encode the PNG: {0}")]
    Encode(String),
}

/// Rasterises an SVG picture (as written by this module) to PNG, scaled by `scale`, with the
/// system's fonts for the labels.
///
/// # Errors
/// [`PngError`] for an unreadable SVG, an empty or huge size (more than 16384 pixels a side),
/// or a failed encoding.
#[cfg(feature = "png")]
pub fn svg_to_png(svg: &str, scale: f64) -> Result<Vec<u8>, PngError> {
    use resvg::{tiny_skia, usvg};
    let mut opt = usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size();
    let (w, h) = (
        (f64::from(size.width()) * scale).ceil(),
        (f64::from(size.height()) * scale).ceil(),
    );
    if !(w >= 1.0 && h >= 1.0 && w <= 16384.0 && h <= 16384.0) {
        return Err(PngError::Size(w, h));
    }
    let mut pixmap = tiny_skia::Pixmap::new(w as u32, h as u32).ok_or(PngError::Size(w, h))?;
    let s = scale as f32;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(s, s),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}
