//! herd's C11 litmus format (`C name`) and Dat3M's OpenCL dialect (`OPENCL name`): a parser
//! to [`weft_ir::Program`] and printers for both dialects.
//!
//! # Input
//!
//! ```text
//! OPENCL MP                                  C MP
//! { [x]=0; [y]=0; }                          { x = 0; atomic_int y = 0; 0:r9=1; }
//! P0@wg 0, dev 0 (global int* x,             P0 (int* x, atomic_int* y) {
//!                 global atomic_int* y) {      *x = 1;
//!   *x = 1;                                    atomic_store_explicit(y, 1, memory_order_release);
//!   atomic_store_explicit(y, 1,              }
//!       memory_order_release,                ...
//!       memory_scope_work_group);            exists (1:r0=1 /\ 1:r1=0)
//! }
//! ...
//! exists (1:r0=1 /\ 1:r1=0)
//! ```
//!
//! * Header: the test name is the first word after `C`/`OPENCL` on the header line; quoted
//!   strings right after it are [`Program::doc`] (printed back with any `"` turned into
//!   `'`, as litmus strings have no escapes).
//! * Initial state (optional braces block, items separated by `;`): `[x]=0`, `x=0`,
//!   `int x = 0`, `atomic_int x = 1`, `atomic_int y[2] = {0, 0}` (arrays hold one value in
//!   every element), `&x` or a bare location name as a value (an address), and register
//!   initialisers `0:r0=1` / `P0:r0=1`.
//! * Threads `P0`, `P1`, ... in order. OpenCL threads may carry a placement `@wg 0, dev 0`
//!   (`sg` -> [`Scope::Warp`], `wg` -> [`Scope::Cta`], `dev` -> [`Scope::Gpu`]; stored
//!   innermost first). Parameters are pointers `[volatile] [global|local] [atomic_]T* name`
//!   (`T` in `int`, `uint`/`unsigned [int]`, `long`, `ulong`/`unsigned long`), recorded in
//!   [`Thread::params`]. A parameter names the location of the same name (declared with
//!   value 0 if the initial state lacks it); `local` makes the location
//!   [`MemSpace::Shared`], an atomic type marks it [`Location::atomic`]. `global`/`local`
//!   and placements are OpenCL-only.
//! * Statements: declarations `int r = e;` (registers: `int`, `uint`, `long`, ...),
//!   `r = e;`, `r += e;`, `r++;`, `*p = e;`, `p[i] = e;`, `*p += e;`, expression
//!   statements, `if`/`else`, `while`, `for` (lowered to `while`), labels `L: stmt`,
//!   `return;` (see below), empty statements and blocks. `r += e` and `r++` mean
//!   `r = r + e` / `r = r + 1`; `*p += e` means `*p = *p + e` (a load, then a store). Expressions: integers, registers,
//!   parameters (their value is the location's address, [`Expr::Addr`]), `*p`, `p[i]`,
//!   C unary/binary operators with C precedence, and the calls below.
//! * Registers live in one namespace per thread (C block scoping is not modelled): a name
//!   is declared once; a parameter and a register cannot share a name. Labels have their
//!   own namespace and are unique per thread.
//!
//! # Calls and their IR
//!
//! | source | IR |
//! |---|---|
//! | `*p` (read), `*p = v` | [`StmtKind::Load`]/[`StmtKind::Store`], [`Order::Plain`], `volatile` when `p` is |
//! | `atomic_load(p)` / `atomic_store(p, v)` | load/store, [`Order::SeqCst`] |
//! | `atomic_load_explicit(p, mo[, scope])`, `atomic_store_explicit(p, v, mo[, scope])` | load/store with `mo` and the scope |
//! | `atomic_fetch_{add,sub,and,or,xor,min,max}[_explicit](p, v[, mo[, scope]])`, `atomic_exchange[_explicit]` | [`StmtKind::Rmw`] ([`RmwOp::Add`], ..., [`RmwOp::Exch`]); no destination when the result is discarded |
//! | `atomic_compare_exchange_{strong,weak}[_explicit](p, e, d[, succ, fail[, scope]])` | [`RmwOp::CompareExchange`] with `args = [e (a pointer: Expr::Addr), d]`, the success flag in `dst`, `fail_order` = `fail` when it differs from `succ` |
//! | `atomic_work_item_fence(flags, mo, scope)` | [`FenceKind::Fence`] with `spaces` |
//! | `atomic_thread_fence(mo)` | [`FenceKind::Fence`], no scope, no spaces |
//! | `mem_fence(flags)` (OpenCL 1.2) | [`FenceKind::Membar`], seq_cst, `spaces` |
//! | `barrier(flags)` | [`StmtKind::Barrier`]: [`BarrierKind::Sync`], scope [`Scope::Cta`], id 0, `spaces`, no memory scope |
//! | `work_group_barrier(flags[, scope])` / `sub_group_barrier(flags[, scope])` | the same at [`Scope::Cta`] / [`Scope::Warp`], `attrs.scope` = the memory scope (default: the barrier's own level) |
//!
//! Flags: `CLK_GLOBAL_MEM_FENCE` -> [`MemSpace::Global`], `CLK_LOCAL_MEM_FENCE` ->
//! [`MemSpace::Shared`], joined with `|` (stored sorted). Scopes: `memory_scope_work_item`
//! -> Thread, `sub_group` -> Warp, `work_group` -> Cta, `device` -> Gpu,
//! `all_svm_devices`/`all_devices` -> System. In OpenCL an atomic access without a scope
//! argument gets OpenCL's default, `memory_scope_device` ([`Scope::Gpu`]); in C it has none.
//! Loads reject `release`/`acq_rel`, stores `acquire`/`consume`/`acq_rel`; fences and
//! read-modify-writes take any order (Dat3M's tests use `release` as a CAS failure order).
//!
//! # Temporaries
//!
//! Every memory access is its own IR statement. A memory access nested in an expression
//! (`*val = *d;`, `int t = atomic_load(x) + *y;`, `if (*b)`) is loaded into a fresh
//! register marked [`RegDecl::temp`] (`__t0`, `__t1`, ... per thread, skipping names the
//! thread uses), in C evaluation order as weft fixes it: left operand before right, a
//! call's pointer before its value arguments, a store's address before its value. The
//! accesses precede the statement, or go to [`StmtKind::While`]'s `prelude` for a loop
//! condition (`while (cas(...) == 0) {}`). A register assigned a lone access
//! (`int r = *x;`) receives it directly. In a discarded expression (`*x;`,
//! `atomic_fetch_add(x, 1);`) each access stands alone: loads into a temporary,
//! read-modify-writes without a destination. Temporaries are listed after the thread's own
//! registers. `&&`/`||` with a memory access on the right (evaluated conditionally) is
//! rejected. Conditions cannot name temporaries.
//!
//! `return;` (or `return N;`) ends the thread: a `return` in an `if` branch moves the
//! statements after the `if` into the paths that fall through (copied into both branches
//! when both can), so the IR has no returns; `return` inside a loop is rejected.
//!
//! # Final condition
//!
//! `locations [x; 0:r0;]` ([`Program::observed`]), `filter (p)`, then `exists`, `~exists`
//! or `forall` over `/\`, `\/`, `~`, `true`, `false` and comparisons `=`/`==`, `!=`, `<`,
//! `<=`, `>`, `>=` of terms `0:r0` / `P0:r0`, `x`, `[x]`, `y[1]`, `&x` (an address) and
//! integers. `/\` and `\/` associate to the left.
//!
//! **`T:p` naming a parameter.** Dat3M's `OPENCL/herd/barrier_example.litmus` ends with
//! `exists (0:x=0 /\ 1:y=0)` where `x` and `y` are pointer parameters of P0 and P1, not
//! registers. weft reads `T:p`, when thread `T` has no register `p` but a parameter `p`,
//! as the final value of the location `p` points to ([`Term::Mem`]): a parameter names a
//! shared variable, and that is what a condition observes. A register of `T` with that
//! name takes precedence. In that test `x` ends as 1 (only P0 writes it), so the state is
//! unreachable, matching the verdict in Dat3M's `OPENCL-expected.csv` (0). Reading `0:x` as
//! the pointer's own value (an address, never 0) would give the same verdict; reading it
//! as an uninitialised register (0) would not.
//!
//! # Limits and errors
//!
//! Every error is a [`ParseError`] at the offending token. Statement nesting, parenthesis
//! nesting and the depth of expression and proposition trees are limited to [`MAX_DEPTH`]
//! (256); arrays to 65536 elements; test names and identifiers to [`MAX_NAME`] (4096)
//! bytes; a test to [`MAX_ITEMS`] (100,000) statements, registers, locations, threads and
//! condition terms, and to 400,000 syntax nodes, so that any input, however large, is
//! parsed or rejected quickly. Errors name unknown functions, bad orders/scopes and
//! flags, argument counts, undeclared registers/locations, duplicate parameters,
//! registers, locations and labels, unbalanced brackets and truncated input.
//!
//! # Printing
//!
//! [`print_opencl`] and [`print_c`] write canonical text that re-parses to an equal
//! program for programs of their own dialect. Temporaries are folded back into the
//! statement that uses them (`*val = *d;`); declarations are placed so the register order
//! survives (`int r = ...` at the first definition, a bare `int r;` where needed). An
//! OpenCL access whose scope is the default (device) is printed without a scope argument,
//! and a seq_cst one without `_explicit`.
//! Parameters are printed as recorded; locations a thread uses without a parameter (other
//! architectures) get one (`global`/`local` from the location's space, `atomic_` when the
//! location or an access is atomic, `volatile` when the accesses are).
//!
//! Programs of other architectures are printed when expressible: PTX `ld.relaxed.gpu` ->
//! `atomic_load_explicit(x, memory_order_relaxed)` (the device scope is OpenCL's default;
//! other scopes are spelled out), `ld.weak` -> `*x`, `fence.sc.gpu` ->
//! `atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst,
//! memory_scope_device)` (fences without spaces cover every space the test uses), PTX
//! `membar` -> a seq_cst `atomic_work_item_fence`, `bar.sync 0` -> `barrier(...)`, a
//! read-modify-write without order -> relaxed, a guarded statement -> `if (p) {...}`.
//! Refused with a [`PrintError`] naming the construct: jumps (no `goto` in these formats),
//! assume/assert, PTX cache operators, proxies, proxy fences and aliases, Vulkan
//! availability/visibility/non-private/storage classes/semantics and av/vis device
//! operations, thread relations, `atom.inc`/`atom.dec`/`atom.cas`, arrive/warp barriers
//! and barrier ids or counts, queue-family scopes, a load ordered `release` or a store
//! ordered `acquire`, addresses held in registers, names that are not C identifiers.
//!
//! [`print_c`] additionally refuses what herd C cannot say: barriers, and scopes or
//! placements that matter. A scope matters when some other thread is outside the issuing
//! thread's instance of it ([`Placement::same_instance`]); a scope all threads share is
//! dropped (so PTX `.gpu` atomics of a one-GPU test print as plain C11 atomics). A fence
//! limited to some memory spaces is refused unless it covers every space the test's
//! locations use; `local` locations are refused when threads sit in different work-groups.

mod lexer;
mod lower;
mod parser;
mod printer;

use crate::{ParseError, PrintError};
// Named by the documentation above.
#[cfg(doc)]
use weft_ir::{
    BarrierKind, Expr, FenceKind, Location, MemSpace, Placement, RegDecl, RmwOp, StmtKind, Term,
    Thread,
};
use weft_ir::{Order, Program, Scope};

/// Deepest nesting accepted: statement blocks, parentheses, and expression and
/// proposition trees (each counted separately).
pub const MAX_DEPTH: u32 = 256;

/// Most statements, registers, locations, threads and condition terms one test may have
/// (litmus tests are small; the bound keeps time and memory in check on hostile input).
pub const MAX_ITEMS: usize = 100_000;

/// Longest test name or identifier accepted, in bytes.
pub const MAX_NAME: usize = 4096;

/// Largest array accepted in the initial state.
pub(crate) const MAX_ARRAY: u32 = 65536;

/// Which of the two dialects a text is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    C,
    OpenCl,
}

impl Dialect {
    fn header(self) -> &'static str {
        match self {
            Dialect::C => "C",
            Dialect::OpenCl => "OPENCL",
        }
    }
}

/// C11 memory orders by spelling.
pub(crate) const ORDERS: [(&str, Order); 6] = [
    ("memory_order_relaxed", Order::Relaxed),
    ("memory_order_consume", Order::Consume),
    ("memory_order_acquire", Order::Acquire),
    ("memory_order_release", Order::Release),
    ("memory_order_acq_rel", Order::AcqRel),
    ("memory_order_seq_cst", Order::SeqCst),
];

/// OpenCL memory scopes by spelling (the first spelling of a scope is the printed one).
pub(crate) const SCOPES: [(&str, Scope); 6] = [
    ("memory_scope_work_item", Scope::Thread),
    ("memory_scope_sub_group", Scope::Warp),
    ("memory_scope_work_group", Scope::Cta),
    ("memory_scope_device", Scope::Gpu),
    ("memory_scope_all_svm_devices", Scope::System),
    ("memory_scope_all_devices", Scope::System),
];

/// Placement levels of OpenCL thread headers (`P0@sg 0, wg 0, dev 0`).
pub(crate) const LEVELS: [(&str, Scope); 3] =
    [("sg", Scope::Warp), ("wg", Scope::Cta), ("dev", Scope::Gpu)];

/// Words that cannot name a location, parameter, register or label.
pub(crate) fn is_reserved(name: &str) -> bool {
    const WORDS: [&str; 48] = [
        "if",
        "else",
        "while",
        "for",
        "do",
        "return",
        "goto",
        "break",
        "continue",
        "switch",
        "case",
        "default",
        "sizeof",
        "void",
        "int",
        "uint",
        "long",
        "ulong",
        "unsigned",
        "signed",
        "short",
        "char",
        "float",
        "double",
        "bool",
        "const",
        "volatile",
        "static",
        "struct",
        "global",
        "local",
        "__global",
        "__local",
        "constant",
        "__constant",
        "private",
        "__private",
        "exists",
        "forall",
        "filter",
        "locations",
        "true",
        "false",
        "atomic_int",
        "atomic_uint",
        "atomic_long",
        "atomic_ulong",
        "NULL",
    ];
    WORDS.contains(&name)
        || name.starts_with("memory_order_")
        || name.starts_with("memory_scope_")
        || name.starts_with("CLK_")
        || lower::Fun::lookup(name).is_some()
}

/// Whether `name` is a C identifier weft can print.
pub(crate) fn is_c_ident(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !is_reserved(name)
}

/// Parses a herd C (`C name`) or Dat3M OpenCL (`OPENCL name`) litmus test.
pub fn parse(src: &str) -> Result<Program, ParseError> {
    crate::cond::with_meta(src, parser::parse)
}

/// Writes `p` as a herd C11 litmus test, or says what herd C cannot express.
pub fn print_c(p: &Program) -> Result<String, PrintError> {
    printer::print(p, Dialect::C)
}

/// Writes `p` as a Dat3M OpenCL litmus test, or says what the dialect cannot express.
pub fn print_opencl(p: &Program) -> Result<String, PrintError> {
    printer::print(p, Dialect::OpenCl)
}
