//! Checks a [`Program`] against what WGSL can express and lowers each thread's code to
//! WGSL statements: locations to cells of the test buffers, registers to `i32` variables,
//! accesses to relaxed atomics, barriers (and the fences a workgroup barrier expresses)
//! to phase boundaries. Refusals name the thread, the instruction and the reason;
//! strengthenings (a weak PTX access run as a relaxed atomic, ...) are recorded as notes.
//!
//! A thread with jumps or loops (a spin lock, paper 001 §5.3) runs its control-flow graph
//! as a bounded state machine: one `switch` case per basic block inside a `loop` that stops
//! after [`SPIN_CAP`] block steps. A thread stopped there is *cut*: it sets every register
//! to [`CUT_VALUE`], so a cut instance shows as its own outcome and can be counted (no
//! thread waits forever for a lock holder the GPU does not schedule).

use std::collections::BTreeSet;

use weft_ir::{
    BarrierKind, BinOp, DataType, Expr, FenceKind, LocId, MemAttrs, MemSpace, Order, Program,
    Proxy, Reg, RmwOp, Scope, Stmt, StmtKind, TypeKind, UnOp, Value,
};

use crate::error::CodegenError;

/// Retries of the compare-exchange loops that make WGSL's weak compare-exchange strong
/// (and emulate PTX `inc`/`dec`); spurious failures are rare, contention is two threads.
pub const RMW_RETRIES: u32 = 1024;

/// Basic-block steps a thread with loops may take before it is cut. Below 65535: Mesa's
/// llvmpipe (lavapipe) leaves any loop after 65535 iterations on its own, which would end a
/// spin silently, uncounted.
pub const SPIN_CAP: u32 = 1 << 14;

/// The value every register of a cut thread reports (`i32::MIN`).
pub const CUT_VALUE: i32 = i32::MIN;

/// Where a location's cell lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Storage memory, slot `j` of each instance (`j < storage_locs`).
    Storage(u32),
    /// Workgroup memory, slot `j` of each instance.
    Workgroup(u32),
}

/// One thread of the test after lowering.
#[derive(Clone, Debug)]
pub struct LThread {
    pub name: String,
    /// Workgroup group: threads with the same group run in one workgroup.
    pub group: u32,
    /// Rank within its group.
    pub rank: u32,
    /// WGSL statements per phase (phases are separated by workgroup barriers).
    pub phases: Vec<String>,
    /// Registers: WGSL initial value, or `None` for constant-address registers.
    pub regs: Vec<Option<i32>>,
    /// Storage/workgroup slots this thread's code touches.
    pub places: BTreeSet<(bool, u32)>,
}

/// What the lowering found.
#[derive(Clone, Debug)]
pub struct Lowered {
    pub threads: Vec<LThread>,
    /// Per program location, its cell (aliases share their target's).
    pub places: Vec<Place>,
    /// Initial value per storage slot.
    pub storage_init: Vec<i32>,
    /// Initial value per workgroup slot.
    pub workgroup_init: Vec<i32>,
    /// Number of workgroup groups (1 for an intra-workgroup test).
    pub groups: u32,
    /// Largest number of threads in one group.
    pub max_rank: u32,
    /// Barrier phases (1 + the number of barriers of the thread with the most).
    pub phases: usize,
    /// Spaces the barriers must cover: (storage, workgroup).
    pub barrier_spaces: (bool, bool),
    pub strengthened: Vec<String>,
}

fn err<T>(m: String) -> Result<T, CodegenError> {
    Err(CodegenError::new(m))
}

/// Makes every location of the test an alias of the first (GPUHarbor's `aliasedMemory`).
pub fn alias_all(p: &Program) -> Result<Program, CodegenError> {
    let mut q = p.clone();
    if q.locations.len() < 2 {
        return Ok(q);
    }
    let first = &p.locations[0];
    for (i, l) in p.locations.iter().enumerate().skip(1) {
        if l.init != first.init || l.space != first.space {
            return err(format!(
                "aliasedMemory: location {} (init {:?}, {}) cannot share a cell with {} (init {:?}, {})",
                l.name,
                l.init,
                l.space.name(),
                first.name,
                first.init,
                first.space.name()
            ));
        }
        q.locations[i].alias = Some(weft_ir::Alias {
            of: LocId(0),
            proxy: None,
        });
    }
    Ok(q)
}

fn check_type(ty: Option<DataType>, what: &str) -> Result<(), String> {
    match ty {
        None => Ok(()),
        Some(t) if t.kind == TypeKind::Float => Err(format!(
            "{what} has type {}: WGSL atomics are 32-bit integers only",
            t.ptx_name()
        )),
        Some(t) if t.bits > 32 => Err(format!(
            "{what} has type {}: WGSL atomics are 32-bit (no 64-bit cells)",
            t.ptx_name()
        )),
        Some(_) => Ok(()),
    }
}

fn int32(v: i64, what: &str) -> Result<i32, String> {
    i32::try_from(v).map_err(|_| format!("{what} {v} does not fit WGSL's 32-bit integers"))
}

/// Lowers the program (already aliased as the stress configuration asks).
pub fn lower(p: &Program) -> Result<Lowered, CodegenError> {
    if p.threads.is_empty() {
        return err("the test has no threads".into());
    }
    if p.filter.is_some() {
        return err("the test has a filter: WGSL runs keep every execution".into());
    }
    let (places, storage_init, workgroup_init) = places_of(p)?;
    let n = p.threads.len();
    let Groups {
        group,
        groups,
        rank,
        counts,
    } = groups_of(p);
    let mut strengthened = warp_notes(p);
    let mut lowered = Vec::with_capacity(n);
    let mut phases = 1usize;
    let mut spaces = (false, false);
    for (k, &r) in rank.iter().enumerate() {
        let (th, cx_spaces, notes) = lower_thread(p, k, &places, &group, r, &mut strengthened)?;
        phases = phases.max(th.phases.len());
        spaces.0 |= cx_spaces.0;
        spaces.1 |= cx_spaces.1;
        strengthened.extend(notes);
        lowered.push(th);
    }
    // Workgroup memory is per workgroup: every thread touching it must share one.
    for th in &lowered {
        for (wg, j) in &th.places {
            if *wg && groups > 1 {
                return err(format!(
                    "thread {}: workgroup-memory slot {j} is used by a test whose threads are in {groups} different workgroups; workgroup memory is private to a workgroup",
                    th.name
                ));
            }
        }
    }
    let max_rank = counts.iter().copied().max().unwrap_or(1);
    Ok(Lowered {
        threads: lowered,
        places,
        storage_init,
        workgroup_init,
        groups,
        max_rank,
        phases,
        barrier_spaces: spaces,
        strengthened,
    })
}

/// Per program location its cell; the initial values of the storage and workgroup slots.
type Places = (Vec<Place>, Vec<i32>, Vec<i32>);

/// A thread lowered, the barrier spaces (storage, workgroup) its code needs, its notes.
type LoweredThread = (LThread, (bool, bool), Vec<String>);

/// Locations: storage slots for global ones, workgroup slots for shared ones (aliases share
/// their target's); the initial values of the storage and workgroup slots.
fn places_of(p: &Program) -> Result<Places, CodegenError> {
    let mut places = Vec::with_capacity(p.locations.len());
    let mut storage_init = Vec::new();
    let mut workgroup_init = Vec::new();
    let mut root_place: Vec<Option<Place>> = vec![None; p.locations.len()];
    for (i, l) in p.locations.iter().enumerate() {
        let root = p.storage_of(LocId(i as u32));
        let rl = p.loc(root);
        if let Some(a) = &l.alias {
            if a.proxy.is_some_and(|x| x != Proxy::Generic) {
                return err(format!(
                    "location {} is accessed through the {} proxy: WGSL has no proxies",
                    l.name,
                    a.proxy.map(|x| x.name()).unwrap_or("?")
                ));
            }
        }
        if let Some(pl) = root_place[root.index()] {
            places.push(pl);
            continue;
        }
        if rl.size != 1 {
            return err(format!(
                "location {} is an array of {} elements: weft's WGSL backend runs scalar locations only",
                rl.name, rl.size
            ));
        }
        check_type(rl.ty, &format!("location {}", rl.name)).or_else(err)?;
        let init = match rl.init {
            Value::Int(v) => int32(v, &format!("initial value of {}", rl.name)).or_else(err)?,
            Value::Addr(_) => {
                return err(format!(
                    "location {} holds an address: WGSL has no pointers in memory",
                    rl.name
                ))
            }
        };
        let pl = match rl.space {
            MemSpace::Global | MemSpace::Generic => {
                storage_init.push(init);
                Place::Storage(storage_init.len() as u32 - 1)
            }
            MemSpace::Shared => {
                workgroup_init.push(init);
                Place::Workgroup(workgroup_init.len() as u32 - 1)
            }
            s => {
                return err(format!(
                    "location {} is in {} memory: WGSL tests use storage or workgroup memory",
                    rl.name,
                    s.name()
                ))
            }
        };
        root_place[root.index()] = Some(pl);
        places.push(pl);
    }
    Ok((places, storage_init, workgroup_init))
}

/// Threads grouped by workgroup, and each thread's rank in its group.
struct Groups {
    /// Per thread, its group.
    group: Vec<u32>,
    groups: u32,
    rank: Vec<u32>,
    /// Per group, its number of threads.
    counts: Vec<u32>,
}

/// Groups of threads that share a workgroup (paper 000 §4.2: honour the scope tree).
fn groups_of(p: &Program) -> Groups {
    let n = p.threads.len();
    let mut group = vec![u32::MAX; n];
    let mut groups = 0u32;
    for t in 0..n {
        if group[t] != u32::MAX {
            continue;
        }
        group[t] = groups;
        for (u, gu) in group.iter_mut().enumerate().skip(t + 1) {
            if *gu == u32::MAX
                && p.threads[t]
                    .placement
                    .same_instance(&p.threads[u].placement, Scope::Cta)
            {
                *gu = groups;
            }
        }
        groups += 1;
    }
    let mut rank = vec![0u32; n];
    let mut counts = vec![0u32; groups as usize];
    for t in 0..n {
        rank[t] = counts[group[t] as usize];
        counts[group[t] as usize] += 1;
    }
    Groups {
        group,
        groups,
        rank,
        counts,
    }
}

/// Threads the scope tree puts in one warp: WGSL cannot place them in one subgroup.
fn warp_notes(p: &Program) -> Vec<String> {
    let n = p.threads.len();
    let mut strengthened = Vec::new();
    for t in 0..n {
        for u in t + 1..n {
            if p.threads[t]
                .placement
                .same_instance(&p.threads[u].placement, Scope::Warp)
            {
                strengthened.push(format!(
                    "{} and {} share a warp in the scope tree; WGSL cannot place invocations in one subgroup, so they run in one workgroup but maybe different subgroups",
                    p.threads[t].name, p.threads[u].name
                ));
            }
        }
    }
    strengthened
}

/// Thread `k`: its registers and code lowered (a state machine when it has jumps or
/// loops), the barrier spaces its code needs, and its notes (the state machine's note goes
/// straight into `strengthened`, before them).
fn lower_thread(
    p: &Program,
    k: usize,
    places: &[Place],
    group: &[u32],
    rank: u32,
    strengthened: &mut Vec<String>,
) -> Result<LoweredThread, CodegenError> {
    let t = &p.threads[k];
    let mut cx = Cx {
        p,
        k,
        tname: &t.name,
        places,
        out: vec![String::new()],
        used: BTreeSet::new(),
        notes: Vec::new(),
        const_addr: vec![None; t.regs.len()],
        spaces: (false, false),
        group: group[k],
        groups: group,
    };
    // Registers: constant-address registers are resolved, others are i32 variables.
    let mut assigned = BTreeSet::new();
    weft_ir::code::walk(&t.code, &mut |s| {
        if let Some(d) = s.kind.def() {
            assigned.insert(d.index());
        }
    });
    let mut regs = Vec::with_capacity(t.regs.len());
    for (ri, r) in t.regs.iter().enumerate() {
        if let Some(ty) = r.ty {
            if ty.kind == TypeKind::Float
                || (ty.bits > 32 && !matches!(r.init, Some(Value::Addr(_))))
            {
                return err(format!(
                    "thread {}: register {} has type {}: WGSL test registers are 32-bit integers",
                    t.name,
                    r.name,
                    ty.ptx_name()
                ));
            }
        }
        match r.init {
            Some(Value::Addr(l)) => {
                if assigned.contains(&ri) {
                    return err(format!(
                        "thread {}: register {} holds an address and is assigned: address computation cannot be expressed in WGSL",
                        t.name, r.name
                    ));
                }
                cx.const_addr[ri] = Some(l);
                regs.push(None);
            }
            Some(Value::Int(v)) => regs.push(Some(
                int32(
                    v,
                    &format!("thread {}: initial value of {}", t.name, r.name),
                )
                .or_else(err)?,
            )),
            None => regs.push(Some(0)),
        }
    }
    let mut looping = false;
    weft_ir::code::walk(&t.code, &mut |s| {
        looping |= matches!(
            s.kind,
            StmtKind::Label(_) | StmtKind::Jump { .. } | StmtKind::While { .. }
        );
    });
    if looping {
        cx.state_machine(&t.code)?;
        strengthened.push(format!(
            "thread {}: its loops run as a state machine of at most {SPIN_CAP} block steps; a thread cut there reports every register as {CUT_VALUE}",
            t.name
        ));
    } else {
        for (i, s) in t.code.iter().enumerate() {
            cx.stmt(s, i + 1, true, 1)?;
        }
    }
    Ok((
        LThread {
            name: t.name.clone(),
            group: group[k],
            rank,
            phases: cx.out,
            regs,
            places: cx.used,
        },
        cx.spaces,
        cx.notes,
    ))
}

struct Cx<'a> {
    p: &'a Program,
    k: usize,
    tname: &'a str,
    places: &'a [Place],
    out: Vec<String>,
    used: BTreeSet<(bool, u32)>,
    notes: Vec<String>,
    const_addr: Vec<Option<LocId>>,
    spaces: (bool, bool),
    group: u32,
    groups: &'a [u32],
}

impl Cx<'_> {
    fn here(&self, n: usize) -> String {
        format!("thread {} instruction {n}", self.tname)
    }

    fn reg(&self, r: Reg) -> String {
        format!("t{}_r{}", self.k, r.0)
    }

    fn emit(&mut self, depth: usize, line: String) {
        let cur = self.out.last_mut().expect("a phase");
        for _ in 0..depth {
            cur.push_str("    ");
        }
        cur.push_str(&line);
        cur.push('\n');
    }

    /// A value expression as WGSL `i32`.
    fn expr(&self, e: &Expr, n: usize) -> Result<String, CodegenError> {
        Ok(match e {
            Expr::Int(v) => {
                let v = int32(*v, &format!("{}: constant", self.here(n))).or_else(err)?;
                if v < 0 {
                    format!("({v}i)")
                } else {
                    format!("{v}i")
                }
            }
            Expr::Reg(r) => {
                if self.const_addr.get(r.index()).copied().flatten().is_some() {
                    return err(format!(
                        "{}: uses the address in register {} as a value: WGSL has no addresses",
                        self.here(n),
                        self.p.threads[self.k].reg_name(*r)
                    ));
                }
                if r.index() >= self.p.threads[self.k].regs.len() {
                    return err(format!("{}: undeclared register {}", self.here(n), r.0));
                }
                self.reg(*r)
            }
            Expr::Addr(l) => {
                return err(format!(
                    "{}: uses the address of {} as a value: WGSL has no addresses",
                    self.here(n),
                    self.p.loc(*l).name
                ))
            }
            Expr::Un(op, a) => {
                let a = self.expr(a, n)?;
                match op {
                    UnOp::Neg => format!("(-{a})"),
                    UnOp::Not => format!("(~{a})"),
                    UnOp::LNot => format!("select(0i, 1i, {a} == 0i)"),
                }
            }
            Expr::Bin(op, a, b) => {
                let a = self.expr(a, n)?;
                let b = self.expr(b, n)?;
                match op {
                    BinOp::Div => format!("safe_div({a}, {b})"),
                    BinOp::Rem => format!("safe_rem({a}, {b})"),
                    BinOp::Shl => format!("({a} << (u32({b}) & 31u))"),
                    BinOp::Shr => format!("({a} >> (u32({b}) & 31u))"),
                    BinOp::LAnd => format!("select(0i, 1i, {a} != 0i && {b} != 0i)"),
                    BinOp::LOr => format!("select(0i, 1i, {a} != 0i || {b} != 0i)"),
                    o if o.is_comparison() => {
                        format!("select(0i, 1i, {a} {} {b})", o.c_symbol())
                    }
                    o => format!("({a} {} {b})", o.c_symbol()),
                }
            }
        })
    }

    /// The cell an address expression names: a location or a constant-address register.
    fn addr(&mut self, e: &Expr, n: usize) -> Result<String, CodegenError> {
        let loc = match e {
            Expr::Addr(l) => *l,
            Expr::Reg(r) => match self.const_addr.get(r.index()).copied().flatten() {
                Some(l) => l,
                None => {
                    return err(format!(
                        "{}: the address is computed at run time (register {}): address computation cannot be expressed in WGSL",
                        self.here(n),
                        self.p.threads[self.k].reg_name(*r)
                    ))
                }
            },
            _ => {
                return err(format!(
                    "{}: the address is computed: address computation cannot be expressed in WGSL",
                    self.here(n)
                ))
            }
        };
        let Some(pl) = self.places.get(loc.index()) else {
            return err(format!("{}: unknown location {}", self.here(n), loc.0));
        };
        Ok(match *pl {
            Place::Storage(j) => {
                self.used.insert((false, j));
                format!("&mem[c{}_s{j}]", self.k)
            }
            Place::Workgroup(j) => {
                self.used.insert((true, j));
                format!("&wmem[c{}_w{j}]", self.k)
            }
        })
    }

    /// Checks an access's annotations: relaxed atomics are faithful; weak accesses are
    /// strengthened (noted); orders and scopes WGSL lacks are refused.
    fn access(
        &mut self,
        a: &MemAttrs,
        n: usize,
        what: &str,
        rmw: bool,
    ) -> Result<(), CodegenError> {
        let here = self.here(n);
        check_type(a.ty, &format!("{here}: the {what}")).or_else(err)?;
        if a.proxy != Proxy::Generic {
            return err(format!(
                "{here}: the {what} uses the {} proxy: WGSL has no proxies",
                a.proxy.name()
            ));
        }
        match a.order {
            Order::Relaxed => {}
            Order::Plain if rmw => {
                // PTX `atom` without a .sem qualifier is relaxed (PTX ISA memory model).
            }
            Order::Plain => {
                let mut how = String::from("a non-atomic (weak) access");
                if let Some(c) = a.cache {
                    how.push_str(&format!(" with cache operator .{}", c.name()));
                }
                if a.volatile {
                    how.push_str(" (volatile)");
                }
                self.notes.push(format!(
                    "{here}: {how} is emitted as a WGSL relaxed atomic{}",
                    if a.cache.is_some() {
                        "; WGSL has no cache operators, so the access may take a different path through the caches"
                    } else {
                        ""
                    }
                ));
            }
            o => {
                return err(format!(
                    "{here}: the {what} is {}: WGSL atomics are relaxed only",
                    o.name()
                ))
            }
        }
        match a.scope {
            None | Some(Scope::Gpu) | Some(Scope::QueueFamily) => {}
            Some(Scope::System) => {
                return err(format!(
                    "{here}: the {what} has system scope: WGSL atomics have at most device scope"
                ))
            }
            Some(s) => {
                let others_outside = self
                    .groups
                    .iter()
                    .enumerate()
                    .any(|(u, g)| u != self.k && *g != self.group);
                if others_outside || s < Scope::Cta {
                    self.notes.push(format!(
                        "{here}: the {what} has {} scope but WGSL storage atomics are device-scoped (a strengthening)",
                        s.name()
                    ));
                }
            }
        }
        Ok(())
    }

    /// A thread with jumps or loops: its basic blocks as the cases of a `switch` on a block
    /// counter, run by a `loop` bounded by [`SPIN_CAP`] steps (see the module doc).
    fn state_machine(&mut self, code: &[Stmt]) -> Result<(), CodegenError> {
        use weft_ir::cfg::{Cfg, Terminator};
        let cfg = Cfg::build(code)
            .map_err(|e| CodegenError::new(format!("thread {}: {}", self.tname, e.message)))?;
        let exit = cfg.blocks.len();
        self.emit(
            1,
            format!(
                "{{ var pc_ = {}u; var steps_ = 0u; loop {{",
                if cfg.blocks.is_empty() {
                    exit
                } else {
                    cfg.entry
                }
            ),
        );
        self.emit(2, format!("if (pc_ == {exit}u) {{ break; }}"));
        let regs: Vec<String> = (0..self.p.threads[self.k].regs.len())
            .filter(|r| self.const_addr[*r].is_none())
            .map(|r| format!("{} = (-2147483647i - 1i);", self.reg(Reg(r as u32))))
            .collect();
        self.emit(
            2,
            format!("if (steps_ >= {SPIN_CAP}u) {{ {} break; }}", regs.join(" ")),
        );
        self.emit(2, "steps_ = steps_ + 1u;".into());
        self.emit(2, "switch pc_ {".into());
        let mut n = 0;
        for (b, block) in cfg.blocks.iter().enumerate() {
            self.emit(3, format!("case {b}u: {{"));
            for st in &block.stmts {
                n += 1;
                self.stmt(st, n, false, 4)?;
            }
            let next = match &block.term {
                Terminator::Goto(t) => format!("pc_ = {t}u;"),
                Terminator::Branch {
                    cond,
                    then_block,
                    else_block,
                } => {
                    let c = self.expr(cond, n)?;
                    format!(
                        "if ({c} != 0i) {{ pc_ = {then_block}u; }} else {{ pc_ = {else_block}u; }}"
                    )
                }
                Terminator::Exit => format!("pc_ = {exit}u;"),
            };
            self.emit(4, next);
            self.emit(3, "}".into());
        }
        self.emit(3, format!("default: {{ pc_ = {exit}u; }}"));
        self.emit(2, "}".into());
        self.emit(1, "} }".into());
        Ok(())
    }

    fn guard(&self, s: &Stmt) -> Option<String> {
        s.guard.map(|g| {
            format!(
                "if ({} {} 0i) ",
                self.reg(g.reg),
                if g.negated { "==" } else { "!=" }
            )
        })
    }

    fn barrier_point(
        &mut self,
        top: bool,
        guarded: bool,
        n: usize,
        storage: bool,
        workgroup: bool,
    ) -> Result<(), CodegenError> {
        if !top || guarded {
            return err(format!(
                "{}: a barrier under a condition cannot be expressed: WGSL barriers need uniform control flow",
                self.here(n)
            ));
        }
        self.spaces.0 |= storage;
        self.spaces.1 |= workgroup;
        self.out.push(String::new());
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt, n: usize, top: bool, depth: usize) -> Result<(), CodegenError> {
        let here = self.here(n);
        let g = self.guard(s).unwrap_or_default();
        match &s.kind {
            StmtKind::Load(l) => {
                self.access(&l.attrs, n, "load", false)?;
                let a = self.addr(&l.addr, n)?;
                let d = self.reg(l.dst);
                self.emit(depth, format!("{g}{{ {d} = atomicLoad({a}); }}"));
            }
            StmtKind::Store(st) => {
                self.access(&st.attrs, n, "store", false)?;
                let a = self.addr(&st.addr, n)?;
                let v = self.expr(&st.value, n)?;
                self.emit(depth, format!("{g}{{ atomicStore({a}, {v}); }}"));
            }
            StmtKind::Rmw(r) => self.rmw(r, n, &g, depth)?,
            StmtKind::Fence(f) => self.fence(f, n, top, s.guard.is_some())?,
            StmtKind::Barrier(b) => self.barrier(b, n, top, s.guard.is_some())?,
            StmtKind::Assign { dst, value } => {
                if self
                    .const_addr
                    .get(dst.index())
                    .copied()
                    .flatten()
                    .is_some()
                {
                    return err(format!(
                        "{here}: assigns an address register: address computation cannot be expressed in WGSL"
                    ));
                }
                let v = self.expr(value, n)?;
                let d = self.reg(*dst);
                self.emit(depth, format!("{g}{{ {d} = {v}; }}"));
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let c = self.expr(cond, n)?;
                self.emit(depth, format!("{g}{{ if ({c} != 0i) {{"));
                for x in then_branch {
                    self.stmt(x, n, false, depth + 1)?;
                }
                self.emit(depth, "} else {".into());
                for x in else_branch {
                    self.stmt(x, n, false, depth + 1)?;
                }
                self.emit(depth, "} }".into());
            }
            StmtKind::Label(_) | StmtKind::Jump { .. } | StmtKind::While { .. } => {
                // Threads with these run as state machines (`state_machine`); a CFG block
                // never holds one.
                return err(format!(
                    "{here}: a jump or loop inside a structured statement cannot be lowered"
                ));
            }
            StmtKind::Assume(_) | StmtKind::Assert(_) => {
                return err(format!(
                    "{here}: assume/assert cannot be evaluated on the GPU"
                ))
            }
        }
        Ok(())
    }

    /// A read-modify-write: WGSL's atomic of the operation, or a compare-exchange loop
    /// (strong compare-and-swap, PTX `inc`/`dec`).
    fn rmw(
        &mut self,
        r: &weft_ir::Rmw,
        n: usize,
        g: &str,
        depth: usize,
    ) -> Result<(), CodegenError> {
        let here = self.here(n);
        self.access(&r.attrs, n, "read-modify-write", true)?;
        if r.fail_order
            .is_some_and(|o| o != Order::Relaxed && o != Order::Plain)
        {
            return err(format!(
                "{here}: the compare-exchange's failure order is not relaxed: WGSL atomics are relaxed only"
            ));
        }
        let a = self.addr(&r.addr, n)?;
        let mut args = Vec::new();
        for x in &r.args {
            args.push(self.expr(x, n)?);
        }
        if args.len() != r.op.arity() {
            return err(format!(
                "{here}: {} takes {} operand(s), not {}",
                r.op.name(),
                r.op.arity(),
                args.len()
            ));
        }
        let dst = r.dst.map(|d| self.reg(d));
        let set = |v: &str| match &dst {
            Some(d) => format!("{d} = {v};"),
            None => format!("_ = {v};"),
        };
        let body = match r.op {
            RmwOp::Exch => set(&format!("atomicExchange({a}, {})", args[0])),
            RmwOp::Add => set(&format!("atomicAdd({a}, {})", args[0])),
            RmwOp::Sub => set(&format!("atomicSub({a}, {})", args[0])),
            RmwOp::And => set(&format!("atomicAnd({a}, {})", args[0])),
            RmwOp::Or => set(&format!("atomicOr({a}, {})", args[0])),
            RmwOp::Xor => set(&format!("atomicXor({a}, {})", args[0])),
            RmwOp::Min => set(&format!("atomicMin({a}, {})", args[0])),
            RmwOp::Max => set(&format!("atomicMax({a}, {})", args[0])),
            RmwOp::Cas => {
                let d = dst.clone().unwrap_or_else(|| "_".into());
                format!(
                    "var o_: i32; var n_ = 0u; loop {{ let r_ = atomicCompareExchangeWeak({a}, {c}, {v}); o_ = r_.old_value; if (r_.exchanged || r_.old_value != {c} || n_ >= {lim}u) {{ break; }} n_ = n_ + 1u; }} {d} = o_;",
                    c = args[0],
                    v = args[1],
                    lim = RMW_RETRIES
                )
            }
            RmwOp::Inc | RmwOp::Dec => {
                let d = dst.clone().unwrap_or_else(|| "_".into());
                let nv = if r.op == RmwOp::Inc {
                    format!("select(o_ + 1i, 0i, o_ >= {})", args[0])
                } else {
                    format!("select(o_ - 1i, {x}, o_ == 0i || o_ > {x})", x = args[0])
                };
                format!(
                    "var o_: i32; var n_ = 0u; loop {{ o_ = atomicLoad({a}); let r_ = atomicCompareExchangeWeak({a}, o_, {nv}); if (r_.exchanged || n_ >= {lim}u) {{ break; }} n_ = n_ + 1u; }} {d} = o_;",
                    lim = RMW_RETRIES
                )
            }
            RmwOp::CompareExchange { .. } => {
                return err(format!(
                    "{here}: a C11 compare-exchange writes its expected value back to memory: not expressible with WGSL's atomicCompareExchangeWeak on one cell"
                ))
            }
        };
        self.emit(depth, format!("{g}{{ {body} }}"));
        Ok(())
    }

    /// A fence: an acquire/release workgroup-scope fence is a barrier point (a workgroup
    /// barrier, which is also a control barrier); others are refused.
    fn fence(
        &mut self,
        f: &weft_ir::Fence,
        n: usize,
        top: bool,
        guarded: bool,
    ) -> Result<(), CodegenError> {
        let here = self.here(n);
        let scope = f.attrs.scope.unwrap_or(Scope::System);
        match f.kind {
            FenceKind::Fence | FenceKind::Membar => {}
            k => return err(format!("{here}: a {k:?} fence has no WGSL equivalent")),
        }
        let order_ok = matches!(
            f.attrs.order,
            Order::Acquire | Order::Release | Order::AcqRel
        );
        if !order_ok || scope > Scope::Cta {
            return err(format!(
                "{here}: a {} {}-scope fence cannot be expressed: WGSL's only fences are the acquire-release, workgroup-scope semantics of workgroupBarrier/storageBarrier",
                f.attrs.order.name(),
                scope.name()
            ));
        }
        let st = f.spaces.is_empty() || f.spaces.contains(&MemSpace::Global);
        let wg = f.spaces.is_empty() || f.spaces.contains(&MemSpace::Shared);
        self.barrier_point(top, guarded, n, st, wg)?;
        self.notes.push(format!(
            "{here}: the {} workgroup fence is emitted as a workgroup barrier (also a control barrier: a strengthening)",
            f.attrs.order.name()
        ));
        Ok(())
    }

    /// A CTA-scope synchronising barrier without count or computed id: a barrier point.
    fn barrier(
        &mut self,
        b: &weft_ir::Barrier,
        n: usize,
        top: bool,
        guarded: bool,
    ) -> Result<(), CodegenError> {
        let here = self.here(n);
        if b.kind != BarrierKind::Sync {
            return err(format!(
                "{here}: a {:?} barrier has no WGSL equivalent (only workgroupBarrier/storageBarrier, which every invocation waits at)",
                b.kind
            ));
        }
        if b.scope != Scope::Cta {
            return err(format!(
                "{here}: a {}-scope barrier cannot be expressed: WGSL barriers synchronise one workgroup",
                b.scope.name()
            ));
        }
        if !b.operands.is_empty() || !matches!(b.id, Expr::Int(_)) {
            return err(format!(
                "{here}: a barrier with a thread count or computed id cannot be expressed: WGSL barriers have neither"
            ));
        }
        if matches!(b.attrs.order, Order::SeqCst) {
            return err(format!(
                "{here}: a seq_cst barrier cannot be expressed: WGSL barriers are acquire-release"
            ));
        }
        if matches!(b.attrs.order, Order::Acquire | Order::Release) {
            self.notes.push(format!(
                "{here}: the {} barrier is emitted as a WGSL barrier, which is acquire-release (a strengthening)",
                b.attrs.order.name()
            ));
        }
        let st = b.spaces.is_empty() || b.spaces.contains(&MemSpace::Global);
        let wg = b.spaces.is_empty() || b.spaces.contains(&MemSpace::Shared);
        self.barrier_point(top, guarded, n, st, wg)?;
        Ok(())
    }
}
