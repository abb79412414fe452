//! Syntax of C11/OpenCL litmus tests: the header, the initial state, thread headers
//! (placements, pointer parameters), C statements and expressions (as a surface tree that
//! [`super::lower`] turns into IR), and the final condition, which is resolved against the
//! lowered threads. Statements and expressions of a thread body are the `body` submodule.

use std::collections::{HashMap, HashSet, VecDeque};

use weft_ir::{
    Arch, BinOp, DataType, LocId, Location, MemSpace, Placement, Program, Scope, Span, Term,
    Thread, UnOp, Value,
};

use super::lexer::{self, Kind, Tok};
use super::lower::{self, Lowerer, RegInit};
use super::{is_reserved, Dialect, LEVELS, MAX_ARRAY, MAX_DEPTH, MAX_ITEMS, MAX_NAME};
use crate::diag::{quote, ParseError};

type R<T> = Result<T, ParseError>;

mod body;

/// A surface expression with the position of its first token and its tree depth.
#[derive(Clone, Debug)]
pub(super) struct SExpr<'a> {
    pub kind: SK<'a>,
    pub span: Span,
    pub depth: u32,
}

/// Surface expression forms.
#[derive(Clone, Debug)]
pub(super) enum SK<'a> {
    Int(i64),
    Name(&'a str),
    Un(UnOp, Box<SExpr<'a>>),
    Bin(BinOp, Box<SExpr<'a>>, Box<SExpr<'a>>),
    Deref(Box<SExpr<'a>>),
    Index(Box<SExpr<'a>>, Box<SExpr<'a>>),
    Call {
        name: &'a str,
        args: Vec<SExpr<'a>>,
        close: Span,
    },
}

impl<'a> SExpr<'a> {
    fn leaf(kind: SK<'a>, span: Span) -> Self {
        SExpr {
            kind,
            span,
            depth: 1,
        }
    }
}

/// Surface statements (blocks are flattened, `for` is already a `while`).
#[derive(Clone, Debug)]
pub(super) enum SStmt<'a> {
    Decl {
        ty: DataType,
        name: &'a str,
        span: Span,
        init: Option<SExpr<'a>>,
    },
    Assign {
        target: &'a str,
        span: Span,
        value: SExpr<'a>,
    },
    Store {
        target: SExpr<'a>,
        value: SExpr<'a>,
        span: Span,
    },
    Expr(SExpr<'a>),
    If {
        cond: SExpr<'a>,
        then: Vec<SStmt<'a>>,
        els: Vec<SStmt<'a>>,
        span: Span,
    },
    While {
        cond: SExpr<'a>,
        body: Vec<SStmt<'a>>,
        span: Span,
    },
    Label {
        name: &'a str,
        span: Span,
    },
    Return(Span),
}

/// A pointer parameter as written.
#[derive(Clone, Debug)]
pub(super) struct SParam<'a> {
    pub name: &'a str,
    pub span: Span,
    pub space: Option<MemSpace>,
    pub atomic: bool,
    pub volatile: bool,
    pub base: &'static str,
}

/// A C type: `int`, `atomic_uint`, `unsigned long`...
#[derive(Clone, Copy, Debug)]
struct CType {
    base: &'static str,
    ty: DataType,
    atomic: bool,
}

/// The OpenCL spelling of a base type and its IR type.
pub(super) fn base_type(base: &str) -> Option<DataType> {
    Some(match base {
        "int" => DataType::S32,
        "uint" => DataType::U32,
        "long" => DataType::S64,
        "ulong" => DataType::U64,
        _ => return None,
    })
}

/// Tokens the parser may look ahead.
const LOOKAHEAD: usize = 3;

struct Parser<'a> {
    lex: lexer::Lexer<'a>,
    /// The next tokens (at least [`LOOKAHEAD`] unless the input ends first).
    buf: VecDeque<Tok<'a>>,
    /// Where the input ends (or where the lexer failed).
    end: (u32, u32),
    /// A lexer error met while filling `buf`: the token stream stops there.
    lex_err: Option<ParseError>,
    done: bool,
    /// Locations by name.
    locs: HashMap<String, LocId>,
    /// Items the test may still add (see [`MAX_ITEMS`]).
    budget: usize,
    /// Syntax nodes (statements, expression nodes, declarations) still allowed.
    work: usize,
    /// Per thread, after lowering: what `T:name` in the condition denotes.
    cond_names: Vec<HashMap<String, CondName>>,
    dialect: Dialect,
    /// Current nesting of statement lists (branches, loop bodies, blocks).
    stmt_nest: u32,
    /// Current parenthesis/unary recursion inside one expression or proposition.
    expr_nest: u32,
}

/// Parses a whole test.
pub(super) fn parse(src: &str) -> R<Program> {
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    // Header: skip blank lines, then `C`/`OPENCL` and the name (first word on that line).
    let mut line = 1u32;
    let mut rest = src;
    loop {
        let t = rest.trim_start_matches([' ', '\t', '\r']);
        if let Some(r) = t.strip_prefix('\n') {
            rest = r;
            line = line.saturating_add(1);
        } else {
            break;
        }
    }
    let lead = rest.len() - rest.trim_start_matches([' ', '\t', '\r']).len();
    let col0 = u32::try_from(lead).unwrap_or(u32::MAX).saturating_add(1);
    rest = &rest[lead..];
    let word_len = rest
        .bytes()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
        .count();
    let word = &rest[..word_len];
    let dialect = match word.to_ascii_uppercase().as_str() {
        "C" => Dialect::C,
        "OPENCL" => Dialect::OpenCl,
        "" => {
            return Err(ParseError::new(
                line,
                col0,
                "expected a litmus header `C name` or `OPENCL name`",
            ))
        }
        _ => {
            return Err(ParseError::new(
                line,
                col0,
                format!(
                    "expected a litmus header `C name` or `OPENCL name`, found {}",
                    quote(word)
                ),
            ))
        }
    };
    rest = &rest[word_len..];
    let mut col = col0.saturating_add(u32::try_from(word_len).unwrap_or(u32::MAX));
    if rest.starts_with(|c: char| !c.is_whitespace()) {
        return Err(ParseError::new(
            line,
            col,
            "expected a space between the architecture and the test name",
        ));
    }
    let sp = rest.len() - rest.trim_start_matches([' ', '\t', '\r']).len();
    rest = &rest[sp..];
    col = col.saturating_add(u32::try_from(sp).unwrap_or(u32::MAX));
    let name_len = rest
        .bytes()
        .take(MAX_NAME + 1)
        .position(|c| c.is_ascii_whitespace())
        .unwrap_or(rest.len().min(MAX_NAME + 1));
    if name_len > MAX_NAME {
        return Err(ParseError::new(
            line,
            col,
            format!("test name longer than {MAX_NAME} bytes"),
        ));
    }
    let name = rest[..name_len].to_string();
    let name_chars = name.bytes().filter(|c| c & 0xC0 != 0x80).count();
    col = col.saturating_add(u32::try_from(name_chars).unwrap_or(u32::MAX));
    rest = &rest[name_len..];
    let mut p = Parser {
        lex: lexer::Lexer::new(rest, line, col),
        buf: VecDeque::with_capacity(LOOKAHEAD + 1),
        end: (line, col),
        lex_err: None,
        done: false,
        locs: HashMap::new(),
        budget: MAX_ITEMS,
        work: 4 * MAX_ITEMS,
        cond_names: Vec::new(),
        dialect,
        stmt_nest: 0,
        expr_nest: 0,
    };
    p.fill();
    let res = p.program(name);
    match (res, p.lex_err.take()) {
        // The parser stopped where the lexer did, or went past it: the lexer's error is
        // the real one.
        (Err(e), Some(le)) if (e.line, e.col) >= (le.line, le.col) => Err(le),
        (Ok(_), Some(le)) => Err(le),
        (r, _) => r,
    }
}

/// `P<n>` thread names.
fn thread_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix('P')?;
    if digits.is_empty()
        || !digits.bytes().all(|c| c.is_ascii_digit())
        || digits.len() > 6
        || (digits.len() > 1 && digits.starts_with('0'))
    {
        return None;
    }
    digits.parse().ok()
}

fn is_type_word(s: &str) -> bool {
    matches!(
        s,
        "int"
            | "uint"
            | "long"
            | "ulong"
            | "unsigned"
            | "signed"
            | "atomic_int"
            | "atomic_uint"
            | "atomic_long"
            | "atomic_ulong"
    )
}

impl<'a> Parser<'a> {
    // ---- cursor ----

    fn fill(&mut self) {
        while self.buf.len() < LOOKAHEAD && !self.done {
            match self.lex.next_tok() {
                Ok(Some(t)) => self.buf.push_back(t),
                Ok(None) => {
                    self.done = true;
                    self.end = self.lex.position();
                }
                Err(e) => {
                    self.done = true;
                    self.end = (e.line, e.col);
                    self.lex_err = Some(e);
                }
            }
        }
    }

    /// Consumes `n` tokens.
    fn advance(&mut self, n: usize) {
        for _ in 0..n {
            self.buf.pop_front();
        }
        self.fill();
    }

    fn peek(&self) -> Option<&Tok<'a>> {
        self.buf.front()
    }

    fn peek_at(&self, k: usize) -> Option<&Tok<'a>> {
        self.buf.get(k)
    }

    fn here(&self) -> Span {
        match self.peek() {
            Some(t) => t.span(),
            None => Span::new(self.end.0, self.end.1),
        }
    }

    fn err(&self, msg: impl Into<String>) -> ParseError {
        ParseError::at(self.here(), msg)
    }

    fn expected(&self, what: &str) -> ParseError {
        match self.peek() {
            Some(t) => self.err(format!("expected {what}, found {}", t.describe())),
            None => self.err(format!("expected {what}, found end of input")),
        }
    }

    fn at(&self, p: &str) -> bool {
        self.peek().is_some_and(|t| t.is(p))
    }

    fn at_ident(&self, s: &str) -> bool {
        self.peek().is_some_and(|t| t.is_ident(s))
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.at(p) {
            self.advance(1);
            true
        } else {
            false
        }
    }

    fn eat_ident(&mut self, s: &str) -> bool {
        if self.at_ident(s) {
            self.advance(1);
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> R<Span> {
        if self.at(p) {
            let s = self.here();
            self.advance(1);
            Ok(s)
        } else {
            Err(self.expected(&format!("`{p}`")))
        }
    }

    fn ident(&mut self, what: &str) -> R<(&'a str, Span)> {
        match self.peek() {
            Some(t) if t.kind == Kind::Ident => {
                let r = (t.text, t.span());
                self.advance(1);
                Ok(r)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// A name for a new location, parameter, register or label.
    fn new_name(&mut self, what: &str) -> R<(&'a str, Span)> {
        let (n, s) = self.ident(what)?;
        if is_reserved(n) {
            return Err(ParseError::at(
                s,
                format!("{} is a reserved word and cannot name a {what}", quote(n)),
            ));
        }
        Ok((n, s))
    }

    fn int(&mut self, what: &str) -> R<i64> {
        let neg = self.at("-");
        let k = usize::from(neg);
        match self.peek_at(k).map(|t| t.kind) {
            Some(Kind::Int(n)) => {
                self.advance(k + 1);
                Ok(if neg { n.wrapping_neg() } else { n })
            }
            _ => Err(self.expected(what)),
        }
    }

    fn small(&mut self, what: &str) -> R<u32> {
        let s = self.here();
        let n = self.int(what)?;
        u32::try_from(n).map_err(|_| ParseError::at(s, format!("{what} out of range: {n}")))
    }

    fn charge(&mut self, span: Span) -> R<()> {
        if self.budget == 0 {
            return Err(ParseError::at(
                span,
                format!(
                    "test too large: more than {MAX_ITEMS} statements, registers, locations, threads and condition terms"
                ),
            ));
        }
        self.budget -= 1;
        Ok(())
    }

    /// Counts one syntax node (a statement, expression node, parameter, initialiser).
    fn work(&mut self) -> R<()> {
        if self.work == 0 {
            return Err(self.err(format!(
                "test too large: more than {} statements and expression nodes",
                4 * MAX_ITEMS
            )));
        }
        self.work -= 1;
        Ok(())
    }

    fn enter_stmt(&mut self) -> R<()> {
        if self.stmt_nest >= MAX_DEPTH {
            return Err(self.err(format!(
                "statements nested too deeply (more than {MAX_DEPTH} levels)"
            )));
        }
        self.stmt_nest += 1;
        Ok(())
    }

    fn enter_expr(&mut self) -> R<()> {
        if self.expr_nest >= MAX_DEPTH {
            return Err(self.err(format!(
                "expression nested too deeply (more than {MAX_DEPTH} levels)"
            )));
        }
        self.expr_nest += 1;
        Ok(())
    }

    fn opencl_only(&self, span: Span, what: &str) -> R<()> {
        if self.dialect == Dialect::C {
            Err(ParseError::at(
                span,
                format!("{what} is OpenCL-only; this is a C test (use an `OPENCL` header)"),
            ))
        } else {
            Ok(())
        }
    }

    // ---- program ----

    fn program(&mut self, name: String) -> R<Program> {
        let arch = match self.dialect {
            Dialect::C => Arch::C,
            Dialect::OpenCl => Arch::OpenCl,
        };
        let mut prog = Program::new(arch, name);
        while let Some(t) = self.peek() {
            if t.kind != Kind::Str {
                break;
            }
            prog.doc.push(t.text.to_string());
            self.advance(1);
        }
        let mut inits = Vec::new();
        if self.at("{") {
            self.init_block(&mut prog, &mut inits)?;
        }
        let mut by_thread: HashMap<usize, Vec<RegInit>> = HashMap::new();
        for r in inits {
            by_thread.entry(r.thread).or_default().push(r);
        }
        let mut index = 0usize;
        while let Some(t) = self.peek().copied() {
            if t.is_ident("exists")
                || t.is_ident("forall")
                || t.is_ident("locations")
                || t.is_ident("filter")
                || t.is("~")
            {
                break;
            }
            match t.ident().and_then(thread_number) {
                Some(n) if n == index => {}
                Some(_) => {
                    return Err(ParseError::at(
                        t.span(),
                        format!(
                            "expected thread `P{index}`, found {} (threads are numbered in order)",
                            t.describe()
                        ),
                    ))
                }
                None => {
                    return Err(self.expected(if index == 0 {
                        "an initial state `{ ... }` or a thread `P0`"
                    } else {
                        "a thread or a final condition (`exists`, `~exists`, `forall`)"
                    }))
                }
            }
            let mine = by_thread.remove(&index).unwrap_or_default();
            self.charge(t.span())?;
            let thread = self.thread(&mut prog, t, mine)?;
            prog.threads.push(thread);
            index += 1;
        }
        self.cond_names = prog
            .threads
            .iter()
            .map(|t| {
                let mut m: HashMap<String, CondName> = t
                    .params
                    .iter()
                    .map(|p| (p.name.clone(), CondName::Param(p.loc)))
                    .collect();
                for (i, r) in t.regs.iter().enumerate() {
                    if !r.temp {
                        m.insert(r.name.clone(), CondName::Reg(weft_ir::Reg(i as u32)));
                    }
                }
                m
            })
            .collect();
        if let Some(r) = by_thread
            .values()
            .flatten()
            .min_by_key(|r| (r.span.line, r.span.col))
        {
            return Err(ParseError::at(
                r.span,
                format!(
                    "initial value for a register of thread {}, which does not exist",
                    r.thread
                ),
            ));
        }
        self.final_part(&mut prog)?;
        if let Some(t) = self.peek() {
            return Err(ParseError::at(
                t.span(),
                format!("unexpected {} after the final condition", t.describe()),
            ));
        }
        Ok(prog)
    }

    // ---- initial state ----

    fn value(&mut self, pending: &mut Vec<(&'a str, Span)>) -> R<ValueSrc> {
        if self.eat("&") {
            let (n, s) = self.ident("a location name after `&`")?;
            pending.push((n, s));
            return Ok(ValueSrc::Addr(pending.len() - 1));
        }
        if let Some(t) = self.peek() {
            if t.kind == Kind::Ident {
                let (n, s) = (t.text, t.span());
                self.advance(1);
                pending.push((n, s));
                return Ok(ValueSrc::Addr(pending.len() - 1));
            }
        }
        Ok(ValueSrc::Int(self.int("an initial value")?))
    }

    fn init_block(&mut self, prog: &mut Program, inits: &mut Vec<RegInit>) -> R<()> {
        self.expect("{")?;
        let mut pending: Vec<(&'a str, Span)> = Vec::new();
        let mut reg_seen: HashSet<(usize, &'a str)> = HashSet::new();
        // (location, value) and (register init index, value) to resolve at the end.
        let mut loc_vals: Vec<(usize, ValueSrc)> = Vec::new();
        let mut reg_vals: Vec<(usize, ValueSrc)> = Vec::new();
        loop {
            if self.eat("}") {
                break;
            }
            self.work()?;
            if self.eat(";") {
                continue;
            }
            let t = match self.peek().copied() {
                Some(t) => t,
                None => return Err(self.expected("`}` closing the initial state")),
            };
            // Register initialiser: `0:r0=1` or `P0:r0=1`.
            let thread = match t.kind {
                Kind::Int(n) if self.peek_at(1).is_some_and(|t| t.is(":")) => Some(n),
                Kind::Ident if self.peek_at(1).is_some_and(|t| t.is(":")) => {
                    match thread_number(t.text) {
                        Some(n) => Some(n as i64),
                        None => return Err(self.expected("a location or `0:reg=value`")),
                    }
                }
                _ => None,
            };
            if let Some(n) = thread {
                let thread = usize::try_from(n)
                    .ok()
                    .filter(|n| *n < 1_000_000)
                    .ok_or_else(|| self.err(format!("bad thread number {n}")))?;
                self.advance(2);
                let (name, span) = self.new_name("register")?;
                self.charge(span)?;
                if !reg_seen.insert((thread, name)) {
                    return Err(ParseError::at(
                        span,
                        format!("register {}:{} initialised twice", thread, name),
                    ));
                }
                self.expect("=")?;
                let v = self.value(&mut pending)?;
                inits.push(RegInit {
                    thread,
                    name: name.to_string(),
                    span,
                    value: Value::Int(0),
                });
                reg_vals.push((inits.len() - 1, v));
            } else {
                let ty = self.ctype()?;
                let bracket = ty.is_none() && self.eat("[");
                let (name, span) = self.new_name("location")?;
                if bracket {
                    self.expect("]")?;
                }
                if self.locs.contains_key(name) {
                    return Err(ParseError::at(
                        span,
                        format!("location {} declared twice", quote(name)),
                    ));
                }
                self.charge(span)?;
                self.locs
                    .insert(name.to_string(), LocId(prog.locations.len() as u32));
                let mut loc = Location::scalar(name, 0);
                loc.span = span;
                if let Some(ct) = ty {
                    loc.ty = Some(ct.ty);
                    loc.atomic = ct.atomic;
                }
                let mut is_array = false;
                if ty.is_some() && self.eat("[") {
                    let s = self.here();
                    let n = self.small("an array size")?;
                    if n == 0 || n > MAX_ARRAY {
                        return Err(ParseError::at(
                            s,
                            format!("array size must be between 1 and {MAX_ARRAY}"),
                        ));
                    }
                    self.expect("]")?;
                    loc.size = n;
                    is_array = true;
                }
                let idx = prog.locations.len();
                prog.locations.push(loc);
                if is_array {
                    if self.eat("=") {
                        self.array_init(prog, idx)?;
                    }
                } else if ty.is_some() {
                    if self.eat("=") {
                        let v = self.value(&mut pending)?;
                        loc_vals.push((idx, v));
                    }
                } else {
                    self.expect("=")?;
                    let v = self.value(&mut pending)?;
                    loc_vals.push((idx, v));
                }
            }
            if !self.at("}") {
                self.expect(";")?;
            }
        }
        let locs = &self.locs;
        let resolve = |_: &Program, v: &ValueSrc| -> R<Value> {
            match v {
                ValueSrc::Int(n) => Ok(Value::Int(*n)),
                ValueSrc::Addr(k) => {
                    let (n, s) = pending[*k];
                    locs.get(n).copied().map(Value::Addr).ok_or_else(|| {
                        ParseError::at(s, format!("undeclared location {}", quote(n)))
                    })
                }
            }
        };
        for (idx, v) in &loc_vals {
            let val = resolve(prog, v)?;
            prog.locations[*idx].init = val;
        }
        for (k, v) in &reg_vals {
            let val = resolve(prog, v)?;
            inits[*k].value = val;
        }
        Ok(())
    }

    /// An array's initialiser `{v, v, ...}` after its `=`: every element starts with the
    /// same value (or the rest are zero).
    fn array_init(&mut self, prog: &mut Program, idx: usize) -> R<()> {
        let open = self.expect("{")?;
        let mut vals = Vec::new();
        loop {
            self.work()?;
            let s = self.here();
            vals.push((self.int("an array element value")?, s));
            if !self.eat(",") {
                break;
            }
            if self.at("}") {
                break;
            }
        }
        self.expect("}")?;
        let size = prog.locations[idx].size as usize;
        if vals.len() > size {
            return Err(ParseError::at(
                vals[size].1,
                format!("too many initial values for an array of {size}"),
            ));
        }
        let first = vals[0].0;
        let uniform = vals.iter().all(|(v, _)| *v == first) && (vals.len() == size || first == 0);
        if !uniform {
            return Err(ParseError::at(
                                open,
                                "array elements must all start with the same value (weft stores one initial value per location)",
                            ));
        }
        prog.locations[idx].init = Value::Int(first);
        Ok(())
    }

    /// An optional C type; returns `None` (consuming nothing) when no type starts here.
    fn ctype(&mut self) -> R<Option<CType>> {
        let Some(t) = self.peek().copied() else {
            return Ok(None);
        };
        let Some(w) = t.ident() else { return Ok(None) };
        if !is_type_word(w) {
            return Ok(None);
        }
        self.advance(1);
        let (base, atomic): (&'static str, bool) = match w {
            "int" => ("int", false),
            "uint" => ("uint", false),
            "long" => {
                self.eat_ident("int");
                ("long", false)
            }
            "ulong" => ("ulong", false),
            "atomic_int" => ("int", true),
            "atomic_uint" => ("uint", true),
            "atomic_long" => ("long", true),
            "atomic_ulong" => ("ulong", true),
            "signed" => {
                if self.eat_ident("long") {
                    self.eat_ident("int");
                    ("long", false)
                } else {
                    self.eat_ident("int");
                    ("int", false)
                }
            }
            _ => {
                // unsigned [int] | unsigned long [int]
                if self.eat_ident("long") {
                    self.eat_ident("int");
                    ("ulong", false)
                } else {
                    self.eat_ident("int");
                    ("uint", false)
                }
            }
        };
        let ty = base_type(base).unwrap_or(DataType::S32);
        Ok(Some(CType { base, ty, atomic }))
    }

    // ---- threads ----

    fn thread(&mut self, prog: &mut Program, name_tok: Tok<'a>, inits: Vec<RegInit>) -> R<Thread> {
        self.advance(1);
        let mut levels: Vec<(Scope, u32)> = Vec::new();
        if self.at("@") {
            self.opencl_only(self.here(), "a thread placement (`@wg 0, dev 0`)")?;
            self.advance(1);
            loop {
                let (w, s) = self.ident("a placement level (`sg`, `wg` or `dev`)")?;
                let scope = LEVELS
                    .iter()
                    .find(|(n, _)| *n == w)
                    .map(|(_, sc)| *sc)
                    .ok_or_else(|| {
                        ParseError::at(
                            s,
                            format!(
                                "unknown placement level {}: expected `sg`, `wg` or `dev`",
                                quote(w)
                            ),
                        )
                    })?;
                if levels.iter().any(|(l, _)| *l == scope) {
                    return Err(ParseError::at(
                        s,
                        format!("placement level {} given twice", quote(w)),
                    ));
                }
                let id = self.small("an instance number")?;
                levels.push((scope, id));
                if !self.eat(",") {
                    break;
                }
            }
            levels.sort_by_key(|(s, _)| *s);
        }
        self.expect("(")?;
        let mut params: Vec<SParam<'a>> = Vec::new();
        let mut param_names: HashSet<&'a str> = HashSet::new();
        if self.at_ident("void") && self.peek_at(1).is_some_and(|t| t.is(")")) {
            self.advance(1);
        }
        if !self.eat(")") {
            loop {
                let p = self.param()?;
                if !param_names.insert(p.name) {
                    return Err(ParseError::at(
                        p.span,
                        format!("parameter {} declared twice", quote(p.name)),
                    ));
                }
                params.push(p);
                if self.eat(")") {
                    break;
                }
                if !self.at(",") {
                    return Err(self.expected("`,` or `)` after a parameter"));
                }
                self.advance(1);
            }
        }
        let header = lower::Header {
            name: name_tok.text,
            placement: Placement::new(levels),
            params,
            inits,
        };
        let mut low = Lowerer::new(prog, &mut self.locs, self.budget, self.dialect, header)?;
        self.expect("{")?;
        // Statements are lowered as they come; from the first one holding a `return`,
        // the rest of the body is collected and restructured as a whole.
        let mut rest: Option<Vec<SStmt<'a>>> = None;
        loop {
            if self.eat("}") {
                break;
            }
            if self.peek().is_none() {
                return Err(self.expected(&format!("`}}` closing thread {}", name_tok.text)));
            }
            if let Some(t) = self.peek().copied() {
                let next_thread = t.ident().and_then(thread_number).is_some()
                    && self.peek_at(1).is_some_and(|n| n.is("(") || n.is("@"));
                let condition = t.is_ident("exists")
                    || t.is_ident("forall")
                    || t.is_ident("locations")
                    || t.is_ident("filter")
                    || (t.is("~") && self.peek_at(1).is_some_and(|n| n.is_ident("exists")));
                if next_thread || condition {
                    return Err(ParseError::at(
                        t.span(),
                        format!(
                            "expected `}}` closing thread {} before {}",
                            name_tok.text,
                            if condition {
                                "the final condition"
                            } else {
                                "the next thread"
                            }
                        ),
                    ));
                }
            }
            let mut items = Vec::new();
            self.stmt(&mut items)?;
            match &mut rest {
                Some(r) => {
                    low.charge(lower::size(&items), self.here())?;
                    r.extend(items);
                }
                None if items.iter().any(lower::has_return) => {
                    low.charge(lower::size(&items), self.here())?;
                    rest = Some(items);
                }
                None => low.lower(&items)?,
            }
        }
        if let Some(r) = rest {
            low.lower_with_returns(r)?;
        }
        let (thread, budget) = low.finish();
        self.budget = budget;
        Ok(thread)
    }

    fn param(&mut self) -> R<SParam<'a>> {
        self.work()?;
        let (mut volatile, mut space) = (false, None);
        while let Some(t) = self.peek().copied() {
            match t.ident() {
                Some("volatile") => volatile = true,
                Some("const") => {}
                Some("global" | "__global") => {
                    self.opencl_only(t.span(), "the address space `global`")?;
                    space = Some(MemSpace::Global);
                }
                Some("local" | "__local") => {
                    self.opencl_only(t.span(), "the address space `local`")?;
                    space = Some(MemSpace::Shared);
                }
                _ => break,
            }
            self.advance(1);
        }
        let ty = match self.ctype()? {
            Some(t) => t,
            None => return Err(self.expected("a parameter type such as `atomic_int*`")),
        };
        while self.eat_ident("volatile") {
            volatile = true;
        }
        if !self.eat("*") {
            return Err(self.expected("`*`: parameters are pointers (`int* x`)"));
        }
        if self.at("*") {
            return Err(self.err("pointers to pointers are not supported"));
        }
        let (name, span) = self.new_name("parameter")?;
        Ok(SParam {
            name,
            span,
            space,
            atomic: ty.atomic,
            volatile,
            base: ty.base,
        })
    }

    // ---- final condition ----

    fn final_part(&mut self, prog: &mut Program) -> R<()> {
        let mut view = CondView { p: self, prog };
        let f = crate::cond::final_part(&mut view, &COND)?;
        prog.observed = f.observed;
        prog.filter = f.filter;
        prog.condition = f.condition;
        Ok(())
    }

    fn loc_term(&mut self, prog: &Program, name: &str, span: Span) -> R<Term> {
        let loc =
            self.locs.get(name).copied().ok_or_else(|| {
                ParseError::at(span, format!("undeclared location {}", quote(name)))
            })?;
        self.mem_index(prog, loc)
    }

    fn mem_index(&mut self, prog: &Program, loc: LocId) -> R<Term> {
        let mut index = 0u32;
        if self.at("[") {
            self.advance(1);
            let s = self.here();
            index = self.small("an element index")?;
            self.expect("]")?;
            let size = prog.locations.get(loc.index()).map_or(1, |l| l.size);
            if index >= size {
                return Err(ParseError::at(
                    s,
                    format!("index {index} out of bounds (size {size})"),
                ));
            }
        }
        Ok(Term::Mem { loc, index })
    }

    fn term(&mut self, prog: &Program) -> R<Term> {
        let Some(t) = self.peek().copied() else {
            return Err(self.expected("a register, location or value"));
        };
        self.charge(t.span())?;
        let thread = match t.kind {
            Kind::Int(n) if self.peek_at(1).is_some_and(|t| t.is(":")) => Some(
                usize::try_from(n)
                    .ok()
                    .filter(|i| *i < prog.threads.len())
                    .ok_or_else(|| {
                        ParseError::at(t.span(), format!("no thread {n} in this test"))
                    })?,
            ),
            Kind::Ident if self.peek_at(1).is_some_and(|t| t.is(":")) => Some(
                thread_number(t.text)
                    .filter(|i| *i < prog.threads.len())
                    .ok_or_else(|| {
                        ParseError::at(t.span(), format!("no thread {}", quote(t.text)))
                    })?,
            ),
            _ => None,
        };
        if let Some(ti) = thread {
            self.advance(2);
            let (name, span) = self.ident("a register name")?;
            match self.cond_names.get(ti).and_then(|m| m.get(name)).copied() {
                Some(CondName::Reg(reg)) => return Ok(Term::Reg { thread: ti, reg }),
                // `0:x` with `x` a pointer parameter: the location it points to.
                Some(CondName::Param(loc)) => return self.mem_index(prog, loc),
                None => {
                    return Err(ParseError::at(
                        span,
                        format!("thread P{ti} has no register {}", quote(name)),
                    ))
                }
            }
        }
        match t.kind {
            Kind::Int(_) => Ok(Term::Int(self.int("a value")?)),
            Kind::Punct("-") => Ok(Term::Int(self.int("a value")?)),
            Kind::Punct("&") => {
                self.advance(1);
                let (name, span) = self.ident("a location name after `&`")?;
                self.locs.get(name).copied().map(Term::Addr).ok_or_else(|| {
                    ParseError::at(span, format!("undeclared location {}", quote(name)))
                })
            }
            Kind::Punct("[") => {
                self.advance(1);
                let (name, span) = self.ident("a location name")?;
                let term = self.loc_term(prog, name, span)?;
                self.expect("]")?;
                Ok(term)
            }
            Kind::Ident => {
                self.advance(1);
                self.loc_term(prog, t.text, t.span())
            }
            _ => Err(self.expected("a register, location or value")),
        }
    }
}

/// C's condition spellings and limits for the shared condition parser.
const COND: crate::cond::Dialect = crate::cond::Dialect {
    max_nest: MAX_DEPTH as usize,
    max_depth: MAX_DEPTH as usize,
    cmp_hint: "`=`, `!=`, `<`, ...",
    not_word: false,
    bang: true,
};

/// The parser and the program built so far, as the shared condition parser sees them.
struct CondView<'p, 'a> {
    p: &'p mut Parser<'a>,
    prog: &'p Program,
}

impl crate::cond::CondSyntax for CondView<'_, '_> {
    fn is_punct(&self, k: usize, p: &str) -> bool {
        self.p.peek_at(k).is_some_and(|t| t.is(p))
    }

    fn is_word(&self, k: usize, w: &str) -> bool {
        self.p.peek_at(k).is_some_and(|t| t.is_ident(w))
    }

    fn is_end(&self, k: usize) -> bool {
        self.p.peek_at(k).is_none()
    }

    fn bump(&mut self) {
        self.p.advance(1);
    }

    fn here(&self) -> Span {
        self.p.here()
    }

    fn expected(&self, what: &str) -> ParseError {
        self.p.expected(what)
    }

    fn term(&mut self, _rhs: bool) -> R<Term> {
        self.p.work()?;
        self.p.term(self.prog)
    }
}

/// What `T:name` in a condition names.
#[derive(Clone, Copy, Debug)]
enum CondName {
    Reg(weft_ir::Reg),
    Param(LocId),
}

/// An initial value before location names are resolved.
enum ValueSrc {
    Int(i64),
    /// Index into the pending names.
    Addr(usize),
}

/// Builds `a op b`, checking the tree depth.
pub(super) fn mk_bin<'a>(op: BinOp, a: SExpr<'a>, b: SExpr<'a>, at: Span) -> R<SExpr<'a>> {
    let depth = a.depth.max(b.depth) + 1;
    if depth > MAX_DEPTH {
        return Err(ParseError::at(
            at,
            format!("expression nested too deeply (more than {MAX_DEPTH} levels)"),
        ));
    }
    let span = a.span;
    Ok(SExpr {
        kind: SK::Bin(op, Box::new(a), Box::new(b)),
        span,
        depth,
    })
}
