//! CTAs of one launch on several cores (`Options::jobs`, `WEFT_JOBS`): optimistic parallel
//! execution, validated, with the sequential schedule as the fallback.
//!
//! Each job is a machine of its own (at most [`JOB_RESIDENT`] CTAs resident) on an arena of
//! its own; the jobs take CTAs from one counter and run them with the launch's options.
//! Job 0 runs on the calling thread. Where the launch's arena is shareable (`cow`: `run`
//! lays it out in an in-memory file when jobs are asked for), each job's arena is a private
//! copy-on-write view of it: it shows the launch's memory as it was before the launch (the
//! arena is not written until every job has finished) and keeps the job's writes to
//! itself; no arena is copied whole. Elsewhere (not Linux, `WEFT_JOBS_COW=0`) job 0 runs in
//! the launch's own arena when the caller can lay it out again (`run`, from its buffers),
//! else on a copy; every other job on a copy made before any job starts, the copying split
//! over all cores. Every job logs its global and
//! shared accesses as runs of words per warp and CTA barrier interval, a warp's consecutive
//! accesses extending its last run (a warp reading or writing a contiguous block, the
//! per-warp fast path included, logs one run), and checks them between the CTA's warps when
//! the interval ends ([`Track`]); the global runs are then folded into runs per CTA and
//! kind. After the jobs, one merge of the jobs' sorted runs and one sweep
//! ([`spans_conflict`]) check the runs across CTAs. With views, each job then copies its
//! written runs from its view into the launch's arena (on its own core: after the check no
//! two jobs wrote one word); with copies, the sweep copies each other job's written runs
//! into job 0's arena, which becomes the launch's. The parallel run is kept only when
//! - no word written by one CTA was read, written or atomically updated by another CTA;
//! - within a CTA, no word written by one warp was touched by another warp between the same
//!   two barriers (every barrier of an eligible kernel is a full `bar.sync` of the CTA);
//! - no job had a finding (divergence, fault, deadlock, step limit, assertion) and all
//!   warp-instructions together stayed under the step limit.
//!
//! Then every warp performs the same actions in every schedule of the launch that respects
//! its barriers: take the first action where some other schedule differs; it is a read
//! (equal register state gives equal writes), and the writes it can see there are the same
//! as here: by no other CTA, by other warps of its CTA only in earlier barrier intervals
//! (all ordered before it by the barriers, and none in its own interval), and its own warp's
//! earlier writes. So the final memory and the counters (warp- and thread-instructions) are
//! the sequential schedule's, whatever its seed and its residency (a job's schedule is one
//! of those schedules too), and the merged arena takes each written word from the job whose
//! CTA wrote it (a written run covers whole words: the bytes of such a word that the CTA
//! did not write are, in its arena, the launch's initial ones, as in the sequential run).
//! Otherwise the launch runs again on the sequential schedule from the arena as it was
//! (untouched, or laid out again where job 0 worked in it), so results never depend on
//! `jobs`.
//!
//! Not eligible (run sequentially at once): a text trace or structured sink attached (their
//! event order is the sequential interleaving), device calls (`printf`, `assert`: their
//! output order), `%clock`/`%smid` (schedule-dependent values), barriers with a thread count
//! or `bar.arrive` (partial barriers order only some warps), fewer than two CTAs. Not worth
//! it (run sequentially at once): launches estimated below `Options::min_parallel_work`
//! warp-instructions, or, when the jobs need copies, with an arena over
//! [`ARENA_PER_WORK`] bytes per estimated warp-instruction ([`worth`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use weft_ir::kernel::{Kernel, Operand, SpecialReg};

use super::cow::Global;
use super::{Machine, Options, Rebuild, SimtError, Stats};
use crate::decode::{DInstr, DOp, Layout};
use crate::mem::Region;

/// The jobs named by `WEFT_JOBS` (default 1: sequential).
pub(super) fn env_jobs() -> usize {
    static JOBS: OnceLock<usize> = OnceLock::new();
    *JOBS.get_or_init(|| {
        std::env::var("WEFT_JOBS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .map_or(1, |n| n.max(1))
    })
}

/// The CTA counter the jobs share and the flag that stops them all.
pub(super) struct Feed {
    next: AtomicU64,
    total: u64,
    /// Chunks taken at once: the CTAs left divided by this ([`Feed::take`]).
    split: u64,
    abort: AtomicBool,
}

impl Feed {
    /// The next CTA to run for a job whose current chunk of consecutive CTAs is `chunk`
    /// (`[first, end)`), if any is left and no job gave up. A job takes a new chunk of the
    /// CTAs left divided by `split` (at least one) when its own runs out: large chunks
    /// first, so that each job's CTAs touch memory of their own (fewer pages shared, and
    /// written, by both jobs' views), single CTAs last, so that the jobs end together.
    pub(super) fn take(&self, chunk: &mut (u64, u64)) -> Option<u64> {
        if self.abort.load(Ordering::Relaxed) {
            return None;
        }
        if chunk.0 >= chunk.1 {
            let mut cur = self.next.load(Ordering::Relaxed);
            *chunk = loop {
                if cur >= self.total {
                    return None;
                }
                let end = cur + ((self.total - cur) / self.split).max(1);
                match self.next.compare_exchange_weak(
                    cur,
                    end,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => break (cur, end),
                    Err(now) => cur = now,
                }
            };
        }
        chunk.0 += 1;
        Some(chunk.0 - 1)
    }
}

/// A run of memory words `[start, end)` (byte offsets, word-aligned) that warp `warp` of
/// CTA `cta` accessed (in one barrier interval, or, folded per CTA when the interval ends,
/// [`fold`], by any of its warps: `warp` 0); `write` when any access of the run wrote (an
/// atomic is a read and a write). Consecutive accesses of one warp extend the last run, so
/// a warp reading or writing a contiguous block logs one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    start: u64,
    end: u64,
    cta: u32,
    warp: u32,
    write: bool,
}

/// One job's record of the accesses of its CTAs.
pub(super) struct Track {
    /// The global-memory runs of the job's finished barrier intervals, one per CTA, kind
    /// and stretch of words ([`fold`]; merged per CTA and kind when they pass
    /// `spans_limit`, [`compact`]).
    spans: Vec<Span>,
    spans_limit: usize,
    /// Per slot: the shared-memory runs of its CTA's current barrier interval (checked
    /// when the interval ends, [`Track::interval`], [`Track::finish`]).
    shared: Vec<Vec<Span>>,
    /// Per slot: the global-memory runs of its CTA's current barrier interval, per warp
    /// (checked between warps when the interval ends, then folded into `spans`).
    global: Vec<Vec<Span>>,
    /// Per slot: the job's step count when its CTA launched.
    born: Vec<u64>,
    launched: u64,
    turns: u64,
    /// The job's current chunk of CTAs ([`Feed::take`]).
    pub(super) chunk: (u64, u64),
    /// An access broke the conditions: the parallel run is void.
    pub(super) conflict: bool,
}

impl Track {
    fn new(slots: usize) -> Self {
        Track {
            spans: Vec::new(),
            spans_limit: COMPACT,
            shared: vec![Vec::new(); slots],
            global: vec![Vec::new(); slots],
            born: vec![0; slots],
            launched: 0,
            turns: 0,
            chunk: (0, 0),
            conflict: false,
        }
    }

    /// A CTA launched in slot `slot` when the job had run `steps` warp-instructions.
    pub(super) fn launch(&mut self, slot: usize, steps: u64) {
        self.born[slot] = steps;
        self.launched += 1;
        self.interval(slot);
    }

    /// Slot `slot` starts a new barrier interval (a CTA launched or passed a barrier): the
    /// shared- and global-memory runs of the interval that ended are checked between its
    /// warps, and the global ones folded into the job's runs per CTA.
    pub(super) fn interval(&mut self, slot: usize) {
        let runs = &mut self.shared[slot];
        if !runs.is_empty() {
            self.conflict |= runs_conflict(runs);
            runs.clear();
        }
        let runs = &mut self.global[slot];
        if !runs.is_empty() {
            self.conflict |= runs_conflict(runs);
            fold(runs, &mut self.spans);
            runs.clear();
            if self.spans.len() >= self.spans_limit {
                self.conflict |= !compact(&mut self.spans);
                self.spans_limit = (2 * self.spans.len()).max(COMPACT);
            }
        }
    }

    /// Global bytes `[off, off + len)` accessed by warp `warp` of CTA `cta` in slot `slot`.
    #[inline(always)]
    fn global(&mut self, off: u64, len: u64, cta: u64, slot: usize, warp: u32, write: bool) {
        let runs = &mut self.global[slot];
        log_run(runs, off, len, cta as u32, warp, write);
        // A long interval (a loop without barriers): merge each warp's runs.
        if runs.len() >= COMPACT && runs.len().is_power_of_two() {
            self.conflict |= !compact(runs);
        }
    }

    /// Shared bytes `[off, off + len)` accessed by warp `warp` of the CTA in slot `slot`.
    #[inline(always)]
    fn shared_run(&mut self, off: u64, len: u64, slot: usize, warp: u32, write: bool) {
        let runs = &mut self.shared[slot];
        log_run(runs, off, len, 0, warp, write);
        // A long interval (a loop without barriers): merge each warp's runs.
        if runs.len() >= COMPACT && runs.len().is_power_of_two() {
            self.conflict |= !compact(runs);
        }
    }

    /// Checks (and folds) the runs of every slot's last interval (the job's end).
    fn finish(&mut self) {
        for slot in 0..self.shared.len() {
            self.interval(slot);
        }
    }

    /// An access of `width` bytes at offset `off` of `region` by warp `warp` of the CTA with
    /// linear index `cta` in slot `slot`; an atomic is a read and a write. On the path of
    /// every lane's access in a parallel job: inlined, no loop state beyond the words.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn access(
        &mut self,
        region: Region,
        off: u64,
        width: usize,
        cta: u64,
        slot: usize,
        warp: u32,
        _read: bool,
        write: bool,
    ) {
        match region {
            Region::Global => self.global(off, width as u64, cta, slot, warp, write),
            Region::Shared => self.shared_run(off, width as u64, slot, warp, write),
            Region::Local | Region::Param => {}
        }
    }

    /// A whole warp's contiguous block `[off, off + len)` of `region` (the per-warp fast
    /// path): one run.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn block(
        &mut self,
        region: Region,
        off: u64,
        len: u64,
        cta: u64,
        slot: usize,
        warp: u32,
        write: bool,
    ) {
        match region {
            Region::Global => self.global(off, len, cta, slot, warp, write),
            Region::Shared => self.shared_run(off, len, slot, warp, write),
            Region::Local | Region::Param => {}
        }
    }
}

/// Logs bytes `[off, off + len)` (widened to whole words) accessed by warp `warp` of CTA
/// `cta`: extends the last run when it is the same warp's, of the same kind, and the bytes
/// adjoin or overlap it (a warp's lanes in order, a contiguous block).
#[inline(always)]
fn log_run(runs: &mut Vec<Span>, off: u64, len: u64, cta: u32, warp: u32, write: bool) {
    let start = off & !3;
    let end = (off + len.max(1) + 3) & !3;
    if let Some(l) = runs.last_mut() {
        if l.cta == cta && l.warp == warp && l.write == write && start >= l.start && start <= l.end
        {
            l.end = l.end.max(end);
            return;
        }
    }
    runs.push(Span {
        start,
        end,
        cta,
        warp,
        write,
    });
}

/// Appends to `out` the runs of one CTA interval (`runs`, sorted by start, [`runs_conflict`])
/// merged per kind where they overlap or adjoin, whatever their warp (the words each kind
/// covers stay the same): what the checks across CTAs and the merge need.
fn fold(runs: &[Span], out: &mut Vec<Span>) {
    let mut open: [Option<Span>; 2] = [None, None];
    for r in runs {
        let o = &mut open[usize::from(r.write)];
        match o {
            Some(l) if r.start <= l.end => l.end = l.end.max(r.end),
            _ => {
                if let Some(l) = o.replace(Span { warp: 0, ..*r }) {
                    out.push(l);
                }
            }
        }
    }
    out.extend(open.into_iter().flatten());
}

/// Runs logged before a job merges them ([`compact`]).
const COMPACT: usize = 1 << 16;
/// Runs a job may hold after merging; beyond, it gives up (the launch runs sequentially).
const MAX_RUNS: usize = 1 << 22;

/// Merges the runs of each (CTA, warp, kind) that overlap or adjoin (the words each of
/// them covers stay the same, so the checks' outcome does not change); false when more
/// than [`MAX_RUNS`] remain.
fn compact(runs: &mut Vec<Span>) -> bool {
    runs.sort_unstable_by_key(|s| (s.cta, s.warp, s.write, s.start));
    let mut n = 0;
    for i in 0..runs.len() {
        let r = runs[i];
        if n > 0 {
            let l = &mut runs[n - 1];
            if (l.cta, l.warp, l.write) == (r.cta, r.warp, r.write) && r.start <= l.end {
                l.end = l.end.max(r.end);
                continue;
            }
        }
        runs[n] = r;
        n += 1;
    }
    runs.truncate(n);
    n <= MAX_RUNS
}

/// Whether runs of one CTA interval (shared memory) share a word, one of them a write,
/// between different warps (sorted by start, then one sweep as in [`spans_conflict`]).
fn runs_conflict(runs: &mut [Span]) -> bool {
    // Warps in order over consecutive blocks log their runs in order already.
    if !runs.is_sorted_by_key(|s| s.start) {
        runs.sort_unstable_by_key(|s| s.start);
    }
    let (mut writes, mut reads) = (Top::NONE, Top::NONE);
    for s in runs.iter() {
        if writes.other(s.start, s.warp) || (s.write && reads.other(s.start, s.warp)) {
            return true;
        }
        if s.write {
            writes.add(s.end, s.warp);
        } else {
            reads.add(s.end, s.warp);
        }
    }
    false
}

/// The furthest-reaching run seen so far (its end and owner) and the furthest-reaching one
/// of another owner: whether a run still open at an offset belongs to an owner other than a
/// given one, whatever the number of runs (a word read by every CTA costs one entry).
#[derive(Clone, Copy)]
struct Top {
    first: (u64, u32),
    second: u64,
}

impl Top {
    const NONE: Top = Top {
        first: (0, 0),
        second: 0,
    };

    /// Whether a run ending after `at` has an owner other than `who`.
    #[inline]
    fn other(&self, at: u64, who: u32) -> bool {
        (self.first.0 > at && self.first.1 != who) || self.second > at
    }

    #[inline]
    fn add(&mut self, end: u64, who: u32) {
        if self.first.0 == 0 || self.first.1 == who {
            self.first = (self.first.0.max(end), who);
        } else if end > self.first.0 {
            self.second = self.first.0;
            self.first = (end, who);
        } else {
            self.second = self.second.max(end);
        }
    }
}

/// Whether the runs of all jobs (each with its job) break the first condition of the module
/// comment: two runs of different CTAs that share a word, one of them a write (the second,
/// between the warps of one CTA interval, was checked when the interval ended,
/// [`Track::interval`]). The runs come sorted by start ([`MergeSorted`]); each run is
/// compared with the earlier runs still open at its start, through the two
/// furthest-reaching ones of distinct CTAs. `written` sees each written run that passed the
/// check, with its job (the merge).
fn spans_conflict(
    spans: impl IntoIterator<Item = (Span, u32)>,
    mut written: impl FnMut(&Span, u32),
) -> bool {
    let (mut writes, mut reads) = (Top::NONE, Top::NONE);
    for (s, j) in spans {
        if writes.other(s.start, s.cta) || (s.write && reads.other(s.start, s.cta)) {
            return true;
        }
        if s.write {
            writes.add(s.end, s.cta);
            written(&s, j);
        } else {
            reads.add(s.end, s.cta);
        }
    }
    false
}

/// The runs of all jobs, each with its job, in order of start: each job sorted its own
/// (on its core, [`Launch::run_job`]); this merges the sorted lists as they are read.
struct MergeSorted<'r> {
    lists: Vec<&'r [Span]>,
}

impl Iterator for MergeSorted<'_> {
    type Item = (Span, u32);

    #[inline]
    fn next(&mut self) -> Option<(Span, u32)> {
        let mut best: Option<(u64, usize)> = None;
        for (j, l) in self.lists.iter().enumerate() {
            if let Some(s) = l.first() {
                if best.is_none_or(|(b, _)| s.start < b) {
                    best = Some((s.start, j));
                }
            }
        }
        let (_, j) = best?;
        let (s, rest) = self.lists[j].split_first()?;
        self.lists[j] = rest;
        Some((*s, j as u32))
    }
}

/// Whether the launch may run on several cores at all (see the module comment).
fn eligible(kernel: &Kernel, code: &[DInstr], ctas: u64) -> bool {
    if ctas < 2 || ctas >= u64::from(u32::MAX) {
        return false;
    }
    let partial_or_call = code.iter().any(|i| match &i.op {
        DOp::Bar { count, arrive, .. } => count.is_some() || *arrive,
        DOp::Sys { .. } => true,
        _ => false,
    });
    let schedule_dependent = kernel.code.iter().any(|i| {
        i.op.operands().iter().any(|o| {
            matches!(
                o,
                Operand::Special(SpecialReg::Clock) | Operand::Special(SpecialReg::Smid)
            )
        })
    });
    !partial_or_call && !schedule_dependent
}

/// The default of `Options::min_parallel_work`: about a millisecond of one core's work
/// (30 M warp-instructions per second), against the jobs' fixed costs (per job a thread,
/// a machine, a view of the arena and its page faults, or a copy of it without views; a
/// thread per extra job for the copy-back; the final sweep).
const MIN_WORK: u64 = 1 << 15;
/// Arena bytes per estimated warp-instruction beyond which copying the arena for the extra
/// jobs costs more than they save (a copied byte, page faults included, costs about 0.1-0.3
/// ns; a warp-instruction about 30 ns, of which a second core saves half).
const ARENA_PER_WORK: u64 = 32;
/// A job takes the CTAs left divided by this times the jobs at once ([`Feed::take`]).
const CHUNKS_PER_JOB: u64 = 8;
/// CTAs a job keeps resident (fewer than the sequential schedule's 32 by default: smaller
/// register files and shared memories to allocate; any residency gives a validated run the
/// same result, see the module comment).
const JOB_RESIDENT: usize = 4;

/// `Options::min_parallel_work`'s default: `WEFT_JOBS_MIN_WORK`, else [`MIN_WORK`].
pub(super) fn env_min_work() -> u64 {
    static MIN: OnceLock<u64> = OnceLock::new();
    *MIN.get_or_init(|| {
        std::env::var("WEFT_JOBS_MIN_WORK")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(MIN_WORK)
    })
}

/// Whether a launch estimated at `work` warp-instructions over an arena of `arena` bytes is
/// worth the jobs' fixed costs (`min`: `Options::min_parallel_work`, 0 for always).
fn worth(work: u64, arena: u64, min: u64) -> bool {
    min == 0 || (work >= min && arena <= work.saturating_mul(ARENA_PER_WORK))
}

/// A zeroed arena of `n` bytes, its pages not yet touched; on Linux, 2 MiB pages are asked
/// for: a fresh arena is written whole at once (the copy), and one fault per 2 MiB costs far
/// less than one per 4 KiB.
fn fresh_arena(n: usize) -> Vec<u8> {
    let v = vec![0u8; n];
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let p = v.as_ptr() as usize;
        let (a, e) = (p.next_multiple_of(HUGE), (p + n) / HUGE * HUGE);
        if e > a {
            // SAFETY: `[a, e)` lies inside `v`'s allocation, which `v` owns; the advice
            // changes neither the contents nor the mapping's validity, only the page size
            // the kernel backs it with. A failure leaves the default pages.
            unsafe {
                libc::madvise(a as *mut libc::c_void, e - a, libc::MADV_HUGEPAGE);
            }
        }
    }
    v
}

/// Copies `src` into every arena of `dsts` (each as long as `src`), the work split in
/// `threads` equal pieces of each, one thread per piece (this one included).
fn copy_arenas(src: &[u8], dsts: &mut [Global], threads: usize) {
    const SMALL: usize = 1 << 20;
    if src.len() * dsts.len() < SMALL || threads < 2 {
        for d in dsts.iter_mut() {
            d.copy_from_slice(src);
        }
        return;
    }
    let piece = src.len().div_ceil(threads);
    let mut work: Vec<Vec<(&mut [u8], &[u8])>> = (0..threads).map(|_| Vec::new()).collect();
    for d in dsts.iter_mut() {
        for (t, pair) in d.chunks_mut(piece).zip(src.chunks(piece)).enumerate() {
            work[t].push(pair);
        }
    }
    let copy = |w: Vec<(&mut [u8], &[u8])>| {
        for (d, s) in w {
            d.copy_from_slice(s);
        }
    };
    let mut work = work.into_iter();
    let mine = work.next().unwrap_or_default();
    std::thread::scope(|s| {
        for w in work {
            s.spawn(move || copy(w));
        }
        copy(mine);
    });
}

/// What a job hands back: its arena, its record, its counters.
struct JobResult {
    global: Global,
    track: Track,
    steps: u64,
    stats: Stats,
}

impl<'a> Machine<'a> {
    /// Whether a job must stop: another job gave up, or this one broke the conditions
    /// (then it tells the others).
    ///
    /// A CTA that runs far longer than the job's CTAs on average (64 times, and at least
    /// 2^24 warp-instructions) is taken to wait for a CTA of another job (a flag in global
    /// memory that its private arena never sees): the job gives up, and the launch runs
    /// sequentially.
    pub(super) fn parallel_stop(&mut self) -> bool {
        let Some(feed) = self.feed else { return false };
        let steps = self.steps;
        if let Some(t) = self.track.as_mut() {
            t.turns += 1;
            if t.turns % 1024 == 0 {
                let budget = (64 * (steps / t.launched.max(1))).max(1 << 24);
                let stuck = self
                    .ctas
                    .iter()
                    .zip(&t.born)
                    .any(|(c, &b)| c.active && steps - b > budget);
                t.conflict |= stuck;
            }
            if t.conflict {
                feed.abort.store(true, Ordering::Relaxed);
            }
        }
        feed.abort.load(Ordering::Relaxed)
    }
}

/// A launch as every job starts from it (the parts that can be shared across threads).
#[derive(Clone, Copy)]
pub(super) struct Launch<'s> {
    pub(super) kernel: &'s Kernel,
    pub(super) code: &'s [DInstr],
    pub(super) cfg: super::LaunchConfig,
    pub(super) layout: &'s Layout,
    pub(super) param: &'s [u8],
    pub(super) opts: &'s Options,
}

impl Launch<'_> {
    /// Runs this launch's CTAs on `jobs` cores when it is eligible, worth it and the run
    /// validates: `Some(stats)` with the merged arena in `global`; `None` with the arena
    /// as it was before the launch (untouched, or laid out again by `rebuild` when job 0
    /// worked in it).
    pub(super) fn try_parallel(
        &self,
        global: &mut Global,
        rebuild: Option<Rebuild<'_>>,
    ) -> Result<Option<Stats>, SimtError> {
        let (jobs, ctas) = (self.opts.jobs, self.cfg.grid_ctas());
        if jobs < 2 || !eligible(self.kernel, self.code, ctas) {
            return Ok(None);
        }
        let warps_per_cta = self.cfg.block_threads().div_ceil(super::WARP as u64);
        let work = ctas
            .saturating_mul(warps_per_cta)
            .saturating_mul(self.code.len() as u64);
        // With views the arena's size costs nothing until its pages are touched.
        let cow = env_cow() && global.is_shareable();
        let copied = if cow { 0 } else { global.len() as u64 };
        let min = self.opts.min_parallel_work;
        if !worth(work, copied, min) {
            return Ok(None);
        }
        let start = Instant::now();
        let jobs = jobs.min(ctas as usize);
        let views = cow
            .then(|| (0..jobs).map(|_| global.view()).collect::<Option<Vec<_>>>())
            .flatten();
        let done = match views {
            Some(views) => self.run_views(global, views),
            None if worth(work, global.len() as u64, min) => self.run_copies(global, rebuild)?,
            None => return Ok(None),
        };
        Ok(done.map(|mut stats| {
            stats.parallel_jobs = jobs;
            stats.seconds = start.elapsed().as_secs_f64();
            stats
        }))
    }

    /// The jobs on copy-on-write views of the launch's arena ([`Global::view`]), which stays
    /// as it was while they run: after the check across CTAs, each job copies its written
    /// runs into it (on its own core: the runs of different jobs are disjoint) and drops
    /// its view. A dropped run leaves the arena untouched.
    fn run_views(&self, global: &mut Global, views: Vec<Global>) -> Option<Stats> {
        let results = self.run_jobs(views)?;
        let stats = total(&results, self.opts.max_steps)?;
        let spans = MergeSorted {
            lists: results.iter().map(|r| &r.track.spans[..]).collect(),
        };
        if spans_conflict(spans, |_, _| {}) {
            return None;
        }
        let end = global.len();
        let dst = Dst(global.as_mut_ptr());
        let dst = &dst;
        let copy = move |r: JobResult| {
            for sp in r.track.spans.iter().filter(|s| s.write) {
                let (a, b) = ((sp.start as usize).min(end), (sp.end as usize).min(end));
                // SAFETY: `[a, b)` lies inside the arena, which `global` borrows mutably for
                // this whole function and nothing else reads or writes while the copies
                // run; the jobs' written runs passed the check across CTAs, so no two jobs
                // copy to the same byte (a job's own runs may repeat bytes: same values).
                unsafe {
                    std::ptr::copy_nonoverlapping(r.global[a..b].as_ptr(), dst.0.add(a), b - a)
                };
            }
        };
        std::thread::scope(|s| {
            let mut results = results.into_iter();
            let mine = results.next();
            for r in results {
                s.spawn(move || copy(r));
            }
            if let Some(r) = mine {
                copy(r);
            }
        });
        Some(stats)
    }

    /// The jobs on copies of the launch's arena (where views cannot be taken): job 0 in the
    /// arena itself when `rebuild` can restore it, the copies made first on all cores; the
    /// other jobs' written runs are copied into job 0's arena as the check passes them.
    fn run_copies(
        &self,
        global: &mut Global,
        rebuild: Option<Rebuild<'_>>,
    ) -> Result<Option<Stats>, SimtError> {
        let jobs = self.opts.jobs.min(self.cfg.grid_ctas() as usize);
        let in_place = rebuild.is_some();
        let n = global.len();
        let mut arenas: Vec<Global> = (0..jobs - usize::from(in_place))
            .map(|_| Global::from(fresh_arena(n)))
            .collect();
        copy_arenas(global, &mut arenas, jobs);
        if in_place {
            arenas.insert(0, std::mem::take(global));
        }
        let Some(mut results) = self.run_jobs(arenas) else {
            return dropped(global, in_place, rebuild);
        };
        let Some(stats) = total(&results, self.opts.max_steps) else {
            return dropped(global, in_place, rebuild);
        };
        // Every job's runs together: no CTA's write shares a word with another CTA's
        // access, nor a warp's with another warp's in the same barrier interval. Job 0's
        // arena becomes the result: each other job's written runs are copied into it as
        // the sweep passes them (written words are the writing CTA's alone); a conflict
        // found half-way leaves it half-merged, and it is dropped.
        let mut target = std::mem::take(&mut results[0].global);
        let spans = MergeSorted {
            lists: results.iter().map(|r| &r.track.spans[..]).collect(),
        };
        let end = n as u64;
        let conflict = spans_conflict(spans, |sp, j| {
            if j != 0 {
                let (a, b) = (sp.start.min(end) as usize, sp.end.min(end) as usize);
                target[a..b].copy_from_slice(&results[j as usize].global[a..b]);
            }
        });
        if conflict {
            drop(target);
            return dropped(global, in_place, rebuild);
        }
        *global = target;
        Ok(Some(stats))
    }

    /// Runs one job per arena (job 0 on this thread), taking CTAs from one counter; `None`
    /// when any job gave up.
    fn run_jobs(&self, arenas: Vec<Global>) -> Option<Vec<JobResult>> {
        let feed = Feed {
            next: AtomicU64::new(0),
            total: self.cfg.grid_ctas(),
            split: CHUNKS_PER_JOB * arenas.len() as u64,
            abort: AtomicBool::new(false),
        };
        let job_opts = Options {
            max_resident_ctas: self.opts.max_resident_ctas.clamp(1, JOB_RESIDENT),
            ..self.opts.clone()
        };
        let spec = Launch {
            opts: &job_opts,
            ..*self
        };
        let (spec, feedr) = (&spec, &feed);
        let results: Vec<Option<JobResult>> = std::thread::scope(|s| {
            let mut arenas = arenas.into_iter();
            let mine = arenas.next().unwrap_or_default();
            let handles: Vec<_> = arenas
                .map(|a| s.spawn(move || spec.run_job(feedr, a)))
                .collect();
            let first = spec.run_job(feedr, mine);
            std::iter::once(first)
                .chain(handles.into_iter().map(|h| h.join().ok().flatten()))
                .collect()
        });
        results.into_iter().collect()
    }

    /// One job: a machine for the launch on `global` (the arena as it was before the
    /// launch), taking CTAs from `feed`.
    fn run_job(&self, feed: &Feed, global: Global) -> Option<JobResult> {
        let layout = Layout {
            var_addr: self.layout.var_addr.clone(),
            shared_bytes: self.layout.shared_bytes,
            local_bytes: self.layout.local_bytes,
            global_var_bytes: self.layout.global_var_bytes,
        };
        let mut m = Machine::new(
            self.kernel,
            self.code.to_vec(),
            self.cfg,
            layout,
            global,
            self.param.to_vec(),
            self.opts,
            None,
            None,
        );
        let slots = m.ctas.len();
        m.track = Some(Track::new(slots));
        m.feed = Some(feed);
        let completed = m.schedule();
        let ok = matches!(completed, Ok(true))
            && m.findings.is_empty()
            && m.suppressed == 0
            && m.printed.is_empty()
            && !m.track.as_ref().is_some_and(|t| t.conflict);
        if !ok {
            feed.abort.store(true, Ordering::Relaxed);
            return None;
        }
        let mut track = m.track.take()?;
        track.finish();
        if track.conflict {
            feed.abort.store(true, Ordering::Relaxed);
            return None;
        }
        track.spans.sort_unstable_by_key(|s| s.start);
        Some(JobResult {
            global: std::mem::take(&mut m.global),
            track,
            steps: m.steps,
            stats: m.stats.clone(),
        })
    }
}

/// The counters of the jobs together (the sequential schedule's, when the run is kept);
/// `None` when all warp-instructions together reached the step limit.
fn total(results: &[JobResult], max_steps: u64) -> Option<Stats> {
    let steps: u64 = results.iter().map(|r| r.steps).sum();
    if steps >= max_steps {
        return None;
    }
    let mut stats = Stats::default();
    for r in results {
        stats.thread_instrs += r.stats.thread_instrs;
    }
    stats.warp_instrs = steps;
    Some(stats)
}

/// The launch's arena as the jobs copy their disjoint written runs into it
/// ([`Launch::run_views`]).
struct Dst(*mut u8);

// SAFETY: the jobs write through it only to disjoint bytes, while the arena's owner waits.
unsafe impl Sync for Dst {}

/// Whether jobs run on copy-on-write views of the arena where the system allows
/// (`WEFT_JOBS_COW`, default 1; 0: on copies, the portable path).
fn env_cow() -> bool {
    static COW: OnceLock<bool> = OnceLock::new();
    *COW.get_or_init(|| std::env::var("WEFT_JOBS_COW").map_or(true, |v| v.trim() != "0"))
}

/// The parallel run is dropped: the arena as it was before the launch, for the
/// sequential run (laid out again when job 0 worked in it).
fn dropped(
    global: &mut Global,
    in_place: bool,
    rebuild: Option<Rebuild<'_>>,
) -> Result<Option<Stats>, SimtError> {
    if let (true, Some(r)) = (in_place, rebuild) {
        *global = r()?;
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(start: u64, end: u64, cta: u32, warp: u32, write: bool) -> Span {
        Span {
            start,
            end,
            cta,
            warp,
            write,
        }
    }

    #[test]
    fn jobs_take_every_cta_once_in_shrinking_chunks() {
        // 100 CTAs, 2 jobs taking turns: 100 / 16 = 6 CTAs first, single CTAs at the end.
        let feed = Feed {
            next: AtomicU64::new(0),
            total: 100,
            split: 16,
            abort: AtomicBool::new(false),
        };
        let (mut a, mut b) = ((0, 0), (0, 0));
        let mut got = Vec::new();
        loop {
            let x = feed.take(&mut a);
            let y = feed.take(&mut b);
            if x.is_none() && y.is_none() {
                break;
            }
            got.extend(x.into_iter().chain(y));
        }
        assert_eq!(&got[..4], &[0, 6, 1, 7], "first chunks: 0-5 and 6-11");
        got.sort_unstable();
        assert_eq!(got, (0..100).collect::<Vec<u64>>());
        feed.abort.store(true, Ordering::Relaxed);
        assert_eq!(feed.take(&mut (0, 5)), None, "a job gave up");
    }

    #[test]
    fn runs_conflict_between_warps_only_with_a_write() {
        // Warp 0 writes words 0-3, warp 1 reads words 4-7: disjoint.
        let mut a = vec![run(0, 16, 0, 0, true), run(16, 32, 0, 1, false)];
        assert!(!runs_conflict(&mut a));
        // Warp 1 reads word 3, which warp 0 wrote.
        let mut b = vec![run(0, 16, 0, 0, true), run(12, 16, 0, 1, false)];
        assert!(runs_conflict(&mut b));
        // The same warp reads what it wrote; two warps read one word.
        let mut c = vec![
            run(0, 16, 0, 0, true),
            run(4, 8, 0, 0, false),
            run(64, 68, 0, 1, false),
            run(64, 68, 0, 2, false),
        ];
        assert!(!runs_conflict(&mut c));
        // A write inside a long read of another warp that started earlier.
        let mut d = vec![run(0, 400, 0, 1, false), run(200, 204, 0, 2, true)];
        assert!(runs_conflict(&mut d));
    }

    #[test]
    fn spans_conflict_across_ctas_only_with_a_write() {
        // CTA 0 and CTA 1 read one word; CTA 0 writes its own words.
        let ok = [
            (run(0, 4, 0, 0, false), 0),
            (run(0, 4, 1, 0, false), 1),
            (run(8, 16, 0, 0, true), 0),
        ];
        let mut merged = Vec::new();
        assert!(!spans_conflict(ok, |s, j| merged.push((*s, j))));
        assert_eq!(merged, vec![(run(8, 16, 0, 0, true), 0)]);
        // CTA 1 reads a word CTA 0 wrote (in one job or two).
        for j in [0, 1] {
            let cross = [(run(0, 8, 0, 0, true), 0), (run(4, 8, 1, 0, false), j)];
            assert!(spans_conflict(cross, |_, _| {}));
        }
        // A write of CTA 2 inside a long read of CTA 1, after a read of CTA 2's own.
        let inside = [
            (run(0, 400, 1, 0, false), 0),
            (run(100, 104, 2, 0, false), 1),
            (run(200, 204, 2, 0, true), 1),
        ];
        assert!(spans_conflict(inside, |_, _| {}));
        // The runs of two jobs merged in order of start.
        let (a, b) = (
            [run(0, 4, 0, 0, false), run(8, 12, 0, 0, true)],
            [run(4, 8, 1, 0, false), run(12, 16, 1, 0, true)],
        );
        let m: Vec<u64> = MergeSorted {
            lists: vec![&a[..], &b[..]],
        }
        .map(|(s, _)| s.start)
        .collect();
        assert_eq!(m, vec![0, 4, 8, 12]);
    }

    #[test]
    fn fold_merges_an_intervals_runs_per_kind_across_warps() {
        // Sorted by start: warps 0-2 read consecutive blocks, warps 0 and 1 write two
        // blocks with a gap, warp 2 reads far away.
        let runs = [
            run(0, 128, 5, 0, false),
            run(128, 256, 5, 1, false),
            run(128, 160, 5, 0, true),
            run(192, 224, 5, 1, true),
            run(256, 384, 5, 2, false),
            run(1000, 1004, 5, 2, false),
        ];
        let mut out = Vec::new();
        fold(&runs, &mut out);
        out.sort_unstable_by_key(|s| (s.start, s.write));
        assert_eq!(
            out,
            vec![
                run(0, 384, 5, 0, false),
                run(128, 160, 5, 0, true),
                run(192, 224, 5, 0, true),
                run(1000, 1004, 5, 0, false),
            ]
        );
    }

    #[test]
    fn compact_merges_each_warps_runs_and_keeps_the_words() {
        let mut r = vec![
            run(0, 8, 0, 0, false),
            run(100, 104, 0, 1, false),
            run(8, 16, 0, 0, false),
            run(4, 12, 0, 0, true),
            run(0, 4, 0, 0, false),
        ];
        assert!(compact(&mut r));
        assert_eq!(
            r,
            vec![
                run(0, 16, 0, 0, false),
                run(4, 12, 0, 0, true),
                run(100, 104, 0, 1, false),
            ]
        );
    }
}
