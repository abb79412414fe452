//! GPU_PTX syntax: the header, the init block (register declarations and initial values),
//! the column program split into cells, the scope tree and the memory map, before any
//! meaning is given to instructions.

use std::collections::{HashMap, HashSet};

use super::{err_at, level_from_name, lex_options, space_from_name, PResult, RESERVED};
use crate::diag::{quote, ParseError};
use crate::lex::{tokenize, Cursor, Tok, Token};
use weft_ir::{DataType, MemSpace, Scope, Span};

/// Which thread an init-block entry names: `0:` or `T0:`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum ThreadRef {
    Index(i64),
    Name(String),
}

pub(super) struct RawReg {
    pub(super) thread: ThreadRef,
    /// Position of the entry (its thread prefix).
    pub(super) span: Span,
    pub(super) name: String,
    pub(super) ty: Option<DataType>,
    pub(super) init: Option<RawValue>,
}

#[derive(Clone)]
pub(super) enum RawValue {
    Int(i64),
    Loc(String, Span),
}

/// One cell of the program: its tokens and where the cell ends (the separator).
pub(super) struct Cell {
    pub(super) toks: Vec<Token>,
    pub(super) end: (u32, u32),
}

pub(super) struct ScopeNode {
    pub(super) level: Scope,
    pub(super) items: Vec<ScopeItem>,
}

pub(super) enum ScopeItem {
    Node(ScopeNode),
    Thread(String, Span),
}

pub(super) struct Syntax {
    pub(super) name: String,
    pub(super) doc: Vec<String>,
    pub(super) regs: Vec<RawReg>,
    /// Location names in order of first mention in the init block, with their spans.
    pub(super) mentions: Vec<(String, Span)>,
    pub(super) loc_inits: HashMap<String, i64>,
    pub(super) threads: Vec<(String, Span)>,
    pub(super) rows: Vec<Vec<Cell>>,
    pub(super) tree: Option<(Span, Vec<ScopeNode>)>,
    pub(super) memory_map: Vec<(String, Span, MemSpace)>,
    /// The tokens of the final part and the end-of-input position.
    pub(super) condition: Option<(Vec<Token>, (u32, u32))>,
}

pub(super) fn parse_syntax(src: &str) -> PResult<Syntax> {
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    let (line_no, name, rest) = header(src)?;
    let toks = tokenize(rest, line_no + 1, 1, lex_options())?;
    let end = end_position(src);
    let mut c = Cursor::new(toks, end);

    let mut doc = Vec::new();
    while let Some(Token {
        tok: Tok::Str(s), ..
    }) = c.peek()
    {
        doc.push(s.clone());
        c.next();
    }
    let (regs, mentions, loc_inits) = init_block(&mut c)?;
    let threads = thread_names(&mut c)?;
    let rows = program_rows(&mut c, threads.len())?;
    let tree = scope_tree(&mut c)?;
    let memory_map = memory_map(&mut c, tree.is_some())?;

    // Final part: `locations`, `filter` and the condition, parsed once the program is
    // lowered (terms name its registers and locations).
    let mut condition = None;
    if !c.at_end() {
        if !at_condition(&c) {
            return Err(c.expected(
                "a row of instructions, `ScopeTree`, a memory map or a final condition",
            ));
        }
        let toks: Vec<Token> = c.by_ref().collect();
        condition = Some((toks, end));
    }

    Ok(Syntax {
        name,
        doc,
        regs,
        mentions,
        loc_inits,
        threads,
        rows,
        tree,
        memory_map,
        condition,
    })
}

/// The header line `GPU_PTX name`: its line number, the name and the text after it.
fn header(src: &str) -> PResult<(u32, String, &str)> {
    let mut line_no = 1u32;
    let mut rest = src;
    let header = loop {
        let (line, tail) = match rest.find('\n') {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        if !line.trim().is_empty() {
            rest = tail.unwrap_or("");
            break line;
        }
        match tail {
            Some(t) => {
                rest = t;
                line_no += 1;
            }
            None => {
                return Err(ParseError::new(
                    line_no,
                    1,
                    "empty file: expected `GPU_PTX name`",
                ))
            }
        }
    };
    let lead = header.len() - header.trim_start().len();
    let trimmed = header.trim();
    let word_len = trimmed
        .find(|c: char| c.is_whitespace())
        .unwrap_or(trimmed.len());
    let word = &trimmed[..word_len];
    let header_col = header[..lead].chars().count() as u32 + 1;
    if !word.eq_ignore_ascii_case("GPU_PTX") {
        return Err(ParseError::new(
            line_no,
            header_col,
            format!("expected `GPU_PTX name`, found {}", quote(word)),
        ));
    }
    let name = trimmed[word_len..].trim().to_string();
    Ok((line_no, name, rest))
}

/// Locations named in the init block, in order of first mention, with their spans.
type Mentions = Vec<(String, Span)>;

/// The init block: register declarations, the locations mentioned, location initial values.
fn init_block(c: &mut Cursor) -> PResult<(Vec<RawReg>, Mentions, HashMap<String, i64>)> {
    c.expect_punct("{")?;
    let mut regs: Vec<RawReg> = Vec::new();
    let mut mentions: Vec<(String, Span)> = Vec::new();
    let mut loc_inits: HashMap<String, i64> = HashMap::new();
    let mut seen_regs: HashSet<(ThreadRef, String)> = HashSet::new();
    let mention = |mentions: &mut Vec<(String, Span)>, name: &str, span: Span| {
        if !mentions.iter().any(|(n, _)| n == name) {
            mentions.push((name.to_string(), span));
        }
    };
    loop {
        if c.eat_punct("}") {
            break;
        }
        if c.eat_punct(";") {
            continue;
        }
        let start = c.peek().cloned().ok_or_else(|| c.expected("`}`"))?;
        let thread = match (&start.tok, c.peek_at(1)) {
            (Tok::Int(n), Some(t)) if t.is_punct(":") => Some(ThreadRef::Index(*n)),
            (Tok::Ident(s), Some(t)) if t.is_punct(":") => Some(ThreadRef::Name(s.clone())),
            _ => None,
        };
        match thread {
            Some(thread) => {
                c.next();
                c.next();
                let mut decls: Vec<(String, Option<DataType>, Token)> = Vec::new();
                let dotreg = c.eat_ident(".reg");
                if dotreg {
                    let mut ty = None;
                    if let Some(Token {
                        tok: Tok::Ident(s), ..
                    }) = c.peek()
                    {
                        if let Some(tn) = s.strip_prefix('.') {
                            let tk = c.peek().cloned().expect("peeked");
                            ty = Some(DataType::from_ptx(tn).ok_or_else(|| {
                                err_at(&tk, format!("unknown register type {}", quote(s)))
                            })?);
                            c.next();
                        }
                    }
                    loop {
                        let tk = c.peek().cloned();
                        let (n, _) = c.ident("a register name")?;
                        decls.push((n, ty, tk.expect("ident")));
                        if !c.eat_punct(",") {
                            break;
                        }
                    }
                } else {
                    let tk = c.peek().cloned();
                    let (n, _) = c.ident("`.reg` or a register name")?;
                    decls.push((n, None, tk.expect("ident")));
                }
                let mut init = None;
                if c.eat_punct("=") {
                    if decls.len() > 1 {
                        return Err(c.error("give one register per declaration with `=`"));
                    }
                    init = Some(match c.peek() {
                        Some(Token {
                            tok: Tok::Ident(s),
                            line,
                            col,
                        }) => {
                            let v = RawValue::Loc(s.clone(), Span::new(*line, *col));
                            c.next();
                            v
                        }
                        _ => RawValue::Int(c.int("an integer or a location")?),
                    });
                } else if !dotreg {
                    return Err(c.expected("`=` and an initial value"));
                }
                for (n, ty, tk) in decls {
                    check_name(&tk, &n, "register")?;
                    if !seen_regs.insert((thread.clone(), n.clone())) {
                        return Err(err_at(
                            &start,
                            format!(
                                "register `{n}` declared twice in thread {}",
                                match &thread {
                                    ThreadRef::Index(i) => i.to_string(),
                                    ThreadRef::Name(s) => s.clone(),
                                }
                            ),
                        ));
                    }
                    if let Some(RawValue::Loc(l, sp)) = &init {
                        mention(&mut mentions, l, *sp);
                    }
                    regs.push(RawReg {
                        thread: thread.clone(),
                        span: start.span(),
                        name: n,
                        ty,
                        init: init.clone(),
                    });
                }
            }
            None => {
                let (n, sp) = c.ident("a location, `0:.reg` or `}`")?;
                check_name(&start, &n, "location")?;
                c.expect_punct("=")?;
                let v = c.int("an integer")?;
                if loc_inits.insert(n.clone(), v).is_some() {
                    return Err(err_at(&start, format!("location `{n}` initialised twice")));
                }
                mention(&mut mentions, &n, sp);
            }
        }
        if !c.eat_punct(";") && !c.peek().is_some_and(|t| t.is_punct("}")) {
            return Err(c.expected("`;` or `}`"));
        }
    }
    Ok((regs, mentions, loc_inits))
}

/// Thread names: `T0 | T1 ;`.
fn thread_names(c: &mut Cursor) -> PResult<Vec<(String, Span)>> {
    let mut threads: Vec<(String, Span)> = Vec::new();
    loop {
        let tk = c.peek().cloned();
        let (n, sp) = c.ident("a thread name such as `T0`")?;
        if let Some(tk) = &tk {
            check_name(tk, &n, "thread")?;
            if threads.iter().any(|(m, _)| *m == n) {
                return Err(err_at(tk, format!("thread `{n}` named twice")));
            }
        }
        threads.push((n, sp));
        if c.eat_punct("|") {
            continue;
        }
        if c.eat_punct(";") {
            break;
        }
        return Err(c.expected("`|` or `;`"));
    }
    Ok(threads)
}

/// The program rows, each split into one cell per thread (`nthreads` of them).
fn program_rows(c: &mut Cursor, nthreads: usize) -> PResult<Vec<Vec<Cell>>> {
    let mut rows = Vec::new();
    while !c.at_end() && !at_section_end(c) {
        let mut cells = Vec::new();
        let mut cur = Vec::new();
        loop {
            let Some(t) = c.next() else {
                return Err(c.expected("`;` ending the row"));
            };
            if t.is_punct(";") || t.is_punct("|") || t.is_punct("||") {
                let end = (t.line, t.col);
                cells.push(Cell {
                    toks: std::mem::take(&mut cur),
                    end,
                });
                if t.is_punct("||") {
                    cells.push(Cell {
                        toks: Vec::new(),
                        end: (t.line, t.col + 1),
                    });
                }
                if t.is_punct(";") {
                    if cells.len() != nthreads {
                        return Err(err_at(
                            &t,
                            format!(
                                "this row has {} column(s) but the test has {} thread(s)",
                                cells.len(),
                                nthreads
                            ),
                        ));
                    }
                    break;
                }
                continue;
            }
            cur.push(t);
        }
        rows.push(cells);
    }
    Ok(rows)
}

/// The scope tree, if one follows.
fn scope_tree(c: &mut Cursor) -> PResult<Option<(Span, Vec<ScopeNode>)>> {
    let mut tree = None;
    if let Some(t) = c.peek().cloned() {
        if t.is_ident("ScopeTree") || t.is_ident("scopeTree") {
            c.next();
            let mut roots = Vec::new();
            if !c.peek().is_some_and(|t| t.is_punct("(")) {
                return Err(c.expected("`(` opening the scope tree"));
            }
            while c.peek().is_some_and(|t| t.is_punct("(")) {
                roots.push(scope_node(c, None, 0)?);
            }
            tree = Some((t.span(), roots));
        }
    }
    Ok(tree)
}

/// The memory map, if one follows (`has_tree`: a scope tree came before it).
fn memory_map(c: &mut Cursor, has_tree: bool) -> PResult<Vec<(String, Span, MemSpace)>> {
    let mut memory_map: Vec<(String, Span, MemSpace)> = Vec::new();
    // After the scope tree any `name : word` is a memory map entry (rows have ended), so
    // that a misspelt space is reported as such.
    let entry_ahead = |c: &Cursor| {
        memory_map_ahead(c)
            || (has_tree
                && matches!(
                    (c.peek(), c.peek_at(1), c.peek_at(2)),
                    (Some(Token { tok: Tok::Ident(_), .. }), Some(colon), Some(Token { tok: Tok::Ident(_), .. }))
                        if colon.is_punct(":")
                ))
    };
    if entry_ahead(c) {
        loop {
            let start = c.peek().cloned().expect("memory map entry");
            let (n, sp) = c.ident("a location")?;
            c.expect_punct(":")?;
            let st = c.peek().cloned();
            let (s, _) = c.ident("a memory space (global, shared, local, const, param)")?;
            let space = space_from_name(&s).ok_or_else(|| {
                err_at(
                    st.as_ref().expect("ident"),
                    format!(
                        "unknown memory space {}: expected global, shared, local, const or param",
                        quote(&s)
                    ),
                )
            })?;
            check_name(&start, &n, "location")?;
            if memory_map.iter().any(|(m, _, _)| *m == n) {
                return Err(err_at(
                    &start,
                    format!("location `{n}` appears twice in the memory map"),
                ));
            }
            memory_map.push((n, sp, space));
            let sep = c.eat_punct(",") || c.eat_punct(";");
            if !(sep && entry_ahead(c)) {
                if sep && !c.at_end() && !at_condition(c) {
                    return Err(c.expected("a memory map entry `x: global`"));
                }
                break;
            }
        }
    }

    Ok(memory_map)
}

fn end_position(src: &str) -> (u32, u32) {
    let mut line = 1u32;
    let mut col = 1u32;
    for ch in src.chars() {
        if ch == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    (line, col)
}

fn at_condition(c: &Cursor) -> bool {
    match c.peek() {
        Some(t) => {
            t.is_ident("exists")
                || t.is_ident("forall")
                || t.is_ident("locations")
                || t.is_ident("filter")
                || (t.is_punct("~") && c.peek_at(1).is_some_and(|u| u.is_ident("exists")))
        }
        None => false,
    }
}

/// Whether the program rows are over: a scope tree, memory map or condition follows.
fn at_section_end(c: &Cursor) -> bool {
    match c.peek() {
        Some(t) => {
            t.is_ident("ScopeTree")
                || t.is_ident("scopeTree")
                || t.is_ident("locations")
                || t.is_ident("filter")
                || at_condition(c)
                || memory_map_ahead(c)
        }
        None => true,
    }
}

/// `x : global` starts a memory map (no instruction is named after a memory space).
fn memory_map_ahead(c: &Cursor) -> bool {
    matches!(
        (c.peek(), c.peek_at(1), c.peek_at(2)),
        (Some(Token { tok: Tok::Ident(_), .. }), Some(colon), Some(Token { tok: Tok::Ident(s), .. }))
            if colon.is_punct(":") && space_from_name(s).is_some()
    )
}

/// `( level item* )`.
fn scope_node(c: &mut Cursor, parent: Option<(Scope, &str)>, depth: usize) -> PResult<ScopeNode> {
    if depth > 16 {
        return Err(c.error("scope tree nested too deeply"));
    }
    c.expect_punct("(")?;
    let lt = c.peek().cloned();
    let (name, _) = c.ident("a scope level (grid, cta, warp)")?;
    let lt = lt.expect("ident");
    let level = level_from_name(&name).ok_or_else(|| {
        err_at(
            &lt,
            format!(
                "unknown scope level {}: expected device, kernel, grid, cta, block or warp",
                quote(&name)
            ),
        )
    })?;
    if let Some((pl, pn)) = parent {
        if level >= pl {
            return Err(err_at(
                &lt,
                format!("a `{name}` cannot be nested in a `{pn}`: scope levels must get finer"),
            ));
        }
    }
    let mut items = Vec::new();
    loop {
        match c.peek() {
            Some(t) if t.is_punct(")") => {
                c.next();
                break;
            }
            Some(t) if t.is_punct("(") => items.push(ScopeItem::Node(scope_node(
                c,
                Some((level, &name)),
                depth + 1,
            )?)),
            Some(Token {
                tok: Tok::Ident(s),
                line,
                col,
            }) => {
                items.push(ScopeItem::Thread(s.clone(), Span::new(*line, *col)));
                c.next();
            }
            _ => return Err(c.expected("a thread name, `(` or `)` in the scope tree")),
        }
    }
    // An empty node would shift its siblings' ids without naming any thread, and could
    // not be written back; it is meaningless, so it is refused.
    if items.is_empty() {
        return Err(err_at(
            &lt,
            format!("empty `{name}` in the scope tree: every node must hold a thread"),
        ));
    }
    Ok(ScopeNode { level, items })
}

pub(super) fn check_name(t: &Token, name: &str, what: &str) -> PResult<()> {
    if RESERVED.contains(&name) || name.starts_with('.') || name.contains('.') {
        return Err(err_at(t, format!("{} cannot name a {what}", quote(name))));
    }
    Ok(())
}
