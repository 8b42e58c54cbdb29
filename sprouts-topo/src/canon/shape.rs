//! The abstract shape a canonical form is computed from: a position with the chosen reductions
//! applied, split into independent lands, every spot written as its class or as a label.

use crate::position::Position;
use crate::setup::UnionFind;
use crate::spot::SpotId;

/// Tokens below this are anonymous spots (their class); `LABEL_BASE + i` is label `i`.
pub(crate) const LABEL_BASE: u32 = 1 << 30;

/// Which mirror images a key identifies.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Mirror {
    /// None: a position and its mirror image have different keys (unless they are isomorphic).
    Distinct,
    /// Each land with its own mirror image, as canonical forms do: lands are independent games,
    /// and a land and its mirror image are the same game, so `L + L` and `L + mirror(L)` are
    /// the same game and get the same form.
    PerLand,
    /// The whole position with its mirror image (every boundary reversed at once): positions "up
    /// to renumbering and mirror images" as structures. `L + L` and `L + mirror(L)` differ.
    Whole,
}

/// What a canonical key keeps of a position, and which mirror images it identifies.
///
/// [`KeyOptions::PLAIN`] and [`KeyOptions::GLOP`] are the equivalences of
/// [`Reductions`](super::Reductions); [`KeyOptions::FULL`] keeps everything (positions up to
/// renumbering and mirror image). The other combinations exist to study which equivalence a
/// published count uses, and (with [`Mirror::Distinct`]) to test that orientation matters.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct KeyOptions {
    /// Drop regions with fewer than two lives.
    pub drop_dead: bool,
    /// Drop stumps (spots with no life).
    pub drop_stumps: bool,
    /// Apply GLOP's reductions (repeated adjacent spots, merged small regions); meant with both
    /// drops.
    pub glop: bool,
    /// Which mirror images are identified.
    pub mirror: Mirror,
}

impl KeyOptions {
    /// Everything kept: positions up to renumbering and mirror image. (A complete position is one
    /// land in this sense, so per land is the whole position.)
    pub const FULL: KeyOptions = KeyOptions {
        drop_dead: false,
        drop_stumps: false,
        glop: false,
        mirror: Mirror::PerLand,
    };
    /// Dead regions and stumps dropped (spec 2.6).
    pub const PLAIN: KeyOptions = KeyOptions {
        drop_dead: true,
        drop_stumps: true,
        glop: false,
        mirror: Mirror::PerLand,
    };
    /// `PLAIN` and GLOP's reductions.
    pub const GLOP: KeyOptions = KeyOptions {
        drop_dead: true,
        drop_stumps: true,
        glop: true,
        mirror: Mirror::PerLand,
    };

    /// The same options without identifying mirror images.
    pub const fn oriented(self) -> KeyOptions {
        KeyOptions {
            mirror: Mirror::Distinct,
            ..self
        }
    }

    /// The same options identifying whole mirror images only.
    pub const fn whole_mirror(self) -> KeyOptions {
        KeyOptions {
            mirror: Mirror::Whole,
            ..self
        }
    }

    /// The finest options coarser than neither `self` nor `other` (keeping what either keeps,
    /// identifying what both identify).
    pub const fn meet(self, other: KeyOptions) -> KeyOptions {
        let mirror = match (self.mirror, other.mirror) {
            (Mirror::Distinct, _) | (_, Mirror::Distinct) => Mirror::Distinct,
            (Mirror::Whole, _) | (_, Mirror::Whole) => Mirror::Whole,
            _ => Mirror::PerLand,
        };
        KeyOptions {
            drop_dead: self.drop_dead && other.drop_dead,
            drop_stumps: self.drop_stumps && other.drop_stumps,
            glop: self.glop && other.glop,
            mirror,
        }
    }
}

/// A reduced position, land by land.
#[derive(Default, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    /// Per occurrence: an anonymous class (below `LABEL_BASE`) or `LABEL_BASE + label`, labels
    /// numbered from 0 in each land (so a land's tokens are the same wherever it lies in the
    /// shape, and its key is a copy of them).
    pub(crate) toks: Vec<u32>,
    /// Boundary `b` is `toks[bnd[b]..bnd[b + 1]]`.
    pub(crate) bnd: Vec<u32>,
    /// Region `r` is the boundaries `reg[r]..reg[r + 1]`.
    pub(crate) reg: Vec<u32>,
    /// Land `l` is the regions `land[l]..land[l + 1]`.
    pub(crate) land: Vec<u32>,
    /// Per boundary: whether its spots form a bag (a merged region, whose order does not matter).
    pub(crate) bag: Vec<bool>,
    /// The class of every label, land after land: label `k` of land `l` is
    /// `label_class[land_labels[l] + k]`.
    pub(crate) label_class: Vec<u8>,
    /// Land `l`'s labels are `land_labels[l]..land_labels[l + 1]` of `label_class` (labels are
    /// numbered in order of first appearance, land by land).
    pub(crate) land_labels: Vec<u32>,
}

impl Shape {
    /// Empties the shape for writing again: every table holds only its leading 0, none of
    /// the memory is given back.
    #[inline(always)]
    fn clear(&mut self) {
        self.toks.clear();
        self.bnd.clear();
        self.bnd.push(0);
        self.reg.clear();
        self.reg.push(0);
        self.land.clear();
        self.land.push(0);
        self.land_labels.clear();
        self.land_labels.push(0);
        self.bag.clear();
        self.label_class.clear();
    }
}

/// What building a shape keeps per spot (one record per spot index, so that one lookup finds all).
/// Aligned to 32 bytes, so that a record's offset is its index shifted.
#[derive(Clone, Copy, Debug)]
#[repr(align(32))]
struct SpotInfo {
    /// The region pass that last met the spot while counting lives (stumps are met too, with
    /// none to count).
    stamp: u32,
    /// The build that last counted the spot's occurrences (the fields below are stale
    /// otherwise; only the one-pass reading uses it).
    generation: u32,
    /// The first and last kept regions the spot was met in.
    first_region: u32,
    last_region: u32,
    /// The first kept boundary it was met on.
    first_boundary: u32,
    /// Its label, or `u32::MAX`.
    label: u32,
    /// Its occurrences among kept spots.
    occ: u8,
    /// Whether all its kept occurrences are on one boundary.
    same_boundary: bool,
    /// Its label in its land's packed key, or `u8::MAX` (see [`pack_lands`]).
    key_label: u8,
}

const FRESH: SpotInfo = SpotInfo {
    stamp: 0,
    generation: 0,
    first_region: u32::MAX,
    last_region: u32::MAX,
    first_boundary: u32::MAX,
    label: u32::MAX,
    occ: 0,
    same_boundary: false,
    key_label: u8::MAX,
};

/// Scratch space for building shapes.
#[derive(Default, Debug)]
pub(crate) struct ShapeScratch {
    /// Kept spots, region by region (before lands are known).
    kept: Vec<SpotId>,
    kept_bnd: Vec<u32>,
    kept_reg: Vec<u32>,
    /// Per kept boundary: whether it is a merged region's bag.
    kept_bag: Vec<bool>,
    /// Per kept region: its lives (the one-pass reading stops counting past 3, so there a
    /// region with more has some count above 3).
    region_lives: Vec<u32>,
    /// Per spot index (the stepwise build), or per spot identity (the one-pass build, which
    /// reads it through a mask: see [`SpotTables`]).
    spots: Vec<SpotInfo>,
    /// The one-pass build's copy of the position's lives, by spot identity (see
    /// [`SpotTables`]).
    lives: Vec<u8>,
    /// Per kept region: its land root, and the order of regions by land.
    order: Vec<u32>,
    land_of: Vec<u32>,
    /// Scratch for the counting sort of regions by land.
    fill: Vec<u32>,
    /// Per kept region of [`read_lands`], where its land is in the list of lands (which also
    /// tells the regions of a land).
    land_slot: Vec<u32>,
    tmp: Vec<SpotId>,
    /// Whether the positions read were prefetched (see [`Position::prefetch`]), so that
    /// [`touch`] would only cost instructions.
    pub(crate) prefetched: bool,
    tmp_bnd: Vec<u32>,
    tmp_reg: Vec<u32>,
    tmp_bag: Vec<bool>,
    uf: UnionFind,
    /// Whether the last one-pass reading joined two kept regions in `uf` (it then holds the
    /// lands; otherwise every kept region is a land of its own).
    any_link: bool,
    /// The number of the current region pass (see `SpotInfo::stamp`).
    pass: u32,
    /// The number of the current build (see `SpotInfo::generation`).
    generation: u32,
    /// Build the shape in separate steps (merging small regions into a copy first): the
    /// reference the one-pass emission is tested against.
    pub(crate) reference: bool,
}

impl ShapeScratch {
    /// Makes the per-spot table long enough. Entries are reset where they are used (for the
    /// spots kept), so nothing is cleared here.
    fn reset_spot_tables(&mut self, n: usize) {
        // A power of two above every spot identity (`1..=n`), for the one-pass build's mask.
        let len = (n + 1).next_power_of_two();
        if self.spots.len() < len {
            self.spots.resize(len, FRESH);
        }
    }
}

/// The one-pass build's per-spot tables, read by spot identity through a mask: both tables
/// have a power-of-two length above every identity, so `id & mask` is the identity itself and
/// provably in bounds (the lookups, several per corner, need no bounds checks).
struct SpotTables<'a> {
    mask: usize,
    lives: &'a [u8],
    spots: &'a mut [SpotInfo],
}

impl<'a> SpotTables<'a> {
    /// The tables for `pos`: the lives copied in by identity, the records borrowed.
    fn new(pos: &Position, lives: &'a mut Vec<u8>, spots: &'a mut [SpotInfo]) -> SpotTables<'a> {
        let len = spots.len();
        debug_assert!(len.is_power_of_two() && len > pos.lives.len());
        if lives.len() != len {
            lives.clear();
            lives.resize(len, 0);
        }
        lives[1..=pos.lives.len()].copy_from_slice(&pos.lives);
        SpotTables::filled(lives, spots)
    }

    /// The tables as [`SpotTables::new`] left them (for the same position).
    fn filled(lives: &'a [u8], spots: &'a mut [SpotInfo]) -> SpotTables<'a> {
        let mask = spots.len() - 1;
        SpotTables {
            mask,
            lives: &lives[..=mask],
            spots: &mut spots[..=mask],
        }
    }

    #[inline(always)]
    fn ix(&self, c: SpotId) -> usize {
        c.get() as usize & self.mask
    }

    #[inline(always)]
    fn lives(&self, c: SpotId) -> u8 {
        self.lives[self.ix(c)]
    }

    #[inline(always)]
    fn info(&mut self, c: SpotId) -> &mut SpotInfo {
        let i = self.ix(c);
        &mut self.spots[i]
    }
}

/// Builds the shape of `pos` under `mode` into `shape`.
pub(crate) fn build(
    pos: &Position,
    mode: KeyOptions,
    scratch: &mut ShapeScratch,
    shape: &mut Shape,
) {
    let n_ids = pos.lives.len();
    scratch.reset_spot_tables(n_ids);
    if !scratch.reference {
        let any_small = read(pos, mode, scratch);
        emit(mode.glop && any_small, scratch, shape);
        return;
    }
    scratch.kept.clear();
    scratch.kept_bnd.clear();
    scratch.kept_bnd.push(0);
    scratch.kept_reg.clear();
    scratch.kept_reg.push(0);
    scratch.kept_bag.clear();
    scratch.region_lives.clear();
    let mut any_small = false;
    // 1. The regions kept, with the spots kept on their boundaries; a region's lives count each
    //    spot on it once (stamped with the region's pass).
    let lives_of = pos.lives.as_slice();
    let spots = scratch.spots.as_mut_slice();
    let kept = &mut scratch.kept;
    for r in 0..pos.region_count() {
        let (bs, be) = pos.region_bounds(r);
        if scratch.pass == u32::MAX {
            spots.iter_mut().for_each(|s| s.stamp = 0);
            scratch.pass = 0;
        }
        scratch.pass += 1;
        let pass = scratch.pass;
        let kept_start = kept.len();
        let bnd_start = scratch.kept_bnd.len();
        let mut lives = 0u32;
        for w in pos.bnd[bs..=be].windows(2) {
            let start = kept.len();
            for &c in &pos.corners[w[0] as usize..w[1] as usize] {
                let i = c.index();
                let l = lives_of[i];
                if l == 0 {
                    // A stump: no lives to count, kept only if stumps are.
                    if !mode.drop_stumps {
                        let repeated = mode.glop && kept.len() > start && kept[kept.len() - 1] == c;
                        if !repeated {
                            kept.push(c);
                        }
                    }
                    continue;
                }
                let info = &mut spots[i];
                if info.stamp != pass {
                    info.stamp = pass;
                    lives += u32::from(l);
                }
                // GLOP: a spot met twice in a row is met once (`1AA` is `1A`).
                let repeated = mode.glop && kept.len() > start && kept[kept.len() - 1] == c;
                if !repeated {
                    kept.push(c);
                }
            }
            if mode.glop {
                // ... also cyclically.
                while kept.len() - start > 1 && kept[kept.len() - 1] == kept[start] {
                    kept.pop();
                }
            }
            if kept.len() > start {
                scratch.kept_bnd.push(kept.len() as u32);
                scratch.kept_bag.push(false);
            }
        }
        if mode.drop_dead && lives < 2 {
            kept.truncate(kept_start);
            scratch.kept_bnd.truncate(bnd_start);
            scratch.kept_bag.truncate(bnd_start - 1);
            continue;
        }
        if scratch.kept_bnd.len() > bnd_start {
            scratch.kept_reg.push(scratch.kept_bnd.len() as u32 - 1);
            scratch.region_lives.push(lives);
            any_small |= (2..=3).contains(&lives);
        }
    }
    // 2. Occurrences among kept spots, and whether both corners of a spot are in one region.
    count_occurrences(scratch);
    // 3. Labels, lands, and the shape; with GLOP's reductions, a region with two or three lives
    //    is written as one boundary (a bag): its spots shared with other regions, seeds and
    //    sprouts in order, then a `2` per private 1-life spot.
    if mode.glop && any_small {
        merge_small_regions(pos, scratch);
    }
    label_and_emit(pos, scratch, shape);
}

/// Steps 1 and 2 of [`build`] in one reading of the position's corners: per region, its lives
/// first (a light pass that only looks up the lives of spots with some), and only for a region
/// kept, its spots pushed and counted as they are met. Dead regions and stumps cost one lookup
/// per corner and nothing else; no occurrence counts are reset (a spot's record is fresh when its
/// build number is not this build's). Returns whether a kept region has two or three lives.
/// (`kept_bag` is left empty: [`emit`] works the bags out itself.)
#[inline(never)]
fn read(pos: &Position, mode: KeyOptions, scratch: &mut ShapeScratch) -> bool {
    // A prefetched position's lines are on their way already: the loads would only cost
    // instructions.
    if !scratch.prefetched {
        touch(pos);
    }
    // The canonical forms' mode gets a copy of its own with the options as constants, so that
    // the loops over corners do not test them.
    if mode.drop_dead && mode.drop_stumps && mode.glop {
        read_with(pos, ReadOptions::ALL, scratch)
    } else {
        let options = ReadOptions {
            drop_dead: mode.drop_dead,
            drop_stumps: mode.drop_stumps,
            glop: mode.glop,
        };
        read_with(pos, options, scratch)
    }
}

/// Loads a word from every cache line of the position's four tables, all at once, and drops
/// them. Reading then follows chains of dependent loads (where a region ends, then where its last
/// boundary ends, then its corners), so for a position that is not in the cache each link would
/// wait for memory in turn; issued here first, the loads wait together. Over 300,000 positions
/// held in memory one pass is about 5% faster (measured side by side, the same positions
/// alternately); for a position in the cache it costs a few dozen instructions.
#[inline(always)]
fn touch(pos: &Position) {
    /// Table entries of four bytes in a cache line of 64.
    const WORDS: usize = 16;
    let mut any = pos.corners.last().map_or(0, |c| c.get());
    for c in pos.corners.iter().step_by(WORDS) {
        any ^= c.get();
    }
    for &b in pos.bnd.iter().step_by(WORDS) {
        any ^= b;
    }
    for &r in pos.reg.iter().step_by(WORDS) {
        any ^= r;
    }
    for &l in pos.lives.iter().step_by(4 * WORDS) {
        any ^= u32::from(l);
    }
    // Kept, so that the loads are made.
    std::hint::black_box(any);
}

/// The options [`read`] looks at.
#[derive(Clone, Copy)]
struct ReadOptions {
    drop_dead: bool,
    drop_stumps: bool,
    glop: bool,
}

impl ReadOptions {
    const ALL: ReadOptions = ReadOptions {
        drop_dead: true,
        drop_stumps: true,
        glop: true,
    };
}

/// The body of [`read`], inlined into each of its calls.
#[inline(always)]
fn read_with(pos: &Position, mode: ReadOptions, scratch: &mut ShapeScratch) -> bool {
    scratch.kept.clear();
    scratch.kept_bnd.clear();
    scratch.kept_bnd.push(0);
    scratch.kept_reg.clear();
    scratch.kept_reg.push(0);
    scratch.kept_bag.clear();
    scratch.region_lives.clear();
    let nr = pos.region_count();
    // Stamps must not wrap during this build: one pass per region, one build.
    if scratch.pass >= u32::MAX - nr as u32 - 1 || scratch.generation == u32::MAX {
        scratch.spots.iter_mut().for_each(|s| {
            s.stamp = 0;
            s.generation = 0;
        });
        scratch.pass = 0;
        scratch.generation = 0;
    }
    scratch.generation += 1;
    let generation = scratch.generation;
    let mut pass = scratch.pass;
    let corners = pos.corners.as_slice();
    let mut tables = SpotTables::new(pos, &mut scratch.lives, &mut scratch.spots);
    let kept = &mut scratch.kept;
    let kept_bnd = &mut scratch.kept_bnd;
    let uf = &mut scratch.uf;
    let mut any_small = false;
    let mut any_link = false;
    // Regions follow one another in the tables: each starts where the last one ended.
    let (mut next_bs, mut next_corner) =
        (pos.reg[0] as usize, pos.bnd[pos.reg[0] as usize] as usize);
    for &be in &pos.reg[1..=nr] {
        let (bs, be) = (next_bs, be as usize);
        let corner_end = pos.bnd[be] as usize;
        let region = &corners[next_corner..corner_end];
        (next_bs, next_corner) = (be, corner_end);
        pass += 1;
        let mut lives = 0u32;
        // Without a branch on the spot (whether it has lives, whether it was met before in
        // this region: neither can be predicted): every spot is stamped, stumps too, and its
        // lives are added only on its first stamp.
        for &c in region {
            let l = u32::from(tables.lives(c));
            let info = tables.info(c);
            let first = info.stamp != pass;
            info.stamp = pass;
            lives += l & 0u32.wrapping_sub(u32::from(first));
            // Past three lives the region is neither dead nor small: its exact count is never
            // looked at, so the rest of its corners need not be read.
            if lives > 3 {
                break;
            }
        }
        if mode.drop_dead && lives < 2 {
            continue;
        }
        let rk = scratch.kept_reg.len() as u32 - 1;
        let bnd_start = kept_bnd.len();
        // The region this one was last joined to (spots met again usually come in runs from
        // one region: joined once).
        let mut joined = rk;
        // Counts an occurrence of `c` on kept boundary `kb` of this region, and joins this
        // region to the first one `c` was met in (written out at both of its uses, which a
        // closure would not be).
        macro_rules! meet {
            ($c:expr, $kb:expr) => {{
                let info = tables.info($c);
                if info.generation != generation {
                    // The whole record written at once (the stamp kept).
                    *info = SpotInfo {
                        stamp: info.stamp,
                        generation,
                        first_region: rk,
                        last_region: rk,
                        first_boundary: $kb,
                        label: u32::MAX,
                        occ: 1,
                        same_boundary: true,
                        key_label: u8::MAX,
                    };
                } else {
                    // At most three corners a spot (the rules bound its curves), so no overflow.
                    info.occ = info.occ.wrapping_add(1);
                    info.last_region = rk;
                    if info.first_boundary != $kb {
                        info.same_boundary = false;
                    }
                    // Lands: regions joined by a spot met in both (the spot is met twice at
                    // least, whatever GLOP's repeats take back, which are on one boundary).
                    if info.first_region != joined {
                        if !any_link {
                            uf.reset(nr);
                            any_link = true;
                        }
                        uf.union_least(info.first_region, rk);
                        joined = info.first_region;
                    }
                }
            }};
        }
        if mode.glop && mode.drop_stumps && (2..=3).contains(&lives) {
            // A region GLOP merges is written as one bag, so its spots are read as one
            // boundary, without taking back GLOP's repeats: only a private 1-life spot (both
            // its corners here) can be met twice in a row, and a bag writes such a spot once
            // whether it was counted once or twice (see `pack_lands`).
            let kb = kept_bnd.len() as u32 - 1;
            for &c in region {
                if tables.lives(c) != 0 {
                    kept.push(c);
                    meet!(c, kb);
                }
            }
            kept_bnd.push(kept.len() as u32);
            scratch.kept_reg.push(kept_bnd.len() as u32 - 1);
            scratch.region_lives.push(lives);
            any_small = true;
            continue;
        }
        for w in pos.bnd[bs..=be].windows(2) {
            let start = kept.len();
            // The index of this boundary among the kept ones, if it is kept.
            let kb = kept_bnd.len() as u32 - 1;
            for &c in &corners[w[0] as usize..w[1] as usize] {
                if mode.drop_stumps && tables.lives(c) == 0 {
                    continue;
                }
                // GLOP: a spot met twice in a row is met once (`1AA` is `1A`).
                if mode.glop && kept.len() > start && kept[kept.len() - 1] == c {
                    continue;
                }
                kept.push(c);
                meet!(c, kb);
            }
            if mode.glop {
                // ... also cyclically: the last spot is the first one met again on this boundary,
                // so taking it back changes only its count.
                while let [first, .., last] = kept[start..] {
                    if last != first {
                        break;
                    }
                    kept.pop();
                    tables.info(last).occ -= 1;
                }
            }
            if kept.len() > start {
                kept_bnd.push(kept.len() as u32);
            }
        }
        if kept_bnd.len() > bnd_start {
            scratch.kept_reg.push(kept_bnd.len() as u32 - 1);
            scratch.region_lives.push(lives);
            any_small |= (2..=3).contains(&lives);
        }
    }
    scratch.pass = pass;
    scratch.any_link = any_link;
    any_small
}

/// Step 3 in one pass over the kept spots: labels, lands, the shape, and the merged small regions
/// written as they are read (the same shape as [`merge_small_regions`] then [`label_and_emit`],
/// without copying the position in between).
#[inline(never)]
fn emit(merge: bool, scratch: &mut ShapeScratch, shape: &mut Shape) {
    order_lands(scratch);
    let nr = scratch.kept_reg.len() - 1;
    write_regions(merge, scratch, shape, (0, nr), false);
}

/// Groups the kept regions of the last reading by land: `order` lists them land after land
/// (lands in order of their first region, regions in order within a land), and `land_of` gives
/// each region's land (its first region).
fn order_lands(scratch: &mut ShapeScratch) {
    let nr = scratch.kept_reg.len() - 1;
    // Lands: regions joined by a spot met in both, joined while reading (a private spot of a
    // merged region never is met in two), each rooted at its first region.
    let any_link = scratch.any_link;
    scratch.order.clear();
    scratch.land_of.clear();
    if any_link {
        scratch.uf.least_roots(nr, &mut scratch.land_of);
        // Regions by land root, in order within a land: a counting sort (stable, as the
        // reference's sort by key), through slices of exact lengths.
        let land_of = &scratch.land_of[..nr];
        let fill = &mut scratch.fill;
        fill.clear();
        fill.resize(nr + 1, 0);
        let fill = &mut fill[..=nr];
        for &root in land_of {
            fill[root as usize + 1] += 1;
        }
        for k in 0..nr {
            fill[k + 1] += fill[k];
        }
        scratch.order.resize(nr, 0);
        let order = &mut scratch.order[..nr];
        for (r, &root) in land_of.iter().enumerate() {
            let k = &mut fill[root as usize];
            order[*k as usize] = r as u32;
            *k += 1;
        }
    } else {
        scratch.order.extend(0..nr as u32);
        scratch.land_of.extend(0..nr as u32);
    }
}

/// Writes the kept regions `order[lo..hi]` (whole lands, as [`order_lands`] grouped them) into
/// `shape`, land after land: labels numbered from 0 in each land in order of first appearance,
/// and with `merge`, the regions with two or three lives written as bags. A region's land is
/// told by `land_of`, or with `by_slot` by `land_slot` (as [`pack_lands`] leaves them).
#[inline(always)]
fn write_regions(
    merge: bool,
    scratch: &mut ShapeScratch,
    shape: &mut Shape,
    (lo, hi): (usize, usize),
    by_slot: bool,
) {
    shape.clear();
    let kept = scratch.kept.as_slice();
    let kept_bnd = scratch.kept_bnd.as_slice();
    let kept_reg = scratch.kept_reg.as_slice();
    // The lives were copied in by the reading.
    let mut tables = SpotTables::filled(&scratch.lives, &mut scratch.spots);
    let mut n_labels = 0u32;
    // The first label of the current land.
    let mut land_lo = 0u32;
    // The token of a spot: its class, or its label (numbered in order of first appearance,
    // written from the land's first label).
    #[inline]
    fn token(
        info: &mut SpotInfo,
        lives: u8,
        private: bool,
        (n_labels, land_lo): (&mut u32, u32),
        label_class_out: &mut Vec<u8>,
    ) -> u32 {
        if private || info.occ < 2 {
            return u32::from(3 - lives);
        }
        if info.label == u32::MAX {
            info.label = *n_labels;
            *n_labels += 1;
            label_class_out.push(label_class(lives, info.occ, info.same_boundary));
        }
        LABEL_BASE + info.label - land_lo
    }
    let (order, region_lives) = (&scratch.order[lo..hi], &scratch.region_lives);
    let land_of = if by_slot {
        &scratch.land_slot
    } else {
        &scratch.land_of
    };
    // The land of the region before (a new land starts where it changes).
    let mut last_land = order.first().map_or(0, |&r| land_of[r as usize]);
    for &r in order {
        let r = r as usize;
        let land = land_of[r];
        if land != last_land {
            shape.land.push(shape.reg.len() as u32 - 1);
            shape.land_labels.push(n_labels);
            land_lo = n_labels;
            last_land = land;
        }
        let (bs, be) = (kept_reg[r] as usize, kept_reg[r + 1] as usize);
        if merge && (2..=3).contains(&region_lives[r]) {
            // One bag: the spots met elsewhere or with two lives or more in order, then each
            // private 1-life spot once.
            let region = &kept[kept_bnd[bs] as usize..kept_bnd[be] as usize];
            // Twice the number of private 1-life spots: every kept occurrence of one is in
            // this region, so each of its occurrences counts 2 / occurrences.
            let mut halves = 0u32;
            let mut private_stump = false;
            for &c in region {
                let lives = tables.lives(c);
                let info = tables.info(c);
                if lives >= 2 || info.first_region != info.last_region {
                    let t = token(
                        info,
                        lives,
                        false,
                        (&mut n_labels, land_lo),
                        &mut shape.label_class,
                    );
                    shape.toks.push(t);
                } else if lives == 1 {
                    halves += if info.occ >= 2 { 1 } else { 2 };
                } else {
                    private_stump = true;
                }
            }
            if !private_stump {
                // All the same class (one life), so their order does not show.
                // (Few: pushed one by one, without reserving room first.)
                for _ in 0..halves / 2 {
                    shape.toks.push(2);
                }
            } else {
                // Stumps kept (not the canonical forms' modes): each private spot once, in
                // order of first appearance, by its class.
                let mut privates: smallvec::SmallVec<[SpotId; 4]> = smallvec::SmallVec::new();
                for &c in region {
                    let lives = tables.lives(c);
                    let info = tables.info(c);
                    let private = lives < 2 && info.first_region == info.last_region;
                    if private && !privates.contains(&c) {
                        privates.push(c);
                    }
                }
                for &c in &privates {
                    let lives = tables.lives(c);
                    let t = token(
                        tables.info(c),
                        lives,
                        true,
                        (&mut n_labels, land_lo),
                        &mut shape.label_class,
                    );
                    shape.toks.push(t);
                }
            }
            shape.bnd.push(shape.toks.len() as u32);
            shape.bag.push(true);
        } else {
            for b in bs..be {
                for &c in &kept[kept_bnd[b] as usize..kept_bnd[b + 1] as usize] {
                    let lives = tables.lives(c);
                    let t = token(
                        tables.info(c),
                        lives,
                        false,
                        (&mut n_labels, land_lo),
                        &mut shape.label_class,
                    );
                    shape.toks.push(t);
                }
                shape.bnd.push(shape.toks.len() as u32);
                shape.bag.push(false);
            }
        }
        shape.reg.push(shape.bnd.len() as u32 - 1);
    }
    if hi > lo {
        shape.land.push(shape.reg.len() as u32 - 1);
        shape.land_labels.push(n_labels);
    }
}

/// The most tokens (spots with repeats) of a land given a packed key: with a symbol per token and
/// per boundary (never more boundaries than tokens), at most 32 four-bit symbols.
pub(crate) const PACKED_TOKENS: u32 = 16;

/// A land of a position read by [`read_lands`]: its first region, and its exact shape packed
/// into an integer.
///
/// The packed key is the land's shape as four-bit symbols, the first in the highest bits used:
/// per token, 1 + its class (1 to 3) or 7 + its label (labels 0 to 7, numbered in order of first
/// appearance); after each boundary, 4 when another boundary of the region follows, 5 after the
/// region's last boundary, 6 after a bag (a bag is its region's only boundary). No symbol is 0,
/// so the key tells how many there are, and two lands with equal keys have equal shapes: the
/// tokens, boundaries, bags and regions are written out, and the class of every label follows
/// from them (a land is packed only if each of its labels has one life and is met twice, so its
/// class says only whether both occurrences are on one boundary, which the key shows). The key
/// is 0 for a land that is not packed: more than [`PACKED_TOKENS`] tokens, or a label met other
/// than twice or with other than one life (which only a handwritten position can give).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PackedLand {
    pub(crate) root: u32,
    /// The key as far as it is packed, and what packing it counts: tokens and boundaries
    /// written, labels numbered, and whether the land does not fit a key.
    packing: u128,
    toks: u32,
    ends: u32,
    /// Regions packed.
    regions: u32,
    labels: u8,
    unpacked: bool,
}

impl PackedLand {
    /// The land's packed key, or 0 if it is not packed.
    #[inline]
    pub(crate) fn key(&self) -> u128 {
        if self.unpacked { 0 } else { self.packing }
    }

    /// The land's regions (as far as it is packed).
    #[inline]
    pub(crate) fn regions(&self) -> u32 {
        self.regions
    }
}

/// Reads `pos` with GLOP's reductions (the canonical forms' mode, [`KeyOptions::GLOP`]) and
/// lists its lands in `lands`, in the order the shape [`build`] writes them, each with its packed
/// key (see [`PackedLand`]); the shape itself is not written (see [`emit_land`]). Returns whether
/// small regions are merged (the argument [`emit_land`] takes).
pub(crate) fn read_lands(
    pos: &Position,
    scratch: &mut ShapeScratch,
    lands: &mut Vec<PackedLand>,
) -> bool {
    scratch.reset_spot_tables(pos.lives.len());
    let merge = read(pos, KeyOptions::GLOP, scratch);
    pack_lands(merge, scratch, lands);
    merge
}

/// Writes the one land `land` of the last [`read_lands`] into `shape` (as its land 0): the same
/// land, token for token, as the whole shape [`build`] writes.
pub(crate) fn emit_land(
    merge: bool,
    scratch: &mut ShapeScratch,
    shape: &mut Shape,
    land: PackedLand,
) {
    // The land's regions in order, where the whole shape's order would be.
    scratch.order.clear();
    let root = land.root as usize;
    let nr = scratch.kept_reg.len() - 1;
    let slots = &scratch.land_slot[..nr];
    let slot = slots[root];
    for (r, &s) in slots.iter().enumerate().skip(root) {
        if s == slot {
            scratch.order.push(r as u32);
        }
    }
    let n = scratch.order.len();
    write_regions(merge, scratch, shape, (0, n), true);
}

/// Writes the land whose packed key is `key` (not 0) into `shape` (as its land 0): the same
/// shape as [`emit_land`] writes for the land (see [`PackedLand`]: a label has one life and is
/// met twice, so its class says only whether both its occurrences are on one boundary).
pub(crate) fn unpack_land(key: u128, shape: &mut Shape) {
    debug_assert_ne!(key, 0);
    shape.toks.clear();
    shape.bnd.clear();
    shape.bnd.push(0);
    shape.reg.clear();
    shape.reg.push(0);
    shape.bag.clear();
    shape.label_class.clear();
    // Per label: the boundary of its first occurrence (labels are at most 8).
    let mut first_boundary = [u32::MAX; 8];
    let symbols = (128 - key.leading_zeros()).div_ceil(4);
    for i in (0..symbols).rev() {
        let symbol = (key >> (4 * i)) as u32 & 15;
        match symbol {
            1..=3 => shape.toks.push(symbol - 1),
            4..=6 => {
                shape.bnd.push(shape.toks.len() as u32);
                shape.bag.push(symbol == 6);
                if symbol != 4 {
                    shape.reg.push(shape.bnd.len() as u32 - 1);
                }
            }
            _ => {
                let label = (symbol - 7) as usize;
                let b = shape.bnd.len() as u32 - 1;
                if first_boundary[label] == u32::MAX {
                    first_boundary[label] = b;
                    shape.label_class.push(0);
                } else {
                    shape.label_class[label] = label_class(1, 2, first_boundary[label] == b);
                }
                shape.toks.push(LABEL_BASE + label as u32);
            }
        }
    }
    shape.land.clear();
    shape.land.push(0);
    shape.land.push(shape.reg.len() as u32 - 1);
    shape.land_labels.clear();
    shape.land_labels.push(0);
    shape.land_labels.push(shape.label_class.len() as u32);
}

/// The lands of the last reading, in order of their first regions, with their packed keys (see
/// [`PackedLand`]), in one pass over the kept regions: each region's land (its slot in `lands`,
/// kept in `land_slot`) is its parent's in the union-find, a region's parent being before it,
/// and its symbols are appended to its land's key (a land's regions come in order, so its
/// labels are numbered in order of first appearance).
#[inline(never)]
fn pack_lands(merge: bool, scratch: &mut ShapeScratch, lands: &mut Vec<PackedLand>) {
    lands.clear();
    let nr = scratch.kept_reg.len() - 1;
    let kept = scratch.kept.as_slice();
    let kept_bnd = scratch.kept_bnd.as_slice();
    let kept_reg = &scratch.kept_reg[..=nr];
    let region_lives = &scratch.region_lives[..nr];
    // Without a link every region is its own land: its own parent.
    if !scratch.any_link {
        scratch.uf.reset(nr);
    }
    let parents = scratch.uf.parents(nr);
    // A region's slot is read only where it was written (no reset).
    if scratch.land_slot.len() < nr {
        scratch.land_slot.resize(nr, 0);
    }
    let slot_of = &mut scratch.land_slot[..nr];
    let mut tables = SpotTables::filled(&scratch.lives, &mut scratch.spots);
    /// The symbol of a spot: its class, or its label (numbered on its first appearance);
    /// `None` if the land cannot be packed.
    #[inline(always)]
    fn symbol(info: &mut SpotInfo, lives: u8, labels: &mut u8) -> Option<u128> {
        // Stumps are dropped in this mode: `lives` is 1 to 3.
        debug_assert!((1..=3).contains(&lives));
        if info.occ < 2 {
            return Some(u128::from(4 - lives));
        }
        if lives != 1 || info.occ != 2 {
            return None;
        }
        if info.key_label == u8::MAX {
            info.key_label = *labels;
            // (A land with more labels than the key holds is not packed: past 255 the
            // numbers are meaningless, not an error.)
            *labels = labels.wrapping_add(1);
        }
        Some(7 + u128::from(info.key_label))
    }
    let regions = parents.iter().zip(kept_reg.windows(2)).zip(region_lives);
    for (r, ((&parent, bounds), &lives_r)) in regions.enumerate() {
        // A region's parent is before it (or is itself), so its slot is known.
        let slot = if parent as usize == r {
            let slot = lands.len();
            lands.push(PackedLand {
                root: r as u32,
                packing: 0,
                toks: 0,
                ends: 0,
                regions: 0,
                labels: 0,
                unpacked: false,
            });
            slot
        } else {
            slot_of[parent as usize] as usize
        };
        slot_of[r] = slot as u32;
        let p = &mut lands[slot];
        if p.unpacked {
            continue;
        }
        let (mut key, mut toks, mut labels) = (p.packing, p.toks, p.labels);
        let mut packed = true;
        // The region's boundaries' ends, and its first token.
        let ends_r = &kept_bnd[bounds[0] as usize..=bounds[1] as usize];
        let (first, last) = (ends_r[0], ends_r[ends_r.len() - 1]);
        if merge && (2..=3).contains(&lives_r) {
            // One bag, as `write_regions` writes it: the spots met elsewhere or with two
            // lives or more in order, then a `2` per private 1-life spot.
            let mut halves = 0u32;
            for &c in &kept[first as usize..last as usize] {
                let lives = tables.lives(c);
                let info = tables.info(c);
                if lives >= 2 || info.first_region != info.last_region {
                    match symbol(info, lives, &mut labels) {
                        Some(s) => key = key << 4 | s,
                        None => packed = false,
                    }
                    toks += 1;
                } else {
                    halves += if info.occ >= 2 { 1 } else { 2 };
                }
            }
            for _ in 0..halves / 2 {
                key = key << 4 | 3;
            }
            toks += halves / 2;
            key = key << 4 | 6;
            p.ends += 1;
        } else if toks + (last - first) > PACKED_TOKENS {
            // Too many tokens: not packed (the rest of the land is not read).
            packed = false;
        } else {
            let mut start = first as usize;
            for &end in &ends_r[1..] {
                for &c in &kept[start..end as usize] {
                    let lives = tables.lives(c);
                    match symbol(tables.info(c), lives, &mut labels) {
                        Some(s) => key = key << 4 | s,
                        None => packed = false,
                    }
                }
                key = key << 4 | 4;
                start = end as usize;
            }
            // The last boundary's end is the region's: 5, not 4.
            key += 1;
            toks += last - first;
            p.ends += ends_r.len() as u32 - 1;
        }
        // Past the limit the key has lost its first symbols: not packed.
        p.regions += 1;
        p.unpacked = !(packed && toks <= PACKED_TOKENS && toks + p.ends <= 32);
        (p.packing, p.toks, p.labels) = (key, toks, labels);
    }
}

fn count_occurrences(scratch: &mut ShapeScratch) {
    let nr = scratch.kept_reg.len() - 1;
    let spots = &mut scratch.spots;
    for &c in &scratch.kept {
        let info = &mut spots[c.index()];
        info.occ = 0;
        info.first_region = u32::MAX;
        info.label = u32::MAX;
    }
    let mut b = 0;
    for r in 0..nr as u32 {
        let b_end = scratch.kept_reg[r as usize + 1] as usize;
        while b < b_end {
            let (ks, ke) = (
                scratch.kept_bnd[b] as usize,
                scratch.kept_bnd[b + 1] as usize,
            );
            for &c in &scratch.kept[ks..ke] {
                let info = &mut spots[c.index()];
                info.occ = info.occ.saturating_add(1);
                info.last_region = r;
                if info.first_region == u32::MAX {
                    info.first_region = r;
                    info.first_boundary = b as u32;
                    info.same_boundary = true;
                } else if info.first_boundary != b as u32 {
                    info.same_boundary = false;
                }
            }
            b += 1;
        }
    }
}

/// Merges the boundaries of every kept region with two or three lives (GLOP's
/// `Region_spr::merge_boundaries`; the reduction is checked by brute force in the tests): the
/// region becomes one boundary made of its spots shared with other regions, seeds and sprouts in
/// order, followed by each private 1-life spot once (met once, or twice in this region; it is then
/// met once, GLOP's `2`).
fn merge_small_regions(pos: &Position, scratch: &mut ShapeScratch) {
    let nr = scratch.kept_reg.len() - 1;
    let mut kept = std::mem::take(&mut scratch.tmp);
    kept.clear();
    let mut bnd = std::mem::take(&mut scratch.tmp_bnd);
    bnd.clear();
    bnd.push(0);
    let mut reg = std::mem::take(&mut scratch.tmp_reg);
    reg.clear();
    reg.push(0);
    let mut bag = std::mem::take(&mut scratch.tmp_bag);
    bag.clear();
    let mut privates: smallvec::SmallVec<[SpotId; 4]> = smallvec::SmallVec::new();
    for r in 0..nr {
        let (bs, be) = (
            scratch.kept_reg[r] as usize,
            scratch.kept_reg[r + 1] as usize,
        );
        if (2..=3).contains(&scratch.region_lives[r]) {
            let start = kept.len();
            privates.clear();
            for k in scratch.kept_bnd[bs] as usize..scratch.kept_bnd[be] as usize {
                let c = scratch.kept[k];
                let i = c.index();
                let l = pos.lives_at(c);
                let shared = scratch.spots[i].first_region != scratch.spots[i].last_region;
                if l >= 2 || shared {
                    kept.push(c);
                } else if !privates.contains(&c) {
                    privates.push(c);
                }
            }
            kept.extend_from_slice(&privates);
            // A private spot is now met once (its region, the only one it is met in, keeps it
            // once); every other spot keeps its occurrences, so nothing else needs recounting.
            for &c in &privates {
                scratch.spots[c.index()].occ = 1;
            }
            if kept.len() > start {
                bnd.push(kept.len() as u32);
                bag.push(true);
            }
        } else {
            for b in bs..be {
                kept.extend_from_slice(
                    &scratch.kept[scratch.kept_bnd[b] as usize..scratch.kept_bnd[b + 1] as usize],
                );
                bnd.push(kept.len() as u32);
                bag.push(false);
            }
        }
        reg.push(bnd.len() as u32 - 1);
    }
    scratch.tmp = std::mem::replace(&mut scratch.kept, kept);
    scratch.tmp_bnd = std::mem::replace(&mut scratch.kept_bnd, bnd);
    scratch.tmp_reg = std::mem::replace(&mut scratch.kept_reg, reg);
    scratch.tmp_bag = std::mem::replace(&mut scratch.kept_bag, bag);
}

/// Labels the spots met more than once (in the plain modes only 1-life spots can be), splits the kept
/// regions into lands and writes the shape.
fn label_and_emit(pos: &Position, scratch: &mut ShapeScratch, shape: &mut Shape) {
    let nr = scratch.kept_reg.len() - 1;
    shape.clear();
    // Lands: regions joined by a labelled spot met in both, each rooted at its first region.
    let mut uf = std::mem::take(&mut scratch.uf);
    uf.reset(nr);
    let mut any_link = false;
    for r in 0..nr {
        for k in scratch.kept_bnd[scratch.kept_reg[r] as usize] as usize
            ..scratch.kept_bnd[scratch.kept_reg[r + 1] as usize] as usize
        {
            let c = scratch.kept[k];
            let i = c.index();
            let info = &scratch.spots[i];
            if info.occ >= 2 && info.first_region != r as u32 {
                uf.union_least(info.first_region, r as u32);
                any_link = true;
            }
        }
    }
    scratch.order.clear();
    scratch.order.extend(0..nr as u32);
    scratch.land_of.clear();
    for r in 0..nr as u32 {
        let root = uf.find(r);
        scratch.land_of.push(root);
    }
    if any_link {
        let land_of = &scratch.land_of;
        scratch.order.sort_by_key(|&r| land_of[r as usize]);
    }
    scratch.uf = uf;
    let mut n_labels = 0u32;
    let mut land_lo = 0u32;
    for (k, &r) in scratch.order.iter().enumerate() {
        if k > 0 && scratch.land_of[r as usize] != scratch.land_of[scratch.order[k - 1] as usize] {
            shape.land.push(shape.reg.len() as u32 - 1);
            shape.land_labels.push(n_labels);
            land_lo = n_labels;
        }
        let r = r as usize;
        for b in scratch.kept_reg[r] as usize..scratch.kept_reg[r + 1] as usize {
            for kk in scratch.kept_bnd[b] as usize..scratch.kept_bnd[b + 1] as usize {
                let c = scratch.kept[kk];
                let i = c.index();
                let l = pos.lives_at(c);
                let info = &mut scratch.spots[i];
                let o = info.occ;
                let tok = if o >= 2 {
                    if info.label == u32::MAX {
                        info.label = n_labels;
                        n_labels += 1;
                        shape
                            .label_class
                            .push(label_class(l, o, info.same_boundary));
                    }
                    LABEL_BASE + info.label - land_lo
                } else {
                    u32::from(3 - l)
                };
                shape.toks.push(tok);
            }
            shape.bnd.push(shape.toks.len() as u32);
            shape.bag.push(scratch.kept_bag[b]);
        }
        shape.reg.push(shape.bnd.len() as u32 - 1);
    }
    if nr > 0 {
        shape.land.push(shape.reg.len() as u32 - 1);
        shape.land_labels.push(n_labels);
    }
}

/// The class of a label: its lives, how often it is met, and whether all its corners are on one
/// boundary (GLOP's lower-case letters, in the plain modes).
pub(crate) fn label_class(lives: u8, occ: u8, same_boundary: bool) -> u8 {
    8 + lives * 8 + (occ.min(3) - 2) * 2 + u8::from(same_boundary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The shape of `p` under `mode`, built in one pass and in separate steps.
    fn both(p: &Position, mode: KeyOptions) -> (Shape, Shape) {
        let mut fast = ShapeScratch::default();
        let mut slow = ShapeScratch {
            reference: true,
            ..ShapeScratch::default()
        };
        let (mut a, mut b) = (Shape::default(), Shape::default());
        build(p, mode, &mut fast, &mut a);
        build(p, mode, &mut slow, &mut b);
        (a, b)
    }

    /// The modes of the canonical forms and keys, and GLOP's reductions with stumps kept (a
    /// merged region's private spots are then listed rather than counted).
    const MODES: [KeyOptions; 4] = [
        KeyOptions::GLOP,
        KeyOptions::PLAIN,
        KeyOptions::FULL,
        KeyOptions {
            drop_stumps: false,
            ..KeyOptions::GLOP
        },
    ];

    /// One position per GLOP class reachable from 1 to 4 seeds, and every child of each, as
    /// played (stumps, dead regions and all): the same shape both ways, in every mode.
    #[test]
    fn one_pass_shape_equals_stepwise_shape_exhaustively() {
        for n in 1..=4u32 {
            let mut layer = vec![Position::new(n)];
            let mut seen = std::collections::HashSet::new();
            while !layer.is_empty() {
                let mut next = Vec::new();
                for p in &layer {
                    for mv in p.moves() {
                        let q = p.play(&mv).unwrap();
                        for mode in MODES {
                            let (a, b) = both(&q, mode);
                            assert_eq!(a, b, "{} {mode:?}", q.to_glop());
                        }
                        if seen.insert(q.canonical()) {
                            next.push(q);
                        }
                    }
                }
                layer = next;
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Random games from 1 to 14 seeds: the same shape both ways.
        #[test]
        fn one_pass_shape_equals_stepwise_shape(
            n in 1u32..=14,
            choices in prop::collection::vec(any::<u16>(), 0..40),
        ) {
            for p in crate::random_game(n, &choices) {
                for mode in MODES {
                    let (a, b) = both(&p, mode);
                    prop_assert_eq!(a, b, "{} {:?}", p.to_glop(), mode);
                }
            }
        }
    }
}
