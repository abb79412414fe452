//! Potential (po ∪ rf) cycles through a dependency under models without No-Thin-Air
//! (`ptx-v7.5`, `vulkan`, `opencl`, user models). A write revisits a read in its (po ∪
//! rf)-prefix only when nothing after the read depends on it, so an execution whose cycle
//! passes through a dependency (data, address, control, or the read and write of one RMW)
//! needs the read to guess its value ([`crate::speculate`]): the reads of the edges found
//! here are the ones that guess, and where guessing is off (the values do not settle) the
//! edges are the per-test note (docs/mc.md, "Dependency cycles").
//!
//! [`dep_cycles`] reads the program statically (a write under a branch that no explored
//! execution takes is still seen): per thread, which reads each register's value and each
//! branch depends on; then, for each dependency edge `r → w` (a write depending on an
//! earlier read of its thread), whether a path leads back from `w` to `r` over program
//! order (a read to a later write of its thread) and potential reads-from (a write to a
//! read of the same location, or of an unknown one, in another thread). Each such edge is
//! a place where executions may be missing: the per-test note names it. A cycle over one
//! location counts only under PTX (its coherence covers morally strong pairs only). The check
//! over-approximates (it ignores values and the model), hence "may miss".

use std::collections::{BTreeMap, BTreeSet};

use weft_ir::{code, Expr, LocId, Program, Reg, Stmt, StmtKind, Value};

/// How a write depends on a read of its thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DepKind {
    Data,
    Addr,
    Ctrl,
    /// The read and the write of one read-modify-write.
    Rmw,
}

impl DepKind {
    fn text(self) -> &'static str {
        match self {
            DepKind::Data => "data",
            DepKind::Addr => "address",
            DepKind::Ctrl => "control",
            DepKind::Rmw => "rmw",
        }
    }
}

/// A dependency edge on a potential (po ∪ rf) cycle: thread `thread`'s write at
/// `write` (line, col) to `write_loc` depends (`kind`) on its read at `read` of `read_loc`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct DepCycle {
    pub thread: u32,
    pub read: (u32, u32),
    /// The location read and written (`None`: an address the check cannot resolve).
    pub read_loc: Option<u32>,
    pub write: (u32, u32),
    pub write_loc: Option<u32>,
    pub kind: DepKind,
}

impl DepCycle {
    /// `P1's write to y at 12:3 depends (data) on its read of x at 11:3`, with location
    /// names from `name`.
    pub fn text(&self, name: &dyn Fn(u32) -> String) -> String {
        let name = |l: Option<u32>| l.map(name).unwrap_or_else(|| "memory".into());
        format!(
            "P{}'s write to {} at {}:{} depends ({}) on its read of {} at {}:{}",
            self.thread,
            name(self.write_loc),
            self.write.0,
            self.write.1,
            self.kind.text(),
            name(self.read_loc),
            self.read.0,
            self.read.1
        )
    }
}

/// A static access of a thread.
#[derive(Clone, Debug)]
struct Access {
    thread: u32,
    line: u32,
    col: u32,
    write: bool,
    loc: Option<u32>,
    /// Executed at most once, in program order with the thread's other such accesses: a
    /// top-level statement outside every loop (no `while`, no label a later jump goes
    /// back to).
    once: bool,
    /// For a write: the reads (indices into the access list) it depends on, and how.
    deps: BTreeSet<(usize, DepKind)>,
}

type Taint = BTreeSet<usize>;

/// The walk over one thread's statements.
struct Walk<'p> {
    p: &'p Program,
    thread: u32,
    /// Per register: the reads its value depends on, and the location it points to.
    taint: Vec<Taint>,
    points: Vec<Option<LocId>>,
    /// Reads every later event depends on by control (loops, jumps), and those of the
    /// enclosing branches.
    sticky: Taint,
    /// Statements inside a loop made of a label and a later jump back to it.
    looped: std::collections::HashSet<*const Stmt>,
    /// Nesting depth of `if`/`while` statements around the current one.
    depth: u32,
    /// Accesses by statement (one entry per statement and role, across passes).
    index: BTreeMap<(*const Stmt, bool), usize>,
    out: &'p mut Vec<Access>,
}

impl Walk<'_> {
    fn expr(&self, e: &Expr) -> Taint {
        let mut regs = Vec::new();
        e.regs(&mut regs);
        regs.iter()
            .flat_map(|r| self.taint.get(r.index()).into_iter().flatten().copied())
            .collect()
    }

    fn loc(&self, e: &Expr) -> Option<u32> {
        let l = match e {
            Expr::Addr(l) => Some(*l),
            Expr::Reg(r) => self.points.get(r.index()).copied().flatten(),
            _ => None,
        };
        l.map(|l| self.p.storage_of(l).0)
    }

    fn access(&mut self, s: &Stmt, write: bool, loc: Option<u32>) -> usize {
        let out = &mut *self.out;
        let once = self.depth == 0 && !self.looped.contains(&(s as *const Stmt));
        *self
            .index
            .entry((s as *const Stmt, write))
            .or_insert_with(|| {
                out.push(Access {
                    thread: self.thread,
                    line: s.span.line,
                    col: s.span.col,
                    write,
                    loc,
                    once,
                    deps: BTreeSet::new(),
                });
                out.len() - 1
            })
    }

    fn set(&mut self, r: Reg, t: Taint, points: Option<LocId>) {
        if let Some(x) = self.taint.get_mut(r.index()) {
            *x = t;
        }
        if let Some(x) = self.points.get_mut(r.index()) {
            *x = points;
        }
    }

    fn block(&mut self, code: &[Stmt], ctrl: &Taint) {
        for s in code {
            self.stmt(s, ctrl);
        }
    }

    fn stmt(&mut self, s: &Stmt, ctrl: &Taint) {
        let mut ctrl: Taint = ctrl.union(&self.sticky).copied().collect();
        if let Some(g) = s.guard {
            ctrl.extend(self.taint.get(g.reg.index()).into_iter().flatten());
        }
        let write = |w: &mut Walk, addr: &Expr, data: Taint, rmw: Option<usize>| {
            let loc = w.loc(addr);
            let at = w.access(s, true, loc);
            let mut deps: Vec<(usize, DepKind)> = Vec::new();
            deps.extend(data.iter().map(|&r| (r, DepKind::Data)));
            deps.extend(w.expr(addr).iter().map(|&r| (r, DepKind::Addr)));
            deps.extend(ctrl.iter().map(|&r| (r, DepKind::Ctrl)));
            deps.extend(rmw.map(|r| (r, DepKind::Rmw)));
            w.out[at].deps.extend(deps);
        };
        match &s.kind {
            StmtKind::Load(l) => {
                let r = self.access(s, false, self.loc(&l.addr));
                self.set(l.dst, Taint::from([r]), None);
            }
            StmtKind::Store(st) => {
                let data = self.expr(&st.value);
                write(self, &st.addr, data, None);
            }
            StmtKind::Rmw(m) => {
                let r = self.access(s, false, self.loc(&m.addr));
                let data: Taint = m.args.iter().flat_map(|a| self.expr(a)).collect();
                write(self, &m.addr, data, Some(r));
                if let Some(d) = m.dst {
                    self.set(d, Taint::from([r]), None);
                }
            }
            StmtKind::Assign { dst, value } => {
                let t = self.expr(value);
                let points = match value {
                    Expr::Addr(l) => Some(*l),
                    Expr::Reg(r) => self.points.get(r.index()).copied().flatten(),
                    _ => None,
                };
                self.set(*dst, t, points);
            }
            StmtKind::Jump { cond: Some(c), .. } => {
                let t = self.expr(c);
                self.sticky.extend(t);
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let inner: Taint = ctrl.union(&self.expr(cond)).copied().collect();
                let (taint, points) = (self.taint.clone(), self.points.clone());
                self.depth += 1;
                self.block(then_branch, &inner);
                let (t1, p1) = (
                    std::mem::replace(&mut self.taint, taint),
                    std::mem::replace(&mut self.points, points),
                );
                self.block(else_branch, &inner);
                self.depth -= 1;
                for (a, b) in self.taint.iter_mut().zip(t1) {
                    a.extend(b);
                }
                for (a, b) in self.points.iter_mut().zip(p1) {
                    if *a != b {
                        *a = None;
                    }
                }
            }
            StmtKind::While {
                prelude,
                cond,
                body,
            } => {
                // Twice: values carried around the loop reach the second pass.
                self.depth += 1;
                for _ in 0..2 {
                    self.block(prelude, &ctrl);
                    let c = self.expr(cond);
                    self.sticky.extend(c);
                    let inner: Taint = ctrl.union(&self.sticky).copied().collect();
                    self.block(body, &inner);
                }
                self.depth -= 1;
            }
            StmtKind::Assume(c) | StmtKind::Assert(c) => {
                let t = self.expr(c);
                self.sticky.extend(t);
            }
            _ => {}
        }
    }
}

/// The dependency edges of `p` that lie on a potential (po ∪ rf) cycle, each once. A cycle
/// over one location counts only with `one_location` (models whose per-location coherence
/// does not cover every access, as PTX's covers only morally strong pairs); under the
/// others such a cycle is already forbidden.
pub fn dep_cycles(p: &Program, one_location: bool) -> Vec<DepCycle> {
    let mut acc: Vec<Access> = Vec::new();
    for (t, th) in p.threads.iter().enumerate() {
        let mut w = Walk {
            p,
            thread: t as u32,
            taint: vec![Taint::new(); th.regs.len()],
            points: th
                .regs
                .iter()
                .map(|r| match r.init {
                    Some(Value::Addr(l)) => Some(l),
                    _ => None,
                })
                .collect(),
            sticky: Taint::new(),
            looped: looped_stmts(&th.code),
            depth: 0,
            index: BTreeMap::new(),
            out: &mut acc,
        };
        // Twice: labels and backward jumps carry values around as loops do.
        w.block(&th.code, &Taint::new());
        w.block(&th.code, &Taint::new());
    }
    let same = |a: Option<u32>, b: Option<u32>| a.is_none() || b.is_none() || a == b;
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); acc.len()];
    for (i, a) in acc.iter().enumerate() {
        for (j, b) in acc.iter().enumerate() {
            let po = a.thread == b.thread && !a.write && b.write && i < j;
            let rf = a.thread != b.thread && a.write && !b.write && same(a.loc, b.loc);
            if po || rf {
                succ[i].push(j);
            }
        }
    }
    // A simple path from `from` back to `to` (an execution's (po ∪ rf) cycle can be taken
    // simple: each read has one source); unless `one_location`, the cycle must touch a
    // second location (a cycle on one location is already forbidden by per-location
    // coherence). A walk may touch a second location and come back, where every simple
    // cycle through the edge stays on one location: before 2026-11-29 such walks counted,
    // and the lock tests' loops on their lock variable were flagged.
    let reaches = |from: usize, to: usize| {
        let other = |x: usize| acc[x].loc.is_none() || acc[x].loc != acc[to].loc;
        let mut on_path = vec![false; acc.len()];
        on_path[from] = true;
        let mut search = Search {
            succ: &succ,
            other: &other,
            to,
            on_path,
            path: vec![from],
            budget: SEARCH_BUDGET,
            // Under a model with per-location coherence for every access, a cycle whose
            // reads-from edges close a cycle on one location is forbidden already.
            feasible: &|path: &[usize]| one_location || !one_location_cycle(&acc, path),
        };
        search.from(from, one_location || other(from))
    };
    let mut out = BTreeSet::new();
    for (wi, w) in acc.iter().enumerate() {
        for &(ri, kind) in &w.deps {
            let r = &acc[ri];
            if reaches(wi, ri) {
                out.insert(DepCycle {
                    thread: w.thread,
                    read: (r.line, r.col),
                    read_loc: r.loc,
                    write: (w.line, w.col),
                    write_loc: w.loc,
                    kind,
                });
            }
        }
    }
    out.into_iter().collect()
}

/// Most steps of the simple-path search per dependency edge; past it the edge counts as on
/// a cycle (the note over-approximates rather than misses one).
const SEARCH_BUDGET: u32 = 200_000;

/// The search for a simple path back to `to`.
struct Search<'a> {
    succ: &'a [Vec<usize>],
    /// Whether a vertex is on a second location (the path must touch one).
    other: &'a dyn Fn(usize) -> bool,
    to: usize,
    on_path: Vec<bool>,
    /// The path so far, from the write whose dependency edge closes the cycle.
    path: Vec<usize>,
    budget: u32,
    /// Whether a whole cycle (the path, ending at `to`) may be an execution's.
    feasible: &'a dyn Fn(&[usize]) -> bool,
}

impl Search<'_> {
    /// Whether a simple path leads from `x` to `to` on which some vertex satisfies `other`
    /// (already so when `ok`) and whose cycle is feasible.
    fn from(&mut self, x: usize, ok: bool) -> bool {
        for &y in &self.succ[x] {
            if self.budget == 0 {
                return true;
            }
            self.budget -= 1;
            let ok = ok || (self.other)(y);
            if y == self.to {
                self.path.push(y);
                let found = ok && (self.feasible)(&self.path);
                self.path.pop();
                if found {
                    return true;
                }
                continue;
            }
            if self.on_path[y] {
                continue;
            }
            self.on_path[y] = true;
            self.path.push(y);
            let found = self.from(y, ok);
            self.path.pop();
            self.on_path[y] = false;
            if found {
                return true;
            }
        }
        false
    }
}

/// Whether the cycle `path` (from a write back to the read it depends on) contains, among
/// its accesses executed once, a cycle of program order and its reads-from edges on one
/// location: every execution with the cycle's reads-from edges then breaks per-location
/// coherence. (Two threads each incrementing `x` under a lock: a cycle through the lock
/// and both increments needs each increment to read the other's write.)
fn one_location_cycle(acc: &[Access], path: &[usize]) -> bool {
    let nodes: Vec<usize> = path
        .iter()
        .copied()
        .filter(|&i| acc[i].once && acc[i].loc.is_some())
        .collect();
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        if acc[a].thread != acc[b].thread && nodes.contains(&a) && nodes.contains(&b) {
            edges.push((a, b));
        }
    }
    for &a in &nodes {
        for &b in &nodes {
            if a < b && acc[a].thread == acc[b].thread && acc[a].loc == acc[b].loc {
                edges.push((a, b));
            }
        }
    }
    edges.retain(|&(a, b)| acc[a].loc == acc[b].loc);
    // A cycle among `nodes` over `edges` (depth-first search, colours).
    let mut colour: BTreeMap<usize, u8> = BTreeMap::new();
    fn visit(x: usize, edges: &[(usize, usize)], colour: &mut BTreeMap<usize, u8>) -> bool {
        colour.insert(x, 1);
        for &(a, b) in edges {
            if a != x {
                continue;
            }
            match colour.get(&b) {
                Some(1) => return true,
                Some(_) => {}
                None => {
                    if visit(b, edges, colour) {
                        return true;
                    }
                }
            }
        }
        colour.insert(x, 2);
        false
    }
    nodes
        .iter()
        .any(|&x| !colour.contains_key(&x) && visit(x, &edges, &mut colour))
}

/// The statements of `code` (and of the blocks inside it) between a label and a later jump
/// back to it: they may run more than once.
fn looped_stmts(code: &[Stmt]) -> std::collections::HashSet<*const Stmt> {
    let mut out = std::collections::HashSet::new();
    fn all(code: &[Stmt], out: &mut std::collections::HashSet<*const Stmt>) {
        code::walk(code, &mut |s| {
            out.insert(s as *const Stmt);
        });
    }
    fn block(code: &[Stmt], out: &mut std::collections::HashSet<*const Stmt>) {
        for (j, s) in code.iter().enumerate() {
            if let StmtKind::Jump { target, .. } = &s.kind {
                let back = code[..=j]
                    .iter()
                    .position(|l| matches!(&l.kind, StmtKind::Label(n) if n == target));
                if let Some(i) = back {
                    all(&code[i..=j], out);
                }
            }
            match &s.kind {
                StmtKind::If {
                    then_branch,
                    else_branch,
                    ..
                } => {
                    block(then_branch, out);
                    block(else_branch, out);
                }
                StmtKind::While { prelude, body, .. } => {
                    block(prelude, out);
                    block(body, out);
                }
                _ => {}
            }
        }
    }
    block(code, &mut out);
    out
}
