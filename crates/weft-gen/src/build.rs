//! From a cycle to a litmus test (`weft_ir::Program`) as diy7 builds it: one thread per
//! run of program-order edges, writes storing their coherence rank, reads observing the
//! value the cycle needs, dependencies and fences between accesses, and a final condition
//! over every read and every location written twice. GPU targets add the placement of
//! threads in the scope tree, access and fence scopes, memory regions and cache operators
//! (paper 000 §4), and dependencies as *false* dependencies ptxas cannot fold away
//! (paper 000 §4.5, Fig. 13: `and.b32 r, rX, 0x80000000`).

use weft_ir::{
    Arch, BinOp, CacheOp, Condition, DataType, Expr, Fence, FenceKind, Guard, Load, LocId,
    Location, MemAttrs, MemSpace, Order, Param, Placement, Program, Prop, Quantifier, Reg, RegDecl,
    Rmw, RmwOp, Scope, Stmt, StmtKind, Store, Term, Thread,
};

use crate::cycle::{loc_name, seq_text, Cycle, Layout};
use crate::edge::{Ann, Com, Dir, DpKind, Edge, FenceName, Kind, Region};

/// The architecture a generated test is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// herd C11 (diy7's `-arch C`).
    C,
    /// PTX: Dat3M's PTX dialect or herd's GPU_PTX, depending on the printer chosen.
    Ptx,
    /// Dat3M's Vulkan dialect.
    Vulkan,
    /// OpenCL C.
    OpenCl,
    /// WebGPU (GPUHarbor JSON): relaxed atomics only, the coherence-only subset.
    WebGpu,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::C => "c",
            Target::Ptx => "ptx",
            Target::Vulkan => "vulkan",
            Target::OpenCl => "opencl",
            Target::WebGpu => "webgpu",
        }
    }

    pub fn arch(self) -> Arch {
        match self {
            Target::C => Arch::C,
            Target::Ptx => Arch::Ptx,
            Target::Vulkan => Arch::Vulkan,
            Target::OpenCl => Arch::OpenCl,
            Target::WebGpu => Arch::WebGpu,
        }
    }
}

/// Options of the build that are not in the cycle.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Scope of atomic accesses without a scope qualifier (GPU targets).
    pub default_scope: Scope,
    /// Placement of threads joined by an external communication without a placement
    /// qualifier: the narrowest scope they share (`Gpu`: different CTAs of one GPU).
    pub default_placement: Scope,
    /// Generator line written in the metadata.
    pub generator: String,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            default_scope: Scope::Gpu,
            default_placement: Scope::Gpu,
            generator: format!("weft gen (version {})", env!("CARGO_PKG_VERSION")),
        }
    }
}

/// Why a cycle cannot be built for a target.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BuildError(pub String);

fn c_order(a: Option<Ann>) -> Order {
    match a {
        None | Some(Ann::Na) => Order::Plain,
        Some(Ann::Rlx) => Order::Relaxed,
        Some(Ann::Acq) => Order::Acquire,
        Some(Ann::Rel) => Order::Release,
        Some(Ann::AR) => Order::AcqRel,
        Some(Ann::Sc) => Order::SeqCst,
        Some(Ann::Con) => Order::Consume,
    }
}

/// The order of an exchange from the orders of its read and its write (`Acq` read and
/// `Rel` write: `acq_rel`; an `Sc` part: `seq_cst`).
fn exchange_order(r: Order, w: Order) -> Order {
    if r == Order::SeqCst || w == Order::SeqCst {
        return Order::SeqCst;
    }
    let acq = matches!(r, Order::Acquire | Order::AcqRel) || w == Order::AcqRel;
    let rel = matches!(w, Order::Release | Order::AcqRel) || r == Order::AcqRel;
    match (acq, rel) {
        (true, true) => Order::AcqRel,
        (true, false) => Order::Acquire,
        (false, true) => Order::Release,
        (false, false) if r == Order::Consume => Order::Consume,
        _ => Order::Relaxed,
    }
}

fn fence_order(f: FenceName) -> Order {
    match f {
        FenceName::Sc | FenceName::Membar => Order::SeqCst,
        FenceName::Bar => Order::AcqRel,
        FenceName::Acq => Order::Acquire,
        FenceName::Rel => Order::Release,
        FenceName::AR => Order::AcqRel,
        FenceName::Rlx => Order::Relaxed,
        FenceName::Con => Order::Consume,
    }
}

/// Whether the placement qualifiers of a cycle's external communications can all hold.
pub fn placement_consistent(c: &Cycle, default: Scope) -> bool {
    groups(c, &c.layout(), default, false).is_some()
        && groups(c, &c.layout(), default, true).is_some()
}

/// The level of the scope tree two threads joined at scope `s` share: 0 warp/subgroup,
/// 1 CTA/workgroup, 2 GPU (PTX, OpenCL) or queue family (Vulkan), 3 beyond (different
/// devices in PTX; in Vulkan, `.dv`/`.gpu`: different queue families of one device).
fn level(s: Scope, vulkan: bool) -> usize {
    match s {
        Scope::Thread | Scope::Warp => 0,
        Scope::Cta => 1,
        Scope::QueueFamily => 2,
        Scope::Gpu if vulkan => 3,
        Scope::Gpu => 2,
        Scope::System => 3,
    }
}

fn find(parent: &mut [usize], x: usize) -> usize {
    let mut r = x;
    while parent[r] != r {
        r = parent[r];
    }
    parent[x] = r;
    r
}

/// For each thread, its warp, CTA and GPU group: an external communication qualified
/// with scope `s` joins its two threads at `s` and every wider level and separates them
/// below `s`. `None` when the qualifiers contradict each other.
///
/// In Vulkan (`vulkan`), the third group is the queue family: an unqualified
/// communication keeps its threads in one queue family (different workgroups), and
/// `.dv` (`.gpu`) puts them in different queue families.
fn groups(c: &Cycle, lay: &Layout, default: Scope, vulkan: bool) -> Option<Vec<[u32; 3]>> {
    let nt = lay.threads.len();
    let links: Vec<(usize, usize, usize)> = (0..nt)
        .map(|t| {
            let e = &c.edges[*lay.threads[t].last().unwrap()];
            let l = match e.quals.scope {
                Some(s) => level(s, vulkan),
                None => level(default, false),
            };
            (t, (t + 1) % nt, l)
        })
        .collect();
    let mut ids = vec![[0u32; 3]; nt];
    for (lv, slot) in [(0usize, 0usize), (1, 1), (2, 2)] {
        let mut parent: Vec<usize> = (0..nt).collect();
        for &(a, b, l) in &links {
            if l <= lv {
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                parent[ra] = rb;
            }
        }
        for &(a, b, l) in &links {
            if l > lv && find(&mut parent, a) == find(&mut parent, b) {
                return None;
            }
        }
        let mut names: Vec<usize> = Vec::new();
        for (t, id) in ids.iter_mut().enumerate() {
            let r = find(&mut parent, t);
            let k = match names.iter().position(|&x| x == r) {
                Some(k) => k,
                None => {
                    names.push(r);
                    names.len() - 1
                }
            };
            id[slot] = k as u32;
        }
    }
    Some(ids)
}

/// Placement of each thread in the scope tree of `target`.
fn placements(
    c: &Cycle,
    lay: &Layout,
    target: Target,
    opts: &BuildOptions,
) -> Result<Vec<Placement>, BuildError> {
    let ids =
        groups(c, lay, opts.default_placement, target == Target::Vulkan).ok_or_else(|| {
            BuildError(
                "the placement qualifiers of the communications contradict each other".into(),
            )
        })?;
    let nt = ids.len();
    // Name the warp level only when two threads share a warp: without it, threads of one
    // CTA are in different warps (Dat3M's PTX dialect has no warp level).
    let share_warp = (0..nt).any(|a| (0..nt).any(|b| a != b && ids[a] == ids[b]));
    Ok(ids
        .into_iter()
        .map(|[w, c, g]| match target {
            Target::Vulkan => Placement::new(vec![
                (Scope::Warp, w),
                (Scope::Cta, c),
                (Scope::QueueFamily, g),
            ]),
            Target::OpenCl => Placement::new(vec![(Scope::Cta, c), (Scope::Gpu, g)]),
            Target::Ptx => {
                if share_warp {
                    Placement::new(vec![(Scope::Warp, w), (Scope::Cta, c), (Scope::Gpu, g)])
                } else {
                    Placement::new(vec![(Scope::Cta, c), (Scope::Gpu, g)])
                }
            }
            Target::WebGpu => Placement::new(vec![(Scope::Cta, c), (Scope::Gpu, 0)]),
            Target::C => Placement::default(),
        })
        .collect())
}

/// Builds the test of a cycle (in its own rotation) for `target`, named `name`.
pub fn build(
    c: &Cycle,
    name: &str,
    target: Target,
    opts: &BuildOptions,
) -> Result<Program, BuildError> {
    let mut lay = c.layout();
    relax_exchange_locations(c, &mut lay);
    let mut p = Program::new(target.arch(), name);
    p.doc.push(c.text());
    p.meta = meta(c, &lay, opts);
    let gpu = target != Target::C;
    for l in 0..lay.nlocs {
        let mut loc = Location::scalar(loc_name(l), 0);
        if lay.regions[l] == Region::Shared {
            loc.space = MemSpace::Shared;
        }
        p.locations.push(loc);
    }
    // Which locations some annotated (atomic) event touches: C params are atomic_int then.
    let mut atomic_loc = vec![false; lay.nlocs];
    for ev in &lay.events {
        if !matches!(ev.ann, None | Some(Ann::Na)) {
            atomic_loc[ev.loc] = true;
        }
    }
    if target == Target::WebGpu {
        check_webgpu(c, &lay)?;
    }
    let places = placements(c, &lay, target, opts)?;
    if gpu {
        check_shared_ctas(&lay, &places)?;
    }
    let mut read_regs: Vec<(usize, Reg, i64)> = Vec::new();
    for (ti, t) in lay.threads.iter().enumerate() {
        let mut th = Thread::new(format!("P{ti}"));
        th.placement = places[ti].clone();
        if target == Target::C || target == Target::OpenCl {
            th.params = thread_params(t, &lay, target, &atomic_loc);
        }
        let mut g = ThreadGen {
            c,
            lay: &lay,
            target,
            opts,
            th,
            blocks: vec![(Vec::new(), None)],
            ev_reg: vec![None; c.edges.len()],
            guard: None,
            nregs: 0,
        };
        for (k, &i) in t.iter().enumerate() {
            g.event(ti, t, k, i, &mut read_regs)?;
        }
        p.threads.push(g.finish());
    }
    p.condition = Some(condition(&lay, read_regs));
    Ok(p)
}

/// An exchange (`Rmw`) is atomic: the unannotated accesses of its location become relaxed
/// atomics, so no location mixes plain and atomic accesses.
fn relax_exchange_locations(c: &Cycle, lay: &mut Layout) {
    let mut rmw_loc = vec![false; lay.nlocs];
    for (i, e) in c.edges.iter().enumerate() {
        if e.kind == Kind::Rmw {
            rmw_loc[lay.events[i].loc] = true;
        }
    }
    for ev in &mut lay.events {
        if rmw_loc[ev.loc] && ev.ann.is_none() {
            ev.ann = Some(Ann::Rlx);
        }
    }
}

/// Shared memory is per CTA: every thread touching a shared location must share a CTA.
fn check_shared_ctas(lay: &Layout, places: &[Placement]) -> Result<(), BuildError> {
    for l in 0..lay.nlocs {
        if lay.regions[l] == Region::Shared {
            let ts: Vec<usize> = lay
                .events
                .iter()
                .filter(|e| e.loc == l)
                .map(|e| e.thread)
                .collect();
            for &a in &ts {
                for &b in &ts {
                    if a != b && !places[a].same_instance(&places[b], Scope::Cta) {
                        return Err(BuildError(format!(
                            "location {} is in shared memory but threads P{a} and P{b} are in different CTAs",
                            loc_name(l)
                        )));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The parameters of a C or OpenCL thread: the locations its events touch, in reverse name
/// order.
fn thread_params(t: &[usize], lay: &Layout, target: Target, atomic_loc: &[bool]) -> Vec<Param> {
    let mut used: Vec<usize> = t.iter().map(|&i| lay.events[i].loc).collect();
    used.sort();
    used.dedup();
    used.sort_by_key(|l| std::cmp::Reverse(loc_name(*l)));
    used.into_iter()
        .map(|l| Param {
            name: loc_name(l),
            loc: LocId(l as u32),
            space: if target == Target::OpenCl {
                Some(if lay.regions[l] == Region::Shared {
                    MemSpace::Shared
                } else {
                    MemSpace::Global
                })
            } else {
                None
            },
            atomic: atomic_loc[l],
            volatile: !atomic_loc[l] && target == Target::C,
            base: "int".into(),
        })
        .collect()
}

/// The condition: final values of locations written twice, then every read.
fn condition(lay: &Layout, read_regs: Vec<(usize, Reg, i64)>) -> Condition {
    let mut atoms: Vec<Prop> = Vec::new();
    for (l, f) in lay.finals.iter().enumerate() {
        if let Some(v) = f {
            atoms.push(Prop::Cmp(
                Term::Mem {
                    loc: LocId(l as u32),
                    index: 0,
                },
                weft_ir::CmpOp::Eq,
                Term::Int(*v),
            ));
        }
    }
    for (t, r, v) in read_regs {
        atoms.push(Prop::Cmp(
            Term::Reg { thread: t, reg: r },
            weft_ir::CmpOp::Eq,
            Term::Int(v),
        ));
    }
    let prop = atoms.into_iter().reduce(Prop::and).unwrap_or(Prop::True);
    Condition {
        quantifier: Quantifier::Exists,
        prop,
    }
}

/// One thread's code being built: its blocks (innermost last: control dependencies nest the
/// rest of the thread), the register each read event went to, the current guard.
struct ThreadGen<'a> {
    c: &'a Cycle,
    lay: &'a Layout,
    target: Target,
    opts: &'a BuildOptions,
    th: Thread,
    blocks: Vec<(Vec<Stmt>, Option<Expr>)>,
    ev_reg: Vec<Option<Reg>>,
    guard: Option<Guard>,
    nregs: u32,
}

impl ThreadGen<'_> {
    fn gpu(&self) -> bool {
        self.target != Target::C
    }

    fn new_reg(&mut self, ty: DataType) -> Reg {
        let name = format!("r{}", self.nregs);
        self.nregs += 1;
        self.th.regs.push(RegDecl {
            name,
            ty: Some(ty),
            init: None,
            temp: false,
        });
        Reg(self.th.regs.len() as u32 - 1)
    }

    fn push(&mut self, kind: StmtKind) {
        push(&mut self.blocks, kind, self.guard);
    }

    /// A register assigned `value` (under the current guard).
    fn assign(&mut self, ty: DataType, value: Expr) -> Reg {
        let d = self.new_reg(ty);
        self.push(StmtKind::Assign { dst: d, value });
        d
    }

    /// Event `i`, the `k`th of thread `ti` (whose events are `t`): the fence or dependency of
    /// the edge into it, then its access.
    fn event(
        &mut self,
        ti: usize,
        t: &[usize],
        k: usize,
        i: usize,
        read_regs: &mut Vec<(usize, Reg, i64)>,
    ) -> Result<(), BuildError> {
        let (c, lay) = (self.c, self.lay);
        let n = c.edges.len();
        let ev = &lay.events[i];
        let loc = LocId(ev.loc as u32);
        let mut addr = Expr::Addr(loc);
        let mut value = Expr::Int(ev.value);
        if k > 0 {
            let e = &c.edges[t[k - 1]];
            match e.kind {
                Kind::Fence(f, _) => self.fence(e, f)?,
                Kind::Dp(dk, _) => {
                    let src = self.ev_reg[t[k - 1]].expect("dependency from a read");
                    let expect = lay.events[t[k - 1]].value;
                    self.dependency(dk, src, expect, ev.value, loc, &mut addr, &mut value);
                }
                _ => {}
            }
        }
        let mut attrs = access_attrs(ev, self.target, self.opts, lay)?;
        if k > 0 && c.edges[t[k - 1]].kind == Kind::Rmw {
            // The write of an exchange was emitted with its read.
            return Ok(());
        }
        if c.edges[i].kind == Kind::Rmw {
            let w = &lay.events[(i + 1) % n];
            attrs.order = exchange_order(c_order(ev.ann), c_order(w.ann));
            if self.target == Target::WebGpu {
                attrs.order = Order::Relaxed;
            }
            let r = self.new_reg(DataType::S32);
            self.ev_reg[i] = Some(r);
            read_regs.push((ti, r, ev.value));
            self.push(StmtKind::Rmw(Rmw {
                dst: Some(r),
                addr,
                op: RmwOp::Exch,
                args: vec![Expr::Int(w.value)],
                attrs,
                fail_order: None,
            }));
            return Ok(());
        }
        match ev.dir {
            Dir::R => {
                let r = self.new_reg(DataType::S32);
                self.ev_reg[i] = Some(r);
                read_regs.push((ti, r, ev.value));
                self.push(StmtKind::Load(Load {
                    dst: r,
                    addr,
                    attrs,
                }));
            }
            Dir::W => self.push(StmtKind::Store(Store { addr, value, attrs })),
        }
        Ok(())
    }

    /// The fence (or CTA barrier) of fence edge `e`.
    fn fence(&mut self, e: &Edge, f: FenceName) -> Result<(), BuildError> {
        let mut attrs = MemAttrs::with_order(fence_order(f));
        let kind = if f == FenceName::Membar {
            FenceKind::Membar
        } else {
            FenceKind::Fence
        };
        if self.gpu() {
            attrs.scope = Some(e.quals.scope.unwrap_or(self.opts.default_scope));
        }
        if self.target == Target::Vulkan {
            attrs.vulkan.sem_classes = vec![0];
        }
        let stmt = if f == FenceName::Bar {
            if self.target == Target::C {
                return Err(BuildError("C has no execution barriers".into()));
            }
            // A CTA/workgroup barrier; WebGPU's storage barrier covers
            // storage (global) memory with acquire-release semantics.
            let (battrs, spaces) = if self.target == Target::WebGpu {
                (
                    MemAttrs::scoped(Order::AcqRel, Scope::Cta),
                    vec![MemSpace::Global],
                )
            } else {
                (MemAttrs::default(), Vec::new())
            };
            StmtKind::Barrier(weft_ir::Barrier {
                kind: weft_ir::BarrierKind::Sync,
                scope: Scope::Cta,
                id: Expr::Int(0),
                operands: Vec::new(),
                attrs: battrs,
                spaces,
            })
        } else {
            StmtKind::Fence(Fence {
                kind,
                attrs,
                spaces: Vec::new(),
            })
        };
        self.push(stmt);
        Ok(())
    }

    /// A dependency of kind `dk` from the read into register `src` (which read `expect`) to
    /// the next access (of `loc`, writing `v`): it changes that access's `addr` or `value`,
    /// or guards the rest of the thread.
    #[allow(clippy::too_many_arguments)]
    fn dependency(
        &mut self,
        dk: DpKind,
        src: Reg,
        expect: i64,
        v: i64,
        loc: LocId,
        addr: &mut Expr,
        value: &mut Expr,
    ) {
        let gpu = self.gpu();
        // C: `r & 128` as diy7 writes it; GPU: a false dependency that
        // ptxas cannot fold (paper 000 Fig. 13).
        let mask = if gpu { 0x8000_0000 } else { 128 };
        let masked = Expr::bin(BinOp::And, Expr::Reg(src), Expr::Int(mask));
        let dep = if gpu {
            Expr::Reg(self.assign(DataType::B32, masked))
        } else {
            masked
        };
        match dk {
            DpKind::Addr => {
                let a = Expr::bin(BinOp::Add, Expr::Addr(loc), dep);
                *addr = if gpu {
                    Expr::Reg(self.assign(DataType::B64, a))
                } else {
                    a
                };
            }
            DpKind::Data => {
                *value = if gpu {
                    // PTX operands are registers or constants: `add` first.
                    Expr::Reg(self.assign(DataType::S32, Expr::bin(BinOp::Add, dep, Expr::Int(v))))
                } else {
                    Expr::bin(BinOp::Add, Expr::Int(v), dep)
                };
            }
            DpKind::Ctrl => {
                if gpu {
                    let sum =
                        self.assign(DataType::S32, Expr::bin(BinOp::Add, Expr::Reg(src), dep));
                    let pr = self.assign(
                        DataType::PRED,
                        Expr::bin(BinOp::Eq, Expr::Reg(sum), Expr::Int(expect)),
                    );
                    self.guard = Some(Guard {
                        reg: pr,
                        negated: false,
                    });
                } else {
                    self.blocks.push((
                        Vec::new(),
                        Some(Expr::bin(BinOp::Eq, Expr::Reg(src), Expr::Int(expect))),
                    ));
                }
            }
        }
    }

    /// The thread with its blocks nested (each inner block the body of an `if`).
    fn finish(mut self) -> Thread {
        while self.blocks.len() > 1 {
            let (body, cond) = self.blocks.pop().unwrap();
            let cond = cond.unwrap_or(Expr::Int(1));
            push(
                &mut self.blocks,
                StmtKind::If {
                    cond,
                    then_branch: body,
                    else_branch: Vec::new(),
                },
                None,
            );
        }
        self.th.code = self.blocks.pop().unwrap().0;
        self.th
    }
}

fn push(blocks: &mut [(Vec<Stmt>, Option<Expr>)], kind: StmtKind, guard: Option<Guard>) {
    let mut s = Stmt::new(kind, Default::default());
    s.guard = guard;
    blocks.last_mut().unwrap().0.push(s);
}

fn access_attrs(
    ev: &crate::cycle::Event,
    target: Target,
    opts: &BuildOptions,
    lay: &Layout,
) -> Result<MemAttrs, BuildError> {
    let order = c_order(ev.ann);
    let mut a = MemAttrs::with_order(order);
    match target {
        Target::C => {
            a.volatile = order == Order::Plain;
            if ev.scope.is_some() || ev.cache.is_some() {
                return Err(BuildError("C has no scopes nor cache operators".into()));
            }
        }
        Target::Ptx | Target::Vulkan | Target::OpenCl => {
            if order.is_atomic() {
                a.scope = Some(ev.scope.unwrap_or(opts.default_scope));
            }
            a.cache = ev.cache;
            a.volatile = ev.volatile;
            if target == Target::Vulkan {
                // Every location is in storage class 0; acquire/release semantics cover it.
                a.vulkan.storage_class = Some(0);
                if order.is_atomic() && order != Order::Relaxed {
                    a.vulkan.sem_classes = vec![0];
                }
            }
            if lay.regions[ev.loc] == Region::Shared && target == Target::Ptx {
                a.space = None;
            }
            if ev.cache.is_some() && target != Target::Ptx {
                return Err(BuildError(format!(
                    "{} has no cache operators",
                    target.name()
                )));
            }
            if matches!(ev.cache, Some(CacheOp::Ca) | Some(CacheOp::Cg)) || ev.volatile {
                a.ty = Some(DataType::S32);
            }
        }
        Target::WebGpu => {
            a.order = Order::Relaxed;
            a.scope = Some(Scope::Gpu);
        }
    }
    Ok(a)
}

/// WebGPU's coherence-only subset (GPUHarbor): relaxed atomics, no fences but workgroup
/// barriers, no dependencies, threads in different workgroups.
fn check_webgpu(c: &Cycle, lay: &Layout) -> Result<(), BuildError> {
    for e in &c.edges {
        match e.kind {
            Kind::Dp(..) => {
                return Err(BuildError(
                    "WebGPU tests have no dependencies (GPUHarbor's subset)".into(),
                ))
            }
            Kind::Fence(f, _) if f != FenceName::Bar => {
                return Err(BuildError(
                    "WebGPU's model has no fences but workgroup barriers (GPUHarbor's subset)"
                        .into(),
                ))
            }
            _ => {}
        }
        if e.quals.cache.is_some() || e.quals.volatile {
            return Err(BuildError(
                "WebGPU has no cache operators nor volatile".into(),
            ));
        }
    }
    for ev in &lay.events {
        if !matches!(ev.ann, None | Some(Ann::Rlx) | Some(Ann::Na)) {
            return Err(BuildError(
                "WebGPU atomics are relaxed only (GPUHarbor's subset)".into(),
            ));
        }
    }
    Ok(())
}

/// diy7's metadata lines (`Cycle=`, `Relax=`, `Safe=` are set by the enumerator).
fn meta(c: &Cycle, lay: &Layout, opts: &BuildOptions) -> Vec<(String, String)> {
    let mut m = Vec::new();
    m.push(("Cycle".into(), seq_text(&c.canonical_rotation())));
    m.push(("Generator".into(), opts.generator.clone()));
    let mut pf = Vec::new();
    for (ti, t) in lay.threads.iter().enumerate() {
        let first = lay.events[t[0]].loc;
        // Threads of one location (a lone access, a lone exchange) prefetch nothing.
        if t.iter().all(|&i| lay.events[i].loc == first) {
            continue;
        }
        let last_i = *t.last().unwrap();
        let out = &c.edges[last_i];
        pf.push(format!("{ti}:{}=F", loc_name(first)));
        let kind = match out.kind {
            Kind::Com { com: Com::Fr, .. } => "T",
            _ => "W",
        };
        pf.push(format!("{ti}:{}={kind}", loc_name(lay.events[last_i].loc)));
    }
    m.push(("Prefetch".into(), pf.join(",")));
    let com: Vec<&str> = c
        .edges
        .iter()
        .filter(|e| e.is_ext())
        .map(|e| match e.kind {
            Kind::Com { com: Com::Rf, .. } => "Rf",
            Kind::Com { com: Com::Fr, .. } => "Fr",
            _ => "Co",
        })
        .collect();
    m.push(("Com".into(), com.join(" ")));
    m.push(("Orig".into(), c.text()));
    m
}
