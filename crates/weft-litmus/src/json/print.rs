//! Printing JSON litmus tests: the program in weft's JSON format, members in a fixed order,
//! with every behavior recomputed and classified by the SC reference interpreter.

use std::collections::HashMap;

use serde::{Serialize, Serializer};

use super::raw::{RawPlacement, RawRegister};
use super::{
    default_barrier_spaces, default_order, default_scope, order_name, scope_name, space_name,
    ActionKind, Defaults, CMPS,
};
use crate::classify::{self, Class};
use crate::PrintError;
use weft_ir::{
    BarrierKind, CacheOp, CmpOp, DataType, Expr, FenceKind, Load, LocId, MemAttrs, MemSpace, Order,
    Placement, Program, Prop, Proxy, Quantifier, Reg, Rmw, RmwOp, Scope, Stmt, StmtKind, Store,
    Term, Thread, Value,
};

/// A JSON object whose members keep their order.
struct Ordered<T>(Vec<(String, T)>);

impl<T: Serialize> Serialize for Ordered<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<T> Ordered<T> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OutTest {
    test_name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    doc: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    meta: Vec<(String, String)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    test_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    memory_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    memory: Vec<OutLocation>,
    threads: Vec<OutThread>,
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    behaviors: Ordered<OutCond>,
    #[serde(skip_serializing_if = "Option::is_none")]
    condition: Option<OutCondition>,
}

#[derive(Serialize)]
struct OutLocation {
    name: String,
    init: i64,
    space: &'static str,
}

#[derive(Serialize)]
struct OutThread {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    placement: Option<RawPlacement>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    registers: Vec<RawRegister>,
    actions: Vec<OutAction>,
}

#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct OutAction {
    action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    memory_location: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variable: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    op: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    memory_order: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    memory_scope: Option<&'static str>,
    #[serde(rename = "useRMW", skip_serializing_if = "Option::is_none")]
    use_rmw: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    space: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    volatile: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache: Option<&'static str>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    ty: Option<String>,
}

#[derive(Serialize, Default)]
struct OutCond {
    #[serde(rename = "type")]
    ty: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    op: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    key: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    class: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    thread: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cmp: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    conditions: Option<Vec<OutCond>>,
}

#[derive(Serialize)]
struct OutCondition {
    quantifier: &'static str,
    postcondition: OutCond,
}

fn refuse<T>(msg: impl Into<String>) -> Result<T, PrintError> {
    Err(PrintError::new(format!(
        "JSON cannot express {}",
        msg.into()
    )))
}

/// The registers of each thread that a read (or an RMW with a result) writes.
fn read_regs(t: &Thread) -> Vec<bool> {
    let mut v = vec![false; t.regs.len()];
    for s in &t.code {
        let d = match &s.kind {
            StmtKind::Load(l) => Some(l.dst),
            StmtKind::Rmw(r) => r.dst,
            _ => None,
        };
        if let Some(d) = d {
            if let Some(x) = v.get_mut(d.index()) {
                *x = true;
            }
        }
    }
    v
}

struct Printer<'a> {
    p: &'a Program,
    d: Defaults,
    /// For each register name, the threads that have a register of that name.
    owners: HashMap<&'a str, Vec<usize>>,
}

/// Writes a program in weft's JSON format, with its behaviors classified.
pub fn print(p: &Program) -> Result<String, PrintError> {
    let owners = check_printable(p)?;
    let (memory_type, d) = memory_type(p);
    let pr = Printer { p, d, owners };
    let (mut threads, first_use) = pr.threads()?;
    let test_type = test_type(p, &mut threads)?;
    let memory = memory(p, &first_use, d);
    let (behaviors, condition) = pr.behaviors()?;
    let out = OutTest {
        test_name: p.name.clone(),
        doc: p.doc.clone(),
        meta: p.meta.clone(),
        test_type,
        memory_type,
        memory,
        threads,
        behaviors: Ordered(behaviors),
        condition,
    };
    let mut text = serde_json::to_string_pretty(&out)
        .map_err(|e| PrintError::new(format!("cannot write JSON: {e}")))?;
    text.push('\n');
    Ok(text)
}

/// Refuses what the JSON format cannot hold; for each register name, the threads that have
/// a register of that name.
fn check_printable(p: &Program) -> Result<HashMap<&str, Vec<usize>>, PrintError> {
    if !p.relations.is_empty() {
        return refuse("relations between threads");
    }
    if p.filter.is_some() {
        return refuse("a filter");
    }
    if !p.observed.is_empty() {
        return refuse("a `locations` clause");
    }
    for l in &p.locations {
        if l.size != 1 {
            return refuse(format!("the array `{}`", l.name));
        }
        if l.alias.is_some() {
            return refuse(format!("the alias `{}`", l.name));
        }
        if let Value::Addr(_) = l.init {
            return refuse(format!("a location (`{}`) holding an address", l.name));
        }
    }
    let mut owners: HashMap<&str, Vec<usize>> = HashMap::new();
    for (ti, t) in p.threads.iter().enumerate() {
        for r in &t.regs {
            if let Some(Value::Addr(_)) = r.init {
                return refuse(format!("register {}:{} holding an address", t.name, r.name));
            }
            owners.entry(r.name.as_str()).or_default().push(ti);
        }
    }
    Ok(owners)
}

/// The memory type: workgroup memory when every location is in it; the defaults it gives.
fn memory_type(p: &Program) -> (Option<&'static str>, Defaults) {
    let all_shared =
        !p.locations.is_empty() && p.locations.iter().all(|l| l.space == MemSpace::Shared);
    let all_plain = p.threads.iter().all(|t| {
        t.code.iter().all(|s| match &s.kind {
            StmtKind::Load(l) => l.attrs.order == Order::Plain,
            StmtKind::Store(st) => st.attrs.order == Order::Plain,
            _ => true,
        })
    });
    let (memory_type, d) = match (all_shared, all_plain) {
        (true, true) => (
            Some("non_atomic_workgroup"),
            Defaults {
                space: MemSpace::Shared,
                atomic: false,
            },
        ),
        (true, false) => (
            Some("atomic_workgroup"),
            Defaults {
                space: MemSpace::Shared,
                atomic: true,
            },
        ),
        _ => (
            None,
            Defaults {
                space: MemSpace::Global,
                atomic: true,
            },
        ),
    };
    (memory_type, d)
}

/// Placement: GPUHarbor's test types when they fit, else one placement per thread.
fn test_type(p: &Program, threads: &mut [OutThread]) -> Result<Option<&'static str>, PrintError> {
    let inter = |i: usize| Placement::new(vec![(Scope::Cta, i as u32), (Scope::Gpu, 0)]);
    let intra = Placement::new(vec![(Scope::Cta, 0), (Scope::Gpu, 0)]);
    let mut test_type = None;
    let all_inter = p
        .threads
        .iter()
        .enumerate()
        .all(|(i, t)| t.placement == inter(i));
    if all_inter {
        // GPUHarbor's default test type.
    } else if p.threads.iter().all(|t| t.placement == intra) {
        test_type = Some("intra_workgroup");
    } else {
        for (t, out) in p.threads.iter().zip(threads.iter_mut()) {
            out.placement = Some(placement_out(&t.placement, &t.name)?);
        }
    }
    Ok(test_type)
}

/// Initial memory: implicit when the locations are exactly those the actions name, in
/// order of first use, zero and in the default space.
fn memory(p: &Program, first_use: &[usize], d: Defaults) -> Vec<OutLocation> {
    let implicit = first_use == (0..p.locations.len()).collect::<Vec<_>>()
        && p.locations
            .iter()
            .all(|l| l.init == Value::Int(0) && l.space == d.space);
    if implicit {
        Vec::new()
    } else {
        p.locations
            .iter()
            .map(|l| OutLocation {
                name: l.name.clone(),
                init: match l.init {
                    Value::Int(v) => v,
                    Value::Addr(_) => 0,
                },
                space: space_name(l.space),
            })
            .collect()
    }
}

/// Named behaviors, in order.
type Behaviors = Vec<(String, OutCond)>;

impl Printer<'_> {
    /// The threads' actions and declared registers; the locations in order of first use.
    fn threads(&self) -> Result<(Vec<OutThread>, Vec<usize>), PrintError> {
        let (p, pr) = (self.p, self);
        let mut threads = Vec::new();
        let mut first_use: Vec<usize> = Vec::new();
        for (ti, t) in p.threads.iter().enumerate() {
            let mut actions = Vec::new();
            for s in &t.code {
                let a = pr.action(t, s)?;
                if let StmtKind::Load(Load { addr, .. })
                | StmtKind::Store(Store { addr, .. })
                | StmtKind::Rmw(Rmw { addr, .. }) = &s.kind
                {
                    if let Expr::Addr(l) = addr {
                        if !first_use.contains(&l.index()) {
                            first_use.push(l.index());
                        }
                    }
                }
                actions.push(a);
            }
            let default_name = format!("T{ti}");
            // Registers that no read creates, or that start with a value, are declared.
            let registers = t
                .regs
                .iter()
                .zip(read_regs(t))
                .filter(|(r, read)| r.init.is_some() || !read)
                .map(|(r, _)| RawRegister {
                    name: r.name.clone(),
                    init: match r.init {
                        Some(Value::Int(v)) => Some(v),
                        _ => None,
                    },
                })
                .collect();
            threads.push(OutThread {
                name: (t.name != default_name).then(|| t.name.clone()),
                placement: None,
                registers,
                actions,
            });
        }
        Ok((threads, first_use))
    }

    /// The behaviors (SC, interleaved, weak), recomputed by the SC reference interpreter,
    /// and the condition when it is not one of them.
    fn behaviors(&self) -> Result<(Behaviors, Option<OutCondition>), PrintError> {
        let (p, pr) = (self.p, self);
        let cls = classify::classify(p)
            .map_err(|e| PrintError::new(format!("JSON needs the outcome classification: {e}")))?;
        let terms = behavior_terms(p, &cls);
        let mut behaviors = pr.sc_behaviors(&cls, &terms)?;
        let mut condition = None;
        if let Some(c) = &p.condition {
            if c.quantifier == Quantifier::Exists && cls.class_of_prop(&c.prop) == Class::Weak {
                let mut items = Vec::new();
                or_spine(&c.prop, &mut items);
                let width = items.len().saturating_sub(1).to_string().len();
                let n = items.len();
                for (i, item) in items.into_iter().enumerate() {
                    let mut node = pr.cond(item)?;
                    node.class = Some("weak");
                    let name = if n == 1 {
                        "weak".to_string()
                    } else {
                        node.key = Some("weak");
                        format!("weak{i:0width$}")
                    };
                    behaviors.push((name, node));
                }
            } else {
                behaviors.push((
                    "weak".to_string(),
                    OutCond {
                        ty: "else",
                        class: Some("weak"),
                        ..OutCond::default()
                    },
                ));
                condition = Some(OutCondition {
                    quantifier: match c.quantifier {
                        Quantifier::Exists => "exists",
                        Quantifier::NotExists => "~exists",
                        Quantifier::Forall => "forall",
                    },
                    postcondition: pr.cond(&c.prop)?,
                });
            }
        }
        Ok((behaviors, condition))
    }

    /// The SC and interleaved behaviors: one per projected outcome of `terms`.
    fn sc_behaviors(
        &self,
        cls: &classify::Classification,
        terms: &[Term],
    ) -> Result<Vec<(String, OutCond)>, PrintError> {
        let pr = self;
        let projected = cls.project(terms);
        let mut behaviors: Vec<(String, OutCond)> = Vec::new();
        for class in [Class::Seq, Class::Interleaved] {
            let rows: Vec<&Vec<i64>> = projected
                .iter()
                .filter(|(_, c)| *c == class)
                .map(|(v, _)| v)
                .collect();
            let width = rows.len().saturating_sub(1).to_string().len();
            for (i, values) in rows.iter().enumerate() {
                let mut leaves = Vec::new();
                for (t, v) in terms.iter().zip(values.iter()) {
                    leaves.push(pr.leaf(t, CmpOp::Eq, &Term::Int(*v))?);
                }
                let mut node = if leaves.len() == 1 {
                    leaves.pop().expect("one leaf")
                } else {
                    OutCond {
                        ty: "op",
                        op: Some("and"),
                        conditions: Some(leaves),
                        ..OutCond::default()
                    }
                };
                node.class = Some(class.name());
                let name = if rows.len() == 1 {
                    class.name().to_string()
                } else {
                    if class == Class::Interleaved {
                        node.key = Some("interleaved");
                    }
                    format!("{}{:0width$}", class.name(), i)
                };
                behaviors.push((name, node));
            }
        }
        Ok(behaviors)
    }
}

/// The terms behaviors are written over: every register a read writes, then the
/// locations whose final value varies or that the condition names.
fn behavior_terms(p: &Program, cls: &classify::Classification) -> Vec<Term> {
    let mut terms: Vec<Term> = Vec::new();
    for (ti, t) in p.threads.iter().enumerate() {
        for (ri, read) in read_regs(t).into_iter().enumerate() {
            if read {
                terms.push(Term::Reg {
                    thread: ti,
                    reg: Reg(ri as u32),
                });
            }
        }
    }
    let mut mentioned = Vec::new();
    if let Some(c) = &p.condition {
        c.prop.terms(&mut mentioned);
    }
    for (li, _) in p.locations.iter().enumerate() {
        let loc = LocId(li as u32);
        let term = Term::Mem { loc, index: 0 };
        let varies = {
            let mut vals = cls.outcomes().map(|(o, _)| o.value(&term));
            match vals.next() {
                Some(first) => vals.any(|v| v != first),
                None => false,
            }
        };
        if varies || mentioned.iter().any(|t| **t == term) {
            terms.push(term);
        }
    }
    terms
}

/// The items of a left-nested disjunction `(a \/ b) \/ c`, in order.
fn or_spine<'a>(p: &'a Prop, out: &mut Vec<&'a Prop>) {
    match p {
        Prop::Or(a, b) => {
            or_spine(a, out);
            out.push(b);
        }
        _ => out.push(p),
    }
}

fn and_spine<'a>(p: &'a Prop, out: &mut Vec<&'a Prop>) {
    match p {
        Prop::And(a, b) => {
            and_spine(a, out);
            out.push(b);
        }
        _ => out.push(p),
    }
}

fn placement_out(pl: &Placement, thread: &str) -> Result<RawPlacement, PrintError> {
    if pl.levels.windows(2).any(|w| w[0].0 >= w[1].0) {
        return refuse(format!("the placement of {thread}"));
    }
    let mut out = RawPlacement::default();
    for (s, id) in &pl.levels {
        let slot = match s {
            Scope::Warp => &mut out.subgroup,
            Scope::Cta => &mut out.workgroup,
            Scope::QueueFamily => &mut out.queue_family,
            Scope::Gpu => &mut out.device,
            Scope::System => &mut out.system,
            Scope::Thread => return refuse(format!("the thread-level placement of {thread}")),
        };
        *slot = Some(*id);
    }
    Ok(out)
}

fn flip(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        o => o,
    }
}

impl Printer<'_> {
    fn action(&self, t: &Thread, s: &Stmt) -> Result<OutAction, PrintError> {
        if s.guard.is_some() {
            return refuse("a predicated instruction");
        }
        let p = self.p;
        let mut a = OutAction::default();
        match &s.kind {
            StmtKind::Load(_) | StmtKind::Store(_) | StmtKind::Rmw(_) => {
                let (kind, addr, attrs) = match &s.kind {
                    StmtKind::Load(l) => (ActionKind::Read, &l.addr, &l.attrs),
                    StmtKind::Store(st) => (ActionKind::Write, &st.addr, &st.attrs),
                    StmtKind::Rmw(r) => (ActionKind::Rmw, &r.addr, &r.attrs),
                    _ => unreachable!("matched above"),
                };
                let Expr::Addr(loc) = addr else {
                    return refuse("an access through a register (addresses are location names)");
                };
                if attrs.proxy != Proxy::Generic {
                    return refuse(format!(
                        "an access through the {} proxy",
                        attrs.proxy.name()
                    ));
                }
                if !attrs.vulkan.is_empty() {
                    return refuse("Vulkan access annotations");
                }
                if attrs.space.is_some() {
                    return refuse("an access with an explicit state space");
                }
                let order = attrs.order;
                match (kind, order) {
                    (ActionKind::Read, Order::Release | Order::AcqRel)
                    | (ActionKind::Write, Order::Acquire | Order::AcqRel | Order::Consume) => {
                        return refuse(format!(
                            "a {} {}",
                            order.name(),
                            if kind == ActionKind::Read {
                                "read"
                            } else {
                                "write"
                            }
                        ))
                    }
                    _ => {}
                }
                a.memory_location = Some(p.loc(*loc).name.clone());
                a.volatile = attrs.volatile.then_some(true);
                a.cache = attrs.cache.map(CacheOp::name);
                a.ty = attrs.ty.map(DataType::ptx_name);
                // The action a statement prints as decides its default order.
                let (printed_kind, rest) = match &s.kind {
                    StmtKind::Load(l) => {
                        a.action = "read";
                        a.variable = Some(t.reg_name(l.dst).to_string());
                        (ActionKind::Read, None)
                    }
                    StmtKind::Store(st) => {
                        let Expr::Int(v) = st.value else {
                            return refuse("a write of a register (writes store constants)");
                        };
                        a.action = "write";
                        a.value = Some(v);
                        (ActionKind::Write, None)
                    }
                    StmtKind::Rmw(r) => (ActionKind::Rmw, Some(r)),
                    _ => unreachable!("matched above"),
                };
                let mut printed_kind = printed_kind;
                if let Some(r) = rest {
                    if let RmwOp::CompareExchange { .. } = r.op {
                        return refuse("a C11 compare-exchange");
                    }
                    if r.fail_order.is_some() {
                        return refuse("a separate failure order");
                    }
                    let mut ints = Vec::new();
                    for e in &r.args {
                        match e {
                            Expr::Int(v) => ints.push(*v),
                            _ => return refuse("a read-modify-write of a register value"),
                        }
                    }
                    if ints.len() != r.op.arity() {
                        return refuse("a read-modify-write with the wrong operands");
                    }
                    match (r.op, r.dst, &ints[..]) {
                        (RmwOp::Add, Some(d), [0]) => {
                            a.action = "read";
                            a.variable = Some(t.reg_name(d).to_string());
                            a.use_rmw = Some(true);
                            printed_kind = ActionKind::Rmw;
                        }
                        (RmwOp::Exch, None, [v]) => {
                            a.action = "write";
                            a.value = Some(*v);
                            a.use_rmw = Some(true);
                        }
                        (op, dst, args) => {
                            a.action = "rmw";
                            a.op = Some(op.name());
                            a.variable = dst.map(|d| t.reg_name(d).to_string());
                            if op == RmwOp::Cas {
                                a.expected = Some(args[0]);
                            }
                            a.value = args.last().copied();
                        }
                    }
                }
                // Reads and writes through an RMW default like RMWs (always atomic).
                let dk = if rest.is_some() {
                    ActionKind::Rmw
                } else {
                    printed_kind
                };
                if order != default_order(dk, self.d) {
                    a.memory_order = Some(order_name(order));
                }
                let loc_space = p.loc(*loc).space;
                if attrs.scope != default_scope(dk, order, loc_space) {
                    a.memory_scope = Some(scope_name(attrs.scope));
                }
            }
            StmtKind::Fence(f) => {
                a.action = "fence";
                a.kind = match f.kind {
                    FenceKind::Fence => None,
                    FenceKind::Membar => Some("membar"),
                    _ => {
                        return refuse(
                            "a proxy fence or a Vulkan availability/visibility operation",
                        )
                    }
                };
                self.fence_attrs(&mut a, ActionKind::Fence, &f.attrs, &f.spaces, &[])?;
            }
            StmtKind::Barrier(b) => {
                if b.kind != BarrierKind::Sync
                    || b.scope != Scope::Cta
                    || b.id != Expr::Int(0)
                    || !b.operands.is_empty()
                {
                    return refuse("a barrier other than a workgroup barrier");
                }
                a.action = "barrier";
                let dflt = default_barrier_spaces(self.d);
                self.fence_attrs(&mut a, ActionKind::Barrier, &b.attrs, &b.spaces, &dflt)?;
            }
            StmtKind::Assign { .. } => return refuse("local computation"),
            StmtKind::Label(_) | StmtKind::Jump { .. } => return refuse("labels and jumps"),
            StmtKind::If { .. } | StmtKind::While { .. } => return refuse("control flow"),
            StmtKind::Assume(_) | StmtKind::Assert(_) => return refuse("assume/assert"),
        }
        Ok(a)
    }

    fn fence_attrs(
        &self,
        a: &mut OutAction,
        kind: ActionKind,
        attrs: &MemAttrs,
        spaces: &[MemSpace],
        default_spaces: &[MemSpace],
    ) -> Result<(), PrintError> {
        let bare = MemAttrs {
            order: attrs.order,
            scope: attrs.scope,
            ..MemAttrs::default()
        };
        if *attrs != bare {
            return refuse("annotations of a fence or barrier beyond its order and scope");
        }
        if attrs.order != default_order(kind, self.d) {
            a.memory_order = Some(order_name(attrs.order));
        }
        if attrs.scope != default_scope(kind, attrs.order, self.d.space) {
            a.memory_scope = Some(scope_name(attrs.scope));
        }
        if spaces != default_spaces {
            a.space = Some(match spaces {
                [one] => serde_json::Value::String(space_name(*one).to_string()),
                many => serde_json::Value::Array(
                    many.iter()
                        .map(|s| serde_json::Value::String(space_name(*s).to_string()))
                        .collect(),
                ),
            });
        }
        Ok(())
    }

    /// A term as `(type, id, thread)`.
    fn term(&self, t: &Term) -> Result<(&'static str, String, Option<usize>), PrintError> {
        match t {
            Term::Reg { thread, reg } => {
                let th = self
                    .p
                    .threads
                    .get(*thread)
                    .ok_or_else(|| PrintError::new("condition names an unknown thread"))?;
                let name = th.reg_name(*reg);
                let owners = self.owners.get(name).cloned().unwrap_or_default();
                Ok((
                    "variable",
                    name.to_string(),
                    (owners.len() > 1).then_some(*thread),
                ))
            }
            Term::Mem { loc, index } => {
                if *index != 0 {
                    return refuse("an array element in the condition");
                }
                Ok(("memory", self.p.loc(*loc).name.clone(), None))
            }
            Term::Addr(_) => refuse("an address in the condition"),
            Term::Int(_) => refuse("a constant where a variable or location is needed"),
        }
    }

    fn leaf(&self, left: &Term, op: CmpOp, right: &Term) -> Result<OutCond, PrintError> {
        let (ty, id, thread) = self.term(left)?;
        let value = match right {
            Term::Int(v) => serde_json::Value::from(*v),
            other => {
                let (rty, rid, rthread) = self.term(other)?;
                let mut m = serde_json::Map::new();
                m.insert("type".into(), rty.into());
                m.insert("id".into(), rid.into());
                if let Some(t) = rthread {
                    m.insert("thread".into(), t.into());
                }
                serde_json::Value::Object(m)
            }
        };
        Ok(OutCond {
            ty,
            id: Some(id),
            thread,
            cmp: (op != CmpOp::Eq).then(|| {
                CMPS.iter()
                    .find(|(_, o)| *o == op)
                    .map(|(n, _)| *n)
                    .unwrap_or("==")
            }),
            value: Some(value),
            ..OutCond::default()
        })
    }

    fn cond(&self, prop: &Prop) -> Result<OutCond, PrintError> {
        Ok(match prop {
            Prop::True => OutCond {
                ty: "true",
                ..OutCond::default()
            },
            Prop::False => OutCond {
                ty: "false",
                ..OutCond::default()
            },
            Prop::Cmp(a, op, b) => match (a, b) {
                (Term::Int(x), Term::Int(y)) => OutCond {
                    ty: if op.eval(*x, *y) { "true" } else { "false" },
                    ..OutCond::default()
                },
                (Term::Int(_), _) => self.leaf(b, flip(*op), a)?,
                _ => self.leaf(a, *op, b)?,
            },
            Prop::Not(a) => OutCond {
                ty: "op",
                op: Some("not"),
                conditions: Some(vec![self.cond(a)?]),
                ..OutCond::default()
            },
            Prop::And(..) | Prop::Or(..) => {
                let mut items = Vec::new();
                let op = if matches!(prop, Prop::And(..)) {
                    and_spine(prop, &mut items);
                    "and"
                } else {
                    or_spine(prop, &mut items);
                    "or"
                };
                OutCond {
                    ty: "op",
                    op: Some(op),
                    conditions: Some(
                        items
                            .into_iter()
                            .map(|i| self.cond(i))
                            .collect::<Result<_, _>>()?,
                    ),
                    ..OutCond::default()
                }
            }
        })
    }
}
