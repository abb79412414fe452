//! CTAs of one launch on several cores (`Options::jobs`, `WEFT_JOBS`): optimistic parallel
//! execution, validated, with the sequential schedule as the fallback.
//!
//! Each job is a machine of its own with a private copy of the global arena; the jobs take
//! CTAs from one counter and run them with the launch's options. Every job logs its global
//! accesses as runs of words, one per warp, CTA and barrier interval, a warp's consecutive
//! accesses extending its last run (a warp reading or writing a contiguous block, the
//! per-warp fast path included, logs one run), and logs its shared-memory runs per CTA
//! barrier interval, checked when the interval ends ([`Track`]). After the jobs,
//! one sort and one sweep over all runs ([`spans_conflict`]) check the global conditions,
//! and the merge copies each written run. The parallel run is kept only when
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
//! the sequential schedule's, whatever its seed, and the merged arena takes each written
//! word from the job whose CTA wrote it. Otherwise the launch runs again on the sequential
//! schedule from the untouched arena, so results never depend on `jobs`.
//!
//! Not eligible (run sequentially at once): a text trace or structured sink attached (their
//! event order is the sequential interleaving), device calls (`printf`, `assert`: their
//! output order), `%clock`/`%smid` (schedule-dependent values), barriers with a thread count
//! or `bar.arrive` (partial barriers order only some warps), fewer than two CTAs.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use weft_ir::kernel::{Kernel, Operand, SpecialReg};

use super::{Machine, Stats};
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
    abort: AtomicBool,
}

impl Feed {
    /// The next CTA to run, if any is left and no job gave up.
    pub(super) fn take(&self) -> Option<u64> {
        if self.abort.load(Ordering::Relaxed) {
            return None;
        }
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        (i < self.total).then_some(i)
    }
}

/// A run of global-memory words `[start, end)` (byte offsets, word-aligned) that warp
/// `warp` of CTA `cta` accessed in its barrier interval `stamp`; `write` when any access of
/// the run wrote (an atomic is a read and a write). Consecutive accesses of one warp
/// extend the last run, so a warp reading or writing a contiguous block logs one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    start: u64,
    end: u64,
    cta: u32,
    stamp: u32,
    warp: u32,
    write: bool,
}

/// One job's record of the accesses of its CTAs.
pub(super) struct Track {
    /// The global-memory runs, in the order the job made them (merged per warp and kind
    /// when they pass `spans_limit`, [`compact`]).
    spans: Vec<Span>,
    spans_limit: usize,
    /// Per slot: the shared-memory runs of its CTA's current barrier interval (checked
    /// when the interval ends, [`Track::interval`], [`Track::finish`]).
    shared: Vec<Vec<Span>>,
    /// Per slot: the stamp of its CTA's current barrier interval (unique in the job).
    stamp: Vec<u32>,
    next_stamp: u32,
    /// Per slot: the job's step count when its CTA launched.
    born: Vec<u64>,
    launched: u64,
    turns: u64,
    /// An access broke the conditions: the parallel run is void.
    pub(super) conflict: bool,
}

impl Track {
    fn new(slots: usize) -> Self {
        Track {
            spans: Vec::new(),
            spans_limit: COMPACT,
            shared: vec![Vec::new(); slots],
            stamp: vec![0; slots],
            next_stamp: 0,
            born: vec![0; slots],
            launched: 0,
            turns: 0,
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
    /// shared-memory runs of the interval that ended are checked.
    pub(super) fn interval(&mut self, slot: usize) {
        let runs = &mut self.shared[slot];
        if !runs.is_empty() {
            self.conflict |= runs_conflict(runs);
            runs.clear();
        }
        self.next_stamp += 1;
        self.stamp[slot] = self.next_stamp;
    }

    /// Global bytes `[off, off + len)` accessed by warp `warp` of CTA `cta` in slot `slot`.
    #[inline(always)]
    fn global(&mut self, off: u64, len: u64, cta: u64, slot: usize, warp: u32, write: bool) {
        let stamp = self.stamp[slot];
        log_run(&mut self.spans, off, len, cta as u32, stamp, warp, write);
        if self.spans.len() >= self.spans_limit {
            self.conflict |= !compact(&mut self.spans);
            self.spans_limit = (2 * self.spans.len()).max(COMPACT);
        }
    }

    /// Shared bytes `[off, off + len)` accessed by warp `warp` of the CTA in slot `slot`.
    #[inline(always)]
    fn shared_run(&mut self, off: u64, len: u64, slot: usize, warp: u32, write: bool) {
        let runs = &mut self.shared[slot];
        log_run(runs, off, len, 0, 0, warp, write);
        // A long interval (a loop without barriers): merge each warp's runs.
        if runs.len() >= COMPACT && runs.len().is_power_of_two() {
            self.conflict |= !compact(runs);
        }
    }

    /// Checks the shared-memory runs of every slot's last interval (the job's end).
    fn finish(&mut self) {
        for slot in 0..self.shared.len() {
            let runs = &mut self.shared[slot];
            if !runs.is_empty() {
                self.conflict |= runs_conflict(runs);
                runs.clear();
            }
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
/// `cta` in interval `stamp`: extends the last run when it is the same warp's, of the same
/// kind, and the bytes adjoin or overlap it (a warp's lanes in order, a contiguous block).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn log_run(runs: &mut Vec<Span>, off: u64, len: u64, cta: u32, stamp: u32, warp: u32, write: bool) {
    let start = off & !3;
    let end = (off + len.max(1) + 3) & !3;
    if let Some(l) = runs.last_mut() {
        if l.cta == cta
            && l.warp == warp
            && l.stamp == stamp
            && l.write == write
            && start >= l.start
            && start <= l.end
        {
            l.end = l.end.max(end);
            return;
        }
    }
    runs.push(Span {
        start,
        end,
        cta,
        stamp,
        warp,
        write,
    });
}

/// Runs logged before a job merges them ([`compact`]).
const COMPACT: usize = 1 << 16;
/// Runs a job may hold after merging; beyond, it gives up (the launch runs sequentially).
const MAX_RUNS: usize = 1 << 22;

/// Merges the runs of each (CTA, interval, warp, kind) that overlap or adjoin (the words
/// each of them covers stay the same, so the checks' outcome does not change); false when
/// more than [`MAX_RUNS`] remain.
fn compact(runs: &mut Vec<Span>) -> bool {
    runs.sort_unstable_by_key(|s| (s.cta, s.stamp, s.warp, s.write, s.start));
    let mut n = 0;
    for i in 0..runs.len() {
        let r = runs[i];
        if n > 0 {
            let l = &mut runs[n - 1];
            if (l.cta, l.stamp, l.warp, l.write) == (r.cta, r.stamp, r.warp, r.write)
                && r.start <= l.end
            {
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
    runs.sort_unstable_by_key(|s| s.start);
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

/// Whether the runs of all jobs (each with its job) break the conditions of the module
/// comment: two runs that share a word, one of them a write, of different CTAs, or of
/// different warps of one CTA in the same barrier interval. `stamps[j]`: the interval
/// stamps job `j` handed out. The runs come sorted by start ([`merge_sorted`]); each run is
/// compared with the earlier runs still open at its start, through the two
/// furthest-reaching ones of distinct owners: CTAs over all runs, warps per CTA interval.
fn spans_conflict(spans: &[(Span, u32)], stamps: &[u32]) -> bool {
    let mut base = Vec::with_capacity(stamps.len());
    let mut total = 0usize;
    for &n in stamps {
        base.push(total);
        total += n as usize + 1;
    }
    // Per CTA interval (job, stamp): its writes and reads, owned by warps.
    let mut groups = vec![(Top::NONE, Top::NONE); total];
    let (mut writes, mut reads) = (Top::NONE, Top::NONE);
    for (s, j) in spans.iter() {
        let g = &mut groups[base[*j as usize] + s.stamp as usize];
        if writes.other(s.start, s.cta)
            || (s.write && reads.other(s.start, s.cta))
            || g.0.other(s.start, s.warp)
            || (s.write && g.1.other(s.start, s.warp))
        {
            return true;
        }
        if s.write {
            writes.add(s.end, s.cta);
            g.0.add(s.end, s.warp);
        } else {
            reads.add(s.end, s.cta);
            g.1.add(s.end, s.warp);
        }
    }
    false
}

/// The runs of all jobs, each with its job, in order of start: each job sorted its own
/// (on its core, [`Spec::run_job`]); here the sorted lists are merged.
fn merge_sorted(results: &[JobResult]) -> Vec<(Span, u32)> {
    let total = results.iter().map(|r| r.track.spans.len()).sum();
    let mut out = Vec::with_capacity(total);
    let mut at = vec![0usize; results.len()];
    loop {
        let mut best: Option<(u64, usize)> = None;
        for (j, r) in results.iter().enumerate() {
            if let Some(s) = r.track.spans.get(at[j]) {
                if best.is_none_or(|(b, _)| s.start < b) {
                    best = Some((s.start, j));
                }
            }
        }
        let Some((_, j)) = best else { break };
        out.push((results[j].track.spans[at[j]], j as u32));
        at[j] += 1;
    }
    out
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

/// What a job hands back: its arena, its record, its counters.
struct JobResult {
    global: Vec<u8>,
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

    /// Runs this launch's CTAs on `jobs` cores when it is eligible and the run validates:
    /// `Some(stats)` with the merged arena in `self.global`; `None` leaves the arena
    /// untouched for the sequential run.
    pub(super) fn try_parallel(&mut self, jobs: usize) -> Option<Stats> {
        if jobs < 2
            || self.trace.is_some()
            || self.sink.is_some()
            || !eligible(self.kernel, &self.code, self.cfg.grid_ctas())
        {
            return None;
        }
        let start = Instant::now();
        let feed = Feed {
            next: AtomicU64::new(0),
            total: self.cfg.grid_ctas(),
            abort: AtomicBool::new(false),
        };
        let jobs = jobs.min(self.cfg.grid_ctas() as usize);
        let spec = Spec {
            kernel: self.kernel,
            code: &self.code,
            cfg: self.cfg,
            layout: &self.layout,
            global: &self.global,
            param: &self.param,
            opts: &self.opts,
        };
        let results: Vec<Option<JobResult>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..jobs).map(|_| s.spawn(|| spec.run_job(&feed))).collect();
            handles
                .into_iter()
                .map(|h| h.join().ok().flatten())
                .collect()
        });
        let results: Vec<JobResult> = results.into_iter().collect::<Option<_>>()?;
        let steps: u64 = results.iter().map(|r| r.steps).sum();
        if steps >= self.opts.max_steps || results.iter().any(|r| r.track.conflict) {
            return None;
        }
        // Every job's runs together: no CTA's write shares a word with another CTA's
        // access, nor a warp's with another warp's in the same barrier interval.
        let spans = merge_sorted(&results);
        let stamps: Vec<u32> = results.iter().map(|r| r.track.next_stamp).collect();
        if spans_conflict(&spans, &stamps) {
            return None;
        }
        // Merge: each written run from the job whose CTA wrote it (written words are the
        // writing CTA's alone).
        let n = self.global.len() as u64;
        for (sp, j) in &spans {
            if sp.write {
                let (a, b) = (sp.start.min(n) as usize, sp.end.min(n) as usize);
                self.global[a..b].copy_from_slice(&results[*j as usize].global[a..b]);
            }
        }
        let mut stats = Stats::default();
        for r in &results {
            stats.thread_instrs += r.stats.thread_instrs;
        }
        stats.warp_instrs = steps;
        stats.parallel_jobs = jobs;
        self.steps = steps;
        stats.seconds = start.elapsed().as_secs_f64();
        Some(stats)
    }
}

/// What every job starts from (the parts of the launch that can be shared across threads).
struct Spec<'s> {
    kernel: &'s Kernel,
    code: &'s [DInstr],
    cfg: super::LaunchConfig,
    layout: &'s Layout,
    global: &'s [u8],
    param: &'s [u8],
    opts: &'s super::Options,
}

impl Spec<'_> {
    /// One job: a machine for the launch on a copy of the arena, taking CTAs from `feed`.
    fn run_job(&self, feed: &Feed) -> Option<JobResult> {
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
            self.global.to_vec(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn run(start: u64, end: u64, cta: u32, stamp: u32, warp: u32, write: bool) -> Span {
        Span {
            start,
            end,
            cta,
            stamp,
            warp,
            write,
        }
    }

    #[test]
    fn runs_conflict_between_warps_only_with_a_write() {
        // Warp 0 writes words 0-3, warp 1 reads words 4-7: disjoint.
        let mut a = vec![run(0, 16, 0, 0, 0, true), run(16, 32, 0, 0, 1, false)];
        assert!(!runs_conflict(&mut a));
        // Warp 1 reads word 3, which warp 0 wrote.
        let mut b = vec![run(0, 16, 0, 0, 0, true), run(12, 16, 0, 0, 1, false)];
        assert!(runs_conflict(&mut b));
        // The same warp reads what it wrote; two warps read one word.
        let mut c = vec![
            run(0, 16, 0, 0, 0, true),
            run(4, 8, 0, 0, 0, false),
            run(64, 68, 0, 0, 1, false),
            run(64, 68, 0, 0, 2, false),
        ];
        assert!(!runs_conflict(&mut c));
        // A write inside a long read of another warp that started earlier.
        let mut d = vec![run(0, 400, 0, 0, 1, false), run(200, 204, 0, 0, 2, true)];
        assert!(runs_conflict(&mut d));
    }

    #[test]
    fn spans_conflict_across_ctas_and_within_an_interval() {
        let stamps = [3];
        // CTA 0 and CTA 1 read one word; CTA 0 writes its own words.
        let ok = [
            (run(0, 4, 0, 1, 0, false), 0),
            (run(0, 4, 1, 2, 0, false), 0),
            (run(8, 16, 0, 1, 0, true), 0),
        ];
        assert!(!spans_conflict(&ok, &stamps));
        // CTA 1 reads a word CTA 0 wrote.
        let cross = [
            (run(0, 8, 0, 1, 0, true), 0),
            (run(4, 8, 1, 2, 0, false), 0),
        ];
        assert!(spans_conflict(&cross, &stamps));
        // Two warps of CTA 0 in one interval, one writing; in two intervals it is fine.
        let same = [
            (run(0, 8, 0, 1, 0, true), 0),
            (run(4, 8, 0, 1, 1, false), 0),
        ];
        assert!(spans_conflict(&same, &stamps));
        let apart = [
            (run(0, 8, 0, 1, 0, true), 0),
            (run(4, 8, 0, 3, 1, false), 0),
        ];
        assert!(!spans_conflict(&apart, &stamps));
    }

    #[test]
    fn compact_merges_each_warps_runs_and_keeps_the_words() {
        let mut r = vec![
            run(0, 8, 0, 1, 0, false),
            run(100, 104, 0, 1, 1, false),
            run(8, 16, 0, 1, 0, false),
            run(4, 12, 0, 1, 0, true),
            run(0, 4, 0, 1, 0, false),
        ];
        assert!(compact(&mut r));
        assert_eq!(
            r,
            vec![
                run(0, 16, 0, 1, 0, false),
                run(4, 12, 0, 1, 0, true),
                run(100, 104, 0, 1, 1, false),
            ]
        );
    }
}
