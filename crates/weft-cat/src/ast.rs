//! The abstract syntax of cat models: expressions, instructions and the parsed [`Model`].
//!
//! The shapes follow the herd manual's grammar (§"Expressions", §"Instructions",
//! §"Models"). Chains of the same binary operator are kept n-ary ([`ExprKind::Op`]) and
//! applications keep all their arguments ([`ExprKind::App`]), so that the tree depth stays
//! bounded by the parser's nesting limit however long a line of `|` or `;` is. Names are
//! interned as [`Sym`]s; `include`d files are spliced into the instruction list at parse
//! time (herd includes a file once), their spans pointing into their own [`SourceFile`].

use std::collections::HashMap;

use crate::error::{CatError, ErrorKind, SourceFile};

/// An interned name (identifier, or tag written with its leading `'`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// The name table of a model.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    names: Vec<String>,
    map: HashMap<String, Sym>,
}

impl Symbols {
    /// Interns `name`.
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(&s) = self.map.get(name) {
            return s;
        }
        let s = Sym(self.names.len() as u32);
        self.names.push(name.to_string());
        self.map.insert(name.to_string(), s);
        s
    }

    /// How many names are interned.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no name is interned.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The text of `s` (`?` for a symbol of another table).
    pub fn name(&self, s: Sym) -> &str {
        self.names.get(s.0 as usize).map_or("?", String::as_str)
    }

    /// The symbol of `name`, if interned.
    pub fn get(&self, name: &str) -> Option<Sym> {
        self.map.get(name).copied()
    }
}

/// A byte range in one of the model's source files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    /// Index into [`Model::files`].
    pub file: u32,
    /// Byte offset of the first character.
    pub start: u32,
    /// Byte offset just past the end.
    pub end: u32,
}

/// Prefix and postfix operators, and the identity-on-a-set bracket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `~e`: complement of a set or relation.
    Complement,
    /// `e+`: transitive closure.
    Plus,
    /// `e*`: reflexive-transitive closure.
    Star,
    /// `e?`: reflexive closure.
    Opt,
    /// `e^-1`: inverse.
    Inverse,
    /// `[e]`: identity relation on a set.
    Identity,
}

/// Infix operators, from loosest to tightest binding (herd manual §"Operator expressions").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `|`: union (right-associative).
    Union,
    /// `++`: set addition (right-associative).
    Add,
    /// `;`: sequence / composition (right-associative).
    Seq,
    /// `\`: difference (left-associative).
    Diff,
    /// `&`: intersection (right-associative).
    Inter,
    /// `*`: cartesian product (non-associative).
    Cartesian,
}

impl BinOp {
    /// The operator as written.
    pub fn text(self) -> &'static str {
        match self {
            BinOp::Union => "|",
            BinOp::Add => "++",
            BinOp::Seq => ";",
            BinOp::Diff => "\\",
            BinOp::Inter => "&",
            BinOp::Cartesian => "*",
        }
    }
}

/// A function or binding pattern: a name, or a tuple of names (`()` is the empty tuple).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pat {
    /// `x`
    Var(Sym),
    /// `(x, y, ...)`; `()` when empty.
    Tuple(Vec<Sym>),
}

/// An expression with its source span.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// The forms of cat expressions.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// `0`: the empty relation.
    Zero,
    /// `_`: the universal set of events.
    Universe,
    /// An identifier.
    Var(Sym),
    /// A tag `'t` (the symbol includes the quote).
    Tag(Sym),
    /// `()` or `(e1, ..., en)` with n ≥ 2.
    Tuple(Vec<Expr>),
    /// `{e1, ..., en}`; `{}` is the empty set.
    SetLit(Vec<Expr>),
    /// A prefix or postfix operator, or `[e]`.
    Unary(UnOp, Box<Expr>),
    /// `e1 op e2 op ... op en` for one operator (n ≥ 2; exactly 2 for `*`).
    Op(BinOp, Vec<Expr>),
    /// `f a1 a2 ...`: curried application, left to right.
    App(Box<Expr>, Vec<Expr>),
    /// `fun pat -> body`.
    Fun(Box<FunDef>),
    /// `let [rec] b1 and ... and bn in body`.
    Let {
        /// Whether the bindings are recursive (least fixpoint).
        rec: bool,
        /// The bindings.
        bindings: Vec<Binding>,
        /// The body.
        body: Box<Expr>,
    },
    /// `match e with ... end`.
    Match {
        /// The matched value.
        scrutinee: Box<Expr>,
        /// The clauses.
        arms: MatchArms,
    },
    /// `if cond then e1 else e2`.
    If {
        /// The condition.
        cond: Box<Cond>,
        /// Value when it holds.
        then: Box<Expr>,
        /// Value otherwise.
        els: Box<Expr>,
    },
    /// `try e1 with e2`: the value of `e1`, or of `e2` when `e1` fails to evaluate.
    Try {
        /// The attempted expression.
        body: Box<Expr>,
        /// The fallback.
        fallback: Box<Expr>,
    },
}

/// The parameter pattern and body of a function.
#[derive(Clone, Debug)]
pub struct FunDef {
    /// The parameter.
    pub pat: Pat,
    /// The body.
    pub body: Expr,
}

/// The clauses of a `match`.
#[derive(Clone, Debug)]
pub enum MatchArms {
    /// `'t1 -> e1 || ... || _ -> ed` over tags.
    Tags {
        /// Tag clauses, in order.
        arms: Vec<(Sym, Expr)>,
        /// The `_ -> e` clause.
        default: Option<Box<Expr>>,
    },
    /// `{} -> e1 || x ++ rest -> e2` over sets.
    Set {
        /// Value for the empty set.
        empty: Box<Expr>,
        /// Name bound to one element.
        elem: Sym,
        /// Name bound to the other elements.
        rest: Sym,
        /// Value for a non-empty set.
        nonempty: Box<Expr>,
    },
}

/// The condition of an `if`.
#[derive(Clone, Debug)]
pub enum Cond {
    /// `variant "name"`: whether the caller enabled that model variant.
    Variant(String),
    /// `e1 = e2`: structural equality of values.
    Equal(Expr, Expr),
}

/// `pat = expr` (function bindings `f x = e` are stored as `f = fun x -> e`).
#[derive(Clone, Debug)]
pub struct Binding {
    /// The bound pattern.
    pub pat: Pat,
    /// The bound expression.
    pub expr: Expr,
    /// The binding's span (name to end of expression).
    pub span: Span,
}

/// How a check's outcome is used (herd manual §"Checks").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckMode {
    /// A consistency axiom: the execution is forbidden when it fails.
    Check,
    /// `flag ...`: never forbids; the flag is raised when the test holds.
    Flag,
    /// `undefined_unless ...`: the program is undefined when the test fails.
    UndefinedUnless,
}

/// The test a check applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Test {
    /// `acyclic r`
    Acyclic,
    /// `irreflexive r`
    Irreflexive,
    /// `empty e`
    Empty,
}

impl Test {
    /// The keyword.
    pub fn text(self) -> &'static str {
        match self {
            Test::Acyclic => "acyclic",
            Test::Irreflexive => "irreflexive",
            Test::Empty => "empty",
        }
    }
}

/// `[flag|undefined_unless] [~](acyclic|irreflexive|empty) e [as name]`.
#[derive(Clone, Debug)]
pub struct Check {
    /// Check, flag or undefined_unless.
    pub mode: CheckMode,
    /// Whether the test is negated with `~`.
    pub negated: bool,
    /// The test.
    pub test: Test,
    /// The tested expression.
    pub expr: Expr,
    /// The `as` name.
    pub name: Option<String>,
}

/// An instruction with its span.
#[derive(Clone, Debug)]
pub struct Instr {
    /// What it does.
    pub kind: InstrKind,
    /// Where it is.
    pub span: Span,
}

/// The forms of cat instructions.
#[derive(Clone, Debug)]
pub enum InstrKind {
    /// `let [rec] b1 and ... and bn`: bindings for the rest of the model.
    Let {
        /// Recursive (least fixpoint) or not.
        rec: bool,
        /// The bindings.
        bindings: Vec<Binding>,
    },
    /// A check.
    Check(Box<Check>),
    /// `with x from e`: run the rest of the model once per element of `e`.
    With {
        /// The bound name.
        var: Sym,
        /// The set of choices.
        set: Expr,
    },
    /// `enum Name = 't1 || ... || 'tn`: declares tags and binds `Name` to their set.
    Enum {
        /// The enumeration's name.
        name: Sym,
        /// Its tags (symbols with the quote).
        tags: Vec<Sym>,
    },
    /// `procedure name pat = instructions end`.
    Procedure {
        /// The procedure's name.
        name: Sym,
        /// Its parameter.
        pat: Pat,
        /// Its body.
        body: Vec<Instr>,
    },
    /// `call name arg [as id]`.
    Call {
        /// The called procedure.
        name: Sym,
        /// The argument.
        arg: Expr,
        /// The `as` name (recorded, unused).
        as_name: Option<String>,
    },
    /// `forall x in e do instructions end`.
    Forall {
        /// The bound name.
        var: Sym,
        /// The iterated set.
        set: Expr,
        /// The body.
        body: Vec<Instr>,
    },
    /// `if variant "v" instructions [else instructions] end`.
    IfVariant {
        /// The variant's name.
        variant: String,
        /// Run when it is enabled.
        then: Vec<Instr>,
        /// Run otherwise.
        els: Vec<Instr>,
    },
    /// `show ...` / `unshow ...`: parsed and ignored.
    Show,
    /// `instructions S[...]` (bell files): parsed and ignored.
    Instructions,
}

/// A parsed cat model: header, instructions (includes spliced in) and source files.
#[derive(Clone, Debug)]
pub struct Model {
    /// The model's name: the header's first word or string, when present.
    pub name: Option<String>,
    /// Every word and string of the header (name, comment, herd model options).
    pub header: Vec<String>,
    /// The instructions, in execution order.
    pub instrs: Vec<Instr>,
    /// The main file first, then included files in inclusion order.
    pub files: Vec<SourceFile>,
    /// The names of the model.
    pub symbols: Symbols,
    /// Non-fatal remarks of the parser (e.g. a file included twice).
    pub warnings: Vec<String>,
    /// The checks (by instruction span: file, start) that may judge partial candidate
    /// executions (see `monotone`).
    pub prunable: std::collections::HashSet<(u32, u32)>,
    /// The top-level bindings (by span: file, start) that do not depend on the
    /// candidate's `rf` and `co`, which [`crate::eval::EvalCache`] computes once (see
    /// `monotone::static_bindings`).
    pub static_bindings: std::collections::HashSet<(u32, u32)>,
    /// The checks (by instruction span) that may judge partial candidates given an upper
    /// bound of the candidate too (see `monotone::bounded_checks` and
    /// [`Model::evaluate_partial`](crate::eval)).
    pub bounded: std::collections::HashSet<(u32, u32)>,
    /// The top-level bindings (by span) that [`Model::settle`](crate::eval) bounds from
    /// below and above on the completions of a partial candidate (see
    /// `monotone::interval_bindings`).
    pub interval: std::collections::HashSet<(u32, u32)>,
    /// Per symbol (by index): whether some construct of the model binds it (`let`,
    /// function parameters, `with`, `forall`, `enum`, `procedure`, set `match`). A name
    /// never bound is resolved without walking the environment (see `eval`); symbols
    /// interned after parsing count as bound.
    pub(crate) binders: Vec<bool>,
}

/// [`Model::binders`] of the instructions `instrs` over `count` symbols.
pub(crate) fn binders(instrs: &[Instr], count: usize) -> Vec<bool> {
    fn pat(p: &Pat, out: &mut [bool]) {
        match p {
            Pat::Var(s) => mark(*s, out),
            Pat::Tuple(v) => v.iter().for_each(|s| mark(*s, out)),
        }
    }
    fn mark(s: Sym, out: &mut [bool]) {
        if let Some(b) = out.get_mut(s.0 as usize) {
            *b = true;
        }
    }
    fn expr(e: &Expr, out: &mut [bool]) {
        match &e.kind {
            ExprKind::Zero | ExprKind::Universe | ExprKind::Var(_) | ExprKind::Tag(_) => {}
            ExprKind::Tuple(v) | ExprKind::SetLit(v) | ExprKind::Op(_, v) => {
                v.iter().for_each(|x| expr(x, out))
            }
            ExprKind::Unary(_, x) => expr(x, out),
            ExprKind::App(f, args) => {
                expr(f, out);
                args.iter().for_each(|x| expr(x, out));
            }
            ExprKind::Fun(d) => {
                pat(&d.pat, out);
                expr(&d.body, out);
            }
            ExprKind::Let { bindings, body, .. } => {
                for b in bindings {
                    pat(&b.pat, out);
                    expr(&b.expr, out);
                }
                expr(body, out);
            }
            ExprKind::Match { scrutinee, arms } => {
                expr(scrutinee, out);
                match arms {
                    MatchArms::Tags { arms, default } => {
                        arms.iter().for_each(|(_, x)| expr(x, out));
                        if let Some(d) = default {
                            expr(d, out);
                        }
                    }
                    MatchArms::Set {
                        empty,
                        elem,
                        rest,
                        nonempty,
                    } => {
                        mark(*elem, out);
                        mark(*rest, out);
                        expr(empty, out);
                        expr(nonempty, out);
                    }
                }
            }
            ExprKind::If { cond, then, els } => {
                if let Cond::Equal(a, b) = &**cond {
                    expr(a, out);
                    expr(b, out);
                }
                expr(then, out);
                expr(els, out);
            }
            ExprKind::Try { body, fallback } => {
                expr(body, out);
                expr(fallback, out);
            }
        }
    }
    fn block(instrs: &[Instr], out: &mut [bool]) {
        for i in instrs {
            match &i.kind {
                InstrKind::Let { bindings, .. } => {
                    for b in bindings {
                        pat(&b.pat, out);
                        expr(&b.expr, out);
                    }
                }
                InstrKind::Check(c) => expr(&c.expr, out),
                InstrKind::With { var, set } => {
                    mark(*var, out);
                    expr(set, out);
                }
                InstrKind::Enum { name, tags } => {
                    mark(*name, out);
                    tags.iter().for_each(|t| mark(*t, out));
                }
                InstrKind::Procedure { name, pat: p, body } => {
                    mark(*name, out);
                    pat(p, out);
                    block(body, out);
                }
                InstrKind::Call { name, arg, .. } => {
                    mark(*name, out);
                    expr(arg, out);
                }
                InstrKind::Forall { var, set, body } => {
                    mark(*var, out);
                    expr(set, out);
                    block(body, out);
                }
                InstrKind::IfVariant { then, els, .. } => {
                    block(then, out);
                    block(els, out);
                }
                InstrKind::Show | InstrKind::Instructions => {}
            }
        }
    }
    let mut out = vec![false; count];
    block(instrs, &mut out);
    out
}

impl Model {
    /// Whether some construct of the model may bind `s` in an environment.
    pub(crate) fn may_bind(&self, s: Sym) -> bool {
        self.binders.get(s.0 as usize).copied().unwrap_or(true)
    }

    /// The text of a symbol.
    pub fn sym(&self, s: Sym) -> &str {
        self.symbols.name(s)
    }

    /// An error located at `span`.
    pub fn error_at(&self, span: Span, kind: ErrorKind, message: impl Into<String>) -> CatError {
        match self.files.get(span.file as usize) {
            Some(f) => f.error(kind, span.start as usize, message),
            None => CatError::new(kind, message),
        }
    }

    /// The names of all checks, in order (unnamed checks excluded), including those in
    /// procedure and `forall` bodies.
    pub fn check_names(&self) -> Vec<String> {
        fn walk(instrs: &[Instr], out: &mut Vec<String>) {
            for i in instrs {
                match &i.kind {
                    InstrKind::Check(c) => out.extend(c.name.clone()),
                    InstrKind::Procedure { body, .. } | InstrKind::Forall { body, .. } => {
                        walk(body, out)
                    }
                    InstrKind::IfVariant { then, els, .. } => {
                        walk(then, out);
                        walk(els, out);
                    }
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.instrs, &mut out);
        out
    }
}
