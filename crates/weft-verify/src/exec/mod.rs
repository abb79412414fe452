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
//!
//! This file holds the state and the driver (regions, blocks, snapshots); `loops` cuts
//! and unrolls loops (Houdini), `cand` instantiates candidate invariants, `facts` is the
//! static base analysis, `instr` the instruction semantics, `address` the arrays an
//! address points into, `annot` the annotations and contracts, `access` the access logs,
//! race checks, memories and atomics.

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

mod access;
mod address;
mod annot;
mod barrier_inv;
mod cand;
mod facts;
mod instr;
mod loops;

use barrier_inv::{BarrierInv, BI_INST_SINK, BI_SNAP_SINK, BI_UNARY_SINK};
use cand::{Cand, CandCtx};
use facts::array_facts;

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
    /// Barrier invariants (see `barrier_inv`): instantiation ids stored for the next one,
    /// the invariants written since the last barrier, and the first array of an
    /// `__array_snapshot` under way.
    bi_insts: Vec<[T; 2]>,
    bi_pending: Vec<BarrierInv>,
    snap_dst: Option<Option<Base>>,
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
/// OpenCL's barrier fence flags, stored just before the barrier (`weft_verify.h`): the
/// barrier resets the logs of local arrays only with `CLK_LOCAL_MEM_FENCE`, of the others
/// only with `CLK_GLOBAL_MEM_FENCE` (OpenCL 1.2 §6.12.8). A barrier without a store before
/// it (CUDA's `__syncthreads`) orders every space.
pub const BARRIER_FLAGS_SINK: &str = "__weft_barrier_flags_sink";
/// `CLK_LOCAL_MEM_FENCE` and `CLK_GLOBAL_MEM_FENCE` (clang's `opencl-c-base.h`).
const CLK_LOCAL: u64 = 1;
const CLK_GLOBAL: u64 = 2;
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
    /// The block and grid extents: constants, or variables for `*` dimensions.
    ntid: [T; 3],
    nctaid: [T; 3],
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
    /// Answers of Houdini's queries by their full text (declarations, assertion, asked
    /// values): an identical query, met again in a later round or a nested loop's repeated
    /// inference, is answered without the solver.
    houdini_cache: HashMap<String, Answer>,
    /// Houdini's queries: asked of the solver, answered from the cache, and the solver's
    /// time (wall clock, shown with `WEFT_VERIFY_DEBUG`).
    pub houdini_stats: (u64, u64, std::time::Duration),
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
    /// The fence flags of the next barrier, per thread ([`BARRIER_FLAGS_SINK`]).
    barrier_flags: Option<[T; 2]>,
    /// During a loop's first Houdini round: the values `s` logs per log (candidates for
    /// `LogVal`, kept when they do not depend on the iteration).
    val_rec: Option<HashMap<(Base, Kind), Vec<T>>>,
    /// While probing a loop: instructions and sizes logged per log.
    probe_acc: HashMap<(Base, Kind), (BTreeSet<usize>, BTreeSet<u64>)>,
    /// Probes of cut loops under way (a loop cut inside a probe runs without Houdini).
    probe_depth: usize,
    /// Per cut loop being inferred, the candidates its nested loops' last inference
    /// dropped, by loop: the next inference of such a loop starts without them.
    houdini_seed: Vec<HashMap<usize, Vec<Cand>>>,
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
    /// Arrays not accessed atomically are memories shared by the two threads (the equality
    /// abstraction): `--equality-abstraction`, or a kernel with barrier invariants.
    equality: bool,
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
        let (ntid, nctaid) = launch_dims(&mut c, o, &mut assumptions);
        for th in 0..2 {
            for d in 0..3 {
                let x = c.ult(&tid[th][d], &ntid[d]);
                let y = c.ult(&ctaid[th][d], &nctaid[d]);
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
            let bx = ntid[0].clone();
            let bxy = c.bin(Op::BvMul, &ntid[0], &ntid[1]);
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
        let facts = array_facts(k, &o.int_params);
        let equality = o.equality || barrier_inv::kernel_has_barrier_invariants(k);
        let own_fwd = !equality
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
                bi_insts: Vec::new(),
                bi_pending: Vec::new(),
                snap_dst: None,
            },
            assumptions,
            checks: Vec::new(),
            tid,
            ctaid,
            same_block,
            ntid,
            nctaid,
            same_warp,
            same_warp_any,
            lane,
            facts,
            bounded: false,
            notes: Vec::new(),
            budget: 400_000,
            aux: None,
            aux_alone: None,
            houdini_cache: HashMap::new(),
            houdini_stats: (0, 0, std::time::Duration::ZERO),
            inv_hits: Vec::new(),
            in_abstract: 0,
            dead_frames: Vec::new(),
            first_off_rec: None,
            contract_line: None,
            barrier_flags: None,
            val_rec: None,
            probe_acc: HashMap::new(),
            probe_depth: 0,
            houdini_seed: Vec::new(),
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
            equality,
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
}

fn merge(c: &mut Ctx, v: &mut Vec<(usize, [T; 2])>, b: usize, e: [T; 2]) {
    if let Some(x) = v.iter_mut().find(|x| x.0 == b) {
        x.1 = [c.or(&x.1[0], &e[0]), c.or(&x.1[1], &e[1])];
    } else {
        v.push((b, e));
    }
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

/// CUDA's launch limits (compute capability 5.0 and later), which a `*` dimension ranges
/// over: a block of at most 1024 threads (x, y at most 1024, z at most 64), a grid of at
/// most 2^31 - 1 blocks in x and 65535 in y and z.
pub const BLOCK_LIMIT: [u64; 3] = [1024, 1024, 64];
pub const BLOCK_THREADS_LIMIT: u64 = 1024;
pub const GRID_LIMIT: [u64; 3] = [(1 << 31) - 1, 65535, 65535];

/// The launch extents (`%ntid`, `%nctaid`): a constant per fixed dimension, a variable
/// (`ntid_x`, `nctaid_y`, ...) per `*` dimension, ranging over CUDA's limits (assumed).
fn launch_dims(c: &mut Ctx, o: &Options, assumptions: &mut Vec<T>) -> ([T; 3], [T; 3]) {
    let dim = ["x", "y", "z"];
    let mut mk = |c: &mut Ctx, name: &str, any: bool, fixed: u32, lim: u64, d: usize| {
        if !any {
            return c.bv(32, fixed as u64);
        }
        let v = c.var(&format!("{name}_{}", dim[d]), Sort::Bv(32));
        let one = c.bv(32, 1);
        let hi = c.bv(32, lim);
        let a = c.bin(Op::BvUle, &one, &v);
        let b = c.bin(Op::BvUle, &v, &hi);
        assumptions.push(a);
        assumptions.push(b);
        v
    };
    let ntid = [0, 1, 2].map(|d| mk(c, "ntid", o.block_any[d], o.block[d], BLOCK_LIMIT[d], d));
    let nctaid = [0, 1, 2].map(|d| mk(c, "nctaid", o.grid_any[d], o.grid[d], GRID_LIMIT[d], d));
    if o.block_any.iter().any(|&a| a) {
        // x * y * z <= 1024, in 64 bits (each factor is at most 1024).
        let w = ntid.clone().map(|n| c.zext(64, &n));
        let xy = c.bin(Op::BvMul, &w[0], &w[1]);
        let xyz = c.bin(Op::BvMul, &xy, &w[2]);
        let lim = c.bv(64, BLOCK_THREADS_LIMIT);
        let a = c.bin(Op::BvUle, &xyz, &lim);
        assumptions.push(a);
    }
    (ntid, nctaid)
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
            || n.starts_with("ntid_")
            || n.starts_with("nctaid_")
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
