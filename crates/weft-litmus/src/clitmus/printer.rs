//! Printers for herd C11 and Dat3M OpenCL litmus tests: checks that a program is
//! expressible in the dialect, then writes it canonically, folding temporaries back into
//! the expressions they came from and placing register declarations so that re-parsing
//! gives the same register order. The expressibility checks are the `check` submodule.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use weft_ir::{
    CmpOp, DataType, Expr, FenceKind, LocId, MemAttrs, MemSpace, Order, Param, Program, Prop,
    Quantifier, Reg, RmwOp, Scope, Stmt, StmtKind, Term, Thread, UnOp, Value,
};

use super::lower::rmw_name;
use super::{is_c_ident, Dialect, LEVELS, ORDERS, SCOPES};
use crate::PrintError;

type P<T> = Result<T, PrintError>;

mod check;

use check::{addr_locs, check_program, check_stmt};

const P_PRIMARY: u8 = 13;
const P_UNARY: u8 = 12;

fn err<T>(msg: impl Into<String>) -> P<T> {
    Err(PrintError::new(msg))
}

/// Writes `p` in dialect `d`.
pub(super) fn print(p: &Program, d: Dialect) -> P<String> {
    let mut out = String::new();
    check_program(p, d)?;
    out.push_str(d.header());
    if !p.name.is_empty() {
        out.push(' ');
        out.push_str(&p.name);
    }
    out.push('\n');
    for doc in &p.doc {
        // Litmus strings have no escapes: a quote inside becomes an apostrophe.
        let _ = writeln!(out, "\"{}\"", doc.replace('"', "'"));
    }
    out.push_str(&crate::cond::print_meta(&p.meta)?);
    out.push('\n');
    init_block(p, d, &mut out)?;
    let shared = Shared::new(p);
    for ti in 0..p.threads.len() {
        out.push('\n');
        ThreadPrinter::new(p, d, ti, &shared)?.print(&mut out)?;
    }
    let cond = Cond { p };
    if !p.observed.is_empty() {
        out.push('\n');
        out.push_str("locations [");
        for t in &p.observed {
            out.push_str(&cond.term(t)?);
            out.push_str("; ");
        }
        out.push_str("]\n");
    }
    if let Some(f) = &p.filter {
        if p.observed.is_empty() {
            out.push('\n');
        }
        let _ = writeln!(out, "filter ({})", cond.prop(f, 0)?);
    }
    if let Some(c) = &p.condition {
        if p.observed.is_empty() && p.filter.is_none() {
            out.push('\n');
        }
        let q = match c.quantifier {
            Quantifier::Exists => "exists",
            Quantifier::NotExists => "~exists",
            Quantifier::Forall => "forall",
        };
        let _ = writeln!(out, "{q} ({})", cond.prop(&c.prop, 0)?);
    }
    Ok(out)
}

fn dialect_name(d: Dialect) -> &'static str {
    match d {
        Dialect::C => "herd C",
        Dialect::OpenCl => "OpenCL",
    }
}

fn scope_name(s: Scope) -> P<&'static str> {
    SCOPES
        .iter()
        .find(|(_, sc)| *sc == s)
        .map(|(n, _)| *n)
        .ok_or_else(|| PrintError::new(format!("the {} scope has no OpenCL spelling", s.name())))
}

fn order_name(o: Order) -> &'static str {
    let o = if o == Order::Plain { Order::Relaxed } else { o };
    ORDERS
        .iter()
        .find(|(_, x)| *x == o)
        .map_or("memory_order_relaxed", |(n, _)| *n)
}

/// C spelling of a base type; `atomic` gives the `atomic_` type.
fn type_name(ty: Option<DataType>, atomic: bool, d: Dialect) -> String {
    let base = match ty {
        Some(DataType::U32) => "uint",
        Some(DataType::S64) => "long",
        Some(DataType::U64) => "ulong",
        _ => "int",
    };
    base_spelling(base, atomic, d)
}

fn base_spelling(base: &str, atomic: bool, d: Dialect) -> String {
    let base = match base {
        "uint" | "long" | "ulong" => base,
        _ => "int",
    };
    if atomic {
        return format!("atomic_{base}");
    }
    match (d, base) {
        (Dialect::C, "uint") => "unsigned".to_string(),
        (Dialect::C, "ulong") => "unsigned long".to_string(),
        _ => base.to_string(),
    }
}

fn int_text(n: i64) -> P<String> {
    if n == i64::MIN {
        return err("the integer -9223372036854775808 cannot be written as a C literal");
    }
    Ok(n.to_string())
}

fn value_text(p: &Program, v: &Value) -> P<String> {
    match v {
        Value::Int(n) => int_text(*n),
        Value::Addr(l) => Ok(format!("&{}", loc_name(p, *l)?)),
    }
}

fn loc_name(p: &Program, l: LocId) -> P<&str> {
    p.locations
        .get(l.index())
        .map(|l| l.name.as_str())
        .ok_or_else(|| PrintError::new(format!("unknown location #{}", l.0)))
}

/// Answers "does a `scope` operation of thread `ti` distinguish threads of this program?",
/// comparing distinct placements only (and conservatively saying yes when there are very
/// many).
struct Scopes {
    distinct: Vec<weft_ir::Placement>,
    count: Vec<usize>,
    of_thread: Vec<usize>,
    memo: std::cell::RefCell<HashMap<(usize, Scope), bool>>,
}

impl Scopes {
    fn new(p: &Program) -> Self {
        let mut index: HashMap<&weft_ir::Placement, usize> = HashMap::new();
        let (mut distinct, mut count, mut of_thread) = (Vec::new(), Vec::new(), Vec::new());
        for t in &p.threads {
            let k = *index.entry(&t.placement).or_insert_with(|| {
                distinct.push(t.placement.clone());
                count.push(0);
                distinct.len() - 1
            });
            count[k] += 1;
            of_thread.push(k);
        }
        Scopes {
            distinct,
            count,
            of_thread,
            memo: Default::default(),
        }
    }

    fn matters(&self, ti: usize, scope: Scope) -> bool {
        if scope == Scope::System {
            return false;
        }
        let Some(&k) = self.of_thread.get(ti) else {
            return false;
        };
        if let Some(v) = self.memo.borrow().get(&(k, scope)) {
            return *v;
        }
        let me = &self.distinct[k];
        let v = self.distinct.len() > 2048
            || (self.count[k] > 1 && !me.same_instance(me, scope))
            || self
                .distinct
                .iter()
                .enumerate()
                .any(|(j, q)| j != k && !me.same_instance(q, scope));
        self.memo.borrow_mut().insert((k, scope), v);
        v
    }
}

/// Facts about the whole program that every thread's printing consults.
struct Shared {
    scopes: Scopes,
    /// Memory spaces the locations use.
    loc_spaces: BTreeSet<MemSpace>,
    /// Fence flags for a fence that names no spaces: every space the test uses.
    default_spaces: Vec<MemSpace>,
    /// Per thread: the registers the condition, filter and `locations` name.
    cond_regs: HashMap<usize, Vec<Reg>>,
}

impl Shared {
    fn new(p: &Program) -> Self {
        let loc_spaces: BTreeSet<MemSpace> = p.locations.iter().map(|l| l.space).collect();
        let mut default_spaces = vec![MemSpace::Global];
        if loc_spaces.contains(&MemSpace::Shared) {
            default_spaces.push(MemSpace::Shared);
        }
        let mut terms = Vec::new();
        if let Some(c) = &p.condition {
            c.prop.terms(&mut terms);
        }
        if let Some(f) = &p.filter {
            f.terms(&mut terms);
        }
        terms.extend(p.observed.iter());
        let mut cond_regs: HashMap<usize, Vec<Reg>> = HashMap::new();
        for term in terms {
            if let Term::Reg { thread, reg } = term {
                cond_regs.entry(*thread).or_default().push(*reg);
            }
        }
        Shared {
            scopes: Scopes::new(p),
            loc_spaces,
            default_spaces,
            cond_regs,
        }
    }
}

fn flags_text(spaces: &[MemSpace]) -> P<String> {
    let mut v = Vec::new();
    for s in spaces {
        v.push(match s {
            MemSpace::Global => "CLK_GLOBAL_MEM_FENCE",
            MemSpace::Shared => "CLK_LOCAL_MEM_FENCE",
            other => {
                return err(format!(
                    "a fence over {} memory has no OpenCL flag",
                    other.name()
                ))
            }
        });
    }
    Ok(v.join(" | "))
}

fn init_block(p: &Program, d: Dialect, out: &mut String) -> P<()> {
    out.push_str("{\n");
    for l in &p.locations {
        let v = value_text(p, &l.init)?;
        if l.size == 1 && l.ty.is_none() {
            match d {
                Dialect::OpenCl => {
                    let _ = writeln!(out, "  [{}]={v};", l.name);
                }
                Dialect::C => {
                    let _ = writeln!(out, "  {} = {v};", l.name);
                }
            }
        } else if l.size == 1 {
            let _ = writeln!(out, "  {} {} = {v};", type_name(l.ty, l.atomic, d), l.name);
        } else {
            let ty = type_name(l.ty, l.atomic, d);
            if l.init == Value::Int(0) && l.size > 64 {
                let _ = writeln!(out, "  {ty} {}[{}];", l.name, l.size);
            } else {
                if matches!(l.init, Value::Addr(_)) {
                    return err(format!(
                        "array `{}` starts with an address in each element",
                        l.name
                    ));
                }
                let vals = vec![v.as_str(); l.size as usize].join(", ");
                let _ = writeln!(out, "  {ty} {}[{}] = {{{vals}}};", l.name, l.size);
            }
        }
    }
    for (ti, t) in p.threads.iter().enumerate() {
        for r in &t.regs {
            if let Some(v) = &r.init {
                if !is_c_ident(&r.name) {
                    return err(format!(
                        "the register name {:?} of {} is not a C identifier",
                        r.name, t.name
                    ));
                }
                let _ = writeln!(out, "  {ti}:{}={};", r.name, value_text(p, v)?);
            }
        }
    }
    out.push_str("}\n");
    Ok(())
}

// ---- expressions with temporaries folded in ----

/// Temporaries that may be folded into the statement being printed.
struct Subst<'s> {
    defs: Vec<(Reg, &'s Stmt)>,
    index: HashMap<Reg, usize>,
    used: Vec<bool>,
    /// Folded temporaries in the order their accesses are evaluated.
    consumed: Vec<Reg>,
}

impl<'s> Subst<'s> {
    fn none() -> Self {
        Subst {
            defs: Vec::new(),
            index: HashMap::new(),
            used: Vec::new(),
            consumed: Vec::new(),
        }
    }

    fn new(defs: &'s [Stmt]) -> Self {
        let defs: Vec<(Reg, &Stmt)> = defs
            .iter()
            .filter_map(|s| def_of(s).map(|r| (r, s)))
            .collect();
        let used = vec![false; defs.len()];
        let index = defs.iter().enumerate().map(|(k, (r, _))| (*r, k)).collect();
        Subst {
            defs,
            index,
            used,
            consumed: Vec::new(),
        }
    }

    fn take(&mut self, r: Reg) -> Option<&'s Stmt> {
        let k = *self.index.get(&r)?;
        if self.used[k] {
            return None;
        }
        self.used[k] = true;
        Some(self.defs[k].1)
    }

    fn complete(&self) -> bool {
        self.consumed.len() == self.defs.len()
            && self
                .consumed
                .iter()
                .zip(&self.defs)
                .all(|(a, (b, _))| a == b)
    }
}

/// The register a load or read-modify-write writes.
fn def_of(s: &Stmt) -> Option<Reg> {
    match &s.kind {
        StmtKind::Load(l) => Some(l.dst),
        StmtKind::Rmw(r) => r.dst,
        _ => None,
    }
}

fn expr_regs(e: &Expr, out: &mut Vec<Reg>) {
    e.regs(out);
}

/// Registers a statement's own line mentions (not those of nested blocks).
fn head_regs(s: &Stmt, out: &mut Vec<Reg>) {
    if let Some(g) = s.guard {
        out.push(g.reg);
    }
    match &s.kind {
        StmtKind::Load(l) => {
            out.push(l.dst);
            expr_regs(&l.addr, out);
        }
        StmtKind::Store(st) => {
            expr_regs(&st.addr, out);
            expr_regs(&st.value, out);
        }
        StmtKind::Rmw(r) => {
            out.extend(r.dst);
            expr_regs(&r.addr, out);
            r.args.iter().for_each(|a| expr_regs(a, out));
        }
        StmtKind::Assign { dst, value } => {
            out.push(*dst);
            expr_regs(value, out);
        }
        StmtKind::If { cond, .. } => expr_regs(cond, out),
        StmtKind::While { prelude, cond, .. } => {
            for s in prelude {
                head_regs(s, out);
            }
            expr_regs(cond, out);
        }
        StmtKind::Barrier(b) => {
            expr_regs(&b.id, out);
            b.operands.iter().for_each(|a| expr_regs(a, out));
        }
        StmtKind::Jump { cond, .. } => {
            if let Some(c) = cond {
                expr_regs(c, out);
            }
        }
        StmtKind::Assume(e) | StmtKind::Assert(e) => expr_regs(e, out),
        StmtKind::Fence(_) | StmtKind::Label(_) => {}
    }
}

fn walk_all<'a>(code: &'a [Stmt], f: &mut dyn FnMut(&'a Stmt)) {
    weft_ir::code::walk(code, f);
}

struct ThreadPrinter<'p> {
    p: &'p Program,
    shared: &'p Shared,
    d: Dialect,
    ti: usize,
    t: &'p Thread,
    params: Vec<Param>,
    /// Per register: folded into the statement that uses it.
    foldable: Vec<bool>,
    /// Per register: a temporary nothing reads (a discarded load, printed as `*x;`).
    discarded: Vec<bool>,
    decl_pos: Vec<Option<usize>>,
    decl_list: Vec<Reg>,
    next_decl: usize,
    labels: Vec<String>,
    lines: String,
}

impl<'p> ThreadPrinter<'p> {
    fn new(p: &'p Program, d: Dialect, ti: usize, shared: &'p Shared) -> P<Self> {
        let t = &p.threads[ti];
        let n = t.regs.len();
        let (mut uses, mut defs, mut assigned) = (vec![0usize; n], vec![0usize; n], vec![false; n]);
        let mut bad_reg = None;
        walk_all(&t.code, &mut |s| {
            let mut rs = Vec::new();
            head_regs(s, &mut rs);
            if let StmtKind::While { prelude, .. } = &s.kind {
                // head_regs included the prelude; those statements are walked on their own.
                let mut pre = Vec::new();
                for x in prelude {
                    head_regs(x, &mut pre);
                }
                for r in pre {
                    if let Some(k) = rs.iter().position(|x| *x == r) {
                        rs.remove(k);
                    }
                }
            }
            let d = match &s.kind {
                StmtKind::Load(l) => Some(l.dst),
                StmtKind::Rmw(r) => r.dst,
                StmtKind::Assign { dst, .. } => Some(*dst),
                _ => None,
            };
            if let Some(dr) = d {
                if let Some(k) = rs.iter().position(|x| *x == dr) {
                    rs.remove(k);
                }
                match defs.get_mut(dr.index()) {
                    Some(c) => *c += 1,
                    None => bad_reg = Some(dr),
                }
                if matches!(s.kind, StmtKind::Assign { .. }) {
                    if let Some(a) = assigned.get_mut(dr.index()) {
                        *a = true;
                    }
                }
            }
            for r in rs {
                match uses.get_mut(r.index()) {
                    Some(c) => *c += 1,
                    None => bad_reg = Some(r),
                }
            }
        });
        if let Some(r) = bad_reg {
            return err(format!("{} uses an unknown register #{}", t.name, r.0));
        }
        let mut in_cond = vec![false; n];
        for reg in shared.cond_regs.get(&ti).into_iter().flatten() {
            if let Some(c) = in_cond.get_mut(reg.index()) {
                *c = true;
            }
        }
        let foldable: Vec<bool> = (0..n)
            .map(|i| {
                let r = &t.regs[i];
                r.temp
                    && r.init.is_none()
                    && uses[i] == 1
                    && defs[i] == 1
                    && !assigned[i]
                    && !in_cond[i]
            })
            .collect();
        let discarded: Vec<bool> = (0..n)
            .map(|i| {
                let r = &t.regs[i];
                r.temp
                    && r.init.is_none()
                    && uses[i] == 0
                    && defs[i] == 1
                    && !assigned[i]
                    && !in_cond[i]
            })
            .collect();
        let decl_list: Vec<Reg> = (0..n)
            .filter(|i| !foldable[*i] && !discarded[*i] && t.regs[*i].init.is_none())
            .map(|i| Reg(i as u32))
            .collect();
        let mut decl_pos = vec![None; n];
        for (k, r) in decl_list.iter().enumerate() {
            decl_pos[r.index()] = Some(k);
        }
        let mut tp = ThreadPrinter {
            p,
            shared,
            d,
            ti,
            t,
            params: Vec::new(),
            foldable,
            discarded,
            decl_pos,
            decl_list,
            next_decl: 0,
            labels: Vec::new(),
            lines: String::new(),
        };
        tp.params = tp.make_params()?;
        tp.check_names()?;
        tp.check_code()?;
        Ok(tp)
    }

    fn name(&self, r: Reg) -> &str {
        self.t.reg_name(r)
    }

    /// The parameters to print: those recorded, then one per other location used.
    fn make_params(&self) -> P<Vec<Param>> {
        let t = self.t;
        let mut params: Vec<Param> = t.params.clone();
        for prm in &params {
            let l = self.p.locations.get(prm.loc.index()).ok_or_else(|| {
                PrintError::new(format!(
                    "parameter `{}` of {} names no location",
                    prm.name, t.name
                ))
            })?;
            if l.name != prm.name {
                return err(format!(
                    "parameter `{}` of {} points to `{}`; C/OpenCL litmus parameters are named after their location",
                    prm.name, t.name, l.name
                ));
            }
            if let Some(s) = prm.space {
                if !matches!(s, MemSpace::Global | MemSpace::Shared) {
                    return err(format!(
                        "parameter `{}` of {} is in {} memory",
                        prm.name,
                        t.name,
                        s.name()
                    ));
                }
            }
        }
        // Locations used, and how: (atomic access seen, volatile flags seen).
        let mut used: HashMap<LocId, (bool, BTreeSet<bool>)> = HashMap::new();
        let mut all: BTreeSet<LocId> = BTreeSet::new();
        walk_all(&t.code, &mut |s| {
            let mut exprs: Vec<&Expr> = Vec::new();
            let mut access: Option<(&Expr, &MemAttrs)> = None;
            match &s.kind {
                StmtKind::Load(l) => access = Some((&l.addr, &l.attrs)),
                StmtKind::Store(st) => {
                    access = Some((&st.addr, &st.attrs));
                    exprs.push(&st.value);
                }
                StmtKind::Rmw(r) => {
                    access = Some((&r.addr, &r.attrs));
                    exprs.extend(r.args.iter());
                }
                StmtKind::Assign { value, .. } => exprs.push(value),
                StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => exprs.push(cond),
                StmtKind::Barrier(b) => {
                    exprs.push(&b.id);
                    exprs.extend(b.operands.iter());
                }
                StmtKind::Jump { cond: Some(c), .. } => exprs.push(c),
                StmtKind::Assume(e) | StmtKind::Assert(e) => exprs.push(e),
                _ => {}
            }
            if let Some((addr, attrs)) = access {
                let mut locs = Vec::new();
                addr_locs(addr, &mut locs);
                if let [l] = locs.as_slice() {
                    let e = used.entry(*l).or_default();
                    e.0 |= attrs.order.is_atomic();
                    e.1.insert(attrs.volatile);
                }
                all.extend(locs);
            }
            for e in exprs {
                let mut locs = Vec::new();
                addr_locs(e, &mut locs);
                all.extend(locs);
            }
        });
        let by_loc: HashMap<LocId, usize> =
            params.iter().enumerate().map(|(k, x)| (x.loc, k)).collect();
        for (l, (_, vols)) in &used {
            if vols.len() > 1 {
                return err(format!(
                    "{} accesses `{}` both as volatile and as non-volatile; a C parameter is one or the other",
                    t.name,
                    loc_name(self.p, *l)?
                ));
            }
            if let Some(prm) = by_loc.get(l).and_then(|k| params.get(*k)) {
                if vols.first() != Some(&prm.volatile) {
                    return err(format!(
                        "{} accesses `{}` {}volatile through a {}volatile parameter",
                        t.name,
                        prm.name,
                        if prm.volatile { "non-" } else { "" },
                        if prm.volatile { "" } else { "non-" }
                    ));
                }
            }
        }
        for l in all {
            if by_loc.contains_key(&l) {
                continue;
            }
            let loc =
                self.p.locations.get(l.index()).ok_or_else(|| {
                    PrintError::new(format!("{} uses an unknown location", t.name))
                })?;
            let (atomic_access, vols) = used.get(&l).cloned().unwrap_or_default();
            params.push(Param {
                name: loc.name.clone(),
                loc: l,
                space: match self.d {
                    Dialect::C => None,
                    Dialect::OpenCl => Some(if loc.space == MemSpace::Shared {
                        MemSpace::Shared
                    } else {
                        MemSpace::Global
                    }),
                },
                atomic: loc.atomic || atomic_access,
                volatile: vols.contains(&true),
                base: "int".to_string(),
            });
        }
        Ok(params)
    }

    fn check_names(&self) -> P<()> {
        let t = self.t;
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        for prm in &self.params {
            if !is_c_ident(&prm.name) {
                return err(format!(
                    "the parameter name {:?} is not a C identifier",
                    prm.name
                ));
            }
            if !seen.insert(&prm.name) {
                return err(format!(
                    "{} has two parameters named `{}`",
                    t.name, prm.name
                ));
            }
        }
        for (i, r) in t.regs.iter().enumerate() {
            if self.foldable[i] || self.discarded[i] {
                continue;
            }
            if !is_c_ident(&r.name) {
                return err(format!(
                    "the register name {:?} of {} is not a C identifier",
                    r.name, t.name
                ));
            }
            if !seen.insert(&r.name) {
                return err(format!(
                    "{} has a register or parameter `{}` twice",
                    t.name, r.name
                ));
            }
        }
        let mut labels = BTreeSet::new();
        let mut bad = None;
        walk_all(&t.code, &mut |s| {
            if let StmtKind::Label(l) = &s.kind {
                // Labels have their own namespace: only their spelling and uniqueness matter.
                if !is_c_ident(l) || !labels.insert(l.clone()) {
                    bad.get_or_insert(l.clone());
                }
            }
        });
        if let Some(l) = bad {
            return err(format!(
                "{} has a label {:?} that cannot be printed",
                t.name, l
            ));
        }
        Ok(())
    }

    /// Refuses what the dialect cannot say.
    fn check_code(&self) -> P<()> {
        let mut res = Ok(());
        let (d, ti, tname) = (self.d, self.ti, self.t.name.as_str());
        let loc_spaces = &self.shared.loc_spaces;
        let scopes = &self.shared.scopes;
        walk_all(&self.t.code, &mut |s| {
            if res.is_err() {
                return;
            }
            res = check_stmt(scopes, d, ti, tname, loc_spaces, s);
        });
        res
    }

    fn emit(&mut self, ind: usize, text: &str) {
        for _ in 0..ind {
            self.lines.push_str("  ");
        }
        if !self.labels.is_empty() {
            for l in std::mem::take(&mut self.labels) {
                self.lines.push_str(&l);
                self.lines.push_str(": ");
            }
        }
        self.lines.push_str(text);
        self.lines.push('\n');
    }

    fn decl_text(&self, r: Reg) -> String {
        let ty = self.t.regs.get(r.index()).and_then(|d| d.ty);
        format!("{} {};", type_name(ty, false, self.d), self.name(r))
    }

    /// Emits the declarations a line needs; says whether `def` is declared on the line.
    fn decls_before(&mut self, refs: &[Reg], def: Option<Reg>, ind: usize) -> bool {
        let max = refs
            .iter()
            .chain(def.iter())
            .filter_map(|r| self.decl_pos.get(r.index()).copied().flatten())
            .filter(|k| *k >= self.next_decl)
            .max();
        let Some(m) = max else { return false };
        for k in self.next_decl..m {
            let text = self.decl_text(self.decl_list[k]);
            self.emit(ind, &text);
        }
        let last = self.decl_list[m];
        self.next_decl = m + 1;
        if Some(last) == def {
            true
        } else {
            let text = self.decl_text(last);
            self.emit(ind, &text);
            false
        }
    }

    fn print(mut self, out: &mut String) -> P<()> {
        let t = self.t;
        let mut head = format!("P{}", self.ti);
        if self.d == Dialect::OpenCl && !t.placement.levels.is_empty() {
            let lv: Vec<String> = t
                .placement
                .levels
                .iter()
                .map(|(s, id)| {
                    let n = LEVELS.iter().find(|(_, x)| x == s).map_or("?", |(n, _)| *n);
                    format!("{n} {id}")
                })
                .collect();
            head.push('@');
            head.push_str(&lv.join(", "));
        }
        let ps: Vec<String> = self
            .params
            .iter()
            .map(|prm| {
                let mut s = String::new();
                if prm.volatile {
                    s.push_str("volatile ");
                }
                if self.d == Dialect::OpenCl {
                    match prm.space {
                        Some(MemSpace::Shared) => s.push_str("local "),
                        Some(_) => s.push_str("global "),
                        None => {}
                    }
                }
                s.push_str(&base_spelling(&prm.base, prm.atomic, self.d));
                s.push_str("* ");
                s.push_str(&prm.name);
                s
            })
            .collect();
        let _ = writeln!(out, "{head} ({}) {{", ps.join(", "));
        for (i, r) in t.regs.iter().enumerate() {
            if r.init.is_some() && r.ty.is_some() && !self.foldable[i] {
                let text = self.decl_text(Reg(i as u32));
                self.emit(1, &text);
            }
        }
        self.block(&t.code, 1)?;
        for k in self.next_decl..self.decl_list.len() {
            let text = self.decl_text(self.decl_list[k]);
            self.emit(1, &text);
        }
        out.push_str(&self.lines);
        out.push_str("}\n");
        Ok(())
    }

    fn is_discarded(&self, r: Reg) -> bool {
        self.discarded.get(r.index()).copied().unwrap_or(false)
    }

    fn is_fold_def(&self, s: &Stmt) -> bool {
        s.guard.is_none()
            && def_of(s).is_some_and(|r| self.foldable.get(r.index()).copied().unwrap_or(false))
    }

    fn block(&mut self, stmts: &[Stmt], ind: usize) -> P<()> {
        let mut i = 0;
        while i < stmts.len() {
            let start = i;
            while i < stmts.len() && self.is_fold_def(&stmts[i]) {
                i += 1;
            }
            if i == stmts.len() {
                for s in &stmts[start..i] {
                    self.single(s, &mut Subst::none(), ind)?;
                }
                break;
            }
            let defs = &stmts[start..i];
            let main = &stmts[i];
            i += 1;
            self.group(defs, main, ind)?;
        }
        if !self.labels.is_empty() {
            self.emit(ind, ";");
        }
        Ok(())
    }

    fn group(&mut self, defs: &[Stmt], main: &Stmt, ind: usize) -> P<()> {
        if !defs.is_empty() && main.guard.is_none() {
            let mut sub = Subst::new(defs);
            // Dry run: does folding consume exactly these temporaries, in order?
            let saved = (self.next_decl, self.labels.clone(), self.lines.len());
            let ok = self.head_text(main, &mut sub).is_ok() && sub.complete();
            (self.next_decl, self.labels) = (saved.0, saved.1);
            self.lines.truncate(saved.2);
            if ok {
                let mut refs = Vec::new();
                for s in defs {
                    head_regs(s, &mut refs);
                }
                let mut sub = Subst::new(defs);
                return self.single_with(main, &mut sub, &refs, ind);
            }
        }
        for s in defs {
            self.single(s, &mut Subst::none(), ind)?;
        }
        self.single(main, &mut Subst::none(), ind)
    }

    fn single(&mut self, s: &Stmt, sub: &mut Subst, ind: usize) -> P<()> {
        self.single_with(s, sub, &[], ind)
    }

    /// Prints one statement (with `extra` registers mentioned by folded accesses).
    fn single_with(&mut self, s: &Stmt, sub: &mut Subst, extra: &[Reg], ind: usize) -> P<()> {
        if let StmtKind::Label(l) = &s.kind {
            if s.guard.is_none() {
                self.labels.push(l.clone());
                return Ok(());
            }
        }
        let mut refs = extra.to_vec();
        head_regs(s, &mut refs);
        let def = match &s.kind {
            StmtKind::Load(l) => Some(l.dst),
            StmtKind::Rmw(r) => r.dst,
            StmtKind::Assign { dst, .. } => Some(*dst),
            _ => None,
        };
        let def = def.filter(|r| !self.is_discarded(*r));
        let mut typed = self.decls_before(&refs, def, ind);
        // A foldable temporary printed on its own line is declared there.
        if let Some(r) = def {
            if self.foldable.get(r.index()).copied().unwrap_or(false) {
                typed = true;
            }
        }
        let mut ind = ind;
        if let Some(g) = s.guard {
            let neg = if g.negated { "!" } else { "" };
            let text = format!("if ({neg}{}) {{", self.name(g.reg));
            self.emit(ind, &text);
            ind += 1;
        }
        let head = self.head_text(s, sub)?;
        let prefix = match (typed, def) {
            (true, Some(r)) => {
                let ty = self.t.regs.get(r.index()).and_then(|d| d.ty);
                format!("{} ", type_name(ty, false, self.d))
            }
            _ => String::new(),
        };
        match &s.kind {
            StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                self.emit(ind, &format!("if ({head}) {{"));
                self.block(then_branch, ind + 1)?;
                if else_branch.is_empty() {
                    self.emit(ind, "}");
                } else {
                    self.emit(ind, "} else {");
                    self.block(else_branch, ind + 1)?;
                    self.emit(ind, "}");
                }
            }
            StmtKind::While { body, .. } => {
                if body.is_empty() {
                    self.emit(ind, &format!("while ({head}) {{}}"));
                } else {
                    self.emit(ind, &format!("while ({head}) {{"));
                    self.block(body, ind + 1)?;
                    self.emit(ind, "}");
                }
            }
            // A discarded access unsequenced with the discarded access printed just
            // before: both were operands of one expression statement (`*x + *y;`).
            StmtKind::Load(l)
                if s.guard.is_none()
                    && self.labels.is_empty()
                    && self.is_discarded(l.dst)
                    && s.unseq.is_some()
                    && self.lines.ends_with(";\n") =>
            {
                self.lines.truncate(self.lines.len() - 2);
                self.lines.push_str(" + ");
                self.lines.push_str(&head);
                self.lines.push('\n');
            }
            _ => self.emit(ind, &format!("{prefix}{head}")),
        }
        if s.guard.is_some() {
            self.emit(ind - 1, "}");
        }
        Ok(())
    }

    /// The text of a statement's own line (for `if`/`while`: the condition).
    fn head_text(&self, s: &Stmt, sub: &mut Subst) -> P<String> {
        Ok(match &s.kind {
            StmtKind::Load(l) if self.is_discarded(l.dst) => format!("{};", self.access(s, sub)?.0),
            StmtKind::Load(l) => format!("{} = {};", self.name(l.dst), self.access(s, sub)?.0),
            StmtKind::Rmw(r) => match r.dst {
                Some(dst) => format!("{} = {};", self.name(dst), self.access(s, sub)?.0),
                None => format!("{};", self.access(s, sub)?.0),
            },
            StmtKind::Store(st) => {
                let (a, ap) = self.ex(&st.addr, sub)?;
                if st.attrs.order == Order::Plain {
                    let a = if ap < P_UNARY { format!("({a})") } else { a };
                    let (v, _) = self.ex(&st.value, sub)?;
                    format!("*{a} = {v};")
                } else {
                    let (v, _) = self.ex(&st.value, sub)?;
                    let scope = self.scope_arg(&st.attrs)?;
                    if st.attrs.order == Order::SeqCst && scope.is_none() {
                        format!("atomic_store({a}, {v});")
                    } else {
                        format!(
                            "atomic_store_explicit({a}, {v}, {}{});",
                            order_name(st.attrs.order),
                            scope.map(|s| format!(", {s}")).unwrap_or_default()
                        )
                    }
                }
            }
            StmtKind::Assign { dst, value } => {
                format!("{} = {};", self.name(*dst), self.ex(value, sub)?.0)
            }
            StmtKind::Fence(f) => self.fence_text(f)?,
            StmtKind::Barrier(b) => {
                let flags = if b.spaces.is_empty() {
                    flags_text(&self.shared.default_spaces)?
                } else {
                    flags_text(&b.spaces)?
                };
                let (name, level) = match b.scope {
                    Scope::Warp => ("sub_group_barrier", Scope::Warp),
                    _ => ("work_group_barrier", Scope::Cta),
                };
                match b.attrs.scope {
                    None if b.scope == Scope::Cta => format!("barrier({flags});"),
                    None => format!("{name}({flags});"),
                    Some(s) if s == level => format!("{name}({flags});"),
                    Some(s) => format!("{name}({flags}, {});", scope_name(s)?),
                }
            }
            StmtKind::If { cond, .. } => self.ex(cond, sub)?.0,
            StmtKind::While { prelude, cond, .. } => {
                let mut pre = Subst::new(prelude);
                let all_defs = prelude.iter().all(|x| self.is_fold_def(x));
                let c = self.ex(cond, &mut pre)?.0;
                if !all_defs || !pre.complete() {
                    return err(format!(
                        "{}: a loop condition that runs statements other than its own memory accesses cannot be written in C",
                        self.t.name
                    ));
                }
                c
            }
            StmtKind::Label(l) => format!("{l}: ;"),
            StmtKind::Jump { .. } | StmtKind::Assume(_) | StmtKind::Assert(_) => {
                return err("unexpected statement (checked earlier)")
            }
        })
    }

    fn fence_text(&self, f: &weft_ir::Fence) -> P<String> {
        let defaults = &self.shared.default_spaces;
        let flags = || -> P<String> {
            if f.spaces.is_empty() {
                flags_text(defaults)
            } else {
                flags_text(&f.spaces)
            }
        };
        Ok(match (f.kind, self.d) {
            (FenceKind::Fence, Dialect::C) => {
                format!("atomic_thread_fence({});", order_name(f.attrs.order))
            }
            (FenceKind::Membar, Dialect::C) => {
                "atomic_thread_fence(memory_order_seq_cst);".to_string()
            }
            (FenceKind::Fence, Dialect::OpenCl) => {
                if f.spaces.is_empty() && f.attrs.scope.is_none() {
                    format!("atomic_thread_fence({});", order_name(f.attrs.order))
                } else {
                    format!(
                        "atomic_work_item_fence({}, {}, {});",
                        flags()?,
                        order_name(f.attrs.order),
                        scope_name(f.attrs.scope.unwrap_or(Scope::System))?
                    )
                }
            }
            (FenceKind::Membar, Dialect::OpenCl) => match f.attrs.scope {
                None => format!("mem_fence({});", flags()?),
                Some(s) => format!(
                    "atomic_work_item_fence({}, memory_order_seq_cst, {});",
                    flags()?,
                    scope_name(s)?
                ),
            },
            _ => return err("unexpected fence (checked earlier)"),
        })
    }

    /// The scope argument to print, if any.
    fn scope_arg(&self, a: &MemAttrs) -> P<Option<&'static str>> {
        match (self.d, a.scope) {
            (Dialect::C, _) | (Dialect::OpenCl, None | Some(Scope::Gpu)) => Ok(None),
            (Dialect::OpenCl, Some(s)) => Ok(Some(scope_name(s)?)),
        }
    }

    /// The expression form of a load or read-modify-write, with its precedence.
    fn access(&self, s: &Stmt, sub: &mut Subst) -> P<(String, u8)> {
        match &s.kind {
            StmtKind::Load(l) => {
                let (a, ap) = self.ex(&l.addr, sub)?;
                if l.attrs.order == Order::Plain {
                    let a = if ap < P_UNARY { format!("({a})") } else { a };
                    return Ok((format!("*{a}"), P_UNARY));
                }
                let scope = self.scope_arg(&l.attrs)?;
                if l.attrs.order == Order::SeqCst && scope.is_none() {
                    return Ok((format!("atomic_load({a})"), P_PRIMARY));
                }
                Ok((
                    format!(
                        "atomic_load_explicit({a}, {}{})",
                        order_name(l.attrs.order),
                        scope.map(|s| format!(", {s}")).unwrap_or_default()
                    ),
                    P_PRIMARY,
                ))
            }
            StmtKind::Rmw(r) => {
                let (a, _) = self.ex(&r.addr, sub)?;
                let scope = self.scope_arg(&r.attrs)?;
                let sc = scope.map(|s| format!(", {s}")).unwrap_or_default();
                let order = order_name(r.attrs.order);
                let text = match r.op {
                    RmwOp::CompareExchange { weak } => {
                        let name = if weak {
                            "atomic_compare_exchange_weak"
                        } else {
                            "atomic_compare_exchange_strong"
                        };
                        let (e, _) = self.ex(r.args.first().unwrap_or(&Expr::Int(0)), sub)?;
                        let (v, _) = self.ex(r.args.get(1).unwrap_or(&Expr::Int(0)), sub)?;
                        if r.attrs.order == Order::SeqCst
                            && r.fail_order.is_none()
                            && scope.is_none()
                        {
                            format!("{name}({a}, {e}, {v})")
                        } else {
                            let fail = order_name(r.fail_order.unwrap_or(r.attrs.order));
                            format!("{name}_explicit({a}, {e}, {v}, {order}, {fail}{sc})")
                        }
                    }
                    op => {
                        let name = rmw_name(op).ok_or_else(|| {
                            PrintError::new(format!("`atom.{}` has no C11 equivalent", op.name()))
                        })?;
                        let (v, _) = self.ex(r.args.first().unwrap_or(&Expr::Int(0)), sub)?;
                        if r.attrs.order == Order::SeqCst && scope.is_none() {
                            format!("{name}({a}, {v})")
                        } else {
                            format!("{name}_explicit({a}, {v}, {order}{sc})")
                        }
                    }
                };
                Ok((text, P_PRIMARY))
            }
            _ => err("expected a memory access"),
        }
    }

    fn ex(&self, e: &Expr, sub: &mut Subst) -> P<(String, u8)> {
        Ok(match e {
            Expr::Int(n) => (int_text(*n)?, if *n < 0 { P_UNARY } else { P_PRIMARY }),
            Expr::Reg(r) => {
                if let Some(def) = sub.take(*r) {
                    let res = self.access(def, sub)?;
                    sub.consumed.push(*r);
                    res
                } else {
                    (self.name(*r).to_string(), P_PRIMARY)
                }
            }
            Expr::Addr(l) => (loc_name(self.p, *l)?.to_string(), P_PRIMARY),
            Expr::Un(op, a) => {
                let (t, pr) = self.ex(a, sub)?;
                let sym = match op {
                    UnOp::Neg => "-",
                    UnOp::Not => "~",
                    UnOp::LNot => "!",
                };
                let t = if pr < P_UNARY { format!("({t})") } else { t };
                let sep = if *op == UnOp::Neg && t.starts_with('-') {
                    " "
                } else {
                    ""
                };
                (format!("{sym}{sep}{t}"), P_UNARY)
            }
            Expr::Bin(op, a, b) => {
                let pr = op.c_precedence();
                let (l, lp) = self.ex(a, sub)?;
                let (r, rp) = self.ex(b, sub)?;
                let l = if lp < pr { format!("({l})") } else { l };
                let r = if rp <= pr { format!("({r})") } else { r };
                (format!("{l} {} {r}", op.c_symbol()), pr)
            }
        })
    }
}

// ---- final condition ----

struct Cond<'p> {
    p: &'p Program,
}

impl<'p> Cond<'p> {
    fn term(&self, t: &Term) -> P<String> {
        let p = self.p;
        Ok(match t {
            Term::Reg { thread, reg } => {
                let th = p.threads.get(*thread).ok_or_else(|| {
                    PrintError::new(format!("condition names unknown thread {thread}"))
                })?;
                let r = th.regs.get(reg.index()).ok_or_else(|| {
                    PrintError::new(format!(
                        "condition names an unknown register of {}",
                        th.name
                    ))
                })?;
                format!("{thread}:{}", r.name)
            }
            Term::Mem { loc, index } => {
                let l = p
                    .locations
                    .get(loc.index())
                    .ok_or_else(|| PrintError::new("condition names an unknown location"))?;
                if l.size == 1 && *index == 0 {
                    l.name.clone()
                } else {
                    format!("{}[{index}]", l.name)
                }
            }
            Term::Int(n) => int_text(*n)?,
            Term::Addr(l) => format!("&{}", loc_name(p, *l)?),
        })
    }

    /// `ctx`: 0 top, 1 left of `\/`, 2 right of `\/` or left of `/\`, 3 right of `/\` or under `~`.
    fn prop(&self, p: &Prop, ctx: u8) -> P<String> {
        let (text, prec) = match p {
            Prop::True => ("true".to_string(), 3),
            Prop::False => ("false".to_string(), 3),
            Prop::Cmp(a, op, b) => {
                let sym = if *op == CmpOp::Eq { "=" } else { op.symbol() };
                (format!("{}{sym}{}", self.term(a)?, self.term(b)?), 3)
            }
            Prop::Not(a) => (format!("~{}", self.prop(a, 3)?), 3),
            Prop::And(a, b) => (format!("{} /\\ {}", self.prop(a, 2)?, self.prop(b, 3)?), 2),
            Prop::Or(a, b) => (format!("{} \\/ {}", self.prop(a, 1)?, self.prop(b, 2)?), 1),
        };
        Ok(if prec < ctx {
            format!("({text})")
        } else {
            text
        })
    }
}
