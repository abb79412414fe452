//! Race repair (paper 004 §4.1, Table 4): turns the races an exploration found into
//! source-level edits and re-explores until the program is race-free.
//!
//! - A **heterogeneous race** (two atomics whose scopes do not include each other's thread)
//!   is repaired by widening each offending scope to the narrowest scope holding both
//!   threads (same CTA: CTA; same device: device; otherwise system).
//! - A **data race** is repaired by making each non-atomic access a relaxed atomic whose
//!   scope holds both threads (and widening the other access when it is a narrower atomic);
//!   an access whose type cannot be atomic (floating point, predicates, widths other than
//!   32/64 bits) is refused with the reason.
//!
//! Edits are line rewrites (`file:line: old -> new`) made by [`rewrite_line`], a text
//! rewriter that understands the spellings of scopes and atomics in CUDA (atomicAdd_block,
//! weft's `weft_ld_relaxed_cta` shim helpers, `cuda::thread_scope_*`), OpenCL C 2.0
//! (`memory_scope_*`, `atomic_*_explicit`) and the litmus formats weft parses (PTX/GPU_PTX
//! `.cta/.gpu/.sys`, Vulkan `.wg/.dv`). [`repair_litmus`] runs the loop for litmus
//! programs: explore, collect every racing pair of statements, edit, re-parse the edited
//! text (so the repaired file is known to parse) and repeat.

use std::collections::{BTreeMap, BTreeSet};

use weft_cat::Model;
use weft_ir::{Program, Scope, Stmt, StmtKind, TypeKind};

use crate::litmus::{check_litmus, McOptions, McResult, RaceSite};

/// The source language of a line to rewrite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// CUDA C++ with weft's shim header (`weft_cuda.h`).
    Cuda,
    /// OpenCL C 2.0, and OpenCL litmus tests.
    OpenCl,
    /// herd's C11 litmus format (no scopes).
    C,
    /// PTX and GPU_PTX litmus tests (`ld.relaxed.cta`).
    Ptx,
    /// Vulkan litmus tests (`ld.atom.wg`).
    Vulkan,
}

impl Lang {
    /// The language of a litmus program of architecture `a`.
    pub fn of_arch(a: weft_ir::Arch) -> Option<Lang> {
        match a {
            weft_ir::Arch::Ptx | weft_ir::Arch::GpuPtx => Some(Lang::Ptx),
            weft_ir::Arch::Vulkan => Some(Lang::Vulkan),
            weft_ir::Arch::OpenCl => Some(Lang::OpenCl),
            weft_ir::Arch::C => Some(Lang::C),
            _ => None,
        }
    }

    /// The language of a kernel file, by extension (`.cu`/`.cuh`, `.cl`).
    pub fn of_path(p: &std::path::Path) -> Option<Lang> {
        match p.extension()?.to_str()? {
            "cu" | "cuh" => Some(Lang::Cuda),
            "cl" => Some(Lang::OpenCl),
            _ => None,
        }
    }
}

/// What to do to one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fix {
    /// Widen every narrower scope on the line to `Scope`.
    Widen(Scope),
    /// Make the plain access on the line a relaxed atomic with `Scope` (and widen any
    /// narrower scope already there).
    Atomic(Scope),
    /// Make the plain *load* on the line a relaxed atomic with `Scope` (a copy `a[i] =
    /// b[j];` whose racing side is the read of `b[j]`).
    AtomicLoad(Scope),
}

/// One source-level edit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Edit {
    pub file: String,
    /// 1-based line.
    pub line: u32,
    pub old: String,
    pub new: String,
}

impl std::fmt::Display for Edit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: {} -> {}",
            self.file,
            self.line,
            self.old.trim(),
            self.new.trim()
        )
    }
}

fn rank(s: Scope) -> u8 {
    match s {
        Scope::Thread => 0,
        Scope::Warp => 1,
        Scope::Cta => 2,
        Scope::QueueFamily => 3,
        Scope::Gpu => 4,
        Scope::System => 5,
    }
}

/// The scope words of a language, narrowest first, with the scope each means.
fn scope_words(lang: Lang) -> &'static [(&'static str, Scope)] {
    match lang {
        Lang::OpenCl => &[
            ("memory_scope_work_item", Scope::Thread),
            ("memory_scope_sub_group", Scope::Warp),
            ("memory_scope_work_group", Scope::Cta),
            ("memory_scope_device", Scope::Gpu),
            ("memory_scope_all_svm_devices", Scope::System),
            ("memory_scope_all_devices", Scope::System),
        ],
        Lang::Ptx => &[
            (".cta", Scope::Cta),
            (".gpu", Scope::Gpu),
            (".sys", Scope::System),
        ],
        Lang::Vulkan => &[
            (".sg", Scope::Warp),
            (".wg", Scope::Cta),
            (".qf", Scope::QueueFamily),
            (".dv", Scope::Gpu),
        ],
        Lang::Cuda => &[
            ("thread_scope_thread", Scope::Thread),
            ("thread_scope_block", Scope::Cta),
            ("thread_scope_device", Scope::Gpu),
            ("thread_scope_system", Scope::System),
        ],
        Lang::C => &[],
    }
}

/// The word a language uses for `s` (the narrowest spelling at least as wide).
fn scope_word(lang: Lang, s: Scope) -> Option<&'static str> {
    scope_words(lang)
        .iter()
        .find(|(_, w)| rank(*w) >= rank(s))
        .map(|(t, _)| *t)
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Replaces whole-word occurrences of `from` by `to` (a word ends at a non-identifier
/// character; PTX/Vulkan qualifiers start with `.`).
fn replace_word(line: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    let b = line.as_bytes();
    while i < line.len() {
        if line[i..].starts_with(from) {
            let before_ok = from.starts_with('.')
                || i == 0
                || !is_ident(line[..i].chars().last().unwrap_or(' '));
            let after = i + from.len();
            let after_ok =
                after >= line.len() || !is_ident(line[after..].chars().next().unwrap_or(' '));
            if before_ok && after_ok {
                out.push_str(to);
                i = after;
                continue;
            }
        }
        let c = line[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
        let _ = b;
    }
    out
}

/// Widens every scope on `line` narrower than `to`.
fn widen(line: &str, lang: Lang, to: Scope) -> String {
    let mut s = line.to_string();
    if lang == Lang::Cuda {
        // atomicAdd_block( -> atomicAdd( (device scope) or atomicAdd_system(.
        for name in [
            "atomicAdd",
            "atomicSub",
            "atomicExch",
            "atomicMin",
            "atomicMax",
            "atomicInc",
            "atomicDec",
            "atomicCAS",
            "atomicAnd",
            "atomicOr",
            "atomicXor",
        ] {
            let blk = format!("{name}_block(");
            if rank(to) > rank(Scope::Cta) {
                let new = if to == Scope::System {
                    format!("{name}_system(")
                } else {
                    format!("{name}(")
                };
                s = s.replace(&blk, &new);
            }
            if to == Scope::System {
                s = replace_word(&s, name, &format!("{name}_system"));
                s = s.replace(&format!("{name}_system_system"), &format!("{name}_system"));
            }
        }
        // __threadfence_block() -> __threadfence() (device) / __threadfence_system().
        if rank(to) > rank(Scope::Cta) {
            let f = if to == Scope::System {
                "__threadfence_system("
            } else {
                "__threadfence("
            };
            s = s.replace("__threadfence_block(", f);
        }
        if to == Scope::System {
            s = s.replace("__threadfence(", "__threadfence_system(");
        }
        // weft shim helpers: weft_ld_relaxed_cta( -> weft_ld_relaxed_gpu(.
        let suffix = |sc: Scope| match sc {
            Scope::System => "_sys(",
            Scope::Gpu | Scope::QueueFamily => "_gpu(",
            _ => "_cta(",
        };
        for (from, sc) in [("_cta(", Scope::Cta), ("_gpu(", Scope::Gpu)] {
            if rank(sc) < rank(to) && s.contains("weft_") {
                s = s.replace(from, suffix(to));
            }
        }
    }
    if let Some(word) = scope_word(lang, to) {
        for (w, sc) in scope_words(lang) {
            if rank(*sc) < rank(to) {
                s = replace_word(&s, w, word);
            }
        }
    }
    s
}

/// Splits `LHS = RHS;` (a plain assignment, not `==`, `+=`, ...) into its parts.
fn split_assign(line: &str) -> Option<(&str, &str, &str, &str)> {
    let semi = line.rfind(';')?;
    let bytes = line.as_bytes();
    let mut eq = None;
    for i in 0..semi {
        if bytes[i] == b'='
            && bytes.get(i + 1) != Some(&b'=')
            && (i == 0 || !b"=!<>+-*/%&|^".contains(&bytes[i - 1]))
        {
            eq = Some(i);
            break;
        }
    }
    let eq = eq?;
    let indent_len = line.len() - line.trim_start().len();
    Some((
        &line[..indent_len],
        line[indent_len..eq].trim(),
        line[eq + 1..semi].trim(),
        &line[semi + 1..],
    ))
}

/// `*p` -> `p`, `a[i]` -> `&a[i]`, `x` -> `&x` (the address of an lvalue).
fn address_of(lv: &str) -> String {
    let lv = lv.trim();
    if let Some(p) = lv.strip_prefix('*') {
        p.trim().to_string()
    } else {
        format!("&{lv}")
    }
}

/// `*p`, `x`, `s.f`, `p->f` or any of them indexed by balanced `[...]` groups (whatever the
/// index expressions are).
fn is_lvalue(e: &str) -> bool {
    let e = e.trim();
    let body = e.strip_prefix('*').unwrap_or(e).trim();
    let head_end = body.find('[').unwrap_or(body.len());
    let (head, mut rest) = body.split_at(head_end);
    let head = head.trim_end();
    if head.is_empty()
        || !head.chars().all(|c| is_ident(c) || ".->".contains(c))
        || !head
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
    {
        return false;
    }
    while !rest.is_empty() {
        let Some(r) = rest.strip_prefix('[') else {
            return false;
        };
        let mut depth = 1;
        let mut close = None;
        for (i, c) in r.char_indices() {
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(i) = close else {
            return false;
        };
        rest = r[i + 1..].trim_start();
    }
    true
}

/// Makes the plain access of a C-like line (`LHS = RHS;`, a store when LHS is a memory
/// lvalue, a load when RHS is) a relaxed atomic with `scope`.
fn atomicise_c(line: &str, lang: Lang, scope: Scope, load_only: bool) -> Result<String, String> {
    let (indent, lhs, rhs, rest) = split_assign(line)
        .ok_or_else(|| format!("no plain assignment on the line `{}`", line.trim()))?;
    // `int r0 = *x;` declares a register: the load side (words before any index).
    let decl = lhs
        .split('[')
        .next()
        .is_some_and(|h| h.split_whitespace().count() > 1)
        && !lhs.starts_with('*');
    let lhs_is_mem = !decl && (lhs.starts_with('*') || lhs.contains('['));
    let rhs_is_mem = rhs.starts_with('*')
        || (rhs.contains('[') && is_lvalue(rhs))
        || (lang != Lang::C
            && lang != Lang::OpenCl
            && is_lvalue(rhs)
            && !rhs.chars().all(|c| c.is_ascii_digit()));
    let (ld, st) = match lang {
        Lang::Cuda => {
            let sc = match scope {
                Scope::System => "sys",
                Scope::Gpu | Scope::QueueFamily => "gpu",
                _ => "cta",
            };
            (
                format!("weft_ld_relaxed_{sc}(ADDR)"),
                format!("weft_st_relaxed_{sc}(ADDR, VAL)"),
            )
        }
        Lang::OpenCl => {
            let w = scope_word(Lang::OpenCl, scope).unwrap_or("memory_scope_device");
            (
                format!("atomic_load_explicit(ADDR, memory_order_relaxed, {w})"),
                format!("atomic_store_explicit(ADDR, VAL, memory_order_relaxed, {w})"),
            )
        }
        Lang::C => (
            "atomic_load_explicit(ADDR, memory_order_relaxed)".to_string(),
            "atomic_store_explicit(ADDR, VAL, memory_order_relaxed)".to_string(),
        ),
        _ => unreachable!(),
    };
    if load_only && rhs_is_mem {
        let call = ld.replace("ADDR", &address_of(rhs));
        Ok(format!("{indent}{lhs} = {call};{rest}"))
    } else if load_only {
        Err(format!("`{}` has no plain load of memory", line.trim()))
    } else if lhs_is_mem && is_lvalue(lhs) {
        let call = st.replace("ADDR", &address_of(lhs)).replace("VAL", rhs);
        Ok(format!("{indent}{call};{rest}"))
    } else if rhs_is_mem {
        let call = ld.replace("ADDR", &address_of(rhs));
        Ok(format!("{indent}{lhs} = {call};{rest}"))
    } else {
        Err(format!(
            "`{}` is not a plain load or store of memory",
            line.trim()
        ))
    }
}

/// `ld.s32` / `ld.global.s32` / `ld.volatile.s32` -> `ld.relaxed.gpu.s32` (PTX); Vulkan
/// `ld.sc0` -> `ld.atom.dv.sc0`.
fn atomicise_asm(line: &str, lang: Lang, scope: Scope) -> Result<String, String> {
    let word = scope_word(lang, scope).ok_or("no scope spelling")?;
    let t = line.trim_start();
    let indent = &line[..line.len() - t.len()];
    for op in ["ld.", "st.", "ld ", "st "] {
        if let Some(rest) = t.strip_prefix(op) {
            let op = &op[..2];
            let rest = rest
                .trim_start_matches("weak.")
                .trim_start_matches("volatile.");
            let q = match lang {
                Lang::Ptx => format!("{op}.relaxed{word}."),
                _ => format!("{op}.atom{word}."),
            };
            return Ok(format!("{indent}{q}{rest}"));
        }
    }
    Err(format!("`{}` is not a plain ld/st", line.trim()))
}

/// Rewrites one source line with `fix`; `Err` says why it cannot (the line has no access
/// of the expected shape).
pub fn rewrite_line(line: &str, lang: Lang, fix: Fix) -> Result<String, String> {
    match fix {
        Fix::Widen(to) => {
            let new = widen(line, lang, to);
            if new == line {
                Err(format!(
                    "no scope narrower than {} on the line `{}`",
                    to.name(),
                    line.trim()
                ))
            } else {
                Ok(new)
            }
        }
        Fix::Atomic(to) => match lang {
            Lang::Cuda | Lang::OpenCl | Lang::C => atomicise_c(line, lang, to, false),
            Lang::Ptx | Lang::Vulkan => atomicise_asm(line, lang, to),
        },
        Fix::AtomicLoad(to) => match lang {
            Lang::Cuda | Lang::OpenCl | Lang::C => atomicise_c(line, lang, to, true),
            Lang::Ptx | Lang::Vulkan => atomicise_asm(line, lang, to),
        },
    }
}

/// Edits `src` (a whole file) with one fix per line; lines are 1-based.
pub fn edit_source(
    file: &str,
    src: &str,
    lang: Lang,
    fixes: &BTreeMap<u32, Fix>,
) -> Result<(String, Vec<Edit>), String> {
    let mut lines: Vec<String> = src.split('\n').map(str::to_string).collect();
    let mut edits = Vec::new();
    for (&l, &fix) in fixes {
        let i = (l as usize)
            .checked_sub(1)
            .filter(|i| *i < lines.len())
            .ok_or_else(|| format!("{file}:{l}: no such line"))?;
        let old = lines[i].clone();
        let new = rewrite_line(&old, lang, fix).map_err(|e| format!("{file}:{l}: {e}"))?;
        edits.push(Edit {
            file: file.to_string(),
            line: l,
            old,
            new: new.clone(),
        });
        lines[i] = new;
    }
    Ok((lines.join("\n"), edits))
}

/// Access facts of the statement at a source position.
struct Access {
    atomic: bool,
    scope: Option<Scope>,
}

fn find_stmt<'a>(code: &'a [Stmt], line: u32, col: u32) -> Option<&'a Stmt> {
    let mut found = None;
    weft_ir::code::walk(code, &mut |s: &'a Stmt| {
        if found.is_none()
            && s.span.line == line
            && s.span.col == col
            && matches!(
                s.kind,
                StmtKind::Load(_) | StmtKind::Store(_) | StmtKind::Rmw(_)
            )
        {
            found = Some(s);
        }
    });
    found
}

fn access(p: &Program, t: u32, line: u32, col: u32) -> Option<Access> {
    let s = find_stmt(&p.threads.get(t as usize)?.code, line, col)?;
    let a = match &s.kind {
        StmtKind::Load(l) => &l.attrs,
        StmtKind::Store(st) => &st.attrs,
        StmtKind::Rmw(r) => &r.attrs,
        _ => return None,
    };
    Some(Access {
        atomic: a.order != weft_ir::Order::Plain,
        scope: a.scope,
    })
}

/// The narrowest scope whose instance holds both threads.
pub fn common_scope(p: &Program, t: u32, u: u32) -> Scope {
    let (pt, pu) = (
        &p.threads[t as usize].placement,
        &p.threads[u as usize].placement,
    );
    for s in [Scope::Warp, Scope::Cta, Scope::QueueFamily, Scope::Gpu] {
        if pt.levels.iter().any(|(l, _)| *l == s) && pt.same_instance(pu, s) {
            return s;
        }
    }
    if pt.same_instance(pu, Scope::Gpu) {
        Scope::Gpu
    } else {
        Scope::System
    }
}

/// The fixes (per source line) that repair `races` in `p`; `Err` when a race cannot be
/// repaired (a type that cannot be atomic, an access weft cannot find).
pub fn plan(p: &Program, races: &[RaceSite]) -> Result<BTreeMap<u32, Fix>, String> {
    let mut fixes: BTreeMap<u32, Fix> = BTreeMap::new();
    let mut put = |line: u32, f: Fix| {
        let merged = match (fixes.get(&line).copied(), f) {
            (None, f) => f,
            (Some(Fix::Atomic(a)), Fix::Atomic(b) | Fix::Widen(b))
            | (Some(Fix::Widen(b)), Fix::Atomic(a)) => {
                Fix::Atomic(if rank(a) >= rank(b) { a } else { b })
            }
            (Some(Fix::Widen(a)), Fix::Widen(b)) => {
                Fix::Widen(if rank(a) >= rank(b) { a } else { b })
            }
            // Litmus plans make no load-only fixes.
            (_, f) => f,
        };
        fixes.insert(line, merged);
    };
    for r in races {
        let need = common_scope(p, r.a.0, r.b.0);
        if let Some(ty) = r
            .loc
            .and_then(|l| p.locations.get(l as usize))
            .and_then(|l| l.ty)
        {
            let ok = matches!(
                ty.kind,
                TypeKind::Signed | TypeKind::Unsigned | TypeKind::Bits
            ) && (ty.bits == 32 || ty.bits == 64);
            if !ok && !r.hetero {
                let name = &p.locations[r.loc.unwrap_or(0) as usize].name;
                return Err(format!(
                    "cannot repair the data race on `{name}`: its type ({:?} {} bits) cannot be atomic",
                    ty.kind, ty.bits
                ));
            }
        }
        for side in [r.a, r.b] {
            let (t, line, col) = side;
            let acc = access(p, t, line, col)
                .ok_or_else(|| format!("no memory access at {line}:{col} of thread {t}"))?;
            if !acc.atomic {
                put(line, Fix::Atomic(need));
            } else if rank(acc.scope.unwrap_or(Scope::System)) < rank(need) {
                put(line, Fix::Widen(need));
            }
        }
    }
    Ok(fixes)
}

/// One round of the repair loop.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Round {
    /// Racing statement pairs the exploration found.
    pub races: Vec<RaceSite>,
    pub edits: Vec<Edit>,
    /// Executions explored in this round.
    pub executions: u64,
}

/// What the repair outcome counts of a round: its racing pairs and its edits.
pub trait RepairRound {
    /// A racing pair, as Table 4's #Race counts it (distinct over all rounds).
    type Race: Ord;
    fn race_keys(&self) -> Vec<Self::Race>;
    fn edits(&self) -> &[Edit];
}

impl RepairRound for Round {
    type Race = RaceSite;
    fn race_keys(&self) -> Vec<RaceSite> {
        self.races.clone()
    }
    fn edits(&self) -> &[Edit] {
        &self.edits
    }
}

/// The outcome of a repair loop (litmus: [`Repaired`]; kernels:
/// [`crate::repair_kernel::KernelRepaired`]).
#[derive(Clone, Debug)]
pub struct Outcome<Rd, Res> {
    pub rounds: Vec<Rd>,
    /// The repaired source text.
    pub text: String,
    /// The last exploration (of the repaired program when race-free).
    pub last: Res,
    pub race_free: bool,
    /// Why the loop stopped without a race-free program.
    pub refused: Option<String>,
}

impl<Rd: RepairRound, Res> Outcome<Rd, Res> {
    /// Distinct racing pairs over all rounds (Table 4's #Race).
    pub fn races(&self) -> usize {
        let s: BTreeSet<Rd::Race> = self.rounds.iter().flat_map(|r| r.race_keys()).collect();
        s.len()
    }

    /// Distinct lines changed (Table 4's #Fix).
    pub fn lines_changed(&self) -> usize {
        let s: BTreeSet<(&str, u32)> = self
            .rounds
            .iter()
            .flat_map(|r| r.edits().iter().map(|e| (e.file.as_str(), e.line)))
            .collect();
        s.len()
    }

    /// Whether the input needed no repair (race-free as given).
    pub fn untouched(&self) -> bool {
        self.rounds.is_empty() && self.race_free
    }

    /// Whether there is a repaired text to write (races found and all repaired).
    pub fn changed(&self) -> bool {
        !self.rounds.is_empty() && self.race_free
    }
}

/// The outcome of [`repair_litmus`].
pub type Repaired = Outcome<Round, McResult>;

/// Errors of the repair loop: the program does not parse or cannot be checked.
#[derive(Debug)]
pub enum RepairError {
    Parse(String),
    Check(crate::McError),
}

impl std::fmt::Display for RepairError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RepairError::Parse(m) => write!(f, "{m}"),
            RepairError::Check(e) => write!(f, "{e}"),
        }
    }
}

/// Explore, repair, repeat until race-free (paper 004 §4.1) for a litmus program given as
/// text; `parse` is the litmus parser (so this crate does not depend on the front-ends),
/// `file` names the edits. At most `max_rounds` repair rounds.
pub fn repair_litmus(
    file: &str,
    src: &str,
    parse: &dyn Fn(&str) -> Result<Program, String>,
    model_name: &str,
    model: &Model,
    opts: &McOptions,
    max_rounds: usize,
) -> Result<Repaired, RepairError> {
    let mut text = src.to_string();
    let mut rounds = Vec::new();
    loop {
        let p = parse(&text).map_err(RepairError::Parse)?;
        let lang = Lang::of_arch(p.arch);
        // Every racing pair as its own threads see it: no symmetry reduction.
        let opts = McOptions {
            symmetry: false,
            ..opts.clone()
        };
        let r = check_litmus(&p, model_name, model, &opts).map_err(RepairError::Check)?;
        let racy = r
            .sim
            .flags
            .keys()
            .chain(r.sim.undefined_by.keys())
            .any(|f| f.contains("race"));
        if !racy {
            return Ok(Repaired {
                rounds,
                text,
                last: r,
                race_free: true,
                refused: None,
            });
        }
        let stop = |why: String, rounds: Vec<Round>, text: String, r: McResult| Repaired {
            rounds,
            text,
            last: r,
            race_free: false,
            refused: Some(why),
        };
        if r.races.is_empty() {
            return Ok(stop(
                "the racing accesses are not known (races judged by a .cat model; use scoped-rc11 or rc11)".into(),
                rounds, text, r,
            ));
        }
        let Some(lang) = lang else {
            return Ok(stop(
                format!("no source rewriter for {:?} tests", p.arch),
                rounds,
                text,
                r,
            ));
        };
        if rounds.len() >= max_rounds {
            return Ok(stop(
                format!("still racy after {max_rounds} rounds"),
                rounds,
                text,
                r,
            ));
        }
        let fixes = match plan(&p, &r.races) {
            Ok(f) if !f.is_empty() => f,
            Ok(_) => {
                return Ok(stop(
                    "no edit repairs the races found".into(),
                    rounds,
                    text,
                    r,
                ))
            }
            Err(e) => return Ok(stop(e, rounds, text, r)),
        };
        let (new, edits) = match edit_source(file, &text, lang, &fixes) {
            Ok(x) => x,
            Err(e) => return Ok(stop(e, rounds, text, r)),
        };
        rounds.push(Round {
            races: r.races.clone(),
            edits,
            executions: r.counts.complete,
        });
        text = new;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widens_cuda_block_atomics_and_helpers() {
        assert_eq!(
            rewrite_line(
                "  atomicAdd_block(&x[i], 1);",
                Lang::Cuda,
                Fix::Widen(Scope::Gpu)
            )
            .unwrap(),
            "  atomicAdd(&x[i], 1);"
        );
        assert_eq!(
            rewrite_line(
                "  weft_st_release_cta(&c[v], k);",
                Lang::Cuda,
                Fix::Widen(Scope::Gpu)
            )
            .unwrap(),
            "  weft_st_release_gpu(&c[v], k);"
        );
        assert_eq!(
            rewrite_line(
                "  atomicMin_block(&l[v], 3);",
                Lang::Cuda,
                Fix::Widen(Scope::System)
            )
            .unwrap(),
            "  atomicMin_system(&l[v], 3);"
        );
    }

    #[test]
    fn widens_cuda_fences() {
        assert_eq!(
            rewrite_line(
                "  __threadfence_block();",
                Lang::Cuda,
                Fix::Widen(Scope::Gpu)
            )
            .unwrap(),
            "  __threadfence();"
        );
        assert_eq!(
            rewrite_line("  __threadfence();", Lang::Cuda, Fix::Widen(Scope::System)).unwrap(),
            "  __threadfence_system();"
        );
        assert!(rewrite_line("  __threadfence();", Lang::Cuda, Fix::Widen(Scope::Gpu)).is_err());
    }

    #[test]
    fn widens_opencl_and_ptx_scopes() {
        assert_eq!(
            rewrite_line(
                "atomic_store_explicit(y, 1, memory_order_release, memory_scope_work_group);",
                Lang::OpenCl,
                Fix::Widen(Scope::Gpu)
            )
            .unwrap(),
            "atomic_store_explicit(y, 1, memory_order_release, memory_scope_device);"
        );
        assert_eq!(
            rewrite_line(
                " st.release.cta.s32 [y], 1;",
                Lang::Ptx,
                Fix::Widen(Scope::Gpu)
            )
            .unwrap(),
            " st.release.gpu.s32 [y], 1;"
        );
        assert!(rewrite_line("x = 1;", Lang::OpenCl, Fix::Widen(Scope::Gpu)).is_err());
    }

    #[test]
    fn makes_plain_accesses_relaxed_atomics() {
        assert_eq!(
            rewrite_line("  *x = 1;", Lang::OpenCl, Fix::Atomic(Scope::Gpu)).unwrap(),
            "  atomic_store_explicit(x, 1, memory_order_relaxed, memory_scope_device);"
        );
        assert_eq!(
            rewrite_line("  int r1 = *x;", Lang::OpenCl, Fix::Atomic(Scope::Cta)).unwrap(),
            "  int r1 = atomic_load_explicit(x, memory_order_relaxed, memory_scope_work_group);"
        );
        assert_eq!(
            rewrite_line("    data[i] = v + 1;", Lang::Cuda, Fix::Atomic(Scope::Gpu)).unwrap(),
            "    weft_st_relaxed_gpu(&data[i], v + 1);"
        );
        assert_eq!(
            rewrite_line("  int r = c[j];", Lang::Cuda, Fix::Atomic(Scope::Cta)).unwrap(),
            "  int r = weft_ld_relaxed_cta(&c[j]);"
        );
        assert_eq!(
            rewrite_line(
                " ld.global.s32 r0, [x];",
                Lang::Ptx,
                Fix::Atomic(Scope::Gpu)
            )
            .unwrap(),
            " ld.relaxed.gpu.global.s32 r0, [x];"
        );
        // Index expressions with spaces, casts and parentheses; a copy's load alone.
        assert_eq!(
            rewrite_line(
                "  data[b * nt + t] = (int)(b * nt + t + 1);",
                Lang::Cuda,
                Fix::Atomic(Scope::Gpu)
            )
            .unwrap(),
            "  weft_st_relaxed_gpu(&data[b * nt + t], (int)(b * nt + t + 1));"
        );
        assert_eq!(
            rewrite_line(
                "  out[i] = data[((b + 1) % nb) * nt + t];",
                Lang::Cuda,
                Fix::AtomicLoad(Scope::Gpu)
            )
            .unwrap(),
            "  out[i] = weft_ld_relaxed_gpu(&data[((b + 1) % nb) * nt + t]);"
        );
        assert!(rewrite_line("  out[i] = 3;", Lang::Cuda, Fix::AtomicLoad(Scope::Gpu)).is_err());
        assert!(rewrite_line("  x = f(y)[0];", Lang::Cuda, Fix::Atomic(Scope::Gpu)).is_err());
        assert!(rewrite_line("  x += 1;", Lang::Cuda, Fix::Atomic(Scope::Gpu)).is_err());
        assert!(rewrite_line("  if (a == b) {", Lang::Cuda, Fix::Atomic(Scope::Gpu)).is_err());
    }
}
