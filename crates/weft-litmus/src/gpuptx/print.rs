//! GPU_PTX printing: the canonical form of a program (declarations, columns, scope tree,
//! memory map, condition), refusing with a reason what the format cannot express.

use std::collections::HashSet;

use super::lower::Access;
use super::{cache_ptx, level_name, scope_ptx, space_name, RESERVED};
use crate::diag::quote;
use crate::PrintError;
use weft_ir::{
    Barrier, BarrierKind, BinOp, CacheOp, CmpOp, DataType, Expr, Fence, FenceKind, Location,
    MemAttrs, Order, Program, Prop, Proxy, Reg, Rmw, RmwOp, Scope, Stmt, StmtKind, Term, Thread,
    UnOp, Value,
};
use weft_ptx::ast::Sem;

fn refuse<T>(msg: impl Into<String>) -> Result<T, PrintError> {
    let msg = msg.into();
    // "a acquire load" reads badly: pick the article from the word that follows it.
    let msg = match msg.strip_prefix("a ") {
        Some(rest) if rest.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {rest}"),
        _ => msg,
    };
    Err(PrintError::new(format!("GPU_PTX cannot express {msg}")))
}

/// Whether `s` prints as one identifier token that the parser reads back as a name.
fn printable_name(s: &str) -> bool {
    let mut chars = s.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '%' || c == '$');
    first_ok
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        && !RESERVED.contains(&s)
}

fn check_print_name(s: &str, what: &str) -> Result<(), PrintError> {
    if printable_name(s) {
        Ok(())
    } else {
        refuse(format!("the {what} name {}", quote(s)))
    }
}

pub(super) fn int(v: i64) -> Result<String, PrintError> {
    if v == i64::MIN {
        return refuse(format!("the integer {v}"));
    }
    Ok(v.to_string())
}

/// Writes a program in the canonical GPU_PTX form.
pub fn print(p: &Program) -> Result<String, PrintError> {
    if p.name.chars().any(char::is_control) || p.name.trim() != p.name {
        return refuse(format!("the test name {}", quote(&p.name)));
    }
    if !p.relations.is_empty() {
        return refuse("relations between threads");
    }
    if p.threads.is_empty() {
        return refuse("a test without threads");
    }
    let mut loc_names = HashSet::new();
    for l in &p.locations {
        check_print_name(&l.name, "location")?;
        loc_names.insert(l.name.as_str());
        if l.size != 1 {
            return refuse(format!("the array `{}`", l.name));
        }
        if l.alias.is_some() {
            return refuse(format!("the alias `{}`", l.name));
        }
        match l.init {
            Value::Int(v) => {
                int(v)?;
            }
            Value::Addr(_) => {
                return refuse(format!("a location (`{}`) holding an address", l.name))
            }
        }
        if space_name(l.space).is_none() {
            return refuse(format!("the {} location `{}`", l.space.name(), l.name));
        }
    }
    let mut out = String::new();
    out.push_str("GPU_PTX");
    if !p.name.is_empty() {
        out.push(' ');
        out.push_str(&p.name);
    }
    out.push('\n');
    for d in &p.doc {
        if d.contains('"') {
            return refuse("a doc string containing `\"`");
        }
        out.push_str(&format!("\"{d}\"\n"));
    }
    out.push_str(&crate::cond::print_meta(&p.meta)?);

    // Columns first: they validate registers and tell which need declaring.
    let mut columns: Vec<Vec<String>> = Vec::new();
    let mut implicit_from: Vec<usize> = Vec::new();
    for t in &p.threads {
        check_print_name(&t.name, "thread")?;
        for r in &t.regs {
            check_print_name(&r.name, "register")?;
            if loc_names.contains(r.name.as_str()) {
                return refuse(format!(
                    "register `{}` of {}, which has the name of a location",
                    r.name, t.name
                ));
            }
            if let Some(Value::Int(v)) = r.init {
                int(v)?;
            }
        }
        let mut cells = Vec::new();
        for s in &t.code {
            cells.push(print_stmt(p, t, s)?);
        }
        columns.push(cells);
        implicit_from.push(implicit_start(t));
    }

    // Which locations need an init entry so that the parser rebuilds their order.
    let explicit_locs = explicit_locations(p, &implicit_from);

    out.push_str("{\n");
    for l in p.locations.iter().take(explicit_locs) {
        if let Value::Int(v) = l.init {
            out.push_str(&format!("{}={};\n", l.name, int(v)?));
        }
    }
    for (ti, t) in p.threads.iter().enumerate() {
        for r in &t.regs[..implicit_from[ti]] {
            out.push_str(&format!("{ti}:.reg"));
            if let Some(ty) = r.ty {
                out.push_str(&format!(" .{}", ty.ptx_name()));
            }
            out.push_str(&format!(" {}", r.name));
            match r.init {
                Some(Value::Int(v)) => out.push_str(&format!(" = {}", int(v)?)),
                Some(Value::Addr(l)) => out.push_str(&format!(" = {}", p.loc(l).name)),
                // `0:.reg r5;` declares an untyped register (a weft extension).
                None => {}
            }
            out.push_str(";\n");
        }
    }
    out.push_str("}\n");

    // The program, in aligned columns.
    let header: Vec<String> = p.threads.iter().map(|t| t.name.clone()).collect();
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    let mut table: Vec<Vec<String>> = vec![header];
    for i in 0..rows {
        table.push(
            columns
                .iter()
                .map(|c| c.get(i).cloned().unwrap_or_default())
                .collect(),
        );
    }
    let widths: Vec<usize> = (0..p.threads.len())
        .map(|j| {
            table
                .iter()
                .map(|r| r[j].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in &table {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}", w = *w))
            .collect();
        out.push(' ');
        out.push_str(&cells.join(" | "));
        out.push_str(" ;\n");
    }

    if let Some(tree) = print_scope_tree(p)? {
        out.push_str(&tree);
        out.push('\n');
    }
    if !p.locations.is_empty() {
        let entries: Vec<String> = p
            .locations
            .iter()
            .map(|l| format!("{}: {}", l.name, space_name(l.space).unwrap_or("global")))
            .collect();
        out.push_str(&entries.join(", "));
        out.push('\n');
    }
    if !p.observed.is_empty() {
        let terms: Result<Vec<String>, PrintError> =
            p.observed.iter().map(|t| print_term(p, t, true)).collect();
        out.push_str(&format!("locations [{};]\n", terms?.join("; ")));
    }
    if let Some(f) = &p.filter {
        out.push_str(&format!("filter ({})\n", print_prop(p, f, 0)?));
    }
    if let Some(c) = &p.condition {
        out.push_str(c.quantifier.keyword());
        out.push_str(" (");
        out.push_str(&print_prop(p, &c.prop, 0)?);
        out.push_str(")\n");
    }
    Ok(out)
}

/// How many locations need an explicit `x=v;` entry (a prefix of the location list), so
/// that the parser, which orders locations by their first mention in the init block and
/// then by the memory map, rebuilds the same list.
fn explicit_locations(p: &Program, implicit_from: &[usize]) -> usize {
    let n = p.locations.len();
    let needs = |l: &Location| !matches!(l.init, Value::Int(0));
    let k = p
        .locations
        .iter()
        .rposition(needs)
        .map(|i| i + 1)
        .unwrap_or(0);
    // Order the parser would see for locations k..: register initialisers, then the map.
    let mut order: Vec<usize> = (0..k).collect();
    for (ti, t) in p.threads.iter().enumerate() {
        for r in &t.regs[..implicit_from[ti]] {
            if let Some(Value::Addr(l)) = r.init {
                if !order.contains(&l.index()) {
                    order.push(l.index());
                }
            }
        }
    }
    for i in 0..n {
        if !order.contains(&i) {
            order.push(i);
        }
    }
    if order == (0..n).collect::<Vec<_>>() {
        k
    } else {
        n
    }
}

/// The index from which a thread's registers can be left undeclared: they are untyped,
/// uninitialised, and first appear, in order, where an instruction writes them.
fn implicit_start(t: &Thread) -> usize {
    let mut occurrences: Vec<(Reg, bool)> = Vec::new();
    for s in &t.code {
        stmt_regs(s, &mut occurrences);
    }
    let n = t.regs.len();
    'k: for k in 0..=n {
        if t.regs[k..]
            .iter()
            .any(|r| r.ty.is_some() || r.init.is_some())
        {
            continue;
        }
        let mut declared = k;
        for (r, def) in &occurrences {
            let i = r.index();
            if i < declared {
                continue;
            }
            if *def && i == declared {
                declared += 1;
            } else {
                continue 'k;
            }
        }
        if declared == n {
            return k;
        }
    }
    n
}

/// Registers of a statement in the order its printed form mentions them, each with
/// whether that mention writes it (or guards it), which declares a new register.
fn stmt_regs(s: &Stmt, out: &mut Vec<(Reg, bool)>) {
    if let Some(g) = s.guard {
        out.push((g.reg, true));
    }
    let uses = |e: &Expr, out: &mut Vec<(Reg, bool)>| {
        let mut rs = Vec::new();
        e.regs(&mut rs);
        out.extend(rs.into_iter().map(|r| (r, false)));
    };
    match &s.kind {
        StmtKind::Load(l) => {
            out.push((l.dst, true));
            uses(&l.addr, out);
        }
        StmtKind::Store(st) => {
            uses(&st.addr, out);
            uses(&st.value, out);
        }
        StmtKind::Rmw(r) => {
            if let Some(d) = r.dst {
                out.push((d, true));
            }
            uses(&r.addr, out);
            for a in &r.args {
                uses(a, out);
            }
        }
        StmtKind::Assign { dst, value } => {
            out.push((*dst, true));
            uses(value, out);
        }
        StmtKind::Barrier(b) => {
            uses(&b.id, out);
            for o in &b.operands {
                uses(o, out);
            }
        }
        StmtKind::Jump { cond: Some(c), .. } => {
            // Printed as a guard: `@p bra L`.
            let mut rs = Vec::new();
            c.regs(&mut rs);
            out.extend(rs.into_iter().map(|r| (r, true)));
        }
        _ => {}
    }
}

fn operand(p: &Program, t: &Thread, e: &Expr) -> Result<String, PrintError> {
    match e {
        Expr::Int(v) => int(*v),
        Expr::Reg(r) => Ok(t.reg_name(*r).to_string()),
        Expr::Addr(l) => Ok(p.loc(*l).name.clone()),
        _ => refuse("a compound expression as an operand"),
    }
}

pub(super) fn address(p: &Program, t: &Thread, e: &Expr) -> Result<String, PrintError> {
    match e {
        Expr::Reg(_) | Expr::Addr(_) => Ok(format!("[{}]", operand(p, t, e)?)),
        _ => refuse("an address that is neither a location nor a register"),
    }
}

fn reg_type(t: &Thread, r: Reg) -> String {
    match t.regs.get(r.index()).and_then(|d| d.ty) {
        Some(ty) => format!(".{}", ty.ptx_name()),
        None => String::new(),
    }
}

/// The qualifiers of an access, in canonical order.
pub(super) fn access_quals(a: &MemAttrs, k: Access) -> Result<String, PrintError> {
    let what = match k {
        Access::Load => "load",
        Access::Store => "store",
        Access::Rmw => "read-modify-write",
    };
    if a.proxy != Proxy::Generic {
        return refuse(format!("a {what} through the {} proxy", a.proxy.name()));
    }
    if !a.vulkan.is_empty() {
        return refuse(format!("the Vulkan annotations of a {what}"));
    }
    let mut q = String::new();
    match a.order {
        Order::Plain => {
            if a.scope.is_some() {
                return refuse(format!("a scoped non-atomic {what}"));
            }
            if a.volatile {
                if k == Access::Rmw {
                    return refuse("a volatile read-modify-write");
                }
                q.push_str(Sem::Volatile.as_str());
            }
        }
        Order::Relaxed => {
            if a.volatile {
                return refuse(format!("a volatile relaxed {what}"));
            }
            let Some(s) = a.scope.and_then(scope_ptx) else {
                return refuse(format!(
                    "a relaxed {what} at {} scope",
                    a.scope.map(Scope::name).unwrap_or("no")
                ));
            };
            q.push_str(Sem::Relaxed.as_str());
            q.push('.');
            q.push_str(s);
            if a.cache.is_some() {
                return refuse(format!("a relaxed {what} with a cache operator"));
            }
        }
        o => {
            return refuse(format!(
                "a {} {what} (GPU_PTX has weak, volatile and relaxed accesses; use the PTX format)",
                o.name()
            ))
        }
    }
    if let Some(s) = a.space {
        if let Some(n) = space_name(s) {
            q.push('.');
            q.push_str(n);
        }
    }
    if let Some(c) = a.cache {
        let ok = match k {
            Access::Load => matches!(
                c,
                CacheOp::Ca | CacheOp::Cg | CacheOp::Cs | CacheOp::Lu | CacheOp::Cv
            ),
            Access::Store => matches!(c, CacheOp::Wb | CacheOp::Cg | CacheOp::Cs | CacheOp::Wt),
            Access::Rmw => false,
        };
        if !ok {
            return refuse(format!("the cache operator `.{}` on a {what}", c.name()));
        }
        q.push('.');
        q.push_str(cache_ptx(c));
    }
    Ok(q)
}

fn print_stmt(p: &Program, t: &Thread, s: &Stmt) -> Result<String, PrintError> {
    let mut g = String::new();
    if let Some(gd) = s.guard {
        g = format!(
            "@{}{} ",
            if gd.negated { "!" } else { "" },
            t.reg_name(gd.reg)
        );
    }
    let ty = |a: &MemAttrs| {
        a.ty.map(|t| format!(".{}", t.ptx_name()))
            .unwrap_or_default()
    };
    let body = match &s.kind {
        StmtKind::Label(l) => {
            if s.guard.is_some() {
                return refuse("a guarded label");
            }
            check_print_name(l, "label")?;
            return Ok(format!("{l}:"));
        }
        StmtKind::Jump { target, cond } => {
            check_print_name(target, "label")?;
            match cond {
                None => format!("bra {target}"),
                Some(c) => return conditional_jump(t, s, target, c),
            }
        }
        StmtKind::Load(l) => format!(
            "ld{}{} {},{}",
            access_quals(&l.attrs, Access::Load)?,
            ty(&l.attrs),
            t.reg_name(l.dst),
            address(p, t, &l.addr)?
        ),
        StmtKind::Store(st) => format!(
            "st{}{} {},{}",
            access_quals(&st.attrs, Access::Store)?,
            ty(&st.attrs),
            address(p, t, &st.addr)?,
            operand(p, t, &st.value)?
        ),
        StmtKind::Rmw(r) => rmw_text(p, t, r)?,
        StmtKind::Fence(f) => fence_text(f)?,
        StmtKind::Barrier(b) => barrier_text(p, t, b)?,
        StmtKind::Assign { dst, value } => assign_text(p, t, *dst, value)?,
        StmtKind::If { .. } | StmtKind::While { .. } => {
            return refuse("structured control flow (it would need labels and predicates)")
        }
        StmtKind::Assume(_) => return refuse("an assume"),
        StmtKind::Assert(_) => return refuse("an assert"),
    };
    Ok(format!("{g}{body}"))
}

/// A jump on condition `c` (a predicate register, its negation, or `r != 0`/`r == 0`).
fn conditional_jump(t: &Thread, s: &Stmt, target: &str, c: &Expr) -> Result<String, PrintError> {
    if s.guard.is_some() {
        return refuse("a guarded conditional jump");
    }
    let (r, neg) = match c {
        Expr::Reg(r) => (*r, false),
        Expr::Un(UnOp::LNot, a) => match &**a {
            Expr::Reg(r) => (*r, true),
            _ => return refuse("a jump on a compound condition (use setp)"),
        },
        Expr::Bin(op @ (BinOp::Ne | BinOp::Eq), a, b) => match (&**a, &**b) {
            (Expr::Reg(r), Expr::Int(0)) => (*r, *op == BinOp::Eq),
            _ => return refuse("a jump on a compound condition (use setp)"),
        },
        _ => return refuse("a jump on a compound condition (use setp)"),
    };
    Ok(format!(
        "@{}{} bra {target}",
        if neg { "!" } else { "" },
        t.reg_name(r)
    ))
}

/// An `atom` or `red` instruction.
fn rmw_text(p: &Program, t: &Thread, r: &Rmw) -> Result<String, PrintError> {
    let ty = |a: &MemAttrs| {
        a.ty.map(|t| format!(".{}", t.ptx_name()))
            .unwrap_or_default()
    };
    if let RmwOp::CompareExchange { .. } = r.op {
        return refuse("a C11 compare-exchange");
    }
    if r.fail_order.is_some() {
        return refuse("a separate failure order");
    }
    if r.args.len() != r.op.arity() {
        return refuse(format!(
            "`{}` with the wrong number of operands",
            r.op.name()
        ));
    }
    let mut text = match r.dst {
        Some(_) => "atom".to_string(),
        None => {
            if matches!(r.op, RmwOp::Exch | RmwOp::Cas) {
                return refuse(format!("`red.{}`", r.op.name()));
            }
            "red".to_string()
        }
    };
    text.push_str(&access_quals(&r.attrs, Access::Rmw)?);
    text.push('.');
    text.push_str(r.op.name());
    text.push_str(&ty(&r.attrs));
    text.push(' ');
    if let Some(d) = r.dst {
        text.push_str(t.reg_name(d));
        text.push(',');
    }
    text.push_str(&address(p, t, &r.addr)?);
    for a in &r.args {
        text.push(',');
        text.push_str(&operand(p, t, a)?);
    }
    Ok(text)
}

/// `membar` or `fence.sc`.
fn fence_text(f: &Fence) -> Result<String, PrintError> {
    if !f.spaces.is_empty() {
        return refuse("a fence restricted to memory spaces");
    }
    let scope = f.attrs.scope;
    if f.attrs != MemAttrs::scoped(Order::SeqCst, scope.unwrap_or(Scope::Gpu)) {
        return refuse(format!(
            "a {} fence{} (only membar and fence.sc)",
            f.attrs.order.name(),
            if scope.is_none() {
                " without a scope"
            } else {
                ""
            }
        ));
    }
    let scope = scope.unwrap_or(Scope::Gpu);
    Ok(match f.kind {
        FenceKind::Membar => match scope {
            Scope::Cta => "membar.cta".to_string(),
            Scope::Gpu => "membar.gl".to_string(),
            Scope::System => "membar.sys".to_string(),
            s => return refuse(format!("a membar at {} scope", s.name())),
        },
        FenceKind::Fence => match scope_ptx(scope) {
            Some(n) => format!("fence.sc.{n}"),
            None => return refuse(format!("a fence at {} scope", scope.name())),
        },
        _ => return refuse("a proxy or Vulkan fence"),
    })
}

/// `bar.sync` or `bar.arrive`.
fn barrier_text(p: &Program, t: &Thread, b: &Barrier) -> Result<String, PrintError> {
    if b.scope != Scope::Cta || b.attrs != MemAttrs::default() || !b.spaces.is_empty() {
        return refuse("a barrier other than a CTA `bar.sync`/`bar.arrive`");
    }
    let mut text = match b.kind {
        BarrierKind::Sync => "bar.sync ".to_string(),
        BarrierKind::Arrive => "bar.arrive ".to_string(),
        BarrierKind::Warp => return refuse("a warp barrier"),
    };
    text.push_str(&operand(p, t, &b.id)?);
    for o in &b.operands {
        text.push(',');
        text.push_str(&operand(p, t, o)?);
    }
    Ok(text)
}

/// A register assignment: `mov`, a unary or binary operation, or `setp`.
fn assign_text(p: &Program, t: &Thread, dst: Reg, value: &Expr) -> Result<String, PrintError> {
    let d = t.reg_name(dst);
    Ok(match value {
        Expr::Int(_) | Expr::Reg(_) | Expr::Addr(_) => {
            format!("mov{} {d},{}", reg_type(t, dst), operand(p, t, value)?)
        }
        Expr::Un(op, a) => {
            let m = match op {
                UnOp::Not => "not",
                UnOp::Neg => "neg",
                UnOp::LNot => return refuse("a logical not (use setp)"),
            };
            format!("{m}{} {d},{}", reg_type(t, dst), operand(p, t, a)?)
        }
        Expr::Bin(op, a, b) => {
            let (m, is_cmp) = match op {
                BinOp::Add => ("add", false),
                BinOp::Sub => ("sub", false),
                BinOp::Mul => ("mul.lo", false),
                BinOp::Div => ("div", false),
                BinOp::Rem => ("rem", false),
                BinOp::And => ("and", false),
                BinOp::Or => ("or", false),
                BinOp::Xor => ("xor", false),
                BinOp::Shl => ("shl", false),
                BinOp::Shr => ("shr", false),
                BinOp::Eq => ("setp.eq", true),
                BinOp::Ne => ("setp.ne", true),
                BinOp::Lt => ("setp.lt", true),
                BinOp::Le => ("setp.le", true),
                BinOp::Gt => ("setp.gt", true),
                BinOp::Ge => ("setp.ge", true),
                BinOp::LAnd | BinOp::LOr => return refuse("a logical and/or (use predicates)"),
            };
            let ty = if is_cmp {
                let mut rs = Vec::new();
                a.regs(&mut rs);
                b.regs(&mut rs);
                rs.into_iter()
                    .find_map(|r| {
                        t.regs
                            .get(r.index())
                            .and_then(|d| d.ty)
                            .filter(|ty| *ty != DataType::PRED)
                    })
                    .map(|ty| format!(".{}", ty.ptx_name()))
                    .unwrap_or_default()
            } else {
                reg_type(t, dst)
            };
            format!("{m}{ty} {d},{},{}", operand(p, t, a)?, operand(p, t, b)?)
        }
    })
}

/// `ScopeTree(...)` rebuilt from the placements, or `None` when no thread is placed.
fn print_scope_tree(p: &Program) -> Result<Option<String>, PrintError> {
    if p.threads.iter().all(|t| t.placement.levels.is_empty()) {
        return Ok(None);
    }
    #[derive(Default)]
    struct Node {
        threads: Vec<String>,
        children: Vec<((Scope, u32), Node)>,
    }
    let mut root = Node::default();
    for t in &p.threads {
        let levels = &t.placement.levels;
        if levels.is_empty() {
            return refuse(format!(
                "a scope tree that leaves out thread {} (every thread or none must be placed)",
                t.name
            ));
        }
        if levels.windows(2).any(|w| w[0].0 >= w[1].0) {
            return refuse(format!("the placement of {}", t.name));
        }
        let mut node = &mut root;
        for (s, id) in levels.iter().rev() {
            if level_name(*s).is_none() {
                return refuse(format!("a placement at {} level", s.name()));
            }
            let pos = match node.children.iter().position(|(k, _)| *k == (*s, *id)) {
                Some(i) => i,
                None => {
                    node.children.push(((*s, *id), Node::default()));
                    node.children.len() - 1
                }
            };
            node = &mut node.children[pos].1;
        }
        node.threads.push(t.name.clone());
    }
    fn render(level: Scope, n: &mut Node, out: &mut String) {
        out.push('(');
        out.push_str(level_name(level).unwrap_or("grid"));
        for th in &n.threads {
            out.push(' ');
            out.push_str(th);
        }
        n.children
            .sort_by(|a, b| b.0 .0.cmp(&a.0 .0).then(a.0 .1.cmp(&b.0 .1)));
        for (i, ((s, _), c)) in n.children.iter_mut().enumerate() {
            if i > 0 || !n.threads.is_empty() {
                out.push(' ');
            }
            render(*s, c, out);
        }
        out.push(')');
    }
    let mut out = String::from("ScopeTree");
    root.children
        .sort_by(|a, b| b.0 .0.cmp(&a.0 .0).then(a.0 .1.cmp(&b.0 .1)));
    for (i, ((s, _), c)) in root.children.iter_mut().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        render(*s, c, &mut out);
    }
    Ok(Some(out))
}

fn print_term(p: &Program, t: &Term, lhs: bool) -> Result<String, PrintError> {
    Ok(match t {
        Term::Reg { thread, reg } => {
            let th = p
                .threads
                .get(*thread)
                .ok_or_else(|| PrintError::new("condition names an unknown thread"))?;
            format!("{thread}:{}", th.reg_name(*reg))
        }
        Term::Mem { loc, index } => {
            if *index != 0 {
                return refuse("an array element in the condition");
            }
            let n = &p.loc(*loc).name;
            if lhs {
                n.clone()
            } else {
                format!("[{n}]")
            }
        }
        Term::Int(v) => int(*v)?,
        Term::Addr(l) => {
            let n = &p.loc(*l).name;
            if lhs {
                format!("&{n}")
            } else {
                n.clone()
            }
        }
    })
}

/// Precedence: 0 = `\/`, 1 = `/\`, 2 = `~` and atoms. Operators associate to the left.
fn print_prop(p: &Program, prop: &Prop, ctx: u8) -> Result<String, PrintError> {
    let (text, prec) = match prop {
        Prop::True => ("true".to_string(), 2),
        Prop::False => ("false".to_string(), 2),
        Prop::Cmp(a, op, b) => {
            let sym = match op {
                CmpOp::Eq => "=",
                o => o.symbol(),
            };
            (
                format!(
                    "{}{sym}{}",
                    print_term(p, a, true)?,
                    print_term(p, b, false)?
                ),
                2,
            )
        }
        Prop::Not(a) => (format!("~{}", print_prop(p, a, 2)?), 2),
        Prop::And(a, b) => (
            format!("{} /\\ {}", print_prop(p, a, 1)?, print_prop(p, b, 2)?),
            1,
        ),
        Prop::Or(a, b) => (
            format!("{} \\/ {}", print_prop(p, a, 0)?, print_prop(p, b, 1)?),
            0,
        ),
    };
    Ok(if prec < ctx {
        format!("({text})")
    } else {
        text
    })
}
