//! The two-thread reduction (GPUVerify, OOPSLA'12 §4; paper 002 §2.3): two arbitrary distinct
//! threads `s` and `t` run the kernel's CFG in lock-step with predicated execution; shared
//! arrays have access logs (one nondeterministically tracked access of `s` per array and
//! kind) that `t`'s accesses are checked against, reset at barriers (same block only), and
//! with warps reset whenever both threads are enabled in one warp (paper 002 §3.1, re-sync).
//! Atomic accesses have their own logs (§4.1), atomically accessed arrays are always
//! adversarial, repetition-free counters get the `used` refinement (§4.2-4.3), and loops are
//! unrolled when their trip count is decided or cut with Houdini-inferred invariants.
//!
//! The result is a list of [`Check`]s: formulas whose satisfiability is a possible error.

// `th` indexes several per-thread arrays (registers, enables, pieces) at once.
#![allow(clippy::needless_range_loop)]

use std::collections::{BTreeMap, BTreeSet, HashMap};

use weft_ir::attrs::{BarrierKind, DataType, MemSpace, RmwOp, TypeKind};
use weft_ir::kernel::{AnnotKind, QueryKind};

/// The predicate type, for reading an annotation's condition as true/false.
const PRED: DataType = DataType {
    kind: TypeKind::Pred,
    bits: 1,
};
use weft_ir::analysis::{EdgeCond, KCfg as Cfg};
use weft_ir::kernel::{AddrBase, KBinOp, KOp, Kernel, Operand, SpecialReg, VoteMode};
use weft_ir::Scope;

use crate::alu::{self, reg_sort};
use crate::function_wide::FunctionWide;
use crate::smt::{Answer, Query, Solver};
use crate::term::{mentions, mentions_fresh_after, Ctx, Node, Op, Printer, Sort, T};
use crate::Options;

/// An array: what an address is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Base {
    /// A pointer kernel parameter (index, byte offset in the param).
    Param(u32, u32),
    /// A module or kernel variable.
    Var(u32),
}

/// Access kinds of the logs (paper 002 §4.1: read, write and atomic sets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Read,
    Write,
    /// Atomic access at device (or system) scope.
    Atomic,
    /// Atomic access at block scope (`atomicAdd_block`, OpenCL work_group scope).
    AtomicBlock,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Read => "read",
            Kind::Write => "write",
            Kind::Atomic => "atomic",
            Kind::AtomicBlock => "block-scope atomic",
        }
    }
    fn atomic(self) -> bool {
        matches!(self, Kind::Atomic | Kind::AtomicBlock)
    }
}

/// One log: `s`'s tracked access (paper 002 §2.3's sets, sampled as in GPUVerify's encoding).
#[derive(Clone, Debug)]
struct Log {
    has: T,
    off: T,
    size: T,
    pc: T,
    /// The value of the logged access (64-bit, zero-extended; a fresh value when it is not
    /// known), for GPUVerify's benign-race tolerance.
    val: T,
    /// For a logged write: it left the bytes as they were (the value equals what the
    /// equality abstraction held there). Always false under the adversarial abstraction.
    same: T,
}

impl Log {
    fn empty(c: &mut Ctx) -> Log {
        let ff = c.ff();
        let z = c.bv(64, 0);
        let zp = c.bv(32, 0);
        Log {
            has: ff.clone(),
            off: z.clone(),
            size: z.clone(),
            pc: zp,
            val: z,
            same: ff,
        }
    }
}

/// A loop-head candidate over a log: if the log holds an access, its offset satisfies `e`
/// or it is the access the log held on entry to the loop (same pc and offset).
fn logged_as_or_kept(c: &mut Ctx, l: &Log, l0: &Log, e: &T) -> T {
    logged_as_or_kept_by(c, l, l0, e, |l| &l.off)
}

/// [`logged_as_or_kept`] where "kept" compares the pc and the field `f` (offset, size or
/// value) with the log on entry.
fn logged_as_or_kept_by(c: &mut Ctx, l: &Log, l0: &Log, e: &T, f: fn(&Log) -> &T) -> T {
    let e1 = c.eq(&l.pc, &l0.pc);
    let e2 = c.eq(f(l), f(l0));
    let old = c.and_all(&[l0.has.clone(), e1, e2]);
    let either = c.or(e, &old);
    c.implies(&l.has, &either)
}

#[derive(Clone)]
struct State {
    regs: [Vec<Option<T>>; 2],
    logs: BTreeMap<(Base, Kind), Log>,
    mem: BTreeMap<Base, T>,
    /// Per repetition-free array, the `used` set (paper 002 §4.2) at its last havoc or
    /// restart (offset → value → bool) ...
    used: BTreeMap<Base, T>,
    /// ... and the values the atomics returned since: (thread enabled, offset, value). Kept
    /// as a list rather than stores on the array term: "not used" is then a disjunction of
    /// bit-vector equalities, which the solver decides far faster than nested array stores.
    used_log: BTreeMap<Base, Vec<[T; 3]>>,
    /// Own-write forwarding (see [`OwnWrite`]): per thread and array, the thread's own
    /// writes in the current barrier interval, oldest first.
    own: [BTreeMap<Base, Vec<OwnWrite>>; 2],
}

/// One write of a thread to an array since the last barrier, for own-write forwarding under
/// the adversarial abstraction: a later read by the same thread of exactly these bytes sees
/// `val`, when nothing overlapping was written in between.
///
/// Soundness (the two-thread reduction, paper 002 §2.3, with GPUVerify's benign-race
/// tolerance): suppose thread `t` wrote bytes `X` and reads `X` later in the same barrier
/// interval, and some other thread `u` wrote (part of) `X` in between. The pair (`u`, `t`)
/// is one instance of the arbitrary pair `s`, `t`: `u`'s write races with `t`'s write
/// (write-write), which the race check reports unless both wrote the same value at the same
/// offset and size (benign) — and then the forwarded value is what `t` reads anyway. So in
/// every execution without a reported race, `t`'s read returns `t`'s own last write, and
/// forwarding it cannot turn a kernel with a reported error into a verified one. The argument
/// needs `u`'s write to be checked against `t`'s, so forwarding is off where that is not so:
/// - arrays that may be accessed atomically (paper 002 §4.1: atomics do not race with each
///   other), and every array when an atomic's array cannot be told statically;
/// - `--only-inter-group` and `--only-warp` (pairs of one block are not all checked), and,
///   under `--only-intra-group`, arrays that are not block-shared (another block's write to
///   global memory is not checked);
/// - lock-step warps (`--warp-sync`, paper 002 §3.1): another lane's write at a later
///   instruction does not race, so every store or atomic instruction forgets all earlier
///   writes (one instruction's lanes writing the same bytes race, and are reported);
/// - the equality abstraction (its memory already holds the thread's writes);
/// - a called function with a `__writes_to` frame (weft does not havoc the frame, so the
///   array may hold other values after the call): off for the whole kernel.
///
/// The record restarts at every barrier (any kind: the barrier orders other threads' writes
/// before the read without a race), at every loop cut (the havocked state) and after each
/// word of an OpenCL async copy (`weft_verify.h` stores to [`FWD_RESET_SINK`] there: the
/// copy's model has a thread write a word another work-item really copies). A read forwards
/// only from a write at the provably same offset and of the same width, else (a partial or
/// wider/narrower overlap) it is a fresh value.
///
/// Forwarding changes read values, hence control flow and addresses; the argument covers
/// that: take the first read of a real execution whose value differs from the forwarded one.
/// Every earlier read got its real value (forwarded or arbitrary), so the two-thread
/// encoding can follow the execution up to that read, and the race that made it differ lies
/// on that prefix, where it is reported. Loop invariants (Houdini's and the user's) are
/// checked in the same encoding, so they hold on that prefix too and do not cut it off; a
/// forwarded value is the stored register's term, so a user invariant that reads one is
/// moved between havocked states like one over that register.
#[derive(Clone, Debug)]
struct OwnWrite {
    /// The thread made the write (its enable and the address case).
    en: T,
    off: T,
    size: u64,
    /// The value written (`size * 8` bits); `None`: the bytes hold an unknown value (an
    /// atomic or wider-than-8-byte store).
    val: Option<T>,
}

/// Own writes kept per thread and array: older ones are dropped (a read then gets a fresh
/// value, which is always sound). Each forwarded read is a chain of `ite`s over the kept
/// writes' offsets: with 32, `tests/verify/per_thread_slice_shared.cu` (32 writes then 32
/// reads per thread, `--no-lockstep`) ran past 300 s in z3; with 8, 33 s; with 4, 17.5 s
/// (13 s without forwarding).
const OWN_WRITES_MAX: usize = 4;

/// What a check is about.
#[derive(Clone, Debug)]
pub enum CheckKind {
    Race {
        array: Base,
        s_kind: Kind,
        t_kind: Kind,
        t_pc: usize,
        /// The values list holds `s_pc`.
        shared: bool,
    },
    BarrierDivergence {
        pc: usize,
    },
    Assert {
        pc: usize,
    },
    Invariant {
        pc: usize,
        entry: bool,
    },
    Overflow {
        pc: usize,
    },
    /// An access GPUVerify rejects whatever the other threads do: through a null pointer, or
    /// a write to constant memory.
    Memory {
        pc: usize,
        what: &'static str,
    },
    /// `--check-array-bounds`: an access outside its (statically sized) array.
    Bounds {
        pc: usize,
        array: Base,
    },
}

/// A possible error: satisfiable `cond` means it can happen.
#[derive(Clone, Debug)]
pub struct Check {
    pub kind: CheckKind,
    pub cond: T,
    pub values: Vec<(String, T)>,
}

/// Output of one region execution.
struct RegionOut {
    back: [T; 2],
    exits: Vec<(usize, [T; 2])>,
}

/// Static facts about arrays (paper 002 §4.3: arrays that may be accessed atomically, and
/// arrays accessed only through one repetition-free operation).
#[derive(Default)]
struct ArrayFacts {
    /// Registers that may hold an address derived from a base.
    atomic: BTreeSet<Base>,
    /// Repetition-free arrays: (op, step sign) of their single operation.
    repfree: BTreeSet<Base>,
    /// Repetition-free arrays of block-shared memory that are also accessed plainly (set or
    /// read between barriers): their `used` sets restart at every barrier.
    repfree_restart: BTreeSet<Base>,
    shared: BTreeSet<Base>,
    /// Parameters used as array bases.
    pointers: BTreeSet<Base>,
    /// Bases each register may derive from.
    reg_bases: Vec<BTreeSet<Base>>,
    /// An atomic access whose array is not known statically (any array may be atomic).
    atomic_unknown: bool,
}

/// Names of the annotation sinks (`weft_verify.h`).
pub const ASSERT_SINK: &str = "__weft_assert_sink";
pub const ASSUME_SINK: &str = "__weft_assume_sink";
pub const INVARIANT_SINK: &str = "__weft_invariant_sink";
/// `__requires` / `__ensures` (guarded like the others) and the global forms (the negated
/// condition stored as a value); their meaning depends on the function they stand in
/// ([`crate::contract`]).
pub const REQUIRES_SINK: &str = "__weft_requires_sink";
pub const ENSURES_SINK: &str = "__weft_ensures_sink";
pub const GREQUIRES_SINK: &str = "__weft_grequires_sink";
pub const GENSURES_SINK: &str = "__weft_gensures_sink";
/// The source line of the next global contract annotation.
pub const LINE_SINK: &str = "__weft_line_sink";
/// Stored after each word an OpenCL async copy's model writes: own-write forwarding
/// restarts (see [`OwnWrite`]).
pub const FWD_RESET_SINK: &str = "__weft_fwd_reset_sink";
/// The offset constraint of a specification function's frame write
/// ([`crate::contract::ensures_on_return`]): an assumption stored, like the global forms, as
/// the negated condition, unguarded.
pub const FRAME_SINK: &str = "__weft_frame_sink";
/// Name prefix of `t`'s (arbitrary) value of an access-history query: an annotation whose
/// condition mentions it is only instantiated for `s` (GPUVerify's log variables exist for
/// one thread only).
const LOG_QUERY_T: &str = "logq_t";

/// The symbolic executor.
pub struct Exec<'a> {
    k: &'a Kernel,
    cfg: &'a Cfg,
    o: &'a Options,
    pub c: Ctx,
    st: State,
    pub assumptions: Vec<T>,
    pub checks: Vec<Check>,
    pub tid: [[T; 3]; 2],
    pub ctaid: [[T; 3]; 2],
    pub same_block: T,
    same_warp: T,
    same_warp_any: T,
    lane: [T; 2],
    facts: ArrayFacts,
    /// A loop was cut by `--loop-unwind` (the result is bounded, not a proof).
    pub bounded: bool,
    pub notes: Vec<String>,
    budget: u64,
    aux: Option<(Solver, Printer)>,
    /// The solver of Houdini's queries, each asked alone (`Solver::ask_alone`).
    aux_alone: Option<Solver>,
    /// Invariant sinks met in the current body run: (pc, violation per thread).
    inv_hits: Vec<(usize, T)>,
    in_abstract: usize,
    /// Loops being cut: registers dead at the header ([`Cfg::dead_at_header`]) and the
    /// iteration's header predicates. A thread whose predicate is false does not run the
    /// iteration, so a write to such a register takes its value in that thread too instead
    /// of keeping a stale one (unobservable to the thread; it makes a two-thread query of
    /// an invariant, `__uniform_bool(__enabled())`, see the expression's value).
    dead_frames: Vec<(BTreeSet<usize>, [T; 2])>,
    /// While probing a loop: the first offset `s` logs per log.
    first_off_rec: Option<HashMap<(Base, Kind), T>>,
    /// The source line stored by `weft_verify.h` before a global contract annotation.
    contract_line: Option<u64>,
    /// During a loop's first Houdini round: the values `s` logs per log (candidates for
    /// `LogVal`, kept when they do not depend on the iteration).
    val_rec: Option<HashMap<(Base, Kind), Vec<T>>>,
    /// While probing a loop: instructions and sizes logged per log.
    probe_acc: HashMap<(Base, Kind), (BTreeSet<usize>, BTreeSet<u64>)>,
    orders: HashMap<Option<usize>, Vec<usize>>,
    deadline: std::time::Instant,
    /// Stores to thread-private `.local` variables at constant offsets in the current basic
    /// block, (variable, offset, bytes) -> both threads' values: a load of the same cell in
    /// the same block reads them back (call parameters and results the front-end spills,
    /// such as an annotation's condition). Cleared at every block boundary.
    local_fwd: HashMap<(u32, i64, u64), [T; 2]>,
    /// Null cases of the last address split: (thread, pc, condition).
    null_cases: Vec<(usize, usize, T)>,
    /// Own-write forwarding is on for this kernel (see [`OwnWrite`] for when it is not).
    own_fwd: bool,
    /// The kernel's `__function_wide_invariant`s (see [`crate::function_wide`]).
    function_wide: Vec<FunctionWide>,
    /// Per register, its single pure definition ([`crate::function_wide::single_pure_defs`]).
    pure_defs: Vec<Option<usize>>,
    /// The kernel asks `__enabled()` or `__dominator_enabled()` (user loop invariants then
    /// stay predicated by the loop predicate, see `abstract_loop`).
    asks_enabled: bool,
}

/// Which pairs of threads a pass considers (paper 002 §3.2's two passes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairs {
    All,
    SameWarp,
    OtherWarp,
}

type R<X> = Result<X, String>;

impl<'a> Exec<'a> {
    pub fn new(k: &'a Kernel, cfg: &'a Cfg, o: &'a Options, pairs: Pairs) -> R<Exec<'a>> {
        let mut c = Ctx::new();
        let mut assumptions = Vec::new();
        let dim = ["x", "y", "z"];
        let mk = |c: &mut Ctx, n: &str, th: &str| -> [T; 3] {
            [0, 1, 2].map(|d| c.var(&format!("{n}_{}_{th}", dim[d]), Sort::Bv(32)))
        };
        let tid = [mk(&mut c, "tid", "s"), mk(&mut c, "tid", "t")];
        let ctaid = [mk(&mut c, "ctaid", "s"), mk(&mut c, "ctaid", "t")];
        for th in 0..2 {
            for d in 0..3 {
                let b = c.bv(32, o.block[d] as u64);
                let g = c.bv(32, o.grid[d] as u64);
                let x = c.ult(&tid[th][d], &b);
                let y = c.ult(&ctaid[th][d], &g);
                assumptions.push(x);
                assumptions.push(y);
            }
        }
        let mut eqs = Vec::new();
        for d in 0..3 {
            eqs.push(c.eq(&tid[0][d], &tid[1][d]));
        }
        let mut beqs = Vec::new();
        for d in 0..3 {
            beqs.push(c.eq(&ctaid[0][d], &ctaid[1][d]));
        }
        let same_block = c.and_all(&beqs);
        let same_tid = c.and_all(&eqs);
        let both = c.and(&same_block, &same_tid);
        let distinct = c.not(&both);
        assumptions.push(distinct);
        // Linear thread id in the block, warp and lane.
        let lin = [0, 1].map(|th| {
            let bx = c.bv(32, o.block[0] as u64);
            let bxy = c.bv(32, (o.block[0] * o.block[1]) as u64);
            let y = c.bin(Op::BvMul, &tid[th][1], &bx);
            let z = c.bin(Op::BvMul, &tid[th][2], &bxy);
            let a = c.add(&tid[th][0], &y);
            c.add(&a, &z)
        });
        let ws = c.bv(32, o.warp_size.max(1) as u64);
        let w0 = c.bin(Op::BvUdiv, &lin[0], &ws);
        let w1 = c.bin(Op::BvUdiv, &lin[1], &ws);
        let weq = c.eq(&w0, &w1);
        let same_warp_any = c.and(&same_block, &weq);
        let same_warp = if o.lockstep {
            same_warp_any.clone()
        } else {
            c.ff()
        };
        let lane = [0, 1].map(|th| c.bin(Op::BvUrem, &lin[th], &ws));
        match pairs {
            Pairs::All => {}
            Pairs::SameWarp => assumptions.push(same_warp_any.clone()),
            Pairs::OtherWarp => {
                let n = c.not(&same_warp_any);
                assumptions.push(n)
            }
        }
        if o.only_intra_group {
            assumptions.push(same_block.clone());
        }
        if o.only_inter_group {
            let n = c.not(&same_block);
            assumptions.push(n);
        }
        if o.only_warp {
            assumptions.push(same_warp_any.clone());
        }
        let nregs = k.regs.len();
        let facts = array_facts(k);
        let own_fwd = !o.equality
            && !o.only_inter_group
            && !o.only_warp
            && !facts.atomic_unknown
            && !o.contracts.callees.iter().any(|c| c.writes);
        Ok(Exec {
            k,
            cfg,
            o,
            c,
            st: State {
                regs: [vec![None; nregs], vec![None; nregs]],
                logs: BTreeMap::new(),
                mem: BTreeMap::new(),
                used: BTreeMap::new(),
                used_log: BTreeMap::new(),
                own: [BTreeMap::new(), BTreeMap::new()],
            },
            assumptions,
            checks: Vec::new(),
            tid,
            ctaid,
            same_block,
            same_warp,
            same_warp_any,
            lane,
            facts,
            bounded: false,
            notes: Vec::new(),
            budget: 400_000,
            aux: None,
            aux_alone: None,
            inv_hits: Vec::new(),
            in_abstract: 0,
            dead_frames: Vec::new(),
            first_off_rec: None,
            contract_line: None,
            val_rec: None,
            probe_acc: HashMap::new(),
            orders: HashMap::new(),
            local_fwd: HashMap::new(),
            null_cases: Vec::new(),
            own_fwd,
            function_wide: if o.ignore_invariants {
                Vec::new()
            } else {
                crate::function_wide::find(k)
            },
            pure_defs: crate::function_wide::single_pure_defs(k),
            asks_enabled: k.code.iter().any(|i| {
                matches!(
                    i.op,
                    KOp::Query {
                        kind: QueryKind::Enabled | QueryKind::DominatorEnabled,
                        ..
                    }
                )
            }),
            deadline: {
                let own =
                    std::time::Instant::now() + std::time::Duration::from_secs(o.kernel_timeout_s);
                o.deadline.map_or(own, |d| d.min(own))
            },
        })
    }

    /// Runs the whole kernel.
    pub fn run(&mut self) -> R<()> {
        let tt = self.c.tt();
        let out = self.run_region(None, [tt.clone(), tt])?;
        let _ = out;
        Ok(())
    }

    fn order(&mut self, lp: Option<usize>) -> Vec<usize> {
        if let Some(o) = self.orders.get(&lp) {
            return o.clone();
        }
        let o = self.cfg.region_order(lp);
        self.orders.insert(lp, o.clone());
        o
    }

    fn run_region(&mut self, lp: Option<usize>, entry: [T; 2]) -> R<RegionOut> {
        let header = lp.map_or(0, |l| self.cfg.loops[l].header);
        let order = self.order(lp);
        let members: Option<BTreeSet<usize>> = lp.map(|l| self.cfg.loops[l].blocks.clone());
        let children: Vec<usize> = match lp {
            Some(l) => self.cfg.loops[l].children.clone(),
            None => self.cfg.roots.clone(),
        };
        let ff = self.c.ff();
        let mut pending: HashMap<usize, [T; 2]> = HashMap::new();
        pending.insert(header, entry);
        let mut back = [ff.clone(), ff.clone()];
        let mut exits: Vec<(usize, [T; 2])> = Vec::new();
        for node in order {
            let Some(en) = pending.remove(&node) else {
                continue;
            };
            if en[0].is_false() && en[1].is_false() {
                continue;
            }
            let outs: Vec<(usize, [T; 2])> = match self.cfg.loop_at.get(&node) {
                Some(&c) if Some(c) != lp && children.contains(&c) => self.run_loop(c, en)?,
                _ => self.run_block(node, en)?,
            };
            for (s, e) in outs {
                if e[0].is_false() && e[1].is_false() {
                    continue;
                }
                if lp.is_some() && s == header {
                    back = [self.c.or(&back[0], &e[0]), self.c.or(&back[1], &e[1])];
                } else if members.as_ref().is_some_and(|m| !m.contains(&s)) {
                    merge(&mut self.c, &mut exits, s, e);
                } else {
                    let tnode = children
                        .iter()
                        .find(|&&ch| self.cfg.loops[ch].blocks.contains(&s))
                        .map_or(s, |&ch| self.cfg.loops[ch].header);
                    let cur = pending.remove(&tnode);
                    let v = match cur {
                        Some(p) => [self.c.or(&p[0], &e[0]), self.c.or(&p[1], &e[1])],
                        None => e,
                    };
                    pending.insert(tnode, v);
                }
            }
        }
        Ok(RegionOut { back, exits })
    }

    fn run_block(&mut self, b: usize, en: [T; 2]) -> R<Vec<(usize, [T; 2])>> {
        let blk = self.cfg.blocks[b].clone();
        self.warp_reset(&en);
        self.local_fwd.clear();
        for pc in blk.start..blk.end {
            if self.budget == 0 {
                return Err("budget".into());
            }
            if self.budget & 255 == 0 && std::time::Instant::now() > self.deadline {
                return Err("deadline".into());
            }
            self.budget -= 1;
            self.instr(pc, &en)?;
        }
        let mut out = Vec::new();
        for (s, cond) in blk.succs {
            let e = match cond {
                EdgeCond::Always => en.clone(),
                EdgeCond::Guard(g) | EdgeCond::NotGuard(g) => {
                    let want = matches!(cond, EdgeCond::Guard(_)) != g.negated;
                    [0, 1].map(|th| {
                        let v = self.reg_bool(th, g.reg.index());
                        let v = if want { v } else { self.c.not(&v) };
                        self.c.and(&en[th], &v)
                    })
                }
            };
            out.push((s, e));
        }
        Ok(out)
    }

    // ---- loops -------------------------------------------------------------------------

    fn snapshot(&self) -> (State, usize, usize, bool, usize) {
        (
            self.st.clone(),
            self.assumptions.len(),
            self.checks.len(),
            self.bounded,
            self.notes.len(),
        )
    }
    fn restore(&mut self, s: &(State, usize, usize, bool, usize)) {
        self.st = s.0.clone();
        self.assumptions.truncate(s.1);
        self.checks.truncate(s.2);
        self.bounded = s.3;
        self.notes.truncate(s.4);
    }

    fn run_loop(&mut self, l: usize, en: [T; 2]) -> R<Vec<(usize, [T; 2])>> {
        let snap = self.snapshot();
        let budget0 = self.budget;
        let limit = self.o.loop_unwind.unwrap_or(self.o.unroll_limit);
        let limit = if self.in_abstract > 0 && self.o.loop_unwind.is_none() {
            limit.min(8)
        } else {
            limit
        };
        if self.o.loop_unwind.is_none() && self.loop_has_user_invariant(l) {
            return self.abstract_loop(l, en);
        }
        let mut p = en.clone();
        let mut exits: Vec<(usize, [T; 2])> = Vec::new();
        let mut it = 0u32;
        let mut done = false;
        let mut failed = false;
        while it < limit {
            if self.budget < budget0 / 2 || self.budget < 1000 {
                failed = true;
                break;
            }
            let out = match self.run_region(Some(l), p.clone()) {
                Ok(o) => o,
                Err(e) if e == "budget" && self.in_abstract == 0 => {
                    failed = true;
                    break;
                }
                Err(e) => return Err(e),
            };
            for (b, e) in out.exits {
                merge(&mut self.c, &mut exits, b, e);
            }
            p = out.back;
            it += 1;
            if p[0].is_false() && p[1].is_false() {
                done = true;
                break;
            }
            // A loop with a barrier whose continuation differs between the threads is cut at
            // once: unrolling it would only repeat the divergence the cut loop reports.
            if self.o.loop_unwind.is_none() && p[0] != p[1] && self.loop_has_barrier(l) {
                let differ = {
                    let e = self.c.eq(&p[0], &p[1]);
                    let n = self.c.not(&e);
                    self.c.and(&self.same_block.clone(), &n)
                };
                if self.feasible(&differ)? {
                    failed = true;
                    break;
                }
            }
            // A loop whose continuation depends on more than thread ids and constants (a
            // parameter, a value read from memory) is not unrolled: it is cut instead.
            if self.o.loop_unwind.is_none() {
                let mut memo = HashMap::new();
                let thread_only = |n: &str| !(n.starts_with("tid_") || n.starts_with("ctaid_"));
                if mentions(&p[0], &thread_only, &mut memo)
                    || mentions(&p[1], &thread_only, &mut memo)
                {
                    failed = true;
                    break;
                }
            }
            if it.is_power_of_two() && it >= 2 {
                let any = self.c.or(&p[0], &p[1]);
                if !self.feasible(&any)? {
                    done = true;
                    break;
                }
            }
        }
        if done {
            return Ok(exits);
        }
        if !failed && self.o.loop_unwind.is_some() {
            // Bounded: assume the loop ends here (bug finding only).
            let any = self.c.or(&p[0], &p[1]);
            let none = self.c.not(&any);
            self.assumptions.push(none);
            self.bounded = true;
            return Ok(exits);
        }
        self.restore(&snap);
        self.budget = budget0.saturating_sub(1000);
        self.abstract_loop(l, en)
    }

    /// One iteration of cut loop `l` from header predicates `p`, with `dead`'s writes taking
    /// effect in a thread that does not run the iteration (see `dead_frames`).
    fn run_region_dead(&mut self, l: usize, p: [T; 2], dead: &BTreeSet<usize>) -> R<RegionOut> {
        self.dead_frames.push((dead.clone(), p.clone()));
        let r = self.run_region(Some(l), p);
        self.dead_frames.pop();
        r
    }

    /// Asks whether `f` is satisfiable under the current assumptions (unknown: true).
    fn feasible(&mut self, f: &T) -> R<bool> {
        let mut parts = self.assumptions.clone();
        parts.push(f.clone());
        let q = self.c.and_all(&parts);
        Ok(!matches!(self.aux_ask(&q)?, Answer::Unsat))
    }

    fn aux_ask(&mut self, q: &T) -> R<Answer> {
        if q.is_false() {
            return Ok(Answer::Unsat);
        }
        if self.aux.is_none() {
            let s = self.o.start_solver()?;
            self.aux = Some((s, Printer::new()));
        }
        let (s, p) = self.aux.as_mut().unwrap();
        let name = p.name(q);
        let decls = p.take();
        s.declare(&decls)?;
        s.ask(&Query {
            formula: name,
            values: vec![],
        })
    }

    /// Loop cut with invariants inferred by Houdini from rule-generated candidates plus the
    /// user's `__invariant`s (GPUVerify's invariant inference, Houdini; OOPSLA'12 §5).
    fn abstract_loop(&mut self, l: usize, en: [T; 2]) -> R<Vec<(usize, [T; 2])>> {
        self.in_abstract += 1;
        let lp = self.cfg.loops[l].clone();
        // Registers written in the loop, step operands of additions.
        let mut written = BTreeSet::new();
        let mut steps: Vec<Operand> = Vec::new();
        let mut has_barrier = false;
        for &b in &lp.blocks {
            let blk = &self.cfg.blocks[b];
            for pc in blk.start..blk.end {
                let i = &self.k.code[pc];
                for r in i.op.defs() {
                    written.insert(r.index());
                }
                if matches!(i.op, KOp::Barrier { .. }) {
                    has_barrier = true;
                }
            }
        }
        // Constants the loop compares with (bounds of its counters).
        let mut bounds: BTreeSet<u64> = BTreeSet::new();
        for &b in &lp.blocks {
            let blk = &self.cfg.blocks[b];
            for pc in blk.start..blk.end {
                if let KOp::Setp { a, b, .. } = &self.k.code[pc].op {
                    for o in [a, b] {
                        if let Operand::Imm(v) = o {
                            if *v > 0 && *v < (1 << 31) && bounds.len() < 4 {
                                bounds.insert(*v);
                            }
                        }
                    }
                }
            }
        }
        for &b in &lp.blocks {
            let blk = &self.cfg.blocks[b];
            for pc in blk.start..blk.end {
                if let KOp::Binary {
                    op: KBinOp::Add | KBinOp::Sub,
                    a,
                    b,
                    dst,
                    ..
                } = &self.k.code[pc].op
                {
                    let inv = |o: &Operand| match o {
                        Operand::Imm(_) => true,
                        Operand::Reg(r) => !written.contains(&r.index()),
                        _ => true,
                    };
                    if written.contains(&dst.index()) {
                        if inv(b) {
                            steps.push(*b);
                        } else if inv(a) {
                            steps.push(*a);
                        }
                    }
                }
            }
        }
        let _ = has_barrier;
        let dead = self.cfg.dead_at_header(self.k, l, &written);
        // Probe: one iteration from the entry state, to learn the arrays the loop touches
        // and the offsets of its accesses.
        let snap0 = self.snapshot();
        let bud = self.budget;
        self.inv_hits.clear();
        self.first_off_rec = Some(HashMap::new());
        let saved_acc = std::mem::take(&mut self.probe_acc);
        let probe = self.run_region_dead(l, en.clone(), &dead);
        let first_off = self.first_off_rec.take().unwrap_or_default();
        let probe_acc = std::mem::replace(&mut self.probe_acc, saved_acc);
        let probe_logs: Vec<(Base, Kind)> = self.st.logs.keys().copied().collect();
        let probe_mem: Vec<Base> = self.st.mem.keys().copied().collect();
        let probe_used: Vec<Base> = self.st.used.keys().copied().collect();
        let exit_blocks: Vec<usize> = match &probe {
            Ok(o) => o.exits.iter().map(|x| x.0).collect(),
            Err(_) => vec![],
        };
        probe?;
        self.restore(&snap0);
        self.budget = bud;
        // Pre-create the logs the loop may set, so they are part of the loop state.
        for key in probe_logs {
            if !self.st.logs.contains_key(&key) {
                let l = Log::empty(&mut self.c);
                self.st.logs.insert(key, l);
            }
        }
        for b in probe_mem {
            if !self.st.mem.contains_key(&b) {
                let m = self.c.fresh("mem", Sort::Mem);
                self.st.mem.insert(b, m);
            }
        }
        for b in probe_used {
            if !self.st.used.contains_key(&b) {
                let w = 32;
                let e = self.c.empty_used(w);
                self.st.used.insert(b, e);
            }
        }
        // Every edge leaving the loop, whether or not the probe iteration took it.
        let mut exit_blocks = exit_blocks;
        for &b in &lp.blocks {
            for &(succ, _) in &self.cfg.blocks[b].succs {
                if !lp.blocks.contains(&succ) {
                    exit_blocks.push(succ);
                }
            }
        }
        exit_blocks.sort();
        exit_blocks.dedup();
        let entry = self.st.clone();
        let entry_snap = self.snapshot();
        // Steps of induction variables: constant, non-zero, non-trivial (strides of 1 say
        // nothing), without duplicates; symbolic strides would make the queries non-linear.
        let mut steps_t: Vec<[T; 2]> = Vec::new();
        for o in &steps {
            let v = self.operand(0, o, DataType::U32);
            if let Some(x) = v.as_bv() {
                let x = x as u32 as i32;
                let mag = x.unsigned_abs() as u64;
                if mag > 1 && !steps_t.iter().any(|s| s[0].as_bv() == Some(mag)) {
                    let t = self.c.bv(32, mag);
                    steps_t.push([t.clone(), t]);
                }
            }
        }
        // Candidate invariants as closures over a havocked header state.
        let written: Vec<usize> = written.into_iter().collect();
        // First offsets that depend on `s`'s thread id, with `tid.x + 1` in its place.
        let mut next_off: HashMap<(Base, Kind), T> = HashMap::new();
        {
            let tx = self.tid[0][0].clone();
            let one = self.c.bv(32, 1);
            let tx1 = self.c.add(&tx, &one);
            let map = HashMap::from([(tx, tx1)]);
            for (key, f) in &first_off {
                let g = self.c.subst(f, &map);
                if g != *f {
                    next_off.insert(*key, g);
                }
            }
        }
        let mut cands: Vec<Cand> = Vec::new();
        for th in 0..2 {
            cands.push(Cand::PImpliesEn(th));
            cands.push(Cand::Covered(th));
            for (i, _) in exit_blocks.iter().enumerate() {
                cands.push(Cand::ExitImpliesEn(i, th));
                cands.push(Cand::ExitNotP(i, th));
            }
        }
        cands.push(Cand::PUniform);
        cands.push(Cand::PUniformBlock);
        for &r in &written {
            let s = self.k.regs[r].ty;
            if s.kind == TypeKind::Pred {
                cands.push(Cand::RegUniform(r));
                continue;
            }
            cands.push(Cand::RegUniform(r));
            cands.push(Cand::RegUniformEn(r));
            for th in 0..2 {
                for rel in [Op::BvUle, Op::BvSle] {
                    cands.push(Cand::RegRel(r, th, rel.clone(), false));
                    cands.push(Cand::RegRel(r, th, rel, true));
                }
                for si in 0..steps_t.len() {
                    cands.push(Cand::RegStride(r, th, si));
                }
                for &k in &bounds {
                    cands.push(Cand::RegBound(r, th, k, false));
                    cands.push(Cand::RegBound(r, th, k, true));
                }
            }
        }
        let log_keys: Vec<(Base, Kind)> = self.st.logs.keys().copied().collect();
        for key in &log_keys {
            cands.push(Cand::LogNone(*key));
            cands.push(Cand::LogSame(*key));
            cands.push(Cand::LogNoneSameBlock(*key));
            if first_off.contains_key(key) {
                cands.push(Cand::LogFirst(*key));
            }
            if next_off.contains_key(key) {
                cands.push(Cand::LogSlice(*key));
            }
            if let Some((pcs, sizes)) = probe_acc.get(key) {
                cands.push(Cand::LogPc(*key, pcs.iter().copied().collect()));
                for &z in sizes {
                    cands.push(Cand::LogSize(*key, z));
                }
                // The smallest access size, when a power of two: the loop's accesses are
                // aligned elements of it.
                if let Some(&z) = sizes.iter().min() {
                    if z > 1 && z.is_power_of_two() {
                        cands.push(Cand::LogAlign(*key, z));
                    }
                }
            }
            for si in 0..steps_t.len() {
                for sz in [1u64, 2, 4, 8] {
                    cands.push(Cand::LogStride(*key, si, sz));
                }
            }
        }
        // Houdini.
        let mut user_invs: Vec<(usize, T)> = Vec::new();
        // The invariants that also hold after the loop (unpredicated).
        let mut exit_invs: Vec<(usize, T)> = Vec::new();
        let mut rounds = 0;
        let mut first_h: Option<(State, [T; 2])> = None;
        let mut new_cands: Vec<Cand> = Vec::new();
        loop {
            rounds += 1;
            self.restore(&entry_snap);
            let mark = self.c.fresh_mark();
            let (h, hp, hx) = self.havoc(&entry, &written, exit_blocks.len());
            let map = match &first_h {
                Some((fh, fp)) => self.inv_map(fh, fp, &h, &hp),
                None => InvMap::default(),
            };
            self.st = h.clone();
            if first_h.is_none() {
                first_h = Some((h.clone(), hp.clone()));
                // Function-wide invariants, over the first havocked state (as the loop's
                // own `__invariant`s are), assumed from this first round on. They are
                // evaluated for both threads whether or not they run the loop (GPUVerify's
                // loop invariants are not predicated), so they also hold after the loop.
                let tt = self.c.tt();
                let fw = self.function_wide_invariants(l, &[tt.clone(), tt])?;
                exit_invs.extend(fw.iter().cloned());
                user_invs.extend(fw);
            }
            let ctx = CandCtx {
                entry: &entry,
                en0: &en,
                steps: &steps_t,
                first_off: &first_off,
                next_off: &next_off,
            };
            let mut inv_terms = Vec::new();
            for cd in &cands {
                let t = self.inst(cd, &ctx, &h, &hp, &hx, &exit_blocks, Some(&entry))?;
                inv_terms.push(t);
            }
            let any = self.c.or(&hp[0], &hp[1]);
            let base_len = self.assumptions.len();
            for t in &inv_terms {
                self.assumptions.push(t.clone());
            }
            for (_, ut) in &user_invs {
                let u = self.inv_at(ut, &map);
                self.assumptions.push(u);
            }
            self.assumptions.push(any);
            self.inv_hits.clear();
            let outer_rec = if rounds == 1 && self.o.benign {
                self.val_rec.replace(HashMap::new())
            } else {
                self.val_rec.take()
            };
            let out = self.run_region_dead(l, hp.clone(), &dead);
            let val_rec = std::mem::replace(&mut self.val_rec, outer_rec);
            if let (Some(outer), Some(rec)) = (self.val_rec.as_mut(), val_rec.as_ref()) {
                // An enclosing loop's first round sees this loop's values too.
                for (key, vs) in rec {
                    let o = outer.entry(*key).or_default();
                    for v in vs {
                        if !o.contains(v) {
                            o.push(v.clone());
                        }
                    }
                }
            }
            let val_rec = if rounds == 1 { val_rec } else { None };
            let out = out?;
            // Values the loop's accesses log that do not change between iterations.
            if let Some(rec) = val_rec {
                for (key, vs) in rec {
                    if !log_keys.contains(&key) {
                        continue;
                    }
                    for v in vs
                        .into_iter()
                        .filter(|v| !mentions_fresh_after(v, mark))
                        .take(4)
                    {
                        new_cands.push(Cand::LogVal(key, v));
                    }
                }
            }
            // Back-edge state.
            let mut bx = hx.clone();
            for (b, e) in &out.exits {
                if let Some(i) = exit_blocks.iter().position(|x| x == b) {
                    bx[i] = [self.c.or(&bx[i][0], &e[0]), self.c.or(&bx[i][1], &e[1])];
                }
            }
            let bstate = self.st.clone();
            // User invariants (from the sink stores of the first round; the hit is
            // `p && !inv`). As GPUVerify's loop invariants, they hold for both threads
            // whether or not they run the loop (a thread that left it by a `break` keeps its
            // access log, which the invariant must still describe): the header predicates
            // are set to true in them, so they are also assumed after the loop. Not when
            // the kernel asks `__enabled()`, whose value is the predicate.
            if rounds == 1 {
                let unpredicated = !self.asks_enabled;
                let tt = self.c.tt();
                let hp_true = HashMap::from([(hp[0].clone(), tt.clone()), (hp[1].clone(), tt)]);
                for (pc, hit) in std::mem::take(&mut self.inv_hits) {
                    let hit = if unpredicated {
                        self.c.subst(&hit, &hp_true)
                    } else {
                        hit
                    };
                    let inv = self.c.not(&hit);
                    if unpredicated {
                        exit_invs.push((pc, inv.clone()));
                    }
                    user_invs.push((pc, inv));
                }
            }
            // Entry and preservation check of every candidate.
            let mut failing = BTreeSet::new();
            let pres_ctx_assump = self.assumptions.clone();
            self.assumptions.truncate(base_len);
            let entry_assump = entry_snap.1;
            let mut entry_ok_terms = Vec::new();
            let ff = self.c.ff();
            let x0 = vec![[ff.clone(), ff.clone()]; exit_blocks.len()];
            for cd in &cands {
                let t0 = self.inst(cd, &ctx, &entry, &en, &x0, &exit_blocks, Some(&entry))?;
                entry_ok_terms.push(t0);
            }
            let mut pres_terms = Vec::new();
            for cd in &cands {
                let t1 = self.inst(
                    cd,
                    &ctx,
                    &bstate,
                    &out.back,
                    &bx,
                    &exit_blocks,
                    Some(&entry),
                )?;
                pres_terms.push(t1);
            }
            // Houdini with counter-examples: drop every candidate the model falsifies.
            let ea: Vec<T> = self.assumptions[..entry_assump.min(self.assumptions.len())].to_vec();
            self.houdini_drop_each(&ea, &entry_ok_terms, &mut failing)?;
            self.houdini_drop(&pres_ctx_assump, &pres_terms, &mut failing)?;
            if std::env::var_os("WEFT_VERIFY_DEBUG").is_some() {
                for (i, c) in cands.iter().enumerate() {
                    if failing.contains(&i) {
                        eprintln!("houdini round {rounds}: drop {c:?}");
                    }
                }
            }
            if (failing.is_empty() && new_cands.is_empty()) || rounds > 40 {
                self.restore(&entry_snap);
                break;
            }
            let mut k = 0;
            cands.retain(|_| {
                let keep = !failing.contains(&k);
                k += 1;
                keep
            });
            // Candidates found in the first round join from the second on.
            cands.append(&mut new_cands);
        }
        // Final run with the inferred invariants: its checks are the loop's checks.
        self.restore(&entry_snap);
        // User invariants on entry: their first-round terms (over the first havocked
        // state) with the entry state in its place. A value the first round created
        // without a counterpart at entry (a fresh read) stays arbitrary: the check may fail
        // spuriously, never pass wrongly.
        if let Some((fh, fp)) = &first_h {
            let me = self.inv_map(fh, fp, &entry, &en);
            for (pc, ut) in &user_invs {
                let u = self.inv_at(ut, &me);
                let v = self.c.not(&u);
                self.add_check(
                    CheckKind::Invariant {
                        pc: *pc,
                        entry: true,
                    },
                    v,
                    vec![],
                );
            }
        }
        let (h, hp, hx) = self.havoc(&entry, &written, exit_blocks.len());
        let map2 = match &first_h {
            Some((fh, fp)) => self.inv_map(fh, fp, &h, &hp),
            None => InvMap::default(),
        };
        self.st = h.clone();
        let ctx = CandCtx {
            entry: &entry,
            en0: &en,
            steps: &steps_t,
            first_off: &first_off,
            next_off: &next_off,
        };
        let base_len = self.assumptions.len();
        for cd in &cands {
            let t = self.inst(cd, &ctx, &h, &hp, &hx, &exit_blocks, Some(&entry))?;
            self.assumptions.push(t);
        }
        // User invariants: checked on entry, assumed, checked on the back edge.
        let mut uinv_now = Vec::new();
        for (pc, ut) in &user_invs {
            let u = self.inv_at(ut, &map2);
            uinv_now.push((*pc, u));
        }
        let any = self.c.or(&hp[0], &hp[1]);
        self.assumptions.push(any);
        for (_, u) in &uinv_now {
            self.assumptions.push(u.clone());
        }
        self.inv_hits.clear();
        let out = self.run_region_dead(l, hp.clone(), &dead)?;
        self.inv_hits.clear();
        // User invariants on the back edge (preservation), as Houdini's candidates are.
        if let Some((fh, fp)) = &first_h {
            let st = self.st.clone();
            let mb = self.inv_map(fh, fp, &st, &out.back);
            for (pc, ut) in &user_invs {
                let u = self.inv_at(ut, &mb);
                let v = self.c.not(&u);
                self.add_check(
                    CheckKind::Invariant {
                        pc: *pc,
                        entry: false,
                    },
                    v,
                    vec![],
                );
            }
        }
        // The loop's own checks are kept; its assumptions end here.
        self.assumptions.truncate(base_len);
        self.restore_state_keep_checks(&entry);
        let (h2, hp2, hx2) = self.havoc(&entry, &written, exit_blocks.len());
        self.st = h2.clone();
        for cd in &cands {
            let t = self.inst(cd, &ctx, &h2, &hp2, &hx2, &exit_blocks, Some(&entry))?;
            self.assumptions.push(t);
        }
        if let Some((fh, fp)) = &first_h {
            let me = self.inv_map(fh, fp, &h2, &hp2);
            for (_, ut) in &exit_invs {
                let u = self.inv_at(ut, &me);
                self.assumptions.push(u);
            }
        }
        let n0 = self.c.not(&hp2[0]);
        let n1 = self.c.not(&hp2[1]);
        self.assumptions.push(n0);
        self.assumptions.push(n1);
        let _ = out;
        self.in_abstract -= 1;
        self.notes.push(format!(
            "loop at {} cut with {} inferred invariant(s) ({} Houdini round(s)){}",
            self.k.describe_pos(self.cfg.blocks[lp.header].start),
            cands.len(),
            rounds,
            if user_invs.is_empty() {
                String::new()
            } else {
                format!(" and {} user invariant(s)", user_invs.len())
            }
        ));
        Ok(exit_blocks
            .iter()
            .enumerate()
            .map(|(i, &b)| (b, hx2[i].clone()))
            .collect())
    }

    /// Whether the loop states a user invariant (`__invariant` in its condition): such a
    /// loop is cut with its invariants at once, as GPUVerify does, instead of being unrolled.
    fn loop_has_user_invariant(&self, l: usize) -> bool {
        if self.o.ignore_invariants {
            return false;
        }
        if !self.function_wide_of(l).is_empty() {
            return true;
        }
        self.cfg.loops[l].blocks.iter().any(|&b| {
            let blk = &self.cfg.blocks[b];
            (blk.start..blk.end).any(|pc| match &self.k.code[pc].op {
                KOp::St {
                    addr:
                        weft_ir::kernel::Addr {
                            base: AddrBase::Var(v),
                            ..
                        },
                    ..
                } => self
                    .k
                    .vars
                    .get(*v as usize)
                    .is_some_and(|x| x.name.contains(INVARIANT_SINK)),
                KOp::Annot { kind, .. } => {
                    matches!(kind, AnnotKind::Invariant | AnnotKind::GlobalInvariant)
                }
                _ => false,
            })
        })
    }

    /// The source line of loop `l`'s header (its first instruction with one).
    fn loop_line(&self, l: usize) -> Option<usize> {
        let blk = &self.cfg.blocks[self.cfg.loops[l].header];
        (blk.start..blk.end)
            .find_map(|pc| self.k.code[pc].loc.filter(|x| x.line > 0))
            .map(|x| x.line as usize)
    }

    /// The function-wide invariants that apply to loop `l`: those written in the function
    /// the loop's header stands in (the kernel or a called function, told by source line as
    /// for contracts; every one when a line is missing).
    fn function_wide_of(&self, l: usize) -> Vec<FunctionWide> {
        let ll = self.loop_line(l);
        self.function_wide
            .iter()
            .filter(|f| match (f.line, ll) {
                (Some(a), Some(b)) => {
                    let fa = self.o.contracts.callee_at(a as usize).map(|c| c.first);
                    let fb = self.o.contracts.callee_at(b).map(|c| c.first);
                    fa == fb
                }
                _ => true,
            })
            .cloned()
            .collect()
    }

    /// Each function-wide invariant of loop `l` evaluated in the current state with thread
    /// predicates `en`: (annotation pc, the invariant). The condition's code is run again
    /// here, forward and predicated, from `en` (`crate::function_wide`); a register it reads
    /// that has no value here yet and has a single pure definition is first computed from
    /// that definition. Nothing of the run is kept but the term: the state, assumptions and
    /// checks are restored. As for `__invariant`, the condition is instantiated for `t`
    /// only when it does not read the access history.
    fn function_wide_invariants(&mut self, l: usize, en: &[T; 2]) -> R<Vec<(usize, T)>> {
        let fws = self.function_wide_of(l);
        let mut out = Vec::new();
        for fw in fws {
            let snap = self.snapshot();
            let fwd = std::mem::take(&mut self.local_fwd);
            let nulls = self.null_cases.len();
            let r = self.eval_function_wide(&fw, en);
            self.restore(&snap);
            self.local_fwd = fwd;
            self.null_cases.truncate(nulls);
            out.push((fw.pc, r?));
        }
        Ok(out)
    }

    fn eval_function_wide(&mut self, fw: &FunctionWide, en: &[T; 2]) -> R<T> {
        let inputs = crate::function_wide::inputs(self.k, fw.start, fw.pc);
        for r in inputs {
            self.materialize(r, 0)?;
        }
        let ff = self.c.ff();
        let mut pend: HashMap<usize, [T; 2]> = HashMap::new();
        pend.insert(fw.start, en.clone());
        let add = |me: &mut Self, pend: &mut HashMap<usize, [T; 2]>, at: usize, e: [T; 2]| {
            let v = match pend.remove(&at) {
                Some(p) => [me.c.or(&p[0], &e[0]), me.c.or(&p[1], &e[1])],
                None => e,
            };
            pend.insert(at, v);
        };
        for pc in fw.start..fw.pc {
            let e = pend.remove(&pc).unwrap_or([ff.clone(), ff.clone()]);
            if self.cfg.block_of.get(pc).map(|&b| self.cfg.blocks[b].start) == Some(pc) {
                self.local_fwd.clear();
            }
            let i = &self.k.code[pc];
            match (&i.op, i.guard) {
                (KOp::Bra { target }, g) => {
                    let target = *target as usize;
                    let (taken, fall) = match g {
                        None => (e.clone(), [ff.clone(), ff.clone()]),
                        Some(g) => {
                            let mut tk = e.clone();
                            let mut fl = e.clone();
                            for th in 0..2 {
                                let v = self.reg_bool(th, g.reg.index());
                                let v = if g.negated { self.c.not(&v) } else { v };
                                let nv = self.c.not(&v);
                                tk[th] = self.c.and(&e[th], &v);
                                fl[th] = self.c.and(&e[th], &nv);
                            }
                            (tk, fl)
                        }
                    };
                    add(self, &mut pend, target, taken);
                    add(self, &mut pend, pc + 1, fall);
                }
                _ => {
                    self.instr(pc, &e)?;
                    add(self, &mut pend, pc + 1, e);
                }
            }
        }
        let e = pend.remove(&fw.pc).unwrap_or([ff.clone(), ff]);
        if self
            .cfg
            .block_of
            .get(fw.pc)
            .map(|&b| self.cfg.blocks[b].start)
            == Some(fw.pc)
        {
            self.local_fwd.clear();
        }
        let KOp::Annot { cond, .. } = &self.k.code[fw.pc].op else {
            return Err("function-wide invariant: not an annotation".into());
        };
        let cond = *cond;
        let viol = [0, 1].map(|th| {
            let v = self.operand(th, &cond, PRED);
            if th == 1 && mentions_log_query(&v) {
                return self.c.ff();
            }
            let v = self.truthy(&v);
            let nv = self.c.not(&v);
            self.c.and(&e[th], &nv)
        });
        let either = self.c.or(&viol[0], &viol[1]);
        Ok(self.c.not(&either))
    }

    /// Gives register `r` a value where it has none yet, from its single pure definition
    /// (its operands first, to a small depth); otherwise it stays as it is (an arbitrary
    /// value when read).
    fn materialize(&mut self, r: usize, depth: u32) -> R<()> {
        if depth > 16 || (self.st.regs[0][r].is_some() && self.st.regs[1][r].is_some()) {
            return Ok(());
        }
        let Some(pc) = self.pure_defs.get(r).copied().flatten() else {
            return Ok(());
        };
        for q in self.k.code[pc].uses() {
            self.materialize(q.index(), depth + 1)?;
        }
        let tt = self.c.tt();
        self.instr(pc, &[tt.clone(), tt])
    }

    fn loop_has_barrier(&self, l: usize) -> bool {
        self.cfg.loops[l].blocks.iter().any(|&b| {
            let blk = &self.cfg.blocks[b];
            (blk.start..blk.end).any(|pc| {
                matches!(
                    self.k.code[pc].op,
                    KOp::Barrier {
                        kind: BarrierKind::Sync,
                        ..
                    }
                )
            })
        })
    }

    fn restore_state_keep_checks(&mut self, s: &State) {
        self.st = s.clone();
    }

    /// Adds to `failing` the candidates (by index) that do not follow from `assum`.
    fn houdini_drop(&mut self, assum: &[T], terms: &[T], failing: &mut BTreeSet<usize>) -> R<()> {
        loop {
            let live: Vec<usize> = (0..terms.len())
                .filter(|i| !failing.contains(i) && !terms[*i].is_true())
                .collect();
            if live.is_empty() {
                return Ok(());
            }
            let lt: Vec<T> = live.iter().map(|&i| terms[i].clone()).collect();
            let all = self.c.and_all(&lt);
            let nall = self.c.not(&all);
            let mut parts = assum.to_vec();
            parts.push(nall);
            let q = self.c.and_all(&parts);
            match self.aux_ask_vals(&q, &lt)? {
                Answer::Unsat => return Ok(()),
                Answer::Sat(vals) => {
                    let mut dropped = false;
                    for (j, &i) in live.iter().enumerate() {
                        if vals.get(j).map(|v| v.1.as_str()) == Some("false") {
                            failing.insert(i);
                            dropped = true;
                        }
                    }
                    if !dropped {
                        if std::env::var_os("WEFT_VERIFY_DEBUG").is_some() {
                            eprintln!(
                                "houdini: model falsifies nothing: {:?}",
                                &vals[..vals.len().min(5)]
                            );
                        }
                        failing.extend(live);
                        return Ok(());
                    }
                }
                Answer::Unknown(why) => {
                    if std::env::var_os("WEFT_VERIFY_DEBUG").is_some() {
                        eprintln!("houdini: unknown: {why}");
                    }
                    failing.extend(live);
                    return Ok(());
                }
            }
        }
    }

    /// As `houdini_drop`, one candidate at a time: the assumptions are asserted once and
    /// each live candidate's negation is asked on top of them (`push`/`pop`), every model
    /// dropping all the candidates it falsifies. For the entry check, whose assumptions are
    /// small, this replaces one round per dropped candidate (z3's models of `!(c1 && ..)`
    /// usually falsify a single `ci`) by one cheap incremental query per candidate.
    fn houdini_drop_each(
        &mut self,
        assum: &[T],
        terms: &[T],
        failing: &mut BTreeSet<usize>,
    ) -> R<()> {
        let a = self.c.and_all(assum);
        if a.is_false() {
            return Ok(());
        }
        if self.aux_alone.is_none() {
            self.aux_alone = Some(self.o.start_solver()?);
        }
        let s = self.aux_alone.as_mut().unwrap();
        let mut p = Printer::new();
        let an = p.name(&a);
        let live: Vec<usize> = (0..terms.len())
            .filter(|i| !failing.contains(i) && !terms[*i].is_true())
            .collect();
        let names: Vec<String> = live.iter().map(|&i| p.name(&terms[i])).collect();
        let mut decls = p.take();
        decls.push_str(&format!("(assert {an})\n"));
        s.restart(&decls)?;
        let mut settled: BTreeSet<usize> = BTreeSet::new();
        for (j, &i) in live.iter().enumerate() {
            if failing.contains(&i) || settled.contains(&i) {
                continue;
            }
            // The candidates still open, by index in `live`.
            let open: Vec<usize> = (0..live.len())
                .filter(|&m| !failing.contains(&live[m]) && !settled.contains(&live[m]))
                .collect();
            let q = Query {
                formula: format!("(not {})", names[j]),
                values: open.iter().map(|&m| names[m].clone()).collect(),
            };
            match s.ask(&q)? {
                Answer::Unsat => {
                    settled.insert(i);
                }
                Answer::Sat(vals) => {
                    for (v, &m) in open.iter().enumerate() {
                        if vals.get(v).map(|x| x.1.as_str()) == Some("false") {
                            failing.insert(live[m]);
                        }
                    }
                    // The model falsifies the asked candidate; a solver that says
                    // otherwise loses it all the same.
                    failing.insert(i);
                }
                Answer::Unknown(_) => {
                    failing.insert(i);
                }
            }
        }
        Ok(())
    }

    fn aux_ask_vals(&mut self, q: &T, vals: &[T]) -> R<Answer> {
        if q.is_false() {
            return Ok(Answer::Unsat);
        }
        if self.aux_alone.is_none() {
            self.aux_alone = Some(self.o.start_solver()?);
        }
        let s = self.aux_alone.as_mut().unwrap();
        // A fresh printer declares exactly what this query needs.
        let mut p = Printer::with_equations();
        let name = p.name(q);
        let names: Vec<String> = vals.iter().map(|v| p.name(v)).collect();
        let decls = p.take();
        if let Some(f) = std::env::var_os("WEFT_VERIFY_DUMP") {
            use std::io::Write as _;
            if let Ok(mut fh) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(f)
            {
                let _ = write!(fh, "(reset)\n{decls}(assert {name})\n(check-sat)\n");
            }
        }
        s.ask_alone(
            &decls,
            &Query {
                formula: name,
                values: names,
            },
        )
    }

    #[allow(dead_code)]
    fn valid_under(&mut self, assum: &[T], f: &T) -> R<bool> {
        if f.is_true() {
            return Ok(true);
        }
        let mut parts = assum.to_vec();
        let nf = self.c.not(f);
        parts.push(nf);
        let q = self.c.and_all(&parts);
        Ok(matches!(self.aux_ask(&q)?, Answer::Unsat))
    }

    /// A havocked copy of `entry` for the loop's written registers, logs, memories.
    fn havoc(
        &mut self,
        entry: &State,
        written: &[usize],
        nexits: usize,
    ) -> (State, [T; 2], Vec<[T; 2]>) {
        let mut h = entry.clone();
        for th in 0..2 {
            for &r in written {
                let s = reg_sort(self.k.regs[r].ty);
                let v = self.c.fresh(&format!("h{}_{}", r, ["s", "t"][th]), s);
                // A pointer into one array stays a pointer into it: base + havocked offset.
                let v = match (self.facts.reg_bases.get(r), s) {
                    (Some(bs), Sort::Bv(64)) if bs.len() == 1 => {
                        let b = *bs.iter().next().unwrap();
                        let bt = match b {
                            Base::Param(p, o) => self.c.var(&format!("param{p}_{o}"), Sort::Bv(64)),
                            Base::Var(x) => self.c.var(&format!("base_v{x}"), Sort::Bv(64)),
                        };
                        self.c.add(&bt, &v)
                    }
                    _ => v,
                };
                h.regs[th][r] = Some(v);
            }
        }
        for (_, lg) in h.logs.iter_mut() {
            lg.has = self.c.fresh("has", Sort::Bool);
            lg.off = self.c.fresh("off", Sort::Bv(64));
            lg.size = self.c.fresh("size", Sort::Bv(64));
            lg.pc = self.c.fresh("pc", Sort::Bv(32));
            lg.val = self.c.fresh("val", Sort::Bv(64));
            lg.same = self.c.fresh("same", Sort::Bool);
        }
        for (_, m) in h.mem.iter_mut() {
            *m = self.c.fresh("mem", Sort::Mem);
        }
        for (_, u) in h.used.iter_mut() {
            *u = self.c.fresh("used", Sort::Used(32));
        }
        h.used_log.clear();
        h.own = [BTreeMap::new(), BTreeMap::new()];
        let p = [
            self.c.fresh("p_s", Sort::Bool),
            self.c.fresh("p_t", Sort::Bool),
        ];
        let x = (0..nexits)
            .map(|_| {
                [
                    self.c.fresh("x_s", Sort::Bool),
                    self.c.fresh("x_t", Sort::Bool),
                ]
            })
            .collect();
        (h, p, x)
    }
}

/// Maps the variables of one havoc to another's (to move user invariants between rounds).
/// How a user invariant over the first havocked loop state reads in another state `b`:
/// [`havoc_map`], and the membership in each used map of a repetition-free counter (read
/// by `__atomic_has_taken_value`) as the membership in `b`'s set: its root and the values
/// returned since ([`Ctx::expand_used`]).
#[derive(Default)]
struct InvMap {
    map: HashMap<T, T>,
    sets: HashMap<String, (T, Vec<[T; 3]>)>,
}

impl Exec<'_> {
    fn inv_map(&mut self, a: &State, ap: &[T; 2], b: &State, bp: &[T; 2]) -> InvMap {
        let map = havoc_map(a, ap, b, bp);
        let mut sets = HashMap::new();
        for (k, x) in &a.used {
            if let (Some(y), Some(f)) = (b.used.get(k), crate::term::used_fn(x)) {
                let list = b.used_log.get(k).cloned().unwrap_or_default();
                sets.insert(f, (y.clone(), list));
            }
        }
        InvMap { map, sets }
    }

    fn inv_at(&mut self, ut: &T, m: &InvMap) -> T {
        let u = self.c.subst(ut, &m.map);
        if m.sets.is_empty() {
            u
        } else {
            self.c.expand_used(&u, &m.sets)
        }
    }
}

fn havoc_map(a: &State, ap: &[T; 2], b: &State, bp: &[T; 2]) -> HashMap<T, T> {
    let mut m = HashMap::new();
    for th in 0..2 {
        for (x, y) in a.regs[th].iter().zip(&b.regs[th]) {
            if let (Some(x), Some(y)) = (x, y) {
                if x != y {
                    m.insert(x.clone(), y.clone());
                }
            }
        }
        m.insert(ap[th].clone(), bp[th].clone());
    }
    for (k, l) in &a.logs {
        if let Some(l2) = b.logs.get(k) {
            for (x, y) in [
                (&l.has, &l2.has),
                (&l.off, &l2.off),
                (&l.size, &l2.size),
                (&l.pc, &l2.pc),
            ] {
                m.insert(x.clone(), y.clone());
            }
        }
    }
    for (k, x) in &a.mem {
        if let Some(y) = b.mem.get(k) {
            m.insert(x.clone(), y.clone());
        }
    }
    m
}

/// Candidate invariant shapes (rules of GPUVerify's invariant generation: loop predicates,
/// uniformity, bounds against the entry value, strides of induction variables, access
/// patterns of the logs).
#[derive(Clone, Debug)]
enum Cand {
    PImpliesEn(usize),
    Covered(usize),
    ExitImpliesEn(usize, usize),
    ExitNotP(usize, usize),
    PUniform,
    PUniformBlock,
    RegUniform(usize),
    RegUniformEn(usize),
    /// r rel r0 (false) or r0 rel r (true).
    RegRel(usize, usize, Op, bool),
    RegStride(usize, usize, usize),
    /// `r < k` (false) or `r <= k` (true), unsigned, for a constant `k` the loop compares with,
    /// while the thread runs the loop.
    RegBound(usize, usize, u64, bool),
    LogNone((Base, Kind)),
    LogSame((Base, Kind)),
    /// The logged access's value is this loop-invariant term (the value every access of the
    /// log in the loop has), or the log holds its entry access (benign-race tolerance).
    LogVal((Base, Kind), T),
    LogStride((Base, Kind), usize, u64),
    /// The log holds its entry access or one of the loop's accesses.
    LogPc((Base, Kind), Vec<usize>),
    /// The logged access has this size (or is the entry access).
    LogSize((Base, Kind), u64),
    /// The logged offset is a multiple of this power of two (or is the entry access's):
    /// every access of the log in the loop is aligned to it (a naturally aligned element).
    LogAlign((Base, Kind), u64),
    /// Barriers in the loop keep the log empty for threads of one block.
    LogNoneSameBlock((Base, Kind)),
    /// Every access of the log in the loop is at `s`'s first offset (loop-invariant index).
    LogFirst((Base, Kind)),
    /// `s`'s offset lies in the slice from its first offset to the first offset the next
    /// thread (`tid.x + 1`) would have: GPUVerify's `ctimeslid`/`ctimesgid` access pattern,
    /// where thread `tid` owns `[tid*W, (tid+1)*W)` for a stride `W` that is not a loop step.
    LogSlice((Base, Kind)),
}

struct CandCtx<'x> {
    entry: &'x State,
    en0: &'x [T; 2],
    steps: &'x [[T; 2]],
    first_off: &'x HashMap<(Base, Kind), T>,
    /// The first offset with `s`'s `tid.x` replaced by `tid.x + 1`.
    next_off: &'x HashMap<(Base, Kind), T>,
}

impl Exec<'_> {
    #[allow(clippy::too_many_arguments)]
    fn inst(
        &mut self,
        cd: &Cand,
        cx: &CandCtx,
        st: &State,
        p: &[T; 2],
        x: &[[T; 2]],
        _exits: &[usize],
        _e: Option<&State>,
    ) -> R<T> {
        let c = &mut self.c;
        let reg = |st: &State, th: usize, r: usize, c: &mut Ctx, k: &Kernel| -> T {
            match &st.regs[th][r] {
                Some(v) => v.clone(),
                None => c.var(&format!("undef_r{}_{}", r, th), reg_sort(k.regs[r].ty)),
            }
        };
        Ok(match cd {
            Cand::PImpliesEn(th) => c.implies(&p[*th], &cx.en0[*th]),
            Cand::Covered(th) => {
                let mut a = p[*th].clone();
                for xe in x {
                    a = c.or(&a, &xe[*th]);
                }
                c.implies(&cx.en0[*th], &a)
            }
            Cand::ExitImpliesEn(i, th) => c.implies(&x[*i][*th], &cx.en0[*th]),
            Cand::ExitNotP(i, th) => {
                let both = c.and(&x[*i][*th], &p[*th]);
                c.not(&both)
            }
            Cand::PUniform => c.eq(&p[0], &p[1]),
            Cand::PUniformBlock => {
                let e = c.eq(&p[0], &p[1]);
                c.implies(&self.same_block, &e)
            }
            Cand::RegUniform(r) => {
                let a = reg(st, 0, *r, c, self.k);
                let b = reg(st, 1, *r, c, self.k);
                c.eq(&a, &b)
            }
            Cand::RegUniformEn(r) => {
                let a = reg(st, 0, *r, c, self.k);
                let b = reg(st, 1, *r, c, self.k);
                let e = c.eq(&a, &b);
                let both = c.and(&p[0], &p[1]);
                c.implies(&both, &e)
            }
            Cand::RegRel(r, th, op, flip) => {
                let a = reg(st, *th, *r, c, self.k);
                let b = reg(cx.entry, *th, *r, c, self.k);
                if *flip {
                    c.bin(op.clone(), &b, &a)
                } else {
                    c.bin(op.clone(), &a, &b)
                }
            }
            Cand::RegBound(r, th, k, le) => {
                let a = reg(st, *th, *r, c, self.k);
                match a.sort() {
                    Sort::Bv(w) if w >= 32 => {
                        // Where the thread still runs the loop (an exited thread keeps
                        // the value that failed the test).
                        let b = c.bv(w, *k);
                        let e = c.bin(if *le { Op::BvUle } else { Op::BvUlt }, &a, &b);
                        c.implies(&p[*th], &e)
                    }
                    _ => c.tt(),
                }
            }
            Cand::RegStride(r, th, si) => {
                let a = reg(st, *th, *r, c, self.k);
                let b = reg(cx.entry, *th, *r, c, self.k);
                let w = a.sort().width();
                let d = c.zext(w, &cx.steps[*si][*th]);
                let diff = c.sub(&a, &b);
                let m = c.bin(Op::BvUrem, &diff, &d);
                let z = c.bv(w, 0);
                c.eq(&m, &z)
            }
            Cand::LogNone(key) => match st.logs.get(key) {
                Some(l) => c.not(&l.has),
                None => c.tt(),
            },
            Cand::LogSame(key) => match (st.logs.get(key), cx.entry.logs.get(key)) {
                (Some(l), Some(l0)) => {
                    let e1 = c.eq(&l.off, &l0.off);
                    let e2 = c.eq(&l.size, &l0.size);
                    let e3 = c.eq(&l.pc, &l0.pc);
                    let e4 = c.eq(&l.val, &l0.val);
                    let e5 = c.eq(&l.same, &l0.same);
                    let all = c.and_all(&[l0.has.clone(), e1, e2, e3, e4, e5]);
                    c.implies(&l.has, &all)
                }
                _ => c.tt(),
            },
            Cand::LogVal(key, v) => match (st.logs.get(key), cx.entry.logs.get(key)) {
                (Some(l), Some(l0)) => {
                    let e = c.eq(&l.val, v);
                    logged_as_or_kept_by(c, l, l0, &e, |l| &l.val)
                }
                _ => c.tt(),
            },
            Cand::LogPc(key, pcs) => match (st.logs.get(key), cx.entry.logs.get(key)) {
                (Some(l), Some(l0)) => {
                    let e1 = c.eq(&l.pc, &l0.pc);
                    let e2 = c.eq(&l.off, &l0.off);
                    let e3 = c.eq(&l.size, &l0.size);
                    let mut any = c.and_all(&[l0.has.clone(), e1, e2, e3]);
                    for &pc in pcs {
                        let k = c.bv(32, pc as u64);
                        let e = c.eq(&l.pc, &k);
                        any = c.or(&any, &e);
                    }
                    c.implies(&l.has, &any)
                }
                _ => c.tt(),
            },
            Cand::LogNoneSameBlock(key) => match st.logs.get(key) {
                Some(l) => {
                    let n = c.not(&l.has);
                    c.implies(&self.same_block, &n)
                }
                None => c.tt(),
            },
            Cand::LogFirst(key) => match (
                st.logs.get(key),
                cx.entry.logs.get(key),
                cx.first_off.get(key),
            ) {
                (Some(l), Some(l0), Some(f)) => {
                    let e = c.eq(&l.off, f);
                    logged_as_or_kept(c, l, l0, &e)
                }
                _ => c.tt(),
            },
            Cand::LogSlice(key) => match (
                st.logs.get(key),
                cx.entry.logs.get(key),
                cx.first_off.get(key),
                cx.next_off.get(key),
            ) {
                (Some(l), Some(l0), Some(f), Some(g)) => {
                    let lo = c.bin(Op::BvUle, f, &l.off);
                    let hi = c.bin(Op::BvUlt, &l.off, g);
                    let e = c.and(&lo, &hi);
                    logged_as_or_kept(c, l, l0, &e)
                }
                _ => c.tt(),
            },
            Cand::LogSize(key, z) => match (st.logs.get(key), cx.entry.logs.get(key)) {
                (Some(l), Some(l0)) => {
                    let k = c.bv(64, *z);
                    let e = c.eq(&l.size, &k);
                    logged_as_or_kept_by(c, l, l0, &e, |l| &l.size)
                }
                _ => c.tt(),
            },
            Cand::LogAlign(key, a) => match (st.logs.get(key), cx.entry.logs.get(key)) {
                (Some(l), Some(l0)) => {
                    let m = c.bv(64, a - 1);
                    let low = c.bin(Op::BvAnd, &l.off, &m);
                    let z = c.bv(64, 0);
                    let e = c.eq(&low, &z);
                    logged_as_or_kept(c, l, l0, &e)
                }
                _ => c.tt(),
            },
            Cand::LogStride(key, si, sz) => match (st.logs.get(key), cx.entry.logs.get(key)) {
                (Some(l), Some(_)) => {
                    // s's offset is congruent to the offset s's first access would have.
                    let first = cx.first_off.get(key).cloned();
                    match first {
                        Some(f) => {
                            let d = c.zext(64, &cx.steps[*si][0]);
                            let szt = c.bv(64, *sz);
                            let m = c.bin(Op::BvMul, &d, &szt);
                            let diff = c.sub(&l.off, &f);
                            let r = c.bin(Op::BvUrem, &diff, &m);
                            let z = c.bv(64, 0);
                            let e = c.eq(&r, &z);
                            c.implies(&l.has, &e)
                        }
                        None => c.tt(),
                    }
                }
                _ => c.tt(),
            },
        })
    }
}

fn merge(c: &mut Ctx, v: &mut Vec<(usize, [T; 2])>, b: usize, e: [T; 2]) {
    if let Some(x) = v.iter_mut().find(|x| x.0 == b) {
        x.1 = [c.or(&x.1[0], &e[0]), c.or(&x.1[1], &e[1])];
    } else {
        v.push((b, e));
    }
}

/// Flow-insensitive base analysis: which bases each register may derive from; arrays that
/// may be accessed atomically; repetition-free arrays (paper 002 §4.3, Def. 4.1).
/// One operation on an array: `None` for a plain or atomic load/store, else the RMW and its
/// constant operand.
type ArrayOp = Option<(RmwOp, Option<u64>)>;

fn array_facts(k: &Kernel) -> ArrayFacts {
    let n = k.regs.len();
    let mut bases: Vec<BTreeSet<Base>> = vec![BTreeSet::new(); n];
    let opb = |o: &Operand, bases: &Vec<BTreeSet<Base>>| -> BTreeSet<Base> {
        match o {
            Operand::Reg(r) => bases[r.index()].clone(),
            Operand::VarAddr { var, .. } => BTreeSet::from([Base::Var(*var)]),
            _ => BTreeSet::new(),
        }
    };
    let mut changed = true;
    while changed {
        changed = false;
        for i in &k.code {
            let (dst, srcs): (Option<usize>, BTreeSet<Base>) = match &i.op {
                KOp::Mov { dst, src, .. }
                | KOp::Cvta { dst, src, .. }
                | KOp::Cvt { dst, src, .. } => (Some(dst.index()), opb(src, &bases)),
                // Only address arithmetic carries a base: a product, remainder or mask of a
                // parameter is an offset, not a pointer.
                KOp::Binary {
                    op: KBinOp::Add | KBinOp::Sub,
                    dst,
                    a,
                    b,
                    ..
                } => {
                    let mut s = opb(a, &bases);
                    s.extend(opb(b, &bases));
                    (Some(dst.index()), s)
                }
                KOp::Mad { dst, c, .. } => (Some(dst.index()), opb(c, &bases)),
                KOp::Selp { dst, a, b, .. } => {
                    let mut s = opb(a, &bases);
                    s.extend(opb(b, &bases));
                    (Some(dst.index()), s)
                }
                KOp::Ld { dst, addr, .. } => match addr.base {
                    AddrBase::Param(p) => {
                        let mut s = BTreeSet::new();
                        s.insert(Base::Param(p, addr.offset as u32));
                        (dst.first().copied().flatten().map(|r| r.index()), s)
                    }
                    _ => (None, BTreeSet::new()),
                },
                _ => (None, BTreeSet::new()),
            };
            if let Some(d) = dst {
                if d < n {
                    for b in srcs {
                        if bases[d].insert(b) {
                            changed = true;
                        }
                    }
                }
            }
        }
    }
    let addr_bases = |a: &weft_ir::kernel::Addr| -> BTreeSet<Base> {
        match a.base {
            AddrBase::Reg(r) => bases[r.index()].clone(),
            AddrBase::Var(v) => BTreeSet::from([Base::Var(v)]),
            _ => BTreeSet::new(),
        }
    };
    let mut f = ArrayFacts {
        reg_bases: bases.clone(),
        ..ArrayFacts::default()
    };
    // Per array: the set of operations touching it.
    let mut ops: BTreeMap<Base, Vec<ArrayOp>> = BTreeMap::new();
    // Arrays with an atomic load or store (they can reset a counter without racing).
    let mut atomic_ldst: BTreeSet<Base> = BTreeSet::new();
    for i in &k.code {
        match &i.op {
            KOp::Atom {
                op,
                addr,
                args,
                attrs,
                ..
            } => {
                let step = match args.first() {
                    Some(Operand::Imm(v)) => Some(*v),
                    _ => None,
                };
                if addr_bases(addr).is_empty() && attrs.space != Some(MemSpace::Local) {
                    f.atomic_unknown = true;
                }
                for b in addr_bases(addr) {
                    f.atomic.insert(b);
                    ops.entry(b).or_default().push(Some((*op, step)));
                    if attrs.space == Some(MemSpace::Shared) {
                        f.shared.insert(b);
                    }
                }
            }
            KOp::Ld { addr, attrs, .. } | KOp::St { addr, attrs, .. } => {
                if attrs.order.is_atomic()
                    && addr_bases(addr).is_empty()
                    && !matches!(attrs.space, Some(MemSpace::Local | MemSpace::Param))
                    && !matches!(addr.base, AddrBase::Param(_))
                {
                    f.atomic_unknown = true;
                }
                for b in addr_bases(addr) {
                    if attrs.order.is_atomic() {
                        f.atomic.insert(b);
                        atomic_ldst.insert(b);
                    }
                    ops.entry(b).or_default().push(None);
                    if attrs.space == Some(MemSpace::Shared) {
                        f.shared.insert(b);
                    }
                }
            }
            _ => {}
        }
    }
    for (b, v) in ops {
        f.pointers.insert(b);
        if let Base::Var(x) = b {
            if k.vars[x as usize].space == MemSpace::Shared {
                f.shared.insert(b);
            }
        }
        // Def. 4.1: one repetition-free function: increments by a positive constant (or
        // decrements), all through the same operation.
        // Relaxed for block-shared memory: plain (non-atomic) loads and stores may also touch
        // the array. A plain access and an atomic of one block in one barrier interval race
        // (reported), so in a race-free kernel every value the atomics return between two
        // barriers comes from increments only and is distinct; threads of different blocks
        // use different copies of the array. The `used` set restarts at each barrier
        // (`repfree_restart`), so values from before a plain store are not assumed distinct
        // from values after it (the `counter` pattern: one thread zeroes, barrier, increments).
        let plain = v.iter().any(|x| x.is_none());
        let relaxed = plain && f.shared.contains(&b) && !atomic_ldst.contains(&b);
        let rmw: Vec<ArrayOp> = if relaxed {
            v.iter().copied().filter(|x| x.is_some()).collect()
        } else {
            v.clone()
        };
        let first = rmw.first().copied().flatten();
        let ok = rmw.iter().all(|x| *x == first)
            && match first {
                Some((RmwOp::Add | RmwOp::Sub, Some(c))) => {
                    let c32 = c as u32 as i32;
                    c32 != 0
                }
                Some((RmwOp::Inc, Some(lim))) => lim as u32 == u32::MAX,
                _ => false,
            };
        if ok {
            f.repfree.insert(b);
            if relaxed {
                f.repfree_restart.insert(b);
            }
        }
    }
    f
}

// ---- instruction semantics ------------------------------------------------------------

/// One memory access of one thread, split by array.
/// The key of the memory of a shared array as seen by `t` when `t` runs in another block
/// than `s` (each block has its own copy; the equality abstraction holds it for `t` alone).
fn other_block(b: Base) -> Base {
    const OTHER: u32 = 1 << 31;
    match b {
        Base::Param(i, o) => Base::Param(i | OTHER, o),
        Base::Var(v) => Base::Var(v | OTHER),
    }
}

struct Piece {
    cond: T,
    base: Base,
    off: T,
}

impl Exec<'_> {
    fn reg(&mut self, th: usize, r: usize) -> T {
        if let Some(v) = &self.st.regs[th][r] {
            return v.clone();
        }
        let v = self.c.fresh(
            &format!(
                "undef_{}_{}",
                self.k.regs[r].name.trim_start_matches('%'),
                ["s", "t"][th]
            ),
            reg_sort(self.k.regs[r].ty),
        );
        self.st.regs[th][r] = Some(v.clone());
        v
    }

    fn reg_bool(&mut self, th: usize, r: usize) -> T {
        let v = self.reg(th, r);
        self.truthy(&v)
    }

    fn truthy(&mut self, v: &T) -> T {
        alu::truthy(&mut self.c, v)
    }

    /// Adapts a value to `w` bits (or Bool for predicates).
    fn fit(&mut self, v: &T, s: Sort) -> T {
        alu::fit(&mut self.c, v, s)
    }

    fn write(&mut self, th: usize, r: usize, v: T, en: &T) {
        let s = reg_sort(self.k.regs[r].ty);
        let v = self.fit(&v, s);
        // A register never written before holds no defined value: taking `v` on the
        // disabled path too is one of its possible values (and keeps addresses splittable).
        let mut en = en.clone();
        for (dead, p) in &self.dead_frames {
            if dead.contains(&r) {
                let out = self.c.not(&p[th]);
                en = self.c.or(&en, &out);
            }
        }
        let en = &en;
        let nv = if en.is_true() || self.st.regs[th][r].is_none() {
            v
        } else {
            let old = self.reg(th, r);
            self.c.ite(en, &v, &old)
        };
        self.st.regs[th][r] = Some(nv);
    }

    fn special(&mut self, th: usize, s: SpecialReg) -> T {
        let o = self.o;
        match s {
            SpecialReg::Tid(d) => self.tid[th][d.min(2) as usize].clone(),
            SpecialReg::Ctaid(d) => self.ctaid[th][d.min(2) as usize].clone(),
            SpecialReg::Ntid(d) => self.c.bv(32, o.block[d.min(2) as usize] as u64),
            SpecialReg::Nctaid(d) => self.c.bv(32, o.grid[d.min(2) as usize] as u64),
            SpecialReg::Laneid => self.lane[th].clone(),
            SpecialReg::Warpid => {
                let b = self.c.bv(32, o.block[0] as u64);
                let bxy = self.c.bv(32, (o.block[0] * o.block[1]) as u64);
                let y = self.c.bin(Op::BvMul, &self.tid[th][1].clone(), &b);
                let z = self.c.bin(Op::BvMul, &self.tid[th][2].clone(), &bxy);
                let a = self.c.add(&self.tid[th][0].clone(), &y);
                let lin = self.c.add(&a, &z);
                let ws = self.c.bv(32, o.warp_size.max(1) as u64);
                self.c.bin(Op::BvUdiv, &lin, &ws)
            }
            SpecialReg::Nwarpid => {
                let n = (o.block.iter().product::<u32>()).div_ceil(o.warp_size.max(1));
                self.c.bv(32, n as u64)
            }
            SpecialReg::Gridid => self.c.bv(32, 0),
            _ => self.c.fresh("sreg", Sort::Bv(32)),
        }
    }

    fn operand(&mut self, th: usize, o: &Operand, ty: DataType) -> T {
        let w = if ty.kind == TypeKind::Pred {
            1
        } else {
            u32::from(ty.bits).clamp(1, 64)
        };
        match o {
            Operand::Reg(r) => {
                let v = self.reg(th, r.index());
                alu::read_as(&mut self.c, &v, ty)
            }
            Operand::Imm(v) => {
                if ty.kind == TypeKind::Pred {
                    self.c.bool(*v != 0)
                } else {
                    self.c.bv(w, *v)
                }
            }
            Operand::Special(s) => {
                let v = self.special(th, *s);
                self.fit(&v, Sort::Bv(w))
            }
            Operand::VarAddr { var, offset } => {
                let b = self.c.var(&format!("base_v{var}"), Sort::Bv(64));
                let off = self.c.bv(64, *offset as u64);
                let a = self.c.add(&b, &off);
                self.fit(&a, Sort::Bv(w))
            }
        }
    }

    fn is_float(ty: DataType) -> bool {
        alu::is_float(ty)
    }

    fn uf(&mut self, name: &str, ty: DataType, args: &[T], s: Sort) -> T {
        alu::uf(&mut self.c, name, ty, args, s)
    }

    fn instr(&mut self, pc: usize, en: &[T; 2]) -> R<()> {
        let i = &self.k.code[pc];
        let en: [T; 2] = match i.guard {
            None => en.clone(),
            Some(g) => [0, 1].map(|th| {
                let v = self.reg_bool(th, g.reg.index());
                let v = if g.negated { self.c.not(&v) } else { v };
                self.c.and(&en[th], &v)
            }),
        };
        if en[0].is_false() && en[1].is_false() {
            return Ok(());
        }
        let op = i.op.clone();
        match &op {
            KOp::Mov { ty, dst, src } => {
                for th in 0..2 {
                    let v = self.operand(th, src, *ty);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Unary { op, ty, dst, a } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let v = alu::unary(&mut self.c, *op, *ty, &x);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Binary { op, ty, dst, a, b } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let y = self.operand(th, b, alu::binary_operand_type(*op, *ty));
                    let v = alu::binary(&mut self.c, *op, *ty, &x, &y);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Mad {
                mode,
                ty,
                dst,
                a,
                b,
                c,
            } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let y = self.operand(th, b, *ty);
                    let v = if Self::is_float(*ty) {
                        let z = self.operand(th, c, *ty);
                        let w = x.sort();
                        self.uf("fma", *ty, &[x, y, z], w)
                    } else {
                        let m = alu::binary(&mut self.c, *mode, *ty, &x, &y);
                        let z = self.operand(th, c, alu::mad_addend_type(*mode, *ty));
                        alu::mad_sum(&mut self.c, &m, &z)
                    };
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Setp {
                cmp,
                ty,
                dst,
                dst2,
                a,
                b,
                combine,
            } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let y = self.operand(th, b, *ty);
                    let mut v = alu::compare(&mut self.c, *cmp, *ty, &x, &y);
                    let mut v2 = self.c.not(&v);
                    if let Some((bop, p, neg)) = combine {
                        let q = self.operand(th, p, DataType::PRED);
                        let q = if *neg { self.c.not(&q) } else { q };
                        let comb = |c: &mut Ctx, a: &T| match bop {
                            weft_ir::kernel::KBoolOp::And => c.and(a, &q),
                            weft_ir::kernel::KBoolOp::Or => c.or(a, &q),
                            weft_ir::kernel::KBoolOp::Xor => {
                                let e = c.eq(a, &q);
                                c.not(&e)
                            }
                        };
                        v = comb(&mut self.c, &v);
                        v2 = comb(&mut self.c, &v2);
                    }
                    self.write(th, dst.index(), v, &en[th]);
                    if let Some(d2) = dst2 {
                        self.write(th, d2.index(), v2, &en[th]);
                    }
                }
            }
            KOp::Selp {
                ty,
                dst,
                a,
                b,
                pred,
            } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let y = self.operand(th, b, *ty);
                    let p = self.operand(th, pred, DataType::PRED);
                    let v = self.c.ite(&p, &x, &y);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Cvt {
                dst_ty,
                src_ty,
                dst,
                src,
                integral,
                sat,
                ..
            } => {
                for th in 0..2 {
                    let x = self.operand(th, src, *src_ty);
                    let v = alu::cvt(&mut self.c, *dst_ty, *src_ty, *integral, *sat, &x);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Cvta { dst, src, .. } => {
                for th in 0..2 {
                    let v = self.operand(th, src, DataType::U64);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Bfe {
                ty,
                dst,
                a,
                pos,
                len,
            } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let p = self.operand(th, pos, DataType::U32);
                    let l = self.operand(th, len, DataType::U32);
                    let s = x.sort();
                    let v = self.uf("bfe", *ty, &[x, p, l], s);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Bfi {
                ty,
                dst,
                a,
                b,
                pos,
                len,
            } => {
                for th in 0..2 {
                    let x = self.operand(th, a, *ty);
                    let y = self.operand(th, b, *ty);
                    let p = self.operand(th, pos, DataType::U32);
                    let l = self.operand(th, len, DataType::U32);
                    let s = x.sort();
                    let v = self.uf("bfi", *ty, &[x, y, p, l], s);
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Shf {
                left,
                wrap,
                dst,
                a,
                b,
                c,
            } => {
                for th in 0..2 {
                    let x = self.operand(th, a, DataType::B32);
                    let y = self.operand(th, b, DataType::B32);
                    let z = self.operand(th, c, DataType::U32);
                    let n = format!(
                        "shf.{}.{}",
                        if *left { "l" } else { "r" },
                        if *wrap { "wrap" } else { "clamp" }
                    );
                    let v = self.c.uf(&n, &[x, y, z], Sort::Bv(32));
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Prmt { dst, a, b, sel } => {
                for th in 0..2 {
                    let x = self.operand(th, a, DataType::B32);
                    let y = self.operand(th, b, DataType::B32);
                    let z = self.operand(th, sel, DataType::B32);
                    let v = self.c.uf("prmt", &[x, y, z], Sort::Bv(32));
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
            KOp::Ld {
                attrs,
                ty,
                dst,
                addr,
            } => {
                let space = attrs.space.unwrap_or(MemSpace::Generic);
                let bytes = (u64::from(ty.bits) / 8).max(1);
                let n = dst.len() as u64;
                let kind = if attrs.order.is_atomic() {
                    scope_kind(attrs.scope)
                } else {
                    Kind::Read
                };
                let vals = self.access(pc, &en, addr, space, kind, bytes * n, None)?;
                let dty = *ty;
                for th in 0..2 {
                    for (j, d) in dst.iter().enumerate() {
                        let Some(d) = d else { continue };
                        let v = match &vals {
                            Some(v) => {
                                let x = v[th].clone();
                                let lo = (j as u64 * bytes * 8) as u32;
                                let hi = lo + (bytes * 8) as u32 - 1;
                                if x.sort().width() > hi {
                                    self.c.extract(hi, lo, &x)
                                } else {
                                    x
                                }
                            }
                            None => self.c.fresh("rd", Sort::Bv((bytes * 8) as u32)),
                        };
                        let _ = dty;
                        self.write(th, d.index(), v, &en[th]);
                    }
                }
            }
            KOp::St {
                attrs,
                ty,
                src,
                addr,
            } => {
                let space = attrs.space.unwrap_or(MemSpace::Generic);
                let bytes = (u64::from(ty.bits) / 8).max(1);
                // Annotation sinks.
                if let Some(kind) = self.sink(addr) {
                    let ignored = match kind {
                        ASSERT_SINK => self.o.ignore_asserts,
                        FWD_RESET_SINK => false,
                        ASSUME_SINK | REQUIRES_SINK | ENSURES_SINK | GREQUIRES_SINK
                        | GENSURES_SINK | LINE_SINK | FRAME_SINK => self.o.ignore_assumes,
                        _ => self.o.ignore_invariants,
                    };
                    if ignored {
                        return Ok(());
                    }
                    if kind == GREQUIRES_SINK || kind == GENSURES_SINK || kind == FRAME_SINK {
                        let vals = [0, 1].map(|th| match src.first() {
                            Some(x) => self.operand(th, x, *ty),
                            None => self.c.bv(32, 1),
                        });
                        if kind == FRAME_SINK {
                            return self.global_annotation(pc, ASSUME_SINK, &en, vals);
                        }
                        return self.global_contract(pc, kind, &en, vals);
                    }
                    if kind == FWD_RESET_SINK {
                        self.st.own = [BTreeMap::new(), BTreeMap::new()];
                        return Ok(());
                    }
                    if kind == LINE_SINK {
                        self.contract_line =
                            src.first().and_then(|x| self.operand(0, x, *ty).as_bv());
                        return Ok(());
                    }
                    if kind == REQUIRES_SINK || kind == ENSURES_SINK {
                        let line = src.first().and_then(|x| self.operand(0, x, *ty).as_bv());
                        return match self.contract_sink(line, kind) {
                            Some(eff) => self.annotation(pc, eff, &en),
                            None => Ok(()),
                        };
                    }
                    return self.annotation(pc, kind, &en);
                }
                let kind = if attrs.order.is_atomic() {
                    scope_kind(attrs.scope)
                } else {
                    Kind::Write
                };
                let mut vals = Vec::new();
                for th in 0..2 {
                    let mut acc: Option<T> = None;
                    for s in src.iter() {
                        let v = self.operand(th, s, *ty);
                        acc = Some(match acc {
                            None => v,
                            Some(lo) => self.c.concat(&v, &lo),
                        });
                    }
                    vals.push(acc.unwrap_or_else(|| self.c.bv(8, 0)));
                }
                let vals = [vals[0].clone(), vals[1].clone()];
                self.access(
                    pc,
                    &en,
                    addr,
                    space,
                    kind,
                    bytes * src.len() as u64,
                    Some(vals),
                )?;
            }
            KOp::Atom {
                op,
                attrs,
                ty,
                dst,
                addr,
                ..
            } => {
                let space = attrs.space.unwrap_or(MemSpace::Generic);
                let bytes = (u64::from(ty.bits) / 8).max(1);
                let kind = scope_kind(attrs.scope);
                let z = self.atomic(pc, &en, addr, space, kind, bytes, *op)?;
                if let Some(d) = dst {
                    for th in 0..2 {
                        self.write(th, d.index(), z[th].clone(), &en[th]);
                    }
                }
            }
            KOp::Fence { .. } | KOp::Nop | KOp::Bra { .. } | KOp::Exit | KOp::Trap => {}
            // Device `printf` only reads memory (not an access of the race check) and its
            // result is arbitrary here; a failed device `assert` is treated as `trap` is.
            KOp::SysCall { dst, .. } => {
                if let Some(d) = dst {
                    let sort = reg_sort(self.k.regs[d.index()].ty);
                    for th in 0..2 {
                        let v = self.c.fresh(&format!("sys{pc}_{}", ["s", "t"][th]), sort);
                        self.write(th, d.index(), v, &en[th]);
                    }
                }
            }
            // GPUVerify annotations lowered by the kernel front-end (weft-cuda's
            // `weft_gpuverify.h`): the annotation is violated where it is enabled and its
            // condition is false, exactly what the sink stores of `weft_verify.h` express.
            KOp::Annot { kind, cond, .. } => {
                let sink = match kind {
                    AnnotKind::Assert | AnnotKind::GlobalAssert => Some(ASSERT_SINK),
                    AnnotKind::Assume
                    | AnnotKind::Requires
                    | AnnotKind::GlobalRequires
                    | AnnotKind::Axiom => Some(ASSUME_SINK),
                    AnnotKind::Invariant | AnnotKind::GlobalInvariant => Some(INVARIANT_SINK),
                    _ => None,
                };
                if let Some(sink) = sink {
                    let viol = [0, 1].map(|th| {
                        let v = self.operand(th, cond, PRED);
                        if th == 1 && mentions_log_query(&v) {
                            return self.c.ff();
                        }
                        let nv = self.c.not(&v);
                        self.c.and(&en[th], &nv)
                    });
                    self.annotation(pc, sink, &viol)?;
                }
            }
            // Two-thread predicates and uninterpreted values (`__read`, `__other_int`, ...):
            // an arbitrary value, which over-approximates what they may return.
            // The two-thread ones with a meaning in this encoding are interpreted
            // (GPUVerify's: `__enabled()` is the thread's predicate, `__other_int(x)` the
            // other thread's `x`, `__all(e)` / `__at_most_one(e)` over the pair).
            KOp::Query {
                kind,
                ty,
                dst,
                args,
            } => {
                let sort = reg_sort(*ty);
                let w = sort.width();
                for th in 0..2 {
                    let arg = |me: &mut Self, i: usize, who: usize| -> Option<T> {
                        args.get(i).map(|a| me.operand(who, a, DataType::B32))
                    };
                    let boolv = |me: &mut Self, b: T| -> T {
                        if sort == Sort::Bool {
                            return b;
                        }
                        let one = me.c.bv(w, 1);
                        let zero = me.c.bv(w, 0);
                        me.c.ite(&b, &one, &zero)
                    };
                    let nz = |me: &mut Self, x: T| -> T {
                        let z = me.c.bv(x.sort().width(), 0);
                        let e = me.c.eq(&x, &z);
                        me.c.not(&e)
                    };
                    let v = match kind {
                        QueryKind::Enabled => Some(boolv(self, en[th].clone())),
                        QueryKind::SameGroup => Some(boolv(self, self.same_block.clone())),
                        QueryKind::OtherInt => arg(self, 0, 1 - th).map(|x| self.fit(&x, sort)),
                        QueryKind::UniformInt | QueryKind::DistinctInt => {
                            match (arg(self, 0, 0), arg(self, 0, 1)) {
                                (Some(a), Some(b)) => {
                                    let e = self.c.eq(&a, &b);
                                    let e = if *kind == QueryKind::DistinctInt {
                                        self.c.not(&e)
                                    } else {
                                        e
                                    };
                                    Some(boolv(self, e))
                                }
                                _ => None,
                            }
                        }
                        QueryKind::All | QueryKind::AtMostOne => {
                            match (arg(self, 0, 0), arg(self, 0, 1)) {
                                (Some(a), Some(b)) => {
                                    let (a, b) = (nz(self, a), nz(self, b));
                                    let e = if *kind == QueryKind::All {
                                        // Every enabled thread of the pair holds `e`.
                                        let ia = self.c.not(&en[0]);
                                        let ia = self.c.or(&ia, &a);
                                        let ib = self.c.not(&en[1]);
                                        let ib = self.c.or(&ib, &b);
                                        self.c.and(&ia, &ib)
                                    } else {
                                        let ab =
                                            self.c.and_all(&[en[0].clone(), en[1].clone(), a, b]);
                                        self.c.not(&ab)
                                    };
                                    Some(boolv(self, e))
                                }
                                _ => None,
                            }
                        }
                        // Access-history predicates (GPUVerify's `__read(p)`, `__write(p)`,
                        // `__read_offset_bytes(p)`, ...) speak of the logged thread's
                        // accesses, as GPUVerify's `_READ_HAS_OCCURRED_` variables do: they
                        // read `s`'s logs. For `t` they stay arbitrary and carry a marker, so
                        // that an annotation over them is only instantiated for `s`.
                        QueryKind::Read
                        | QueryKind::Write
                        | QueryKind::Atomic
                        | QueryKind::ReadOffset
                        | QueryKind::WriteOffset
                            if th == 0 =>
                        {
                            self.log_query(*kind, args.first(), sort)
                        }
                        QueryKind::Read
                        | QueryKind::Write
                        | QueryKind::Atomic
                        | QueryKind::ReadOffset
                        | QueryKind::WriteOffset => Some(self.c.fresh(LOG_QUERY_T, sort)),
                        QueryKind::AtomicHasTakenValue => {
                            self.has_taken_value(th, args).map(|b| boolv(self, b))
                        }
                        // `__ptr_offset_bytes(p)`: the byte offset of `p` in its array.
                        QueryKind::PtrOffset => {
                            let a = args.first().map(|a| self.operand(th, a, DataType::B64));
                            let ps = a.and_then(|a| {
                                let a = self.fit(&a, Sort::Bv(64));
                                self.split(&a, 0)
                            });
                            match ps {
                                Some(ps) if !ps.is_empty() => {
                                    let mut acc = ps[ps.len() - 1].off.clone();
                                    for p in ps.iter().rev().skip(1) {
                                        acc = self.c.ite(&p.cond, &p.off, &acc);
                                    }
                                    Some(self.fit(&acc, sort))
                                }
                                _ => None,
                            }
                        }
                        _ => None,
                    };
                    let v = v.unwrap_or_else(|| {
                        self.c.fresh(&format!("q{pc}_{}", ["s", "t"][th]), sort)
                    });
                    if *kind == QueryKind::Enabled {
                        // `__enabled()` is false in a disabled thread: its value is the
                        // predicate itself, not the register's old value.
                        let s = reg_sort(self.k.regs[dst.index()].ty);
                        let v = self.fit(&v, s);
                        self.st.regs[th][dst.index()] = Some(v);
                    } else {
                        self.write(th, dst.index(), v, &en[th]);
                    }
                }
            }
            KOp::Barrier {
                kind, count, red, ..
            } => {
                // Own-write forwarding restarts at every barrier (see `OwnWrite`).
                self.st.own = [BTreeMap::new(), BTreeMap::new()];
                match kind {
                    BarrierKind::Sync => {
                        // Barrier divergence: both threads of one block must reach it together.
                        let diff = {
                            let e = self.c.eq(&en[0], &en[1]);
                            self.c.not(&e)
                        };
                        let v = self.c.and(&self.same_block, &diff);
                        if !self.o.no_barrier_checks {
                            self.add_check(CheckKind::BarrierDivergence { pc }, v, vec![]);
                        }
                        if count.is_none() {
                            let both = self.c.and(&en[0], &en[1]);
                            let r = self.c.and(&self.same_block, &both);
                            self.reset_logs(&r);
                            let keys: Vec<Base> = self.st.mem.keys().copied().collect();
                            for b in keys {
                                let m = self.c.fresh("mem", Sort::Mem);
                                self.st.mem.insert(b, m);
                            }
                            // Counters also set plainly: their values restart being distinct
                            // here (forgetting the values returned so far is always sound).
                            self.restart_plain_counters();
                        } else {
                            self.note_once("a barrier with a thread count is not treated as synchronising (sound, may report false races)");
                        }
                        if let Some((_, d, _, _)) = red {
                            let a = self.c.fresh("barred", Sort::Bv(32));
                            let b = self.c.fresh("barred", Sort::Bv(32));
                            let bt = self.c.ite(&self.same_block.clone(), &a, &b);
                            self.write(0, d.index(), a, &en[0]);
                            self.write(1, d.index(), bt, &en[1]);
                        }
                    }
                    BarrierKind::Warp => {
                        let both = self.c.and(&en[0], &en[1]);
                        let r = self.c.and(&self.same_warp_any.clone(), &both);
                        self.reset_logs(&r);
                        // A warp barrier orders a plain store before a warp's atomics too: the
                        // used sets of counters also set plainly restart here as well.
                        self.restart_plain_counters();
                    }
                    BarrierKind::Arrive => {}
                }
            }
            KOp::Shfl { dst, dst_pred, .. } => {
                for th in 0..2 {
                    let v = self.c.fresh("shfl", Sort::Bv(32));
                    self.write(th, dst.index(), v, &en[th]);
                    if let Some(p) = dst_pred {
                        let v = self.c.fresh("shflp", Sort::Bool);
                        self.write(th, p.index(), v, &en[th]);
                    }
                }
            }
            KOp::Vote { mode, dst, .. } => {
                let s = if *mode == VoteMode::Ballot {
                    Sort::Bv(32)
                } else {
                    Sort::Bool
                };
                let a = self.c.fresh("vote", s);
                let b = self.c.fresh("vote", s);
                let both = self.c.and(&en[0], &en[1]);
                let sw = self.c.and(&self.same_warp, &both);
                let bt = self.c.ite(&sw, &a, &b);
                self.write(0, dst.index(), a, &en[0]);
                self.write(1, dst.index(), bt, &en[1]);
            }
            // `match.sync`: arbitrary results, as for shuffles (sound: nothing is assumed of
            // the other lanes' values).
            KOp::Match { dst, dst_pred, .. } => {
                for th in 0..2 {
                    let v = self.c.fresh("match", Sort::Bv(32));
                    self.write(th, dst.index(), v, &en[th]);
                    if let Some(p) = dst_pred {
                        let v = self.c.fresh("matchp", Sort::Bool);
                        self.write(th, p.index(), v, &en[th]);
                    }
                }
            }
            KOp::Activemask { dst } => {
                for th in 0..2 {
                    let v = self.c.fresh("mask", Sort::Bv(32));
                    self.write(th, dst.index(), v, &en[th]);
                }
            }
        }
        Ok(())
    }

    /// `__atomic_has_taken_value(p, off, v)` (GPUVerify's predicate over its refined atomic
    /// abstraction, paper 002 §4.2-4.3): `v` is a value the atomics on the repetition-free
    /// counter `p[off]` (`off` in 32-bit elements) returned, i.e. is in its `used` set: the
    /// set at its last havoc or restart, or in the list of values returned since. A value
    /// of 2^32 or more never is. `None` (an arbitrary value) when the refinement is off or
    /// the address is not a repetition-free counter; a case of a pointer selected between
    /// arrays that is not one is arbitrary too. In a cut loop the set is the havocked one;
    /// [`InvMap`] reads an invariant over it in the entry and back-edge states.
    fn has_taken_value(&mut self, th: usize, args: &[Operand]) -> Option<T> {
        if !self.o.repetition_free || args.len() < 3 {
            return None;
        }
        let val = |me: &mut Self, i: usize| {
            let x = me.operand(th, &args[i], DataType::B64);
            me.fit(&x, Sort::Bv(64))
        };
        let p = val(self, 0);
        let off = val(self, 1);
        let v = val(self, 2);
        let four = self.c.bv(64, 4);
        let scaled = self.c.bin(Op::BvMul, &off, &four);
        let hi = self.c.extract(63, 32, &v);
        let z = self.c.bv(32, 0);
        let fits = self.c.eq(&hi, &z);
        let v32 = self.c.extract(31, 0, &v);
        let tt = self.c.tt();
        let mut cases = Vec::new();
        self.pointer_cases(&p, &tt, 0, &mut cases);
        let mut acc: Option<T> = None;
        let mut any_refined = false;
        for (cond, piece) in cases.into_iter().rev() {
            let refined = piece.as_ref().filter(|(b, _)| {
                self.facts.repfree.contains(b)
                    && !(self.o.lockstep && self.facts.repfree_restart.contains(b))
            });
            let m = match refined {
                Some((b, o)) => {
                    any_refined = true;
                    let root = match self.st.used.get(b) {
                        Some(u) => u.clone(),
                        None => self.c.empty_used(32),
                    };
                    let list = self.st.used_log.get(b).cloned().unwrap_or_default();
                    let o = self.c.add(o, &scaled);
                    let m = self.c.used_member(&root, &list, &o, &v32);
                    self.c.and(&fits, &m)
                }
                None => self.c.fresh("taken", Sort::Bool),
            };
            acc = Some(match acc {
                None => m,
                Some(prev) => self.c.ite(&cond, &m, &prev),
            });
        }
        acc.filter(|_| any_refined)
    }

    /// The cases of pointer `p`: (condition, array and byte offset), `None` for a case whose
    /// array cannot be told. Unlike [`Self::split`], a select between a pointer and a value
    /// without an array (a register a disabled thread did not update, in predicated code)
    /// keeps its pointer cases.
    fn pointer_cases(
        &mut self,
        p: &T,
        cond: &T,
        depth: u32,
        out: &mut Vec<(T, Option<(Base, T)>)>,
    ) {
        if let Some(ps) = self.split(p, 0) {
            for pc in ps {
                let c = self.c.and(cond, &pc.cond);
                out.push((c, Some((pc.base, pc.off))));
            }
            return;
        }
        if let Node::App(Op::Ite, x, _) = p.node() {
            if depth < 8 {
                let (c, l, r) = (x[0].clone(), x[1].clone(), x[2].clone());
                let cl = self.c.and(cond, &c);
                let nc = self.c.not(&c);
                let cr = self.c.and(cond, &nc);
                self.pointer_cases(&l, &cl, depth + 1, out);
                self.pointer_cases(&r, &cr, depth + 1, out);
                return;
            }
        }
        out.push((cond.clone(), None));
    }

    /// `s`'s access history of the array `p` points into (GPUVerify's `__read(p)`,
    /// `__write(p)`, `__atomic(p)` and the logged byte offsets): `None` where the pointer's
    /// array cannot be told (the query then stays arbitrary).
    fn log_query(&mut self, kind: QueryKind, arg: Option<&Operand>, sort: Sort) -> Option<T> {
        let a = self.operand(0, arg?, DataType::B64);
        let a = self.fit(&a, Sort::Bv(64));
        let offset = matches!(kind, QueryKind::ReadOffset | QueryKind::WriteOffset);
        let v = self.log_query_at(kind, &a, 0);
        Some(if offset {
            self.fit(&v, sort)
        } else if sort == Sort::Bool {
            v
        } else {
            let w = sort.width();
            let one = self.c.bv(w, 1);
            let zero = self.c.bv(w, 0);
            self.c.ite(&v, &one, &zero)
        })
    }

    /// [`Self::log_query`] on the address `a`: a Boolean (has the access occurred) or a
    /// 64-bit byte offset. A pointer selected between arrays (`c ? p : q`) is a case split;
    /// a case whose array cannot be told gives an arbitrary value.
    fn log_query_at(&mut self, kind: QueryKind, a: &T, depth: u32) -> T {
        let offset = matches!(kind, QueryKind::ReadOffset | QueryKind::WriteOffset);
        // A pointer parameter never used as an array base is a plain scalar here: its
        // array is never accessed.
        let unused = matches!(a.node(), Node::Var(n, _) if n.starts_with("sparam"));
        let pieces = if unused {
            Some(Vec::new())
        } else {
            self.split(a, 0)
        };
        let Some(pieces) = pieces else {
            if let Node::App(Op::Ite, x, _) = a.node() {
                if depth < 8 {
                    let (c, l, r) = (x[0].clone(), x[1].clone(), x[2].clone());
                    let vl = self.log_query_at(kind, &l, depth + 1);
                    let vr = self.log_query_at(kind, &r, depth + 1);
                    return self.c.ite(&c, &vl, &vr);
                }
            }
            let s = if offset { Sort::Bv(64) } else { Sort::Bool };
            return self.c.fresh("logq_s", s);
        };
        let kinds: &[Kind] = match kind {
            QueryKind::Read | QueryKind::ReadOffset => &[Kind::Read],
            QueryKind::Write | QueryKind::WriteOffset => &[Kind::Write],
            _ => &[Kind::Atomic, Kind::AtomicBlock],
        };
        let mut acc: Option<T> = None;
        for p in pieces.iter().rev() {
            let v = if offset {
                match self.st.logs.get(&(p.base, kinds[0])) {
                    Some(l) => l.off.clone(),
                    None => self.c.bv(64, 0),
                }
            } else {
                let hs: Vec<T> = kinds
                    .iter()
                    .filter_map(|k| self.st.logs.get(&(p.base, *k)).map(|l| l.has.clone()))
                    .collect();
                let h = self.c.or_all(&hs);
                self.c.and(&p.cond, &h)
            };
            acc = Some(match acc {
                None => v,
                Some(prev) if offset => self.c.ite(&p.cond, &v, &prev),
                Some(prev) => self.c.or(&v, &prev),
            });
        }
        match acc {
            Some(v) => v,
            None if offset => self.c.bv(64, 0),
            None => self.c.ff(),
        }
    }

    fn note_once(&mut self, s: &str) {
        if !self.notes.iter().any(|n| n == s) {
            self.notes.push(s.to_string());
        }
    }

    // ---- memory -------------------------------------------------------------------------

    /// The address of `addr` for thread `th` as a 64-bit term.
    fn address(&mut self, th: usize, addr: &weft_ir::kernel::Addr) -> R<T> {
        let off = self.c.bv(64, addr.offset as u64);
        let b = match addr.base {
            AddrBase::Reg(r) => {
                let v = self.reg(th, r.index());
                self.fit(&v, Sort::Bv(64))
            }
            AddrBase::Var(v) => self.c.var(&format!("base_v{v}"), Sort::Bv(64)),
            AddrBase::Param(p) => self.c.var(&format!("paddr{p}"), Sort::Bv(64)),
            AddrBase::Abs(a) => self.c.bv(64, a),
        };
        Ok(self.c.add(&b, &off))
    }

    /// Splits an address into (condition, array, offset) pieces.
    fn split(&mut self, t: &T, depth: u32) -> Option<Vec<Piece>> {
        if depth > 64 {
            return None;
        }
        if let Some(b) = base_of_var(t) {
            let z = self.c.bv(64, 0);
            let tt = self.c.tt();
            return Some(vec![Piece {
                cond: tt,
                base: b,
                off: z,
            }]);
        }
        match t.node() {
            Node::App(Op::BvAdd, a, _) => {
                let (x, y) = (a[0].clone(), a[1].clone());
                let bx = self.has_base(&x);
                let by = self.has_base(&y);
                match (bx, by) {
                    (true, false) => {
                        let ps = self.split(&x, depth + 1)?;
                        Some(
                            ps.into_iter()
                                .map(|p| Piece {
                                    off: self.c.add(&p.off, &y),
                                    ..p
                                })
                                .collect(),
                        )
                    }
                    (false, true) => {
                        let ps = self.split(&y, depth + 1)?;
                        Some(
                            ps.into_iter()
                                .map(|p| Piece {
                                    off: self.c.add(&p.off, &x),
                                    ..p
                                })
                                .collect(),
                        )
                    }
                    _ => None,
                }
            }
            Node::App(Op::BvSub, a, _) => {
                let (x, y) = (a[0].clone(), a[1].clone());
                if self.has_base(&y) {
                    return None;
                }
                let ps = self.split(&x, depth + 1)?;
                Some(
                    ps.into_iter()
                        .map(|p| Piece {
                            off: self.c.sub(&p.off, &y),
                            ..p
                        })
                        .collect(),
                )
            }
            Node::App(Op::Ite, a, _) => {
                let (c, x, y) = (a[0].clone(), a[1].clone(), a[2].clone());
                let px = self.split(&x, depth + 1)?;
                let py = self.split(&y, depth + 1)?;
                let nc = self.c.not(&c);
                let mut out = Vec::new();
                for p in px {
                    out.push(Piece {
                        cond: self.c.and(&c, &p.cond),
                        ..p
                    });
                }
                for p in py {
                    out.push(Piece {
                        cond: self.c.and(&nc, &p.cond),
                        ..p
                    });
                }
                // Merge pieces of the same array.
                let mut merged: Vec<Piece> = Vec::new();
                for p in out {
                    if let Some(m) = merged.iter_mut().find(|m| m.base == p.base) {
                        m.off = self.c.ite(&p.cond, &p.off, &m.off);
                        m.cond = self.c.or(&m.cond, &p.cond);
                    } else {
                        merged.push(p);
                    }
                }
                Some(merged)
            }
            _ => None,
        }
    }

    /// A pointer selected between an array and the null pointer (`r = c ? p : NULL`): the
    /// cases that are null (a small constant address) become a check that the access is
    /// not reached with them (GPUVerify reports null-pointer accesses); the others are split
    /// as usual. `None` if some case is neither.
    fn split_null(&mut self, th: usize, a: &T, pc: usize) -> Option<Vec<Piece>> {
        let mut null = self.c.ff();
        let tt = self.c.tt();
        let ps = self.split_null_rec(a, &tt, &mut null, 0)?;
        if !null.is_false() {
            self.null_cases.push((th, pc, null));
        }
        Some(ps)
    }

    fn split_null_rec(&mut self, a: &T, cond: &T, null: &mut T, depth: u32) -> Option<Vec<Piece>> {
        if depth > 16 {
            return None;
        }
        if let Some(v) = a.as_bv() {
            // Addresses below one page are no array's.
            if v < 4096 {
                *null = self.c.or(null, cond);
                return Some(Vec::new());
            }
            return None;
        }
        if null_provenance(a) {
            // `NULL + k` with a non-constant `k` (clang folds the null base away): an address
            // computed from thread and block ids, constants and the header's integer queries
            // only, never from a pointer, points into no array.
            *null = self.c.or(null, cond);
            return Some(Vec::new());
        }
        if let Node::App(Op::Ite, x, _) = a.node() {
            let (c, l, r) = (x[0].clone(), x[1].clone(), x[2].clone());
            let cl = self.c.and(cond, &c);
            let nc = self.c.not(&c);
            let cr = self.c.and(cond, &nc);
            let mut out = self.split_null_rec(&l, &cl, null, depth + 1)?;
            out.extend(self.split_null_rec(&r, &cr, null, depth + 1)?);
            return Some(out);
        }
        if let Node::App(Op::BvAdd, x, _) = a.node() {
            // `NULL + k` and `(c ? p : NULL) + k`.
            let (l, r) = (x[0].clone(), x[1].clone());
            let (inner, k) = if self.has_base(&r) || r.as_bv().is_none() && !self.has_base(&l) {
                (r, l)
            } else {
                (l, r)
            };
            if self.has_base(&k) {
                return None;
            }
            let mut n2 = self.c.ff();
            let ps = self.split_null_rec(&inner, cond, &mut n2, depth + 1)?;
            if !n2.is_false() {
                *null = self.c.or(null, &n2);
            }
            return Some(
                ps.into_iter()
                    .map(|p| Piece {
                        off: self.c.add(&p.off, &k),
                        ..p
                    })
                    .collect(),
            );
        }
        let ps = self.split(a, depth + 1)?;
        Some(
            ps.into_iter()
                .map(|p| Piece {
                    cond: self.c.and(cond, &p.cond),
                    ..p
                })
                .collect(),
        )
    }

    /// Reports the null cases [`Self::split_null`] found, where their thread is enabled.
    fn null_checks(&mut self, en: &[T; 2]) {
        for (th, pc, c) in std::mem::take(&mut self.null_cases) {
            let v = self.c.and(&en[th], &c);
            let what = "null-pointer access";
            self.add_check(CheckKind::Memory { pc, what }, v, vec![]);
        }
    }

    fn has_base(&self, t: &T) -> bool {
        let mut memo = HashMap::new();
        mentions(
            t,
            &|n: &str| n.starts_with("base_v") || n.starts_with("param"),
            &mut memo,
        )
    }

    /// `--check-array-bounds` (GPUVerify's flag): each thread's access of an array whose size
    /// is known (a `__shared__`/`__local`/`__device__` variable; pointer parameters have no
    /// size here) must lie inside it: `offset + bytes <= size`, offsets unsigned.
    fn bounds_checks(&mut self, pc: usize, en: &[T; 2], ps: &[Vec<Piece>; 2], bytes: u64) {
        for (th, pieces) in ps.iter().enumerate() {
            for p in pieces {
                let Base::Var(v) = p.base else { continue };
                let Some(var) = self.k.vars.get(v as usize) else {
                    continue;
                };
                if var.size == 0 || var.name.starts_with("__weft_") {
                    continue;
                }
                if var.size < bytes {
                    let e = self.c.and(&en[th], &p.cond);
                    self.add_check(CheckKind::Bounds { pc, array: p.base }, e, vec![]);
                    continue;
                }
                let lim = self.c.bv(64, var.size - bytes);
                let off = self.fit(&p.off, Sort::Bv(64));
                let out = self.c.ult(&lim, &off);
                let e = self.c.and_all(&[en[th].clone(), p.cond.clone(), out]);
                self.add_check(CheckKind::Bounds { pc, array: p.base }, e, vec![]);
            }
        }
    }

    /// An annotation sink store?
    fn sink(&mut self, addr: &weft_ir::kernel::Addr) -> Option<&'static str> {
        let name_of = |v: u32| self.k.vars.get(v as usize).map(|x| x.name.as_str());
        let var = match addr.base {
            AddrBase::Var(v) => Some(v),
            AddrBase::Reg(_) => {
                let a = self.address(0, addr).ok()?;
                match self.split(&a, 0) {
                    Some(ps) if ps.len() == 1 => match ps[0].base {
                        Base::Var(v) => Some(v),
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        }?;
        let n = name_of(var)?;
        [
            ASSERT_SINK,
            ASSUME_SINK,
            INVARIANT_SINK,
            REQUIRES_SINK,
            ENSURES_SINK,
            GREQUIRES_SINK,
            GENSURES_SINK,
            LINE_SINK,
            FWD_RESET_SINK,
            FRAME_SINK,
        ]
        .into_iter()
        .find(|s| n.contains(s))
    }

    /// The function other than a kernel whose body holds source `line` (of the kernel's
    /// file): whether it is a specification function whose postconditions may be assumed,
    /// and whether its body is a contract only; neither when it writes a frame
    /// (`__writes_to`, not modelled).
    fn callee_of(&self, line: Option<u64>) -> Option<(bool, bool)> {
        let line = usize::try_from(line?).ok()?;
        self.o
            .contracts
            .callee_at(line)
            .map(|c| (c.spec && !c.writes, c.contract_only && !c.writes))
    }

    /// What a contract annotation at source `line` means here (GPUVerify's modular contracts, with
    /// every call inlined): the sink it acts as (assert or assume), or `None` when it is not
    /// checked (a kernel's postcondition; a postcondition of a function with a body, which
    /// would have to be evaluated on return, not where it is written).
    fn contract_sink(&mut self, line: Option<u64>, sink: &str) -> Option<&'static str> {
        let callee = self.callee_of(line);
        let requires = sink == REQUIRES_SINK || sink == GREQUIRES_SINK;
        // A postcondition moved to the function's return (`contract::ensures_on_return`):
        // checked there; assuming it after the call would add nothing, the body is inlined.
        let on_return = line
            .and_then(|l| usize::try_from(l).ok())
            .and_then(|l| self.o.contracts.callee_at(l))
            .is_some_and(|c| c.ensures_on_return);
        if on_return && !requires {
            return Some(ASSERT_SINK);
        }
        match callee {
            None if requires => Some(ASSUME_SINK),
            None => None,
            Some(_) if requires => Some(ASSERT_SINK),
            Some((true, _)) => Some(ASSUME_SINK),
            Some((_, true)) => Some(ASSERT_SINK),
            Some(_) => {
                self.note_once("`__ensures` of a `__spec_` function with a `__writes_to` frame is not assumed (only its `__write_implies` bounds the frame's write), nor checked or assumed for a function with a body whose parameters cannot be named");
                None
            }
        }
    }

    /// A global contract (`__global_requires(e)`, `__global_ensures(e)`): `vals` are the
    /// two threads' `!e`, evaluated whether or not the thread makes the call (a register
    /// first written on a disabled path takes the computed value). When either thread
    /// reaches the annotation, both must satisfy it; `t`'s instance is dropped when it reads
    /// the access history (see [`Self::annotation`]).
    fn global_contract(&mut self, pc: usize, sink: &str, en: &[T; 2], vals: [T; 2]) -> R<()> {
        let line = self.contract_line.take();
        let Some(eff) = self.contract_sink(line, sink) else {
            return Ok(());
        };
        self.global_annotation(pc, eff, en, vals)
    }

    /// An unguarded annotation acting as `eff` (assert or assume): `vals` are the two
    /// threads' negated conditions; when either thread reaches it, both must satisfy it.
    fn global_annotation(&mut self, pc: usize, eff: &str, en: &[T; 2], vals: [T; 2]) -> R<()> {
        let viol = vals.map(|v| self.truthy(&v));
        let reached = self.c.or(&en[0], &en[1]);
        let v1 = if mentions_log_query(&viol[1]) {
            self.c.ff()
        } else {
            viol[1].clone()
        };
        let either = self.c.or(&viol[0], &v1);
        let v = self.c.and(&reached, &either);
        let ff = self.c.ff();
        self.annotation(pc, eff, &[v, ff])
    }

    fn annotation(&mut self, pc: usize, sink: &str, en: &[T; 2]) -> R<()> {
        // An annotation over `s`'s access history is instantiated for `s` only (sound: `s`
        // ranges over every thread; dropping `t`'s instance only weakens an assumption).
        if std::env::var_os("WEFT_VERIFY_DEBUG").is_some() {
            eprintln!("annot {sink}: {:?} / {:?}", en[0], en[1]);
        }
        let en1 = if mentions_log_query(&en[1]) {
            self.c.ff()
        } else {
            en[1].clone()
        };
        let either = self.c.or(&en[0], &en1);
        if sink == ASSERT_SINK {
            self.add_check(CheckKind::Assert { pc }, either, vec![]);
        } else if sink == ASSUME_SINK {
            let n = self.c.not(&either);
            self.assumptions.push(n);
        } else if self.in_abstract > 0 && self.first_off_rec.is_some() {
            // Probe of a loop being cut: the hit condition becomes a user invariant.
            self.inv_hits.push((pc, either));
        } else if self.in_abstract > 0 {
            self.inv_hits.push((pc, either.clone()));
            self.add_check(CheckKind::Invariant { pc, entry: false }, either, vec![]);
        } else {
            self.add_check(CheckKind::Invariant { pc, entry: false }, either, vec![]);
        }
        Ok(())
    }

    pub fn add_check(&mut self, kind: CheckKind, viol: T, values: Vec<(String, T)>) {
        if viol.is_false() {
            return;
        }
        let mut parts = self.assumptions.clone();
        parts.push(viol);
        let cond = self.c.and_all(&parts);
        if cond.is_false() {
            return;
        }
        self.checks.push(Check { kind, cond, values });
    }

    /// The used sets of repetition-free counters that are also set plainly restart empty (at a
    /// barrier that orders the plain store before the atomics; forgetting the values returned
    /// so far is always sound).
    fn restart_plain_counters(&mut self) {
        let restart: Vec<Base> = self.facts.repfree_restart.iter().copied().collect();
        for b in restart {
            if self.st.used.contains_key(&b) {
                let e = self.c.empty_used(32);
                self.st.used.insert(b, e);
                self.st.used_log.remove(&b);
            }
        }
    }

    fn reset_logs(&mut self, when: &T) {
        if when.is_false() {
            return;
        }
        let n = self.c.not(when);
        let keys: Vec<(Base, Kind)> = self.st.logs.keys().copied().collect();
        for k in keys {
            let l = self.st.logs.get_mut(&k).unwrap();
            let h = l.has.clone();
            let nh = self.c.and(&h, &n);
            self.st.logs.get_mut(&k).unwrap().has = nh;
        }
    }

    /// Re-sync (paper 002 §3.1): threads of one warp re-synchronise whenever both are enabled.
    fn warp_reset(&mut self, en: &[T; 2]) {
        if self.same_warp.is_false() {
            return;
        }
        let both = self.c.and(&en[0], &en[1]);
        let r = self.c.and(&self.same_warp.clone(), &both);
        self.reset_logs(&r);
    }

    /// Re-sync limited to the logs of the arrays an instruction accesses (paper 002 §3.1
    /// resets the accessed array's sets; resetting fewer logs only keeps more to check).
    fn warp_reset_arrays(&mut self, en: &[T; 2], bases: &[Base]) {
        if self.same_warp.is_false() {
            return;
        }
        let both = self.c.and(&en[0], &en[1]);
        let r = self.c.and(&self.same_warp.clone(), &both);
        if r.is_false() {
            return;
        }
        let n = self.c.not(&r);
        let keys: Vec<(Base, Kind)> = self
            .st
            .logs
            .keys()
            .filter(|k| bases.contains(&k.0))
            .copied()
            .collect();
        for k in keys {
            let h = self.st.logs[&k].has.clone();
            let nh = self.c.and(&h, &n);
            if let Some(l) = self.st.logs.get_mut(&k) {
                l.has = nh;
            }
        }
    }

    fn is_shared(&self, b: Base, space: MemSpace) -> bool {
        space == MemSpace::Shared || self.facts.shared.contains(&b)
    }

    fn pieces(&mut self, th: usize, addr: &weft_ir::kernel::Addr, pc: usize) -> R<Vec<Piece>> {
        let a = self.address(th, addr)?;
        match self.split(&a, 0).or_else(|| self.split_null(th, &a, pc)) {
            Some(p) => Ok(p),
            None => Err(format!(
                "{}: unsupported: cannot tell which array this address points into (a pointer read from memory or computed from several arrays){}",
                self.k.describe_pos(pc),
                if std::env::var_os("WEFT_VERIFY_DEBUG").is_some() { format!(" [{:?}]", a) } else { String::new() }
            )),
        }
    }

    fn skip_space(&self, base: Base, space: MemSpace) -> bool {
        if matches!(
            space,
            MemSpace::Local | MemSpace::Param | MemSpace::Constant
        ) {
            return true;
        }
        if let Base::Var(v) = base {
            let sp = self.k.vars[v as usize].space;
            return matches!(sp, MemSpace::Local | MemSpace::Constant | MemSpace::Param);
        }
        false
    }

    /// A plain or atomic load/store by both threads: log `s`, check `t` (paper 002 §4.1),
    /// then the values read under the array's abstraction. Returns the values read.
    #[allow(clippy::too_many_arguments)]
    fn access(
        &mut self,
        pc: usize,
        en: &[T; 2],
        addr: &weft_ir::kernel::Addr,
        space: MemSpace,
        kind: Kind,
        size: u64,
        store: Option<[T; 2]>,
    ) -> R<Option<[T; 2]>> {
        if space == MemSpace::Param || matches!(addr.base, AddrBase::Param(_)) {
            // Kernel parameters: uniform values.
            if let AddrBase::Param(p) = addr.base {
                let is_ptr = self
                    .facts
                    .pointers
                    .contains(&Base::Param(p, addr.offset as u32));
                let w = (size * 8).min(64) as u32;
                let v = if is_ptr {
                    let v = self
                        .c
                        .var(&format!("param{}_{}", p, addr.offset), Sort::Bv(64));
                    self.fit(&v, Sort::Bv(w))
                } else {
                    self.c
                        .var(&format!("sparam{}_{}", p, addr.offset), Sort::Bv(w))
                };
                return Ok(Some([v.clone(), v]));
            }
            return Ok(None);
        }
        let is_local =
            |me: &Self, v: u32| me.k.vars.get(v as usize).map(|x| x.space) == Some(MemSpace::Local);
        let local_cell = match addr.base {
            AddrBase::Var(v) if is_local(self, v) => Some((v, addr.offset)),
            // A generic or `.local` address computed from a local variable (`cvta.local` of
            // the stack depot) at a constant offset.
            AddrBase::Reg(_) if matches!(space, MemSpace::Local | MemSpace::Generic) => {
                let a = self.address(0, addr)?;
                match self.split(&a, 0) {
                    Some(ps) if ps.len() == 1 && ps[0].cond.is_true() => match ps[0].base {
                        Base::Var(v) if is_local(self, v) => {
                            ps[0].off.as_bv().map(|o| (v, o as i64))
                        }
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        };
        let local_var = local_cell.map(|c| c.0);
        let cell_off = local_cell.map(|c| c.1).unwrap_or(addr.offset);
        if store.is_some()
            && local_var.is_none()
            && !matches!(space, MemSpace::Global | MemSpace::Shared)
        {
            // A store through a computed generic address may hit a forwarded cell (one to
            // `.global` or `.shared` memory cannot: those are not thread-private memory).
            self.local_fwd.clear();
        }
        if matches!(space, MemSpace::Local) || local_var.is_some() {
            // Thread-private memory: block-local store-to-load forwarding at constant
            // offsets (each thread's own value), otherwise an arbitrary value.
            let Some(v) = local_var else {
                self.local_fwd.clear();
                return Ok(None);
            };
            let key = (v, cell_off, size);
            return Ok(match store {
                Some(vals) => {
                    // A thread's store to its stack (`__local_depot`) happens only where
                    // it is enabled: elsewhere the cell keeps its forwarded value, or an
                    // arbitrary one. Addresses are kept as stored (a disabled thread never
                    // uses them; they stay splittable), and so are call-sequence variables
                    // (a call's arguments and results, as registers are).
                    let old = self.local_fwd.get(&key).cloned();
                    let stack = self
                        .k
                        .vars
                        .get(v as usize)
                        .is_some_and(|x| x.name.contains("__local_depot"));
                    let vals = [0, 1].map(|th| {
                        let new = vals[th].clone();
                        if !stack || en[th].is_true() || self.split(&new, 0).is_some() {
                            return new;
                        }
                        let keep = match &old {
                            Some(o) => o[th].clone(),
                            None => self.c.fresh("loc", new.sort()),
                        };
                        self.c.ite(&en[th], &new, &keep)
                    });
                    // A store may overlap other cells of the variable: forget them.
                    let end = cell_off + size as i64;
                    self.local_fwd
                        .retain(|k, _| k.0 != v || k.1 + k.2 as i64 <= cell_off || end <= k.1);
                    self.local_fwd.insert(key, vals);
                    None
                }
                None => {
                    // The cell stored, or bytes inside one (little-endian).
                    let hit = self
                        .local_fwd
                        .iter()
                        .find(|(k, _)| {
                            k.0 == v
                                && k.1 <= cell_off
                                && cell_off + size as i64 <= k.1 + k.2 as i64
                        })
                        .map(|(k, vals)| (k.1, vals.clone()));
                    let lo_hi = |off: i64| {
                        let lo = ((cell_off - off) * 8) as u32;
                        (lo, lo + (size * 8) as u32 - 1)
                    };
                    hit.filter(|(off, vals)| vals.iter().all(|x| x.sort().width() > lo_hi(*off).1))
                        .map(|(off, vals)| {
                            let (lo, hi) = lo_hi(off);
                            vals.map(|x| {
                                if x.sort().width() > hi + 1 || lo > 0 {
                                    self.c.extract(hi, lo, &x)
                                } else {
                                    x
                                }
                            })
                        })
                }
            });
        }
        let ps0 = [self.pieces(0, addr, pc)?, self.pieces(1, addr, pc)?];
        self.null_checks(en);
        if self.o.check_array_bounds {
            self.bounds_checks(pc, en, &ps0, size);
        }
        let touched: Vec<Base> = ps0.iter().flatten().map(|p| p.base).collect();
        self.warp_reset_arrays(en, &touched);
        let ps = ps0;
        if ps[0]
            .iter()
            .chain(ps[1].iter())
            .all(|p| self.skip_space(p.base, space))
        {
            if space == MemSpace::Constant || ps[0].iter().all(|p| matches!(p.base, Base::Var(v) if self.k.vars[v as usize].space == MemSpace::Constant)) {
                if store.is_some() {
                    let v = self.c.or(&en[0], &en[1]);
                    let what = "write to constant memory";
                    self.add_check(CheckKind::Memory { pc, what }, v, vec![]);
                }
                // Read-only: a function of the address.
                let mut vals = Vec::new();
                for th in 0..2 {
                    let a = self.address(th, addr)?;
                    vals.push(self.c.uf("const_mem", &[a], Sort::Bv((size * 8).min(64) as u32)));
                }
                return Ok(Some([vals[0].clone(), vals[1].clone()]));
            }
            return Ok(None);
        }
        // Values read, under the array's abstraction.
        let w = (size * 8).min(64) as u32;
        let mut vals: Vec<T> = Vec::new();
        for th in 0..2 {
            let mut v = self.c.fresh("rd", Sort::Bv(w));
            if store.is_none() {
                // Equality abstraction for arrays never accessed atomically.
                for p in ps[th].iter().rev() {
                    if self.o.equality && !self.facts.atomic.contains(&p.base) && !kind.atomic() {
                        let m = self.mem_of(p.base);
                        let mut x = self.read_bytes(&m, &p.off, size.min(8));
                        if th == 1 && self.is_shared(p.base, space) {
                            // `t` in another block reads its own block's copy.
                            let mo = self.mem_of(other_block(p.base));
                            let f = self.read_bytes(&mo, &p.off, size.min(8));
                            x = self.c.ite(&self.same_block.clone(), &x, &f);
                        }
                        v = self.c.ite(&p.cond, &x, &v);
                    } else if !kind.atomic() && self.own_forwards(p.base, space) {
                        // Adversarial abstraction: the thread's own last write of these
                        // bytes in this barrier interval, if any.
                        let x = self.own_read(th, p.base, &p.off, size);
                        v = self.c.ite(&p.cond, &x, &v);
                    }
                }
            }
            vals.push(v);
        }
        // What the benign-race tolerance compares: each thread's value (read or written),
        // and whether `s`'s write leaves its bytes as the equality abstraction holds them.
        let benign = if self.o.benign && !kind.atomic() {
            let mut v64 = Vec::new();
            for th in 0..2 {
                let v = match &store {
                    Some(sv) if size <= 8 => {
                        let x = self.fit(&sv[th], Sort::Bv((size * 8) as u32));
                        self.c.zext(64, &x)
                    }
                    None if size <= 8 => self.c.zext(64, &vals[th]),
                    _ => self.c.fresh("val", Sort::Bv(64)),
                };
                v64.push(v);
            }
            let mut same = Vec::new();
            for p in &ps[0] {
                let f = match &store {
                    Some(sv)
                        if size <= 8 && self.o.equality && !self.facts.atomic.contains(&p.base) =>
                    {
                        let m = self.mem_of(p.base);
                        let old = self.read_bytes(&m, &p.off, size);
                        let x = self.fit(&sv[0], Sort::Bv((size * 8) as u32));
                        self.c.eq(&old, &x)
                    }
                    _ => self.c.ff(),
                };
                same.push(f);
            }
            Some(([v64[0].clone(), v64[1].clone()], same))
        } else {
            None
        };
        self.log_s_check_t(&ps, en, space, kind, size, pc, benign.as_ref());
        // Re-sync after the instruction (paper 002 §3.1).
        self.warp_reset_arrays(en, &touched);
        if let Some(sv) = &store {
            self.own_record_store(en, &ps, space, kind, size, sv);
            // The bytes each thread writes, applied to the array's memory.
            let mut writes: Vec<(Base, T, T, T)> = Vec::new();
            for th in 0..2 {
                for p in &ps[th] {
                    if self.o.equality && !self.facts.atomic.contains(&p.base) {
                        let v = self.fit(&sv[th], Sort::Bv(w));
                        let e = self.c.and(&en[th], &p.cond);
                        if th == 1 && self.is_shared(p.base, space) {
                            // `t` in another block writes its own block's copy.
                            let sb = self.same_block.clone();
                            let nsb = self.c.not(&sb);
                            let e_same = self.c.and(&e, &sb);
                            let e_other = self.c.and(&e, &nsb);
                            writes.push((p.base, p.off.clone(), v.clone(), e_same));
                            writes.push((other_block(p.base), p.off.clone(), v, e_other));
                        } else {
                            writes.push((p.base, p.off.clone(), v, e));
                        }
                    }
                }
            }
            let apply = |x: &mut Self, writes: &[(Base, T, T, T)]| {
                for (b, off, v, e) in writes {
                    let m = x.mem_of(*b);
                    let nm = x.write_bytes(&m, off, v, size.min(8));
                    let r = x.c.ite(e, &nm, &m);
                    x.st.mem.insert(*b, r);
                }
            };
            apply(self, &writes);
            if self.o.lockstep && !writes.is_empty() {
                // Paper 002 §3.3: the other threads of the warp wrote the array too, so it
                // is havocked. Refined: none of them wrote the bytes `s` or `t` just wrote
                // (that would be a write-write race in one instruction, which the check
                // above reports for that pair), so those bytes keep `s`'s and `t`'s values.
                let bases: BTreeSet<Base> = writes.iter().map(|x| x.0).collect();
                for b in bases {
                    let f = self.c.fresh("mem", Sort::Mem);
                    self.st.mem.insert(b, f);
                }
                apply(self, &writes);
            }
        }
        Ok(Some([vals[0].clone(), vals[1].clone()]))
    }

    /// Whether reads of array `b` forward the thread's own writes (see [`OwnWrite`]).
    fn own_forwards(&self, b: Base, space: MemSpace) -> bool {
        // Under `--only-intra-group` only block-shared arrays (another block's write of
        // global memory is not checked).
        let checked_across_blocks = !self.o.only_intra_group || self.is_shared(b, space);
        self.own_fwd && !self.facts.atomic.contains(&b) && checked_across_blocks
    }

    /// Thread `th`'s read of `size` bytes at `off` in `b`: the value of its last own write of
    /// exactly these bytes (same offset, same width) when no later own write overlapped them,
    /// else a fresh value. An `ite` over the recorded writes, newest outermost.
    fn own_read(&mut self, th: usize, b: Base, off: &T, size: u64) -> T {
        let w = (size * 8).min(64) as u32;
        let fresh = self.c.fresh("rd", Sort::Bv(w));
        let Some(ws) = self.st.own[th].get(&b).cloned() else {
            return fresh;
        };
        if size > 8 {
            return fresh;
        }
        let sz = self.c.bv(64, size);
        let mut v = fresh.clone();
        for ow in &ws {
            let osz = self.c.bv(64, ow.size);
            let d1 = self.c.sub(off, &ow.off);
            let d2 = self.c.sub(&ow.off, off);
            let o1 = self.c.ult(&d1, &osz);
            let o2 = self.c.ult(&d2, &sz);
            let overlap = self.c.or(&o1, &o2);
            let hit_any = self.c.and(&ow.en, &overlap);
            // Any overlap other than an exact match leaves the bytes unknown.
            v = self.c.ite(&hit_any, &fresh, &v);
            if let (Some(val), true) = (&ow.val, ow.size == size) {
                if val.sort() == Sort::Bv(w) {
                    let same = self.c.eq(off, &ow.off);
                    let exact = self.c.and(&ow.en, &same);
                    v = self.c.ite(&exact, val, &v);
                }
            }
        }
        v
    }

    /// Records both threads' own writes of a store (or forgets what they may overlap).
    #[allow(clippy::too_many_arguments)]
    fn own_record_store(
        &mut self,
        en: &[T; 2],
        ps: &[Vec<Piece>; 2],
        space: MemSpace,
        kind: Kind,
        size: u64,
        sv: &[T; 2],
    ) {
        if !self.own_fwd {
            return;
        }
        if self.o.lockstep {
            // Lock-step warps: the other lanes' stores at later instructions do not race.
            self.st.own = [BTreeMap::new(), BTreeMap::new()];
        }
        let w = (size * 8).min(64) as u32;
        for th in 0..2 {
            for p in &ps[th] {
                if !self.own_forwards(p.base, space) {
                    continue;
                }
                let e = self.c.and(&en[th], &p.cond);
                if e.is_false() {
                    continue;
                }
                let val = if kind.atomic() || size > 8 {
                    None
                } else {
                    Some(self.fit(&sv[th], Sort::Bv(w)))
                };
                let list = self.st.own[th].entry(p.base).or_default();
                list.push(OwnWrite {
                    en: e,
                    off: p.off.clone(),
                    size,
                    val,
                });
                if list.len() > OWN_WRITES_MAX {
                    list.remove(0);
                }
            }
        }
    }

    fn mem_of(&mut self, b: Base) -> T {
        if let Some(m) = self.st.mem.get(&b) {
            return m.clone();
        }
        let m = self.c.fresh("mem", Sort::Mem);
        self.st.mem.insert(b, m.clone());
        m
    }

    fn read_bytes(&mut self, m: &T, off: &T, n: u64) -> T {
        let mut acc: Option<T> = None;
        for i in 0..n {
            let k = self.c.bv(64, i);
            let a = self.c.add(off, &k);
            let byte = self.c.select(m, &a);
            acc = Some(match acc {
                None => byte,
                Some(lo) => self.c.concat(&byte, &lo),
            });
        }
        acc.unwrap()
    }

    fn write_bytes(&mut self, m: &T, off: &T, v: &T, n: u64) -> T {
        let mut cur = m.clone();
        for i in 0..n {
            let k = self.c.bv(64, i);
            let a = self.c.add(off, &k);
            let lo = (i * 8) as u32;
            let byte = if v.sort().width() > lo + 7 {
                self.c.extract(lo + 7, lo, v)
            } else {
                self.c.bv(8, 0)
            };
            cur = self.c.store(&cur, &a, &byte);
        }
        cur
    }

    /// One access of both threads (paper 002 §2, the two-thread reduction): thread s's
    /// pieces are logged, thread t's are checked against the logs.
    /// `benign`: both threads' values and, per piece of `s`, whether its write leaves the
    /// bytes unchanged (GPUVerify's benign-race tolerance); `None` when it is off.
    #[allow(clippy::too_many_arguments)]
    fn log_s_check_t(
        &mut self,
        ps: &[Vec<Piece>; 2],
        en: &[T; 2],
        space: MemSpace,
        kind: Kind,
        bytes: u64,
        pc: usize,
        benign: Option<&([T; 2], Vec<T>)>,
    ) {
        let sz = self.c.bv(64, bytes);
        for (i, p) in ps[0].iter().enumerate() {
            let e = self.c.and(&en[0], &p.cond);
            let vs = benign.map(|(v, same)| (v[0].clone(), same[i].clone()));
            self.log(p.base, kind, &e, &p.off, &sz, pc, vs);
        }
        for p in &ps[1] {
            let e = self.c.and(&en[1], &p.cond);
            let vt = benign.map(|(v, _)| v[1].clone());
            self.check_t(p.base, space, kind, &e, &p.off, &sz, pc, vt);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn log(
        &mut self,
        base: Base,
        kind: Kind,
        e: &T,
        off: &T,
        sz: &T,
        pc: usize,
        val_same: Option<(T, T)>,
    ) {
        if e.is_false() {
            return;
        }
        let key = (base, kind);
        if let (Some(rec), Some((v, _))) = (self.val_rec.as_mut(), val_same.as_ref()) {
            let vs = rec.entry(key).or_default();
            if !vs.contains(v) {
                vs.push(v.clone());
            }
        }
        if let Some(rec) = self.first_off_rec.as_mut() {
            rec.entry(key).or_insert_with(|| off.clone());
            let e = self.probe_acc.entry(key).or_default();
            e.0.insert(pc);
            if let Some(z) = sz.as_bv() {
                e.1.insert(z);
            }
        }
        let choose = self.c.fresh("track", Sort::Bool);
        let take = self.c.and(e, &choose);
        let pct = self.c.bv(32, pc as u64);
        let old = match self.st.logs.get(&key) {
            Some(l) => l.clone(),
            None => Log::empty(&mut self.c),
        };
        let tt = self.c.tt();
        let (val, same) = match val_same {
            Some((v, sm)) => (
                self.c.ite(&take, &v, &old.val),
                self.c.ite(&take, &sm, &old.same),
            ),
            None => (old.val.clone(), old.same.clone()),
        };
        let nl = Log {
            has: self.c.ite(&take, &tt, &old.has),
            off: self.c.ite(&take, off, &old.off),
            size: self.c.ite(&take, sz, &old.size),
            pc: self.c.ite(&take, &pct, &old.pc),
            val,
            same,
        };
        self.st.logs.insert(key, nl);
    }

    #[allow(clippy::too_many_arguments)]
    fn check_t(
        &mut self,
        base: Base,
        space: MemSpace,
        kind: Kind,
        e: &T,
        off: &T,
        sz: &T,
        pc: usize,
        val_t: Option<T>,
    ) {
        if e.is_false() {
            return;
        }
        let shared = self.is_shared(base, space);
        let sb = self.same_block.clone();
        let nsb = self.c.not(&sb);
        for sk in [Kind::Read, Kind::Write, Kind::Atomic, Kind::AtomicBlock] {
            // Which pairs race (Def. 2.2, plus scopes: paper 004 §2.1).
            let cond = match (sk, kind) {
                (Kind::Read, Kind::Read) => continue,
                (a, b) if !a.atomic() || !b.atomic() => self.c.tt(),
                (Kind::Atomic, Kind::Atomic) => continue,
                _ => {
                    if shared {
                        continue;
                    }
                    nsb.clone()
                }
            };
            let Some(l) = self.st.logs.get(&(base, sk)).cloned() else {
                continue;
            };
            if l.has.is_false() {
                continue;
            }
            let d1 = self.c.sub(off, &l.off);
            let d2 = self.c.sub(&l.off, off);
            let o1 = self.c.ult(&d1, &l.size);
            let o2 = self.c.ult(&d2, sz);
            let overlap = self.c.or(&o1, &o2);
            let mut v = self.c.and_all(&[e.clone(), l.has.clone(), overlap, cond]);
            // GPUVerify's benign-race tolerance (its default; `--no-benign-tolerance` turns
            // it off): a write of the value `s` wrote or read at the same offset and size,
            // or a read of what `s`'s write left unchanged, is not a race.
            if let Some(vt) = &val_t {
                let benign = match (sk, kind) {
                    (Kind::Write | Kind::Read, Kind::Write) => {
                        let a = self.c.eq(off, &l.off);
                        let b = self.c.eq(sz, &l.size);
                        let d = self.c.eq(vt, &l.val);
                        Some(self.c.and_all(&[a, b, d]))
                    }
                    (Kind::Write, Kind::Read) => Some(l.same.clone()),
                    _ => None,
                };
                if let Some(b) = benign {
                    let nb = self.c.not(&b);
                    v = self.c.and(&v, &nb);
                }
            }
            if shared {
                v = self.c.and(&v, &sb);
            }
            let values = vec![
                ("s_pc".to_string(), l.pc.clone()),
                ("s_off".to_string(), l.off.clone()),
                ("t_off".to_string(), off.clone()),
            ];
            self.add_check(
                CheckKind::Race {
                    array: base,
                    s_kind: sk,
                    t_kind: kind,
                    t_pc: pc,
                    shared,
                },
                v,
                values,
            );
        }
        // Benign-race tolerance: once `t` has written the bytes `s`'s logged write covers (the
        // same value, or the write-write check reports it), `t`'s later reads of them see that
        // value whoever wrote last, so `s`'s write no longer races with them.
        if val_t.is_some() && kind == Kind::Write {
            if let Some(mut l) = self.st.logs.get(&(base, Kind::Write)).cloned() {
                let a = self.c.eq(off, &l.off);
                let b = self.c.eq(sz, &l.size);
                let mut covers = self.c.and_all(&[e.clone(), l.has.clone(), a, b]);
                if shared {
                    covers = self.c.and(&covers, &sb);
                }
                let tt = self.c.tt();
                l.same = self.c.ite(&covers, &tt, &l.same);
                self.st.logs.insert((base, Kind::Write), l);
            }
        }
    }

    /// An atomic read-modify-write (paper 002 §4.1, and §4.3's encoding for repetition-free
    /// arrays). Returns the values the threads receive.
    #[allow(clippy::too_many_arguments)]
    fn atomic(
        &mut self,
        pc: usize,
        en: &[T; 2],
        addr: &weft_ir::kernel::Addr,
        space: MemSpace,
        kind: Kind,
        bytes: u64,
        _op: RmwOp,
    ) -> R<[T; 2]> {
        let w = (bytes * 8).min(64) as u32;
        if space == MemSpace::Local {
            return Ok([
                self.c.fresh("atom", Sort::Bv(w)),
                self.c.fresh("atom", Sort::Bv(w)),
            ]);
        }
        let ps0 = [self.pieces(0, addr, pc)?, self.pieces(1, addr, pc)?];
        self.null_checks(en);
        if self.o.check_array_bounds {
            self.bounds_checks(pc, en, &ps0, bytes);
        }
        let touched: Vec<Base> = ps0.iter().flatten().map(|p| p.base).collect();
        self.warp_reset_arrays(en, &touched);
        let ps = ps0;
        self.log_s_check_t(&ps, en, space, kind, bytes, pc, None);
        if self.o.lockstep {
            // Lock-step warps: see `OwnWrite` (atomic arrays are not forwarded anyway).
            self.st.own = [BTreeMap::new(), BTreeMap::new()];
        }
        self.warp_reset_arrays(en, &touched);
        let z = [
            self.c.fresh("atom_s", Sort::Bv(w)),
            self.c.fresh("atom_t", Sort::Bv(w)),
        ];
        // Repetition-free refinement: a single piece on a repetition-free array.
        if self.o.repetition_free
            && w == 32
            && ps[0].len() == 1
            && ps[1].len() == 1
            && ps[0][0].base == ps[1][0].base
            && self.facts.repfree.contains(&ps[0][0].base)
            // With lock-step warps a plain store and an atomic of one warp in successive
            // instructions do not race, so the relaxed rule's argument does not hold.
            && !(self.o.lockstep && self.facts.repfree_restart.contains(&ps[0][0].base))
        {
            let b = ps[0][0].base;
            let shared = self.is_shared(b, space);
            let root = match self.st.used.get(&b) {
                Some(u) => u.clone(),
                None => {
                    let e = self.c.empty_used(32);
                    self.st.used.insert(b, e.clone());
                    e
                }
            };
            let log = self.st.used_log.get(&b).cloned().unwrap_or_default();
            let root_empty = matches!(root.node(), Node::App(Op::EmptyUsed(_), _, _));
            // `z` was returned before at offset `o`: in the root set, or in the list.
            let used_get = |x: &mut Self, o: &T, z: &T| -> T {
                let mut any = if root_empty {
                    x.c.ff()
                } else {
                    x.c.used_get(&root, o, z)
                };
                for [e, lo, lz] in &log {
                    let so = x.c.eq(lo, o);
                    let sz = x.c.eq(lz, z);
                    let hit = x.c.and_all(&[e.clone(), so, sz]);
                    any = x.c.or(&any, &hit);
                }
                any
            };
            let (os, ot) = (ps[0][0].off.clone(), ps[1][0].off.clone());
            let us = used_get(self, &os, &z[0]);
            let ut = used_get(self, &ot, &z[1]);
            let nus = self.c.not(&us);
            let nut = self.c.not(&ut);
            let a1 = self.c.implies(&en[0], &nus);
            let a2 = self.c.implies(&en[1], &nut);
            let same = self.c.eq(&os, &ot);
            let mut same_ctr = self.c.and_all(&[en[0].clone(), en[1].clone(), same]);
            if shared {
                same_ctr = self.c.and(&same_ctr, &self.same_block.clone());
            }
            let zeq = self.c.eq(&z[0], &z[1]);
            let nzeq = self.c.not(&zeq);
            let a3 = self.c.implies(&same_ctr, &nzeq);
            self.assumptions.extend([a1, a2, a3]);
            let mut et = en[1].clone();
            if shared {
                et = self.c.and(&et, &self.same_block.clone());
            }
            let entry = self.st.used_log.entry(b).or_default();
            entry.push([en[0].clone(), os, z[0].clone()]);
            entry.push([et, ot, z[1].clone()]);
            self.note_once("repetition-free refinement used (paper 002 §4.2): sound only if the counter never overflows; --check-overflow checks it");
            if self.o.check_overflow {
                let max = self.c.bv(32, u32::MAX as u64);
                for th in 0..2 {
                    let at_max = self.c.eq(&z[th], &max);
                    let v = self.c.and(&en[th], &at_max);
                    self.add_check(CheckKind::Overflow { pc }, v, vec![]);
                }
            }
        }
        Ok(z)
    }
}

fn scope_kind(s: Option<Scope>) -> Kind {
    match s {
        Some(Scope::Cta) | Some(Scope::Warp) | Some(Scope::Thread) => Kind::AtomicBlock,
        _ => Kind::Atomic,
    }
}

/// The base an address variable names (`base_vN` for variables, `paramI_OFF` for pointer
/// parameters).
/// Whether a term depends on `t`'s value of an access-history query.
fn mentions_log_query(t: &T) -> bool {
    let mut memo = HashMap::new();
    mentions(t, &|n: &str| n.starts_with(LOG_QUERY_T), &mut memo)
}

/// An address with the null pointer's provenance: built only from constants, thread and
/// block ids and the annotation header's integer queries (`q<pc>_<thread>!<n>`), none of
/// which can hold a pointer (a loaded value, a parameter, an undefined register can).
fn null_provenance(t: &T) -> bool {
    let mut memo = HashMap::new();
    let int_leaf = |n: &str| {
        n.starts_with("tid_")
            || n.starts_with("ctaid_")
            || n.strip_prefix('q').is_some_and(|r| {
                let (pc, rest) = r.split_once('_').unwrap_or(("", ""));
                !pc.is_empty()
                    && pc.bytes().all(|b| b.is_ascii_digit())
                    && (rest.starts_with("s!") || rest.starts_with("t!"))
            })
    };
    !mentions(t, &|n: &str| !int_leaf(n), &mut memo)
}

fn base_of_var(t: &T) -> Option<Base> {
    if let Node::App(Op::ZeroExt(_), a, _) = t.node() {
        return base_of_var(&a[0]);
    }
    if let Node::Var(n, Sort::Bv(_)) = t.node() {
        if let Some(v) = n.strip_prefix("base_v") {
            return v.parse().ok().map(Base::Var);
        }
        if let Some(r) = n.strip_prefix("param") {
            let (a, b) = r.split_once('_')?;
            return Some(Base::Param(a.parse().ok()?, b.parse().ok()?));
        }
    }
    None
}
