//! herd's legacy `GPU_PTX` litmus format (paper 000 §4.1 and Fig. 12): typed PTX register
//! declarations, a column program of PTX instructions, a scope tree and a memory map.
//!
//! ```text
//! GPU_PTX SB
//! {0:.reg .s32 r0; 0:.reg .b64 r1 = x; ...}
//!  T0                | T1                ;
//!  mov.s32 r0,1      | mov.s32 r0,1      ;
//!  st.cg.s32 [r1],r0 | st.cg.s32 [r1],r0 ;
//! ScopeTree(grid(cta(warp T0) (warp T1)))
//! x: shared, y: global
//! exists (0:r2=0 /\ 1:r2=0)
//! ```
//!
//! * The init block declares registers (`0:.reg .s32 r0;`, `0:.reg .b64 r1 = x;` holds the
//!   address of `x`), initialises registers herd-style (`0:r0=1;`) and locations (`x=0;`).
//!   Registers first written by an instruction (or used as a guard) need no declaration;
//!   a register read before any declaration or write is an error.
//! * Instructions (paper 000 §2.3): `ld`/`st` with `.volatile`, cache operators, state
//!   spaces and types; `atom`/`red` (`.cas`, `.exch`, `.add`, `.inc`, ...); `membar.cta/gl/
//!   sys` and `fence.sc`; `bar.sync`/`bar.arrive`; `mov`, `add`, `sub`, `mul.lo`, `and`, `or`,
//!   `xor`, `shl`, `shr`, `not`, `neg`, `setp.<cmp>`; labels `L0:` and `bra`; guards
//!   `@p`/`@!p`. An address is `[x]` (a location) or `[r1]` (a register holding one).
//!   As a weft extension, accesses may carry PTX 6 `.relaxed.<scope>`, so that Dat3M PTX
//!   tests with relaxed accesses print in this format.
//! * `ScopeTree` nests `(level item...)` nodes: levels `device`/`kernel`/`grid` (the GPU),
//!   `cta`/`block`, `warp` (and `system` as an extension); items are nodes or thread names.
//!   A node's id is its rank among its siblings of the same level, so
//!   `ScopeTree(grid(cta(warp T0) (warp T1)))` places T0 at `[(warp 0),(cta 0),(gpu 0)]` and
//!   T1 at `[(warp 1),(cta 0),(gpu 0)]`.
//! * The memory map `x: shared, y: global` gives each location its state space.
//! * The final condition is `exists`, `~exists` or `forall` over `/\`, `\/`, `~`, with
//!   terms `0:r2` (thread index, or name, and register), `x` or `[x]` (memory) and integers;
//!   an identifier on the right of a comparison is an address (`0:r1=x`).
//!
//! Locations are exactly those named by the init block and the memory map; naming any other
//! location is an error. The printer writes the canonical form, which re-parses to an equal
//! program; it also prints Dat3M PTX programs whose accesses are weak, volatile or relaxed
//! and whose fences are `membar`/`fence.sc`, and refuses anything else with a reason.

use std::collections::{HashMap, HashSet};

use crate::diag::{quote, ParseError};
use crate::lex::{tokenize, Cursor, LexOptions, Tok, Token};
use crate::PrintError;
use weft_ir::{
    Arch, Barrier, BarrierKind, BinOp, CacheOp, CmpOp, DataType, Expr, Fence, FenceKind, Guard,
    Load, LocId, Location, MemAttrs, MemSpace, Order, Placement, Program, Prop, Proxy, Reg,
    RegDecl, Rmw, RmwOp, Scope, Span, Stmt, StmtKind, Store, Term, Thread, UnOp, Value,
};

type PResult<T> = Result<T, ParseError>;

/// Words that cannot name a thread, register, label or location in this format.
const RESERVED: [&str; 8] = [
    "exists",
    "forall",
    "ScopeTree",
    "scopeTree",
    "true",
    "false",
    "filter",
    "locations",
];

fn lex_options() -> LexOptions {
    LexOptions {
        dotted_idents: true,
        percent_idents: true,
        line_comments: true,
    }
}

fn err_at(t: &Token, msg: impl Into<String>) -> ParseError {
    ParseError::new(t.line, t.col, msg)
}

// ---------------------------------------------------------------------------------------
// Parsing: syntax
// ---------------------------------------------------------------------------------------

/// Which thread an init-block entry names: `0:` or `T0:`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum ThreadRef {
    Index(i64),
    Name(String),
}

struct RawReg {
    thread: ThreadRef,
    /// Position of the entry (its thread prefix).
    span: Span,
    name: String,
    ty: Option<DataType>,
    init: Option<RawValue>,
}

#[derive(Clone)]
enum RawValue {
    Int(i64),
    Loc(String, Span),
}

/// One cell of the program: its tokens and where the cell ends (the separator).
struct Cell {
    toks: Vec<Token>,
    end: (u32, u32),
}

struct ScopeNode {
    level: Scope,
    items: Vec<ScopeItem>,
}

enum ScopeItem {
    Node(ScopeNode),
    Thread(String, Span),
}

struct Syntax {
    name: String,
    doc: Vec<String>,
    regs: Vec<RawReg>,
    /// Location names in order of first mention in the init block, with their spans.
    mentions: Vec<(String, Span)>,
    loc_inits: HashMap<String, i64>,
    threads: Vec<(String, Span)>,
    rows: Vec<Vec<Cell>>,
    tree: Option<(Span, Vec<ScopeNode>)>,
    memory_map: Vec<(String, Span, MemSpace)>,
    /// The tokens of the final part and the end-of-input position.
    condition: Option<(Vec<Token>, (u32, u32))>,
}

/// Parses a GPU_PTX litmus test.
pub fn parse(src: &str) -> Result<Program, ParseError> {
    crate::cond::with_meta(src, |src| lower(parse_syntax(src)?))
}

fn parse_syntax(src: &str) -> PResult<Syntax> {
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    // The header line: `GPU_PTX name`.
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

    // Init block.
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

    // Thread names: `T0 | T1 ;`.
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

    // Program rows.
    let mut rows = Vec::new();
    while !c.at_end() && !at_section_end(&c) {
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
                    if cells.len() != threads.len() {
                        return Err(err_at(
                            &t,
                            format!(
                                "this row has {} column(s) but the test has {} thread(s)",
                                cells.len(),
                                threads.len()
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

    // Scope tree.
    let mut tree = None;
    if let Some(t) = c.peek().cloned() {
        if t.is_ident("ScopeTree") || t.is_ident("scopeTree") {
            c.next();
            let mut roots = Vec::new();
            if !c.peek().is_some_and(|t| t.is_punct("(")) {
                return Err(c.expected("`(` opening the scope tree"));
            }
            while c.peek().is_some_and(|t| t.is_punct("(")) {
                roots.push(scope_node(&mut c, None, 0)?);
            }
            tree = Some((t.span(), roots));
        }
    }

    // Memory map.
    let mut memory_map: Vec<(String, Span, MemSpace)> = Vec::new();
    // After the scope tree any `name : word` is a memory map entry (rows have ended), so
    // that a misspelt space is reported as such.
    let entry_ahead = |c: &Cursor| {
        memory_map_ahead(c)
            || (tree.is_some()
                && matches!(
                    (c.peek(), c.peek_at(1), c.peek_at(2)),
                    (Some(Token { tok: Tok::Ident(_), .. }), Some(colon), Some(Token { tok: Tok::Ident(_), .. }))
                        if colon.is_punct(":")
                ))
    };
    if entry_ahead(&c) {
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
            if !(sep && entry_ahead(&c)) {
                if sep && !c.at_end() && !at_condition(&c) {
                    return Err(c.expected("a memory map entry `x: global`"));
                }
                break;
            }
        }
    }

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

fn space_from_name(s: &str) -> Option<MemSpace> {
    Some(match s {
        "global" => MemSpace::Global,
        "shared" => MemSpace::Shared,
        "local" => MemSpace::Local,
        "const" | "constant" => MemSpace::Constant,
        "param" => MemSpace::Param,
        _ => return None,
    })
}

fn space_name(s: MemSpace) -> Option<&'static str> {
    Some(match s {
        MemSpace::Global => "global",
        MemSpace::Shared => "shared",
        MemSpace::Local => "local",
        MemSpace::Constant => "const",
        MemSpace::Param => "param",
        MemSpace::Generic => return None,
    })
}

fn level_from_name(s: &str) -> Option<Scope> {
    Some(match s {
        "warp" => Scope::Warp,
        "cta" | "block" => Scope::Cta,
        "grid" | "kernel" | "device" => Scope::Gpu,
        "system" | "sys" => Scope::System,
        _ => return None,
    })
}

fn level_name(s: Scope) -> Option<&'static str> {
    Some(match s {
        Scope::Warp => "warp",
        Scope::Cta => "cta",
        Scope::Gpu => "grid",
        Scope::System => "system",
        Scope::Thread | Scope::QueueFamily => return None,
    })
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

fn check_name(t: &Token, name: &str, what: &str) -> PResult<()> {
    if RESERVED.contains(&name) || name.starts_with('.') || name.contains('.') {
        return Err(err_at(t, format!("{} cannot name a {what}", quote(name))));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Parsing: lowering to the IR
// ---------------------------------------------------------------------------------------

fn lower(syn: Syntax) -> PResult<Program> {
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
            "ld" => {
                let q = self.access_quals(&m, Access::Load)?;
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
                let q = self.access_quals(&m, Access::Store)?;
                let addr = self.address()?;
                self.c.expect_punct(",")?;
                let value = self.value()?;
                Ok(StmtKind::Store(Store {
                    addr,
                    value,
                    attrs: q.attrs(),
                }))
            }
            "atom" | "red" => {
                let red = m.base == "red";
                let q = self.access_quals(&m, Access::Rmw)?;
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
            "membar" => {
                let scope = match m.quals.iter().map(String::as_str).collect::<Vec<_>>()[..] {
                    ["cta"] => Scope::Cta,
                    ["gl"] | ["gpu"] => Scope::Gpu,
                    ["sys"] => Scope::System,
                    _ => {
                        return Err(m.err(format!(
                            "{}: expected `membar.cta`, `membar.gl` or `membar.sys`",
                            quote(&m.word)
                        )))
                    }
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
                    ["sc", s] => Scope::from_ptx(s),
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
            "bar" | "barrier" => {
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
            "bra" => {
                if !(m.quals.is_empty() || m.quals == ["uni"]) {
                    return Err(m.err("expected `bra` or `bra.uni`"));
                }
                let t = self.c.peek().cloned();
                let (target, _) = self.c.ident("a label")?;
                check_name(&t.expect("ident"), &target, "label")?;
                Ok(StmtKind::Jump { target, cond: None })
            }
            "mov" | "not" | "neg" => {
                self.arith_type(&m, 0)?;
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
                self.arith_type(&m, 1)?;
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
                self.arith_type(&m, skip)?;
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
            if s == "volatile" && k != Access::Rmw {
                if q.volatile {
                    return Err(dup("`.volatile`"));
                }
                q.volatile = true;
            } else if s == "weak" && k != Access::Rmw {
                if q.weak {
                    return Err(dup("`.weak`"));
                }
                q.weak = true;
            } else if s == "relaxed" {
                if q.relaxed {
                    return Err(dup("`.relaxed`"));
                }
                q.relaxed = true;
            } else if let Some(sc) = Scope::from_ptx(s) {
                if q.scope.is_some() {
                    return Err(dup("a scope"));
                }
                q.scope = Some(sc);
            } else if let Some(sp) = space_from_name(s) {
                if q.space.is_some() {
                    return Err(dup("a state space"));
                }
                q.space = Some(sp);
            } else if let (Some(c), true) = (CacheOp::from_name(s), k != Access::Rmw) {
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
            } else if matches!(s, "acquire" | "release" | "acq_rel" | "sc" | "mmio") {
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
enum Access {
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

// ---------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------

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

fn int(v: i64) -> Result<String, PrintError> {
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

fn address(p: &Program, t: &Thread, e: &Expr) -> Result<String, PrintError> {
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
fn access_quals(a: &MemAttrs, k: Access) -> Result<String, PrintError> {
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
                q.push_str(".volatile");
            }
        }
        Order::Relaxed => {
            if a.volatile {
                return refuse(format!("a volatile relaxed {what}"));
            }
            let Some(s) = a.scope.and_then(Scope::ptx) else {
                return refuse(format!(
                    "a relaxed {what} at {} scope",
                    a.scope.map(Scope::name).unwrap_or("no")
                ));
            };
            q.push_str(".relaxed.");
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
        q.push_str(c.name());
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
                Some(c) => {
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
                    return Ok(format!(
                        "@{}{} bra {target}",
                        if neg { "!" } else { "" },
                        t.reg_name(r)
                    ));
                }
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
        StmtKind::Rmw(r) => {
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
            text
        }
        StmtKind::Fence(f) => {
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
            match f.kind {
                FenceKind::Membar => match scope {
                    Scope::Cta => "membar.cta".to_string(),
                    Scope::Gpu => "membar.gl".to_string(),
                    Scope::System => "membar.sys".to_string(),
                    s => return refuse(format!("a membar at {} scope", s.name())),
                },
                FenceKind::Fence => match Scope::ptx(scope) {
                    Some(n) => format!("fence.sc.{n}"),
                    None => return refuse(format!("a fence at {} scope", scope.name())),
                },
                _ => return refuse("a proxy or Vulkan fence"),
            }
        }
        StmtKind::Barrier(b) => {
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
            text
        }
        StmtKind::Assign { dst, value } => {
            let d = t.reg_name(*dst);
            match value {
                Expr::Int(_) | Expr::Reg(_) | Expr::Addr(_) => {
                    format!("mov{} {d},{}", reg_type(t, *dst), operand(p, t, value)?)
                }
                Expr::Un(op, a) => {
                    let m = match op {
                        UnOp::Not => "not",
                        UnOp::Neg => "neg",
                        UnOp::LNot => return refuse("a logical not (use setp)"),
                    };
                    format!("{m}{} {d},{}", reg_type(t, *dst), operand(p, t, a)?)
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
                        BinOp::LAnd | BinOp::LOr => {
                            return refuse("a logical and/or (use predicates)")
                        }
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
                        reg_type(t, *dst)
                    };
                    format!("{m}{ty} {d},{},{}", operand(p, t, a)?, operand(p, t, b)?)
                }
            }
        }
        StmtKind::If { .. } | StmtKind::While { .. } => {
            return refuse("structured control flow (it would need labels and predicates)")
        }
        StmtKind::Assume(_) => return refuse("an assume"),
        StmtKind::Assert(_) => return refuse("an assert"),
    };
    Ok(format!("{g}{body}"))
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
