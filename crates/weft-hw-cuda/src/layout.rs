//! Where everything lives at run time (paper 000 §4.2 "Testing locations", "Testing
//! threads", "Scope tree"; §4.3.3 thread randomisation): the memory layout of global and
//! shared cells per instance, the result buffer per instance, the host-side assignment of
//! physical threads to (instance, test thread) roles that honours the scope tree, and the
//! decoding of the buffers back into [`Outcome`]s with the instance checksum.

use std::collections::BTreeMap;

use weft_ir::{LocId, MemSpace};
use weft_litmus::classify::{address_value, Outcome};

use crate::error::{CodegenError, CudaError};
use crate::lower::{Cell, Lowered, RegSlot, Shape};
use crate::CudaParams;

/// Role word of a physical thread that plays no test thread.
pub const ROLE_NONE: u32 = u32::MAX;
/// Flag bit of a role word: the thread shadows the test thread in the low bits (general
/// bank conflicts, paper 000 §4.3.2) instead of playing it.
pub const ROLE_SHADOW: u32 = 1 << 31;
/// Words of the global scratch array used by memory stress and shadow threads (power of 2).
pub const SCRATCH_WORDS: u32 = 1 << 16;
/// Words of the shared shadow array used by bank-conflict threads (power of 2).
pub const SHADOW_WORDS: u32 = 1024;
/// Most iterations of the memory-stress loop (it also stops when every test thread is done).
pub const STRESS_MAX_ITERS: u32 = 1 << 16;
/// Most polls of the thread-synchronisation spin before a thread goes on alone (no
/// progress guarantee across CTAs, paper 000 §4.3.4).
pub const SPIN_LIMIT: u32 = 1 << 16;
/// Backward branches a test thread may take before its instance is declared stuck (a spin
/// loop whose partner never comes must not hang the GPU).
pub const LOOP_LIMIT: u32 = 1 << 16;
/// Most 32-bit words of shared memory the kernel may declare (of 48 KiB).
pub const SHARED_LIMIT_WORDS: u32 = 10 * 1024;

/// Memory layout and result-buffer layout of a generated kernel.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KernelLayout {
    /// Number of test threads.
    pub threads: usize,
    /// Registers of each test thread: stored value at a word offset, or a pointer.
    pub regs: Vec<Vec<RegSlot>>,
    /// Scope tree: CTA groups of warp groups of test threads.
    pub shape: Shape,
    /// Global cells, in order: cell `c` of instance `i` is word `c * N + i` of the global
    /// buffer (instances interleaved, so one cache line holds one cell of many instances).
    pub global_cells: Vec<Cell>,
    /// Shared cells: cell `s` of the instance in shared slot `k` of a block is word
    /// `s * shared_slots + k` of `weft_sh`.
    pub shared_cells: Vec<Cell>,
    /// Initial value of each shared cell.
    pub shared_init: Vec<i32>,
    /// For each shared cell, the test thread that copies its final value out.
    pub shared_owner: Vec<usize>,
    /// Initial value of each global cell.
    pub global_init: Vec<i32>,
    /// Shared slots per block (instances whose CTA group sits in one block).
    pub shared_slots: u32,
    /// Words of the result buffer per instance: registers, then shared cells, then one
    /// cycle count per test thread, then the stuck flag.
    pub words_per_instance: u32,
    /// Offset of the stuck flag: non-zero when a test thread spent its loop budget.
    pub stuck_offset: u32,
    /// Offset of the shared cells' final values in an instance's result words.
    pub shared_offset: u32,
    /// Offset of the per-thread cycle counts (`%clock64` around the body).
    pub cycles_offset: u32,
    /// For each location: its space and the index of its first cell in `global_cells` or
    /// `shared_cells`.
    pub loc_cells: Vec<(MemSpace, u32, u32)>,
}

impl KernelLayout {
    /// Builds the layout of a lowered program for `threads_per_block`.
    pub fn new(l: &Lowered, threads_per_block: u32) -> Result<KernelLayout, CodegenError> {
        let mut global_cells = Vec::new();
        let mut shared_cells = Vec::new();
        let mut global_init = Vec::new();
        let mut shared_init = Vec::new();
        let mut shared_owner = Vec::new();
        let mut loc_cells = Vec::new();
        for (li, (space, size, init)) in l.locs.iter().enumerate() {
            let cells: Vec<Cell> = (0..*size)
                .map(|index| Cell {
                    loc: li as u32,
                    index,
                })
                .collect();
            match space {
                MemSpace::Shared => {
                    loc_cells.push((MemSpace::Shared, shared_cells.len() as u32, *size));
                    let owner = l
                        .threads
                        .iter()
                        .position(|t| t.cells.iter().any(|c| c.loc as usize == li))
                        .unwrap_or(0);
                    for c in cells {
                        shared_cells.push(c);
                        shared_init.push(*init);
                        shared_owner.push(owner);
                    }
                }
                _ => {
                    loc_cells.push((MemSpace::Global, global_cells.len() as u32, *size));
                    for c in cells {
                        global_cells.push(c);
                        global_init.push(*init);
                    }
                }
            }
        }
        let mut regs = Vec::new();
        let mut off = 0u32;
        for t in &l.threads {
            let mut v = Vec::new();
            for r in &t.regs {
                match r {
                    RegSlot::Value(_) => {
                        v.push(RegSlot::Value(off));
                        off += 1;
                    }
                    p => v.push(*p),
                }
            }
            regs.push(v);
        }
        let shared_offset = off;
        let cycles_offset = off + shared_cells.len() as u32;
        let stuck_offset = cycles_offset + l.threads.len() as u32;
        let words_per_instance = stuck_offset + 1;
        let min_group = l
            .shape
            .ctas
            .iter()
            .map(|w| w.iter().map(|x| x.len()).sum::<usize>())
            .min()
            .unwrap_or(1)
            .max(1) as u32;
        let shared_slots = (threads_per_block / min_group).max(1);
        if !shared_cells.is_empty() {
            let words = shared_cells.len() as u64 * shared_slots as u64 + SHADOW_WORDS as u64;
            if words > SHARED_LIMIT_WORDS as u64 {
                return Err(CodegenError::new(format!(
                    "{} shared cells for {} instances per block need {} words of shared memory (at most {}); use fewer threads per block",
                    shared_cells.len(),
                    shared_slots,
                    words,
                    SHARED_LIMIT_WORDS
                )));
            }
        }
        Ok(KernelLayout {
            threads: l.threads.len(),
            regs,
            shape: l.shape.clone(),
            global_cells,
            shared_cells,
            shared_init,
            shared_owner,
            global_init,
            shared_slots,
            words_per_instance,
            stuck_offset,
            shared_offset,
            cycles_offset,
            loc_cells,
        })
    }

    /// Index of a cell in `global_cells` or `shared_cells`, with its space.
    pub fn cell_index(&self, c: Cell) -> (MemSpace, u32) {
        let (sp, first, _) = self.loc_cells[c.loc as usize];
        (sp, first + c.index)
    }

    /// The global buffer's initial contents for `n` instances.
    pub fn global_image(&self, n: u32) -> Vec<u32> {
        let mut v = Vec::with_capacity(self.global_cells.len() * n as usize);
        for init in &self.global_init {
            v.extend(std::iter::repeat_n(*init as u32, n as usize));
        }
        v
    }

    /// `shinit` kernel argument: the initial value of each shared cell.
    pub fn shared_image(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.shared_init.iter().map(|x| *x as u32).collect();
        if v.is_empty() {
            v.push(0);
        }
        v
    }
}

/// A small deterministic generator (splitmix64) for thread randomisation.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5eed_0f3a_5eed_0001)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Which physical thread plays which test thread in one launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// Blocks in the grid.
    pub blocks: u32,
    /// Role word per physical thread: `instance * T + t`, possibly with [`ROLE_SHADOW`],
    /// or [`ROLE_NONE`].
    pub roles: Vec<u32>,
    /// Shared slot per physical thread (the slot of its instance's CTA group in its block).
    pub slots: Vec<u32>,
    /// `placement[i][t]`: the global thread id playing test thread `t` of instance `i`.
    pub placement: Vec<Vec<u32>>,
}

/// Checks the parameters against the test's shape.
pub fn check_params(shape: &Shape, params: &CudaParams) -> Result<(), CodegenError> {
    let tpb = params.threads_per_block;
    if !(32..=1024).contains(&tpb) || !tpb.is_multiple_of(32) {
        return Err(CodegenError::new(format!(
            "threads_per_block must be a multiple of 32 in 32..=1024, not {tpb}"
        )));
    }
    if params.instances_per_launch == 0 || params.instances_per_launch > 1 << 22 {
        return Err(CodegenError::new(format!(
            "instances_per_launch must be in 1..={}, not {}",
            1 << 22,
            params.instances_per_launch
        )));
    }
    let warps = tpb / 32;
    for g in &shape.ctas {
        if g.len() as u32 > warps {
            return Err(CodegenError::new(format!(
                "the test needs {} warps in one CTA but a block of {tpb} threads has {warps}",
                g.len()
            )));
        }
        if g.iter().any(|w| w.len() > 32) {
            return Err(CodegenError::new(
                "the test puts more than 32 threads in one warp",
            ));
        }
    }
    Ok(())
}

/// Where a CTA group's warp groups go in a block: (warp, lanes) per warp group.
type Fit = Vec<(usize, Vec<u32>)>;

/// Checks that the buffers of one launch stay within 32-bit word indices (the kernel
/// computes `c*N + i` and `i*W` in 32 bits).
pub fn check_sizes(layout: &KernelLayout, params: &CudaParams) -> Result<(), CodegenError> {
    let n = params.instances_per_launch as u64;
    let global = layout.global_cells.len() as u64 * n;
    let results = layout.words_per_instance as u64 * n;
    let limit = (u32::MAX / 4) as u64;
    if global > limit || results > limit {
        return Err(CodegenError::new(format!(
            "{} instances of this test need {global} global and {results} result words, more than {limit}; use fewer instances per launch",
            params.instances_per_launch
        )));
    }
    Ok(())
}

struct Block {
    /// Used-lane mask per warp.
    warps: Vec<u32>,
    next_slot: u32,
}

/// Assigns physical threads to roles for one launch (paper 000 §4.2 "Scope tree"): the
/// test threads of one CTA group land in one block, those of one warp group in one warp,
/// different groups in different blocks/warps. Without randomisation ids ascend; with it
/// (§4.3.3) blocks, warps and lanes are drawn at random with `seed` and the grid gets up
/// to a quarter more blocks (a random number of non-testing threads). With bank conflicts
/// (§4.3.2) the free lanes of every warp holding a testing thread shadow it.
pub fn assign(
    layout: &KernelLayout,
    params: &CudaParams,
    seed: u64,
) -> Result<Assignment, CodegenError> {
    check_params(&layout.shape, params)?;
    check_sizes(layout, params)?;
    let shape = &layout.shape;
    let t_count = layout.threads as u32;
    let tpb = params.threads_per_block;
    let wpb = (tpb / 32) as usize;
    let n = params.instances_per_launch;
    let mut rng = Rng::new(seed);
    let random = params.thread_randomisation;
    let est = ((n as u64 * t_count as u64).div_ceil(tpb as u64) as usize).max(shape.ctas.len());
    let mut blocks: Vec<Block> = Vec::new();
    let initial = if random {
        est + rng.below(est / 4 + 1) + shape.ctas.len()
    } else {
        0
    };
    for _ in 0..initial {
        blocks.push(Block {
            warps: vec![0; wpb],
            next_slot: 0,
        });
    }
    let mut placement = vec![vec![0u32; layout.threads]; n as usize];
    let mut slot_of: Vec<(usize, u32)> = Vec::new(); // (gid, slot)
    let mut hint = 0usize;
    for inst_place in placement.iter_mut() {
        let mut used_blocks: Vec<usize> = Vec::new();
        for group in shape.ctas.iter() {
            let mut chosen: Option<(usize, Fit)> = None;
            if random && !blocks.is_empty() {
                for _ in 0..16 {
                    let b = rng.below(blocks.len());
                    if used_blocks.contains(&b) {
                        continue;
                    }
                    if let Some(f) = fit(&blocks[b], group, &mut rng, true) {
                        chosen = Some((b, f));
                        break;
                    }
                }
            }
            if chosen.is_none() {
                let mut b = hint;
                while b < blocks.len() {
                    if !used_blocks.contains(&b) {
                        if let Some(f) = fit(&blocks[b], group, &mut rng, random) {
                            chosen = Some((b, f));
                            break;
                        }
                    }
                    b += 1;
                }
            }
            let (b, f) = match chosen {
                Some(c) => c,
                None => {
                    blocks.push(Block {
                        warps: vec![0; wpb],
                        next_slot: 0,
                    });
                    let b = blocks.len() - 1;
                    match fit(&blocks[b], group, &mut rng, random) {
                        Some(f) => (b, f),
                        None => {
                            return Err(CodegenError::new(
                                "a CTA group does not fit in an empty block",
                            ))
                        }
                    }
                }
            };
            used_blocks.push(b);
            let slot = blocks[b].next_slot;
            blocks[b].next_slot += 1;
            for (wg, (warp, lanes)) in group.iter().zip(f) {
                for (t, lane) in wg.iter().zip(lanes) {
                    blocks[b].warps[warp] |= 1 << lane;
                    let gid = b as u32 * tpb + warp as u32 * 32 + lane;
                    inst_place[*t] = gid;
                    slot_of.push((gid as usize, slot));
                }
            }
        }
        // Advance the first-fit hint past full blocks (ascending order).
        while hint < blocks.len() && blocks[hint].warps.iter().all(|m| *m == u32::MAX) {
            hint += 1;
        }
    }
    if blocks.len() > i32::MAX as usize / tpb as usize {
        return Err(CodegenError::new("too many blocks"));
    }
    let total = blocks.len() * tpb as usize;
    let mut roles = vec![ROLE_NONE; total];
    let mut slots = vec![0u32; total];
    for (i, ts) in placement.iter().enumerate() {
        for (t, gid) in ts.iter().enumerate() {
            roles[*gid as usize] = i as u32 * t_count + t as u32;
        }
    }
    for (gid, s) in slot_of {
        slots[gid] = s;
    }
    if params.bank_conflicts {
        shadow_free_lanes(&mut roles, &mut slots);
    }
    Ok(Assignment {
        blocks: blocks.len() as u32,
        roles,
        slots,
        placement,
    })
}

/// Every free lane of a warp with a testing thread shadows the lowest testing lane.
fn shadow_free_lanes(roles: &mut [u32], slots: &mut [u32]) {
    for w in 0..(roles.len() / 32) {
        let base = w * 32;
        let first = (base..base + 32).find(|g| roles[*g] != ROLE_NONE);
        if let Some(f) = first {
            let (r, s) = (roles[f], slots[f]);
            for g in base..base + 32 {
                if roles[g] == ROLE_NONE {
                    roles[g] = r | ROLE_SHADOW;
                    slots[g] = s;
                }
            }
        }
    }
}

/// Tries to fit a CTA group into block `blk`: (warp, lanes) per warp group.
fn fit(blk: &Block, group: &[Vec<usize>], rng: &mut Rng, random: bool) -> Option<Fit> {
    let mut used_warps: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    let mut order: Vec<usize> = (0..group.len()).collect();
    order.sort_by_key(|w| std::cmp::Reverse(group[*w].len()));
    let mut res: Vec<Option<(usize, Vec<u32>)>> = vec![None; group.len()];
    for w in order {
        let need = group[w].len() as u32;
        let mut cands: Vec<usize> = (0..blk.warps.len())
            .filter(|i| !used_warps.contains(i) && (32 - blk.warps[*i].count_ones()) >= need)
            .collect();
        if cands.is_empty() {
            return None;
        }
        let wi = if random {
            cands.swap_remove(rng.below(cands.len()))
        } else {
            cands[0]
        };
        used_warps.push(wi);
        let mut free: Vec<u32> = (0..32).filter(|l| blk.warps[wi] & (1 << l) == 0).collect();
        let mut lanes = Vec::new();
        for _ in 0..need {
            let k = if random { rng.below(free.len()) } else { 0 };
            lanes.push(free.remove(k));
        }
        res[w] = Some((wi, lanes));
    }
    for r in res {
        out.push(r?);
    }
    Some(out)
}

/// One launch, decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decoded {
    /// One outcome per instance that finished.
    pub outcomes: Vec<Outcome>,
    /// Instances abandoned because a loop spent its budget (no outcome).
    pub stuck: u64,
}

/// Decodes one launch's buffers into one outcome per instance: registers and shared
/// cells from `results` (`words_per_instance` words per instance), global cells from
/// `gmem`. Pointer registers report [`address_value`] as the SC interpreter does.
/// Instances whose stuck flag is set have no outcome and are counted apart.
pub fn decode(
    layout: &KernelLayout,
    n: u32,
    results: &[u32],
    gmem: &[u32],
) -> Result<Decoded, CudaError> {
    let w = layout.words_per_instance as usize;
    let n = n as usize;
    if results.len() < w * n || gmem.len() < layout.global_cells.len() * n {
        return Err(CudaError::BadParams(format!(
            "result buffers too short: {} result words for {n} instances of {w}, {} global words",
            results.len(),
            gmem.len()
        )));
    }
    let mut out = Vec::with_capacity(n);
    let mut stuck = 0u64;
    for i in 0..n {
        let res = &results[i * w..(i + 1) * w];
        if res[layout.stuck_offset as usize] != 0 {
            stuck += 1;
            continue;
        }
        let regs = layout
            .regs
            .iter()
            .map(|rs| {
                rs.iter()
                    .map(|r| match r {
                        RegSlot::Value(o) => res[*o as usize] as i32 as i64,
                        RegSlot::Pointer(c) => address_value(LocId(c.loc), c.index),
                    })
                    .collect()
            })
            .collect();
        let mem = layout
            .loc_cells
            .iter()
            .map(|(sp, first, size)| {
                (0..*size)
                    .map(|e| {
                        let c = (*first + e) as usize;
                        let v = match sp {
                            MemSpace::Shared => res[layout.shared_offset as usize + c],
                            _ => gmem[c * n + i],
                        };
                        v as i32 as i64
                    })
                    .collect()
            })
            .collect();
        out.push(Outcome { regs, mem });
    }
    Ok(Decoded {
        outcomes: out,
        stuck,
    })
}

/// Adds outcomes to a histogram.
pub fn tally(hist: &mut BTreeMap<Outcome, u64>, outcomes: Vec<Outcome>) {
    for o in outcomes {
        *hist.entry(o).or_insert(0) += 1;
    }
}

/// Turns a histogram into the runner's list, enforcing the checksum: the counts, plus the
/// stuck instances, add up to the number of instances that ran.
pub fn finish(
    hist: BTreeMap<Outcome, u64>,
    stuck: u64,
    instances: u64,
) -> Result<Vec<(Outcome, u64)>, CudaError> {
    let counted: u64 = hist.values().sum::<u64>() + stuck;
    if counted != instances {
        return Err(CudaError::Checksum {
            counted,
            expected: instances,
        });
    }
    Ok(hist.into_iter().collect())
}
