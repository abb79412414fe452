//! Judging kernel executions: races with source lines, assertion failures, barrier
//! divergence and deadlock, merged over the exploration tree; [`check_kernel`] and
//! [`check_sequence`] run the exploration and build the [`KernelResult`].

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use weft_ir::kernel::Kernel;
use weft_ir::{Order, Scope};
use weft_simt::{Arg, Buffer, LaunchConfig};

use super::{
    BlockedAt, CutSite, KState, KernelError, KernelErrorReport, KernelOptions, KernelRace,
    KernelResult, KernelStepper, Launch, RaceSide, WitnessGraph, BARRIERS,
};
use crate::explore::{in_pool, Explorer, Judge, Limits};
use crate::graph::{EvId, Graph, Src, Status};
use crate::native::{self, Native};
use crate::witness;

/// A racing statement pair: both sides' (line, col), heterogeneous.
type RaceKey = ((u32, u32), (u32, u32), bool);

/// Accumulated per subtree.
#[derive(Default)]
pub struct KAcc {
    errors: BTreeMap<String, KernelErrorReport>,
    /// Racing statement pairs, by the sides' (line, col) and heterogeneous (the read and
    /// the write of one RMW are one statement).
    races: BTreeMap<RaceKey, KernelRace>,
    stuck: u64,
    /// `--replay`: finished executions that are not the witness's.
    unmatched: u64,
}

struct KernelJudge<'a, 'k> {
    ks: &'a KernelStepper<'k>,
    model: Native,
    stop_on_first: bool,
    guide: Option<&'a WitnessGraph>,
}

impl KernelJudge<'_, '_> {
    fn record(
        &self,
        acc: &mut KAcc,
        g: &Graph<Arc<KState>>,
        kind: &str,
        mut lines: Vec<u32>,
        threads: Vec<String>,
        message: String,
    ) {
        if let Some(e) = acc.errors.get_mut(kind) {
            e.executions += 1;
            return;
        }
        lines.sort_unstable();
        lines.dedup();
        let p = &self.ks.program;
        acc.errors.insert(
            kind.to_string(),
            KernelErrorReport {
                kind: kind.to_string(),
                lines,
                executions: 1,
                threads,
                message,
                witness: format!(
                    "{}{}",
                    self.ks.legend,
                    witness::interleaving(p, g, &self.ks.init)
                ),
                dot: witness::dot(p, g, &self.ks.init, 0),
                graph: WitnessGraph::of(g),
            },
        );
    }

    fn name(&self, t: usize) -> String {
        self.ks.program.threads[t].name.clone()
    }

    /// Adds the racing events `a`, `b` to the racing statement pairs.
    fn note_race(&self, acc: &mut KAcc, g: &Graph<Arc<KState>>, a: EvId, b: EvId, hetero: bool) {
        let side = |e: EvId| {
            let n = g.node(e);
            let at = &n.ev.attrs;
            RaceSide {
                line: n.ev.span.line,
                col: n.ev.span.col,
                write: n.is_write(),
                atomic: at.order != Order::Plain,
                scope: (at.order != Order::Plain).then_some(at.scope.unwrap_or(Scope::Gpu)),
            }
        };
        let need = if self.ks.block_of(a.0 as usize) == self.ks.block_of(b.0 as usize) {
            Scope::Cta
        } else {
            Scope::Gpu
        };
        let (mut sa, mut sb) = (side(a), side(b));
        let (mut ta, mut tb) = (a.0, b.0);
        if (sb.line, sb.col) < (sa.line, sa.col) {
            std::mem::swap(&mut sa, &mut sb);
            std::mem::swap(&mut ta, &mut tb);
        }
        let e = acc
            .races
            .entry(((sa.line, sa.col), (sb.line, sb.col), hetero))
            .or_insert_with(|| KernelRace {
                a: sa,
                b: sb,
                hetero,
                need,
                threads: (self.name(ta as usize), self.name(tb as usize)),
            });
        if need == Scope::Gpu && e.need != Scope::Gpu {
            e.need = Scope::Gpu;
            e.threads = (self.name(ta as usize), self.name(tb as usize));
        }
    }

    /// Assertion failures and races of a maximal execution.
    fn judge(&self, g: &Graph<Arc<KState>>, acc: &mut KAcc) {
        for (t, th) in g.th.iter().enumerate() {
            if let Status::AssertFailed(sp) = &th.status {
                self.record(
                    acc,
                    g,
                    "assertion",
                    vec![sp.line],
                    vec![self.name(t)],
                    format!("assertion violated by {} at line {}", self.name(t), sp.line),
                );
                break;
            }
        }
        let v = native::check(self.model, &self.ks.program, g, self.ks.cells.len(), true);
        for &(a, b, hetero) in &v.race_pairs {
            self.note_race(acc, g, a, b, hetero);
        }
        let mut race = |kind: &str, pair: Option<((u32, u32), (u32, u32))>, what: &str| {
            if let Some((a, b)) = pair {
                let (na, nb) = (g.node(a), g.node(b));
                let lines = vec![na.ev.span.line, nb.ev.span.line];
                let desc = |n: &crate::graph::Node, t: u32| {
                    format!(
                        "{} by {} at line {}",
                        if n.is_write() { "write" } else { "read" },
                        self.name(t as usize),
                        n.ev.span.line
                    )
                };
                let msg = format!("{what}: {} and {}", desc(na, a.0), desc(nb, b.0));
                self.record(
                    acc,
                    g,
                    kind,
                    lines,
                    vec![self.name(a.0 as usize), self.name(b.0 as usize)],
                    msg,
                );
            }
        };
        race(
            "data-race",
            v.data_race_pair,
            "conflicting accesses not ordered by happens-before, one not atomic",
        );
        race(
            "hetero-race",
            v.hetero_race_pair,
            "conflicting atomics not ordered by happens-before and not mutually in scope",
        );
    }

    /// Whether every read of thread `t` from event `from` on is stuck: every write after
    /// its source in coherence order writes the same value (it can read nothing new).
    fn stuck_reads(&self, g: &Graph<Arc<KState>>, t: usize, from: usize) -> bool {
        g.th[t].nodes.iter().skip(from).all(|n| {
            let Some(src) = n.rf else {
                return true;
            };
            let co = &g.co[n.cell as usize];
            let after = match src {
                Src::Init => 0,
                Src::Ev(e) => match co.iter().position(|x| *x == e) {
                    Some(i) => i + 1,
                    None => return false,
                },
            };
            co[after..].iter().all(|w| g.node(*w).value == n.value)
        })
    }
}

impl Judge<Arc<KState>> for KernelJudge<'_, '_> {
    type Acc = KAcc;

    fn consistent(&self, g: &mut Graph<Arc<KState>>) -> bool {
        if self.guide.is_some_and(|w| !w.admits(g, false)) {
            return false;
        }
        native::check_incremental(self.model, &self.ks.program, g, self.ks.cells.len())
    }

    fn complete(&self, g: &Graph<Arc<KState>>, acc: &mut KAcc) {
        if self.guide.is_some_and(|w| !w.admits(g, true)) {
            acc.unmatched += 1;
            return;
        }
        self.judge(g, acc);
    }

    fn blocked(&self, g: &Graph<Arc<KState>>, acc: &mut KAcc) {
        if self.guide.is_some_and(|w| !w.admits(g, true)) {
            return;
        }
        let mut at_barrier = Vec::new();
        let mut spinning = Vec::new();
        for (t, th) in g.th.iter().enumerate() {
            if th.status != Status::Blocked {
                continue;
            }
            let waiting = self.ks.awaiting_barrier(t, &th.state);
            let stuck = match &th.state.blocked {
                None if waiting.is_some() => {
                    // Waiting for arrivals no thread can make any more.
                    let (pc, id) = waiting.unwrap_or_default();
                    at_barrier.push((t, pc, id));
                    true
                }
                Some(BlockedAt::Barrier { pc, id }) => {
                    let n = th.nodes.len();
                    if !self.stuck_reads(g, t, n.saturating_sub(1)) {
                        return;
                    }
                    at_barrier.push((t, *pc, *id));
                    true
                }
                Some(BlockedAt::Spin { pc, from }) => {
                    if !self.stuck_reads(g, t, *from) {
                        return;
                    }
                    spinning.push((t, *pc));
                    true
                }
                // Waiting at a launch boundary for a thread that is stuck itself.
                None => self.ks.awaiting_host(t, &th.state),
            };
            if !stuck {
                return;
            }
        }
        // A maximal execution: no blocked thread can read anything new.
        acc.stuck += 1;
        self.judge(g, acc);
        let names = |v: &[usize]| v.iter().map(|t| self.name(*t)).collect::<Vec<_>>();
        if let Some(&(_, pc, id)) = at_barrier.first() {
            let blocked: Vec<usize> = at_barrier.iter().map(|x| x.0).collect();
            let t0 = at_barrier[0].0;
            let line = self.ks.span(t0, pc).line;
            let msg = if id >= BARRIERS {
                format!(
                    "warp divergence: {} blocked at a warp collective of warp {} ({}) that member lanes of the warp never reach",
                    names(&blocked).join(", "),
                    id - BARRIERS,
                    self.ks.describe(t0, pc)
                )
            } else {
                // Threads waiting at different instructions (different textual barriers
                // under --textual-barriers) are listed per instruction.
                let mut by_pc: Vec<(u32, Vec<usize>)> = Vec::new();
                for &(t, p, _) in &at_barrier {
                    match by_pc.iter_mut().find(|(q, _)| *q == p) {
                        Some((_, v)) => v.push(t),
                        None => by_pc.push((p, vec![t])),
                    }
                }
                if by_pc.len() == 1 {
                    format!(
                        "barrier divergence: {} blocked at barrier {id} ({}) while the other threads of the block never reach it",
                        names(&blocked).join(", "),
                        self.ks.describe(t0, pc)
                    )
                } else {
                    let groups: Vec<String> = by_pc
                        .iter()
                        .map(|(p, ts)| {
                            format!(
                                "{} at {}",
                                names(ts).join(", "),
                                self.ks.describe(ts[0], *p)
                            )
                        })
                        .collect();
                    format!(
                        "barrier divergence: threads of a block blocked at different barriers: {}",
                        groups.join("; ")
                    )
                }
            };
            self.record(acc, g, "divergence", vec![line], names(&blocked), msg);
        } else if !spinning.is_empty() {
            let blocked: Vec<usize> = spinning.iter().map(|x| x.0).collect();
            let lines = spinning
                .iter()
                .map(|x| self.ks.span(x.0, x.1).line)
                .collect();
            let msg = format!(
                "deadlock: {} spin forever ({}): no write they wait for can come",
                names(&blocked).join(", "),
                spinning
                    .iter()
                    .map(|x| self.ks.describe(x.0, x.1))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            self.record(acc, g, "deadlock", lines, names(&blocked), msg);
        }
    }

    fn merge(&self, a: &mut KAcc, b: KAcc) {
        a.stuck += b.stuck;
        for (k, r) in b.races {
            match a.races.get_mut(&k) {
                Some(x) if r.need == Scope::Gpu && x.need != Scope::Gpu => *x = r,
                Some(_) => {}
                None => {
                    a.races.insert(k, r);
                }
            }
        }
        a.unmatched += b.unmatched;
        for (k, e) in b.errors {
            match a.errors.get_mut(&k) {
                Some(x) => x.executions += e.executions,
                None => {
                    a.errors.insert(k, e);
                }
            }
        }
    }

    fn satisfied(&self, acc: &KAcc) -> bool {
        self.stop_on_first && !acc.errors.is_empty()
    }

    /// Kernels are judged under the native models (RC11, scoped RC11, SC), whose
    /// Atomicity holds for every RMW.
    fn atomic_rmws(&self) -> bool {
        true
    }
}

/// Explores every execution of a kernel launch under `opts.model` and reports the errors.
pub fn check_kernel(
    kernel: &Kernel,
    cfg: LaunchConfig,
    args: &[Arg],
    buffers: &[Buffer],
    names: &[String],
    opts: &KernelOptions,
) -> Result<KernelResult, KernelError> {
    let one = Launch {
        kernel,
        cfg,
        args: args.to_vec(),
        label: String::new(),
    };
    check_sequence(&[one], buffers, names, opts)
}

/// Explores every execution of a host-ordered sequence of launches (repeated
/// `opts.launches` times; every event of a launch happens before every event of the next)
/// under `opts.model` and reports the errors.
pub fn check_sequence(
    seq: &[Launch<'_>],
    buffers: &[Buffer],
    names: &[String],
    opts: &KernelOptions,
) -> Result<KernelResult, KernelError> {
    let start = Instant::now();
    let ks = KernelStepper::sequence(seq, buffers, names, opts)?;
    let judge = KernelJudge {
        ks: &ks,
        model: opts.model,
        stop_on_first: opts.stop_on_first,
        guide: opts.guide.as_ref(),
    };
    let limits = Limits {
        deadline: opts.timeout.map(|d| start + d),
        max_memory: opts.max_memory,
        ..Limits::default()
    };
    let ex = Explorer::new(&ks, &judge, ks.cells.clone(), ks.init.clone(), limits);
    let out = in_pool(opts.threads, || ex.run()).map_err(KernelError::Launch)?;
    let mut errors: Vec<KernelErrorReport> = out.acc.errors.into_values().collect();
    if out.counts.faults > 0 {
        errors.push(KernelErrorReport {
            kind: "fault".into(),
            lines: Vec::new(),
            executions: out.counts.faults,
            threads: Vec::new(),
            message: out.counts.fault_message.clone().unwrap_or_default(),
            witness: String::new(),
            dot: String::new(),
            graph: WitnessGraph::default(),
        });
    }
    let rank = |k: &str| match k {
        "assertion" => 0,
        "data-race" => 1,
        "hetero-race" => 2,
        "divergence" => 3,
        "deadlock" => 4,
        _ => 5,
    };
    errors.sort_by_key(|e| rank(&e.kind));
    Ok(KernelResult {
        counts: out.counts,
        stuck: out.acc.stuck,
        unmatched: out.acc.unmatched,
        errors,
        stopped: out.stopped,
        seconds: start.elapsed().as_secs_f64(),
        threads: ks.ids.len(),
        cells: ks.cells.len(),
        races: out.acc.races.into_values().collect(),
        cut_sites: ks
            .cut_sites
            .lock()
            .map(|c| {
                c.iter()
                    .map(|&(line, self_bounded)| CutSite { line, self_bounded })
                    .collect()
            })
            .unwrap_or_default(),
    })
}
