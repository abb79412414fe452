//! Structural comparison of two litmus tests up to register naming and the order of
//! locations and parameters: what "the same test" means when weft's generated tests are
//! checked against diy7's (issue acceptance: threads and condition equal up to registers).

use std::collections::HashMap;

use weft_ir::{Expr, Program, Prop, Stmt, StmtKind, Term};

/// A canonical text of a program: threads (statements with locations by name and
/// registers renamed in order of definition) and the condition's atoms, sorted.
pub fn signature(p: &Program) -> String {
    let mut out = String::new();
    let mut maps: Vec<HashMap<u32, usize>> = Vec::new();
    for t in &p.threads {
        let mut map = HashMap::new();
        // Registers holding constants (initial addresses, `mov r, 1`) stand for them.
        let mut consts: HashMap<u32, String> = HashMap::new();
        for (i, r) in t.regs.iter().enumerate() {
            match r.init {
                Some(weft_ir::Value::Int(v)) => {
                    consts.insert(i as u32, v.to_string());
                }
                Some(weft_ir::Value::Addr(l)) => {
                    consts.insert(i as u32, format!("&{}", p.loc(l).name));
                }
                None => {}
            }
        }
        out.push_str("thread\n");
        let mut cx = Cx {
            map: &mut map,
            consts: &mut consts,
        };
        stmts(p, &t.code, &mut cx, &mut out, 1);
        maps.push(map);
    }
    // Scope tree: which pairs of threads share a warp, a CTA, a GPU.
    for a in 0..p.threads.len() {
        for b in a + 1..p.threads.len() {
            let (pa, pb) = (&p.threads[a].placement, &p.threads[b].placement);
            if !pa.levels.is_empty() || !pb.levels.is_empty() {
                let share: Vec<bool> = [
                    weft_ir::Scope::Warp,
                    weft_ir::Scope::Cta,
                    weft_ir::Scope::Gpu,
                ]
                .iter()
                .map(|s| pa.same_instance(pb, *s))
                .collect();
                out.push_str(&format!("share {a} {b} {share:?}\n"));
            }
        }
    }
    // Memory map.
    let mut spaces: Vec<String> = p
        .locations
        .iter()
        .map(|l| format!("{}: {}", l.name, l.space.name()))
        .collect();
    spaces.sort();
    for s in spaces {
        out.push_str(&s);
        out.push('\n');
    }
    let mut atoms = Vec::new();
    if let Some(c) = &p.condition {
        out.push_str(c.quantifier.keyword());
        out.push('\n');
        conj(p, &c.prop, &maps, &mut atoms);
    }
    atoms.sort();
    for a in atoms {
        out.push_str(&a);
        out.push('\n');
    }
    out
}

/// `Ok` when the two programs are the same test, otherwise the first differing line.
pub fn same_test(a: &Program, b: &Program) -> Result<(), String> {
    let (sa, sb) = (signature(a), signature(b));
    if sa == sb {
        return Ok(());
    }
    for (x, y) in sa.lines().zip(sb.lines()) {
        if x != y {
            return Err(format!(
                "`{x}` differs from `{y}`\n--- left\n{sa}--- right\n{sb}"
            ));
        }
    }
    Err(format!("lengths differ\n--- left\n{sa}--- right\n{sb}"))
}

fn attrs(a: &weft_ir::MemAttrs) -> String {
    format!(
        "{:?} {:?} {:?} vol={}",
        a.order, a.scope, a.cache, a.volatile
    )
}

fn reg(map: &mut HashMap<u32, usize>, r: u32) -> String {
    let n = map.len();
    format!("r{}", map.entry(r).or_insert(n))
}

/// Renaming of registers and the constants some of them hold.
struct Cx<'a> {
    map: &'a mut HashMap<u32, usize>,
    consts: &'a mut HashMap<u32, String>,
}

fn expr(p: &Program, e: &Expr, cx: &mut Cx) -> String {
    match e {
        Expr::Int(i) => i.to_string(),
        Expr::Reg(r) => match cx.consts.get(&r.0) {
            Some(c) => c.clone(),
            None => reg(cx.map, r.0),
        },
        Expr::Addr(l) => format!("&{}", p.loc(*l).name),
        Expr::Un(op, a) => format!("{op:?}({})", expr(p, a, cx)),
        Expr::Bin(op, a, b) => format!("({} {op:?} {})", expr(p, a, cx), expr(p, b, cx)),
    }
}

fn stmts(p: &Program, code: &[Stmt], cx: &mut Cx, out: &mut String, d: usize) {
    for s in code {
        if let (StmtKind::Assign { dst, value }, None) = (&s.kind, s.guard) {
            let constant = match value {
                Expr::Int(_) | Expr::Addr(_) => true,
                Expr::Reg(r) => cx.consts.contains_key(&r.0),
                _ => false,
            };
            if constant {
                let v = expr(p, value, cx);
                cx.consts.insert(dst.0, v);
                continue;
            }
        }
        if let Some(r) = s.kind.def() {
            cx.consts.remove(&r.0);
        }
        out.push_str(&"  ".repeat(d));
        if let Some(g) = s.guard {
            out.push_str(&format!(
                "@{}{} ",
                if g.negated { "!" } else { "" },
                reg(cx.map, g.reg.0)
            ));
        }
        match &s.kind {
            StmtKind::Load(l) => {
                let a = expr(p, &l.addr, cx);
                let r = reg(cx.map, l.dst.0);
                out.push_str(&format!("{r} = load {a} {}\n", attrs(&l.attrs)));
            }
            StmtKind::Store(st) => {
                let a = expr(p, &st.addr, cx);
                let v = expr(p, &st.value, cx);
                out.push_str(&format!("store {a} {v} {}\n", attrs(&st.attrs)));
            }
            StmtKind::Fence(f) => {
                out.push_str(&format!("fence {:?} {}\n", f.kind, attrs(&f.attrs)))
            }
            StmtKind::Assign { dst, value } => {
                let v = expr(p, value, cx);
                let r = reg(cx.map, dst.0);
                out.push_str(&format!("{r} = {v}\n"));
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let c = expr(p, cond, cx);
                out.push_str(&format!("if {c}\n"));
                stmts(p, then_branch, cx, out, d + 1);
                if !else_branch.is_empty() {
                    out.push_str(&"  ".repeat(d));
                    out.push_str("else\n");
                    stmts(p, else_branch, cx, out, d + 1);
                }
            }
            other => out.push_str(&format!("{other:?}\n")),
        }
    }
}

fn term(p: &Program, t: &Term, maps: &[HashMap<u32, usize>]) -> String {
    match t {
        Term::Reg { thread, reg } => {
            let r = maps
                .get(*thread)
                .and_then(|m| m.get(&reg.0))
                .map(|i| format!("r{i}"))
                .unwrap_or_else(|| format!("?{}", reg.0));
            format!("{thread}:{r}")
        }
        Term::Mem { loc, index } => format!("[{}+{index}]", p.loc(*loc).name),
        Term::Int(i) => i.to_string(),
        Term::Addr(l) => format!("&{}", p.loc(*l).name),
    }
}

fn conj(p: &Program, prop: &Prop, maps: &[HashMap<u32, usize>], out: &mut Vec<String>) {
    match prop {
        Prop::And(a, b) => {
            conj(p, a, maps, out);
            conj(p, b, maps, out);
        }
        Prop::Cmp(a, op, b) => out.push(format!(
            "{} {} {}",
            term(p, a, maps),
            op.symbol(),
            term(p, b, maps)
        )),
        other => out.push(format!("{other:?}")),
    }
}
