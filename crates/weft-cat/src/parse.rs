//! The cat parser: tokens to a [`Model`], resolving `include`s through a [`Resolver`].
//!
//! Grammar and precedence follow the herd manual (§"Expressions", §"Instructions",
//! §"Models"): infix operators from loosest to tightest are `|`, `++`, `;`, `\`, `&`, `*`
//! (cartesian product); all are right-associative except `\` (left) and `*` (non-assoc.);
//! application (juxtaposition) binds tighter than infix operators and looser than postfix
//! `+ * ? ^-1`; prefix `~` binds tighter than infix operators. `*` after an operand is the
//! cartesian product when an operand follows it, and the reflexive-transitive closure
//! otherwise. A model starts with an optional header of words and strings (its name).
//!
//! The parser never panics: nesting is bounded by [`MAX_NESTING`], include depth by
//! [`MAX_INCLUDE_DEPTH`], and every error carries file:line:col.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::ast::*;
use crate::error::{CatError, ErrorKind, SourceFile};
use crate::lex::{tokenize, Keyword, Tok, Token};

/// Deepest nesting of parenthesised / bracketed / bodied expressions and instruction blocks.
pub const MAX_NESTING: usize = 64;
/// Longest chain of files including each other.
pub const MAX_INCLUDE_DEPTH: usize = 32;
/// Most prefix or postfix operators stacked on one operand.
const MAX_STACKED_OPS: usize = 64;

/// Finds the text of files named by `include "name"`.
pub trait Resolver {
    /// Resolves `include "name"` met in the file called `from`: returns a canonical name for
    /// the file (used for cycle detection and in error positions) and its text, or a reason.
    fn resolve(&mut self, name: &str, from: &str) -> Result<(String, String), String>;
}

/// A closure from an include name to the file's text (`None`: not found); the include name
/// is the canonical name. Names it does not know fall back to [`builtin_library`].
impl<F: FnMut(&str) -> Option<String>> Resolver for F {
    fn resolve(&mut self, name: &str, _from: &str) -> Result<(String, String), String> {
        match self(name) {
            Some(text) => Ok((name.to_string(), text)),
            None => builtin(name).ok_or_else(|| "no such file".to_string()),
        }
    }
}

/// A resolver that only knows the [`builtin_library`] files.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoIncludes;

impl Resolver for NoIncludes {
    fn resolve(&mut self, name: &str, _from: &str) -> Result<(String, String), String> {
        builtin(name).ok_or_else(|| "includes are not enabled for this model".to_string())
    }
}

/// Resolves includes on the file system: next to the including file, then in each
/// directory of the search path, then among the [`builtin_library`] files.
#[derive(Clone, Debug, Default)]
pub struct FsResolver {
    /// Directories searched after the including file's own directory.
    pub search_path: Vec<PathBuf>,
}

impl Resolver for FsResolver {
    fn resolve(&mut self, name: &str, from: &str) -> Result<(String, String), String> {
        let path = Path::new(name);
        let mut candidates = Vec::new();
        if path.is_absolute() {
            candidates.push(path.to_path_buf());
        } else {
            if let Some(dir) = Path::new(from).parent() {
                candidates.push(dir.join(path));
            }
            candidates.extend(self.search_path.iter().map(|d| d.join(path)));
        }
        for c in &candidates {
            if c.is_file() {
                let canon = c.canonicalize().unwrap_or_else(|_| c.clone());
                let text = std::fs::read_to_string(&canon)
                    .map_err(|e| format!("cannot read {}: {e}", canon.display()))?;
                return Ok((canon.display().to_string(), text));
            }
        }
        builtin(name).ok_or_else(|| {
            let searched: Vec<String> =
                candidates.iter().map(|c| c.display().to_string()).collect();
            format!("not found (searched {})", searched.join(", "))
        })
    }
}

/// The herd library files weft provides itself: `stdlib.cat` and `cos.cat`. Their
/// definitions (`po-loc`, `rfe`, `fr`, `coe`, ...) are built into the interpreter, so the
/// files only carry a header; models that include them parse and run unchanged.
pub fn builtin_library(name: &str) -> Option<&'static str> {
    match name {
        "stdlib.cat" => Some(
            "\"weft stdlib\"\n(* po-loc, rfe, rfi, fencerel, ... are built into weft-cat. *)\n",
        ),
        "cos.cat" => Some(
            "\"weft cos\"\n(* co is part of weft's candidate executions; fr, coi, coe, fri, fre are built in. *)\n",
        ),
        _ => None,
    }
}

fn builtin(name: &str) -> Option<(String, String)> {
    builtin_library(name).map(|t| (format!("<builtin>/{name}"), t.to_string()))
}

impl Model {
    /// Parses a model from text; `include`s may only name [`builtin_library`] files.
    pub fn parse(name: &str, text: &str) -> Result<Model, CatError> {
        parse_model(name, text, &mut NoIncludes)
    }

    /// Parses a model from text, resolving `include`s with `resolver`.
    pub fn parse_with(
        name: &str,
        text: &str,
        resolver: &mut dyn Resolver,
    ) -> Result<Model, CatError> {
        parse_model(name, text, resolver)
    }

    /// Reads and parses the model file at `path`, resolving includes next to it, then in
    /// `search_path`, then among the built-in library files.
    pub fn load(path: &Path, search_path: &[PathBuf]) -> Result<Model, CatError> {
        let canon = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        let text = std::fs::read_to_string(&canon).map_err(|e| {
            CatError::new(
                ErrorKind::Include,
                format!("cannot read {}: {e}", path.display()),
            )
        })?;
        let mut r = FsResolver {
            search_path: search_path.to_vec(),
        };
        parse_model(&canon.display().to_string(), &text, &mut r)
    }
}

/// Parses the model `text`, reported as file `name`, resolving includes with `resolver`.
pub fn parse_model(name: &str, text: &str, resolver: &mut dyn Resolver) -> Result<Model, CatError> {
    let mut ctx = Ctx {
        files: vec![SourceFile::new(name, text)],
        symbols: Symbols::default(),
        stack: vec![name.to_string()],
        done: HashSet::from([name.to_string()]),
        resolver,
        warnings: Vec::new(),
    };
    let toks = tokenize(&ctx.files[0])?;
    let mut p = Parser {
        ctx: &mut ctx,
        toks,
        pos: 0,
        file: 0,
        depth: 0,
    };
    let header = p.header();
    let instrs = p.instructions().map_err(|e| *e)?;
    p.expect_eof().map_err(|e| *e)?;
    let mut model = Model {
        name: header.first().cloned(),
        header,
        instrs,
        files: ctx.files,
        symbols: ctx.symbols,
        warnings: ctx.warnings,
        prunable: Default::default(),
        static_bindings: Default::default(),
        bounded: Default::default(),
        interval: Default::default(),
        binders: Vec::new(),
    };
    model.binders = crate::ast::binders(&model.instrs, model.symbols.len());
    model.prunable = crate::monotone::prunable_checks(&model);
    model.static_bindings = crate::monotone::static_bindings(&model);
    model.bounded = crate::monotone::bounded_checks(&model);
    model.interval = crate::monotone::interval_bindings(&model);
    Ok(model)
}

struct Ctx<'r> {
    files: Vec<SourceFile>,
    symbols: Symbols,
    stack: Vec<String>,
    done: HashSet<String>,
    resolver: &'r mut dyn Resolver,
    warnings: Vec<String>,
}

struct Parser<'c, 'r> {
    ctx: &'c mut Ctx<'r>,
    toks: Vec<Token>,
    pos: usize,
    file: usize,
    depth: usize,
}

/// Errors are boxed inside the parser to keep its recursive frames small.
type PResult<T> = Result<T, Box<CatError>>;

/// Whether `t` can start an application argument.
fn starts_arg(t: &Tok) -> bool {
    matches!(
        t,
        Tok::Ident(_)
            | Tok::Tag(_)
            | Tok::Zero
            | Tok::Underscore
            | Tok::LParen
            | Tok::LBrace
            | Tok::LBracket
            | Tok::Kw(Keyword::Begin)
    )
}

impl Parser<'_, '_> {
    // ----- token helpers -------------------------------------------------------------

    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }

    fn tok_start(&self) -> usize {
        self.toks[self.pos.min(self.toks.len() - 1)].start
    }

    fn prev_end(&self) -> usize {
        if self.pos == 0 {
            0
        } else {
            self.toks[(self.pos - 1).min(self.toks.len() - 1)].end
        }
    }

    fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == t {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_kw(&mut self, k: Keyword) -> bool {
        self.eat(&Tok::Kw(k))
    }

    fn span_from(&self, start: usize) -> Span {
        Span {
            file: self.file as u32,
            start: start as u32,
            end: self.prev_end().max(start) as u32,
        }
    }

    fn err_at(&self, pos: usize, kind: ErrorKind, msg: impl Into<String>) -> Box<CatError> {
        Box::new(self.ctx.files[self.file].error(kind, pos, msg))
    }

    fn err_here(&self, msg: impl Into<String>) -> Box<CatError> {
        self.err_at(self.tok_start(), ErrorKind::Parse, msg)
    }

    fn expected(&self, what: &str) -> Box<CatError> {
        self.err_here(format!("expected {what}, found {}", self.peek().describe()))
    }

    fn expect(&mut self, t: Tok, what: &str) -> PResult<()> {
        if self.eat(&t) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    fn expect_kw(&mut self, k: Keyword) -> PResult<()> {
        if self.eat_kw(k) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{}`", k.text())))
        }
    }

    fn expect_eof(&self) -> PResult<()> {
        match self.peek() {
            Tok::Eof => Ok(()),
            Tok::Kw(Keyword::End) => Err(self.err_here("`end` without a matching block")),
            Tok::Kw(Keyword::Else) => Err(self.err_here("`else` without a matching `if`")),
            _ => Err(self.expected("an instruction")),
        }
    }

    fn ident(&mut self, what: &str) -> PResult<Sym> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.bump();
                Ok(self.ctx.symbols.intern(&s))
            }
            _ => Err(self.expected(what)),
        }
    }

    /// A name after `as`: an identifier, or a keyword that cannot start an instruction
    /// (`as end`), so that a forgotten name is not confused with the next instruction.
    fn as_name(&mut self, what: &str) -> PResult<String> {
        use Keyword::*;
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.bump();
                Ok(s)
            }
            Tok::Kw(
                k @ (Rec | And | In | Fun | Match | End | Begin | As | Do | From | Then | Else
                | Try),
            ) => {
                self.bump();
                Ok(k.text().to_string())
            }
            _ => Err(self.expected(what)),
        }
    }

    fn tag_sym(&mut self, name: &str) -> Sym {
        self.ctx.symbols.intern(&format!("'{name}"))
    }

    fn nest<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_NESTING {
            return Err(self.err_at(
                self.tok_start(),
                ErrorKind::Limit,
                format!("nesting deeper than {MAX_NESTING} levels"),
            ));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    // ----- model structure -----------------------------------------------------------

    /// The header: the words and strings before the first instruction.
    fn header(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Tok::Ident(s) | Tok::Str(s) = self.peek().clone() {
            out.push(s);
            self.bump();
        }
        out
    }

    /// Instructions up to end of input, `end` or `else` (not consumed).
    fn instructions(&mut self) -> PResult<Vec<Instr>> {
        let mut out = Vec::new();
        loop {
            match self.peek() {
                Tok::Eof | Tok::Kw(Keyword::End) | Tok::Kw(Keyword::Else) => return Ok(out),
                _ => self.instruction(&mut out)?,
            }
        }
    }

    fn block(&mut self) -> PResult<Vec<Instr>> {
        self.nest(|p| p.instructions())
    }

    fn instruction(&mut self, out: &mut Vec<Instr>) -> PResult<()> {
        let start = self.tok_start();
        let kind = match self.peek().clone() {
            Tok::Kw(Keyword::Let) => {
                self.bump();
                let rec = self.eat_kw(Keyword::Rec);
                let bindings = self.bindings()?;
                if *self.peek() == Tok::Kw(Keyword::In) {
                    return Err(self.err_here(
                        "`let ... in` is an expression, not an instruction: drop `in ...` to bind for the rest of the model",
                    ));
                }
                InstrKind::Let { rec, bindings }
            }
            Tok::Kw(Keyword::Flag | Keyword::UndefinedUnless | Keyword::Acyclic | Keyword::Irreflexive | Keyword::Empty)
            | Tok::Tilde => InstrKind::Check(Box::new(self.check()?)),
            Tok::Kw(Keyword::Show) => {
                self.bump();
                self.expr_list_until_as()?;
                if self.eat_kw(Keyword::As) {
                    self.as_name("a name after `as`")?;
                }
                InstrKind::Show
            }
            Tok::Kw(Keyword::Unshow) => {
                self.bump();
                self.expr_list_until_as()?;
                InstrKind::Show
            }
            Tok::Kw(Keyword::Include) => {
                self.bump();
                let name = match self.peek().clone() {
                    Tok::Str(s) => {
                        self.bump();
                        s
                    }
                    _ => return Err(self.expected("a file name string after `include`")),
                };
                let instrs = self.include(&name, start)?;
                out.extend(instrs);
                return Ok(());
            }
            Tok::Kw(Keyword::Enum) => {
                self.bump();
                let name = self.ident("the enumeration's name")?;
                self.expect(Tok::Equals, "`=`")?;
                let _ = self.eat(&Tok::BarBar) || self.eat(&Tok::Bar);
                let mut tags = Vec::new();
                loop {
                    match self.peek().clone() {
                        Tok::Tag(t) => {
                            self.bump();
                            let s = self.tag_sym(&t);
                            tags.push(s);
                        }
                        _ => return Err(self.expected("a tag `'name`")),
                    }
                    if !(self.eat(&Tok::BarBar) || self.eat(&Tok::Bar)) {
                        break;
                    }
                }
                InstrKind::Enum { name, tags }
            }
            Tok::Kw(Keyword::Procedure) => {
                self.bump();
                let _ = self.eat_kw(Keyword::Rec);
                let name = self.ident("the procedure's name")?;
                let pat = self.pattern()?;
                self.expect(Tok::Equals, "`=`")?;
                let body = self.block()?;
                self.expect_kw(Keyword::End)?;
                InstrKind::Procedure { name, pat, body }
            }
            Tok::Kw(Keyword::Call) => {
                self.bump();
                let name = self.ident("the procedure's name")?;
                let arg = self.nest(|p| p.postfix())?;
                let as_name = if self.eat_kw(Keyword::As) {
                    Some(self.as_name("a name after `as`")?)
                } else {
                    None
                };
                InstrKind::Call { name, arg, as_name }
            }
            Tok::Kw(Keyword::Forall) => {
                self.bump();
                let var = self.ident("a name after `forall`")?;
                self.expect_kw(Keyword::In)?;
                let set = self.expr()?;
                self.expect_kw(Keyword::Do)?;
                let body = self.block()?;
                self.expect_kw(Keyword::End)?;
                InstrKind::Forall { var, set, body }
            }
            Tok::Kw(Keyword::With) => {
                self.bump();
                let var = self.ident("a name after `with`")?;
                self.expect_kw(Keyword::From)?;
                let set = self.expr()?;
                InstrKind::With { var, set }
            }
            Tok::Kw(Keyword::If) => {
                self.bump();
                // `if variant "v"` or, in newer herd files, `if "v"`.
                if *self.peek() == Tok::Ident("variant".into()) {
                    self.bump();
                } else if !matches!(self.peek(), Tok::Str(_)) {
                    return Err(self.expected("`variant \"name\"` (instruction-level `if` tests model variants)"));
                }
                let variant = match self.peek().clone() {
                    Tok::Str(s) => {
                        self.bump();
                        s
                    }
                    _ => return Err(self.expected("a variant name string")),
                };
                let then = self.block()?;
                let els = if self.eat_kw(Keyword::Else) {
                    self.block()?
                } else {
                    Vec::new()
                };
                self.expect_kw(Keyword::End)?;
                InstrKind::IfVariant { variant, then, els }
            }
            Tok::Kw(Keyword::Instructions) => {
                self.bump();
                self.ident("a set name after `instructions`")?;
                self.expect(Tok::LBracket, "`[`")?;
                if *self.peek() != Tok::RBracket {
                    self.expr_list_until_as()?;
                }
                self.expect(Tok::RBracket, "`]`")?;
                InstrKind::Instructions
            }
            _ => {
                return Err(self.expected(
                    "an instruction (`let`, `acyclic`, `irreflexive`, `empty`, `flag`, `include`, `with`, ...)",
                ))
            }
        };
        out.push(Instr {
            kind,
            span: self.span_from(start),
        });
        Ok(())
    }

    fn expr_list_until_as(&mut self) -> PResult<Vec<Expr>> {
        let mut v = vec![self.expr()?];
        while self.eat(&Tok::Comma) {
            v.push(self.expr()?);
        }
        Ok(v)
    }

    fn check(&mut self) -> PResult<Check> {
        let mode = if self.eat_kw(Keyword::Flag) {
            CheckMode::Flag
        } else if self.eat_kw(Keyword::UndefinedUnless) {
            CheckMode::UndefinedUnless
        } else {
            CheckMode::Check
        };
        let negated = self.eat(&Tok::Tilde);
        let test = match self.peek() {
            Tok::Kw(Keyword::Acyclic) => Test::Acyclic,
            Tok::Kw(Keyword::Irreflexive) => Test::Irreflexive,
            Tok::Kw(Keyword::Empty) => Test::Empty,
            _ => return Err(self.expected("`acyclic`, `irreflexive` or `empty`")),
        };
        self.bump();
        let expr = self.expr()?;
        let name = if self.eat_kw(Keyword::As) {
            Some(self.as_name("a check name after `as`")?)
        } else {
            None
        };
        Ok(Check {
            mode,
            negated,
            test,
            expr,
            name,
        })
    }

    fn include(&mut self, name: &str, pos: usize) -> PResult<Vec<Instr>> {
        let from = self.ctx.files[self.file].name.clone();
        if self.ctx.stack.len() > MAX_INCLUDE_DEPTH {
            return Err(self.err_at(
                pos,
                ErrorKind::Limit,
                format!("includes nested deeper than {MAX_INCLUDE_DEPTH} files"),
            ));
        }
        if self.ctx.stack.iter().any(|f| f == name) {
            return Err(self.cycle_error(name, pos));
        }
        let (canon, text) = self.ctx.resolver.resolve(name, &from).map_err(|m| {
            self.err_at(
                pos,
                ErrorKind::Include,
                format!("cannot include \"{name}\": {m}"),
            )
        })?;
        if self.ctx.stack.contains(&canon) {
            return Err(self.cycle_error(&canon, pos));
        }
        if self.ctx.done.contains(&canon) {
            let loc = self.ctx.files[self.file].location(pos);
            self.ctx
                .warnings
                .push(format!("{loc}: \"{name}\" is already included; skipped"));
            return Ok(Vec::new());
        }
        self.ctx.done.insert(canon.clone());
        self.ctx.stack.push(canon.clone());
        let idx = self.ctx.files.len();
        self.ctx.files.push(SourceFile::new(canon, text));
        let toks = tokenize(&self.ctx.files[idx]).map_err(Box::new)?;
        let depth = self.depth;
        let mut sub = Parser {
            ctx: &mut *self.ctx,
            toks,
            pos: 0,
            file: idx,
            depth,
        };
        sub.header();
        let instrs = sub.instructions()?;
        sub.expect_eof()?;
        self.ctx.stack.pop();
        Ok(instrs)
    }

    fn cycle_error(&self, name: &str, pos: usize) -> Box<CatError> {
        let i = self.ctx.stack.iter().position(|f| f == name).unwrap_or(0);
        let mut chain: Vec<&str> = self.ctx.stack[i..].iter().map(String::as_str).collect();
        chain.push(name);
        self.err_at(
            pos,
            ErrorKind::Include,
            format!("include cycle: {}", chain.join(" -> ")),
        )
    }

    // ----- bindings and patterns -----------------------------------------------------

    fn bindings(&mut self) -> PResult<Vec<Binding>> {
        let mut v = vec![self.binding()?];
        while self.eat_kw(Keyword::And) {
            v.push(self.binding()?);
        }
        Ok(v)
    }

    fn binding(&mut self) -> PResult<Binding> {
        let start = self.tok_start();
        match self.peek().clone() {
            Tok::LParen => {
                let pat = self.pattern()?;
                self.expect(Tok::Equals, "`=`")?;
                let expr = self.expr()?;
                Ok(Binding {
                    pat,
                    expr,
                    span: self.span_from(start),
                })
            }
            Tok::Ident(_) => {
                let name = self.ident("a name")?;
                let mut params = Vec::new();
                while matches!(self.peek(), Tok::Ident(_) | Tok::LParen) {
                    let ps = self.tok_start();
                    params.push((self.pattern()?, ps));
                }
                self.expect(Tok::Equals, "`=`")?;
                let mut expr = self.expr()?;
                for (pat, ps) in params.into_iter().rev() {
                    let span = Span {
                        file: self.file as u32,
                        start: ps as u32,
                        end: expr.span.end,
                    };
                    expr = Expr {
                        kind: ExprKind::Fun(Box::new(FunDef { pat, body: expr })),
                        span,
                    };
                }
                Ok(Binding {
                    pat: Pat::Var(name),
                    expr,
                    span: self.span_from(start),
                })
            }
            _ => Err(self.expected("a name or a tuple pattern to bind")),
        }
    }

    /// `x`, `()`, `(x)` or `(x, y, ...)`.
    fn pattern(&mut self) -> PResult<Pat> {
        if self.eat(&Tok::LParen) {
            let mut names = Vec::new();
            if !self.eat(&Tok::RParen) {
                loop {
                    names.push(self.ident("a parameter name")?);
                    if self.eat(&Tok::RParen) {
                        break;
                    }
                    self.expect(Tok::Comma, "`,` or `)`")?;
                }
            }
            Ok(if names.len() == 1 {
                Pat::Var(names[0])
            } else {
                Pat::Tuple(names)
            })
        } else {
            Ok(Pat::Var(self.ident("a parameter name or `(`")?))
        }
    }

    // ----- expressions ---------------------------------------------------------------

    /// A full expression.
    fn expr(&mut self) -> PResult<Expr> {
        self.nest(|p| p.infix())
    }

    /// The infix layer: operands (cartesian products and tighter) separated by `|`, `++`,
    /// `;`, `\` and `&`, collected flat, then grouped by precedence without recursing
    /// on the input (see [`group`]).
    fn infix(&mut self) -> PResult<Expr> {
        let mut operands = vec![self.cartesian()?];
        let mut ops = Vec::new();
        loop {
            let op = match self.peek() {
                Tok::Bar => BinOp::Union,
                Tok::PlusPlus => BinOp::Add,
                Tok::Semi => BinOp::Seq,
                Tok::Backslash => BinOp::Diff,
                Tok::Amp => BinOp::Inter,
                _ => break,
            };
            self.bump();
            ops.push(op);
            operands.push(self.cartesian()?);
        }
        Ok(group(operands, &ops, 0))
    }

    /// Whether the `*` at the cursor is the cartesian product (an operand follows it).
    fn star_is_infix(&self) -> bool {
        match self.peek_at(1) {
            t if starts_arg(t) => true,
            Tok::Kw(Keyword::Fun | Keyword::Match | Keyword::Try) => true,
            // `~` starts an operand unless it negates a check on the next line.
            Tok::Tilde => !matches!(
                self.peek_at(2),
                Tok::Kw(Keyword::Acyclic | Keyword::Irreflexive | Keyword::Empty)
            ),
            _ => false,
        }
    }

    fn cartesian(&mut self) -> PResult<Expr> {
        let start = self.tok_start();
        let lhs = self.prefix()?;
        if !(*self.peek() == Tok::Star && self.star_is_infix()) {
            return Ok(lhs);
        }
        self.bump();
        let rhs = self.prefix()?;
        if *self.peek() == Tok::Star && self.star_is_infix() {
            return Err(
                self.err_here("the cartesian product `*` is not associative: add parentheses")
            );
        }
        Ok(Expr {
            kind: ExprKind::Op(BinOp::Cartesian, vec![lhs, rhs]),
            span: self.span_from(start),
        })
    }

    fn prefix(&mut self) -> PResult<Expr> {
        let mut tildes = Vec::new();
        while *self.peek() == Tok::Tilde {
            tildes.push(self.tok_start());
            self.bump();
            if tildes.len() > MAX_STACKED_OPS {
                return Err(self.err_at(
                    self.tok_start(),
                    ErrorKind::Limit,
                    format!("more than {MAX_STACKED_OPS} stacked `~`"),
                ));
            }
        }
        let mut e = self.application()?;
        for start in tildes.into_iter().rev() {
            let span = Span {
                file: self.file as u32,
                start: start as u32,
                end: e.span.end,
            };
            e = Expr {
                kind: ExprKind::Unary(UnOp::Complement, Box::new(e)),
                span,
            };
        }
        Ok(e)
    }

    fn application(&mut self) -> PResult<Expr> {
        let start = self.tok_start();
        let head = self.postfix()?;
        if !starts_arg(self.peek()) {
            return Ok(head);
        }
        let mut args = Vec::new();
        while starts_arg(self.peek()) {
            args.push(self.postfix()?);
        }
        Ok(Expr {
            kind: ExprKind::App(Box::new(head), args),
            span: self.span_from(start),
        })
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let start = self.tok_start();
        let mut e = self.atom()?;
        let mut count = 0;
        loop {
            let op = match self.peek() {
                Tok::Plus | Tok::CaretPlus => UnOp::Plus,
                Tok::Question | Tok::CaretQuestion => UnOp::Opt,
                Tok::Inverse => UnOp::Inverse,
                Tok::CaretStar => UnOp::Star,
                Tok::Star if !self.star_is_infix() => UnOp::Star,
                _ => return Ok(e),
            };
            self.bump();
            count += 1;
            if count > MAX_STACKED_OPS {
                return Err(self.err_at(
                    self.tok_start(),
                    ErrorKind::Limit,
                    format!("more than {MAX_STACKED_OPS} stacked postfix operators"),
                ));
            }
            e = Expr {
                kind: ExprKind::Unary(op, Box::new(e)),
                span: self.span_from(start),
            };
        }
    }

    /// An atomic expression; the compound forms are parsed by their own functions so that
    /// this frame, on every nesting path, stays small.
    fn atom(&mut self) -> PResult<Expr> {
        let start = self.tok_start();
        let i = self.pos.min(self.toks.len() - 1);
        let kind = match &self.toks[i].tok {
            Tok::Zero => {
                self.bump();
                ExprKind::Zero
            }
            Tok::Underscore => {
                self.bump();
                ExprKind::Universe
            }
            Tok::Ident(s) => {
                let sym = self.ctx.symbols.intern(s);
                self.bump();
                ExprKind::Var(sym)
            }
            Tok::Tag(t) => {
                let sym = self.ctx.symbols.intern(&format!("'{t}"));
                self.bump();
                ExprKind::Tag(sym)
            }
            Tok::LParen => return self.paren(start),
            Tok::LBrace => self.brace()?,
            Tok::LBracket => {
                self.bump();
                let e = self.expr()?;
                self.expect(Tok::RBracket, "`]`")?;
                ExprKind::Unary(UnOp::Identity, Box::new(e))
            }
            Tok::Kw(Keyword::Begin) => {
                self.bump();
                let e = self.expr()?;
                self.expect_kw(Keyword::End)?;
                return Ok(e);
            }
            Tok::Kw(Keyword::Fun) => self.fun_expr()?,
            Tok::Kw(Keyword::Let) => self.let_expr()?,
            Tok::Kw(Keyword::Match) => {
                self.bump();
                self.match_expr()?
            }
            Tok::Kw(Keyword::If) => self.if_expr()?,
            Tok::Kw(Keyword::Try) => self.try_expr()?,
            _ => return Err(self.expected("an expression")),
        };
        Ok(Expr {
            kind,
            span: self.span_from(start),
        })
    }

    /// `()`, `(e)` or `(e1, ..., en)`.
    #[inline(never)]
    fn paren(&mut self, start: usize) -> PResult<Expr> {
        self.bump();
        let kind = if self.eat(&Tok::RParen) {
            ExprKind::Tuple(Vec::new())
        } else {
            let first = self.expr()?;
            if self.eat(&Tok::RParen) {
                return Ok(first);
            }
            let mut items = vec![first];
            while self.eat(&Tok::Comma) {
                items.push(self.expr()?);
            }
            self.expect(Tok::RParen, "`,` or `)`")?;
            ExprKind::Tuple(items)
        };
        Ok(Expr {
            kind,
            span: self.span_from(start),
        })
    }

    /// `{}` or `{e1, ..., en}`.
    #[inline(never)]
    fn brace(&mut self) -> PResult<ExprKind> {
        self.bump();
        let mut items = Vec::new();
        if !self.eat(&Tok::RBrace) {
            items.push(self.expr()?);
            while self.eat(&Tok::Comma) {
                items.push(self.expr()?);
            }
            self.expect(Tok::RBrace, "`,` or `}`")?;
        }
        Ok(ExprKind::SetLit(items))
    }

    /// `fun pat -> e`.
    #[inline(never)]
    fn fun_expr(&mut self) -> PResult<ExprKind> {
        self.bump();
        let pat = self.pattern()?;
        self.expect(Tok::Arrow, "`->`")?;
        let body = self.expr()?;
        Ok(ExprKind::Fun(Box::new(FunDef { pat, body })))
    }

    /// `let [rec] bindings in e`.
    #[inline(never)]
    fn let_expr(&mut self) -> PResult<ExprKind> {
        self.bump();
        let rec = self.eat_kw(Keyword::Rec);
        let bindings = self.nest(|p| p.bindings())?;
        self.expect_kw(Keyword::In)?;
        let body = self.expr()?;
        Ok(ExprKind::Let {
            rec,
            bindings,
            body: Box::new(body),
        })
    }

    /// `if variant "v" then e1 else e2` or `if e = e' then e1 else e2`.
    #[inline(never)]
    fn if_expr(&mut self) -> PResult<ExprKind> {
        self.bump();
        let variant = match (self.peek(), self.peek_at(1)) {
            (Tok::Ident(v), Tok::Str(s)) if v == "variant" => Some(s.clone()),
            _ => None,
        };
        let cond = if let Some(s) = variant {
            self.bump();
            self.bump();
            Cond::Variant(s)
        } else {
            let a = self.expr()?;
            self.expect(Tok::Equals, "`=` in the condition")?;
            let b = self.expr()?;
            Cond::Equal(a, b)
        };
        self.expect_kw(Keyword::Then)?;
        let then = self.expr()?;
        self.expect_kw(Keyword::Else)?;
        let els = self.expr()?;
        Ok(ExprKind::If {
            cond: Box::new(cond),
            then: Box::new(then),
            els: Box::new(els),
        })
    }

    /// `try e1 with e2`.
    #[inline(never)]
    fn try_expr(&mut self) -> PResult<ExprKind> {
        self.bump();
        let body = self.expr()?;
        self.expect_kw(Keyword::With)?;
        let fallback = self.expr()?;
        Ok(ExprKind::Try {
            body: Box::new(body),
            fallback: Box::new(fallback),
        })
    }

    #[inline(never)]
    fn match_expr(&mut self) -> PResult<ExprKind> {
        let scrutinee = self.expr()?;
        self.expect_kw(Keyword::With)?;
        let _ = self.eat(&Tok::BarBar);
        let mut tag_arms = Vec::new();
        let mut default = None;
        let mut empty_arm = None;
        let mut elem_arm = None;
        loop {
            let pstart = self.tok_start();
            match self.peek().clone() {
                Tok::Tag(t) => {
                    self.bump();
                    let s = self.tag_sym(&t);
                    self.expect(Tok::Arrow, "`->`")?;
                    tag_arms.push((s, self.expr()?));
                }
                Tok::Underscore => {
                    self.bump();
                    self.expect(Tok::Arrow, "`->`")?;
                    if default.is_some() {
                        return Err(self.err_at(pstart, ErrorKind::Parse, "duplicate `_` clause"));
                    }
                    default = Some(Box::new(self.expr()?));
                }
                Tok::LBrace => {
                    self.bump();
                    self.expect(Tok::RBrace, "`}` (set patterns are `{}` and `x ++ rest`)")?;
                    self.expect(Tok::Arrow, "`->`")?;
                    if empty_arm.is_some() {
                        return Err(self.err_at(pstart, ErrorKind::Parse, "duplicate `{}` clause"));
                    }
                    empty_arm = Some(Box::new(self.expr()?));
                }
                Tok::Ident(_) => {
                    let elem = self.ident("a name")?;
                    self.expect(Tok::PlusPlus, "`++` in the set pattern `x ++ rest`")?;
                    let rest = self.ident("a name after `++`")?;
                    self.expect(Tok::Arrow, "`->`")?;
                    if elem_arm.is_some() {
                        return Err(self.err_at(
                            pstart,
                            ErrorKind::Parse,
                            "duplicate `x ++ rest` clause",
                        ));
                    }
                    elem_arm = Some((elem, rest, Box::new(self.expr()?)));
                }
                _ => {
                    return Err(self
                        .expected("a match clause (`'tag ->`, `_ ->`, `{} ->` or `x ++ rest ->`)"))
                }
            }
            if !self.eat(&Tok::BarBar) {
                break;
            }
        }
        let end_pos = self.tok_start();
        self.expect_kw(Keyword::End)?;
        let set_style = empty_arm.is_some() || elem_arm.is_some();
        if set_style {
            if !tag_arms.is_empty() || default.is_some() {
                return Err(self.err_at(
                    end_pos,
                    ErrorKind::Parse,
                    "a match cannot mix tag clauses and set clauses",
                ));
            }
            match (empty_arm, elem_arm) {
                (Some(empty), Some((elem, rest, nonempty))) => Ok(ExprKind::Match {
                    scrutinee: Box::new(scrutinee),
                    arms: MatchArms::Set {
                        empty,
                        elem,
                        rest,
                        nonempty,
                    },
                }),
                _ => Err(self.err_at(
                    end_pos,
                    ErrorKind::Parse,
                    "a match over sets needs both a `{} ->` and an `x ++ rest ->` clause",
                )),
            }
        } else {
            Ok(ExprKind::Match {
                scrutinee: Box::new(scrutinee),
                arms: MatchArms::Tags {
                    arms: tag_arms,
                    default,
                },
            })
        }
    }
}

/// Infix operators from loosest to tightest (herd manual §"Operator expressions").
const INFIX_LEVELS: [BinOp; 5] = [
    BinOp::Union,
    BinOp::Add,
    BinOp::Seq,
    BinOp::Diff,
    BinOp::Inter,
];

/// Groups `e0 op1 e1 ... opn en` by precedence: split at the loosest operator present,
/// group each part at the next level, and make one n-ary node per split. The recursion
/// depth is the number of levels, whatever the input.
fn group(mut operands: Vec<Expr>, ops: &[BinOp], level: usize) -> Expr {
    let Some(&op) = INFIX_LEVELS.get(level) else {
        return operands.swap_remove(0);
    };
    if ops.is_empty() {
        return operands.swap_remove(0);
    }
    if !ops.contains(&op) {
        return group(operands, ops, level + 1);
    }
    let mut children = Vec::new();
    let mut seg_operands = Vec::new();
    let mut seg_ops = Vec::new();
    let mut rest = operands.into_iter();
    if let Some(first) = rest.next() {
        seg_operands.push(first);
    }
    for (&o, e) in ops.iter().zip(rest) {
        if o == op {
            children.push(group(
                std::mem::take(&mut seg_operands),
                &std::mem::take(&mut seg_ops),
                level + 1,
            ));
        } else {
            seg_ops.push(o);
        }
        seg_operands.push(e);
    }
    children.push(group(seg_operands, &seg_ops, level + 1));
    let span = Span {
        file: children[0].span.file,
        start: children[0].span.start,
        end: children[children.len() - 1].span.end,
    };
    Expr {
        kind: ExprKind::Op(op, children),
        span,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Model {
        Model::parse("t.cat", s).unwrap_or_else(|e| panic!("{}", e.render()))
    }

    fn first_let_expr(m: &Model) -> &Expr {
        match &m.instrs[0].kind {
            InstrKind::Let { bindings, .. } => &bindings[0].expr,
            k => panic!("not a let: {k:?}"),
        }
    }

    #[test]
    fn header_forms() {
        assert_eq!(parse("\"SC\" let x = po").name.as_deref(), Some("SC"));
        let m = parse("PTX \"RMO per scope\"\nlet x = po");
        assert_eq!(
            m.header,
            vec!["PTX".to_string(), "RMO per scope".to_string()]
        );
        assert_eq!(parse("let x = po").name, None);
    }

    #[test]
    fn precedence_union_is_loosest() {
        let m = parse("let x = a | b ; c & d \\ e");
        match &first_let_expr(&m).kind {
            ExprKind::Op(BinOp::Union, v) => {
                assert_eq!(v.len(), 2);
                assert!(matches!(v[1].kind, ExprKind::Op(BinOp::Seq, _)));
            }
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn star_is_postfix_or_cartesian() {
        let m = parse("let x = (po | rf)* ; W * R");
        match &first_let_expr(&m).kind {
            ExprKind::Op(BinOp::Seq, v) => {
                assert!(matches!(v[0].kind, ExprKind::Unary(UnOp::Star, _)));
                assert!(matches!(v[1].kind, ExprKind::Op(BinOp::Cartesian, _)));
            }
            k => panic!("{k:?}"),
        }
        // A trailing `*` before the next instruction is a closure.
        let m = parse("let x = po*\nlet y = x\n~empty y");
        assert_eq!(m.instrs.len(), 3);
        let m = parse("let x = po*\n~empty x as nonempty");
        assert_eq!(m.instrs.len(), 2);
    }

    #[test]
    fn function_definitions_and_application() {
        let m = parse("let f(x) = x | po\nlet g x y = x ; y\nlet z = f(rf) | g po rf");
        assert_eq!(m.instrs.len(), 3);
        match &first_let_expr(&m).kind {
            ExprKind::Fun(d) => assert!(matches!(d.pat, Pat::Var(_))),
            k => panic!("{k:?}"),
        }
    }
}
