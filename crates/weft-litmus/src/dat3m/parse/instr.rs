//! Instructions of Dat3M's PTX and Vulkan column programs: one cell's mnemonic split into
//! qualifiers, checked against the dialect's rules, and turned into an IR statement
//! (accesses, RMWs, fences, barriers, local arithmetic, branches), with its operands
//! (registers, values, locations, labels).

use weft_ir::{
    Barrier, BarrierKind, BinOp, Expr, Fence, FenceKind, Load, LocId, Location, MemAttrs, Order,
    Proxy, Reg, Rmw, RmwOp, Scope, Span, Stmt, StmtKind, Store,
};

use super::super::syntax::{
    check_ptx, check_vulkan, class_number, is_label_name, is_location_name, is_register, Dialect,
    PtxOp, VkOp,
};
use super::{bad_location_name, err_at, PResult, Parser};
use crate::diag::{quote, ParseError};
use crate::lex::{Tok, Token};

impl Parser {
    // ----- instructions -----

    pub(super) fn instruction(&mut self, t: usize) -> PResult<Stmt> {
        let span = self.cur.span();
        if !matches!(
            self.cur.peek(),
            Some(Token {
                tok: Tok::Ident(_),
                ..
            })
        ) {
            return Err(self.cur.expected("an instruction, `|` or `;`"));
        }
        let is_label = self.cur.peek_at(1).is_some_and(|t| t.is_punct(":"));
        let (word, _) = self.cur.ident("an instruction")?;
        if is_label {
            if !is_label_name(&word) {
                return Err(err_at(
                    span,
                    format!("{} is not a valid label", quote(&word)),
                ));
            }
            if let Some(l) = self.labels.get_mut(t) {
                if !l.insert(word.clone()) {
                    return Err(err_at(
                        span,
                        format!("label {} defined twice", quote(&word)),
                    ));
                }
            }
            self.cur.bump();
            return Ok(Stmt::new(StmtKind::Label(word), span));
        }
        let mut parts = word.split('.');
        let base = parts.next().unwrap_or("");
        let quals: Vec<&str> = parts.collect();
        if quals.iter().any(|q| q.is_empty()) {
            return Err(err_at(
                span,
                format!("malformed instruction {}", quote(&word)),
            ));
        }
        let m = Mnemonic {
            word: &word,
            quals: &quals,
            span,
        };
        let kind = match base {
            "goto" => {
                m.no_quals()?;
                StmtKind::Jump {
                    target: self.label_ref()?,
                    cond: None,
                }
            }
            "beq" | "bne" | "blt" | "ble" | "bgt" | "bge" => {
                m.no_quals()?;
                let op = match base {
                    "beq" => BinOp::Eq,
                    "bne" => BinOp::Ne,
                    "blt" => BinOp::Lt,
                    "ble" => BinOp::Le,
                    "bgt" => BinOp::Gt,
                    _ => BinOp::Ge,
                };
                let a = self.value(t)?;
                self.expect(",")?;
                let b = self.value(t)?;
                self.expect(",")?;
                StmtKind::Jump {
                    target: self.label_ref()?,
                    cond: Some(Expr::bin(op, a, b)),
                }
            }
            "add" | "sub" | "mul" | "div" | "and" | "or" | "xor" => {
                m.no_quals()?;
                let op = local_op(base).unwrap_or(BinOp::Add);
                let dst = self.reg(t)?;
                self.expect(",")?;
                let a = self.value(t)?;
                self.expect(",")?;
                let b = self.value(t)?;
                StmtKind::Assign {
                    dst,
                    value: Expr::bin(op, a, b),
                }
            }
            "ld" if quals.is_empty() && self.assign_form() => {
                let dst = self.reg(t)?;
                self.expect(",")?;
                StmtKind::Assign {
                    dst,
                    value: self.value(t)?,
                }
            }
            _ => match self.d {
                Dialect::Ptx => self.ptx_instruction(t, base, &m)?,
                Dialect::Vulkan => self.vulkan_instruction(t, base, &m)?,
            },
        };
        Ok(Stmt::new(kind, span))
    }

    /// `ld r, v` where `v` is a register or a constant: a local assignment.
    fn assign_form(&self) -> bool {
        let reg_next =
            matches!(self.cur.peek(), Some(Token { tok: Tok::Ident(s), .. }) if is_register(s));
        let comma = self.cur.peek_at(1).is_some_and(|t| t.is_punct(","));
        let value = match self.cur.peek_at(2) {
            Some(Token {
                tok: Tok::Int(_), ..
            }) => true,
            Some(t) if t.is_punct("-") => true,
            Some(Token {
                tok: Tok::Ident(s), ..
            }) => is_register(s),
            _ => false,
        };
        reg_next && comma && value
    }

    fn ptx_instruction(&mut self, t: usize, base: &str, m: &Mnemonic) -> PResult<StmtKind> {
        let proxy = match base {
            "tld" => Proxy::Texture,
            "suld" | "sust" | "suatom" | "sured" => Proxy::Surface,
            "cold" => Proxy::Constant,
            _ => Proxy::Generic,
        };
        match base {
            "ld" | "tld" | "suld" | "cold" | "st" | "sust" => {
                let q = m.ptx_quals(false)?;
                let load = !matches!(base, "st" | "sust");
                let attrs = q.access_attrs(m, load, proxy)?;
                if load {
                    let dst = self.reg(t)?;
                    self.expect(",")?;
                    let loc = self.loc()?;
                    Ok(StmtKind::Load(Load {
                        dst,
                        addr: Expr::Addr(loc),
                        attrs,
                    }))
                } else {
                    let loc = self.loc()?;
                    self.expect(",")?;
                    let value = self.value(t)?;
                    Ok(StmtKind::Store(Store {
                        addr: Expr::Addr(loc),
                        value,
                        attrs,
                    }))
                }
            }
            "atom" | "suatom" | "red" | "sured" => self.ptx_rmw(t, base, m, proxy),
            "fence" => ptx_fence(m),
            "membar" => {
                let scope = match m.quals {
                    [s] => weft_ptx::quals::membar_scope_by_name(s),
                    _ => None,
                };
                let Some(scope) = scope else {
                    return Err(m.err(format!(
                        "{}: expected `membar.cta`, `membar.gl` or `membar.sys`",
                        quote(m.word)
                    )));
                };
                Ok(StmtKind::Fence(Fence {
                    kind: FenceKind::Membar,
                    attrs: MemAttrs::scoped(Order::SeqCst, scope),
                    spaces: Vec::new(),
                }))
            }
            "bar" => {
                let (mut kind, mut cta) = (None, false);
                for q in m.quals {
                    match *q {
                        "cta" if !cta => cta = true,
                        "sync" if kind.is_none() => kind = Some(BarrierKind::Sync),
                        "arrive" if kind.is_none() => kind = Some(BarrierKind::Arrive),
                        _ => {
                            return Err(m.err(format!(
                                "unexpected qualifier {} in {}: expected `bar.cta.sync` or `bar.cta.arrive`",
                                quote(q),
                                quote(m.word)
                            )))
                        }
                    }
                }
                let kind = kind.ok_or_else(|| {
                    m.err(format!(
                        "{}: expected `bar.cta.sync` or `bar.cta.arrive`",
                        quote(m.word)
                    ))
                })?;
                self.barrier(t, kind, Scope::Cta, MemAttrs::default())
            }
            _ => Err(m.err(format!(
                "unknown instruction {} in a PTX test",
                quote(m.word)
            ))),
        }
    }

    /// `atom`, `red` and their surface forms (`base`), through `proxy`.
    fn ptx_rmw(&mut self, t: usize, base: &str, m: &Mnemonic, proxy: Proxy) -> PResult<StmtKind> {
        let q = m.ptx_quals(true)?;
        let red = matches!(base, "red" | "sured");
        let op = q.op.ok_or_else(|| {
            m.err(format!(
                "{} needs an operation such as `.add`{}",
                quote(m.word),
                if red { "" } else { ", `.exch` or `.cas`" }
            ))
        })?;
        if red && matches!(op, RmwOp::Exch | RmwOp::Cas) {
            return Err(m.err(format!("`red` cannot `.{}`; use `atom`", op.name())));
        }
        if q.volatile || matches!(q.order, Some(Order::Plain | Order::SeqCst)) {
            return Err(m.err(format!(
                "{}: an atomic is `.relaxed`, `.acquire`, `.release` or `.acq_rel`",
                quote(m.word)
            )));
        }
        let mut attrs = MemAttrs::scoped(
            q.order.unwrap_or(Order::Relaxed),
            q.scope.unwrap_or(Scope::System),
        );
        attrs.proxy = proxy;
        check_ptx(PtxOp::Rmw, &attrs).map_err(|e| m.cannot(&e))?;
        let dst = if red {
            None
        } else {
            let r = self.reg(t)?;
            self.expect(",")?;
            Some(r)
        };
        let loc = self.loc()?;
        let mut args = Vec::new();
        for _ in 0..op.arity() {
            self.expect(",")?;
            args.push(self.value(t)?);
        }
        Ok(StmtKind::Rmw(Rmw {
            dst,
            addr: Expr::Addr(loc),
            op,
            args,
            attrs,
            fail_order: None,
        }))
    }

    fn barrier(
        &mut self,
        t: usize,
        kind: BarrierKind,
        scope: Scope,
        attrs: MemAttrs,
    ) -> PResult<StmtKind> {
        let id = self.value(t)?;
        let mut operands = Vec::new();
        while self.cur.eat_punct(",") {
            operands.push(self.value(t)?);
        }
        Ok(StmtKind::Barrier(Barrier {
            kind,
            scope,
            id,
            operands,
            attrs,
            spaces: Vec::new(),
        }))
    }

    fn vulkan_instruction(&mut self, t: usize, base: &str, m: &Mnemonic) -> PResult<StmtKind> {
        match base {
            "ld" | "st" | "rmw" => {
                let op = match base {
                    "ld" => VkOp::Load,
                    "st" => VkOp::Store,
                    _ => VkOp::Rmw,
                };
                let q = m.vk_quals(op == VkOp::Rmw)?;
                let order = match (q.atom, q.order) {
                    (true, o) => o.unwrap_or(Order::Relaxed),
                    (false, None) => Order::Plain,
                    (false, Some(o)) => {
                        return Err(m.err(format!(
                            "{}: `.{}` needs `.atom`",
                            quote(m.word),
                            crate::dat3m::syntax::vk_order_name(o).unwrap_or("?")
                        )))
                    }
                };
                let attrs = q.attrs(order, q.scope);
                check_vulkan(op, &attrs).map_err(|e| m.cannot(&e))?;
                match op {
                    VkOp::Load => {
                        let dst = self.reg(t)?;
                        self.expect(",")?;
                        let loc = self.loc()?;
                        Ok(StmtKind::Load(Load {
                            dst,
                            addr: Expr::Addr(loc),
                            attrs,
                        }))
                    }
                    VkOp::Store => {
                        let loc = self.loc()?;
                        self.expect(",")?;
                        let value = self.value(t)?;
                        Ok(StmtKind::Store(Store {
                            addr: Expr::Addr(loc),
                            value,
                            attrs,
                        }))
                    }
                    _ => {
                        let op = q.op.unwrap_or(RmwOp::Exch);
                        let dst = self.reg(t)?;
                        self.expect(",")?;
                        let loc = self.loc()?;
                        let mut args = Vec::new();
                        for _ in 0..op.arity() {
                            self.expect(",")?;
                            args.push(self.value(t)?);
                        }
                        Ok(StmtKind::Rmw(Rmw {
                            dst: Some(dst),
                            addr: Expr::Addr(loc),
                            op,
                            args,
                            attrs,
                            fail_order: None,
                        }))
                    }
                }
            }
            "membar" | "cbar" => {
                let q = m.vk_quals(false)?;
                if q.atom {
                    return Err(m.err(format!("{}: `.atom` is for accesses", quote(m.word))));
                }
                let order = q.order.unwrap_or(Order::Plain);
                if base == "membar" {
                    let attrs = q.attrs(order, q.scope);
                    check_vulkan(VkOp::Membar, &attrs).map_err(|e| m.cannot(&e))?;
                    Ok(StmtKind::Fence(Fence {
                        kind: FenceKind::Fence,
                        attrs,
                        spaces: Vec::new(),
                    }))
                } else {
                    let scope = q.scope.ok_or_else(|| {
                        m.err(format!(
                            "{} needs a scope ({})",
                            quote(m.word),
                            Dialect::Vulkan.scope_list()
                        ))
                    })?;
                    let attrs = q.attrs(order, (order != Order::Plain).then_some(scope));
                    check_vulkan(VkOp::Cbar, &attrs).map_err(|e| m.cannot(&e))?;
                    self.barrier(t, BarrierKind::Sync, scope, attrs)
                }
            }
            "avdevice" | "visdevice" => {
                m.no_quals()?;
                Ok(StmtKind::Fence(Fence {
                    kind: if base == "avdevice" {
                        FenceKind::AvDevice
                    } else {
                        FenceKind::VisDevice
                    },
                    attrs: MemAttrs::default(),
                    spaces: Vec::new(),
                }))
            }
            _ => Err(m.err(format!(
                "unknown instruction {} in a Vulkan test",
                quote(m.word)
            ))),
        }
    }

    // ----- operands -----

    fn reg(&mut self, t: usize) -> PResult<Reg> {
        let (name, _) = self.register_name()?;
        Ok(self.declare_reg(t, &name))
    }

    /// A register or an integer constant.
    fn value(&mut self, t: usize) -> PResult<Expr> {
        match self.cur.peek() {
            Some(Token {
                tok: Tok::Ident(s), ..
            }) if is_register(s) => Ok(Expr::Reg(self.reg(t)?)),
            Some(Token {
                tok: Tok::Int(_), ..
            }) => Ok(Expr::Int(self.cur.int("an integer")?)),
            Some(p) if p.is_punct("-") => Ok(Expr::Int(self.cur.int("an integer")?)),
            _ => Err(self.cur.expected("a register or an integer")),
        }
    }

    /// A location; one used first in code is declared here with value 0 (Dat3M tests do
    /// this, e.g. Kronos-Group `test4`/`test5`).
    fn loc(&mut self) -> PResult<LocId> {
        let span = self.cur.span();
        if let Some(Token {
            tok: Tok::Ident(s), ..
        }) = self.cur.peek()
        {
            if !is_location_name(s) {
                return Err(err_at(span, bad_location_name(s)));
            }
            if let Some(l) = self.locs.get(s) {
                let l = *l;
                self.cur.bump();
                return Ok(l);
            }
        }
        let (name, _) = self.cur.ident("a location")?;
        if let Some(l) = self.locs.get(&name) {
            return Ok(*l);
        }
        let id = LocId(self.prog.locations.len() as u32);
        let mut loc = Location::scalar(name.clone(), 0);
        loc.span = span;
        self.prog.locations.push(loc);
        self.locs.insert(name, id);
        Ok(id)
    }

    fn label_ref(&mut self) -> PResult<String> {
        let span = self.cur.span();
        let (name, _) = self.cur.ident("a label")?;
        if !is_label_name(&name) {
            return Err(err_at(
                span,
                format!("{} is not a valid label", quote(&name)),
            ));
        }
        Ok(name)
    }
}

fn local_op(s: &str) -> Option<BinOp> {
    Some(match s {
        "add" => BinOp::Add,
        "sub" => BinOp::Sub,
        "mul" => BinOp::Mul,
        "div" => BinOp::Div,
        "and" => BinOp::And,
        "or" => BinOp::Or,
        "xor" => BinOp::Xor,
        _ => return None,
    })
}

/// A mnemonic split into its base and `.`-qualifiers, with its position for errors.
pub(super) struct Mnemonic<'a> {
    word: &'a str,
    quals: &'a [&'a str],
    span: Span,
}

/// PTX qualifiers: an order (`volatile` counts as one), a scope and an operation.
struct PtxQuals {
    order: Option<Order>,
    volatile: bool,
    scope: Option<Scope>,
    op: Option<RmwOp>,
}

/// Vulkan qualifiers.
#[derive(Default)]
struct VkQuals {
    atom: bool,
    order: Option<Order>,
    av: bool,
    vis: bool,
    nonpriv: bool,
    scope: Option<Scope>,
    sc: Option<u8>,
    semsc: Vec<u8>,
    semav: bool,
    semvis: bool,
    op: Option<RmwOp>,
}

impl VkQuals {
    fn attrs(&self, order: Order, scope: Option<Scope>) -> MemAttrs {
        let mut a = MemAttrs {
            order,
            scope,
            ..MemAttrs::default()
        };
        let mut classes = self.semsc.clone();
        classes.sort_unstable();
        a.vulkan.av = self.av;
        a.vulkan.vis = self.vis;
        a.vulkan.nonpriv = self.nonpriv;
        a.vulkan.storage_class = self.sc;
        a.vulkan.sem_classes = classes;
        a.vulkan.sem_av = self.semav;
        a.vulkan.sem_vis = self.semvis;
        a
    }
}

impl Mnemonic<'_> {
    fn err(&self, msg: impl Into<String>) -> ParseError {
        err_at(self.span, msg)
    }

    fn cannot(&self, why: &str) -> ParseError {
        self.err(format!("{}: not allowed: {why}", quote(self.word)))
    }

    fn no_quals(&self) -> PResult<()> {
        match self.quals.first() {
            None => Ok(()),
            Some(q) => Err(self.err(format!(
                "unknown qualifier {} in {}",
                quote(q),
                quote(self.word)
            ))),
        }
    }

    fn dup(&self, what: &str) -> ParseError {
        self.err(format!("more than one {what} in {}", quote(self.word)))
    }

    fn ptx_quals(&self, allow_op: bool) -> PResult<PtxQuals> {
        let mut q = PtxQuals {
            order: None,
            volatile: false,
            scope: None,
            op: None,
        };
        for s in self.quals {
            let order = match *s {
                "weak" => Some((Order::Plain, false)),
                "volatile" => Some((Order::Plain, true)),
                "relaxed" => Some((Order::Relaxed, false)),
                "acquire" => Some((Order::Acquire, false)),
                "release" => Some((Order::Release, false)),
                "acq_rel" => Some((Order::AcqRel, false)),
                "sc" => Some((Order::SeqCst, false)),
                _ => None,
            };
            if let Some((o, v)) = order {
                if q.order.is_some() {
                    return Err(self.dup("memory order"));
                }
                q.order = Some(o);
                q.volatile = v;
            } else if let Some(sc) = Dialect::Ptx.scope_by_name(s) {
                if q.scope.is_some() {
                    return Err(self.dup("scope"));
                }
                q.scope = Some(sc);
            } else if let Some(op) = RmwOp::from_name(s).filter(|_| allow_op) {
                if q.op.is_some() {
                    return Err(self.dup("operation"));
                }
                q.op = Some(op);
            } else {
                return Err(self.err(format!(
                    "unknown qualifier {} in {}: expected a memory order (weak, relaxed, acquire, release, acq_rel, sc, volatile){} or a scope (cta, gpu, sys)",
                    quote(s),
                    quote(self.word),
                    if allow_op { ", an operation (add, exch, cas, ...)" } else { "" }
                )));
            }
        }
        Ok(q)
    }

    fn vk_quals(&self, allow_op: bool) -> PResult<VkQuals> {
        let mut q = VkQuals::default();
        let flag = |b: &mut bool, what: &str| {
            if *b {
                Err(self.dup(what))
            } else {
                *b = true;
                Ok(())
            }
        };
        for s in self.quals {
            match *s {
                "atom" => flag(&mut q.atom, "`.atom`")?,
                "av" => flag(&mut q.av, "`.av`")?,
                "vis" => flag(&mut q.vis, "`.vis`")?,
                "nonpriv" => flag(&mut q.nonpriv, "`.nonpriv`")?,
                "semav" => flag(&mut q.semav, "`.semav`")?,
                "semvis" => flag(&mut q.semvis, "`.semvis`")?,
                "acq" | "rel" | "acq_rel" => {
                    if q.order.is_some() {
                        return Err(self.dup("memory order"));
                    }
                    q.order = Some(match *s {
                        "acq" => Order::Acquire,
                        "rel" => Order::Release,
                        _ => Order::AcqRel,
                    });
                }
                "semsc01" => {
                    for c in [0, 1] {
                        if q.semsc.contains(&c) {
                            return Err(self.dup(&format!("`.semsc{c}`")));
                        }
                        q.semsc.push(c);
                    }
                }
                _ => {
                    if let Some(sc) = Dialect::Vulkan.scope_by_name(s) {
                        if q.scope.is_some() {
                            return Err(self.dup("scope"));
                        }
                        q.scope = Some(sc);
                    } else if let Some(c) = s.strip_prefix("semsc").and_then(class_number) {
                        if q.semsc.contains(&c) {
                            return Err(self.dup(&format!("`.semsc{c}`")));
                        }
                        q.semsc.push(c);
                    } else if let Some(c) = s.strip_prefix("sc").and_then(class_number) {
                        if q.sc.is_some() {
                            return Err(self.dup("storage class"));
                        }
                        q.sc = Some(c);
                    } else if let Some(op) = RmwOp::from_name(s).filter(|_| allow_op) {
                        if q.op.is_some() {
                            return Err(self.dup("operation"));
                        }
                        q.op = Some(op);
                    } else {
                        return Err(self.err(format!(
                            "unknown qualifier {} in {}: expected atom, acq, rel, acq_rel, av, vis, nonpriv, a scope (sg, wg, qf, dv), scN, semscN, semav, semvis{}",
                            quote(s),
                            quote(self.word),
                            if allow_op { " or an operation (add, sub, ...)" } else { "" }
                        )));
                    }
                }
            }
        }
        Ok(q)
    }
}

impl PtxQuals {
    /// Annotations of `ld`/`st` and their proxy variants; a missing scope on a morally
    /// strong access is `.sys`, the PTX ISA default.
    fn access_attrs(&self, m: &Mnemonic, load: bool, proxy: Proxy) -> PResult<MemAttrs> {
        let order = self.order.unwrap_or(Order::Plain);
        let what = if load { "load" } else { "store" };
        let ok = match order {
            Order::Plain => true,
            Order::Relaxed => true,
            Order::Acquire => load,
            Order::Release => !load,
            _ => false,
        };
        if !ok {
            return Err(m.err(format!(
                "{}: a {what} cannot be `.{}`",
                quote(m.word),
                crate::dat3m::syntax::ptx_order_name(order, false).unwrap_or("?")
            )));
        }
        if order == Order::Plain && self.scope.is_some() {
            return Err(m.err(format!(
                "{}: `.{}` takes no scope",
                quote(m.word),
                if self.volatile { "volatile" } else { "weak" }
            )));
        }
        let mut a = MemAttrs::with_order(order);
        a.volatile = self.volatile;
        a.proxy = proxy;
        if order != Order::Plain {
            a.scope = Some(self.scope.unwrap_or(Scope::System));
        }
        check_ptx(if load { PtxOp::Load } else { PtxOp::Store }, &a).map_err(|e| m.cannot(&e))?;
        Ok(a)
    }
}

/// `fence.sc`/`fence.acq_rel` with a scope, or a proxy fence.
fn ptx_fence(m: &Mnemonic) -> PResult<StmtKind> {
    if m.quals.first() == Some(&"proxy") {
        let kind = match m.quals {
            [_, "alias"] => None,
            [_, k] => Some(
                Proxy::from_name(k)
                    .filter(|p| *p != Proxy::Generic)
                    .ok_or_else(|| {
                        m.err(format!(
                            "unknown proxy {} in {}: expected alias, surface, texture or constant",
                            quote(k),
                            quote(m.word)
                        ))
                    })?,
            ),
            _ => {
                return Err(m.err(format!(
                "malformed proxy fence {}: expected `fence.proxy.alias` or `fence.proxy.surface`",
                quote(m.word)
            )))
            }
        };
        return Ok(StmtKind::Fence(Fence {
            kind: FenceKind::ProxyFence(kind),
            attrs: MemAttrs::default(),
            spaces: Vec::new(),
        }));
    }
    let q = m.ptx_quals(false)?;
    let order = match (q.order, q.volatile) {
        (Some(o @ (Order::SeqCst | Order::AcqRel)), false) => o,
        _ => {
            return Err(m.err(format!(
                "{}: a fence is `fence.sc.<scope>` or `fence.acq_rel.<scope>`",
                quote(m.word)
            )))
        }
    };
    Ok(StmtKind::Fence(Fence {
        kind: FenceKind::Fence,
        attrs: MemAttrs::scoped(order, q.scope.unwrap_or(Scope::System)),
        spaces: Vec::new(),
    }))
}
