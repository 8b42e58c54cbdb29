//! Pairs of boxes that may be close: a uniform grid over boxes, each registered in the cells its
//! box (grown by half the reach) meets, and every pair reported once, from the cell that holds
//! the low corner of the overlap of their grown boxes.

use sprouts_geom::Point;

/// Most cells the grid allocates; larger extents get larger cells.
const MAX_CELLS: f64 = (1u32 << 20) as f64;

/// An axis-aligned box `(low corner, high corner)`.
pub(crate) type Bbox = (Point, Point);

/// Calls `f(i, j)` (with `i < j`) once for every pair of boxes whose distance may be at most
/// `reach`: every such pair, and some more. Boxes must be finite and `reach` non-negative.
///
/// # Complexity
/// Linear in the boxes and the cells they meet, plus the pairs that share a cell.
pub(crate) fn close_pairs(boxes: &[Bbox], reach: f64, cell: f64, mut f: impl FnMut(usize, usize)) {
    if boxes.len() < 2 {
        return;
    }
    let half = 0.5 * reach;
    let grown: Vec<Bbox> = boxes
        .iter()
        .map(|(lo, hi)| {
            (
                Point::new(lo.x - half, lo.y - half),
                Point::new(hi.x + half, hi.y + half),
            )
        })
        .collect();
    let (mut min, mut max) = grown[0];
    for (lo, hi) in &grown {
        min = Point::new(min.x.min(lo.x), min.y.min(lo.y));
        max = Point::new(max.x.max(hi.x), max.y.max(hi.y));
    }
    let mut cell = cell.max(reach).max(f64::MIN_POSITIVE);
    let (nx, ny) = loop {
        let nx = ((max.x - min.x) / cell).floor() + 1.0;
        let ny = ((max.y - min.y) / cell).floor() + 1.0;
        if nx * ny <= MAX_CELLS.max(4.0 * boxes.len() as f64) && nx.is_finite() && ny.is_finite() {
            break (nx as usize, ny as usize);
        }
        cell *= 2.0;
    };
    let at = |v: f64, o: f64, n: usize| (((v - o) / cell).floor().max(0.0) as usize).min(n - 1);
    let range = |b: &Bbox| {
        (
            at(b.0.x, min.x, nx),
            at(b.1.x, min.x, nx),
            at(b.0.y, min.y, ny),
            at(b.1.y, min.y, ny),
        )
    };
    // Compressed rows: count, then fill.
    let mut start = vec![0u32; nx * ny + 1];
    for b in &grown {
        let (x0, x1, y0, y1) = range(b);
        for y in y0..=y1 {
            for x in x0..=x1 {
                start[y * nx + x + 1] += 1;
            }
        }
    }
    for c in 0..nx * ny {
        start[c + 1] += start[c];
    }
    let mut fill = start.clone();
    let mut entries = vec![0u32; start[nx * ny] as usize];
    for (i, b) in grown.iter().enumerate() {
        let (x0, x1, y0, y1) = range(b);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let c = y * nx + x;
                entries[fill[c] as usize] = i as u32;
                fill[c] += 1;
            }
        }
    }
    for y in 0..ny {
        for x in 0..nx {
            let c = y * nx + x;
            let here = &entries[start[c] as usize..start[c + 1] as usize];
            for (k, &i) in here.iter().enumerate() {
                let a = &grown[i as usize];
                for &j in &here[k + 1..] {
                    let b = &grown[j as usize];
                    let lo = Point::new(a.0.x.max(b.0.x), a.0.y.max(b.0.y));
                    if lo.x > a.1.x.min(b.1.x) || lo.y > a.1.y.min(b.1.y) {
                        continue;
                    }
                    // Report the pair from the one cell holding the overlap's low corner.
                    if at(lo.x, min.x, nx) != x || at(lo.y, min.y, ny) != y {
                        continue;
                    }
                    let (i, j) = (i.min(j) as usize, i.max(j) as usize);
                    f(i, j);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of boxes within the reach is reported once, checked against all pairs.
    #[test]
    fn all_close_pairs_once() {
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for round in 0..20 {
            let boxes: Vec<Bbox> = (0..200)
                .map(|_| {
                    let (x, y) = (next() * 300.0, next() * 200.0);
                    let (w, h) = (next() * 20.0, next() * 20.0);
                    (Point::new(x, y), Point::new(x + w, y + h))
                })
                .collect();
            let reach = f64::from(round) * 0.7;
            let mut got = Vec::new();
            close_pairs(&boxes, reach, 16.0, |i, j| got.push((i, j)));
            let mut sorted = got.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), got.len(), "a pair reported twice");
            for i in 0..boxes.len() {
                for j in i + 1..boxes.len() {
                    let (a, b) = (boxes[i], boxes[j]);
                    let dx = (a.0.x - b.1.x).max(b.0.x - a.1.x).max(0.0);
                    let dy = (a.0.y - b.1.y).max(b.0.y - a.1.y).max(0.0);
                    if (dx * dx + dy * dy).sqrt() <= reach {
                        assert!(sorted.binary_search(&(i, j)).is_ok(), "missed {i} {j}");
                    }
                }
            }
        }
    }
}
