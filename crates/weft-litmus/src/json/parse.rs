//! Parsing JSON litmus tests: serde reads the raw form, then the lowerer checks every
//! field GPUHarbor and weft define and builds the IR program, pointing semantic errors at
//! the offending value.

use super::index::{build_index, Index, Seg};
use super::raw::{RawAction, RawCond, RawPlacement, RawTest};
use super::{
    default_barrier_spaces, default_order, default_scope, order_from, scope_from, space_from,
    ActionKind, Defaults, CMPS,
};
use crate::classify::Class;
use crate::diag::{quote, ParseError};
use weft_ir::{
    Arch, Barrier, BarrierKind, CacheOp, CmpOp, Condition, DataType, Expr, Fence, FenceKind, Load,
    LocId, Location, MemAttrs, MemSpace, Order, Placement, Program, Prop, Quantifier, Rmw, RmwOp,
    Scope, Stmt, StmtKind, Store, Term, Thread, Value,
};

/// A semantic error at a JSON path (at the value, or at its key).
struct Sem {
    path: Vec<Seg>,
    at_key: bool,
    message: String,
}

type SResult<T> = Result<T, Sem>;

fn sem<T>(path: &[Seg], message: impl Into<String>) -> SResult<T> {
    Err(Sem {
        path: path.to_vec(),
        at_key: false,
        message: message.into(),
    })
}

fn sem_key<T>(path: &[Seg], message: impl Into<String>) -> SResult<T> {
    Err(Sem {
        path: path.to_vec(),
        at_key: true,
        message: message.into(),
    })
}

fn join(path: &[Seg], more: &[Seg]) -> Vec<Seg> {
    let mut v = path.to_vec();
    v.extend_from_slice(more);
    v
}

pub(super) fn k(s: &str) -> Seg {
    Seg::Key(s.to_string())
}

fn serde_error(e: serde_json::Error) -> ParseError {
    let msg = e.to_string();
    let msg = match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg,
    };
    let line = u32::try_from(e.line()).unwrap_or(u32::MAX).max(1);
    let col = u32::try_from(e.column()).unwrap_or(u32::MAX).max(1);
    ParseError::new(line, col, msg)
}

/// Parses a JSON litmus test.
pub fn parse(src: &str) -> Result<Program, ParseError> {
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    let raw: RawTest = serde_json::from_str(src).map_err(serde_error)?;
    let ix = build_index(src);
    lower(&raw, &ix).map_err(|e| {
        let (l, c) = if e.at_key {
            ix.key_pos(&e.path)
        } else {
            ix.pos(&e.path)
        };
        ParseError::new(l, c, e.message)
    })
}

struct Lowerer<'a> {
    ix: &'a Index,
    p: Program,
    d: Defaults,
}

fn lower(raw: &RawTest, ix: &Index) -> SResult<Program> {
    let intra = intra_workgroup(raw)?;
    let d = defaults(raw)?;
    let mut lw = Lowerer {
        ix,
        p: Program::new(Arch::WebGpu, raw.test_name.clone()),
        d,
    };
    lw.p.doc = raw.doc.clone();
    lw.p.meta = raw.meta.clone();
    lw.memory(raw)?;
    lw.threads(raw, intra)?;
    lw.p.condition = lw.condition(raw)?;
    Ok(lw.p)
}

/// Whether the test's threads share a workgroup (`testType`, or GPUHarbor's older
/// `sameWorkgroup`).
fn intra_workgroup(raw: &RawTest) -> SResult<bool> {
    Ok(match raw.test_type.as_deref() {
        None => raw.same_workgroup.unwrap_or(false),
        Some("inter_workgroup") => false,
        Some("intra_workgroup") => true,
        Some(o) => {
            return sem(
                &[k("testType")],
                format!(
                    "unknown testType {}: expected inter_workgroup or intra_workgroup",
                    quote(o)
                ),
            )
        }
    })
}

/// The defaults (space, atomicity) `memoryType` gives.
fn defaults(raw: &RawTest) -> SResult<Defaults> {
    Ok(match raw.memory_type.as_deref() {
        None if raw.workgroup_memory == Some(true) => Defaults {
            space: MemSpace::Shared,
            atomic: true,
        },
        None | Some("atomic_storage") => Defaults {
            space: MemSpace::Global,
            atomic: true,
        },
        Some("atomic_workgroup") => Defaults {
            space: MemSpace::Shared,
            atomic: true,
        },
        Some("non_atomic_workgroup") => Defaults {
            space: MemSpace::Shared,
            atomic: false,
        },
        Some(o) => {
            return sem(
                &[k("memoryType")],
                format!(
                    "unknown memoryType {}: expected atomic_storage, atomic_workgroup or non_atomic_workgroup",
                    quote(o)
                ),
            )
        }
    })
}

impl Lowerer<'_> {
    /// The declared locations.
    fn memory(&mut self, raw: &RawTest) -> SResult<()> {
        let (d, ix) = (self.d, self.ix);
        let lw = self;
        for (i, m) in raw.memory.iter().enumerate() {
            let path = [k("memory"), Seg::Idx(i)];
            if lw.p.loc_by_name(&m.name).is_some() {
                return sem(
                    &join(&path, &[k("name")]),
                    format!("location {} declared twice", quote(&m.name)),
                );
            }
            let space = match &m.space {
                None => d.space,
                Some(s) => space_from(s).ok_or_else(|| Sem {
                    path: join(&path, &[k("space")]),
                    at_key: false,
                    message: format!(
                        "unknown memory space {}: expected storage or workgroup",
                        quote(s)
                    ),
                })?,
            };
            let mut l = Location::scalar(m.name.clone(), m.init);
            l.space = space;
            l.span = ix.span(&path);
            lw.p.locations.push(l);
        }
        Ok(())
    }

    /// The threads: names, placements (all in one workgroup when `intra`), registers,
    /// actions.
    fn threads(&mut self, raw: &RawTest, intra: bool) -> SResult<()> {
        let lw = self;
        for (i, t) in raw.threads.iter().enumerate() {
            let path = [k("threads"), Seg::Idx(i)];
            let name = t.name.clone().unwrap_or_else(|| format!("T{i}"));
            if lw.p.thread_by_name(&name).is_some() {
                return sem(
                    &join(&path, &[k("name")]),
                    format!("thread {} named twice", quote(&name)),
                );
            }
            let mut th = Thread::new(name);
            th.placement = match &t.placement {
                Some(pl) => placement_from(pl),
                None => Placement::new(vec![
                    (Scope::Cta, if intra { 0 } else { i as u32 }),
                    (Scope::Gpu, 0),
                ]),
            };
            for (j, r) in t.registers.iter().enumerate() {
                if th.reg_by_name(&r.name).is_some() {
                    return sem(
                        &join(&path, &[k("registers"), Seg::Idx(j), k("name")]),
                        format!("register {} declared twice", quote(&r.name)),
                    );
                }
                let reg = th.reg_or_declare(&r.name);
                th.regs[reg.index()].init = r.init.map(Value::Int);
            }
            lw.p.threads.push(th);
            for (j, a) in t.actions.iter().enumerate() {
                let apath = join(&path, &[k("actions"), Seg::Idx(j)]);
                let stmt = lw.action(i, a, &apath)?;
                lw.p.threads[i].code.push(stmt);
            }
        }
        Ok(())
    }

    /// The condition: the one given, else the weak behaviors' (validated with the others).
    fn condition(&self, raw: &RawTest) -> SResult<Option<Condition>> {
        let lw = self;
        let mut weak: Vec<Option<Prop>> = Vec::new();
        let mut others: Vec<Prop> = Vec::new();
        for (name, b) in &raw.behaviors {
            let path = [k("behaviors"), k(name)];
            let class = behavior_class(name, b, &path)?;
            let prop = if b.ty == "else" {
                lw.no_fields_but(b, &path, &["class", "key"])?;
                None
            } else {
                Some(lw.prop(b, &path, 0)?)
            };
            match (class, prop) {
                (Class::Weak, p) => weak.push(p),
                (_, Some(p)) => others.push(p),
                (_, None) => {}
            }
        }
        Ok(match &raw.condition {
            Some(c) => {
                let q = match c.quantifier.as_str() {
                    "exists" => Quantifier::Exists,
                    "~exists" | "not_exists" => Quantifier::NotExists,
                    "forall" => Quantifier::Forall,
                    o => {
                        return sem(
                            &[k("condition"), k("quantifier")],
                            format!(
                                "unknown quantifier {}: expected exists, ~exists or forall",
                                quote(o)
                            ),
                        )
                    }
                };
                let prop = lw.prop(&c.postcondition, &[k("condition"), k("postcondition")], 0)?;
                Some(Condition {
                    quantifier: q,
                    prop,
                })
            }
            None if weak.is_empty() => None,
            None => {
                let prop = if weak.iter().any(Option::is_none) {
                    if others.is_empty() {
                        Prop::True
                    } else {
                        Prop::negate(fold(others, Prop::or, Prop::False))
                    }
                } else {
                    fold(weak.into_iter().flatten().collect(), Prop::or, Prop::False)
                };
                Some(Condition {
                    quantifier: Quantifier::Exists,
                    prop,
                })
            }
        })
    }
}

/// A behavior's class: given, or told by its key's or its name's prefix.
fn behavior_class(name: &str, b: &RawCond, path: &[Seg]) -> SResult<Class> {
    Ok(match (&b.class, &b.key) {
        (Some(c), _) => Class::from_name(c).ok_or_else(|| Sem {
            path: join(path, &[k("class")]),
            at_key: false,
            message: format!(
                "unknown behavior class {}: expected seq, interleaved or weak",
                quote(c)
            ),
        })?,
        (None, Some(key)) => match class_by_prefix(key) {
            Some(c) => c,
            None => {
                return sem(
                    &join(path, &[k("key")]),
                    format!(
                        "cannot tell the class of key {}: add \"class\": \"seq\", \"interleaved\" or \"weak\"",
                        quote(key)
                    ),
                )
            }
        },
        (None, None) => match class_by_prefix(name) {
            Some(c) => c,
            None => {
                return sem_key(
                    path,
                    format!(
                        "cannot tell the class of behavior {}: name it seq…, interleaved… or weak…, or add \"class\"",
                        quote(name)
                    ),
                )
            }
        },
    })
}

/// The kind of an action (`read`, `write`, `rmw`, `fence`, `barrier`).
fn action_kind(a: &RawAction, path: &[Seg]) -> SResult<ActionKind> {
    Ok(match a.action.as_str() {
        "read" => ActionKind::Read,
        "write" => ActionKind::Write,
        "rmw" => ActionKind::Rmw,
        "fence" => ActionKind::Fence,
        "barrier" => ActionKind::Barrier,
        o => {
            return sem(
                &join(path, &[k("action")]),
                format!(
                    "unknown action {}: expected read, write, rmw, fence or barrier",
                    quote(o)
                ),
            )
        }
    })
}

/// Refuses fields that do not apply to an action of kind `kind`.
fn check_fields(kind: ActionKind, a: &RawAction, path: &[Seg]) -> SResult<()> {
    let present = [
        ("memoryLocation", a.memory_location.is_some()),
        ("value", a.value.is_some()),
        ("variable", a.variable.is_some()),
        ("useRMW", a.use_rmw.is_some()),
        ("op", a.op.is_some()),
        ("expected", a.expected.is_some()),
        ("kind", a.kind.is_some()),
        ("space", a.space.is_some()),
        ("volatile", a.volatile.is_some()),
        ("cache", a.cache.is_some()),
        ("type", a.ty.is_some()),
    ];
    let allowed: &[&str] = match kind {
        ActionKind::Read => &[
            "memoryLocation",
            "variable",
            "useRMW",
            "volatile",
            "cache",
            "type",
        ],
        ActionKind::Write => &[
            "memoryLocation",
            "value",
            "useRMW",
            "volatile",
            "cache",
            "type",
        ],
        ActionKind::Rmw => &[
            "memoryLocation",
            "value",
            "variable",
            "op",
            "expected",
            "volatile",
            "cache",
            "type",
        ],
        ActionKind::Fence => &["kind", "space"],
        ActionKind::Barrier => &["space"],
    };
    for (name, there) in present {
        if there && !allowed.contains(&name) {
            return sem_key(
                &join(path, &[k(name)]),
                format!("`{name}` does not apply to a {} action", a.action),
            );
        }
    }
    Ok(())
}

/// Says that an action lacks the field `name` unless `there`.
fn need(a: &RawAction, path: &[Seg], there: bool, name: &str) -> SResult<()> {
    if there {
        Ok(())
    } else {
        sem(path, format!("a {} action needs `{name}`", a.action))
    }
}

/// An action's `memoryOrder` and `memoryScope`, when given.
/// (`memoryScope: none` is `Some(None)`.)
fn order_scope(a: &RawAction, path: &[Seg]) -> SResult<(Option<Order>, Option<Option<Scope>>)> {
    let order = match &a.memory_order {
            None => None,
            Some(s) => Some(order_from(s).ok_or_else(|| Sem {
                path: join(path, &[k("memoryOrder")]),
                at_key: false,
                message: format!(
                    "unknown memoryOrder {}: expected relaxed, acquire, release, acq_rel, seq_cst or plain",
                    quote(s)
                ),
            })?),
        };
    let scope = match &a.memory_scope {
            None => None,
            Some(s) => Some(scope_from(s).ok_or_else(|| Sem {
                path: join(path, &[k("memoryScope")]),
                at_key: false,
                message: format!(
                    "unknown memoryScope {}: expected subgroup, workgroup, queueFamily, device, system or none",
                    quote(s)
                ),
            })?),
        };
    Ok((order, scope))
}

fn class_by_prefix(s: &str) -> Option<Class> {
    if s.starts_with("seq") {
        Some(Class::Seq)
    } else if s.starts_with("interleaved") {
        Some(Class::Interleaved)
    } else if s.starts_with("weak") {
        Some(Class::Weak)
    } else {
        None
    }
}

/// Left fold: `[a, b, c]` is `(a op b) op c`; `[a]` is `a`; `[]` is `empty`.
fn fold(items: Vec<Prop>, op: fn(Prop, Prop) -> Prop, empty: Prop) -> Prop {
    let mut it = items.into_iter();
    match it.next() {
        None => empty,
        Some(first) => it.fold(first, op),
    }
}

fn placement_from(pl: &RawPlacement) -> Placement {
    let levels = [
        (Scope::Warp, pl.subgroup),
        (Scope::Cta, pl.workgroup),
        (Scope::QueueFamily, pl.queue_family),
        (Scope::Gpu, pl.device),
        (Scope::System, pl.system),
    ];
    Placement::new(
        levels
            .into_iter()
            .filter_map(|(s, id)| id.map(|id| (s, id)))
            .collect(),
    )
}

impl Lowerer<'_> {
    fn location(&mut self, name: &str, path: &[Seg]) -> LocId {
        match self.p.loc_by_name(name) {
            Some(l) => l,
            None => {
                let mut l = Location::scalar(name, 0);
                l.space = self.d.space;
                l.span = self.ix.span(path);
                self.p.locations.push(l);
                LocId(self.p.locations.len() as u32 - 1)
            }
        }
    }

    fn no_fields_but(&self, c: &RawCond, path: &[Seg], allowed: &[&str]) -> SResult<()> {
        let present = [
            ("op", c.op.is_some()),
            ("key", c.key.is_some()),
            ("class", c.class.is_some()),
            ("conditions", c.conditions.is_some()),
            ("id", c.id.is_some()),
            ("thread", c.thread.is_some()),
            ("cmp", c.cmp.is_some()),
            ("value", c.value.is_some()),
        ];
        for (name, there) in present {
            if there && !allowed.contains(&name) {
                return sem_key(
                    &join(path, &[k(name)]),
                    format!(
                        "`{name}` does not belong in a condition of type {}",
                        quote(&c.ty)
                    ),
                );
            }
        }
        Ok(())
    }

    fn action(&mut self, t: usize, a: &RawAction, path: &[Seg]) -> SResult<Stmt> {
        let kind = action_kind(a, path)?;
        check_fields(kind, a, path)?;
        let (order, scope) = order_scope(a, path)?;
        // Reads and writes through an RMW (`useRMW`) default like RMWs: always atomic.
        let rmw_like = kind == ActionKind::Rmw
            || (matches!(kind, ActionKind::Read | ActionKind::Write) && a.use_rmw == Some(true));
        let dk = if rmw_like { ActionKind::Rmw } else { kind };
        let order = order.unwrap_or(default_order(dk, self.d));
        let bad_order = match dk {
            ActionKind::Read => matches!(order, Order::Release | Order::AcqRel),
            ActionKind::Write => matches!(order, Order::Acquire | Order::AcqRel | Order::Consume),
            _ => false,
        };
        if bad_order {
            return sem(
                &join(path, &[k("memoryOrder")]),
                format!("a {} cannot be {}", a.action, order.name()),
            );
        }
        let span = self.ix.span(path);
        let kind = match kind {
            ActionKind::Fence | ActionKind::Barrier => {
                self.fence_action(kind, a, path, order, scope)?
            }
            _ => self.access_action(t, kind, dk, a, path, order, scope)?,
        };
        Ok(Stmt::new(kind, span))
    }

    /// A fence or barrier action.
    fn fence_action(
        &self,
        kind: ActionKind,
        a: &RawAction,
        path: &[Seg],
        order: Order,
        scope: Option<Option<Scope>>,
    ) -> SResult<StmtKind> {
        let spaces = match &a.space {
            None if kind == ActionKind::Barrier => default_barrier_spaces(self.d),
            None => Vec::new(),
            Some(v) => spaces_from(v, &join(path, &[k("space")]))?,
        };
        let attrs = MemAttrs {
            order,
            scope: scope.unwrap_or(default_scope(kind, order, self.d.space)),
            ..MemAttrs::default()
        };
        if kind == ActionKind::Barrier {
            return Ok(StmtKind::Barrier(Barrier {
                kind: BarrierKind::Sync,
                scope: Scope::Cta,
                id: Expr::Int(0),
                operands: Vec::new(),
                attrs,
                spaces,
            }));
        }
        let fk = match a.kind.as_deref() {
            None | Some("fence") => FenceKind::Fence,
            Some("membar") => FenceKind::Membar,
            Some(o) => {
                return sem(
                    &join(path, &[k("kind")]),
                    format!("unknown fence kind {}: expected fence or membar", quote(o)),
                )
            }
        };
        Ok(StmtKind::Fence(Fence {
            kind: fk,
            attrs,
            spaces,
        }))
    }

    /// A read, write or RMW action (`dk`: the kind its defaults follow).
    #[allow(clippy::too_many_arguments)]
    fn access_action(
        &mut self,
        t: usize,
        kind: ActionKind,
        dk: ActionKind,
        a: &RawAction,
        path: &[Seg],
        order: Order,
        scope: Option<Option<Scope>>,
    ) -> SResult<StmtKind> {
        need(a, path, a.memory_location.is_some(), "memoryLocation")?;
        let lname = a.memory_location.as_deref().unwrap_or_default();
        let loc = self.location(lname, &join(path, &[k("memoryLocation")]));
        let loc_space = self.p.loc(loc).space;
        let mut attrs = MemAttrs {
            order,
            scope: scope.unwrap_or(default_scope(dk, order, loc_space)),
            volatile: a.volatile.unwrap_or(false),
            ..MemAttrs::default()
        };
        if let Some(c) = &a.cache {
            attrs.cache = Some(CacheOp::from_name(c).ok_or_else(|| Sem {
                path: join(path, &[k("cache")]),
                at_key: false,
                message: format!(
                    "unknown cache operator {}: expected ca, cg, cs, lu, cv, wb or wt",
                    quote(c)
                ),
            })?);
        }
        if let Some(ty) = &a.ty {
            attrs.ty = Some(DataType::from_ptx(ty).ok_or_else(|| Sem {
                path: join(path, &[k("type")]),
                at_key: false,
                message: format!(
                    "unknown type {}: expected a PTX type such as s32",
                    quote(ty)
                ),
            })?);
        }
        let addr = Expr::Addr(loc);
        let rmw = a.use_rmw.unwrap_or(false);
        let kind = match kind {
            ActionKind::Read => {
                need(a, path, a.variable.is_some(), "variable")?;
                let dst =
                    self.p.threads[t].reg_or_declare(a.variable.as_deref().unwrap_or_default());
                if rmw {
                    StmtKind::Rmw(Rmw {
                        dst: Some(dst),
                        addr,
                        op: RmwOp::Add,
                        args: vec![Expr::Int(0)],
                        attrs,
                        fail_order: None,
                    })
                } else {
                    StmtKind::Load(Load { dst, addr, attrs })
                }
            }
            ActionKind::Write => {
                need(a, path, a.value.is_some(), "value")?;
                let value = Expr::Int(a.value.unwrap_or(0));
                if rmw {
                    StmtKind::Rmw(Rmw {
                        dst: None,
                        addr,
                        op: RmwOp::Exch,
                        args: vec![value],
                        attrs,
                        fail_order: None,
                    })
                } else {
                    StmtKind::Store(Store { addr, value, attrs })
                }
            }
            _ => self.rmw_action(t, a, path, addr, attrs)?,
        };
        Ok(kind)
    }

    /// An RMW action's statement on `addr`.
    fn rmw_action(
        &mut self,
        t: usize,
        a: &RawAction,
        path: &[Seg],
        addr: Expr,
        attrs: MemAttrs,
    ) -> SResult<StmtKind> {
        need(a, path, a.op.is_some(), "op")?;
        let opname = a.op.as_deref().unwrap_or_default();
        let op = RmwOp::from_name(opname).ok_or_else(|| Sem {
                            path: join(path, &[k("op")]),
                            at_key: false,
                            message: format!(
                                "unknown rmw op {}: expected exch, add, sub, and, or, xor, min, max, inc, dec or cas",
                                quote(opname)
                            ),
                        })?;
        need(a, path, a.value.is_some(), "value")?;
        let mut args = Vec::new();
        if op == RmwOp::Cas {
            need(a, path, a.expected.is_some(), "expected")?;
            args.push(Expr::Int(a.expected.unwrap_or(0)));
        } else if a.expected.is_some() {
            return sem_key(&join(path, &[k("expected")]), "`expected` goes with op cas");
        }
        args.push(Expr::Int(a.value.unwrap_or(0)));
        let dst = a
            .variable
            .as_deref()
            .map(|v| self.p.threads[t].reg_or_declare(v));
        Ok(StmtKind::Rmw(Rmw {
            dst,
            addr,
            op,
            args,
            attrs,
            fail_order: None,
        }))
    }

    /// A postcondition tree as a proposition.
    fn prop(&self, c: &RawCond, path: &[Seg], depth: usize) -> SResult<Prop> {
        if depth > 100 {
            return sem(path, "condition nested too deeply");
        }
        match c.ty.as_str() {
            "op" => {
                self.no_fields_but(c, path, &["op", "conditions", "key", "class"])?;
                let Some(op) = &c.op else {
                    return sem(path, "an op node needs `op` (and, or, not)");
                };
                let Some(conds) = &c.conditions else {
                    return sem(path, "an op node needs `conditions`");
                };
                let mut items = Vec::new();
                for (i, sub) in conds.iter().enumerate() {
                    items.push(self.prop(
                        sub,
                        &join(path, &[k("conditions"), Seg::Idx(i)]),
                        depth + 1,
                    )?);
                }
                match op.as_str() {
                    "and" => Ok(fold(items, Prop::and, Prop::True)),
                    "or" => Ok(fold(items, Prop::or, Prop::False)),
                    "not" => {
                        if items.len() != 1 {
                            return sem(
                                &join(path, &[k("conditions")]),
                                "`not` takes exactly one condition",
                            );
                        }
                        Ok(Prop::negate(items.pop().expect("one item")))
                    }
                    o => sem(
                        &join(path, &[k("op")]),
                        format!("unknown op {}: expected and, or or not", quote(o)),
                    ),
                }
            }
            "true" | "false" => {
                self.no_fields_but(c, path, &["key", "class"])?;
                Ok(if c.ty == "true" {
                    Prop::True
                } else {
                    Prop::False
                })
            }
            "variable" | "memory" => {
                self.no_fields_but(c, path, &["id", "thread", "cmp", "value", "key", "class"])?;
                let left = self.term(&c.ty, c.id.as_deref(), c.thread, path)?;
                let cmp = match &c.cmp {
                    None => CmpOp::Eq,
                    Some(s) => CMPS
                        .iter()
                        .find(|(n, _)| n == s)
                        .map(|(_, o)| *o)
                        .ok_or_else(|| Sem {
                            path: join(path, &[k("cmp")]),
                            at_key: false,
                            message: format!(
                                "unknown comparison {}: expected ==, !=, <, <=, > or >=",
                                quote(s)
                            ),
                        })?,
                };
                let vpath = join(path, &[k("value")]);
                let right = match &c.value {
                    None => return sem(path, "a condition needs `value`"),
                    Some(serde_json::Value::Number(n)) => match n.as_i64() {
                        Some(v) => Term::Int(v),
                        None => return sem(&vpath, "the value is not a 64-bit integer"),
                    },
                    Some(serde_json::Value::Object(m)) => {
                        for key in m.keys() {
                            if !["type", "id", "thread"].contains(&key.as_str()) {
                                return sem_key(
                                    &join(&vpath, &[k(key)]),
                                    format!("`{key}` does not belong in a value"),
                                );
                            }
                        }
                        let ty = match m.get("type") {
                            Some(serde_json::Value::String(s)) => s.as_str(),
                            _ => {
                                return sem(
                                    &vpath,
                                    "a value object needs \"type\": \"variable\" or \"memory\"",
                                )
                            }
                        };
                        let id = match m.get("id") {
                            Some(serde_json::Value::String(s)) => Some(s.as_str()),
                            None => None,
                            Some(_) => return sem(&join(&vpath, &[k("id")]), "`id` is a string"),
                        };
                        let thread = match m.get("thread") {
                            None => None,
                            Some(v) => match v.as_u64().and_then(|t| usize::try_from(t).ok()) {
                                Some(t) => Some(t),
                                None => {
                                    return sem(
                                        &join(&vpath, &[k("thread")]),
                                        "`thread` is a thread index",
                                    )
                                }
                            },
                        };
                        if ty != "variable" && ty != "memory" {
                            return sem(
                                &join(&vpath, &[k("type")]),
                                format!(
                                    "unknown value type {}: expected variable or memory",
                                    quote(ty)
                                ),
                            );
                        }
                        self.term(ty, id, thread, &vpath)?
                    }
                    Some(_) => return sem(
                        &vpath,
                        "a value is an integer or {\"type\": \"variable\"|\"memory\", \"id\": ...}",
                    ),
                };
                Ok(Prop::Cmp(left, cmp, right))
            }
            "else" => sem(
                &join(path, &[k("type")]),
                "`else` can only be a whole behavior, not part of a condition",
            ),
            o => sem(
                &join(path, &[k("type")]),
                format!(
                    "unknown condition type {}: expected op, variable, memory, true, false or else",
                    quote(o)
                ),
            ),
        }
    }

    fn term(
        &self,
        ty: &str,
        id: Option<&str>,
        thread: Option<usize>,
        path: &[Seg],
    ) -> SResult<Term> {
        let Some(id) = id else {
            return sem(path, "a condition needs `id`");
        };
        let ipath = join(path, &[k("id")]);
        if ty == "memory" {
            if thread.is_some() {
                return sem_key(&join(path, &[k("thread")]), "`thread` goes with variables");
            }
            return match self.p.loc_by_name(id) {
                Some(loc) => Ok(Term::Mem { loc, index: 0 }),
                None => sem(&ipath, format!("unknown memoryLocation {}", quote(id))),
            };
        }
        let owners: Vec<usize> = (0..self.p.threads.len())
            .filter(|t| self.p.threads[*t].reg_by_name(id).is_some())
            .collect();
        let t = match thread {
            Some(t) => {
                if !owners.contains(&t) {
                    return sem(&ipath, format!("thread {t} has no variable {}", quote(id)));
                }
                t
            }
            None => match owners[..] {
                [t] => t,
                [] => return sem(&ipath, format!("unknown variable {}", quote(id))),
                _ => {
                    return sem(
                        &ipath,
                        format!(
                            "variable {} is read by several threads; add \"thread\"",
                            quote(id)
                        ),
                    )
                }
            },
        };
        let reg = self.p.threads[t]
            .reg_by_name(id)
            .expect("owner has the register");
        Ok(Term::Reg { thread: t, reg })
    }
}

fn spaces_from(v: &serde_json::Value, path: &[Seg]) -> SResult<Vec<MemSpace>> {
    let one = |s: &serde_json::Value, path: &[Seg]| -> SResult<MemSpace> {
        match s {
            serde_json::Value::String(s) => space_from(s).ok_or_else(|| Sem {
                path: path.to_vec(),
                at_key: false,
                message: format!(
                    "unknown memory space {}: expected storage or workgroup",
                    quote(s)
                ),
            }),
            _ => sem(path, "a memory space is a string such as \"storage\""),
        }
    };
    match v {
        serde_json::Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, s)| one(s, &join(path, &[Seg::Idx(i)])))
            .collect(),
        s => Ok(vec![one(s, path)?]),
    }
}
