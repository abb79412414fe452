//! The emitter of the canonical text of a lowered program: header, doc strings, init block
//! (locations, then initialised registers), Vulkan's `ssw` block, the column program with
//! every `|` and `;` aligned, and the final part. It writes exactly what it is given and
//! refuses (with a [`PrintError`]) anything the dialect cannot spell, so that its output
//! always re-parses to the program it was given.

use weft_ir::{
    Barrier, BarrierKind, BinOp, CmpOp, Expr, Fence, FenceKind, MemAttrs, Order, Program, Prop,
    Proxy, Reg, Rmw, RmwOp, Stmt, StmtKind, Term, Thread, Value,
};

use super::parse::split_docs;
use super::syntax::{
    check_ptx, check_vulkan, is_label_name, is_location_name, is_register, ptx_order_name,
    thread_number, vk_order_name, Dialect, PtxOp, VkOp,
};
use crate::PrintError;

type PResult<T> = Result<T, PrintError>;

fn fail(msg: impl Into<String>) -> PrintError {
    PrintError::new(msg)
}

/// An integer as the lexer reads it back (`i64::MIN` has no such spelling).
fn int(n: i64) -> PResult<String> {
    if n == i64::MIN {
        return Err(fail("the constant -9223372036854775808 cannot be written"));
    }
    Ok(n.to_string())
}

/// Writes a lowered program in dialect `d`.
pub(crate) fn emit(p: &Program, d: Dialect) -> PResult<String> {
    let mut out = String::new();
    if p.name.is_empty()
        || p.name
            .contains(|c: char| c.is_whitespace() || c == '"' || c == '{')
    {
        return Err(fail(format!("test name `{}` cannot be written", p.name)));
    }
    out.push_str(&format!("{} {}\n", d.header(), p.name));
    let docs: Vec<String> = p.doc.iter().map(|d| format!("\"{d}\"\n")).collect();
    let joined = docs.concat();
    if p.doc.iter().any(|d| d.contains('{'))
        || split_docs(&joined).ok().as_deref() != Some(p.doc.as_slice())
    {
        return Err(fail("these doc strings cannot be written back as they are"));
    }
    out.push_str(&joined);
    let meta = crate::cond::print_meta(&p.meta)?;
    // Dat3M doc strings are raw text that may hold quotes: the metadata lines must still
    // read back as exactly these lines, and the doc strings as these strings.
    let head_len = out.len() - joined.len();
    let probe = format!("{out}{meta}{{");
    let (blanked, read_meta) = crate::cond::take_meta(&probe).unwrap_or((probe, Vec::new()));
    let docs_back = blanked
        .get(head_len..blanked.len() - 1)
        .and_then(|t| split_docs(t).ok());
    if read_meta != p.meta || docs_back.as_deref() != Some(p.doc.as_slice()) {
        return Err(fail(
            "these doc strings and metadata lines cannot be written back as they are",
        ));
    }
    out.push_str(&meta);

    // Init block.
    out.push_str("{\n");
    let loc_name = |id: weft_ir::LocId| -> PResult<&str> {
        p.locations
            .get(id.index())
            .map(|l| l.name.as_str())
            .ok_or_else(|| fail("unknown location"))
    };
    for l in &p.locations {
        if !is_location_name(&l.name) {
            return Err(fail(format!(
                "location name `{}` cannot be written",
                l.name
            )));
        }
        match &l.alias {
            Some(a) => match a.proxy {
                Some(px) => out.push_str(&format!(
                    "{} @ {} aliases {};\n",
                    l.name,
                    px.name(),
                    loc_name(a.of)?
                )),
                None => out.push_str(&format!("{} aliases {};\n", l.name, loc_name(a.of)?)),
            },
            None => out.push_str(&format!("{}={};\n", l.name, value(p, l.init)?)),
        }
    }
    for t in &p.threads {
        for r in &t.regs {
            if let Some(v) = r.init {
                out.push_str(&format!("{}:{}={};\n", t.name, r.name, value(p, v)?));
            }
        }
    }
    out.push_str("}\n");

    if !p.relations.is_empty() {
        if d == Dialect::Ptx {
            return Err(fail("PTX cannot express thread relations"));
        }
        out.push_str("{\n");
        for r in &p.relations {
            let num = |i: usize| {
                p.threads
                    .get(i)
                    .and_then(|t| thread_number(&t.name))
                    .ok_or_else(|| fail(format!("relation `{}` names an unknown thread", r.name)))
            };
            if r.name != "ssw" {
                return Err(fail(format!("relation `{}` cannot be written", r.name)));
            }
            out.push_str(&format!("ssw {} {};\n", num(r.from)?, num(r.to)?));
        }
        out.push_str("}\n");
    }

    // Column program.
    if p.threads.is_empty() {
        return Err(fail("a test without threads cannot be written"));
    }
    let mut columns: Vec<Vec<String>> = Vec::new();
    for t in &p.threads {
        if thread_number(&t.name).is_none() {
            return Err(fail(format!("thread name `{}` cannot be written", t.name)));
        }
        let mut col = vec![placement(d, t)?];
        for r in &t.regs {
            if !is_register(&r.name) {
                return Err(fail(format!(
                    "register name `{}` cannot be written",
                    r.name
                )));
            }
        }
        for s in &t.code {
            col.push(stmt(d, p, t, s)?);
        }
        columns.push(col);
    }
    let widths: Vec<usize> = columns
        .iter()
        .map(|c| c.iter().map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    for row in 0..rows {
        let cells: Vec<String> = columns
            .iter()
            .zip(&widths)
            .map(|(c, w)| {
                let s = c.get(row).map(String::as_str).unwrap_or("");
                format!("{s:<w$}")
            })
            .collect();
        out.push_str(&format!(" {} ;\n", cells.join(" | ")));
    }

    // Final part.
    if !p.observed.is_empty() {
        let terms: PResult<Vec<String>> = p.observed.iter().map(|t| term(p, t)).collect();
        out.push_str(&format!("locations [{};]\n", terms?.join("; ")));
    }
    if let Some(f) = &p.filter {
        out.push_str(&format!("filter ({})\n", prop(p, f, 1)?));
    }
    if let Some(c) = &p.condition {
        out.push_str(&format!(
            "{} ({})\n",
            c.quantifier.keyword(),
            prop(p, &c.prop, 1)?
        ));
    }
    Ok(out)
}

fn value(p: &Program, v: Value) -> PResult<String> {
    match v {
        Value::Int(n) => int(n),
        Value::Addr(l) => p
            .locations
            .get(l.index())
            .map(|l| format!("&{}", l.name))
            .ok_or_else(|| fail("unknown location")),
    }
}

fn placement(d: Dialect, t: &Thread) -> PResult<String> {
    if t.placement.levels.is_empty() {
        return Err(fail(format!("{} has no placement", t.name)));
    }
    let sep = if d == Dialect::Ptx { "," } else { ", " };
    let levels: PResult<Vec<String>> = t
        .placement
        .levels
        .iter()
        .map(|(s, id)| {
            d.scope_name(*s)
                .map(|n| format!("{n} {id}"))
                .ok_or_else(|| fail(format!("{} cannot name the {} level", d.header(), s.name())))
        })
        .collect();
    Ok(format!("{}@{}", t.name, levels?.join(sep)))
}

fn operand(t: &Thread, e: &Expr) -> PResult<String> {
    match e {
        Expr::Int(n) => int(*n),
        Expr::Reg(r) => t
            .regs
            .get(r.index())
            .map(|d| d.name.clone())
            .ok_or_else(|| fail(format!("unknown register in {}", t.name))),
        _ => Err(fail("only registers and constants can be operands")),
    }
}

fn operands(t: &Thread, es: &[Expr]) -> PResult<String> {
    let v: PResult<Vec<String>> = es.iter().map(|e| operand(t, e)).collect();
    Ok(v?.join(", "))
}

fn loc_of(p: &Program, e: &Expr) -> PResult<String> {
    e.as_loc()
        .and_then(|l| p.locations.get(l.index()))
        .map(|l| l.name.clone())
        .ok_or_else(|| fail("only locations can be addressed"))
}

fn reg_name(t: &Thread, r: weft_ir::Reg) -> PResult<String> {
    operand(t, &Expr::Reg(r))
}

fn cannot(d: Dialect, why: String) -> PrintError {
    fail(format!("{} cannot express {why}", d.header()))
}

fn ptx_scope_suffix(a: &MemAttrs) -> PResult<String> {
    match a.scope {
        None => Ok(String::new()),
        Some(s) => Dialect::Ptx
            .scope_name(s)
            .map(|n| format!(".{n}"))
            .ok_or_else(|| fail(format!("PTX cannot express scope `{}`", s.name()))),
    }
}

/// `.atom.acq.av.vis.nonpriv.<scope>.scN.semscN...semav.semvis` in canonical order.
fn vk_quals(
    a: &MemAttrs,
    atom_word: bool,
    scope_override: Option<weft_ir::Scope>,
) -> PResult<String> {
    let mut s = String::new();
    if atom_word && a.order != Order::Plain {
        s.push_str(".atom");
    }
    if let Some(o) = vk_order_name(a.order) {
        s.push('.');
        s.push_str(o);
    }
    let v = &a.vulkan;
    for (on, w) in [(v.av, "av"), (v.vis, "vis"), (v.nonpriv, "nonpriv")] {
        if on {
            s.push('.');
            s.push_str(w);
        }
    }
    if let Some(sc) = scope_override.or(a.scope) {
        let n = Dialect::Vulkan
            .scope_name(sc)
            .ok_or_else(|| fail(format!("VULKAN cannot express scope `{}`", sc.name())))?;
        s.push('.');
        s.push_str(n);
    }
    if let Some(c) = v.storage_class {
        s.push_str(&format!(".sc{c}"));
    }
    for c in &v.sem_classes {
        s.push_str(&format!(".semsc{c}"));
    }
    if v.sem_av {
        s.push_str(".semav");
    }
    if v.sem_vis {
        s.push_str(".semvis");
    }
    Ok(s)
}

fn stmt(d: Dialect, p: &Program, t: &Thread, s: &Stmt) -> PResult<String> {
    if s.guard.is_some() {
        return Err(cannot(d, "a guarded statement".into()));
    }
    let what = |e: String| cannot(d, e);
    Ok(match &s.kind {
        StmtKind::Load(l) => {
            let dst = reg_name(t, l.dst)?;
            let loc = loc_of(p, &l.addr)?;
            match d {
                Dialect::Ptx => {
                    check_ptx(PtxOp::Load, &l.attrs).map_err(what)?;
                    let base = match l.attrs.proxy {
                        Proxy::Generic => "ld",
                        Proxy::Texture => "tld",
                        Proxy::Surface => "suld",
                        Proxy::Constant => "cold",
                    };
                    let ord = ptx_order_name(l.attrs.order, l.attrs.volatile)
                        .ok_or_else(|| fail("PTX cannot express this load order"))?;
                    format!("{base}.{ord}{} {dst}, {loc}", ptx_scope_suffix(&l.attrs)?)
                }
                Dialect::Vulkan => {
                    check_vulkan(VkOp::Load, &l.attrs).map_err(what)?;
                    format!("ld{} {dst}, {loc}", vk_quals(&l.attrs, true, None)?)
                }
            }
        }
        StmtKind::Store(st) => {
            let loc = loc_of(p, &st.addr)?;
            let v = operand(t, &st.value)?;
            match d {
                Dialect::Ptx => {
                    check_ptx(PtxOp::Store, &st.attrs).map_err(what)?;
                    let base = if st.attrs.proxy == Proxy::Surface {
                        "sust"
                    } else {
                        "st"
                    };
                    let ord = ptx_order_name(st.attrs.order, st.attrs.volatile)
                        .ok_or_else(|| fail("PTX cannot express this store order"))?;
                    format!("{base}.{ord}{} {loc}, {v}", ptx_scope_suffix(&st.attrs)?)
                }
                Dialect::Vulkan => {
                    check_vulkan(VkOp::Store, &st.attrs).map_err(what)?;
                    format!("st{} {loc}, {v}", vk_quals(&st.attrs, true, None)?)
                }
            }
        }
        StmtKind::Rmw(r) => rmw(d, p, t, r)?,
        StmtKind::Fence(f) => fence(d, f)?,
        StmtKind::Barrier(b) => barrier(d, t, b)?,
        StmtKind::Assign { dst, value } => assign(d, t, *dst, value)?,
        StmtKind::Label(l) => {
            if !is_label_name(l) {
                return Err(fail(format!("label `{l}` cannot be written")));
            }
            format!("{l}:")
        }
        StmtKind::Jump { target, cond } => {
            if !is_label_name(target) {
                return Err(fail(format!("label `{target}` cannot be written")));
            }
            match cond {
                None => format!("goto {target}"),
                Some(Expr::Bin(op, a, b)) => {
                    let m = match op {
                        BinOp::Eq => "beq",
                        BinOp::Ne => "bne",
                        BinOp::Lt => "blt",
                        BinOp::Le => "ble",
                        BinOp::Gt => "bgt",
                        BinOp::Ge => "bge",
                        _ => return Err(cannot(d, "this branch condition".into())),
                    };
                    format!("{m} {}, {}, {target}", operand(t, a)?, operand(t, b)?)
                }
                Some(_) => return Err(cannot(d, "this branch condition".into())),
            }
        }
        StmtKind::If { .. } | StmtKind::While { .. } => {
            return Err(cannot(d, "structured control flow (lower it first)".into()))
        }
        StmtKind::Assume(_) | StmtKind::Assert(_) => {
            return Err(cannot(d, "`assume`/`assert`".into()))
        }
    })
}

/// An RMW: PTX's `atom`/`red` (or their surface forms) or Vulkan's `rmw`.
fn rmw(d: Dialect, p: &Program, t: &Thread, r: &Rmw) -> PResult<String> {
    let what = |e: String| cannot(d, e);
    if matches!(r.op, RmwOp::CompareExchange { .. }) || r.fail_order.is_some() {
        return Err(cannot(d, "a C11 compare-exchange".into()));
    }
    if r.args.len() != r.op.arity() {
        return Err(fail(format!(
            "`{}` with the wrong number of operands",
            r.op.name()
        )));
    }
    let loc = loc_of(p, &r.addr)?;
    let args = operands(t, &r.args)?;
    Ok(match d {
        Dialect::Ptx => {
            check_ptx(PtxOp::Rmw, &r.attrs).map_err(what)?;
            let ord = ptx_order_name(r.attrs.order, false)
                .ok_or_else(|| fail("PTX cannot express this atomic order"))?;
            let sc = ptx_scope_suffix(&r.attrs)?;
            let surface = r.attrs.proxy == Proxy::Surface;
            match r.dst {
                Some(dst) => format!(
                    "{}.{ord}{sc}.{} {}, {loc}, {args}",
                    if surface { "suatom" } else { "atom" },
                    r.op.name(),
                    reg_name(t, dst)?
                ),
                None => {
                    if matches!(r.op, RmwOp::Exch | RmwOp::Cas) {
                        return Err(fail(format!("PTX has no `red.{}`", r.op.name())));
                    }
                    format!(
                        "{}.{ord}{sc}.{} {loc}, {args}",
                        if surface { "sured" } else { "red" },
                        r.op.name()
                    )
                }
            }
        }
        Dialect::Vulkan => {
            check_vulkan(VkOp::Rmw, &r.attrs).map_err(what)?;
            let dst = r
                .dst
                .ok_or_else(|| cannot(d, "a reduction without a result register".into()))?;
            let op = if r.op == RmwOp::Exch {
                String::new()
            } else {
                format!(".{}", r.op.name())
            };
            format!(
                "rmw{}{op} {}, {loc}, {args}",
                vk_quals(&r.attrs, true, None)?,
                reg_name(t, dst)?
            )
        }
    })
}

/// A local computation (`ld` of a value, or a binary operation).
fn assign(d: Dialect, t: &Thread, dst: Reg, value: &Expr) -> PResult<String> {
    let dst = reg_name(t, dst)?;
    Ok(match value {
        Expr::Int(_) | Expr::Reg(_) => format!("ld {dst}, {}", operand(t, value)?),
        Expr::Bin(op, a, b) => {
            let m = match op {
                BinOp::Add => "add",
                BinOp::Sub => "sub",
                BinOp::Mul => "mul",
                BinOp::Div => "div",
                BinOp::And => "and",
                BinOp::Or => "or",
                BinOp::Xor => "xor",
                _ => return Err(cannot(d, format!("the local operator `{}`", op.c_symbol()))),
            };
            format!("{m} {dst}, {}, {}", operand(t, a)?, operand(t, b)?)
        }
        _ => return Err(cannot(d, "this local computation".into())),
    })
}

fn fence(d: Dialect, f: &Fence) -> PResult<String> {
    let a = &f.attrs;
    Ok(match (d, f.kind) {
        (Dialect::Ptx, FenceKind::Fence) => {
            check_ptx(PtxOp::Fence, a).map_err(|e| cannot(d, e))?;
            let ord = if a.order == Order::SeqCst {
                "sc"
            } else {
                "acq_rel"
            };
            format!("fence.{ord}{}", ptx_scope_suffix(a)?)
        }
        (Dialect::Ptx, FenceKind::Membar) => match a.scope {
            Some(weft_ir::Scope::Cta) => "membar.cta".into(),
            Some(weft_ir::Scope::Gpu) => "membar.gl".into(),
            Some(weft_ir::Scope::System) => "membar.sys".into(),
            _ => return Err(cannot(d, "a membar without a PTX scope".into())),
        },
        (Dialect::Ptx, FenceKind::ProxyFence(k)) => match k {
            None => "fence.proxy.alias".into(),
            Some(Proxy::Generic) => return Err(cannot(d, "a generic-proxy fence".into())),
            Some(p) => format!("fence.proxy.{}", p.name()),
        },
        (Dialect::Vulkan, FenceKind::Fence) => {
            check_vulkan(VkOp::Membar, a).map_err(|e| cannot(d, e))?;
            format!("membar{}", vk_quals(a, false, None)?)
        }
        (Dialect::Vulkan, FenceKind::AvDevice) => "avdevice".into(),
        (Dialect::Vulkan, FenceKind::VisDevice) => "visdevice".into(),
        (_, k) => return Err(cannot(d, format!("the fence {k:?}"))),
    })
}

fn barrier(d: Dialect, t: &Thread, b: &Barrier) -> PResult<String> {
    let mut ops = operand(t, &b.id)?;
    if !b.operands.is_empty() {
        ops.push_str(", ");
        ops.push_str(&operands(t, &b.operands)?);
    }
    match d {
        Dialect::Ptx => {
            if b.scope != weft_ir::Scope::Cta {
                return Err(cannot(d, format!("a {} barrier", b.scope.name())));
            }
            let mode = match b.kind {
                BarrierKind::Sync => "sync",
                BarrierKind::Arrive => "arrive",
                BarrierKind::Warp => return Err(cannot(d, "a warp barrier".into())),
            };
            Ok(format!("bar.cta.{mode} {ops}"))
        }
        Dialect::Vulkan => {
            if b.kind != BarrierKind::Sync {
                return Err(cannot(d, "an arrive or warp barrier".into()));
            }
            check_vulkan(VkOp::Cbar, &b.attrs).map_err(|e| cannot(d, e))?;
            let mut a = b.attrs.clone();
            a.scope = None;
            Ok(format!("cbar{} {ops}", vk_quals(&a, false, Some(b.scope))?))
        }
    }
}

fn term(p: &Program, t: &Term) -> PResult<String> {
    match t {
        Term::Reg { thread, reg } => {
            let th = p
                .threads
                .get(*thread)
                .ok_or_else(|| fail("the condition names an unknown thread"))?;
            Ok(format!("{}:{}", th.name, reg_name(th, *reg)?))
        }
        Term::Mem { loc, index } => {
            let l = p
                .locations
                .get(loc.index())
                .ok_or_else(|| fail("the condition names an unknown location"))?;
            Ok(if *index == 0 {
                l.name.clone()
            } else {
                format!("{}[{index}]", l.name)
            })
        }
        Term::Int(n) => int(*n),
        Term::Addr(_) => Err(fail("an address in the condition cannot be written")),
    }
}

/// A proposition; `ctx` is the binding strength of the context (1: `\/`, 2: `/\`, 3: `~`).
fn prop(p: &Program, x: &Prop, ctx: u8) -> PResult<String> {
    let paren = |s: String, mine: u8| if mine < ctx { format!("({s})") } else { s };
    Ok(match x {
        Prop::True => "true".into(),
        Prop::False => "false".into(),
        Prop::Cmp(a, op, b) => {
            let sym = match op {
                CmpOp::Eq => "==",
                o => o.symbol(),
            };
            format!("{} {sym} {}", term(p, a)?, term(p, b)?)
        }
        Prop::Not(a) => format!("~{}", prop(p, a, 3)?),
        Prop::And(a, b) => paren(format!("{} /\\ {}", prop(p, a, 2)?, prop(p, b, 3)?), 2),
        Prop::Or(a, b) => paren(format!("{} \\/ {}", prop(p, a, 1)?, prop(p, b, 2)?), 1),
    })
}
