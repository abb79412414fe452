//! weft's JSON litmus format: GPUHarbor's test configs (paper 001 §3.2) plus extensions for
//! general straight-line tests (docs/formats.md describes every field).
//!
//! GPUHarbor's own fields are read as GPUHarbor means them: `testName`, `testType`
//! (`inter_workgroup`, `intra_workgroup`), `memoryType` (`atomic_storage`,
//! `atomic_workgroup`, `non_atomic_workgroup`), `threads[i].actions[]` (`read`, `write`,
//! `barrier`, `fence` with `memoryLocation`, `value`/`variable`, `memoryOrder`, `useRMW`) and
//! `behaviors` (postcondition trees). weft adds initial memory (`memory`), thread names and
//! placements, `rmw` actions, memory scopes, fence kinds and spaces, PTX annotations, a
//! behavior `class`, and an explicit final `condition`.
//!
//! The IR has no behaviors: the **weak** behaviors become the final condition
//! (`exists (weak0 \/ weak1 ...)`), and the printer recomputes every behavior with the SC
//! reference interpreter of [`classify`], so that any test printed as JSON lists its
//! sequential and interleaved outcomes and its weak condition. Accesses are WebGPU relaxed
//! atomics unless the test says otherwise; the program's architecture is [`Arch::WebGpu`].
//!
//! Syntax and type errors carry serde_json's `line:col`; semantic errors (an unknown action,
//! memory order or location, ...) point at the offending value in the source.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize, Serializer};

use crate::classify::{self, Class};
use crate::diag::{quote, ParseError};
use crate::PrintError;
use weft_ir::{
    Arch, Barrier, BarrierKind, CacheOp, CmpOp, Condition, DataType, Expr, Fence, FenceKind, Load,
    LocId, Location, MemAttrs, MemSpace, Order, Placement, Program, Prop, Proxy, Quantifier, Reg,
    Rmw, RmwOp, Scope, Span, Stmt, StmtKind, Store, Term, Thread, Value,
};

// ---------------------------------------------------------------------------------------
// Input (serde)
// ---------------------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "camelCase",
    expecting = "a test object"
)]
struct RawTest {
    test_name: String,
    #[serde(default)]
    doc: Vec<String>,
    /// herd/diy7 `key=value` metadata, as `[key, value]` pairs in order.
    #[serde(default)]
    meta: Vec<(String, String)>,
    #[serde(default)]
    test_type: Option<String>,
    #[serde(default)]
    memory_type: Option<String>,
    /// Older GPUHarbor configs: `sameWorkgroup: true` is `intra_workgroup`.
    #[serde(default)]
    same_workgroup: Option<bool>,
    /// Older GPUHarbor configs: `workgroupMemory: true` is `atomic_workgroup`.
    #[serde(default)]
    workgroup_memory: Option<bool>,
    #[serde(default)]
    memory: Vec<RawLocation>,
    threads: Vec<RawThread>,
    #[serde(default)]
    behaviors: BTreeMap<String, RawCond>,
    #[serde(default)]
    condition: Option<RawCondition>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a memory location object")]
struct RawLocation {
    name: String,
    #[serde(default)]
    init: i64,
    #[serde(default)]
    space: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a thread object")]
struct RawThread {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    placement: Option<RawPlacement>,
    #[serde(default)]
    registers: Vec<RawRegister>,
    actions: Vec<RawAction>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields, expecting = "a register object")]
struct RawRegister {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    init: Option<i64>,
}

#[derive(Deserialize, Serialize, Default, PartialEq, Eq)]
#[serde(
    deny_unknown_fields,
    rename_all = "camelCase",
    expecting = "a placement object"
)]
struct RawPlacement {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    subgroup: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    workgroup: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    queue_family: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    device: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    system: Option<u32>,
}

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "camelCase",
    expecting = "an action object"
)]
struct RawAction {
    action: String,
    #[serde(default)]
    memory_location: Option<String>,
    #[serde(default)]
    value: Option<i64>,
    #[serde(default)]
    variable: Option<String>,
    #[serde(default)]
    memory_order: Option<String>,
    #[serde(default)]
    memory_scope: Option<String>,
    #[serde(default, rename = "useRMW")]
    use_rmw: Option<bool>,
    #[serde(default)]
    op: Option<String>,
    #[serde(default)]
    expected: Option<i64>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    space: Option<serde_json::Value>,
    #[serde(default)]
    volatile: Option<bool>,
    #[serde(default)]
    cache: Option<String>,
    #[serde(default, rename = "type")]
    ty: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a postcondition object")]
struct RawCond {
    #[serde(rename = "type")]
    ty: String,
    #[serde(default)]
    op: Option<String>,
    #[serde(default)]
    key: Option<String>,
    #[serde(default)]
    class: Option<String>,
    #[serde(default)]
    conditions: Option<Vec<RawCond>>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    thread: Option<usize>,
    #[serde(default)]
    cmp: Option<String>,
    #[serde(default)]
    value: Option<serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a condition object")]
struct RawCondition {
    quantifier: String,
    postcondition: RawCond,
}

// ---------------------------------------------------------------------------------------
// Source positions of JSON values, for semantic errors and statement spans
// ---------------------------------------------------------------------------------------

/// One step of a path into the JSON document.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Seg {
    Key(String),
    Idx(usize),
}

/// Where each value (and each object member's key) starts, by path.
#[derive(Default)]
struct Index {
    values: HashMap<Vec<Seg>, (u32, u32)>,
    keys: HashMap<Vec<Seg>, (u32, u32)>,
}

struct Scanner<'a> {
    src: &'a str,
    b: &'a [u8],
    i: usize,
    line: u32,
    col: u32,
}

impl Scanner<'_> {
    fn bump(&mut self) {
        if let Some(&c) = self.b.get(self.i) {
            if c == b'\n' {
                self.line += 1;
                self.col = 1;
            } else if c & 0xC0 != 0x80 {
                self.col += 1;
            }
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.bump();
        }
    }

    fn string(&mut self) -> Option<String> {
        let start = self.i;
        self.bump();
        while let Some(c) = self.peek() {
            match c {
                b'\\' => {
                    self.bump();
                    self.bump();
                }
                b'"' => {
                    self.bump();
                    return serde_json::from_str(self.src.get(start..self.i)?).ok();
                }
                _ => self.bump(),
            }
        }
        None
    }

    /// Records the value at the cursor and everything inside it; `None` on malformed input.
    fn value(&mut self, path: &mut Vec<Seg>, ix: &mut Index, depth: usize) -> Option<()> {
        if depth > 256 {
            return None;
        }
        ix.values.insert(path.clone(), (self.line, self.col));
        match self.peek()? {
            b'{' => {
                self.bump();
                self.ws();
                if self.peek() == Some(b'}') {
                    self.bump();
                    return Some(());
                }
                loop {
                    self.ws();
                    if self.peek() != Some(b'"') {
                        return None;
                    }
                    let at = (self.line, self.col);
                    let key = self.string()?;
                    self.ws();
                    if self.peek() != Some(b':') {
                        return None;
                    }
                    self.bump();
                    self.ws();
                    path.push(Seg::Key(key));
                    ix.keys.entry(path.clone()).or_insert(at);
                    let r = self.value(path, ix, depth + 1);
                    path.pop();
                    r?;
                    self.ws();
                    match self.peek()? {
                        b',' => self.bump(),
                        b'}' => {
                            self.bump();
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.bump();
                self.ws();
                if self.peek() == Some(b']') {
                    self.bump();
                    return Some(());
                }
                let mut k = 0;
                loop {
                    self.ws();
                    path.push(Seg::Idx(k));
                    let r = self.value(path, ix, depth + 1);
                    path.pop();
                    r?;
                    k += 1;
                    self.ws();
                    match self.peek()? {
                        b',' => self.bump(),
                        b']' => {
                            self.bump();
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b'"' => self.string().map(|_| ()),
            _ => {
                while let Some(c) = self.peek() {
                    if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.bump();
                }
                Some(())
            }
        }
    }
}

fn build_index(src: &str) -> Index {
    let mut sc = Scanner {
        src,
        b: src.as_bytes(),
        i: 0,
        line: 1,
        col: 1,
    };
    let mut ix = Index::default();
    sc.ws();
    let _ = sc.value(&mut Vec::new(), &mut ix, 0);
    ix
}

impl Index {
    /// Where the value at `path` starts (or the nearest enclosing value).
    fn pos(&self, path: &[Seg]) -> (u32, u32) {
        for n in (0..=path.len()).rev() {
            if let Some(p) = self.values.get(&path[..n]) {
                return *p;
            }
        }
        (1, 1)
    }

    fn key_pos(&self, path: &[Seg]) -> (u32, u32) {
        self.keys
            .get(path)
            .copied()
            .unwrap_or_else(|| self.pos(path))
    }

    fn span(&self, path: &[Seg]) -> Span {
        let (l, c) = self.pos(path);
        Span::new(l, c)
    }
}

// ---------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------

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

fn k(s: &str) -> Seg {
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

/// What the memory type makes the default.
#[derive(Clone, Copy)]
struct Defaults {
    space: MemSpace,
    atomic: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ActionKind {
    Read,
    Write,
    Rmw,
    Fence,
    Barrier,
}

/// The order an action has when `memoryOrder` is absent.
fn default_order(kind: ActionKind, d: Defaults) -> Order {
    match kind {
        ActionKind::Read | ActionKind::Write if !d.atomic => Order::Plain,
        ActionKind::Read | ActionKind::Write | ActionKind::Rmw => Order::Relaxed,
        ActionKind::Fence | ActionKind::Barrier => Order::AcqRel,
    }
}

/// The scope an action has when `memoryScope` is absent: none for non-atomics, the
/// workgroup for atomics on workgroup memory and for barriers, else the device.
fn default_scope(kind: ActionKind, order: Order, loc_space: MemSpace) -> Option<Scope> {
    if order == Order::Plain {
        return None;
    }
    Some(match kind {
        ActionKind::Barrier => Scope::Cta,
        ActionKind::Fence => Scope::Gpu,
        _ if loc_space == MemSpace::Shared => Scope::Cta,
        _ => Scope::Gpu,
    })
}

fn default_barrier_spaces(d: Defaults) -> Vec<MemSpace> {
    vec![d.space]
}

const ORDERS: [(&str, Order); 7] = [
    ("plain", Order::Plain),
    ("relaxed", Order::Relaxed),
    ("consume", Order::Consume),
    ("acquire", Order::Acquire),
    ("release", Order::Release),
    ("acq_rel", Order::AcqRel),
    ("seq_cst", Order::SeqCst),
];

fn order_from(s: &str) -> Option<Order> {
    if s == "sc" {
        return Some(Order::SeqCst);
    }
    ORDERS.iter().find(|(n, _)| *n == s).map(|(_, o)| *o)
}

fn order_name(o: Order) -> &'static str {
    ORDERS
        .iter()
        .find(|(_, x)| *x == o)
        .map(|(n, _)| *n)
        .unwrap_or("relaxed")
}

const SCOPES: [(&str, Scope); 6] = [
    ("thread", Scope::Thread),
    ("subgroup", Scope::Warp),
    ("workgroup", Scope::Cta),
    ("queueFamily", Scope::QueueFamily),
    ("device", Scope::Gpu),
    ("system", Scope::System),
];

fn scope_from(s: &str) -> Option<Option<Scope>> {
    if s == "none" {
        return Some(None);
    }
    SCOPES.iter().find(|(n, _)| *n == s).map(|(_, x)| Some(*x))
}

fn scope_name(s: Option<Scope>) -> &'static str {
    match s {
        None => "none",
        Some(s) => SCOPES
            .iter()
            .find(|(_, x)| *x == s)
            .map(|(n, _)| *n)
            .unwrap_or("none"),
    }
}

const SPACES: [(&str, MemSpace); 6] = [
    ("storage", MemSpace::Global),
    ("workgroup", MemSpace::Shared),
    ("private", MemSpace::Local),
    ("uniform", MemSpace::Constant),
    ("param", MemSpace::Param),
    ("generic", MemSpace::Generic),
];

fn space_from(s: &str) -> Option<MemSpace> {
    let alias = match s {
        "global" => Some(MemSpace::Global),
        "shared" => Some(MemSpace::Shared),
        "local" => Some(MemSpace::Local),
        "constant" => Some(MemSpace::Constant),
        _ => None,
    };
    alias.or_else(|| SPACES.iter().find(|(n, _)| *n == s).map(|(_, x)| *x))
}

fn space_name(s: MemSpace) -> &'static str {
    SPACES
        .iter()
        .find(|(_, x)| *x == s)
        .map(|(n, _)| *n)
        .unwrap_or("storage")
}

const CMPS: [(&str, CmpOp); 6] = [
    ("==", CmpOp::Eq),
    ("!=", CmpOp::Ne),
    ("<", CmpOp::Lt),
    ("<=", CmpOp::Le),
    (">", CmpOp::Gt),
    (">=", CmpOp::Ge),
];

struct Lowerer<'a> {
    ix: &'a Index,
    p: Program,
    d: Defaults,
}

fn lower(raw: &RawTest, ix: &Index) -> SResult<Program> {
    let intra = match raw.test_type.as_deref() {
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
    };
    let d = match raw.memory_type.as_deref() {
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
    };
    let mut lw = Lowerer {
        ix,
        p: Program::new(Arch::WebGpu, raw.test_name.clone()),
        d,
    };
    lw.p.doc = raw.doc.clone();
    lw.p.meta = raw.meta.clone();
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
    // Behaviors: validated; the weak ones become the condition unless one is given.
    let mut weak: Vec<Option<Prop>> = Vec::new();
    let mut others: Vec<Prop> = Vec::new();
    for (name, b) in &raw.behaviors {
        let path = [k("behaviors"), k(name)];
        let class = match (&b.class, &b.key) {
            (Some(c), _) => Class::from_name(c).ok_or_else(|| Sem {
                path: join(&path, &[k("class")]),
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
                        &join(&path, &[k("key")]),
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
                        &path,
                        format!(
                            "cannot tell the class of behavior {}: name it seq…, interleaved… or weak…, or add \"class\"",
                            quote(name)
                        ),
                    )
                }
            },
        };
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
    lw.p.condition = match &raw.condition {
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
    };
    Ok(lw.p)
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
        let kind = match a.action.as_str() {
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
        };
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
        let need = |there: bool, name: &str| -> SResult<()> {
            if there {
                Ok(())
            } else {
                sem(path, format!("a {} action needs `{name}`", a.action))
            }
        };
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
        let stmt = |kind: StmtKind| Stmt::new(kind, span);
        match kind {
            ActionKind::Fence | ActionKind::Barrier => {
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
                    return Ok(stmt(StmtKind::Barrier(Barrier {
                        kind: BarrierKind::Sync,
                        scope: Scope::Cta,
                        id: Expr::Int(0),
                        operands: Vec::new(),
                        attrs,
                        spaces,
                    })));
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
                Ok(stmt(StmtKind::Fence(Fence {
                    kind: fk,
                    attrs,
                    spaces,
                })))
            }
            _ => {
                need(a.memory_location.is_some(), "memoryLocation")?;
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
                        need(a.variable.is_some(), "variable")?;
                        let dst = self.p.threads[t]
                            .reg_or_declare(a.variable.as_deref().unwrap_or_default());
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
                        need(a.value.is_some(), "value")?;
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
                    _ => {
                        need(a.op.is_some(), "op")?;
                        let opname = a.op.as_deref().unwrap_or_default();
                        let op = RmwOp::from_name(opname).ok_or_else(|| Sem {
                            path: join(path, &[k("op")]),
                            at_key: false,
                            message: format!(
                                "unknown rmw op {}: expected exch, add, sub, and, or, xor, min, max, inc, dec or cas",
                                quote(opname)
                            ),
                        })?;
                        need(a.value.is_some(), "value")?;
                        let mut args = Vec::new();
                        if op == RmwOp::Cas {
                            need(a.expected.is_some(), "expected")?;
                            args.push(Expr::Int(a.expected.unwrap_or(0)));
                        } else if a.expected.is_some() {
                            return sem_key(
                                &join(path, &[k("expected")]),
                                "`expected` goes with op cas",
                            );
                        }
                        args.push(Expr::Int(a.value.unwrap_or(0)));
                        let dst = a
                            .variable
                            .as_deref()
                            .map(|v| self.p.threads[t].reg_or_declare(v));
                        StmtKind::Rmw(Rmw {
                            dst,
                            addr,
                            op,
                            args,
                            attrs,
                            fail_order: None,
                        })
                    }
                };
                Ok(stmt(kind))
            }
        }
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

// ---------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------

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
    // The memory type: workgroup memory when every location is in it.
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
    let pr = Printer { p, d, owners };

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

    // Placement: GPUHarbor's test types when they fit, else one placement per thread.
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

    // Initial memory: implicit when the locations are exactly those the actions name, in
    // order of first use, zero and in the default space.
    let implicit = first_use == (0..p.locations.len()).collect::<Vec<_>>()
        && p.locations
            .iter()
            .all(|l| l.init == Value::Int(0) && l.space == d.space);
    let memory = if implicit {
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
    };

    // Behaviors, recomputed by the SC reference interpreter.
    let cls = classify::classify(p)
        .map_err(|e| PrintError::new(format!("JSON needs the outcome classification: {e}")))?;
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
    let projected = cls.project(&terms);
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
