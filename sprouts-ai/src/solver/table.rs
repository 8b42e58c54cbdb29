//! The solver's tables: proved facts about lands (true facts only; within a byte budget if one
//! is given) and bounded caches of children lists and of proof numbers.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use rustc_hash::{FxBuildHasher, FxHashMap, FxHasher};
use sprouts_topo::LandForm;

/// How many shards a table is split into (a power of two), so that threads rarely wait.
const SHARDS: usize = 64;

/// What has been proved about one land `L` (by its [`LandForm`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Facts {
    /// The nimber of `L`, once proved: `L + *n` is a loss.
    pub(crate) nimber: Option<u32>,
    /// Bit `k` set: `L + *k` is proved a win (so the nimber is not `k`), for `k < 64`.
    pub(crate) wins: u64,
}

impl Facts {
    /// Whether `L + *k` is a loss, if known.
    pub(crate) fn couple_is_loss(&self, k: u32) -> Option<bool> {
        match self.nimber {
            Some(n) => Some(n == k),
            None => (k < 64 && self.wins >> k & 1 == 1).then_some(false),
        }
    }

    /// Adds `other`'s facts to these.
    pub(crate) fn merge(&mut self, other: &Facts) {
        if self.nimber.is_none() {
            self.nimber = other.nimber;
        }
        self.wins |= other.wins;
    }
}

/// What an entry of the table of facts costs, as its budget counts it.
fn entry_bytes(land: &LandForm) -> usize {
    land.as_str().len() + FACT_ENTRY_OVERHEAD
}

fn shard_of(key: &LandForm) -> usize {
    let mut h = FxHasher::default();
    key.hash(&mut h);
    // The high bits are the best mixed.
    (h.finish() >> 58) as usize & (SHARDS - 1)
}

/// One shard of the table of facts: the entries and what they cost in bytes.
type FactShard = (FxHashMap<LandForm, Facts>, usize);

/// What one entry of the table of facts costs beyond its land's text: the map's slot (key,
/// value, control byte, spare capacity) and the header of the text's allocation.
const FACT_ENTRY_OVERHEAD: usize = 64;

/// The least budget of one shard of a bounded table of facts (256 KB for the table): a search
/// reads back many facts at once (every heap of a land on its way to the land's nimber, the
/// lands of every child of the couples on its path), and a table too small to hold them would
/// forget them faster than they are proved.
const MIN_SHARD_BYTES: usize = 4 << 10;

/// Proved facts by land, shared by all threads. Every entry is true; with a byte budget a shard
/// that outgrows its share forgets some (see [`FactTable::new`]), which costs only time: a
/// forgotten fact is proved again when it is needed.
#[derive(Debug)]
pub(crate) struct FactTable {
    shards: Vec<RwLock<FactShard>>,
    /// Bytes each shard may hold (`usize::MAX`: no bound).
    shard_budget: usize,
    /// Entries forgotten so far.
    evicted: AtomicU64,
}

impl Default for FactTable {
    fn default() -> Self {
        FactTable::new(None)
    }
}

impl FactTable {
    /// A table of at most about `bytes` bytes, at least 256 KB (`None`: no bound). A shard over its share of the
    /// budget forgets entries until it is back to three quarters of it: first lands of which
    /// only wins `L + *k` are known (one step towards a nimber, cheap to prove again), then
    /// lands with known nimbers, those with the most lives first (the many large lands are met
    /// in few positions; the small ones are met everywhere and are kept longest).
    pub(crate) fn new(bytes: Option<usize>) -> FactTable {
        FactTable {
            shards: (0..SHARDS)
                .map(|_| RwLock::new((FxHashMap::with_hasher(FxBuildHasher), 0)))
                .collect(),
            shard_budget: bytes.map_or(usize::MAX, |b| (b / SHARDS).max(MIN_SHARD_BYTES)),
            evicted: AtomicU64::new(0),
        }
    }

    /// Entries forgotten to keep the table within its budget.
    pub(crate) fn evicted(&self) -> u64 {
        self.evicted.load(Ordering::Relaxed)
    }

    /// Bytes the entries take, as the budget counts them.
    pub(crate) fn bytes(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.read().unwrap_or_else(|e| e.into_inner()).1)
            .sum()
    }

    /// Brings a shard back to three quarters of its budget (see [`FactTable::new`]).
    fn evict(&self, shard: &mut FactShard) {
        let target = self.shard_budget / 4 * 3;
        let (map, bytes) = shard;
        let before = map.len();
        map.retain(|land, f| {
            if *bytes <= target || f.nimber.is_some() {
                return true;
            }
            *bytes -= entry_bytes(land);
            false
        });
        if *bytes > target {
            let mut nimbers: Vec<(u32, LandForm)> =
                map.keys().map(|l| (l.lives(), l.clone())).collect();
            nimbers.sort_unstable_by(|a, b| b.cmp(a));
            for (_, land) in nimbers {
                if *bytes <= target {
                    break;
                }
                map.remove(&land);
                *bytes -= entry_bytes(&land);
            }
        }
        self.evicted
            .fetch_add((before - map.len()) as u64, Ordering::Relaxed);
    }

    pub(crate) fn get(&self, land: &LandForm) -> Option<Facts> {
        let shard = self.shards[shard_of(land)]
            .read()
            .unwrap_or_else(|e| e.into_inner());
        shard.0.get(land).copied()
    }

    pub(crate) fn nimber(&self, land: &LandForm) -> Option<u32> {
        self.get(land).and_then(|f| f.nimber)
    }

    pub(crate) fn couple_is_loss(&self, land: &LandForm, k: u32) -> Option<bool> {
        self.get(land).and_then(|f| f.couple_is_loss(k))
    }

    /// Records that `land + *k` is a loss (`loss`: the nimber is `k`) or a win.
    pub(crate) fn record(&self, land: &LandForm, k: u32, loss: bool) {
        let fact = match loss {
            true => Facts {
                nimber: Some(k),
                wins: 0,
            },
            false if k < 64 => Facts {
                nimber: None,
                wins: 1 << k,
            },
            false => return,
        };
        self.merge_one(land, &fact);
    }

    pub(crate) fn merge_one(&self, land: &LandForm, fact: &Facts) {
        let mut shard = self.shards[shard_of(land)]
            .write()
            .unwrap_or_else(|e| e.into_inner());
        match shard.0.get_mut(land) {
            Some(f) => f.merge(fact),
            None => {
                // Room is made before the new fact goes in, so that the fact just proved (which
                // the search reads back at once) is never the one forgotten.
                let cost = entry_bytes(land);
                if shard.1.saturating_add(cost) > self.shard_budget {
                    self.evict(&mut shard);
                }
                shard.0.insert(land.clone(), *fact);
                shard.1 += cost;
            }
        }
    }

    /// The number of lands with facts.
    pub(crate) fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.read().unwrap_or_else(|e| e.into_inner()).0.len())
            .sum()
    }

    /// Every entry, sorted by land (a deterministic order for saving).
    pub(crate) fn entries(&self) -> Vec<(LandForm, Facts)> {
        let mut out = Vec::new();
        for s in &self.shards {
            let s = s.read().unwrap_or_else(|e| e.into_inner());
            out.extend(s.0.iter().map(|(k, v)| (k.clone(), *v)));
        }
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        out
    }
}

/// The distinct children of a land, each as its lands' forms (none for a child with no move
/// left), sorted as their canonical forms are ([`LandForm::cmp_sums`]). Or, when a children
/// list was given up at a child already proved lost, the children found until then (in the
/// order found) and how many moves were played to find them, so that the list can be taken up
/// again there.
#[derive(Debug, Default)]
pub(crate) struct ChildList {
    /// Every child's lands, one child after another.
    lands: Vec<LandForm>,
    /// Where each child's lands end in `lands`.
    ends: Vec<u32>,
    /// The bytes the list holds (see [`ChildCache`]).
    bytes: usize,
    /// For an unfinished list, the moves played so far.
    resume: Option<u32>,
}

/// Bytes counted for each land of a children list besides its text (the value and the text's
/// allocation).
const LAND_BYTES: usize = std::mem::size_of::<LandForm>() + 16;

impl ChildList {
    /// An unfinished list: the children found by the first `played` moves.
    pub(crate) fn unfinished(played: u32) -> ChildList {
        ChildList {
            resume: Some(played),
            ..ChildList::default()
        }
    }

    /// The moves played for an unfinished list; `None` when the list is complete.
    pub(crate) fn resume(&self) -> Option<u32> {
        self.resume
    }

    /// Appends a child made of `lands`.
    pub(crate) fn push(&mut self, lands: impl IntoIterator<Item = LandForm>) {
        for l in lands {
            self.bytes += LAND_BYTES + l.as_str().len();
            self.lands.push(l);
        }
        self.ends.push(self.lands.len() as u32);
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The children, each as its lands.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[LandForm]> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(s, &e)| &self.lands[s as usize..e as usize])
    }

    fn bytes(&self) -> usize {
        self.bytes + 4 * self.ends.len() + 64
    }
}

/// One shard of the children cache: the lists and their size in bytes.
type CacheShard = (FxHashMap<LandForm, Arc<ChildList>>, usize);

/// A bounded cache of children lists: a shard that outgrows its share of the budget is emptied.
/// Losing entries costs only time.
#[derive(Debug)]
pub(crate) struct ChildCache {
    shards: Vec<RwLock<CacheShard>>,
    shard_budget: usize,
}

impl ChildCache {
    pub(crate) fn new(bytes: usize) -> ChildCache {
        ChildCache {
            shards: (0..SHARDS)
                .map(|_| RwLock::new((FxHashMap::with_hasher(FxBuildHasher), 0)))
                .collect(),
            shard_budget: bytes / SHARDS,
        }
    }

    pub(crate) fn get(&self, land: &LandForm) -> Option<Arc<ChildList>> {
        if self.shard_budget == 0 {
            return None;
        }
        let shard = self.shards[shard_of(land)]
            .read()
            .unwrap_or_else(|e| e.into_inner());
        shard.0.get(land).cloned()
    }

    pub(crate) fn insert(&self, land: &LandForm, list: Arc<ChildList>) {
        if self.shard_budget == 0 {
            return;
        }
        let size = list.bytes() + land.as_str().len();
        let mut shard = self.shards[shard_of(land)]
            .write()
            .unwrap_or_else(|e| e.into_inner());
        if shard.1 + size > self.shard_budget {
            shard.0.clear();
            shard.1 = 0;
        }
        // An unfinished list is replaced by the longer or complete one.
        match shard.0.insert(land.clone(), list) {
            Some(old) => {
                shard.1 = (shard.1 + size).saturating_sub(old.bytes() + land.as_str().len())
            }
            None => shard.1 += size,
        }
    }
}

/// Proof and disproof numbers of couples `L + *k` searched but not proved, in a fixed array of
/// slots indexed by a hash of the couple (lossy: a new entry replaces the old one in its slot).
/// The numbers only steer the search, so a lost or mixed-up entry costs time, never a verdict.
/// Lock-free: a slot is a key word and a value word; a torn read gives wrong numbers, no more.
#[derive(Debug)]
pub(crate) struct NumberTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

/// The 64-bit key of a couple (never 0, which marks an empty slot).
fn couple_key(land: &LandForm, k: u32) -> u64 {
    let mut h = FxHasher::default();
    land.hash(&mut h);
    k.hash(&mut h);
    // Finish with the SplitMix64 mixer, so that the low bits (the slot index) are well mixed.
    let mut z = h.finish();
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)).max(1)
}

impl NumberTable {
    /// A table of about `bytes` bytes (a power of two of 16-byte slots; none for 0).
    pub(crate) fn new(bytes: usize) -> NumberTable {
        let slots = match bytes / 16 {
            0 => 0,
            n => 1usize << (usize::BITS - 1 - n.leading_zeros()),
        };
        NumberTable {
            slots: (0..slots)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            mask: slots.wrapping_sub(1),
        }
    }

    /// The numbers stored for `land + *k`, if its slot holds them.
    pub(crate) fn get(&self, land: &LandForm, k: u32) -> Option<(u32, u32)> {
        if self.slots.is_empty() {
            return None;
        }
        let key = couple_key(land, k);
        let slot = &self.slots[key as usize & self.mask];
        if slot[0].load(Ordering::Relaxed) != key {
            return None;
        }
        let v = slot[1].load(Ordering::Relaxed);
        let (pn, dn) = ((v >> 32) as u32, v as u32);
        // Only unproved numbers are stored; anything else is a torn read.
        (pn != 0 && dn != 0 && pn != u32::MAX && dn != u32::MAX).then_some((pn, dn))
    }

    /// Stores the numbers of `land + *k` (both in `1..u32::MAX`).
    pub(crate) fn put(&self, land: &LandForm, k: u32, pn: u32, dn: u32) {
        if self.slots.is_empty() {
            return;
        }
        let key = couple_key(land, k);
        let slot = &self.slots[key as usize & self.mask];
        slot[0].store(key, Ordering::Relaxed);
        slot[1].store(u64::from(pn) << 32 | u64::from(dn), Ordering::Relaxed);
    }
}
