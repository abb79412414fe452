//! Setting up the kernel stepper: decoding each launch, laying out memory areas and cells,
//! naming threads and locations, and mapping addresses, barriers and warp slots to cells.

use std::collections::BTreeMap;

use weft_exec::event::Cell;
use weft_ir::attrs::{BarrierKind, MemSpace};
use weft_ir::kernel::{KOp, Kernel, Operand};
use weft_ir::{Arch, LocId, Location, Placement, Program, Scope, Thread};
use weft_simt::mem::Region;
use weft_simt::thread::{ThreadIds, ThreadProgram};
use weft_simt::{Arg, Buffer, LaunchConfig};

use super::{
    textual_barrier_slots, Area, KernelError, KernelOptions, KernelStepper, Launch, Part, Run,
    BARRIERS, MAX_CELLS,
};
use crate::live::LoopHeads;

impl<'k> KernelStepper<'k> {
    /// Sets up one kernel launch (`opts.launches` host-ordered times): decodes the kernel,
    /// lays out memory, names the cells.
    pub fn new(
        kernel: &'k Kernel,
        cfg: LaunchConfig,
        args: &[Arg],
        buffers: &[Buffer],
        names: &[String],
        opts: &KernelOptions,
    ) -> Result<Self, KernelError> {
        let one = Launch {
            kernel,
            cfg,
            args: args.to_vec(),
            label: String::new(),
        };
        Self::sequence(&[one], buffers, names, opts)
    }

    /// Sets up a host-ordered sequence of launches (repeated `opts.launches` times): every
    /// launch sees `buffers` at the same addresses, so a buffer two launches name is one
    /// memory; module variables persist too; shared memory, barriers and warp counters are
    /// fresh per launch (its blocks are different CTAs).
    pub fn sequence(
        seq: &[Launch<'k>],
        buffers: &[Buffer],
        names: &[String],
        opts: &KernelOptions,
    ) -> Result<Self, KernelError> {
        if seq.is_empty() {
            return Err(KernelError::Launch("no launch to check".into()));
        }
        let warp = opts.warp_size;
        if !(1..=32).contains(&warp) {
            return Err(KernelError::Launch(format!(
                "--warp-size {warp}: a warp has 1 to 32 lanes"
            )));
        }
        let mut parts = Vec::new();
        for l in seq {
            parts.push(decode_part(l, buffers, opts)?);
        }
        check_module(&parts)?;
        let repeat = opts.launches.max(1) as usize;
        let total: u64 = seq
            .iter()
            .map(|l| l.cfg.block_threads() * l.cfg.grid_ctas())
            .sum::<u64>()
            * repeat as u64;
        if total > opts.max_threads {
            return Err(KernelError::Launch(format!(
                "{total} threads over {} launches: the model checker explores at most {} (give a smaller --grid/--block or fewer launches)",
                seq.len() * repeat,
                opts.max_threads
            )));
        }
        let nruns = seq.len() * repeat;
        let (runs, nblocks) = runs_of(&parts, seq.len(), nruns);
        let mut program = Program::new(Arch::Ptx, parts[0].kernel.name.clone());
        let (ids, tl) = name_threads(seq, &parts, &runs, nruns, &mut program);
        let layout = lay_out(&parts, &runs, nblocks, nruns, buffers, names, warp);
        let (cells, init, out_areas) = cells_of(layout.areas, &parts[0].prog, &mut program)?;
        let legend = if seq.len() > 1 {
            let all: Vec<String> = (0..nruns)
                .map(|i| format!("l{i} = {}", seq[i % seq.len()].label))
                .collect();
            format!("launches (host-ordered): {}\n", all.join(", "))
        } else {
            String::new()
        };
        Ok(KernelStepper {
            parts,
            runs,
            tl,
            ids,
            unroll: opts.unroll.max(1),
            warp,
            areas: out_areas,
            bar_base: layout.bar_base,
            warp_loc: layout.warp_loc,
            host_base: layout.host_base,
            legend,
            program,
            cells,
            init,
            cut_sites: Default::default(),
        })
    }

    /// The kernel thread `t` runs, decoded.
    pub(super) fn part(&self, t: usize) -> &Part<'k> {
        &self.parts[self.runs[self.tl[t].0 as usize].part]
    }

    /// Thread `t`'s block in the combined numbering of every launch.
    pub(super) fn block_of(&self, t: usize) -> u32 {
        self.tl[t].1
    }

    /// Words per warp in a warp area: the collective's arrival counter, then two banks (by
    /// the parity of the collective's generation) of one exchange slot per lane.
    pub(super) fn warp_words(&self) -> u32 {
        1 + 2 * self.warp
    }

    /// The cell of an access by thread `t`.
    pub(super) fn cell(&self, t: usize, region: Region, off: u64) -> Option<(Cell, LocId)> {
        let b = self.block_of(t);
        self.areas
            .iter()
            .enumerate()
            .find(|(_, a)| {
                a.region == region
                    && (region != Region::Shared || a.block == b)
                    && off >= a.base
                    && off < a.base + a.bytes
            })
            .map(|(i, a)| {
                let loc = LocId(i as u32);
                (
                    Cell {
                        loc,
                        index: ((off - a.base) / 4) as u32,
                    },
                    loc,
                )
            })
    }

    /// The counter of barrier `slot` (a PTX id, or from [`BARRIERS`] on a textual
    /// barrier's slot) in thread `t`'s block.
    pub(super) fn bar_cell(&self, t: usize, slot: u32) -> (Cell, LocId) {
        let loc = LocId(self.bar_base + self.block_of(t));
        let index = if slot < BARRIERS || self.part(t).bar_slots.is_empty() {
            slot % BARRIERS
        } else {
            slot
        };
        (Cell { loc, index }, loc)
    }

    /// Word `word` of member-mask group `group` of thread `t`'s warp in its block's warp
    /// area.
    pub(super) fn warp_cell(&self, t: usize, group: u32, word: u32) -> Option<(Cell, LocId)> {
        let groups = self.part(t).masks.len() as u32 + 1;
        let w = self.ids[t].tid / self.warp;
        let loc = LocId(self.warp_loc[self.block_of(t) as usize]?);
        Some((
            Cell {
                loc,
                index: (w * groups + group) * self.warp_words() + word,
            },
            loc,
        ))
    }

    /// The member-mask group of a collective with mask operand `mask` in thread `t`'s
    /// kernel: collectives of one mask count their arrivals apart from those of another
    /// (a half-warp `__syncwarp(0xffff)` beside full-warp collectives), as PTX matches them.
    pub(super) fn mask_group(&self, t: usize, mask: u32) -> u32 {
        let m = &self.part(t).masks;
        m.iter().position(|x| *x == mask).unwrap_or(m.len()) as u32
    }

    /// The lanes of thread `t`'s warp that exist (a last, partial warp has fewer).
    pub(super) fn warp_lanes(&self, t: usize) -> u32 {
        let tid = self.ids[t].tid;
        let first = tid - tid % self.warp;
        let n = (self.part(t).bt - first).min(self.warp);
        if n == 32 {
            u32::MAX
        } else {
            (1u32 << n) - 1
        }
    }
}

/// Decodes one launch of a sequence: its thread program, the checks that refuse it, its
/// warp collectives' masks and its textual barrier slots.
fn decode_part<'k>(
    l: &Launch<'k>,
    buffers: &[Buffer],
    opts: &KernelOptions,
) -> Result<Part<'k>, KernelError> {
    let warp = opts.warp_size;
    let prog = ThreadProgram::new(l.kernel, l.cfg, &l.args, buffers)
        .map_err(|e| KernelError::Launch(e.to_string()))?
        .with_warp_size(warp);
    if let Some((pc, what)) = prog.unsupported().first() {
        return Err(KernelError::Unsupported {
            pos: describe(l.kernel, *pc),
            what: what.to_string(),
        });
    }
    let printf =
        super::syscall::printf_results(l.kernel).map_err(|pc| KernelError::Unmodelled {
            pos: describe(l.kernel, pc),
            what: "a device printf whose format string is not a constant string".into(),
        })?;
    let (bt, nb) = (l.cfg.block_threads(), l.cfg.grid_ctas());
    if bt == 0 || nb == 0 {
        return Err(KernelError::Launch(
            "grid and block dimensions must be at least 1".into(),
        ));
    }
    if bt * nb > opts.max_threads {
        return Err(KernelError::Launch(format!(
            "{} threads ({nb} blocks of {bt}): the model checker explores at most {} (give a smaller --grid/--block)",
            bt * nb,
            opts.max_threads
        )));
    }
    let has_warp_ops = l.kernel.code.iter().any(|i| {
        matches!(
            i.op,
            KOp::Shfl { .. }
                | KOp::Vote { .. }
                | KOp::Match { .. }
                | KOp::Barrier {
                    kind: BarrierKind::Warp,
                    ..
                }
        )
    });
    let mut masks = Vec::new();
    for i in &l.kernel.code {
        let m = match &i.op {
            KOp::Shfl { mask, .. } | KOp::Vote { mask, .. } | KOp::Match { mask, .. } => mask,
            KOp::Barrier {
                kind: BarrierKind::Warp,
                id,
                ..
            } => id,
            _ => continue,
        };
        if let Operand::Imm(v) = m {
            if !masks.contains(&(*v as u32)) {
                masks.push(*v as u32);
            }
        }
    }
    let bar_slots = if opts.textual_barriers {
        textual_barrier_slots(l.kernel)
    } else {
        Vec::new()
    };
    Ok(Part {
        prog,
        kernel: l.kernel,
        bt: bt as u32,
        nb: nb as u32,
        main_file: main_file(l.kernel),
        heads: LoopHeads::of(l.kernel),
        bounded: crate::bounds::self_bounded(l.kernel),
        has_warp_ops,
        masks,
        bar_slots,
        printf,
    })
}

/// Module variables lie after the buffers at the same place for every kernel of one
/// module (module-scope variables come first, in declaration order); kernels that
/// lay them out differently cannot share them.
fn check_module(parts: &[Part<'_>]) -> Result<(), KernelError> {
    let gvars = |k: &Kernel| -> Vec<(String, u64)> {
        k.vars
            .iter()
            .filter(|v| matches!(v.space, MemSpace::Global | MemSpace::Constant))
            .map(|v| (v.name.clone(), v.size))
            .collect()
    };
    for p in &parts[1..] {
        if gvars(p.kernel) != gvars(parts[0].kernel)
            || p.prog.global_init.len() != parts[0].prog.global_init.len()
        {
            return Err(KernelError::Launch(format!(
                "kernels {} and {} declare different global variables: a sequence of launches needs kernels of one module",
                parts[0].kernel.name, p.kernel.name
            )));
        }
    }
    Ok(())
}

/// The runs of a sequence repeated to `nruns` launches, with their first thread and block,
/// and the number of blocks of them all.
fn runs_of(parts: &[Part<'_>], nseq: usize, nruns: usize) -> (Vec<Run>, u32) {
    let mut runs = Vec::new();
    let (mut ft, mut fb) = (0u32, 0u32);
    for i in 0..nruns {
        let part = i % nseq;
        let (bt, nb) = (parts[part].bt, parts[part].nb);
        runs.push(Run {
            part,
            first_thread: ft,
            first_block: fb,
            threads: bt * nb,
        });
        ft += bt * nb;
        fb += nb;
    }
    (runs, fb)
}

/// Every run's threads: their CTA and thread ids, (launch, global block) and a named
/// thread of `program` placed in its block.
fn name_threads(
    seq: &[Launch<'_>],
    parts: &[Part<'_>],
    runs: &[Run],
    nruns: usize,
    program: &mut Program,
) -> (Vec<ThreadIds>, Vec<(u32, u32)>) {
    let mut ids = Vec::new();
    let mut tl = Vec::new();
    for (li, r) in runs.iter().enumerate() {
        let cfg = seq[r.part].cfg;
        let bt = parts[r.part].bt;
        for b in 0..parts[r.part].nb {
            let cta = [
                b % cfg.grid[0],
                (b / cfg.grid[0]) % cfg.grid[1],
                b / (cfg.grid[0] * cfg.grid[1]),
            ];
            let gb = r.first_block + b;
            for t in 0..bt {
                ids.push(ThreadIds { cta, tid: t });
                tl.push((li as u32, gb));
                let name = if nruns > 1 {
                    format!("l{li}b{b}t{t}")
                } else {
                    format!("b{b}t{t}")
                };
                let mut th = Thread::new(name);
                th.placement = Placement::new(vec![(Scope::Cta, gb), (Scope::Gpu, 0)]);
                program.threads.push(th);
            }
        }
    }
    (ids, tl)
}

/// The memory areas of a sequence and where its synchronisation areas begin.
struct Layout {
    areas: Vec<(String, Area)>,
    bar_base: u32,
    warp_loc: Vec<Option<u32>>,
    host_base: Option<u32>,
}

/// The part global block `gb` runs.
fn block_part<'a, 'k>(parts: &'a [Part<'k>], runs: &[Run], gb: u32) -> &'a Part<'k> {
    let r = runs
        .iter()
        .rev()
        .find(|r| r.first_block <= gb)
        .unwrap_or(&runs[0]);
    &parts[r.part]
}

/// Areas: buffers, the rest of the global arena (module variables), shared memory
/// per block (per variable), barrier counters per block, warp areas per block.
fn lay_out(
    parts: &[Part<'_>],
    runs: &[Run],
    nblocks: u32,
    nruns: usize,
    buffers: &[Buffer],
    names: &[String],
    warp: u32,
) -> Layout {
    let mut areas = global_areas(&parts[0].prog, buffers, names);
    for b in 0..nblocks {
        shared_areas(block_part(parts, runs, b), b, &mut areas);
    }
    let bar_base = areas.len() as u32;
    for b in 0..nblocks {
        areas.push((
            format!("barrier@b{b}"),
            Area {
                region: Region::Local,
                block: b,
                base: 0,
                bytes: u64::from(BARRIERS + block_part(parts, runs, b).bar_slots.len() as u32) * 4,
            },
        ));
    }
    let mut warp_loc = Vec::new();
    for b in 0..nblocks {
        let p = block_part(parts, runs, b);
        if !p.has_warp_ops {
            warp_loc.push(None);
            continue;
        }
        warp_loc.push(Some(areas.len() as u32));
        let warps = u64::from(p.bt.div_ceil(warp)) * (p.masks.len() as u64 + 1);
        areas.push((
            format!("warp@b{b}"),
            Area {
                region: Region::Local,
                block: b,
                base: 0,
                bytes: warps * u64::from(1 + 2 * warp) * 4,
            },
        ));
    }
    // One counter per launch boundary: launch l's threads increment counter l as they
    // end, launch l+1's threads start once it reaches the launch's thread count.
    let host_base = (nruns > 1).then_some(areas.len() as u32);
    if nruns > 1 {
        areas.push((
            "host".to_string(),
            Area {
                region: Region::Local,
                block: u32::MAX,
                base: 0,
                bytes: (nruns as u64 - 1) * 4,
            },
        ));
    }
    Layout {
        areas,
        bar_base,
        warp_loc,
        host_base,
    }
}

/// The buffers' areas and the rest of the global arena (module variables).
fn global_areas(
    prog0: &ThreadProgram<'_>,
    buffers: &[Buffer],
    names: &[String],
) -> Vec<(String, Area)> {
    let mut areas = Vec::new();
    let offs = &prog0.buffer_offsets;
    let arena = prog0.global_init.len() as u64;
    for (i, b) in buffers.iter().enumerate() {
        let name = names.get(i).cloned().unwrap_or_else(|| b.name.clone());
        areas.push((
            name,
            Area {
                region: Region::Global,
                block: u32::MAX,
                base: offs[i],
                bytes: b.data.len() as u64,
            },
        ));
    }
    let vars_base = offs
        .last()
        .zip(buffers.last())
        .map(|(o, b)| (o + b.data.len() as u64).div_ceil(256) * 256 + 256)
        .unwrap_or(0);
    if arena > vars_base {
        areas.push((
            "globals".to_string(),
            Area {
                region: Region::Global,
                block: u32::MAX,
                base: vars_base,
                bytes: arena - vars_base,
            },
        ));
    }
    areas
}

/// Block `b`'s shared memory: one area per variable, the rest in one.
fn shared_areas(p: &Part<'_>, b: u32, areas: &mut Vec<(String, Area)>) {
    let shared = p.prog.shared_bytes();
    let (soffs, _) = p.kernel.layout(MemSpace::Shared);
    let mut covered = 0u64;
    for (i, v) in p.kernel.vars.iter().enumerate() {
        if v.space == MemSpace::Shared && v.size > 0 && soffs[i] >= covered {
            areas.push((
                format!("{}@b{b}", v.name),
                Area {
                    region: Region::Shared,
                    block: b,
                    base: soffs[i],
                    bytes: v.size,
                },
            ));
            covered = soffs[i] + v.size;
        }
    }
    if shared > covered {
        areas.push((
            format!("shared@b{b}"),
            Area {
                region: Region::Shared,
                block: b,
                base: covered,
                bytes: shared - covered,
            },
        ));
    }
}

/// Cells, their initial values and the areas they map.
type Cells = (Vec<Cell>, Vec<i64>, Vec<Area>);

/// Maps every area to cells with their initial values, one location of `program` per area.
fn cells_of(
    areas: Vec<(String, Area)>,
    prog0: &ThreadProgram<'_>,
    program: &mut Program,
) -> Result<Cells, KernelError> {
    let ncells: u64 = areas.iter().map(|(_, a)| a.bytes.div_ceil(4)).sum();
    if ncells as usize > MAX_CELLS {
        return Err(KernelError::Launch(format!(
            "{ncells} memory words to model (at most {MAX_CELLS}): give smaller --buffer sizes"
        )));
    }
    let mut cells = Vec::new();
    let mut init = Vec::new();
    let mut out_areas = Vec::new();
    for (i, (name, a)) in areas.into_iter().enumerate() {
        let words = a.bytes.div_ceil(4);
        for w in 0..words {
            cells.push(Cell {
                loc: LocId(i as u32),
                index: w as u32,
            });
            let v = if a.region == Region::Global {
                let off = a.base + w * 4;
                let width = (a.base + a.bytes - off).min(8) as usize;
                prog0.global_initial(off, width)
            } else {
                0
            };
            init.push(v as i64);
        }
        let mut l = Location::scalar(name, 0);
        l.size = words as u32;
        program.locations.push(l);
        out_areas.push(a);
    }
    Ok((cells, init, out_areas))
}

/// The `.file` index of the kernel's own source: the file most instructions' `.loc` name,
/// leaving out weft's own headers (written under a `weft-inc-` directory) when another
/// file has lines.
pub(super) fn main_file(k: &Kernel) -> u32 {
    let mut count: BTreeMap<u32, usize> = BTreeMap::new();
    for l in k.code.iter().filter_map(|i| i.loc).filter(|l| l.line > 0) {
        *count.entry(l.file).or_default() += 1;
    }
    let ours = |f: &u32| k.file_name(*f).is_some_and(|n| n.contains("weft-inc-"));
    let best = |skip_ours: bool| {
        count
            .iter()
            .filter(|(f, _)| !(skip_ours && ours(f)))
            .max_by_key(|(f, n)| (**n, std::cmp::Reverse(**f)))
            .map(|(f, _)| *f)
    };
    best(true).or_else(|| best(false)).unwrap_or(0)
}

/// `file:line:col` of an instruction's source position (or its PTX `line:col`).
pub fn describe(k: &Kernel, pc: usize) -> String {
    let Some(i) = k.code.get(pc) else {
        return format!("pc {pc}");
    };
    match i.loc {
        Some(l) if l.line > 0 => {
            let f = k.file_name(l.file).unwrap_or("?");
            let f = f.rsplit('/').next().unwrap_or(f);
            format!("{f}:{}:{} (PTX {})", l.line, l.col, i.span)
        }
        _ => format!("PTX {}", i.span),
    }
}
