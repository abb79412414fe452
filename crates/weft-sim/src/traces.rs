//! Per-thread traces: every way one thread can run on its own, given a set of values each
//! read may return (herd's first stage of candidate-execution generation, paper 000 §5.1).
//!
//! Each thread is run by the shared litmus stepper ([`weft_exec::step::LitmusStepper`],
//! the interpreter the model checker uses too), driven depth-first: a read branches over
//! the value domain of its location; the domains are computed as a fixpoint (initial
//! values, then every value some trace writes, until nothing new appears). Loops are
//! unrolled: a trace that enters any block more than `unroll` times is cut and counted,
//! never silently dropped. Each event records the reads its address, data and control
//! depend on. Reads into registers nothing uses are symbolic (one trace, the value comes
//! from rf).

use std::collections::BTreeSet;

use weft_exec::step::{Action, LitmusState, LitmusStepper};
use weft_ir::{Program, Span};

pub use weft_exec::event::{eval_expr, union, Cell, End, EventKind, Trace, TraceEvent};
pub use weft_exec::step::observed_only;

use crate::value::of_init;

/// The traces of every thread plus what was learned computing them.
#[derive(Clone, Debug)]
pub struct ThreadTraces {
    /// `per_thread[t]`: the complete traces of thread `t` (ended `Done` or `AssertFailed`).
    pub per_thread: Vec<Vec<Trace>>,
    /// Traces cut by the unroll bound, per thread.
    pub cut: Vec<usize>,
    /// Faulting traces, per thread (with the first message).
    pub faults: Vec<(usize, Option<String>)>,
    /// Values each storage location may hold.
    pub domains: Vec<BTreeSet<i64>>,
    /// Whether the domain fixpoint converged within its limits.
    pub converged: bool,
}

/// Limits of the exploration.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Times a block may be entered before the trace is cut.
    pub unroll: u32,
    /// Most values a location's domain may hold.
    pub max_domain: usize,
    /// Most traces per thread.
    pub max_traces: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            unroll: 2,
            max_domain: 64,
            max_traces: 100_000,
        }
    }
}

/// A failure that prevents simulation (the program is not simulable as given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    pub span: Span,
    pub message: String,
}

impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.span, self.message)
    }
}

impl std::error::Error for TraceError {}

/// Values a read may speculatively return although no least-fixpoint chain of writes
/// computes them: the integer constants of the final condition and the literal values
/// stored or combined by read-modify-writes. A trace that reads such a value only
/// becomes an execution if some write of the candidate produces it.
pub fn speculated_values(p: &Program) -> BTreeSet<i64> {
    let mut out = BTreeSet::new();
    for t in &p.threads {
        weft_ir::code::stored_literals(&t.code, &mut out);
    }
    if let Some(c) = &p.condition {
        let mut terms = Vec::new();
        c.prop.terms(&mut terms);
        for t in terms {
            if let weft_ir::Term::Int(v) = t {
                out.insert(*v);
            }
        }
    }
    out
}

/// Computes the traces of every thread of `p`.
pub fn thread_traces(p: &Program, limits: Limits) -> Result<ThreadTraces, TraceError> {
    let stepper = LitmusStepper::new(p, limits.unroll)
        .map_err(|(span, message)| TraceError { span, message })?
        .with_symbolic_reads()
        .with_whole_locations();
    // Domains start from the initial values plus the speculated values (see
    // `speculated_values`), so that executions whose values justify themselves through a
    // cycle (load buffering with dependencies, C11 "out of thin air") are enumerated and
    // left for the model to judge, as herd7 and Dat3M do.
    let speculated = speculated_values(p);
    let mut domains: Vec<BTreeSet<i64>> = p
        .locations
        .iter()
        .map(|l| {
            let mut d = BTreeSet::from([of_init(l.init)]);
            d.extend(speculated.iter().copied());
            d
        })
        .collect();
    let mut converged = false;
    let mut result = None;
    for round in 0..64 {
        let mut per_thread = Vec::new();
        let mut cut = Vec::new();
        let mut faults = Vec::new();
        for thread in 0..p.threads.len() {
            let mut ex = Explorer {
                stepper: &stepper,
                thread,
                domains: &domains,
                limits,
                out: Vec::new(),
                cut: 0,
                faults: 0,
                fault_msg: None,
            };
            ex.run()?;
            per_thread.push(ex.out);
            cut.push(ex.cut);
            faults.push((ex.faults, ex.fault_msg));
        }
        let mut next = domains.clone();
        for traces in &per_thread {
            for tr in traces {
                for e in &tr.events {
                    if e.kind == EventKind::Write {
                        if let Some(c) = e.cell {
                            next[c.loc.index()].insert(e.value);
                        }
                    }
                }
            }
        }
        let overflow = next.iter().any(|d| d.len() > limits.max_domain);
        let stable = next == domains;
        // Every value of an execution is computed by a chain of writes, each reading the
        // value of the previous one; the chain has at most as many links as the execution
        // has writes. Round `r` reads every value of chains up to `r` links, so once `r`
        // reaches the most writes an execution can have, the domains are complete even if
        // they keep growing (e.g. `atom.add` feeding itself through several threads).
        let max_writes: usize = per_thread
            .iter()
            .map(|ts| {
                ts.iter()
                    .map(|t| {
                        t.events
                            .iter()
                            .filter(|e| e.kind == EventKind::Write)
                            .count()
                    })
                    .max()
                    .unwrap_or(0)
            })
            .sum();
        result = Some((per_thread, cut, faults));
        if stable || round >= max_writes {
            converged = true;
            break;
        }
        if overflow {
            break;
        }
        domains = next;
    }
    let (per_thread, cut, faults) = result.expect("at least one round");
    Ok(ThreadTraces {
        per_thread,
        cut,
        faults,
        domains,
        converged,
    })
}

/// One partial trace: the stepper's thread state and the events it produced so far.
#[derive(Clone)]
struct State {
    st: LitmusState,
    events: Vec<TraceEvent>,
}

struct Explorer<'a> {
    stepper: &'a LitmusStepper<'a>,
    thread: usize,
    domains: &'a [BTreeSet<i64>],
    limits: Limits,
    out: Vec<Trace>,
    cut: usize,
    faults: usize,
    fault_msg: Option<String>,
}

impl<'a> Explorer<'a> {
    fn run(&mut self) -> Result<(), TraceError> {
        let s = State {
            st: self.stepper.start_state(self.thread),
            events: Vec::new(),
        };
        let mut stack = vec![s];
        while let Some(s) = stack.pop() {
            if self.out.len() >= self.limits.max_traces {
                return Err(TraceError {
                    span: Span::default(),
                    message: format!(
                        "thread {} has more than {} traces",
                        self.stepper.p.threads[self.thread].name, self.limits.max_traces
                    ),
                });
            }
            self.step(s, &mut stack);
        }
        Ok(())
    }

    fn finish(&mut self, s: State, end: End) {
        match end {
            End::Cut => self.cut += 1,
            End::Fault(_, ref m) => {
                self.faults += 1;
                if self.fault_msg.is_none() {
                    self.fault_msg = Some(m.clone());
                }
            }
            _ => self.out.push(Trace {
                events: s.events,
                regs: s.st.regs().to_vec(),
                reg_src: s.st.reg_src().to_vec(),
                end,
            }),
        }
    }

    /// Runs `s` until it reads a value, ends, or is discarded; pushes successor states.
    /// A read branches over its cell's domain: smallest value explored first, except a
    /// compare-exchange's read of its expected value (largest first).
    fn step(&mut self, mut s: State, stack: &mut Vec<State>) {
        loop {
            let ev = match self.stepper.advance(self.thread, &mut s.st) {
                Err((span, m)) => return self.finish(s, End::Fault(span, m)),
                Ok(Action::Done) => return self.finish(s, End::Done),
                Ok(Action::AssertFailed(span)) => return self.finish(s, End::AssertFailed(span)),
                Ok(Action::Cut) => return self.finish(s, End::Cut),
                // An assume failed: not an execution of the program. (Litmus threads
                // never await nor fault through `Action`.)
                Ok(Action::Blocked | Action::Await { .. } | Action::Fault(_)) => return,
                Ok(Action::Event(ev)) => ev,
            };
            let cell = match ev.cell {
                Some(c) if ev.kind == EventKind::Read && !ev.symbolic => c,
                _ => {
                    s.events.push(ev);
                    continue;
                }
            };
            let expected = s.st.reads_expected();
            let domain = &self.domains[cell.loc.index()];
            let mut branch = |v: i64| {
                let mut n = s.clone();
                let fix = self.stepper.feed_value(&mut n.st, v);
                let mut rd = ev.clone();
                rd.value = v;
                rd.rmw = fix.rmw;
                if let Some(a) = fix.attrs {
                    rd.attrs = a;
                }
                n.events.push(rd);
                stack.push(n);
            };
            if expected {
                domain.iter().copied().for_each(&mut branch);
            } else {
                domain.iter().rev().copied().for_each(&mut branch);
            }
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_ir::{
        BinOp, Expr, Load, LocId, Location, MemAttrs, Order, Reg, Rmw, RmwOp, Stmt, StmtKind,
        Store, Thread,
    };

    fn st(kind: StmtKind) -> Stmt {
        Stmt::new(kind, Span::default())
    }

    fn load(r: u32, l: u32) -> Stmt {
        st(StmtKind::Load(Load {
            dst: Reg(r),
            addr: Expr::Addr(LocId(l)),
            attrs: MemAttrs::with_order(Order::Relaxed),
        }))
    }

    fn store(l: u32, v: i64) -> Stmt {
        st(StmtKind::Store(Store {
            addr: Expr::Addr(LocId(l)),
            value: Expr::Int(v),
            attrs: MemAttrs::with_order(Order::Relaxed),
        }))
    }

    fn mp() -> Program {
        let mut p = Program::new(weft_ir::Arch::Ptx, "MP");
        p.locations = vec![Location::scalar("x", 0), Location::scalar("y", 0)];
        let mut t0 = Thread::new("P0");
        t0.code = vec![store(0, 1), store(1, 1)];
        let mut t1 = Thread::new("P1");
        t1.reg_or_declare("r0");
        t1.reg_or_declare("r1");
        t1.code = vec![load(0, 1), load(1, 0)];
        p.threads = vec![t0, t1];
        p
    }

    #[test]
    fn observation_only_reads_are_symbolic() {
        // MP's reader uses r0 and r1 for nothing but the final state: one trace whose
        // reads take their values from rf.
        let tt = thread_traces(&mp(), Limits::default()).unwrap();
        assert_eq!(tt.per_thread[1].len(), 1);
        let t = &tt.per_thread[1][0];
        assert!(t.events.iter().all(|e| e.symbolic));
        assert_eq!(t.reg_src, vec![Some(0), Some(1)]);
    }

    #[test]
    fn mp_reader_has_four_traces_writer_one() {
        // With r0 and r1 used (an assertion reads them), each read branches on its value.
        let mut p = mp();
        p.threads[1].code.push(st(StmtKind::Assert(Expr::bin(
            BinOp::Eq,
            Expr::Reg(Reg(0)),
            Expr::Reg(Reg(0)),
        ))));
        p.threads[1].code.push(st(StmtKind::Assert(Expr::bin(
            BinOp::Eq,
            Expr::Reg(Reg(1)),
            Expr::Reg(Reg(1)),
        ))));
        let tt = thread_traces(&p, Limits::default()).unwrap();
        assert!(tt.converged);
        assert_eq!(tt.per_thread[0].len(), 1);
        assert_eq!(tt.per_thread[1].len(), 4);
        let mut finals: Vec<Vec<i64>> = tt.per_thread[1].iter().map(|t| t.regs.clone()).collect();
        finals.sort();
        assert_eq!(finals, vec![vec![0, 0], vec![0, 1], vec![1, 0], vec![1, 1]]);
        assert_eq!(tt.domains[0], BTreeSet::from([0, 1]));
    }

    #[test]
    fn spin_loop_is_cut_at_the_bound_and_counted() {
        let mut p = mp();
        // P1: LC00: r0 = ld y; beq r0, 0, LC00; r1 = ld x
        p.threads[1].code = vec![
            st(StmtKind::Label("LC00".into())),
            load(0, 1),
            st(StmtKind::Jump {
                target: "LC00".into(),
                cond: Some(Expr::bin(BinOp::Eq, Expr::Reg(Reg(0)), Expr::Int(0))),
            }),
            load(1, 0),
        ];
        let tt = thread_traces(
            &p,
            Limits {
                unroll: 2,
                ..Limits::default()
            },
        )
        .unwrap();
        // Exits after the first or second read of y = 1, then reads x (symbolic: its
        // value is only observed): 2 complete traces.
        assert_eq!(tt.per_thread[1].len(), 2);
        assert_eq!(tt.cut[1], 1);
        for t in &tt.per_thread[1] {
            // The final read is control-dependent on the read of y that exited the loop.
            let last = t.events.last().unwrap();
            assert!(!last.ctrl_deps.is_empty());
        }
    }

    #[test]
    fn failed_cas_is_a_lone_read_and_success_is_read_plus_write() {
        let mut p = Program::new(weft_ir::Arch::Ptx, "cas");
        p.locations = vec![Location::scalar("m", 1)];
        let mut t0 = Thread::new("P0");
        t0.reg_or_declare("r0");
        t0.code = vec![st(StmtKind::Rmw(Rmw {
            dst: Some(Reg(0)),
            addr: Expr::Addr(LocId(0)),
            op: RmwOp::Cas,
            args: vec![Expr::Int(0), Expr::Int(1)],
            attrs: MemAttrs::with_order(Order::Relaxed),
            fail_order: None,
        }))];
        let mut t1 = Thread::new("P1");
        t1.code = vec![store(0, 0)];
        p.threads = vec![t0, t1];
        let tt = thread_traces(&p, Limits::default()).unwrap();
        let mut shapes: Vec<(i64, usize)> = tt.per_thread[0]
            .iter()
            .map(|t| (t.regs[0], t.events.len()))
            .collect();
        shapes.sort();
        assert_eq!(shapes, vec![(0, 2), (1, 1)]);
        let success = tt.per_thread[0]
            .iter()
            .find(|t| t.events.len() == 2)
            .unwrap();
        assert!(success.events[0].rmw && success.events[1].rmw);
        assert_eq!(success.events[1].data_deps, vec![0]);
    }
}
