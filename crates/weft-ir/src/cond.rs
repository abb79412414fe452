//! Final conditions of litmus tests: `exists`, `~exists` and `forall` over propositions
//! (`/\`, `\/`, `~`, `=`/`==`, `!=`, ...) on registers (`P1:r0`, `1:r0`) and memory
//! (`x`, `[x]`), plus herd's `filter` (paper 000 §4.1; herd7 litmus format).

use serde::{Deserialize, Serialize};

use crate::code::Reg;
use crate::program::LocId;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantifier {
    /// Some final state satisfies the proposition.
    Exists,
    /// No final state satisfies it (`~exists`).
    NotExists,
    /// Every final state satisfies it.
    Forall,
}

impl Quantifier {
    /// The herd spelling.
    pub fn keyword(self) -> &'static str {
        match self {
            Quantifier::Exists => "exists",
            Quantifier::NotExists => "~exists",
            Quantifier::Forall => "forall",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn eval(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }

    /// Spelling with `==` for equality (Dat3M style); herd C style uses `=`.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// A value observed at the end of an execution, or a constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    /// Final value of register `reg` of thread number `thread`.
    Reg {
        thread: usize,
        reg: Reg,
    },
    /// Final value of a location (element `index` of an array location).
    Mem {
        loc: LocId,
        index: u32,
    },
    Int(i64),
    /// The address of a location (herd allows `0:r1=x` for pointer registers).
    Addr(LocId),
}

/// A proposition over final values.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Prop {
    True,
    False,
    Cmp(Term, CmpOp, Term),
    Not(Box<Prop>),
    And(Box<Prop>, Box<Prop>),
    Or(Box<Prop>, Box<Prop>),
}

impl Prop {
    pub fn and(a: Prop, b: Prop) -> Prop {
        Prop::And(Box::new(a), Box::new(b))
    }

    pub fn or(a: Prop, b: Prop) -> Prop {
        Prop::Or(Box::new(a), Box::new(b))
    }

    pub fn negate(a: Prop) -> Prop {
        Prop::Not(Box::new(a))
    }

    /// Evaluates with `value` giving the final value of a term.
    pub fn eval(&self, value: &mut dyn FnMut(&Term) -> i64) -> bool {
        match self {
            Prop::True => true,
            Prop::False => false,
            Prop::Cmp(a, op, b) => {
                let (x, y) = (value(a), value(b));
                op.eval(x, y)
            }
            Prop::Not(a) => !a.eval(value),
            Prop::And(a, b) => a.eval(value) && b.eval(value),
            Prop::Or(a, b) => a.eval(value) || b.eval(value),
        }
    }

    /// Every term mentioned, in order.
    pub fn terms<'a>(&'a self, out: &mut Vec<&'a Term>) {
        match self {
            Prop::True | Prop::False => {}
            Prop::Cmp(a, _, b) => {
                out.push(a);
                out.push(b);
            }
            Prop::Not(a) => a.terms(out),
            Prop::And(a, b) | Prop::Or(a, b) => {
                a.terms(out);
                b.terms(out);
            }
        }
    }
}

impl std::ops::Not for Prop {
    type Output = Prop;

    fn not(self) -> Prop {
        Prop::negate(self)
    }
}

/// The final condition of a test.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Condition {
    pub quantifier: Quantifier,
    pub prop: Prop,
}
