//! A uniform spatial grid of segments for "what is near this point or segment" queries,
//! rebuilt from scratch cheaply whenever the drawing changes.

use crate::Point;

/// The cell size the drawing layer uses, in pixels: obstacles are looked up through 64-pixel
/// cells.
pub const DEFAULT_CELL_SIZE: f64 = 64.0;

/// Most cells a grid allocates; a drawing whose bounding box would need more (absurd
/// coordinates) gets larger cells instead, which keeps every query correct.
const MAX_CELLS: usize = 1 << 20;

/// Why a grid could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GridError {
    /// The cell size is not positive and finite.
    #[error("cell size {0} is not positive and finite")]
    BadCellSize(f64),
    /// A segment has a NaN or infinite coordinate.
    #[error("segment {index} has a non-finite end point")]
    NonFiniteSegment {
        /// Index of the segment in the input.
        index: usize,
    },
    /// More segments than a `u32` can count.
    #[error("too many segments for one grid")]
    TooManySegments,
}

/// A segment stored in a [`SegmentGrid`], with the caller's key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridSegment<K> {
    /// The caller's key (for example curve index and leg index).
    pub key: K,
    /// First end point.
    pub a: Point,
    /// Second end point.
    pub b: Point,
}

/// A uniform grid over a set of segments, in compressed rows: every cell lists the segments
/// that meet it (with a small margin).
///
/// # Guarantee
/// A query for everything within distance `r` of a point or segment returns (at least) every
/// stored segment whose distance to it is at most `r`, each once, in input order. It may return
/// a few more; the caller decides with [`crate::certified`] predicates.
///
/// # Complexity
/// Building is linear in the number of segments plus the number of cells they cross (segments
/// longer than a cell are walked row by row). A query costs the cells in the query's box plus
/// the segments listed there.
#[derive(Clone, Debug)]
pub struct SegmentGrid<K> {
    segments: Vec<GridSegment<K>>,
    origin: Point,
    cell: f64,
    nx: usize,
    ny: usize,
    /// `cell_start[c]..cell_start[c + 1]` indexes `entries` for cell `c = iy * nx + ix`.
    cell_start: Vec<u32>,
    entries: Vec<u32>,
}

impl<K: Copy> SegmentGrid<K> {
    /// Builds a grid of cell size `cell` over `segments`.
    ///
    /// # Errors
    /// [`GridError::BadCellSize`], [`GridError::NonFiniteSegment`] or
    /// [`GridError::TooManySegments`].
    pub fn new(
        cell: f64,
        segments: impl IntoIterator<Item = GridSegment<K>>,
    ) -> Result<SegmentGrid<K>, GridError> {
        if !(cell.is_finite() && cell > 0.0) {
            return Err(GridError::BadCellSize(cell));
        }
        let segments: Vec<GridSegment<K>> = segments.into_iter().collect();
        if u32::try_from(segments.len()).is_err() {
            return Err(GridError::TooManySegments);
        }
        let (mut min, mut max) = (
            Point::new(f64::INFINITY, f64::INFINITY),
            Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        );
        for (index, s) in segments.iter().enumerate() {
            for p in [s.a, s.b] {
                if !(p.x.is_finite() && p.y.is_finite()) {
                    return Err(GridError::NonFiniteSegment { index });
                }
                min = Point::new(min.x.min(p.x), min.y.min(p.y));
                max = Point::new(max.x.max(p.x), max.y.max(p.y));
            }
        }
        if segments.is_empty() {
            min = Point::origin();
            max = Point::origin();
        }
        let mut cell = cell;
        let (nx, ny) = loop {
            let nx = ((max.x - min.x) / cell).floor() + 1.0;
            let ny = ((max.y - min.y) / cell).floor() + 1.0;
            if nx * ny <= MAX_CELLS as f64 {
                break (nx as usize, ny as usize);
            }
            cell *= 2.0;
        };
        let mut grid = SegmentGrid {
            segments,
            origin: min,
            cell,
            nx,
            ny,
            cell_start: vec![0; nx * ny + 1],
            entries: Vec::new(),
        };
        // Two passes over the cells each segment meets: count, then fill.
        let mut counts = vec![0u32; nx * ny];
        for s in &grid.segments {
            grid.for_cells_of_segment(s.a, s.b, 0.0, |c| counts[c] += 1);
        }
        let mut acc = 0u32;
        for (c, &k) in counts.iter().enumerate() {
            grid.cell_start[c] = acc;
            acc += k;
        }
        grid.cell_start[nx * ny] = acc;
        let mut entries = vec![0; acc as usize];
        let mut fill = grid.cell_start.clone();
        for (i, s) in grid.segments.iter().enumerate() {
            grid.for_cells_of_segment(s.a, s.b, 0.0, |c| {
                entries[fill[c] as usize] = i as u32;
                fill[c] += 1;
            });
        }
        grid.entries = entries;
        Ok(grid)
    }

    /// The stored segments, in input order.
    pub fn segments(&self) -> &[GridSegment<K>] {
        &self.segments
    }

    /// The cell size in use (the requested one, doubled as often as needed for huge extents).
    pub fn cell_size(&self) -> f64 {
        self.cell
    }

    fn cell_x(&self, x: f64) -> isize {
        ((x - self.origin.x) / self.cell).floor() as isize
    }

    fn cell_y(&self, y: f64) -> isize {
        ((y - self.origin.y) / self.cell).floor() as isize
    }

    /// Calls `f` with every cell (clipped to the grid) that the segment `[a, b]`, thickened by
    /// `r`, may meet. Rows are walked one at a time, with the segment's x range in each row
    /// widened by `r` and a relative margin, so the cell set is a superset.
    fn for_cells_of_segment(&self, a: Point, b: Point, r: f64, mut f: impl FnMut(usize)) {
        let pad = r + 1e-9 * self.cell + 4.0 * f64::EPSILON * max_abs(a, b);
        let (ylo, yhi) = (a.y.min(b.y) - pad, a.y.max(b.y) + pad);
        let iy0 = self.cell_y(ylo).max(0);
        let iy1 = self.cell_y(yhi).min(self.ny as isize - 1);
        for iy in iy0..=iy1 {
            // The part of the segment in this row's band (widened by `pad`).
            let band_lo = self.origin.y + iy as f64 * self.cell - pad;
            let band_hi = band_lo + self.cell + 2.0 * pad;
            let (xlo, xhi) = x_range_in_band(a, b, band_lo, band_hi);
            let ix0 = self.cell_x(xlo - pad).max(0);
            let ix1 = self.cell_x(xhi + pad).min(self.nx as isize - 1);
            for ix in ix0..=ix1 {
                f(iy as usize * self.nx + ix as usize);
            }
        }
    }

    fn collect(&self, cells: impl FnOnce(&mut dyn FnMut(usize)), res: &mut Vec<usize>) {
        let start = res.len();
        cells(&mut |c| {
            let (lo, hi) = (self.cell_start[c] as usize, self.cell_start[c + 1] as usize);
            res.extend(self.entries[lo..hi].iter().map(|&i| i as usize));
        });
        res[start..].sort_unstable();
        let mut k = start;
        for i in start..res.len() {
            if i == start || res[i] != res[k - 1] {
                res[k] = res[i];
                k += 1;
            }
        }
        res.truncate(k);
    }

    /// Appends to `res` the indices (into [`SegmentGrid::segments`]) of the segments that may be
    /// within distance `r` of `p`: every segment that is, perhaps a few more.
    pub fn near_point(&self, p: Point, r: f64, res: &mut Vec<usize>) {
        self.near_segment(p, p, r, res);
    }

    /// Appends to `res` the indices of the segments that may be within distance `r` of the
    /// segment `[a, b]`: every segment that is, perhaps a few more.
    pub fn near_segment(&self, a: Point, b: Point, r: f64, res: &mut Vec<usize>) {
        if !(a.x.is_finite() && a.y.is_finite() && b.x.is_finite() && b.y.is_finite()) {
            return;
        }
        // A stored segment within `r` of [a, b] meets [a, b] thickened by `r`, and every cell a
        // stored segment meets lists it; so the cells of the thickened query suffice.
        let r = r.max(0.0);
        self.collect(|f| self.for_cells_of_segment(a, b, r, f), res);
    }
}

fn max_abs(a: Point, b: Point) -> f64 {
    a.x.abs().max(a.y.abs()).max(b.x.abs()).max(b.y.abs())
}

/// The x range of the part of segment `[a, b]` with `lo ≤ y ≤ hi` (the whole x range when
/// the segment is horizontal); assumes the segment meets the band.
fn x_range_in_band(a: Point, b: Point, lo: f64, hi: f64) -> (f64, f64) {
    let dy = b.y - a.y;
    if dy == 0.0 {
        return (a.x.min(b.x), a.x.max(b.x));
    }
    let at = |y: f64| -> f64 {
        let t = ((y - a.y) / dy).clamp(0.0, 1.0);
        a.x + t * (b.x - a.x)
    };
    let (x0, x1) = (at(lo), at(hi));
    (x0.min(x1), x0.max(x1))
}
