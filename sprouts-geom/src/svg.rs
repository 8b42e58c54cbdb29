//! SVG path data (`M x y C x1 y1 x2 y2 x y ...`) of a spline, in a fixed number format.

use std::fmt::{self, Write};

use crate::Spline;

/// Decimals written by [`Spline::svg_path`]: a thousandth of a pixel.
pub const SVG_DECIMALS: usize = 3;

impl Spline {
    /// The SVG path data of the spline: `M` to the start point, then one `C` command per piece,
    /// each number rounded to [`SVG_DECIMALS`] decimals with trailing zeros (and a trailing
    /// point) removed and negative zero written as `0`.
    ///
    /// # Example
    /// ```
    /// use sprouts_geom::{CubicBez, Point, Spline};
    /// let bez = CubicBez::new(
    ///     Point::new(0.0, 0.0), Point::new(10.0, 0.5), Point::new(20.0, -1.0 / 3.0), Point::new(30.0, 0.0),
    /// );
    /// let s = Spline::from_cubic(bez, 30.0).unwrap();
    /// assert_eq!(s.svg_path(), "M0 0 C10 0.5 20 -0.333 30 0");
    /// ```
    pub fn svg_path(&self) -> String {
        let mut out = String::new();
        self.write_svg_path(&mut out, SVG_DECIMALS)
            .expect("writing to a String cannot fail");
        out
    }

    /// Writes the SVG path data with `decimals` decimals (see [`Spline::svg_path`]).
    ///
    /// # Errors
    /// Only those of `out`.
    pub fn write_svg_path(&self, out: &mut impl Write, decimals: usize) -> fmt::Result {
        let s = self.start();
        out.write_str("M")?;
        write_num(out, s.x, decimals)?;
        out.write_str(" ")?;
        write_num(out, s.y, decimals)?;
        for piece in self.pieces() {
            out.write_str(" C")?;
            let b = &piece.bez;
            for (k, p) in [b.p1, b.p2, b.p3].iter().enumerate() {
                if k > 0 {
                    out.write_str(" ")?;
                }
                write_num(out, p.x, decimals)?;
                out.write_str(" ")?;
                write_num(out, p.y, decimals)?;
            }
        }
        Ok(())
    }
}

fn write_num(out: &mut impl Write, x: f64, decimals: usize) -> fmt::Result {
    let s = format!("{x:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        &s
    };
    if s == "-0" {
        out.write_str("0")
    } else {
        out.write_str(s)
    }
}
