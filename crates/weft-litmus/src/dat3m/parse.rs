//! The parser of Dat3M's PTX and Vulkan column programs: header and doc strings, the init
//! block, Vulkan's `ssw` block, the thread row, one row of cells per step, and the final
//! `locations`/`filter`/condition part. Every error carries the position of the token it
//! is about; nothing here indexes or unwraps input-derived data, and every recursion is
//! bounded, so no input can make it panic or overflow the stack. One cell's instruction
//! (mnemonic, qualifiers, operands) is read by the `instr` submodule.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use weft_ir::{
    Alias, LocId, Location, Placement, Program, Proxy, Reg, RegDecl, Scope, Span, StmtKind, Term,
    Thread, ThreadRelation, Value,
};

use super::syntax::{is_location_name, is_register, thread_number, Dialect};
use crate::diag::{quote, ParseError};
use crate::lex::{tokenize, LexOptions, Tok, Token};

mod instr;

/// How deeply parentheses and negations may nest in a condition.
const MAX_NEST: usize = 200;
/// How deep a condition's tree may be (a chain of `n` conjuncts is `n` deep); keeps every
/// later recursive walk over the condition (drop, equality, printing) within the stack.
const MAX_PROP_DEPTH: usize = 2000;
/// How many aliases may stand between a location and the memory it names.
const MAX_ALIAS_CHAIN: usize = 64;

/// Parses a Dat3M PTX or Vulkan litmus test (the dialect comes from the header).
pub(crate) fn parse(src: &str) -> Result<Program, ParseError> {
    let h = header(src)?;
    let pre = preamble(src, &h)?;
    let rest = src.get(pre.offset..).unwrap_or("");
    let opts = LexOptions {
        dotted_idents: true,
        percent_idents: false,
        line_comments: true,
    };
    let toks = tokenize(rest, pre.line, pre.col, opts)?;
    let mut prog = Program::new(h.dialect.arch(), h.name);
    prog.doc = pre.docs;
    let mut p = Parser {
        d: h.dialect,
        cur: Toks {
            toks,
            pos: 0,
            end: end_pos(src),
        },
        prog,
        locs: FastMap::default(),
        regs: Vec::new(),
        threads: FastMap::default(),
        init_regs: Vec::new(),
        ssw: Vec::new(),
        labels: Vec::new(),
    };
    p.program()?;
    Ok(p.prog)
}

#[derive(Debug)]
struct Header {
    dialect: Dialect,
    name: String,
    /// Byte offset of the text after the name.
    offset: usize,
    line: u32,
    col: u32,
}

/// Reads `PTX name` / `VULKAN name` by hand: test names hold characters (`+`, `-`) that
/// the tokenizer would split.
fn header(src: &str) -> Result<Header, ParseError> {
    let b = src.as_bytes();
    let mut i = if src.starts_with('\u{feff}') { 3 } else { 0 };
    let (mut line, mut col) = (1u32, 1u32);
    while let Some(&c) = b.get(i) {
        if !c.is_ascii_whitespace() {
            break;
        }
        if c == b'\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
        i += 1;
    }
    let (wl, wc) = (line, col);
    let start = i;
    while b
        .get(i)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    {
        i += 1;
    }
    let word = src.get(start..i).unwrap_or("");
    col += (i - start) as u32;
    let dialect = match word.to_ascii_uppercase().as_str() {
        "PTX" => Dialect::Ptx,
        "VULKAN" => Dialect::Vulkan,
        "" => {
            return Err(ParseError::new(
                wl,
                wc,
                "empty file: expected a header such as `PTX name` or `VULKAN name`",
            ))
        }
        _ => {
            return Err(ParseError::new(
                wl,
                wc,
                format!("expected `PTX` or `VULKAN`, found {}", quote(word)),
            ))
        }
    };
    while b.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
        i += 1;
        col += 1;
    }
    let name_start = i;
    while b
        .get(i)
        .is_some_and(|c| !c.is_ascii_whitespace() && *c != b'"' && *c != b'{')
    {
        i += 1;
    }
    let name = src.get(name_start..i).unwrap_or("");
    if name.is_empty() {
        return Err(ParseError::new(
            line,
            col,
            format!("expected a test name after `{word}`"),
        ));
    }
    if let Some((k, c)) = name
        .char_indices()
        .find(|(_, c)| c.is_control() || c.is_whitespace())
    {
        let at = col + name[..k].chars().count() as u32;
        return Err(ParseError::new(
            line,
            at,
            format!("test name contains the character {c:?}"),
        ));
    }
    col += name.chars().count() as u32;
    Ok(Header {
        dialect,
        name: name.to_string(),
        offset: i,
        line,
        col,
    })
}

struct Preamble {
    docs: Vec<String>,
    /// Byte offset, line and column of the init block's `{` (or of the end of input).
    offset: usize,
    line: u32,
    col: u32,
}

/// The doc strings between the name and the init block. Dat3M skips everything before the
/// first `{`, and some tests quote inside their doc strings (`"... is "enforced" by the"`),
/// so the text is read raw: when its quotes pair up into strings separated by blanks, each
/// string is one doc entry; otherwise the whole text, if it starts and ends with a quote,
/// is one entry holding everything between those two quotes (which prints back as the
/// same bytes).
pub(crate) fn split_docs(text: &str) -> Result<Vec<String>, DocError> {
    let mut docs = Vec::new();
    let mut open: Option<usize> = None;
    let mut junk: Option<usize> = None;
    for (i, c) in text.char_indices() {
        match (open, c) {
            (None, '"') => open = Some(i + 1),
            (None, c) if c.is_whitespace() => {}
            (None, _) => {
                junk = Some(i);
                break;
            }
            (Some(s), '"') => {
                docs.push(text.get(s..i).unwrap_or("").to_string());
                open = None;
            }
            (Some(_), _) => {}
        }
    }
    if junk.is_none() && open.is_none() {
        return Ok(docs);
    }
    let t = text.trim();
    if t.len() >= 2 && t.starts_with('"') && t.ends_with('"') {
        return Ok(vec![t.get(1..t.len() - 1).unwrap_or("").to_string()]);
    }
    Err(match (junk, open) {
        (Some(j), _) => DocError::Junk(j),
        (None, Some(o)) => DocError::Unclosed(o.saturating_sub(1)),
        (None, None) => DocError::Junk(0),
    })
}

/// Why a preamble is not a sequence of doc strings: stray text at a byte offset, or a
/// quote (at a byte offset) that is never closed.
pub(crate) enum DocError {
    Junk(usize),
    Unclosed(usize),
}

fn preamble(src: &str, h: &Header) -> Result<Preamble, ParseError> {
    let rest = src.get(h.offset..).unwrap_or("");
    let brace = rest.find('{');
    let text = rest.get(..brace.unwrap_or(rest.len())).unwrap_or("");
    // Line and column of a byte offset into `text`.
    let pos = |off: usize| {
        let before = text.get(..off).unwrap_or("");
        let nl = before.matches('\n').count() as u32;
        match before.rfind('\n') {
            Some(k) => (
                h.line + nl,
                before.get(k + 1..).unwrap_or("").chars().count() as u32 + 1,
            ),
            None => (h.line, h.col + before.chars().count() as u32),
        }
    };
    let docs = split_docs(text).map_err(|e| match e {
        DocError::Junk(j) => {
            let (l, c) = pos(j);
            let found: String = text
                .get(j..)
                .unwrap_or("")
                .chars()
                .take_while(|c| !c.is_whitespace())
                .collect();
            ParseError::new(
                l,
                c,
                format!(
                    "expected a quoted doc string or the init block `{{`, found {}",
                    quote(&found)
                ),
            )
        }
        DocError::Unclosed(o) => {
            let (l, c) = pos(o);
            ParseError::new(
                l,
                c,
                "unterminated doc string (no closing `\"` before the init block)",
            )
        }
    })?;
    let (line, col) = pos(text.len());
    Ok(Preamble {
        docs,
        offset: h.offset + text.len(),
        line,
        col,
    })
}

/// The position just after the last non-blank character: where "end of input" points.
fn end_pos(src: &str) -> (u32, u32) {
    let t = src.trim_end();
    let line = t.bytes().filter(|c| *c == b'\n').count() as u32 + 1;
    let last = t.rfind('\n').map(|k| k + 1).unwrap_or(0);
    let mut col = t.get(last..).unwrap_or("").chars().count() as u32 + 1;
    if line == 1 && t.starts_with('\u{feff}') {
        col -= 1;
    }
    (line, col.max(1))
}

struct InitReg {
    thread: String,
    span: Span,
    reg: String,
    value: Value,
}

struct Parser {
    d: Dialect,
    cur: Toks,
    prog: Program,
    locs: FastMap<String, LocId>,
    /// Register names of each thread.
    regs: Vec<FastMap<String, Reg>>,
    threads: FastMap<String, usize>,
    /// Register initialisations, applied once the thread row is read.
    init_regs: Vec<InitReg>,
    /// `ssw a b` declarations, resolved once the thread row is read.
    ssw: Vec<(Span, u32, u32)>,
    /// Labels defined in each thread.
    labels: Vec<FastSet<String>>,
}

type PResult<T> = Result<T, ParseError>;

/// FxHash-style hashing for the name tables (names are short; SipHash dominated the time
/// of 10 MB inputs). Not DoS-resistant, which is fine for a parse that ends with the input.
#[derive(Default)]
struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        // MurmurHash3's finaliser: every input bit reaches the low bits the table uses.
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
}

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;
type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

/// A cursor over the tokens that moves names out instead of cloning them.
struct Toks {
    toks: Vec<Token>,
    pos: usize,
    /// Position reported for "end of input".
    end: (u32, u32),
}

impl Toks {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    fn peek_at(&self, k: usize) -> Option<&Token> {
        self.toks.get(self.pos.saturating_add(k))
    }

    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    fn bump(&mut self) {
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
    }

    /// Takes the next token (its text moves out).
    fn take(&mut self) -> Option<Token> {
        let t = self.toks.get_mut(self.pos).map(|t| Token {
            tok: std::mem::replace(&mut t.tok, Tok::Punct("")),
            line: t.line,
            col: t.col,
        });
        self.bump();
        t
    }

    fn span(&self) -> Span {
        let (l, c) = self.peek().map(|t| (t.line, t.col)).unwrap_or(self.end);
        Span::new(l, c)
    }

    fn error(&self, msg: impl Into<String>) -> ParseError {
        err_at(self.span(), msg)
    }

    /// "expected X, found Y" at the next token.
    fn expected(&self, what: &str) -> ParseError {
        match self.peek() {
            Some(t) => self.error(format!("expected {what}, found {}", t.describe())),
            None => self.error(format!("expected {what}, found end of input")),
        }
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        let hit = self.peek().is_some_and(|t| t.is_punct(p));
        if hit {
            self.bump();
        }
        hit
    }

    fn eat_ident(&mut self, s: &str) -> bool {
        let hit = self.peek().is_some_and(|t| t.is_ident(s));
        if hit {
            self.bump();
        }
        hit
    }

    fn expect_punct(&mut self, p: &str) -> PResult<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{p}`")))
        }
    }

    /// The next token if it is an identifier.
    fn ident(&mut self, what: &str) -> PResult<(String, Span)> {
        let span = self.span();
        match self.peek() {
            Some(Token {
                tok: Tok::Ident(_), ..
            }) => match self.take() {
                Some(Token {
                    tok: Tok::Ident(s), ..
                }) => Ok((s, span)),
                _ => Err(err_at(span, format!("expected {what}"))),
            },
            _ => Err(self.expected(what)),
        }
    }

    /// An integer, with an optional leading minus sign.
    fn int(&mut self, what: &str) -> PResult<i64> {
        let neg = self.peek().is_some_and(|t| t.is_punct("-"));
        let k = usize::from(neg);
        match self.peek_at(k) {
            Some(Token {
                tok: Tok::Int(n), ..
            }) => {
                let n = *n;
                self.pos += k + 1;
                Ok(if neg { n.wrapping_neg() } else { n })
            }
            _ => Err(self.expected(what)),
        }
    }
}

fn err_at(span: Span, msg: impl Into<String>) -> ParseError {
    ParseError::at(span, msg)
}

impl Parser {
    fn program(&mut self) -> PResult<()> {
        self.init_block()?;
        if self.d == Dialect::Vulkan && self.peek_punct("{") {
            self.ssw_block()?;
        }
        self.thread_row()?;
        self.apply_init_regs()?;
        self.resolve_ssw()?;
        self.rows()?;
        self.check_labels()?;
        self.final_part()
    }

    // ----- small token helpers -----

    fn peek_punct(&self, p: &str) -> bool {
        self.cur.peek().is_some_and(|t| t.is_punct(p))
    }

    fn expect(&mut self, p: &str) -> PResult<()> {
        self.cur.expect_punct(p)
    }

    /// A non-negative number that fits in `u32`.
    fn small_int(&mut self, what: &str) -> PResult<u32> {
        let span = self.cur.span();
        let n = self.cur.int(what)?;
        u32::try_from(n).map_err(|_| err_at(span, format!("{what}: {n} is out of range")))
    }

    // ----- init block -----

    fn init_block(&mut self) -> PResult<()> {
        if !self.peek_punct("{") {
            return Err(self.cur.expected("the init block `{`"));
        }
        self.cur.bump();
        let mut aliases: Vec<(LocId, String, Span)> = Vec::new();
        let mut addrs: Vec<(Target, String, Span)> = Vec::new();
        let mut seen_regs: FastSet<(String, String)> = FastSet::default();
        loop {
            if self.cur.eat_punct("}") {
                break;
            }
            self.init_entry(&mut aliases, &mut addrs, &mut seen_regs)?;
            if self.cur.eat_punct(";") || self.peek_punct("}") {
                continue;
            }
            return Err(self.cur.expected("`;` or `}`"));
        }
        self.cur.eat_punct(";");
        for (target, name, span) in addrs {
            let l = *self.locs.get(&name).ok_or_else(|| {
                err_at(
                    span,
                    format!(
                        "unknown location {} (declare it in this block)",
                        quote(&name)
                    ),
                )
            })?;
            match target {
                Target::Loc(id) => {
                    if let Some(loc) = self.prog.locations.get_mut(id.index()) {
                        loc.init = Value::Addr(l);
                    }
                }
                Target::Reg(k) => {
                    if let Some(r) = self.init_regs.get_mut(k) {
                        r.value = Value::Addr(l);
                    }
                }
            }
        }
        for (id, name, span) in &aliases {
            let of = *self.locs.get(name).ok_or_else(|| {
                err_at(
                    *span,
                    format!("{} aliases an unknown location", quote(name)),
                )
            })?;
            if let Some(Some(a)) = self
                .prog
                .locations
                .get_mut(id.index())
                .map(|l| l.alias.as_mut())
            {
                a.of = of;
            }
        }
        // Alias chains must end (and stay short, which keeps every later walk along them
        // cheap); an alias starts with the value of the memory it names.
        for (id, _, span) in &aliases {
            let mut cur = *id;
            let mut steps = 0;
            while let Some(a) = self
                .prog
                .locations
                .get(cur.index())
                .and_then(|l| l.alias.as_ref())
            {
                cur = a.of;
                steps += 1;
                if cur == *id || steps > MAX_ALIAS_CHAIN {
                    let name = self.prog.loc(*id).name.clone();
                    let what = if cur == *id {
                        "alias cycle through"
                    } else {
                        "alias chain longer than 64 (or a cycle) from"
                    };
                    return Err(err_at(*span, format!("{what} {}", quote(&name))));
                }
            }
            let init = self
                .prog
                .locations
                .get(cur.index())
                .map(|l| l.init)
                .unwrap_or_default();
            if let Some(l) = self.prog.locations.get_mut(id.index()) {
                l.init = init;
            }
        }
        Ok(())
    }

    fn init_entry(
        &mut self,
        aliases: &mut Vec<(LocId, String, Span)>,
        addrs: &mut Vec<(Target, String, Span)>,
        seen_regs: &mut FastSet<(String, String)>,
    ) -> PResult<()> {
        let colon_next = self.cur.peek_at(1).is_some_and(|t| t.is_punct(":"));
        let span = self.cur.span();
        let (is_ident, is_int) = match self.cur.peek().map(|t| &t.tok) {
            Some(Tok::Ident(_)) => (true, false),
            Some(Tok::Int(_)) => (false, true),
            _ => (false, false),
        };
        match () {
            _ if (is_ident || is_int) && colon_next => {
                let thread = self.thread_ref()?;
                self.expect(":")?;
                let (reg, _) = self.register_name()?;
                self.expect("=")?;
                if !seen_regs.insert((thread.clone(), reg.clone())) {
                    return Err(err_at(
                        span,
                        format!("register {} of {thread} initialised twice", quote(&reg)),
                    ));
                }
                let value = self.init_value(Target::Reg(self.init_regs.len()), addrs)?;
                self.init_regs.push(InitReg {
                    thread,
                    span,
                    reg,
                    value,
                });
                Ok(())
            }
            _ if is_ident => {
                let (name, _) = self.cur.ident("a location")?;
                if !is_location_name(&name) {
                    return Err(err_at(span, bad_location_name(&name)));
                }
                if self.locs.contains_key(&name) {
                    return Err(err_at(
                        span,
                        format!("location {} declared twice", quote(&name)),
                    ));
                }
                let id = LocId(self.prog.locations.len() as u32);
                let mut loc = Location::scalar(name.clone(), 0);
                loc.span = span;
                if self.cur.eat_punct("=") {
                    loc.init = self.init_value(Target::Loc(id), addrs)?;
                } else {
                    let proxy = if self.cur.eat_punct("@") {
                        let (p, pspan) = self
                            .cur
                            .ident("a proxy (generic, surface, texture, constant)")?;
                        if self.d == Dialect::Vulkan {
                            return Err(err_at(pspan, "proxies exist only in PTX tests"));
                        }
                        Some(Proxy::from_name(&p).ok_or_else(|| {
                            err_at(
                                pspan,
                                format!(
                                    "unknown proxy {}: expected generic, surface, texture or constant",
                                    quote(&p)
                                ),
                            )
                        })?)
                    } else {
                        None
                    };
                    if !self.cur.eat_ident("aliases") {
                        return Err(self.cur.expected("`=` or `aliases`"));
                    }
                    let (target, tspan) = self.cur.ident("the aliased location")?;
                    aliases.push((id, target, tspan));
                    loc.alias = Some(Alias { of: id, proxy });
                }
                self.locs.insert(name, id);
                self.prog.locations.push(loc);
                Ok(())
            }
            _ => Err(self
                .cur
                .expected("an initialisation such as `x=0` or `P0:r0=0`")),
        }
    }

    /// `5`, `-1`, `x` or `&x` (the address of a location).
    fn init_value(
        &mut self,
        target: Target,
        addrs: &mut Vec<(Target, String, Span)>,
    ) -> PResult<Value> {
        let amp = self.cur.eat_punct("&");
        if amp
            || matches!(
                self.cur.peek(),
                Some(Token {
                    tok: Tok::Ident(_),
                    ..
                })
            )
        {
            let (name, span) = self.cur.ident("a location")?;
            addrs.push((target, name, span));
            return Ok(Value::Int(0));
        }
        Ok(Value::Int(self.cur.int("an integer or a location")?))
    }

    /// `P1` or `1` before `:`; returns the canonical name `P1`.
    fn thread_ref(&mut self) -> PResult<String> {
        let span = self.cur.span();
        match self.cur.take() {
            Some(Token {
                tok: Tok::Ident(s), ..
            }) => {
                if thread_number(&s).is_none() {
                    return Err(err_at(
                        span,
                        format!("expected a thread such as `P0`, found {}", quote(&s)),
                    ));
                }
                Ok(s)
            }
            Some(Token {
                tok: Tok::Int(n), ..
            }) => u32::try_from(n)
                .map(|n| format!("P{n}"))
                .map_err(|_| err_at(span, format!("thread number {n} is out of range"))),
            _ => Err(err_at(span, "expected a thread such as `P0`")),
        }
    }

    fn register_name(&mut self) -> PResult<(String, Span)> {
        match self.cur.peek() {
            Some(Token {
                tok: Tok::Ident(s), ..
            }) if is_register(s) => self.cur.ident("a register"),
            _ => Err(self.cur.expected("a register such as `r0`")),
        }
    }

    // ----- ssw block (Vulkan) -----

    fn ssw_block(&mut self) -> PResult<()> {
        self.expect("{")?;
        loop {
            if self.cur.eat_punct("}") {
                break;
            }
            let span = self.cur.span();
            if !self.cur.eat_ident("ssw") {
                return Err(self.cur.expected("`ssw P P` or `}`"));
            }
            let a = self.small_int("a thread number")?;
            let b = self.small_int("a thread number")?;
            self.ssw.push((span, a, b));
            if self.cur.eat_punct(";") || self.peek_punct("}") {
                continue;
            }
            return Err(self.cur.expected("`;` or `}`"));
        }
        self.cur.eat_punct(";");
        Ok(())
    }

    fn resolve_ssw(&mut self) -> PResult<()> {
        for (span, a, b) in std::mem::take(&mut self.ssw) {
            let find = |n: u32| {
                self.threads.get(&format!("P{n}")).copied().ok_or_else(|| {
                    err_at(span, format!("ssw names thread P{n}, which the test lacks"))
                })
            };
            let (from, to) = (find(a)?, find(b)?);
            self.prog.relations.push(ThreadRelation {
                name: "ssw".into(),
                from,
                to,
            });
        }
        Ok(())
    }

    // ----- threads -----

    fn thread_row(&mut self) -> PResult<()> {
        let example = self.d.thread_example();
        loop {
            let (name, span) = match self.cur.peek() {
                Some(Token {
                    tok: Tok::Ident(_), ..
                }) => self.cur.ident("a thread")?,
                _ => return Err(self.cur.expected(&format!("a thread such as {example}"))),
            };
            if thread_number(&name).is_none() {
                return Err(err_at(
                    span,
                    format!(
                        "expected a thread such as {example}, found {}",
                        quote(&name)
                    ),
                ));
            }
            if self.threads.contains_key(&name) {
                return Err(err_at(span, format!("thread {name} declared twice")));
            }
            self.expect("@")?;
            let mut levels: Vec<(Scope, u32)> = Vec::new();
            loop {
                let (s, sspan) = self
                    .cur
                    .ident(&format!("a scope level ({})", self.d.scope_list()))?;
                let scope = self.d.scope_by_name(&s).ok_or_else(|| {
                    err_at(
                        sspan,
                        format!(
                            "unknown scope level {}: expected one of {}",
                            quote(&s),
                            self.d.scope_list()
                        ),
                    )
                })?;
                let id = self.small_int("an instance number")?;
                if levels.last().is_some_and(|(prev, _)| *prev >= scope) {
                    return Err(err_at(
                        sspan,
                        "placement levels must go from the innermost to the outermost, each once",
                    ));
                }
                levels.push((scope, id));
                if !self.cur.eat_punct(",") {
                    break;
                }
            }
            if self.d == Dialect::Vulkan {
                // Dat3M's grammar: `P0@sg N,wg N,qf N` (and optionally `,dv N`).
                let missing: Vec<&str> = [
                    (Scope::Warp, "sg"),
                    (Scope::Cta, "wg"),
                    (Scope::QueueFamily, "qf"),
                ]
                .iter()
                .filter(|(s, _)| !levels.iter().any(|(l, _)| l == s))
                .map(|(_, n)| *n)
                .collect();
                if !missing.is_empty() {
                    return Err(self.cur.error(format!(
                        "thread {name} lacks the placement column{} {}: a Vulkan thread is declared as {}",
                        plural(missing.len()),
                        missing
                            .iter()
                            .map(|m| format!("`{m} N`"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        self.d.thread_example()
                    )));
                }
            }
            let mut t = Thread::new(name.clone());
            t.placement = Placement::new(levels);
            self.threads.insert(name, self.prog.threads.len());
            self.prog.threads.push(t);
            self.regs.push(FastMap::default());
            self.labels.push(FastSet::default());
            if self.cur.eat_punct("|") {
                continue;
            }
            if self.cur.eat_punct(";") {
                return Ok(());
            }
            return Err(self.cur.expected("`,`, `|` or `;`"));
        }
    }

    fn apply_init_regs(&mut self) -> PResult<()> {
        for r in std::mem::take(&mut self.init_regs) {
            let t = *self
                .threads
                .get(&r.thread)
                .ok_or_else(|| err_at(r.span, format!("thread {} is not in the test", r.thread)))?;
            let reg = self.declare_reg(t, &r.reg);
            if let Some(d) = self
                .prog
                .threads
                .get_mut(t)
                .and_then(|th| th.regs.get_mut(reg.index()))
            {
                d.init = Some(r.value);
            }
        }
        Ok(())
    }

    fn declare_reg(&mut self, t: usize, name: &str) -> Reg {
        let (Some(map), Some(th)) = (self.regs.get_mut(t), self.prog.threads.get_mut(t)) else {
            return Reg(0);
        };
        if let Some(r) = map.get(name) {
            return *r;
        }
        let r = Reg(th.regs.len() as u32);
        th.regs.push(RegDecl::named(name));
        map.insert(name.to_string(), r);
        r
    }

    // ----- rows -----

    fn at_final_part(&self) -> bool {
        match self.cur.peek() {
            Some(t) if t.is_punct("~") => true,
            Some(Token {
                tok: Tok::Ident(s), ..
            }) => {
                matches!(
                    s.as_str(),
                    "exists" | "forall" | "filter" | "locations" | "final"
                ) || (s == "not" && self.cur.peek_at(1).is_some_and(|t| t.is_ident("exists")))
            }
            _ => false,
        }
    }

    fn rows(&mut self) -> PResult<()> {
        let n = self.prog.threads.len();
        while !self.cur.at_end() && !self.at_final_part() {
            let mut cell = 0usize;
            loop {
                if !self.peek_punct("|") && !self.peek_punct(";") {
                    let stmt = self.instruction(cell)?;
                    if let Some(th) = self.prog.threads.get_mut(cell) {
                        th.code.push(stmt);
                    }
                }
                let sep = self.cur.span();
                if self.cur.eat_punct("|") {
                    cell += 1;
                    if cell >= n {
                        return Err(err_at(
                            sep,
                            format!(
                                "too many cells in this row: the test has {n} thread{}",
                                plural(n)
                            ),
                        ));
                    }
                    continue;
                }
                if self.cur.eat_punct(";") {
                    if cell + 1 != n {
                        return Err(err_at(
                            sep,
                            format!(
                                "this row has {} cell{} but the test has {n} threads",
                                cell + 1,
                                plural(cell + 1)
                            ),
                        ));
                    }
                    break;
                }
                return Err(self.cur.expected("`|` or `;` after the instruction"));
            }
        }
        Ok(())
    }

    fn check_labels(&self) -> PResult<()> {
        for (t, th) in self.prog.threads.iter().enumerate() {
            for s in &th.code {
                if let StmtKind::Jump { target, .. } = &s.kind {
                    if !self.labels.get(t).is_some_and(|l| l.contains(target)) {
                        return Err(err_at(
                            s.span,
                            format!(
                                "jump to {}, which {} does not define",
                                quote(target),
                                th.name
                            ),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    // ----- final part: locations, filter, condition -----

    fn final_part(&mut self) -> PResult<()> {
        let f = crate::cond::final_part(self, &COND)?;
        self.prog.observed = f.observed;
        self.prog.filter = f.filter;
        self.prog.condition = f.condition;
        if !self.cur.at_end() {
            return Err(self.cur.expected(if self.prog.condition.is_some() {
                "end of input after the condition"
            } else {
                "`exists`, `~exists` or `forall`"
            }));
        }
        Ok(())
    }

    /// `P1:r0`, `1:r0`, `x`, `x[0]`, `[x]` or an integer.
    fn term(&mut self) -> PResult<Term> {
        let span = self.cur.span();
        let colon_next = self.cur.peek_at(1).is_some_and(|t| t.is_punct(":"));
        match self.cur.peek() {
            Some(Token {
                tok: Tok::Ident(_) | Tok::Int(_),
                ..
            }) if colon_next => {
                let thread = self.thread_ref()?;
                self.expect(":")?;
                let (reg, rspan) = self.register_name()?;
                let t = *self
                    .threads
                    .get(&thread)
                    .ok_or_else(|| err_at(span, format!("thread {thread} is not in the test")))?;
                let r = self
                    .regs
                    .get(t)
                    .and_then(|m| m.get(&reg))
                    .copied()
                    .ok_or_else(|| {
                        err_at(
                            rspan,
                            format!(
                                "register {} of {thread} is never used or initialised",
                                quote(&reg)
                            ),
                        )
                    })?;
                Ok(Term::Reg { thread: t, reg: r })
            }
            Some(Token {
                tok: Tok::Int(_), ..
            }) => Ok(Term::Int(self.cur.int("an integer")?)),
            Some(p) if p.is_punct("-") => Ok(Term::Int(self.cur.int("an integer")?)),
            Some(p) if p.is_punct("[") => {
                self.cur.bump();
                let loc = self.known_loc()?;
                self.expect("]")?;
                Ok(Term::Mem { loc, index: 0 })
            }
            Some(Token {
                tok: Tok::Ident(_), ..
            }) => {
                let loc = self.known_loc()?;
                let index = if self.cur.eat_punct("[") {
                    let i = self.small_int("an index")?;
                    self.expect("]")?;
                    i
                } else {
                    0
                };
                Ok(Term::Mem { loc, index })
            }
            _ => Err(self
                .cur
                .expected("a register such as `P0:r0`, a location or an integer")),
        }
    }

    /// A location the init block or the code declared.
    fn known_loc(&mut self) -> PResult<LocId> {
        let span = self.cur.span();
        let (name, _) = self.cur.ident("a location")?;
        if is_register(&name) {
            return Err(err_at(
                span,
                format!(
                    "register {} needs its thread, as in `P0:{name}`",
                    quote(&name)
                ),
            ));
        }
        self.locs.get(&name).copied().ok_or_else(|| {
            err_at(
                span,
                format!(
                    "unknown location {}: it is neither initialised nor used by any thread",
                    quote(&name)
                ),
            )
        })
    }
}

/// Dat3M's condition spellings and limits for the shared condition parser.
const COND: crate::cond::Dialect = crate::cond::Dialect {
    max_nest: MAX_NEST,
    max_depth: MAX_PROP_DEPTH,
    cmp_hint: "`==`, `!=`, `<`, ...",
    not_word: true,
    bang: false,
};

impl crate::cond::CondSyntax for Parser {
    fn is_punct(&self, k: usize, p: &str) -> bool {
        self.cur.peek_at(k).is_some_and(|t| t.is_punct(p))
    }

    fn is_word(&self, k: usize, w: &str) -> bool {
        self.cur.peek_at(k).is_some_and(|t| t.is_ident(w))
    }

    fn is_end(&self, k: usize) -> bool {
        self.cur.peek_at(k).is_none()
    }

    fn bump(&mut self) {
        self.cur.bump();
    }

    fn here(&self) -> Span {
        self.cur.span()
    }

    fn expected(&self, what: &str) -> ParseError {
        self.cur.expected(what)
    }

    fn term(&mut self, _rhs: bool) -> PResult<Term> {
        Parser::term(self)
    }
}

#[derive(Clone, Copy)]
enum Target {
    Loc(LocId),
    /// Index into `Parser::init_regs`.
    Reg(usize),
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn bad_location_name(name: &str) -> String {
    if is_register(name) {
        format!("expected a location, found register {}", quote(name))
    } else {
        format!("{} is not a valid location name", quote(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_positions() {
        let h = header("\n  PTX foo+bar \"doc\"\n{").unwrap();
        assert_eq!(
            (h.dialect, h.name.as_str(), h.line, h.col),
            (Dialect::Ptx, "foo+bar", 2, 14)
        );
        let e = header("ARM x").unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        let e = header("PTX\n{").unwrap_err();
        assert_eq!((e.line, e.col), (1, 4));
    }

    #[test]
    fn doc_strings() {
        let ok = |t: &str| split_docs(t).ok();
        assert_eq!(
            ok(" \"a\"\n \"b c\" "),
            Some(vec!["a".into(), "b c".into()])
        );
        assert_eq!(ok(""), Some(vec![]));
        // Quotes inside a doc string (Kronos-Group `corr`): one verbatim entry.
        assert_eq!(
            ok("\"x is \"enforced\" by\"\n\"more\""),
            Some(vec!["x is \"enforced\" by\"\n\"more".into()])
        );
        // A quoted phrase at a line end inside a multi-line string (MICRO24-Fig4b-correct).
        assert_eq!(
            ok("\"\nmeans \"No, but\"\n\"\n"),
            Some(vec!["\nmeans \"No, but\"\n".into()])
        );
        assert!(matches!(split_docs("\"a\" junk"), Err(DocError::Junk(4))));
        assert!(matches!(split_docs(" \"open"), Err(DocError::Unclosed(1))));
    }

    #[test]
    fn end_position_skips_trailing_blanks() {
        assert_eq!(end_pos("ab\ncd  \n\n"), (2, 3));
        assert_eq!(end_pos(""), (1, 1));
    }
}
