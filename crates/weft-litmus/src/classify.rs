//! Outcome classification by a sequentially consistent reference interpreter (paper 001
//! §3.2: every final outcome of a litmus test is *sequential*, *interleaved* or *weak*).
//!
//! The interpreter runs programs under SC: every memory access is one atomic step
//! on a single shared memory, and threads interleave at memory accesses and barriers. Local
//! statements (arithmetic, fences, labels, jumps) touch no shared state, so each thread runs
//! them eagerly after every step; the set of final states is the same as with a full
//! interleaving and far fewer states are visited. Loops are allowed when every cycle of a
//! thread's control flow performs a memory access (a spin loop on a lock): states are
//! visited once, so a spin that makes no progress revisits a known state and ends there,
//! and the state bound stops loops whose states never repeat.
//!
//! * An outcome is **sequential** when some order of the threads, each run to completion
//!   before the next starts, produces it.
//! * It is **interleaved** when SC reaches it but no sequential order does.
//! * It is **weak** when SC cannot reach it at all: only a relaxed memory model allows it.
//!
//! A final outcome is every register of every thread and every memory location. Execution
//! barriers (`bar.sync`, `workgroupBarrier`) synchronise the threads in the same instance of
//! the barrier's scope (per [`Placement::same_instance`]); a thread that has ended no longer
//! takes part. Executions that deadlock or fail an `assume` have no outcome.

use std::collections::{BTreeMap, HashSet};

use weft_ir::cfg::{Cfg, Terminator};
use weft_ir::{BarrierKind, Expr, LocId, Placement, Program, Prop, RmwOp, StmtKind, Term, Value};

/// How an outcome can arise (paper 001 §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Reachable by running the threads one after another in some order.
    Seq,
    /// Reachable under SC, but only by interleaving the threads.
    Interleaved,
    /// Not reachable under SC.
    Weak,
}

impl Class {
    /// The name used in weft's JSON format: `seq`, `interleaved` or `weak`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Seq => "seq",
            Class::Interleaved => "interleaved",
            Class::Weak => "weak",
        }
    }

    /// Parses [`Class::name`].
    pub fn from_name(s: &str) -> Option<Class> {
        [Class::Seq, Class::Interleaved, Class::Weak]
            .into_iter()
            .find(|c| c.name() == s)
    }
}

/// A final state: every register of every thread, every element of every location.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Outcome {
    /// `regs[thread][reg]`.
    pub regs: Vec<Vec<i64>>,
    /// `mem[location][index]` (an alias reports the cells it names).
    pub mem: Vec<Vec<i64>>,
}

impl Outcome {
    /// The final value of a condition term (addresses use [`address_value`]).
    pub fn value(&self, term: &Term) -> i64 {
        match term {
            Term::Reg { thread, reg } => self
                .regs
                .get(*thread)
                .and_then(|r| r.get(reg.index()))
                .copied()
                .unwrap_or(0),
            Term::Mem { loc, index } => self
                .mem
                .get(loc.index())
                .and_then(|m| m.get(*index as usize))
                .copied()
                .unwrap_or(0),
            Term::Int(v) => *v,
            Term::Addr(l) => address_value(*l, 0),
        }
    }

    /// Whether the outcome satisfies a proposition.
    pub fn satisfies(&self, prop: &Prop) -> bool {
        prop.eval(&mut |t| self.value(t))
    }
}

/// Why a program could not be classified.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
#[error("{message}")]
pub struct ClassifyError {
    /// What stopped the interpreter (a loop, too many states, a bad address).
    pub message: String,
}

fn fail<T>(message: impl Into<String>) -> Result<T, ClassifyError> {
    Err(ClassifyError {
        message: message.into(),
    })
}

/// Most states the interpreter visits before giving up (interleavings grow fast).
pub const STATE_LIMIT: usize = 100_000;

const ADDR_BASE: i64 = 1 << 40;
const ADDR_STRIDE: i64 = 1 << 20;

/// The integer the interpreter uses for the address of element `index` of `loc`.
pub fn address_value(loc: LocId, index: u32) -> i64 {
    ADDR_BASE + loc.0 as i64 * ADDR_STRIDE + index as i64
}

/// Every SC-reachable outcome of a program with its class; anything else is weak.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Classification {
    outcomes: BTreeMap<Outcome, Class>,
}

impl Classification {
    /// The SC-reachable outcomes, in order, each `Seq` or `Interleaved`.
    pub fn outcomes(&self) -> impl Iterator<Item = (&Outcome, Class)> {
        self.outcomes.iter().map(|(o, c)| (o, *c))
    }

    /// How many outcomes SC reaches.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// Whether SC reaches no outcome at all (every execution deadlocks or is discarded).
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    /// The class of one final state.
    pub fn class_of(&self, o: &Outcome) -> Class {
        self.outcomes.get(o).copied().unwrap_or(Class::Weak)
    }

    /// The strongest class among the outcomes satisfying `prop`: `Seq` if a sequential
    /// outcome satisfies it, else `Interleaved` if an interleaved one does, else `Weak`.
    pub fn class_of_prop(&self, prop: &Prop) -> Class {
        self.outcomes
            .iter()
            .filter(|(o, _)| o.satisfies(prop))
            .map(|(_, c)| *c)
            .min()
            .unwrap_or(Class::Weak)
    }

    /// The outcomes projected on `terms`: each distinct tuple of values with the strongest
    /// class of the outcomes that give it, sorted by class and then by values.
    pub fn project(&self, terms: &[Term]) -> Vec<(Vec<i64>, Class)> {
        let mut best: BTreeMap<Vec<i64>, Class> = BTreeMap::new();
        for (o, c) in &self.outcomes {
            let key: Vec<i64> = terms.iter().map(|t| o.value(t)).collect();
            let e = best.entry(key).or_insert(*c);
            *e = (*e).min(*c);
        }
        let mut v: Vec<(Vec<i64>, Class)> = best.into_iter().collect();
        v.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        v
    }
}

/// Position of a thread: the next statement of a block, or the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Pos {
    At(usize, usize),
    Done,
}

/// A machine state, flattened into one vector so that states are cheap to copy and hash:
/// each thread's position, then every register of every thread, then every memory cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct State(Vec<i64>);

/// Where each part of a [`State`] lives.
struct Layout {
    threads: usize,
    /// Offset of each thread's registers.
    regs: Vec<usize>,
    /// Offset of each location's cells (an alias uses its storage's).
    mem: Vec<usize>,
    sizes: Vec<usize>,
}

const DONE: i64 = -1;

impl Layout {
    fn pos(&self, s: &State, t: usize) -> Pos {
        let v = s.0[t];
        if v == DONE {
            Pos::Done
        } else {
            Pos::At((v >> 24) as usize, (v & 0xff_ffff) as usize)
        }
    }

    fn set_pos(&self, s: &mut State, t: usize, p: Pos) {
        s.0[t] = match p {
            Pos::Done => DONE,
            Pos::At(b, i) => ((b as i64) << 24) | i as i64,
        };
    }

    fn all_done(&self, s: &State) -> bool {
        s.0[..self.threads].iter().all(|v| *v == DONE)
    }
}

struct Machine<'a> {
    p: &'a Program,
    cfgs: Vec<Cfg>,
    lay: Layout,
    mem_start: usize,
    visited: usize,
}

/// Classifies every SC-reachable outcome of a program whose loops all access memory.
pub fn classify(p: &Program) -> Result<Classification, ClassifyError> {
    let mut cfgs = Vec::new();
    for t in &p.threads {
        let cfg = Cfg::build(&t.code).map_err(|e| ClassifyError { message: e.message })?;
        if has_local_cycle(&cfg) {
            return fail(format!(
                "thread {} has a loop without memory accesses; outcome classification needs every loop to access memory",
                t.name
            ));
        }
        if cfg.blocks.len() >= 1 << 20 || cfg.blocks.iter().any(|b| b.stmts.len() >= 1 << 24) {
            return fail(format!("thread {} is too long to classify", t.name));
        }
        cfgs.push(cfg);
    }
    let n = p.threads.len();
    if n > 63 {
        return fail("more than 63 threads: too many to classify");
    }
    // Registers first, then memory cells (storage locations only).
    let mut off = n;
    let mut regs = Vec::new();
    for t in &p.threads {
        regs.push(off);
        off += t.regs.len();
    }
    let mem_start = off;
    let mut mem = vec![0; p.locations.len()];
    let mut sizes = vec![0; p.locations.len()];
    for (i, l) in p.locations.iter().enumerate() {
        if p.storage_of(LocId(i as u32)).index() == i {
            mem[i] = off;
            sizes[i] = l.size as usize;
            off += l.size as usize;
        }
    }
    for i in 0..p.locations.len() {
        let root = p.storage_of(LocId(i as u32)).index();
        mem[i] = mem[root];
        sizes[i] = sizes[root];
    }
    let lay = Layout {
        threads: n,
        regs,
        mem,
        sizes,
    };
    let mut m = Machine {
        p,
        cfgs,
        lay,
        mem_start,
        visited: 0,
    };
    let init = m.initial(off);
    let mut all = BTreeMap::new();
    let mut seen = HashSet::new();
    // Interleavings: depth-first over states, each thread's local steps run eagerly.
    let mut stack = Vec::new();
    if let Some(s) = m.normalize_all(init.clone()) {
        seen.insert(s.clone());
        stack.push(s);
    }
    while let Some(s) = stack.pop() {
        m.tick()?;
        if m.lay.all_done(&s) {
            all.insert(m.outcome(&s), Class::Interleaved);
            continue;
        }
        for t in 0..n {
            for next in m.step(&s, t, false)? {
                if let Some(nx) = m.normalize(next, t) {
                    if seen.insert(nx.clone()) {
                        stack.push(nx);
                    }
                }
            }
        }
    }
    // Sequential runs: threads one after another, over the sets of finished threads.
    let mut layer: HashSet<(u64, State)> = HashSet::new();
    if let Some(s) = m.normalize_all(init) {
        layer.insert((0, s));
    }
    for _ in 0..n {
        let mut next_layer = HashSet::new();
        for (done, s) in &layer {
            for t in (0..n).filter(|t| done & (1 << t) == 0) {
                for end in m.run_alone(s, t)? {
                    next_layer.insert((done | (1 << t), end));
                }
            }
        }
        layer = next_layer;
    }
    for (_, s) in layer {
        if m.lay.all_done(&s) {
            all.insert(m.outcome(&s), Class::Seq);
        }
    }
    Ok(Classification { outcomes: all })
}

/// Whether the control flow has a cycle through blocks without memory accesses or
/// barriers (a loop the interpreter would run forever between two visible steps).
fn has_local_cycle(cfg: &Cfg) -> bool {
    let visible = |b: usize| {
        cfg.blocks[b]
            .stmts
            .iter()
            .any(|s| s.kind.is_memory() || matches!(s.kind, StmtKind::Barrier(_)))
    };
    // 0 = unvisited, 1 = on the stack, 2 = finished; blocks with visible steps are skipped.
    let mut mark = vec![0u8; cfg.blocks.len()];
    for root in 0..cfg.blocks.len() {
        if mark[root] != 0 || visible(root) {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        mark[root] = 1;
        while let Some((b, k)) = stack.pop() {
            let succ = cfg.successors(b);
            if k < succ.len() {
                stack.push((b, k + 1));
                let s = succ[k];
                if s >= cfg.blocks.len() || visible(s) {
                    continue;
                }
                match mark[s] {
                    1 => return true,
                    0 => {
                        mark[s] = 1;
                        stack.push((s, 0));
                    }
                    _ => {}
                }
            } else {
                mark[b] = 2;
            }
        }
    }
    false
}

impl Machine<'_> {
    fn tick(&mut self) -> Result<(), ClassifyError> {
        self.visited += 1;
        if self.visited > STATE_LIMIT {
            return fail(format!(
                "more than {STATE_LIMIT} states: too many interleavings to classify"
            ));
        }
        Ok(())
    }

    fn initial(&self, len: usize) -> State {
        let p = self.p;
        let mut s = State(vec![0; len]);
        for (t, c) in self.cfgs.iter().enumerate() {
            let pos = if c.blocks.is_empty() {
                Pos::Done
            } else {
                Pos::At(c.entry, 0)
            };
            self.lay.set_pos(&mut s, t, pos);
        }
        for (t, th) in p.threads.iter().enumerate() {
            for (r, d) in th.regs.iter().enumerate() {
                self.set_reg(&mut s, t, r, d.init.map(value_of).unwrap_or(0));
            }
        }
        for (i, l) in p.locations.iter().enumerate() {
            if p.storage_of(LocId(i as u32)).index() == i {
                let v = value_of(l.init);
                for k in 0..l.size as usize {
                    s.0[self.lay.mem[i] + k] = v;
                }
            }
        }
        s
    }

    fn outcome(&self, s: &State) -> Outcome {
        let regs = (0..self.lay.threads)
            .map(|t| self.thread_regs(s, t).to_vec())
            .collect();
        let mem = (0..self.p.locations.len())
            .map(|i| {
                let o = self.lay.mem[i];
                s.0[o..o + self.lay.sizes[i]].to_vec()
            })
            .collect();
        Outcome { regs, mem }
    }

    fn regs_end(&self, t: usize) -> usize {
        self.lay.regs.get(t + 1).copied().unwrap_or(self.mem_start)
    }

    fn thread_regs<'a>(&self, s: &'a State, t: usize) -> &'a [i64] {
        &s.0[self.lay.regs[t]..self.regs_end(t)]
    }

    fn set_reg(&self, s: &mut State, t: usize, r: usize, v: i64) {
        let i = self.lay.regs[t] + r;
        if i < self.regs_end(t) {
            s.0[i] = v;
        }
    }

    fn eval(&self, regs: &[i64], e: &Expr) -> i64 {
        match e {
            Expr::Int(v) => *v,
            Expr::Reg(r) => regs.get(r.index()).copied().unwrap_or(0),
            Expr::Addr(l) => address_value(*l, 0),
            Expr::Un(op, a) => op.eval(self.eval(regs, a)),
            Expr::Bin(op, a, b) => op.eval(self.eval(regs, a), self.eval(regs, b)),
        }
    }

    /// The state index of the memory cell an address value names.
    fn cell(&self, v: i64) -> Result<usize, ClassifyError> {
        let off = v.wrapping_sub(ADDR_BASE);
        if (0..ADDR_STRIDE * self.p.locations.len() as i64).contains(&off) {
            let loc = (off / ADDR_STRIDE) as usize;
            let index = (off % ADDR_STRIDE) as usize;
            if index < self.lay.sizes[loc] {
                return Ok(self.lay.mem[loc] + index);
            }
        }
        fail(format!(
            "the value {v} used as an address names no location"
        ))
    }

    /// Runs thread `t`'s local statements and jumps until it reaches a memory access, a
    /// barrier or its end. `None`: an `assume` failed and the execution is discarded.
    fn normalize(&self, mut s: State, t: usize) -> Option<State> {
        loop {
            let Pos::At(b, i) = self.lay.pos(&s, t) else {
                return Some(s);
            };
            let block = &self.cfgs[t].blocks[b];
            if i >= block.stmts.len() {
                let next = match &block.term {
                    Terminator::Goto(n) => Pos::At(*n, 0),
                    Terminator::Branch {
                        cond,
                        then_block,
                        else_block,
                    } => {
                        if self.eval(self.thread_regs(&s, t), cond) != 0 {
                            Pos::At(*then_block, 0)
                        } else {
                            Pos::At(*else_block, 0)
                        }
                    }
                    Terminator::Exit => Pos::Done,
                };
                self.lay.set_pos(&mut s, t, next);
                continue;
            }
            match &block.stmts[i].kind {
                StmtKind::Assign { dst, value } => {
                    let v = self.eval(self.thread_regs(&s, t), value);
                    self.set_reg(&mut s, t, dst.index(), v);
                }
                StmtKind::Assume(e) if self.eval(self.thread_regs(&s, t), e) == 0 => return None,
                StmtKind::Barrier(bar) if bar.kind == BarrierKind::Arrive => {}
                StmtKind::Load(_) | StmtKind::Store(_) | StmtKind::Rmw(_) => return Some(s),
                StmtKind::Barrier(_) => return Some(s),
                // Fences order nothing under SC; assertions do not change the outcome;
                // structured statements and jumps were flattened by the CFG.
                _ => {}
            }
            self.lay.set_pos(&mut s, t, Pos::At(b, i + 1));
        }
    }

    fn normalize_all(&self, s: State) -> Option<State> {
        let mut cur = s;
        for t in 0..self.lay.threads {
            cur = self.normalize(cur, t)?;
        }
        Some(cur)
    }

    fn placement(&self, t: usize) -> &Placement {
        &self.p.threads[t].placement
    }

    /// The successors of `s` when thread `t` takes its next visible step. With `alone`,
    /// only `t` runs: a barrier lets it through only if its partners have all ended.
    fn step(&self, s: &State, t: usize, alone: bool) -> Result<Vec<State>, ClassifyError> {
        let Pos::At(b, i) = self.lay.pos(s, t) else {
            return Ok(Vec::new());
        };
        let Some(stmt) = self.cfgs[t].blocks[b].stmts.get(i) else {
            return Ok(Vec::new());
        };
        let regs = self.thread_regs(s, t);
        let advance = |n: &mut State| self.lay.set_pos(n, t, Pos::At(b, i + 1));
        let mut out = Vec::new();
        match &stmt.kind {
            StmtKind::Load(l) => {
                let c = self.cell(self.eval(regs, &l.addr))?;
                let mut n = s.clone();
                self.set_reg(&mut n, t, l.dst.index(), s.0[c]);
                advance(&mut n);
                out.push(n);
            }
            StmtKind::Store(st) => {
                let c = self.cell(self.eval(regs, &st.addr))?;
                let v = self.eval(regs, &st.value);
                let mut n = s.clone();
                n.0[c] = v;
                advance(&mut n);
                out.push(n);
            }
            StmtKind::Rmw(r) => {
                let c = self.cell(self.eval(regs, &r.addr))?;
                let old = s.0[c];
                let args: Vec<i64> = r.args.iter().map(|a| self.eval(regs, a)).collect();
                match r.op {
                    RmwOp::CompareExchange { weak } => {
                        let ec = self.cell(args.first().copied().unwrap_or(0))?;
                        let desired = args.get(1).copied().unwrap_or(0);
                        let expected = s.0[ec];
                        let mut failed = s.clone();
                        failed.0[ec] = old;
                        if let Some(d) = r.dst {
                            self.set_reg(&mut failed, t, d.index(), 0);
                        }
                        advance(&mut failed);
                        if old == expected {
                            let mut n = s.clone();
                            n.0[c] = desired;
                            if let Some(d) = r.dst {
                                self.set_reg(&mut n, t, d.index(), 1);
                            }
                            advance(&mut n);
                            out.push(n);
                            if weak {
                                out.push(failed);
                            }
                        } else {
                            out.push(failed);
                        }
                    }
                    op => {
                        let mut n = s.clone();
                        if let Some(v) = op.apply(old, &args) {
                            n.0[c] = v;
                        }
                        if let Some(d) = r.dst {
                            self.set_reg(&mut n, t, d.index(), old);
                        }
                        advance(&mut n);
                        out.push(n);
                    }
                }
            }
            StmtKind::Barrier(bar) => {
                let id = self.eval(regs, &bar.id);
                let mut partners = Vec::new();
                for u in (0..self.lay.threads).filter(|u| *u != t) {
                    if !self
                        .placement(t)
                        .same_instance(self.placement(u), bar.scope)
                    {
                        continue;
                    }
                    match self.lay.pos(s, u) {
                        Pos::Done => {}
                        Pos::At(ub, ui) if !alone => {
                            let waiting = match self.cfgs[u].blocks[ub].stmts.get(ui) {
                                Some(st) => match &st.kind {
                                    StmtKind::Barrier(o) => {
                                        o.kind != BarrierKind::Arrive
                                            && o.scope == bar.scope
                                            && self.eval(self.thread_regs(s, u), &o.id) == id
                                    }
                                    _ => false,
                                },
                                None => false,
                            };
                            if !waiting {
                                return Ok(Vec::new());
                            }
                            partners.push((u, ub, ui));
                        }
                        Pos::At(..) => return Ok(Vec::new()),
                    }
                }
                let mut n = s.clone();
                advance(&mut n);
                for (u, ub, ui) in partners {
                    self.lay.set_pos(&mut n, u, Pos::At(ub, ui + 1));
                }
                out.push(n);
            }
            _ => {}
        }
        Ok(out)
    }

    /// Every end state of thread `t` running to completion alone from `s`.
    fn run_alone(&mut self, s: &State, t: usize) -> Result<Vec<State>, ClassifyError> {
        let mut ends = Vec::new();
        let mut stack = vec![s.clone()];
        // A thread spinning alone revisits its states: each is expanded once.
        let mut seen = HashSet::new();
        while let Some(cur) = stack.pop() {
            self.tick()?;
            if self.lay.pos(&cur, t) == Pos::Done {
                ends.push(cur);
                continue;
            }
            for next in self.step(&cur, t, true)? {
                // A solo step moves only `t`, so only `t` needs its local statements run.
                if let Some(n) = self.normalize(next, t) {
                    if seen.insert(n.clone()) {
                        stack.push(n);
                    }
                }
            }
        }
        Ok(ends)
    }
}

fn value_of(v: Value) -> i64 {
    match v {
        Value::Int(i) => i,
        Value::Addr(l) => address_value(l, 0),
    }
}
