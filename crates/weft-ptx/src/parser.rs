//! Recursive-descent parser from tokens to the [`crate::ast`] tree.
//!
//! Grammar follows the PTX ISA: module directives (§11.1 `.version`, `.target`,
//! `.address_size`), linking directives (§11.6), kernel and function declarations (§11.2,
//! §7.1 parameter lists, §5.1.6.4 `.ptr` kernel parameter attributes), variable
//! declarations with initialisers (§5.4), register declarations with parameterized names
//! (§5.4.6), labels and instruction statements (§4.3), guards (§9.3), and operands (§6).
//! Qualifiers are classified per opcode by [`apply_qualifier`]; one that the opcode does not
//! take, or that is unknown, is an error naming the instruction. Nesting of `{}` blocks is
//! bounded so that hostile input cannot exhaust the stack.

use crate::ast::*;
use crate::error::ParseError;
use crate::lexer::{tokenize, Span, Tok, Token};
use std::collections::HashSet;

/// Deepest `{ ... }` nesting accepted inside a function body.
const MAX_DEPTH: usize = 64;

/// Parses a whole PTX module.
pub fn parse(src: &str) -> Result<Module, ParseError> {
    let toks = tokenize(src)?;
    let end = end_span(src);
    let mut p = Parser {
        toks,
        pos: 0,
        end,
        regs: HashSet::new(),
        reg_prefixes: HashSet::new(),
    };
    p.module()
}

/// The position just past the last character, for "unexpected end of input".
fn end_span(src: &str) -> Span {
    let mut line = 1u32;
    let mut col = 1u32;
    for c in src.chars() {
        if c == '\n' {
            line = line.saturating_add(1);
            col = 1;
        } else {
            col = col.saturating_add(1);
        }
    }
    Span { line, col }
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    end: Span,
    /// Registers declared without `%` in the current function (classify operands).
    regs: HashSet<String>,
    /// Parameterized register prefixes declared without `%` (`r<10>`).
    reg_prefixes: HashSet<String>,
}

type PResult<T> = Result<T, ParseError>;

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k).map(|t| &t.tok)
    }

    fn span(&self) -> Span {
        self.toks.get(self.pos).map(|t| t.span).unwrap_or(self.end)
    }

    fn bump(&mut self) -> Option<Token> {
        let t = self.toks.get(self.pos).cloned();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    fn err_here(&self, msg: impl Into<String>) -> ParseError {
        let s = self.span();
        ParseError::new(s.line, s.col, msg)
    }

    fn err_at(span: Span, msg: impl Into<String>) -> ParseError {
        ParseError::new(span.line, span.col, msg)
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(t) => t.describe(),
            None => "end of input".to_string(),
        }
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    /// Skips debug labels clang's NVPTX back-end places between the operands of an
    /// instruction (`call.uni \n$L__tmp0:\n f, (p);` with `-g`): they only mark positions
    /// for the DWARF tables, which weft does not read.
    fn skip_inline_labels(&mut self) {
        while matches!(self.peek(), Some(Tok::Ident(_)))
            && matches!(self.peek_at(1), Some(Tok::Punct(':')))
        {
            self.pos += 2;
        }
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, c: char, ctx: &str) -> PResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.err_here(format!("expected `{c}` {ctx}, found {}", self.found())))
        }
    }

    fn is_dot(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Dot(d)) if d == s)
    }

    fn expect_ident(&mut self, what: &str) -> PResult<(String, Span)> {
        let span = self.span();
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.pos += 1;
                Ok((s, span))
            }
            _ => Err(self.err_here(format!("expected {what}, found {}", self.found()))),
        }
    }

    /// A non-negative integer that fits in `u32`.
    fn expect_u32(&mut self, what: &str) -> PResult<u32> {
        match self.peek() {
            Some(Tok::Int { value, .. }) if (0..=u32::MAX as i64).contains(value) => {
                let v = *value as u32;
                self.pos += 1;
                Ok(v)
            }
            _ => Err(self.err_here(format!("expected {what}, found {}", self.found()))),
        }
    }

    /// A possibly negated integer.
    fn expect_int(&mut self, what: &str) -> PResult<i64> {
        let neg = self.eat_punct('-');
        match self.peek() {
            Some(Tok::Int { value, .. }) => {
                let v = *value;
                self.pos += 1;
                Ok(if neg { v.wrapping_neg() } else { v })
            }
            _ => Err(self.err_here(format!("expected {what}, found {}", self.found()))),
        }
    }

    fn expect_string(&mut self, what: &str) -> PResult<String> {
        match self.peek() {
            Some(Tok::Str(s)) => {
                let s = s.clone();
                self.pos += 1;
                Ok(s)
            }
            _ => Err(self.err_here(format!("expected {what}, found {}", self.found()))),
        }
    }

    // ---- module level -------------------------------------------------------------

    fn module(&mut self) -> PResult<Module> {
        let mut m = Module::default();
        while let Some(tok) = self.peek().cloned() {
            let span = self.span();
            let Tok::Dot(d) = tok else {
                return Err(self.err_here(format!(
                    "expected a directive at module level, found {}",
                    self.found()
                )));
            };
            match d.as_str() {
                ".version" => {
                    self.pos += 1;
                    if m.version.is_some() {
                        return Err(Self::err_at(span, "duplicate `.version` directive"));
                    }
                    m.version = Some(self.version()?);
                }
                ".target" => {
                    self.pos += 1;
                    loop {
                        let (t, _) = self.expect_ident("a target name (`sm_70`)")?;
                        m.target.push(t);
                        if !self.eat_punct(',') {
                            break;
                        }
                    }
                }
                ".address_size" => {
                    self.pos += 1;
                    let s = self.span();
                    let n = self.expect_u32("32 or 64")?;
                    if n != 32 && n != 64 {
                        return Err(Self::err_at(
                            s,
                            format!("`.address_size` must be 32 or 64, not {n}"),
                        ));
                    }
                    m.address_size = Some(n);
                }
                ".file" => {
                    self.pos += 1;
                    let index = self.expect_u32("a file index")?;
                    let mut path = self.expect_string("a file name string")?;
                    // clang writes `.file 1 "directory" "name"`: keep `directory/name`.
                    if let Some(Tok::Str(name)) = self.peek() {
                        let name = name.clone();
                        self.pos += 1;
                        path = if name.starts_with('/') || path.is_empty() {
                            name
                        } else {
                            format!("{}/{name}", path.trim_end_matches('/'))
                        };
                    }
                    // Optional timestamp and size (§11.5.1).
                    while self.eat_punct(',') {
                        self.expect_int("a number")?;
                    }
                    m.items.push(Item::File { span, index, path });
                }
                ".pragma" => {
                    self.pos += 1;
                    let values = self.pragma_values()?;
                    m.items.push(Item::Pragma { span, values });
                }
                ".section" => {
                    // DWARF sections (`-g`, `-gline-tables-only`) carry nothing weft reads:
                    // skip `.section NAME { ... }` (balanced braces). Other sections are refused.
                    self.pos += 1;
                    let name = match self.peek() {
                        Some(Tok::Dot(d)) => d.clone(),
                        _ => {
                            return Err(self.err_here(format!(
                                "expected a section name, found {}",
                                self.found()
                            )))
                        }
                    };
                    if !name.starts_with(".debug") {
                        return Err(Self::err_at(
                            span,
                            format!("section `{name}` is not supported (only DWARF `.debug_*` sections are skipped)"),
                        ));
                    }
                    self.pos += 1;
                    self.expect_punct('{', "after the section name")?;
                    let mut depth = 1usize;
                    while depth > 0 {
                        match self.bump() {
                            Some(t) if t.tok == Tok::Punct('{') => depth += 1,
                            Some(t) if t.tok == Tok::Punct('}') => depth -= 1,
                            Some(_) => {}
                            None => {
                                return Err(Self::err_at(
                                    span,
                                    "unterminated `.section` (missing `}`)",
                                ))
                            }
                        }
                    }
                }
                _ => {
                    let linkage = self.linkage();
                    match self.peek() {
                        Some(Tok::Dot(d)) if d == ".entry" || d == ".func" => {
                            let f = self.function(span, linkage)?;
                            m.items.push(Item::Function(f));
                        }
                        Some(Tok::Dot(d)) if is_var_space(d) => {
                            for v in self.variables(span, linkage)? {
                                m.items.push(Item::Variable(v));
                            }
                        }
                        _ => {
                            return Err(self.err_here(format!(
                                "unknown or misplaced directive {} at module level",
                                self.found()
                            )))
                        }
                    }
                }
            }
        }
        Ok(m)
    }

    fn version(&mut self) -> PResult<Version> {
        let span = self.span();
        let text = match self.peek() {
            Some(Tok::Float { text, .. }) => text.clone(),
            Some(Tok::Int { value, .. }) => value.to_string(),
            _ => {
                return Err(self.err_here(format!(
                    "expected a version `major.minor`, found {}",
                    self.found()
                )))
            }
        };
        self.pos += 1;
        let mut parts = text.split('.');
        let major = parts.next().and_then(|s| s.parse().ok());
        let minor = parts.next().and_then(|s| s.parse().ok());
        match (major, minor, parts.next()) {
            (Some(major), Some(minor), None) => Ok(Version { major, minor }),
            _ => Err(Self::err_at(
                span,
                format!("bad version `{text}`: expected `major.minor`"),
            )),
        }
    }

    fn pragma_values(&mut self) -> PResult<Vec<String>> {
        let mut values = vec![self.expect_string("a pragma string")?];
        while self.eat_punct(',') {
            values.push(self.expect_string("a pragma string")?);
        }
        self.expect_punct(';', "after `.pragma`")?;
        Ok(values)
    }

    fn linkage(&mut self) -> Option<Linkage> {
        let l = match self.peek() {
            Some(Tok::Dot(d)) => match d.as_str() {
                ".visible" => Linkage::Visible,
                ".extern" => Linkage::Extern,
                ".weak" => Linkage::Weak,
                ".common" => Linkage::Common,
                _ => return None,
            },
            _ => return None,
        };
        self.pos += 1;
        Some(l)
    }

    fn function(&mut self, span: Span, linkage: Option<Linkage>) -> PResult<Function> {
        let kind = if self.is_dot(".entry") {
            FunctionKind::Entry
        } else {
            FunctionKind::Func
        };
        self.pos += 1;
        self.regs.clear();
        self.reg_prefixes.clear();
        let mut returns = Vec::new();
        if kind == FunctionKind::Func && self.is_punct('(') {
            returns = self.param_list(kind)?;
        }
        let (name, _) = self.expect_ident("a function name")?;
        let mut params = Vec::new();
        if self.is_punct('(') {
            params = self.param_list(kind)?;
        }
        let mut directives = Vec::new();
        while let Some(Tok::Dot(d)) = self.peek().cloned() {
            let dspan = self.span();
            self.pos += 1;
            let dir = match d.as_str() {
                ".maxntid" => FunctionDirective::Maxntid(self.dims3()?),
                ".reqntid" => FunctionDirective::Reqntid(self.dims3()?),
                ".minnctapersm" => FunctionDirective::Minnctapersm(self.expect_u32("a count")?),
                ".maxnctapersm" => FunctionDirective::Maxnctapersm(self.expect_u32("a count")?),
                ".maxnreg" => FunctionDirective::Maxnreg(self.expect_u32("a count")?),
                ".noreturn" => FunctionDirective::Noreturn,
                ".pragma" => FunctionDirective::Pragma(self.pragma_values()?),
                _ => {
                    return Err(Self::err_at(
                        dspan,
                        format!("unknown function directive `{d}` on `{name}`"),
                    ))
                }
            };
            directives.push(dir);
        }
        let body = if self.eat_punct(';') {
            None
        } else if self.is_punct('{') {
            self.pos += 1;
            Some(self.block_body(1)?)
        } else {
            return Err(self.err_here(format!(
                "expected `{{` or `;` after the signature of `{name}`, found {}",
                self.found()
            )));
        };
        Ok(Function {
            span,
            linkage,
            kind,
            returns,
            name,
            params,
            directives,
            body,
        })
    }

    fn dims3(&mut self) -> PResult<Vec<u32>> {
        let mut v = vec![self.expect_u32("a dimension")?];
        while self.is_punct(',') && v.len() < 3 {
            self.pos += 1;
            v.push(self.expect_u32("a dimension")?);
        }
        Ok(v)
    }

    fn param_list(&mut self, kind: FunctionKind) -> PResult<Vec<Param>> {
        self.expect_punct('(', "to open a parameter list")?;
        let mut out = Vec::new();
        if self.eat_punct(')') {
            return Ok(out);
        }
        loop {
            out.push(self.param(kind)?);
            if self.eat_punct(')') {
                return Ok(out);
            }
            self.expect_punct(',', "between parameters")?;
        }
    }

    fn param(&mut self, kind: FunctionKind) -> PResult<Param> {
        let span = self.span();
        let space = match self.peek() {
            Some(Tok::Dot(d)) if d == ".param" => StateSpace::Param,
            Some(Tok::Dot(d)) if d == ".reg" && kind == FunctionKind::Func => StateSpace::Reg,
            _ => {
                return Err(self.err_here(format!(
                    "expected `.param`{} to start a parameter, found {}",
                    if kind == FunctionKind::Func {
                        " or `.reg`"
                    } else {
                        ""
                    },
                    self.found()
                )))
            }
        };
        self.pos += 1;
        let mut align = None;
        let mut vector = None;
        let mut ty = None;
        let mut ptr: Option<PtrAttr> = None;
        while let Some(Tok::Dot(d)) = self.peek().cloned() {
            let dspan = self.span();
            self.pos += 1;
            if d == ".align" {
                let a = Some(self.expect_u32("an alignment")?);
                match &mut ptr {
                    Some(p) => p.align = a,
                    None => align = a,
                }
            } else if d == ".ptr" {
                if ptr.is_some() {
                    return Err(Self::err_at(dspan, "duplicate `.ptr`"));
                }
                ptr = Some(PtrAttr {
                    space: None,
                    align: None,
                });
            } else if let (Some(p), Some(s)) = (ptr.as_mut(), StateSpace::from_ptx(&d)) {
                p.space = Some(s);
            } else if let Some(v) = VecWidth::from_ptx(&d) {
                vector = Some(v);
            } else if let Some(t) = ScalarType::from_ptx(&d) {
                if ty.is_some() {
                    return Err(Self::err_at(
                        dspan,
                        format!("second type `{d}` on a parameter"),
                    ));
                }
                ty = Some(t);
            } else {
                return Err(Self::err_at(
                    dspan,
                    format!("unexpected `{d}` in a parameter declaration"),
                ));
            }
        }
        let Some(ty) = ty else {
            return Err(Self::err_at(span, "parameter has no type"));
        };
        let (name, _) = self.expect_ident("a parameter name")?;
        let dims = self.dims()?;
        if space == StateSpace::Reg {
            self.note_reg(&name, None);
        }
        Ok(Param {
            span,
            space,
            align,
            vector,
            ty,
            ptr,
            name,
            dims,
        })
    }

    fn dims(&mut self) -> PResult<Vec<Option<u64>>> {
        let mut dims = Vec::new();
        while self.eat_punct('[') {
            if self.eat_punct(']') {
                dims.push(None);
                continue;
            }
            let n = self.expect_u32("an array size")?;
            dims.push(Some(n as u64));
            self.expect_punct(']', "to close an array size")?;
        }
        Ok(dims)
    }

    fn note_reg(&mut self, name: &str, count: Option<u32>) {
        if !name.starts_with('%') {
            match count {
                Some(_) => self.reg_prefixes.insert(name.to_string()),
                None => self.regs.insert(name.to_string()),
            };
        }
    }

    /// `.global .align 4 .b8 a[16] = {...}, b;` after an optional linkage.
    fn variables(&mut self, span: Span, linkage: Option<Linkage>) -> PResult<Vec<Variable>> {
        let space = match self.peek() {
            Some(Tok::Dot(d)) => StateSpace::from_ptx(d),
            _ => None,
        };
        let Some(space) = space else {
            return Err(self.err_here(format!("expected a state space, found {}", self.found())));
        };
        self.pos += 1;
        let mut align = None;
        let mut vector = None;
        let mut ty = None;
        while let Some(Tok::Dot(d)) = self.peek().cloned() {
            let dspan = self.span();
            self.pos += 1;
            if d == ".align" {
                align = Some(self.expect_u32("an alignment")?);
            } else if let Some(v) = VecWidth::from_ptx(&d) {
                vector = Some(v);
            } else if let Some(t) = ScalarType::from_ptx(&d).or_else(|| {
                // Opaque texture/sampler/surface references (§5.3): a 64-bit handle; weft
                // has no texture instructions, so only the declaration needs a shape.
                matches!(d.as_str(), ".texref" | ".samplerref" | ".surfref")
                    .then_some(ScalarType::B64)
            }) {
                if ty.is_some() {
                    return Err(Self::err_at(
                        dspan,
                        format!("second type `{d}` on a variable"),
                    ));
                }
                ty = Some(t);
            } else {
                return Err(Self::err_at(
                    dspan,
                    format!("unexpected `{d}` in a variable declaration"),
                ));
            }
        }
        let Some(ty) = ty else {
            return Err(Self::err_at(span, "variable declaration has no type"));
        };
        let mut out = Vec::new();
        loop {
            let (name, _) = self.expect_ident("a variable name")?;
            let dims = self.dims()?;
            let init = if self.eat_punct('=') {
                Some(self.initializer(0)?)
            } else {
                None
            };
            out.push(Variable {
                span,
                linkage,
                space,
                align,
                vector,
                ty,
                name,
                dims,
                init,
            });
            if self.eat_punct(';') {
                return Ok(out);
            }
            self.expect_punct(',', "or `;` after a variable")?;
        }
    }

    fn initializer(&mut self, depth: usize) -> PResult<Initializer> {
        if depth > MAX_DEPTH {
            return Err(self.err_here("initialiser nested too deeply"));
        }
        if self.eat_punct('{') {
            let mut items = Vec::new();
            if self.eat_punct('}') {
                return Ok(Initializer::List(items));
            }
            loop {
                items.push(self.initializer(depth + 1)?);
                if self.eat_punct('}') {
                    return Ok(Initializer::List(items));
                }
                self.expect_punct(',', "between initialiser elements")?;
            }
        }
        let neg = self.eat_punct('-');
        let span = self.span();
        let init = match self.bump().map(|t| t.tok) {
            Some(Tok::Int { value, .. }) => {
                Initializer::Int(if neg { value.wrapping_neg() } else { value })
            }
            Some(Tok::F32Bits(b)) if !neg => Initializer::F32(b),
            Some(Tok::F64Bits(b)) if !neg => Initializer::F64(b),
            Some(Tok::Float { value, .. }) => Initializer::Float(if neg { -value } else { value }),
            Some(Tok::Ident(name)) if !neg && name == "generic" && self.is_punct('(') => {
                self.pos += 1;
                let (name, _) = self.expect_ident("a variable name inside `generic(...)`")?;
                let offset = self.symbol_offset()?;
                self.expect_punct(')', "to close `generic(`")?;
                Initializer::Symbol {
                    name,
                    offset,
                    generic: true,
                }
            }
            Some(Tok::Ident(name)) if !neg => {
                let offset = self.symbol_offset()?;
                Initializer::Symbol {
                    name,
                    offset,
                    generic: false,
                }
            }
            other => {
                let what = other.map(|t| t.describe()).unwrap_or("end of input".into());
                return Err(Self::err_at(
                    span,
                    format!("expected an initialiser value, found {what}"),
                ));
            }
        };
        Ok(init)
    }

    /// An optional `+N`, `+-N` or `-N` after a symbol.
    fn symbol_offset(&mut self) -> PResult<i64> {
        if self.eat_punct('+') {
            self.expect_int("an offset after `+`")
        } else if self.is_punct('-') {
            self.expect_int("an offset")
        } else {
            Ok(0)
        }
    }

    // ---- function bodies ----------------------------------------------------------

    /// Statements up to and including the closing `}`.
    fn block_body(&mut self, depth: usize) -> PResult<Vec<Statement>> {
        if depth > MAX_DEPTH {
            return Err(self.err_here(format!("blocks nested deeper than {MAX_DEPTH}")));
        }
        let mut out = Vec::new();
        loop {
            let span = self.span();
            match self.peek().cloned() {
                None => return Err(self.err_here("unexpected end of input: missing `}`")),
                Some(Tok::Punct('}')) => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(Tok::Punct('{')) => {
                    self.pos += 1;
                    let body = self.block_body(depth + 1)?;
                    out.push(Statement::Block { span, body });
                }
                Some(Tok::Dot(d)) => match d.as_str() {
                    ".reg" => {
                        self.pos += 1;
                        out.push(Statement::Reg(self.reg_decl(span)?));
                    }
                    ".callprototype" => {
                        self.pos += 1;
                        let mut parts = Vec::new();
                        loop {
                            match self.peek() {
                                None => return Err(self.err_here("unterminated `.callprototype`")),
                                Some(Tok::Punct(';')) => {
                                    self.pos += 1;
                                    break;
                                }
                                Some(t) => {
                                    parts.push(tok_text(t));
                                    self.pos += 1;
                                }
                            }
                        }
                        out.push(Statement::CallPrototype {
                            span,
                            text: parts.join(" "),
                        });
                    }
                    ".pragma" => {
                        self.pos += 1;
                        let values = self.pragma_values()?;
                        out.push(Statement::Pragma { span, values });
                    }
                    ".loc" => {
                        self.pos += 1;
                        let file = self.expect_u32("a file index")?;
                        let line = self.expect_u32("a line")?;
                        let col = self.expect_u32("a column")?;
                        // `, function_name LABEL[+N], inlined_at F L C` (§11.5.2): inlining
                        // provenance; the call site is kept (source lines of inlined code).
                        let mut inlined_at = None;
                        while self.eat_punct(',') {
                            let (kw, kspan) =
                                self.expect_ident("`function_name` or `inlined_at`")?;
                            match kw.as_str() {
                                "function_name" => {
                                    self.expect_ident("a label")?;
                                    if self.eat_punct('+') {
                                        self.expect_int("an offset")?;
                                    }
                                }
                                "inlined_at" => {
                                    let f = self.expect_u32("a file index")?;
                                    let l = self.expect_u32("a line")?;
                                    let c = self.expect_u32("a column")?;
                                    inlined_at = Some((f, l, c));
                                }
                                _ => {
                                    return Err(Self::err_at(
                                        kspan,
                                        format!("unknown `.loc` attribute `{kw}`"),
                                    ))
                                }
                            }
                        }
                        out.push(Statement::Loc {
                            span,
                            file,
                            line,
                            col,
                            inlined_at,
                        });
                    }
                    d if is_var_space(d) || d == ".param" => {
                        for v in self.variables(span, None)? {
                            out.push(Statement::Var(v));
                        }
                    }
                    _ => {
                        return Err(
                            self.err_here(format!("unexpected directive `{d}` in a function body"))
                        )
                    }
                },
                Some(Tok::Ident(name)) if self.peek_at(1) == Some(&Tok::Punct(':')) => {
                    self.pos += 2;
                    out.push(Statement::Label { span, name });
                }
                Some(Tok::Ident(_)) | Some(Tok::Punct('@')) => {
                    out.push(Statement::Instr(self.instruction()?));
                }
                Some(_) => {
                    return Err(self.err_here(format!(
                        "expected an instruction, label or declaration, found {}",
                        self.found()
                    )))
                }
            }
        }
    }

    fn reg_decl(&mut self, span: Span) -> PResult<RegDecl> {
        let mut align = None;
        let mut vector = None;
        let mut ty = None;
        while let Some(Tok::Dot(d)) = self.peek().cloned() {
            let dspan = self.span();
            self.pos += 1;
            if d == ".align" {
                align = Some(self.expect_u32("an alignment")?);
            } else if let Some(v) = VecWidth::from_ptx(&d) {
                vector = Some(v);
            } else if let Some(t) = ScalarType::from_ptx(&d) {
                if ty.is_some() {
                    return Err(Self::err_at(dspan, format!("second type `{d}` on `.reg`")));
                }
                ty = Some(t);
            } else {
                return Err(Self::err_at(
                    dspan,
                    format!("unexpected `{d}` in a `.reg` declaration"),
                ));
            }
        }
        let Some(ty) = ty else {
            return Err(Self::err_at(span, "`.reg` declaration has no type"));
        };
        let mut names = Vec::new();
        loop {
            let (name, nspan) = self.expect_ident("a register name")?;
            if SpecialReg::is_special_name(&name) {
                return Err(Self::err_at(
                    nspan,
                    format!("`{name}` is a special register and cannot be declared"),
                ));
            }
            let count = if self.eat_punct('<') {
                let n = self.expect_u32("a register count")?;
                self.expect_punct('>', "to close a register count")?;
                Some(n)
            } else {
                None
            };
            self.note_reg(&name, count);
            names.push(RegName { name, count });
            if self.eat_punct(';') {
                break;
            }
            self.expect_punct(',', "or `;` after a register name")?;
        }
        Ok(RegDecl {
            span,
            align,
            vector,
            ty,
            names,
        })
    }

    fn instruction(&mut self) -> PResult<Instruction> {
        let span = self.span();
        let guard = if self.eat_punct('@') {
            let negated = self.eat_punct('!');
            let (pred, _) = self.expect_ident("a predicate register after `@`")?;
            Some(Guard { negated, pred })
        } else {
            None
        };
        let (name, ospan) = self.expect_ident("an instruction")?;
        let Some(opcode) = Opcode::from_ptx(&name) else {
            return Err(Self::err_at(ospan, format!("unknown instruction `{name}`")));
        };
        let mut mods = Modifiers::default();
        while let Some(Tok::Dot(q)) = self.peek().cloned() {
            let qspan = self.span();
            self.pos += 1;
            apply_qualifier(opcode, &q, &mut mods).map_err(|m| Self::err_at(qspan, m))?;
        }
        check_modifiers(opcode, &mods).map_err(|m| Self::err_at(ospan, m))?;
        let mut operands = Vec::new();
        self.skip_inline_labels();
        if !self.eat_punct(';') {
            loop {
                self.skip_inline_labels();
                operands.push(self.operand(&name, 0)?);
                self.skip_inline_labels();
                if self.eat_punct(';') {
                    break;
                }
                if !self.eat_punct(',') {
                    return Err(self.err_here(format!(
                        "expected `,` or `;` after an operand of `{name}`, found {}",
                        self.found()
                    )));
                }
            }
        }
        Ok(Instruction {
            span,
            guard,
            opcode,
            mods,
            operands,
        })
    }

    fn classify_ident(&self, name: String) -> Operand {
        if name.starts_with('%') || self.regs.contains(&name) || self.is_prefixed_reg(&name) {
            Operand::Reg(name)
        } else {
            Operand::Symbol { name, offset: 0 }
        }
    }

    fn is_prefixed_reg(&self, name: &str) -> bool {
        let digits = name.trim_end_matches(|c: char| c.is_ascii_digit());
        digits.len() < name.len() && self.reg_prefixes.contains(digits)
    }

    fn operand(&mut self, insn: &str, depth: usize) -> PResult<Operand> {
        if depth > MAX_DEPTH {
            return Err(self.err_here("operand nested too deeply"));
        }
        let span = self.span();
        let Some(tok) = self.bump() else {
            return Err(Self::err_at(
                span,
                format!("unexpected end of input in the operands of `{insn}`"),
            ));
        };
        let op = match tok.tok {
            Tok::Punct('[') => {
                let bspan = self.span();
                let base = match self.bump().map(|t| t.tok) {
                    Some(Tok::Ident(n)) => match self.classify_ident(n) {
                        Operand::Reg(r) => AddrBase::Reg(r),
                        Operand::Symbol { name, .. } => AddrBase::Symbol(name),
                        _ => unreachable!("classify_ident returns Reg or Symbol"),
                    },
                    Some(Tok::Int { value, .. }) => AddrBase::Absolute(value),
                    other => {
                        let what = other.map(|t| t.describe()).unwrap_or("end of input".into());
                        return Err(Self::err_at(
                            bspan,
                            format!("expected a register or name inside `[...]`, found {what}"),
                        ));
                    }
                };
                let offset = self.symbol_offset()?;
                self.expect_punct(']', "to close an address")?;
                Operand::Addr(Address { base, offset })
            }
            Tok::Punct('{') => {
                let mut elems = Vec::new();
                loop {
                    elems.push(self.operand(insn, depth + 1)?);
                    if self.eat_punct('}') {
                        break;
                    }
                    self.expect_punct(',', "between vector elements")?;
                }
                Operand::Vector(elems)
            }
            Tok::Punct('(') => {
                let mut elems = Vec::new();
                self.skip_inline_labels();
                if !self.eat_punct(')') {
                    loop {
                        self.skip_inline_labels();
                        elems.push(self.operand(insn, depth + 1)?);
                        self.skip_inline_labels();
                        if self.eat_punct(')') {
                            break;
                        }
                        self.expect_punct(',', "between list elements")?;
                    }
                }
                Operand::List(elems)
            }
            Tok::Punct('!') => Operand::Not(Box::new(self.operand(insn, depth + 1)?)),
            Tok::Punct('-') => match self.bump().map(|t| t.tok) {
                Some(Tok::Int { value, .. }) => Operand::Int(value.wrapping_neg()),
                Some(Tok::Float { value, .. }) => Operand::Float(-value),
                _ => return Err(Self::err_at(span, "expected a number after `-`")),
            },
            Tok::Int { value, .. } => Operand::Int(value),
            Tok::F32Bits(b) => Operand::F32(b),
            Tok::F64Bits(b) => Operand::F64(b),
            Tok::Float { value, .. } => Operand::Float(value),
            Tok::Ident(n) if n == "_" => Operand::Sink,
            Tok::Ident(n) if SpecialReg::is_vector_name(&n) => {
                let dim = match self.peek() {
                    Some(Tok::Dot(d)) if d == ".x" => Dim::X,
                    Some(Tok::Dot(d)) if d == ".y" => Dim::Y,
                    Some(Tok::Dot(d)) if d == ".z" => Dim::Z,
                    _ => {
                        return Err(self.err_here(format!(
                            "special register `{n}` needs a component `.x`, `.y` or `.z`"
                        )))
                    }
                };
                self.pos += 1;
                Operand::Special(SpecialReg::from_name(&n, Some(dim)).unwrap_or(SpecialReg::Laneid))
            }
            Tok::Ident(n) => {
                if let Some(s) = SpecialReg::from_name(&n, None) {
                    Operand::Special(s)
                } else {
                    match self.classify_ident(n) {
                        Operand::Reg(r) if self.is_punct('|') => {
                            self.pos += 1;
                            let (q, _) = self.expect_ident("a predicate after `|`")?;
                            Operand::PredPair(r, q)
                        }
                        Operand::Symbol { name, .. } => {
                            let offset = self.symbol_offset()?;
                            Operand::Symbol { name, offset }
                        }
                        other => other,
                    }
                }
            }
            other => {
                return Err(Self::err_at(
                    span,
                    format!(
                        "unexpected {} in the operands of `{insn}`",
                        other.describe()
                    ),
                ))
            }
        };
        if let Some(Tok::Dot(d)) = self.peek() {
            return Err(self.err_here(format!("unexpected `{d}` after an operand of `{insn}`")));
        }
        Ok(op)
    }
}

/// Whether `d` is a state space that a variable declaration may start with.
fn is_var_space(d: &str) -> bool {
    matches!(
        d,
        ".global" | ".shared" | ".const" | ".local" | ".shared::cta" | ".shared::cluster"
    )
}

/// Which groups of qualifiers each opcode takes (PTX ISA §9.7, per-instruction syntax).
mod allow {
    pub const SEM: u32 = 1 << 0;
    pub const SCOPE: u32 = 1 << 1;
    pub const SPACE: u32 = 1 << 2;
    pub const CACHE: u32 = 1 << 3;
    pub const HINT: u32 = 1 << 4;
    pub const VEC: u32 = 1 << 5;
    pub const TYPE: u32 = 1 << 6;
    pub const RND: u32 = 1 << 7;
    pub const FTZ: u32 = 1 << 8;
    pub const SAT: u32 = 1 << 9;
    pub const APPROX: u32 = 1 << 10;
    pub const CC: u32 = 1 << 11;
    pub const NC: u32 = 1 << 12;
    pub const TO: u32 = 1 << 13;
    pub const SYNC: u32 = 1 << 14;
    pub const BAR: u32 = 1 << 15;
    pub const UNI: u32 = 1 << 16;
    pub const ALIGNED: u32 = 1 << 17;
}

fn allowed(op: Opcode) -> u32 {
    use allow::*;
    use Opcode::*;
    match op {
        Ld => SEM | SCOPE | SPACE | CACHE | HINT | VEC | TYPE | NC,
        Ldu => SPACE | VEC | TYPE,
        St => SEM | SCOPE | SPACE | CACHE | HINT | VEC | TYPE,
        Atom | Red => SEM | SCOPE | SPACE | HINT | VEC | TYPE,
        Fence => SEM | SCOPE,
        Membar => SCOPE,
        Bar | Barrier => SCOPE | SYNC | BAR | ALIGNED | TYPE,
        Setp | Set => TYPE | FTZ,
        Selp => TYPE,
        Slct => TYPE | FTZ,
        Add | Sub => TYPE | RND | FTZ | SAT | CC,
        Addc | Subc => TYPE | CC,
        Mul | Mad => TYPE | RND | FTZ | SAT | CC,
        Mul24 | Mad24 => TYPE | SAT,
        Sad | Rem | And | Or | Xor | Not | Cnot | Shl | Shr | Shf | Popc | Clz | Bfind | Brev
        | Bfe | Bfi | Prmt | Copysign => TYPE,
        Div => TYPE | RND | FTZ | APPROX,
        Abs | Neg | Min | Max => TYPE | FTZ,
        Fma => TYPE | RND | FTZ | SAT,
        Rcp | Sqrt | Rsqrt | Sin | Cos | Lg2 | Ex2 | Tanh => TYPE | RND | FTZ | APPROX,
        Cvt => TYPE | RND | FTZ | SAT,
        Cvta => SPACE | TO | TYPE,
        Mov => TYPE | VEC,
        Bra | Call | Ret => UNI,
        Exit | Trap | Brkpt => 0,
        Shfl | Vote => SYNC | TYPE | ALIGNED,
        Match => SYNC | TYPE,
        Activemask | Nanosleep => TYPE,
    }
}

/// Sets `slot` to `v`, or explains the clash with an earlier qualifier.
fn set_once<T: Copy + PartialEq>(
    slot: &mut Option<T>,
    v: T,
    q: &str,
    op: Opcode,
    show: impl Fn(T) -> &'static str,
) -> Result<(), String> {
    match *slot {
        Some(old) if old == v => Err(format!("duplicate qualifier `{q}` in `{op}`")),
        Some(old) => Err(format!(
            "conflicting qualifiers `{}` and `{q}` in `{op}`",
            show(old)
        )),
        None => {
            *slot = Some(v);
            Ok(())
        }
    }
}

fn set_flag(flag: &mut bool, q: &str, op: Opcode) -> Result<(), String> {
    if *flag {
        return Err(format!("duplicate qualifier `{q}` in `{op}`"));
    }
    *flag = true;
    Ok(())
}

/// Classifies one dotted qualifier `q` of an instruction with opcode `op` into `m`.
///
/// Ambiguous spellings are resolved by opcode: `.lo/.hi` are a product half for
/// `mul`/`mad` but comparisons for `setp`/`set`; `.and/.or/.xor/.min/.max/...` are the
/// operation of `atom`/`red`, the combiner of `setp`, or the reduction of `bar.red`;
/// `.uni` is a vote mode for `vote` and the non-divergence flag of `bra`/`call`/`ret`;
/// `membar` takes the levels `.cta`, `.gl` (stored as [`Scope::Gpu`]) and `.sys`.
pub fn apply_qualifier(op: Opcode, q: &str, m: &mut Modifiers) -> Result<(), String> {
    match by_opcode(op, q, m) {
        Some(r) => r,
        None => common(op, q, m),
    }
}

/// The qualifiers whose spelling means something only for some opcodes (see
/// [`apply_qualifier`]); `None` when `q` is not one of them for `op`.
fn by_opcode(op: Opcode, q: &str, m: &mut Modifiers) -> Option<Result<(), String>> {
    use Opcode::*;
    let not_valid = || format!("qualifier `{q}` is not valid for `{op}`");
    if op == Membar {
        let s = match q {
            ".cta" => Scope::Cta,
            ".gl" => Scope::Gpu,
            ".sys" => Scope::Sys,
            _ => {
                return Some(Err(format!(
                    "`membar` takes `.cta`, `.gl` or `.sys`, not `{q}`"
                )))
            }
        };
        return Some(set_once(&mut m.scope, s, q, op, |s| match s {
            Scope::Gpu => ".gl",
            other => other.as_str(),
        }));
    }
    if matches!(op, Atom | Red) {
        if let Some(a) = AtomOp::from_ptx(q) {
            return Some(set_once(&mut m.atom, a, q, op, AtomOp::as_str));
        }
    }
    if matches!(op, Setp | Set) {
        if let Some(b) = BoolOp::from_ptx(q) {
            return Some(set_once(&mut m.bool_op, b, q, op, BoolOp::as_str));
        }
        if let Some(c) = CmpOp::from_ptx(q) {
            return Some(set_once(&mut m.cmp, c, q, op, CmpOp::as_str));
        }
    }
    if matches!(op, Bar | Barrier) {
        if let Some(r) = BarRedOp::from_ptx(q) {
            return Some(set_once(&mut m.bar_red, r, q, op, BarRedOp::as_str));
        }
        match q {
            ".arrive" => return Some(set_flag(&mut m.arrive, q, op)),
            ".red" => return Some(set_flag(&mut m.red, q, op)),
            ".warp" if op == Bar => return Some(set_flag(&mut m.warp, q, op)),
            _ => {}
        }
    }
    if matches!(op, Mul | Mad | Mul24 | Mad24) {
        if let Some(mm) = MulMode::from_ptx(q) {
            if mm == MulMode::Wide && matches!(op, Mul24 | Mad24) {
                return Some(Err(not_valid()));
            }
            return Some(set_once(&mut m.mul, mm, q, op, MulMode::as_str));
        }
    }
    if op == Shfl {
        if let Some(s) = ShflMode::from_ptx(q) {
            return Some(set_once(&mut m.shfl, s, q, op, ShflMode::as_str));
        }
    }
    // `match.sync`'s `.any`/`.all` are spelled as vote's.
    if op == Vote || (op == Match && matches!(q, ".any" | ".all")) {
        if let Some(v) = VoteMode::from_ptx(q) {
            return Some(set_once(&mut m.vote, v, q, op, VoteMode::as_str));
        }
    }
    if op == Shf {
        if let Some(d) = ShfDir::from_ptx(q) {
            return Some(set_once(&mut m.shf_dir, d, q, op, ShfDir::as_str));
        }
        if let Some(d) = ShfMode::from_ptx(q) {
            return Some(set_once(&mut m.shf_mode, d, q, op, ShfMode::as_str));
        }
    }
    None
}

/// The qualifiers every opcode spells alike: flags, semantics, scope, state space, cache
/// operators and hints, vector width, types and rounding, checked against what `op` allows.
fn common(op: Opcode, q: &str, m: &mut Modifiers) -> Result<(), String> {
    use allow::*;
    use Opcode::*;
    let ok = allowed(op);
    let not_valid = || format!("qualifier `{q}` is not valid for `{op}`");
    let (bit, flag): (u32, Option<&mut bool>) = match q {
        ".ftz" => (FTZ, Some(&mut m.ftz)),
        ".sat" => (SAT, Some(&mut m.sat)),
        ".approx" => (APPROX, Some(&mut m.approx)),
        ".full" => (APPROX, Some(&mut m.full)),
        ".cc" => (CC, Some(&mut m.cc)),
        ".nc" => (NC, Some(&mut m.nc)),
        ".to" => (TO, Some(&mut m.to)),
        ".sync" => (SYNC, Some(&mut m.sync)),
        ".uni" => (UNI, Some(&mut m.uni)),
        ".aligned" => (ALIGNED, Some(&mut m.aligned)),
        _ => (0, None),
    };
    if let Some(flag) = flag {
        if ok & bit == 0 {
            return Err(not_valid());
        }
        return set_flag(flag, q, op);
    }
    if let Some(s) = Sem::from_ptx(q) {
        if ok & SEM == 0 {
            return Err(not_valid());
        }
        return set_once(&mut m.sem, s, q, op, Sem::as_str);
    }
    if let Some(s) = Scope::from_ptx(q) {
        if ok & SCOPE == 0 || (matches!(op, Bar | Barrier) && s != Scope::Cta) {
            return Err(not_valid());
        }
        return set_once(&mut m.scope, s, q, op, Scope::as_str);
    }
    if let Some(s) = StateSpace::from_ptx(q) {
        if ok & SPACE == 0 || matches!(s, StateSpace::Reg | StateSpace::Sreg) {
            return Err(not_valid());
        }
        return set_once(&mut m.space, s, q, op, StateSpace::as_str);
    }
    if let Some(c) = CacheOp::from_ptx(q) {
        if ok & CACHE == 0 {
            return Err(not_valid());
        }
        return set_once(&mut m.cache, c, q, op, CacheOp::as_str);
    }
    if let Some(h) = CacheHint::from_ptx(q) {
        if ok & HINT == 0 {
            return Err(not_valid());
        }
        if m.hints.contains(&h) {
            return Err(format!("duplicate qualifier `{q}` in `{op}`"));
        }
        m.hints.push(h);
        return Ok(());
    }
    if let Some(v) = VecWidth::from_ptx(q) {
        if ok & VEC == 0 {
            return Err(not_valid());
        }
        return set_once(&mut m.vector, v, q, op, VecWidth::as_str);
    }
    if let Some(t) = ScalarType::from_ptx(q) {
        if ok & TYPE == 0 {
            return Err(not_valid());
        }
        let max = if matches!(op, Cvt | Set | Slct) { 2 } else { 1 };
        if m.types.len() >= max {
            return Err(format!(
                "too many types in `{op}`: `{q}` after {}",
                m.types
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        m.types.push(t);
        return Ok(());
    }
    if let Some(r) = Rounding::from_ptx(q) {
        if ok & RND == 0 {
            return Err(not_valid());
        }
        return set_once(&mut m.rounding, r, q, op, Rounding::as_str);
    }
    if is_known_qualifier(q) {
        Err(not_valid())
    } else {
        Err(format!("unknown qualifier `{q}` in `{op}`"))
    }
}

/// Whether `q` is a qualifier of some instruction (for a better error message).
fn is_known_qualifier(q: &str) -> bool {
    AtomOp::from_ptx(q).is_some()
        || CmpOp::from_ptx(q).is_some()
        || BarRedOp::from_ptx(q).is_some()
        || MulMode::from_ptx(q).is_some()
        || ShflMode::from_ptx(q).is_some()
        || VoteMode::from_ptx(q).is_some()
        || ShfDir::from_ptx(q).is_some()
        || ShfMode::from_ptx(q).is_some()
        || matches!(q, ".gl" | ".arrive" | ".red" | ".warp")
}

/// Whole-instruction checks after all qualifiers are read: required types, and the
/// `.sem`/`.scope` combinations the ISA allows (§9.7: `ld`/`st`, `atom`, `red`, `fence`,
/// `membar`).
pub fn check_modifiers(op: Opcode, m: &Modifiers) -> Result<(), String> {
    use Opcode::*;
    let needs_type = !matches!(
        op,
        Fence | Membar | Bar | Barrier | Bra | Call | Ret | Exit | Trap | Brkpt
    ) || (matches!(op, Bar | Barrier) && m.red);
    if needs_type && m.types.is_empty() {
        return Err(format!("`{op}` needs a type qualifier (such as `.u32`)"));
    }
    if op == Cvt && m.types.len() != 2 {
        return Err("`cvt` needs a destination and a source type (`cvt.u64.u32`)".into());
    }
    if let Some(s) = m.sem {
        let legal: &[Sem] = match op {
            Ld => &[
                Sem::Weak,
                Sem::Volatile,
                Sem::Relaxed,
                Sem::Acquire,
                Sem::Mmio,
            ],
            St => &[
                Sem::Weak,
                Sem::Volatile,
                Sem::Relaxed,
                Sem::Release,
                Sem::Mmio,
            ],
            Atom => &[Sem::Relaxed, Sem::Acquire, Sem::Release, Sem::AcqRel],
            Red => &[Sem::Relaxed, Sem::Release],
            Fence => &[Sem::Sc, Sem::AcqRel],
            _ => &[],
        };
        if !legal.contains(&s) {
            return Err(format!("`{op}` cannot be `{s}`"));
        }
        if matches!(op, Ld | St)
            && matches!(s, Sem::Relaxed | Sem::Acquire | Sem::Release)
            && m.scope.is_none()
        {
            return Err(format!(
                "`{op}{s}` needs a scope (`.cta`, `.cluster`, `.gpu` or `.sys`)"
            ));
        }
    }
    if matches!(op, Ld | St)
        && m.scope.is_some()
        && !matches!(
            m.sem,
            Some(Sem::Relaxed | Sem::Acquire | Sem::Release | Sem::Mmio)
        )
    {
        return Err(format!(
            "a scope on `{op}` needs `.relaxed`, `.acquire` or `.release`"
        ));
    }
    if op == Fence && (m.scope.is_none() || m.sem.is_none()) {
        return Err("`fence` needs an ordering and a scope (`fence.sc.gpu`)".into());
    }
    if op == Membar && m.scope.is_none() {
        return Err("`membar` needs a level (`.cta`, `.gl` or `.sys`)".into());
    }
    if matches!(op, Atom | Red) && m.atom.is_none() {
        return Err(format!("`{op}` needs an operation (`.add`, `.cas`, ...)"));
    }
    if op == Shfl && (m.shfl.is_none() || !m.sync) {
        return Err("`shfl` must be written `shfl.sync` with a mode (`.down`, ...)".into());
    }
    if op == Vote && (m.vote.is_none() || !m.sync) {
        return Err("`vote` must be written `vote.sync` with a mode (`.ballot`, ...)".into());
    }
    if matches!(op, Setp | Set) && m.cmp.is_none() {
        return Err(format!("`{op}` needs a comparison (`.lt`, `.eq`, ...)"));
    }
    if op == Cvta && m.space.is_none() {
        return Err("`cvta` needs a state space (`cvta.to.global`)".into());
    }
    if matches!(op, Bar | Barrier) && !(m.sync || m.arrive || m.red) {
        return Err(format!("`{op}` needs `.sync`, `.arrive` or `.red`"));
    }
    if m.warp && !(m.sync && !m.arrive && !m.red) {
        return Err("`bar.warp` must be `bar.warp.sync`".into());
    }
    Ok(())
}

/// A token as PTX text (for declarations kept verbatim, such as `.callprototype`).
fn tok_text(t: &Tok) -> String {
    match t {
        Tok::Ident(s) | Tok::Dot(s) => s.clone(),
        Tok::Int { value, unsigned } => {
            if *unsigned {
                format!("{}U", *value as u64)
            } else {
                value.to_string()
            }
        }
        Tok::F32Bits(b) => format!("0f{b:08X}"),
        Tok::F64Bits(b) => format!("0d{b:016X}"),
        Tok::Float { text, .. } => text.clone(),
        Tok::Str(s) => format!("{s:?}"),
        Tok::Punct(c) => c.to_string(),
    }
}
