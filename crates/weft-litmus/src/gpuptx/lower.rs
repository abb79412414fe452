//! GPU_PTX lowering: the syntax's cells become IR statements (access qualifiers, RMW
//! operations, fences, barriers, arithmetic, branches), threads are placed from the scope
//! tree, and the final condition is read by the shared condition parser.

use std::collections::HashMap;

use super::syntax::check_name;
use super::syntax::{RawValue, ScopeItem, ScopeNode, Syntax, ThreadRef};
use super::{cache_from_ptx, err_at, scope_from_ptx, sem_from_ptx, space_from_name, PResult};
use crate::diag::{quote, ParseError};
use crate::lex::{Cursor, Tok, Token};
use weft_ir::{
    Arch, Barrier, BarrierKind, BinOp, CacheOp, DataType, Expr, Fence, FenceKind, Guard, Load,
    LocId, Location, MemAttrs, MemSpace, Order, Placement, Program, Proxy, Reg, RegDecl, Rmw,
    RmwOp, Scope, Span, Stmt, StmtKind, Store, Term, Thread, UnOp, Value,
};
use weft_ptx::ast::Sem;

pub(super) fn lower(syn: Syntax) -> PResult<Program> {
    let mut p = Program::new(Arch::GpuPtx, syn.name);
    p.doc = syn.doc;
    // Locations: init-block mentions first, then the memory map.
    for (n, sp) in &syn.mentions {
        let mut l = Location::scalar(n.clone(), syn.loc_inits.get(n).copied().unwrap_or(0));
        l.span = *sp;
        p.locations.push(l);
    }
    for (n, sp, space) in &syn.memory_map {
        let id = match p.loc_by_name(n) {
            Some(id) => id,
            None => {
                let mut l = Location::scalar(n.clone(), 0);
                l.span = *sp;
                p.locations.push(l);
                LocId(p.locations.len() as u32 - 1)
            }
        };
        p.locations[id.index()].space = *space;
    }
    for (n, _) in &syn.threads {
        p.threads.push(Thread::new(n.clone()));
    }
    for r in &syn.regs {
        let t = match &r.thread {
            ThreadRef::Index(i) => usize::try_from(*i)
                .ok()
                .filter(|i| *i < p.threads.len())
                .ok_or_else(|| {
                    ParseError::at(
                        r.span,
                        format!("no thread {i}: the test has {}", p.threads.len()),
                    )
                })?,
            ThreadRef::Name(n) => p
                .thread_by_name(n)
                .ok_or_else(|| ParseError::at(r.span, format!("unknown thread `{n}`")))?,
        };
        if p.loc_by_name(&r.name).is_some() {
            return Err(ParseError::at(
                r.span,
                format!("`{}` names both a register and a location", r.name),
            ));
        }
        if p.threads[t].reg_by_name(&r.name).is_some() {
            return Err(ParseError::at(
                r.span,
                format!("register `{}` declared twice in thread {t}", r.name),
            ));
        }
        let init = match &r.init {
            None => None,
            Some(RawValue::Int(v)) => Some(Value::Int(*v)),
            Some(RawValue::Loc(l, sp)) => {
                Some(Value::Addr(p.loc_by_name(l).ok_or_else(|| {
                    ParseError::at(*sp, format!("undeclared location `{l}`"))
                })?))
            }
        };
        p.threads[t].regs.push(RegDecl {
            name: r.name.clone(),
            ty: r.ty,
            init,
            temp: false,
        });
    }
    // Code, thread by thread.
    let locs: HashMap<String, LocId> = p
        .locations
        .iter()
        .enumerate()
        .map(|(i, l)| (l.name.clone(), LocId(i as u32)))
        .collect();
    for t in 0..p.threads.len() {
        let mut code = Vec::new();
        for row in &syn.rows {
            let cell = &row[t];
            let mut lw = CellLowerer {
                thread: &mut p.threads[t],
                locs: &locs,
                c: Cursor::new(cell.toks.clone(), cell.end),
            };
            lw.cell(&mut code)?;
        }
        p.threads[t].code = code;
    }
    // Placements.
    if let Some((span, roots)) = &syn.tree {
        let mut placed: Vec<Option<Placement>> = vec![None; p.threads.len()];
        let mut path = Vec::new();
        let refs: Vec<&ScopeNode> = roots.iter().collect();
        place(&p, &refs, &mut path, &mut placed)?;
        for (t, pl) in placed.into_iter().enumerate() {
            match pl {
                Some(pl) => p.threads[t].placement = pl,
                None => {
                    return Err(ParseError::at(
                        *span,
                        format!(
                            "thread `{}` is missing from the scope tree",
                            p.threads[t].name
                        ),
                    ))
                }
            }
        }
    }
    // Final part.
    if let Some((toks, end)) = syn.condition {
        let mut view = CondView {
            c: Cursor::new(toks, end),
            p: &p,
        };
        let f = crate::cond::final_part(&mut view, &COND)?;
        if let Some(t) = view.c.peek() {
            return Err(err_at(
                t,
                format!("unexpected {} after the condition", t.describe()),
            ));
        }
        p.observed = f.observed;
        p.filter = f.filter;
        p.condition = f.condition;
    }
    Ok(p)
}

fn place(
    p: &Program,
    nodes: &[&ScopeNode],
    path: &mut Vec<(Scope, u32)>,
    placed: &mut [Option<Placement>],
) -> PResult<()> {
    let mut counts: HashMap<Scope, u32> = HashMap::new();
    for n in nodes {
        let id = counts.entry(n.level).or_insert(0);
        path.push((n.level, *id));
        *id += 1;
        let mut children = Vec::new();
        for item in &n.items {
            match item {
                ScopeItem::Node(c) => children.push(c),
                ScopeItem::Thread(name, sp) => {
                    let t = p
                        .thread_by_name(name)
                        .ok_or_else(|| ParseError::at(*sp, format!("unknown thread `{name}`")))?;
                    if placed[t].is_some() {
                        return Err(ParseError::at(
                            *sp,
                            format!("thread `{name}` appears twice in the scope tree"),
                        ));
                    }
                    let mut levels = path.clone();
                    levels.reverse();
                    placed[t] = Some(Placement::new(levels));
                }
            }
        }
        place(p, &children, path, placed)?;
        path.pop();
    }
    Ok(())
}

struct CellLowerer<'a> {
    thread: &'a mut Thread,
    locs: &'a HashMap<String, LocId>,
    c: Cursor,
}

/// What an instruction's mnemonic says, split at its dots.
struct Mnemonic {
    tok: Token,
    word: String,
    base: String,
    quals: Vec<String>,
}

impl Mnemonic {
    fn err(&self, msg: impl Into<String>) -> ParseError {
        err_at(&self.tok, msg)
    }
}

/// The qualifiers of an access: `.volatile`/`.weak`/`.relaxed.<scope>`, state space,
/// cache operator, RMW operation and type.
#[derive(Default)]
struct Quals {
    volatile: bool,
    weak: bool,
    relaxed: bool,
    scope: Option<Scope>,
    space: Option<MemSpace>,
    cache: Option<CacheOp>,
    op: Option<RmwOp>,
    ty: Option<DataType>,
}

impl CellLowerer<'_> {
    fn cell(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        // Labels: `L0:`.
        while let (
            Some(Token {
                tok: Tok::Ident(l), ..
            }),
            Some(colon),
        ) = (self.c.peek(), self.c.peek_at(1))
        {
            if !colon.is_punct(":") {
                break;
            }
            let t = self.c.peek().cloned().expect("peeked");
            check_name(&t, l, "label")?;
            out.push(Stmt::new(StmtKind::Label(l.clone()), t.span()));
            self.c.next();
            self.c.next();
        }
        if self.c.at_end() {
            return Ok(());
        }
        let start = self.c.span();
        let mut guard = None;
        if self.c.eat_punct("@") {
            let negated = self.c.eat_punct("!");
            let reg = self.def_reg("a predicate register")?;
            guard = Some(Guard { reg, negated });
        }
        let kind = self.instruction()?;
        if let Some(t) = self.c.peek() {
            return Err(err_at(
                t,
                format!("unexpected {} after the instruction", t.describe()),
            ));
        }
        out.push(Stmt {
            guard,
            ..Stmt::new(kind, start)
        });
        Ok(())
    }

    fn mnemonic(&mut self) -> PResult<Mnemonic> {
        let tok = self
            .c
            .peek()
            .cloned()
            .ok_or_else(|| self.c.expected("an instruction"))?;
        let Tok::Ident(word) = &tok.tok else {
            return Err(self.c.expected("an instruction"));
        };
        if word.starts_with('.') || word.ends_with('.') || word.contains("..") {
            return Err(err_at(
                &tok,
                format!("malformed instruction {}", quote(word)),
            ));
        }
        let mut parts = word.split('.').map(str::to_string);
        let base = parts.next().unwrap_or_default();
        let quals = parts.collect();
        self.c.next();
        Ok(Mnemonic {
            word: word.clone(),
            tok,
            base,
            quals,
        })
    }

    fn instruction(&mut self) -> PResult<StmtKind> {
        let m = self.mnemonic()?;
        match m.base.as_str() {
            "ld" | "st" | "atom" | "red" => self.memory_instruction(&m),
            "membar" | "fence" | "bar" | "barrier" => self.sync_instruction(&m),
            "bra" => {
                if !(m.quals.is_empty() || m.quals == ["uni"]) {
                    return Err(m.err("expected `bra` or `bra.uni`"));
                }
                let t = self.c.peek().cloned();
                let (target, _) = self.c.ident("a label")?;
                check_name(&t.expect("ident"), &target, "label")?;
                Ok(StmtKind::Jump { target, cond: None })
            }
            _ => self.arith_instruction(&m),
        }
    }

    /// `ld`, `st`, `atom` or `red`.
    fn memory_instruction(&mut self, m: &Mnemonic) -> PResult<StmtKind> {
        match m.base.as_str() {
            "ld" => {
                let q = self.access_quals(m, Access::Load)?;
                let dst = self.def_reg("a destination register")?;
                self.c.expect_punct(",")?;
                let addr = self.address()?;
                Ok(StmtKind::Load(Load {
                    dst,
                    addr,
                    attrs: q.attrs(),
                }))
            }
            "st" => {
                let q = self.access_quals(m, Access::Store)?;
                let addr = self.address()?;
                self.c.expect_punct(",")?;
                let value = self.value()?;
                Ok(StmtKind::Store(Store {
                    addr,
                    value,
                    attrs: q.attrs(),
                }))
            }
            _ => {
                let red = m.base == "red";
                let q = self.access_quals(m, Access::Rmw)?;
                let op = q.op.ok_or_else(|| {
                    m.err(format!(
                        "{} needs an operation such as `.add`, `.exch` or `.cas`",
                        quote(&m.word)
                    ))
                })?;
                if red && matches!(op, RmwOp::Exch | RmwOp::Cas) {
                    return Err(m.err(format!("there is no `red.{}`; use `atom`", op.name())));
                }
                let dst = if red {
                    None
                } else {
                    let d = self.def_reg("a destination register")?;
                    self.c.expect_punct(",")?;
                    Some(d)
                };
                let addr = self.address()?;
                let mut args = Vec::new();
                for _ in 0..op.arity() {
                    self.c.expect_punct(",")?;
                    args.push(self.value()?);
                }
                Ok(StmtKind::Rmw(Rmw {
                    dst,
                    addr,
                    op,
                    args,
                    attrs: q.attrs(),
                    fail_order: None,
                }))
            }
        }
    }

    /// `membar`, `fence` or `bar`/`barrier`.
    fn sync_instruction(&mut self, m: &Mnemonic) -> PResult<StmtKind> {
        match m.base.as_str() {
            "membar" => {
                let scope = match m.quals.iter().map(String::as_str).collect::<Vec<_>>()[..] {
                    [s] => weft_ptx::quals::membar_scope_by_name(s),
                    _ => None,
                };
                let Some(scope) = scope else {
                    return Err(m.err(format!(
                        "{}: expected `membar.cta`, `membar.gl` or `membar.sys`",
                        quote(&m.word)
                    )));
                };
                Ok(StmtKind::Fence(Fence {
                    kind: FenceKind::Membar,
                    attrs: MemAttrs::scoped(Order::SeqCst, scope),
                    spaces: Vec::new(),
                }))
            }
            "fence" => {
                let qs: Vec<&str> = m.quals.iter().map(String::as_str).collect();
                let scope = match qs[..] {
                    ["sc", s] => scope_from_ptx(s),
                    _ => None,
                };
                let scope = scope.ok_or_else(|| {
                    m.err(format!(
                        "{}: GPU_PTX has `fence.sc.cta`, `fence.sc.gpu` and `fence.sc.sys` (use the PTX format for acquire/release fences)",
                        quote(&m.word)
                    ))
                })?;
                Ok(StmtKind::Fence(Fence {
                    kind: FenceKind::Fence,
                    attrs: MemAttrs::scoped(Order::SeqCst, scope),
                    spaces: Vec::new(),
                }))
            }
            _ => {
                let qs: Vec<&str> = m.quals.iter().map(String::as_str).collect();
                let kind = match qs[..] {
                    ["sync"] | ["cta", "sync"] => BarrierKind::Sync,
                    ["arrive"] | ["cta", "arrive"] => BarrierKind::Arrive,
                    _ => {
                        return Err(m.err(format!(
                            "{}: expected `bar.sync` or `bar.arrive`",
                            quote(&m.word)
                        )))
                    }
                };
                let id = self.value()?;
                let mut operands = Vec::new();
                while self.c.eat_punct(",") {
                    operands.push(self.value()?);
                }
                Ok(StmtKind::Barrier(Barrier {
                    kind,
                    scope: Scope::Cta,
                    id,
                    operands,
                    attrs: MemAttrs::default(),
                    spaces: Vec::new(),
                }))
            }
        }
    }

    /// `mov`, `not`, `neg`, `setp` or a binary operation.
    fn arith_instruction(&mut self, m: &Mnemonic) -> PResult<StmtKind> {
        match m.base.as_str() {
            "mov" | "not" | "neg" => {
                self.arith_type(m, 0)?;
                let dst = self.def_reg("a destination register")?;
                self.c.expect_punct(",")?;
                let a = self.value()?;
                let value = match m.base.as_str() {
                    "mov" => a,
                    "not" => Expr::un(UnOp::Not, a),
                    _ => Expr::un(UnOp::Neg, a),
                };
                Ok(StmtKind::Assign { dst, value })
            }
            "setp" => {
                let op = match m.quals.first().map(String::as_str) {
                    Some("eq") => BinOp::Eq,
                    Some("ne") => BinOp::Ne,
                    Some("lt") => BinOp::Lt,
                    Some("le") => BinOp::Le,
                    Some("gt") => BinOp::Gt,
                    Some("ge") => BinOp::Ge,
                    _ => {
                        return Err(m.err(format!(
                            "{}: expected `setp.eq`, `.ne`, `.lt`, `.le`, `.gt` or `.ge`",
                            quote(&m.word)
                        )))
                    }
                };
                self.arith_type(m, 1)?;
                self.binary(op)
            }
            base => {
                let op = match base {
                    "add" => BinOp::Add,
                    "sub" => BinOp::Sub,
                    "mul" => BinOp::Mul,
                    "div" => BinOp::Div,
                    "rem" => BinOp::Rem,
                    "and" => BinOp::And,
                    "or" => BinOp::Or,
                    "xor" => BinOp::Xor,
                    "shl" => BinOp::Shl,
                    "shr" => BinOp::Shr,
                    _ => {
                        return Err(m.err(format!(
                            "unknown instruction {} in a GPU_PTX test",
                            quote(&m.word)
                        )))
                    }
                };
                let skip =
                    usize::from(op == BinOp::Mul && m.quals.first().is_some_and(|q| q == "lo"));
                self.arith_type(m, skip)?;
                self.binary(op)
            }
        }
    }

    /// Checks that the qualifiers after the first `skip` ones are at most one type.
    fn arith_type(&self, m: &Mnemonic, skip: usize) -> PResult<()> {
        let rest = &m.quals[skip.min(m.quals.len())..];
        match rest {
            [] => Ok(()),
            [t] if DataType::from_ptx(t).is_some() => Ok(()),
            _ => Err(m.err(format!("unexpected qualifiers in {}", quote(&m.word)))),
        }
    }

    fn binary(&mut self, op: BinOp) -> PResult<StmtKind> {
        let dst = self.def_reg("a destination register")?;
        self.c.expect_punct(",")?;
        let a = self.value()?;
        self.c.expect_punct(",")?;
        let b = self.value()?;
        Ok(StmtKind::Assign {
            dst,
            value: Expr::bin(op, a, b),
        })
    }

    fn access_quals(&self, m: &Mnemonic, k: Access) -> PResult<Quals> {
        let mut q = Quals::default();
        let dup = |what: &str| m.err(format!("{} gives {what} twice", quote(&m.word)));
        for s in &m.quals {
            let s = s.as_str();
            let sem = sem_from_ptx(s);
            if sem == Some(Sem::Volatile) && k != Access::Rmw {
                if q.volatile {
                    return Err(dup("`.volatile`"));
                }
                q.volatile = true;
            } else if sem == Some(Sem::Weak) && k != Access::Rmw {
                if q.weak {
                    return Err(dup("`.weak`"));
                }
                q.weak = true;
            } else if sem == Some(Sem::Relaxed) {
                if q.relaxed {
                    return Err(dup("`.relaxed`"));
                }
                q.relaxed = true;
            } else if let Some(sc) = scope_from_ptx(s) {
                if q.scope.is_some() {
                    return Err(dup("a scope"));
                }
                q.scope = Some(sc);
            } else if let Some(sp) = space_from_name(s) {
                if q.space.is_some() {
                    return Err(dup("a state space"));
                }
                q.space = Some(sp);
            } else if let (Some(c), true) = (cache_from_ptx(s), k != Access::Rmw) {
                let ok = match k {
                    Access::Load => matches!(
                        c,
                        CacheOp::Ca | CacheOp::Cg | CacheOp::Cs | CacheOp::Lu | CacheOp::Cv
                    ),
                    _ => matches!(c, CacheOp::Wb | CacheOp::Cg | CacheOp::Cs | CacheOp::Wt),
                };
                if !ok {
                    return Err(m.err(format!("`.{s}` is not a cache operator of `{}`", m.base)));
                }
                if q.cache.is_some() {
                    return Err(dup("a cache operator"));
                }
                q.cache = Some(c);
            } else if let (Some(op), true) = (RmwOp::from_name(s), k == Access::Rmw) {
                if q.op.is_some() {
                    return Err(dup("an operation"));
                }
                q.op = Some(op);
            } else if let Some(t) = DataType::from_ptx(s) {
                if q.ty.is_some() {
                    return Err(dup("a type"));
                }
                q.ty = Some(t);
            } else if matches!(
                sem,
                Some(Sem::Acquire | Sem::Release | Sem::AcqRel | Sem::Sc | Sem::Mmio)
            ) {
                return Err(m.err(format!(
                    "GPU_PTX has no `.{s}` accesses; use the PTX format for them"
                )));
            } else {
                return Err(m.err(format!("unknown qualifier `.{s}` in {}", quote(&m.word))));
            }
        }
        if q.volatile && (q.relaxed || q.weak) {
            return Err(m.err("an access is either `.volatile`, `.weak` or `.relaxed`"));
        }
        if q.weak && q.relaxed {
            return Err(m.err("an access is either `.weak` or `.relaxed`"));
        }
        if q.relaxed != q.scope.is_some() {
            return Err(m.err(if q.relaxed {
                "`.relaxed` needs a scope: `.cta`, `.gpu` or `.sys`"
            } else {
                "a scope goes with `.relaxed`"
            }));
        }
        if q.relaxed && q.cache.is_some() {
            return Err(m.err("a `.relaxed` access takes no cache operator"));
        }
        Ok(q)
    }

    /// A register written here (declared on first use).
    fn def_reg(&mut self, what: &str) -> PResult<Reg> {
        let t = self.c.peek().cloned();
        let (n, _) = self.c.ident(what)?;
        let t = t.expect("ident");
        if let Some(r) = self.thread.reg_by_name(&n) {
            return Ok(r);
        }
        if self.locs.contains_key(&n) {
            return Err(err_at(&t, format!("`{n}` is a location, not a register")));
        }
        check_name(&t, &n, "register")?;
        Ok(self.thread.reg_or_declare(&n))
    }

    /// `[x]` or `[r1]`.
    fn address(&mut self) -> PResult<Expr> {
        self.c.expect_punct("[")?;
        let t = self.c.peek().cloned();
        let (n, _) = self.c.ident("a location or an address register")?;
        let t = t.expect("ident");
        let e = if let Some(r) = self.thread.reg_by_name(&n) {
            Expr::Reg(r)
        } else if let Some(l) = self.locs.get(&n) {
            Expr::Addr(*l)
        } else {
            return Err(err_at(&t, format!("undeclared location `{n}`")));
        };
        self.c.expect_punct("]")?;
        Ok(e)
    }

    /// An integer, a register, or a location used as an address.
    fn value(&mut self) -> PResult<Expr> {
        match self.c.peek() {
            Some(Token {
                tok: Tok::Ident(n), ..
            }) => {
                let t = self.c.peek().cloned().expect("peeked");
                let n = n.clone();
                self.c.next();
                if let Some(r) = self.thread.reg_by_name(&n) {
                    Ok(Expr::Reg(r))
                } else if let Some(l) = self.locs.get(&n) {
                    Ok(Expr::Addr(*l))
                } else {
                    Err(err_at(
                        &t,
                        format!(
                            "`{n}` is neither a register written before nor a declared location"
                        ),
                    ))
                }
            }
            _ => Ok(Expr::Int(
                self.c.int("an integer, a register or a location")?,
            )),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Access {
    Load,
    Store,
    Rmw,
}

impl Quals {
    fn attrs(&self) -> MemAttrs {
        MemAttrs {
            order: if self.relaxed {
                Order::Relaxed
            } else {
                Order::Plain
            },
            scope: self.scope,
            volatile: self.volatile,
            cache: self.cache,
            proxy: Proxy::Generic,
            space: self.space,
            ty: self.ty,
            vulkan: Default::default(),
        }
    }
}

/// GPU_PTX's condition spellings and limits for the shared condition parser.
const COND: crate::cond::Dialect = crate::cond::Dialect {
    max_nest: 64,
    max_depth: 4096,
    cmp_hint: "such as `=`",
    not_word: false,
    bang: false,
};

/// The final part's tokens and the lowered program, as the shared condition parser sees
/// them.
struct CondView<'p> {
    c: Cursor,
    p: &'p Program,
}

impl crate::cond::CondSyntax for CondView<'_> {
    fn is_punct(&self, k: usize, p: &str) -> bool {
        self.c.peek_at(k).is_some_and(|t| t.is_punct(p))
    }

    fn is_word(&self, k: usize, w: &str) -> bool {
        self.c.peek_at(k).is_some_and(|t| t.is_ident(w))
    }

    fn is_end(&self, k: usize) -> bool {
        self.c.peek_at(k).is_none()
    }

    fn bump(&mut self) {
        self.c.next();
    }

    fn here(&self) -> Span {
        self.c.span()
    }

    fn expected(&self, what: &str) -> ParseError {
        self.c.expected(what)
    }

    fn term(&mut self, rhs: bool) -> PResult<Term> {
        cond_term(&mut self.c, self.p, !rhs)
    }
}

/// `0:r1` / `T0:r1`, `x` / `[x]` (memory; a bare name on the right is an address), `&x`,
/// an integer.
fn cond_term(c: &mut Cursor, p: &Program, lhs: bool) -> PResult<Term> {
    let Some(t) = c.peek().cloned() else {
        return Err(c.expected("a register, a location or an integer"));
    };
    let colon_next = c.peek_at(1).is_some_and(|u| u.is_punct(":"));
    match &t.tok {
        Tok::Int(n) if colon_next => {
            let thread = usize::try_from(*n)
                .ok()
                .filter(|i| *i < p.threads.len())
                .ok_or_else(|| {
                    err_at(
                        &t,
                        format!("no thread {n}: the test has {}", p.threads.len()),
                    )
                })?;
            c.next();
            c.next();
            cond_reg(c, p, thread)
        }
        Tok::Ident(name) if colon_next => {
            let thread = p
                .thread_by_name(name)
                .ok_or_else(|| err_at(&t, format!("unknown thread `{name}`")))?;
            c.next();
            c.next();
            cond_reg(c, p, thread)
        }
        Tok::Ident(name) => {
            c.next();
            let loc = p
                .loc_by_name(name)
                .ok_or_else(|| err_at(&t, format!("undeclared location `{name}`")))?;
            Ok(if lhs {
                Term::Mem { loc, index: 0 }
            } else {
                Term::Addr(loc)
            })
        }
        Tok::Punct("[") => {
            c.next();
            let lt = c.peek().cloned();
            let (name, _) = c.ident("a location")?;
            let loc = p.loc_by_name(&name).ok_or_else(|| {
                err_at(
                    lt.as_ref().expect("ident"),
                    format!("undeclared location `{name}`"),
                )
            })?;
            c.expect_punct("]")?;
            Ok(Term::Mem { loc, index: 0 })
        }
        Tok::Punct("&") => {
            c.next();
            let lt = c.peek().cloned();
            let (name, _) = c.ident("a location")?;
            let loc = p.loc_by_name(&name).ok_or_else(|| {
                err_at(
                    lt.as_ref().expect("ident"),
                    format!("undeclared location `{name}`"),
                )
            })?;
            Ok(Term::Addr(loc))
        }
        _ => Ok(Term::Int(c.int("a register, a location or an integer")?)),
    }
}

fn cond_reg(c: &mut Cursor, p: &Program, thread: usize) -> PResult<Term> {
    let t = c.peek().cloned();
    let (name, _) = c.ident("a register")?;
    let reg = p.threads[thread].reg_by_name(&name).ok_or_else(|| {
        err_at(
            t.as_ref().expect("ident"),
            format!(
                "thread {} ({}) has no register `{name}`",
                thread, p.threads[thread].name
            ),
        )
    })?;
    Ok(Term::Reg { thread, reg })
}
