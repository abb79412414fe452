//! Shadow memory (paper 003 §4.3.3, Fig. 8): per-location race metadata — the last plain
//! write epoch, the last plain read epoch or (after concurrent reads) a sparse read clock,
//! and for locations accessed atomically the atomic reads and writes since the last plain
//! write (the atomic bit of §3.3, kept as a set so that every atomic is checked against a
//! later plain access, as §3.2's definition asks).
//!
//! Metadata is kept per 4-byte granule while accesses cover whole granules (32 bytes per
//! granule, as the paper's 32-byte record); an access that covers part of a granule splits it
//! into four per-byte records, so accesses of different widths conflict exactly when their
//! byte ranges overlap. Pages of 4096 granules are allocated on first access (global memory
//! on demand, shared memory per CTA).

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for the integer keys of the per-location maps (thread indices, CTAs, pcs): a
/// multiply and a fold instead of SipHash, on the path of every concurrent read. The maps
/// are only searched, or scanned for the smallest key, so their order never shows.
#[derive(Clone, Copy, Debug, Default)]
pub struct IntHasher(u64);

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        let h = (self.0 ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 29);
    }
}

/// A map keyed by small integers.
pub type IntMap<K, V> = HashMap<K, V, BuildHasherDefault<IntHasher>>;

/// Granules per page.
const PAGE_BITS: u32 = 8;
const PAGE: usize = 1 << PAGE_BITS;

/// The metadata of one location (a granule, or one byte of a split granule).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Meta {
    pub w_tid: u32,
    /// 0: no plain write yet.
    pub w_clk: u32,
    pub w_pc: u32,
    pub r_tid: u32,
    /// 0: no plain read (or the reads are in the extension).
    pub r_clk: u32,
    pub r_pc: u32,
    /// 0 or 1 + index of the extension (split granule: of the split record).
    pub ext: u32,
    pub flags: u32,
}

/// The granule is split into four per-byte records.
pub const SPLIT: u32 = 1;
/// The plain reads are a sparse clock in the extension.
pub const READ_SHARED: u32 = 2;

/// An access recorded in an extension: (clock, pc, block-scope atomic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rec {
    pub clk: u32,
    pub pc: u32,
    pub block: bool,
}

/// One atomic instruction's writes to a location from one CTA (the scope check).
#[derive(Clone, Debug, Default)]
pub struct ScopeSite {
    /// The instruction is block-scoped (`atom.cta`).
    pub block: bool,
    /// Thread -> clock of its latest write here.
    pub clk: BTreeMap<u32, u32>,
}

/// Threads' records at one location (concurrent reads, atomics since the last plain write):
/// while few, a vector sorted by thread (a short scan is cheaper than hashing, and the
/// first concurrent entry in order is the one with the smallest thread index); past
/// [`SMALL`] entries, a hash map. Cleared sets keep their allocation (the extensions are
/// reused, [`Shadow::free_ext`]), so steady state allocates nothing per access.
#[derive(Clone, Debug)]
pub enum TidSet {
    Small(Vec<(u32, Rec)>),
    Big(IntMap<u32, Rec>),
}

/// Entries a [`TidSet`] keeps in its sorted vector.
const SMALL: usize = 32;

impl Default for TidSet {
    fn default() -> Self {
        TidSet::Small(Vec::new())
    }
}

impl TidSet {
    /// Sets thread `t`'s record. A thread past the last one of a small set (lanes arrive
    /// mostly in increasing thread order) is pushed inline; the rest is
    /// [`TidSet::insert_slow`].
    #[inline(always)]
    pub fn insert(&mut self, t: u32, r: Rec) {
        if let TidSet::Small(v) = self {
            if v.len() < SMALL && v.last().is_none_or(|l| l.0 < t) {
                v.push((t, r));
                return;
            }
        }
        self.insert_slow(t, r);
    }

    /// [`TidSet::insert`] in general: a thread already there, one to insert before others,
    /// a full small set.
    #[inline(never)]
    fn insert_slow(&mut self, t: u32, r: Rec) {
        match self {
            TidSet::Small(v) => {
                // Lanes arrive mostly in increasing thread order: search from the end.
                let mut i = v.len();
                while i > 0 && v[i - 1].0 > t {
                    i -= 1;
                }
                if i > 0 && v[i - 1].0 == t {
                    v[i - 1].1 = r;
                } else if v.len() < SMALL {
                    // At the end mostly (the same growth as `insert`).
                    if i == v.len() {
                        v.push((t, r));
                    } else {
                        v.insert(i, (t, r));
                    }
                } else {
                    let mut m: IntMap<u32, Rec> = v.iter().copied().collect();
                    m.insert(t, r);
                    *self = TidSet::Big(m);
                }
            }
            TidSet::Big(m) => {
                m.insert(t, r);
            }
        }
    }

    /// The entry with the smallest thread index for which `pick` holds.
    #[inline]
    pub fn first(&self, mut pick: impl FnMut(u32, &Rec) -> bool) -> Option<(u32, Rec)> {
        match self {
            TidSet::Small(v) => v.iter().find(|(u, r)| pick(*u, r)).copied(),
            TidSet::Big(m) => m
                .iter()
                .filter(|(&u, r)| pick(u, r))
                .map(|(&u, &r)| (u, r))
                .min_by_key(|&(u, _)| u),
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        match self {
            TidSet::Small(v) => v.is_empty(),
            TidSet::Big(m) => m.is_empty(),
        }
    }

    /// Empties the set, keeping a small vector's allocation.
    pub fn clear(&mut self) {
        match self {
            TidSet::Small(v) => v.clear(),
            TidSet::Big(_) => *self = TidSet::default(),
        }
    }

    /// Entries the set has room for (the report's shadow bytes).
    pub fn capacity(&self) -> usize {
        match self {
            TidSet::Small(v) => v.capacity(),
            TidSet::Big(m) => m.capacity(),
        }
    }
}

/// Rarely needed metadata: concurrent plain reads, atomic reads and writes.
#[derive(Clone, Debug, Default)]
pub struct Ext {
    pub reads: TidSet,
    pub atomic_writes: TidSet,
    pub atomic_reads: TidSet,
    /// Atomic writes for the scope check (`--definition scoped` only): per CTA, per
    /// instruction (with whether it is block-scoped), each thread's latest clock, in thread
    /// order. Nothing is overwritten across threads or instructions, so a later
    /// device-scoped atomic of the same CTA does not hide an earlier block-scoped one.
    pub atomic_scope: IntMap<u32, IntMap<u32, ScopeSite>>,
}

impl Ext {
    /// Empties the extension for reuse, keeping the small sets' allocations.
    fn clear(&mut self) {
        self.reads.clear();
        self.atomic_writes.clear();
        self.atomic_reads.clear();
        if !self.atomic_scope.is_empty() {
            self.atomic_scope = IntMap::default();
        }
    }
}

impl Default for Shadow {
    fn default() -> Self {
        Shadow {
            index: HashMap::new(),
            pages: Vec::new(),
            splits: Vec::new(),
            exts: Vec::new(),
            free_exts: Vec::new(),
            cache: [(0, 0); CACHE],
            last: (u64::MAX, 0),
        }
    }
}

/// The shadow of all traced memory.
pub struct Shadow {
    index: HashMap<u64, u32>,
    pages: Vec<Box<[Meta; PAGE]>>,
    splits: Vec<[Meta; 4]>,
    exts: Vec<Ext>,
    free_exts: Vec<u32>,
    /// Direct-mapped cache of page indices (page number, index + 1; 0 = empty).
    cache: [(u64, u32); CACHE],
    /// The page of the last lookup (page number, index; `u64::MAX`, which no granule's page
    /// number reaches: none): consecutive accesses of a warp instruction mostly fall in one
    /// page.
    last: (u64, u32),
}

/// A granule record's place: page index, index in the page.
#[derive(Clone, Copy, Debug)]
pub struct Slot(u32, u32);

/// Entries of the page cache (kernels touch a few arrays in turn).
const CACHE: usize = 16;

impl Shadow {
    /// The granule record for granule index `g` (a location key divided by 4).
    #[inline]
    pub fn granule(&mut self, g: u64) -> &mut Meta {
        let at = self.locate(g);
        self.at(at)
    }

    /// Where granule `g`'s record lives (allocating its page): valid until the next page is
    /// allocated, which only [`Shadow::locate`] does.
    #[inline(always)]
    pub fn locate(&mut self, g: u64) -> Slot {
        let page = g >> PAGE_BITS;
        if self.last.0 == page {
            return Slot(self.last.1, (g as usize & (PAGE - 1)) as u32);
        }
        self.locate_page(g)
    }

    /// [`Shadow::locate`] past the last page: the page cache, then the index.
    #[inline(never)]
    fn locate_page(&mut self, g: u64) -> Slot {
        let page = g >> PAGE_BITS;
        let idx = (g as usize) & (PAGE - 1);
        let slot = (page as usize ^ (page >> 4) as usize ^ (page >> 20) as usize) % CACHE;
        let (p, i1) = self.cache[slot];
        let pi = if i1 != 0 && p == page {
            i1 - 1
        } else {
            let pages = &mut self.pages;
            let i = *self.index.entry(page).or_insert_with(|| {
                let page: Box<[Meta]> = vec![Meta::default(); PAGE].into_boxed_slice();
                pages.push(page.try_into().expect("PAGE records"));
                (pages.len() - 1) as u32
            });
            self.cache[slot] = (page, i + 1);
            i
        };
        self.last = (page, pi);
        Slot(pi, idx as u32)
    }

    /// The record at a located slot.
    #[inline]
    pub fn at(&mut self, s: Slot) -> &mut Meta {
        &mut self.pages[s.0 as usize][s.1 as usize & (PAGE - 1)]
    }

    /// Granule `g`'s record and the extensions, borrowed together (the per-warp check
    /// updates a record and its extension in place).
    #[inline(always)]
    pub fn meta_exts(&mut self, g: u64) -> (&mut Meta, Exts<'_>) {
        let s = self.locate(g);
        (
            &mut self.pages[s.0 as usize][s.1 as usize & (PAGE - 1)],
            Exts {
                exts: &mut self.exts,
                free: &mut self.free_exts,
            },
        )
    }

    /// Splits granule `g` into per-byte records (if not yet) and returns the split index.
    pub fn split(&mut self, g: u64) -> usize {
        let m = *self.granule(g);
        if m.flags & SPLIT != 0 {
            return (m.ext - 1) as usize;
        }
        let mut bytes = [m; 4];
        // Each byte gets its own copy of the extension.
        if m.ext != 0 {
            let e = self.exts[(m.ext - 1) as usize].clone();
            for b in bytes.iter_mut().skip(1) {
                b.ext = self.new_ext(e.clone());
            }
        }
        self.splits.push(bytes);
        let i = self.splits.len() - 1;
        let gm = self.granule(g);
        *gm = Meta {
            flags: SPLIT,
            ext: i as u32 + 1,
            ..Meta::default()
        };
        i
    }

    /// Byte `k` of split record `i` and the extensions, borrowed together.
    #[inline]
    pub fn byte_exts(&mut self, i: usize, k: usize) -> (&mut Meta, Exts<'_>) {
        (
            &mut self.splits[i][k],
            Exts {
                exts: &mut self.exts,
                free: &mut self.free_exts,
            },
        )
    }

    /// Byte `k` of split record `i`.
    #[inline]
    pub fn byte(&mut self, i: usize, k: usize) -> &mut Meta {
        &mut self.splits[i][k]
    }

    /// Merges a split granule back when its four bytes hold the same plain-write state and
    /// nothing else (after a full-width write).
    pub fn try_unsplit(&mut self, g: u64) {
        let m = *self.granule(g);
        if m.flags & SPLIT == 0 {
            return;
        }
        let b = self.splits[(m.ext - 1) as usize];
        if b.iter().all(|x| *x == b[0] && x.ext == 0 && x.flags == 0) {
            *self.granule(g) = b[0];
            // The split record stays allocated (indices are stable); it is small.
        }
    }

    /// A new extension holding `e` (a freed one reused when there is one).
    pub fn new_ext(&mut self, e: Ext) -> u32 {
        if let Some(i) = self.free_exts.pop() {
            self.exts[i as usize] = e;
            i + 1
        } else {
            self.exts.push(e);
            self.exts.len() as u32
        }
    }

    /// The extensions, borrowed.
    #[inline]
    fn exts(&mut self) -> Exts<'_> {
        Exts {
            exts: &mut self.exts,
            free: &mut self.free_exts,
        }
    }

    /// A new empty extension: a freed one (already cleared, its sets' allocations kept)
    /// when there is one.
    #[inline]
    pub fn new_empty_ext(&mut self) -> u32 {
        self.exts().new_empty_ext()
    }

    #[inline]
    pub fn ext(&mut self, id: u32) -> &mut Ext {
        &mut self.exts[(id - 1) as usize]
    }

    /// The extension `id`, read-only.
    #[inline]
    pub fn ext_ref(&self, id: u32) -> &Ext {
        &self.exts[(id - 1) as usize]
    }

    /// Frees extension `id` (0: none) for reuse.
    #[inline]
    pub fn free_ext(&mut self, id: u32) {
        self.exts().free_ext(id)
    }

    /// Approximate bytes in use.
    pub fn bytes(&self) -> usize {
        let mut b = self.pages.len() * (PAGE * std::mem::size_of::<Meta>() + 32)
            + self.splits.capacity() * std::mem::size_of::<[Meta; 4]>();
        for e in &self.exts {
            b += std::mem::size_of::<Ext>()
                + (e.reads.capacity()
                    + e.atomic_writes.capacity()
                    + e.atomic_reads.capacity()
                    + e.atomic_scope
                        .values()
                        .flat_map(|m| m.values())
                        .map(|x| x.clk.len() + 2)
                        .sum::<usize>())
                    * 16;
        }
        b
    }

    /// Granules with metadata pages allocated.
    pub fn granules(&self) -> usize {
        self.pages.len() * PAGE
    }
}

/// The extensions of a [`Shadow`] with their free list, borrowed apart from its records.
pub struct Exts<'a> {
    exts: &'a mut Vec<Ext>,
    free: &'a mut Vec<u32>,
}

impl Exts<'_> {
    /// See [`Shadow::new_empty_ext`].
    #[inline]
    pub fn new_empty_ext(&mut self) -> u32 {
        if let Some(i) = self.free.pop() {
            i + 1
        } else {
            self.exts.push(Ext::default());
            self.exts.len() as u32
        }
    }

    #[inline]
    pub fn ext(&mut self, id: u32) -> &mut Ext {
        &mut self.exts[(id - 1) as usize]
    }

    #[inline]
    pub fn ext_ref(&self, id: u32) -> &Ext {
        &self.exts[(id - 1) as usize]
    }

    /// See [`Shadow::free_ext`].
    #[inline]
    pub fn free_ext(&mut self, id: u32) {
        if id != 0 {
            self.exts[(id - 1) as usize].clear();
            self.free.push(id - 1);
        }
    }
}
