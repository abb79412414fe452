//! Thread code: registers, expressions and statements (loads, stores, read-modify-writes,
//! fences, barriers, local arithmetic, labels and jumps, structured `if`/`while`,
//! assume/assert), each optionally guarded by a predicate register as in PTX `@p`/`@!p`.

use serde::{Deserialize, Serialize};

use crate::attrs::{BarrierKind, FenceKind, MemAttrs, MemSpace, RmwOp};
use crate::program::LocId;
use crate::scope::Scope;
use crate::span::Span;

/// A register of the enclosing thread: an index into [`crate::Thread::regs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Reg(pub u32);

impl Reg {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Binary operators of local arithmetic and comparisons (comparisons yield 0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LAnd,
    LOr,
}

impl BinOp {
    /// C spelling of the operator.
    pub fn c_symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::LAnd => "&&",
            BinOp::LOr => "||",
        }
    }

    /// C precedence (higher binds tighter).
    pub fn c_precedence(self) -> u8 {
        match self {
            BinOp::Mul | BinOp::Div | BinOp::Rem => 10,
            BinOp::Add | BinOp::Sub => 9,
            BinOp::Shl | BinOp::Shr => 8,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 7,
            BinOp::Eq | BinOp::Ne => 6,
            BinOp::And => 5,
            BinOp::Xor => 4,
            BinOp::Or => 3,
            BinOp::LAnd => 2,
            BinOp::LOr => 1,
        }
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }

    /// Evaluates on 64-bit integers (wrapping; division by zero yields 0, as an engine
    /// must not crash on a test's arithmetic).
    pub fn eval(self, a: i64, b: i64) -> i64 {
        match self {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div => a.checked_div(b).unwrap_or(0),
            BinOp::Rem => a.checked_rem(b).unwrap_or(0),
            BinOp::And => a & b,
            BinOp::Or => a | b,
            BinOp::Xor => a ^ b,
            BinOp::Shl => a.wrapping_shl(b as u32),
            BinOp::Shr => a.wrapping_shr(b as u32),
            BinOp::Eq => (a == b) as i64,
            BinOp::Ne => (a != b) as i64,
            BinOp::Lt => (a < b) as i64,
            BinOp::Le => (a <= b) as i64,
            BinOp::Gt => (a > b) as i64,
            BinOp::Ge => (a >= b) as i64,
            BinOp::LAnd => (a != 0 && b != 0) as i64,
            BinOp::LOr => (a != 0 || b != 0) as i64,
        }
    }
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnOp {
    Neg,
    /// Bitwise not.
    Not,
    /// Logical not (0 becomes 1, anything else 0).
    LNot,
}

impl UnOp {
    pub fn eval(self, a: i64) -> i64 {
        match self {
            UnOp::Neg => a.wrapping_neg(),
            UnOp::Not => !a,
            UnOp::LNot => (a == 0) as i64,
        }
    }
}

/// A side-effect-free expression over registers and constants. Memory is only touched by
/// the memory statements, so every memory event is explicit.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expr {
    Int(i64),
    Reg(Reg),
    /// The address of a location (`x` used as a pointer; `.reg .b64 r1 = x`).
    Addr(LocId),
    Un(UnOp, Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
}

impl Expr {
    pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::Bin(op, Box::new(a), Box::new(b))
    }

    pub fn un(op: UnOp, a: Expr) -> Expr {
        Expr::Un(op, Box::new(a))
    }

    /// Registers read by the expression, in order of appearance.
    pub fn regs(&self, out: &mut Vec<Reg>) {
        match self {
            Expr::Reg(r) => out.push(*r),
            Expr::Un(_, a) => a.regs(out),
            Expr::Bin(_, a, b) => {
                a.regs(out);
                b.regs(out);
            }
            Expr::Int(_) | Expr::Addr(_) => {}
        }
    }

    /// The location an address expression denotes when it is a constant `Addr`.
    pub fn as_loc(&self) -> Option<LocId> {
        match self {
            Expr::Addr(l) => Some(*l),
            _ => None,
        }
    }
}

/// `@p` / `@!p`: execute the statement only when the predicate register is non-zero
/// (or zero when negated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Guard {
    pub reg: Reg,
    pub negated: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Load {
    pub dst: Reg,
    pub addr: Expr,
    pub attrs: MemAttrs,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Store {
    pub addr: Expr,
    pub value: Expr,
    pub attrs: MemAttrs,
}

/// A read-modify-write. `dst` receives the old value (or success flag for
/// [`RmwOp::CompareExchange`]); `None` is a reduction (PTX `red`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rmw {
    pub dst: Option<Reg>,
    pub addr: Expr,
    pub op: RmwOp,
    pub args: Vec<Expr>,
    /// Order and annotations of the successful RMW.
    pub attrs: MemAttrs,
    /// Order of the read when a compare fails (C11 `failure` order), when it differs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_order: Option<crate::attrs::Order>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fence {
    pub kind: FenceKind,
    pub attrs: MemAttrs,
    /// Memory spaces the fence covers when the source names them (OpenCL
    /// `CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE`); empty means all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spaces: Vec<MemSpace>,
}

/// An execution barrier.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Barrier {
    pub kind: BarrierKind,
    /// The instances that synchronise (PTX/OpenCL: the CTA/work-group; Vulkan: the
    /// execution scope of `OpControlBarrier`).
    pub scope: Scope,
    /// Barrier identifier (PTX `bar.sync a`; 0 when the source has none).
    pub id: Expr,
    /// Further operands in source order: PTX `bar.sync a, b` has the expected thread count
    /// `b`; Dat3M's barrier tests give more.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operands: Vec<Expr>,
    /// Memory semantics attached to the barrier (Vulkan `cbar.acq_rel.semsc0`).
    #[serde(default)]
    pub attrs: MemAttrs,
    /// Memory spaces the barrier's fence covers (OpenCL `barrier(CLK_LOCAL_MEM_FENCE)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spaces: Vec<MemSpace>,
}

/// One statement with its optional predicate guard and source position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stmt {
    pub kind: StmtKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<Guard>,
    #[serde(default)]
    pub span: Span,
    /// Statements this one is *unsequenced* with (C11 §6.5p2: the operands of `a + b`
    /// are evaluated in no fixed order, so their memory accesses are not related by
    /// sequenced-before); `None` for every statement of the other formats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unseq: Option<Unseq>,
}

/// A run of earlier statements of the same block that a statement is unsequenced with:
/// the `count` statements that end `skip` statements before it (so `skip: 0, count: 1`
/// is the statement just before). Program order (`po`) leaves such pairs unrelated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unseq {
    pub skip: u32,
    pub count: u32,
}

impl Stmt {
    pub fn new(kind: StmtKind, span: Span) -> Self {
        Stmt {
            kind,
            guard: None,
            span,
            unseq: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StmtKind {
    Load(Load),
    Store(Store),
    Rmw(Rmw),
    Fence(Fence),
    Barrier(Barrier),
    /// Local computation: `dst = value`.
    Assign {
        dst: Reg,
        value: Expr,
    },
    /// A jump target.
    Label(String),
    /// Jump to `target`, when `cond` is non-zero (always when `None`).
    Jump {
        target: String,
        cond: Option<Expr>,
    },
    If {
        cond: Expr,
        then_branch: Vec<Stmt>,
        else_branch: Vec<Stmt>,
    },
    /// `while (cond) body`, where `prelude` runs before each evaluation of `cond` (it holds
    /// the memory accesses a C condition performs, such as a CAS in `while (cas(...) == 0)`).
    While {
        prelude: Vec<Stmt>,
        cond: Expr,
        body: Vec<Stmt>,
    },
    /// Executions where `cond` is zero are discarded.
    Assume(Expr),
    /// Executions where `cond` is zero violate the program's assertion.
    Assert(Expr),
}

impl StmtKind {
    /// Whether this statement accesses memory.
    pub fn is_memory(&self) -> bool {
        matches!(
            self,
            StmtKind::Load(_) | StmtKind::Store(_) | StmtKind::Rmw(_)
        )
    }

    /// The register this statement writes, if any.
    pub fn def(&self) -> Option<Reg> {
        match self {
            StmtKind::Load(l) => Some(l.dst),
            StmtKind::Rmw(r) => r.dst,
            StmtKind::Assign { dst, .. } => Some(*dst),
            _ => None,
        }
    }
}

/// The integer literals `code` stores or hands to a read-modify-write, nested statements
/// included (the values a write can produce without reading them first).
pub fn stored_literals(code: &[Stmt], out: &mut std::collections::BTreeSet<i64>) {
    walk(code, &mut |st| match &st.kind {
        StmtKind::Store(s) => {
            if let Expr::Int(v) = s.value {
                out.insert(v);
            }
        }
        StmtKind::Rmw(r) => {
            for a in &r.args {
                if let Expr::Int(v) = a {
                    out.insert(*v);
                }
            }
        }
        _ => {}
    });
}

/// Calls `f` on every statement of `code`, including nested ones, in source order.
pub fn walk<'a>(code: &'a [Stmt], f: &mut dyn FnMut(&'a Stmt)) {
    for s in code {
        f(s);
        match &s.kind {
            StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                walk(then_branch, f);
                walk(else_branch, f);
            }
            StmtKind::While { prelude, body, .. } => {
                walk(prelude, f);
                walk(body, f);
            }
            _ => {}
        }
    }
}
