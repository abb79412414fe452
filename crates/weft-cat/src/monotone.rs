//! Which checks of a model may judge a *partial* candidate execution: one whose events
//! and `po`/dependency relations are final but whose `rf` (and possibly `co`) holds only
//! some of its final edges. A consistency check (`acyclic`, `irreflexive`, `empty`, not
//! negated, not a flag) whose relation can only grow when `rf` and `co` grow fails on
//! every completion once it fails on the partial execution, so an enumerator may prune
//! there (issue "prune early": consistency checks during construction).
//!
//! The analysis is an abstract interpretation of the model over three values: `Static`
//! (independent of `rf` and `co`), `Mono` (monotone in them) and `Unknown`. Union,
//! intersection, sequence, product, closures, inverse, `[.]`, domain and range preserve
//! monotonicity; `e1 \ e2` and `~e` are monotone only when what they subtract is static;
//! anything else that touches `rf`/`co` (matches and conditions on them, primitives
//! other than the set/relation algebra) is `Unknown`. Functions are analysed at each
//! application with their arguments' abstract values. A `with` over a set that depends on
//! the candidate disables pruning altogether (the runs themselves would change).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::ast::{
    BinOp, Check, CheckMode, Expr, ExprKind, FunDef, Instr, InstrKind, MatchArms, Model, Pat, Sym,
    UnOp,
};

/// Names whose value depends on the candidate's `rf` or `co` (base and derived).
const DYNAMIC: &[&str] = &[
    "rf", "co", "fr", "rfe", "rfi", "coe", "coi", "fre", "fri", "co0", "FW",
];

#[derive(Clone)]
enum Abs<'a> {
    Static,
    Mono,
    Unknown,
    Fun(Rc<(&'a FunDef, Env<'a>)>),
}

type Env<'a> = Rc<HashMap<Sym, Abs<'a>>>;

impl Abs<'_> {
    fn rank(&self) -> u8 {
        match self {
            Abs::Static | Abs::Fun(_) => 0,
            Abs::Mono => 1,
            Abs::Unknown => 2,
        }
    }
}

fn join<'a>(a: Abs<'a>, b: Abs<'a>) -> Abs<'a> {
    if a.rank() >= b.rank() {
        if a.rank() == 0 {
            Abs::Static
        } else {
            a
        }
    } else {
        b
    }
}

struct Analysis<'a> {
    model: &'a Model,
    dynamic: HashSet<Sym>,
    /// Dynamic names that are not monotone (`FW` shrinks as `co` grows): `Unknown`.
    antitone: HashSet<Sym>,
    depth: usize,
}

/// The spans (file, start) of the checks that may judge partial executions; empty when
/// pruning is unsound for the model.
pub fn prunable_checks(model: &Model) -> HashSet<(u32, u32)> {
    prunable_analysis(model).unwrap_or_default()
}

/// [`prunable_checks`], or `None` when pruning is unsound for the model.
fn prunable_analysis(model: &Model) -> Option<HashSet<(u32, u32)>> {
    let mut a = Analysis::new(model);
    let mut out = HashSet::new();
    let env: Env = Rc::new(HashMap::new());
    a.block(&model.instrs, env, &mut out).then_some(out)
}

/// The top-level `let` bindings (by span: file, start) whose value is the same for every
/// candidate execution of one skeleton: they read no name that depends on `rf` or `co`
/// (see [`DYNAMIC`]), directly or through the functions they call. Only the prefix of the
/// model before its first `with` or `if variant` counts (after a `with` the environment
/// differs per run), and only non-recursive bindings. An evaluator may compute such a
/// binding once per skeleton and reuse it for every candidate (see
/// `eval::EvalCache`): this is a performance cache, the values are the same.
pub fn static_bindings(model: &Model) -> HashSet<(u32, u32)> {
    let mut a = Analysis::new(model);
    let mut out = HashSet::new();
    let mut env: Env = Rc::new(HashMap::new());
    for ins in &model.instrs {
        match &ins.kind {
            InstrKind::Let {
                rec: false,
                bindings,
            } => {
                let mut m = (*env).clone();
                for b in bindings {
                    let v = a.expr(&b.expr, &env);
                    if matches!(v, Abs::Static) {
                        out.insert((b.span.file, b.span.start));
                    }
                    bind(&mut m, &b.pat, v);
                }
                env = Rc::new(m);
            }
            InstrKind::Let {
                rec: true,
                bindings,
            } => {
                let mut m = (*env).clone();
                for b in bindings {
                    bind(&mut m, &b.pat, Abs::Unknown);
                }
                env = Rc::new(m);
            }
            k @ (InstrKind::Enum { .. } | InstrKind::Procedure { .. }) => declare(&mut env, k),
            InstrKind::With { .. } | InstrKind::IfVariant { .. } => break,
            InstrKind::Check(_)
            | InstrKind::Call { .. }
            | InstrKind::Forall { .. }
            | InstrKind::Show
            | InstrKind::Instructions => {}
        }
    }
    out
}

/// The checks (by span: file, start) of the shape `empty E0 \ E1 \ ... \ Ek`, not
/// negated, where every `Ei` is monotone in `rf` and `co` and some subtrahend depends on
/// them (so the check is not in [`prunable_checks`]). Such a check fails on every
/// completion of a partial candidate once `E0`, computed on the partial candidate (a
/// lower bound of its value on any completion), is not covered by the subtrahends
/// computed on an *upper* bound of the candidate (`rf` with every remaining read-from
/// choice, `co` with both orders of every write not yet placed): OpenCL's `na-visible`
/// is the case in point. Only top-level checks before the first `with` or `if variant`
/// count (each is then evaluated exactly once per evaluation); `FW`, which shrinks as
/// `co` grows, is not monotone here. Empty when pruning is unsound for the model.
pub fn bounded_checks(model: &Model) -> HashSet<(u32, u32)> {
    if prunable_analysis(model).is_none() {
        return HashSet::new(); // a `with` over a candidate-dependent set
    }
    let mut a = Analysis::with_fw_antitone(model);
    let mut out = HashSet::new();
    let mut env: Env = Rc::new(HashMap::new());
    for ins in &model.instrs {
        match &ins.kind {
            InstrKind::Let { rec, bindings } => {
                let mut m = (*env).clone();
                if *rec {
                    for b in bindings {
                        bind(&mut m, &b.pat, Abs::Unknown);
                    }
                    let renv = Rc::new(m.clone());
                    for b in bindings {
                        let v = match a.expr(&b.expr, &renv) {
                            Abs::Fun(_) => Abs::Unknown,
                            v => v,
                        };
                        bind(&mut m, &b.pat, v);
                    }
                } else {
                    for b in bindings {
                        let v = a.expr(&b.expr, &env);
                        bind(&mut m, &b.pat, v);
                    }
                }
                env = Rc::new(m);
            }
            InstrKind::Check(c) => {
                let ExprKind::Op(BinOp::Diff, items) = &c.expr.kind else {
                    continue;
                };
                if c.mode != CheckMode::Check
                    || c.negated
                    || c.test != crate::ast::Test::Empty
                    || items.len() < 2
                {
                    continue;
                }
                let ranks: Vec<u8> = items.iter().map(|x| a.expr(x, &env).rank()).collect();
                if ranks.iter().all(|&r| r <= 1) && ranks[1..].contains(&1) {
                    out.insert((ins.span.file, ins.span.start));
                }
            }
            k @ (InstrKind::Enum { .. } | InstrKind::Procedure { .. }) => declare(&mut env, k),
            InstrKind::With { .. } | InstrKind::IfVariant { .. } | InstrKind::Forall { .. } => {
                break
            }
            InstrKind::Call { .. } | InstrKind::Show | InstrKind::Instructions => {}
        }
    }
    out
}

/// The top-level bindings (by span) of the shape `E0 \ E1 \ ... \ Ek` whose
/// subtrahends `E1..Ek` are monotone in `rf` and `co` (some not static) and whose minuend
/// is monotone in `rf`, `co` and such bindings: herd's `race = conflict \ (hb | hb^-1)`.
/// On a partial candidate, such a binding is bounded below on every completion by its
/// minuend's lower bound minus its subtrahends on an *upper* bound of the candidate, and
/// above by the reverse, which is how `Model::settle` decides flags like `data-race` for
/// all completions at once. The walk covers the top level through `with` over static
/// sets and stops at the first procedure, call, `forall` or `if variant`.
pub fn interval_bindings(model: &Model) -> HashSet<(u32, u32)> {
    settle_walk(model, &|_| false, None).0
}

/// For `Model::settle`: each top-level check's rank (by instruction span) on the
/// completions of a partial candidate, given which bindings are *pinned* there (a
/// binding monotone in `rf` and `co` with the same value on the partial candidate and on
/// an upper bound of it has that value on every completion, by monotonicity: the
/// sandwich argument; it counts as static). Rank 0: the check reads `rf`/`co` only
/// through pinned bindings, so it has one value on all completions; 1: its expression is
/// monotone in `rf`, `co` and the [`interval_bindings`] (so bounded by the lower- and
/// upper-bound evaluations); 2: neither. `pinned` is asked only about bindings monotone
/// but not static and not interval bindings. Checks past a `with` over a
/// candidate-dependent set, or past the walk's end, are left out (unknown).
pub fn settle_ranks(model: &Model, pinned: &dyn Fn((u32, u32)) -> bool) -> HashMap<(u32, u32), u8> {
    settle_walk(model, pinned, Some(&model.interval)).1
}

type SettleWalk = (HashSet<(u32, u32)>, HashMap<(u32, u32), u8>);

fn settle_walk(
    model: &Model,
    pinned: &dyn Fn((u32, u32)) -> bool,
    interval: Option<&HashSet<(u32, u32)>>,
) -> SettleWalk {
    let mut a = Analysis::with_fw_antitone(model);
    let mut found = HashSet::new();
    let mut ranks = HashMap::new();
    // `plain`: the monotonicity analysis (interval bindings unknown); `ext`: interval
    // bindings monotone (they are bounded by the bound evaluations).
    let mut plain: Env = Rc::new(HashMap::new());
    let mut ext: Env = Rc::new(HashMap::new());
    for ins in &model.instrs {
        match &ins.kind {
            InstrKind::Let {
                rec: false,
                bindings,
            } => {
                let (mut pm, mut em) = ((*plain).clone(), (*ext).clone());
                for b in bindings {
                    let key = (b.span.file, b.span.start);
                    let pv = a.expr(&b.expr, &plain);
                    let is_interval = match interval {
                        Some(set) => set.contains(&key),
                        None => match &b.expr.kind {
                            ExprKind::Op(BinOp::Diff, items) if items.len() >= 2 => {
                                let subs: Vec<u8> = items[1..]
                                    .iter()
                                    .map(|x| a.expr(x, &plain).rank())
                                    .collect();
                                a.expr(&items[0], &ext).rank() <= 1
                                    && subs.iter().all(|&r| r <= 1)
                                    && subs.contains(&1)
                            }
                            _ => false,
                        },
                    };
                    let (pv, xv) = if is_interval {
                        found.insert(key);
                        let xv = if pv.rank() == 0 {
                            Abs::Static
                        } else {
                            Abs::Mono
                        };
                        (pv, xv)
                    } else if pv.rank() == 1 && pinned(key) {
                        (Abs::Static, Abs::Static)
                    } else {
                        let xv = a.expr(&b.expr, &ext);
                        (pv, xv)
                    };
                    bind(&mut pm, &b.pat, pv);
                    bind(&mut em, &b.pat, xv);
                }
                plain = Rc::new(pm);
                ext = Rc::new(em);
            }
            InstrKind::Let {
                rec: true,
                bindings,
            } => {
                let (mut pm, mut em) = ((*plain).clone(), (*ext).clone());
                for b in bindings {
                    bind(&mut pm, &b.pat, Abs::Unknown);
                    bind(&mut em, &b.pat, Abs::Unknown);
                }
                plain = Rc::new(pm);
                ext = Rc::new(em);
            }
            InstrKind::Check(c) => {
                ranks.insert(
                    (ins.span.file, ins.span.start),
                    a.expr(&c.expr, &ext).rank(),
                );
            }
            InstrKind::With { var, set } => {
                if a.expr(set, &plain).rank() > 0 {
                    return (found, HashMap::new());
                }
                for env in [&mut plain, &mut ext] {
                    let mut m = (**env).clone();
                    m.insert(*var, Abs::Static);
                    *env = Rc::new(m);
                }
            }
            k @ InstrKind::Enum { .. } => {
                declare(&mut plain, k);
                declare(&mut ext, k);
            }
            InstrKind::Procedure { .. }
            | InstrKind::Call { .. }
            | InstrKind::Forall { .. }
            | InstrKind::IfVariant { .. } => break,
            InstrKind::Show | InstrKind::Instructions => {}
        }
    }
    (found, ranks)
}

impl<'a> Analysis<'a> {
    /// Every name of [`DYNAMIC`] dynamic and taken as monotone.
    fn new(model: &'a Model) -> Self {
        Analysis {
            model,
            dynamic: DYNAMIC
                .iter()
                .filter_map(|n| model.symbols.get(n))
                .collect(),
            antitone: HashSet::new(),
            depth: 0,
        }
    }

    /// As [`Analysis::new`], with `FW` (which shrinks as `co` grows) antitone.
    fn with_fw_antitone(model: &'a Model) -> Self {
        let mut a = Analysis::new(model);
        if let Some(fw) = model.symbols.get("FW") {
            a.dynamic.remove(&fw);
            a.antitone.insert(fw);
        }
        a
    }

    /// Analyses instructions; false when pruning must be disabled.
    fn block(
        &mut self,
        instrs: &'a [Instr],
        mut env: Env<'a>,
        out: &mut HashSet<(u32, u32)>,
    ) -> bool {
        for ins in instrs {
            match &ins.kind {
                InstrKind::Let { rec, bindings } => {
                    let mut m = (*env).clone();
                    if *rec {
                        // Recursive bindings: assume the worst for the names themselves.
                        for b in bindings {
                            bind(&mut m, &b.pat, Abs::Unknown);
                        }
                        let renv = Rc::new(m.clone());
                        for b in bindings {
                            let v = self.expr(&b.expr, &renv);
                            let v = if matches!(v, Abs::Fun(_)) {
                                Abs::Unknown
                            } else {
                                v
                            };
                            bind(&mut m, &b.pat, v);
                        }
                    } else {
                        for b in bindings {
                            let v = self.expr(&b.expr, &env);
                            bind(&mut m, &b.pat, v);
                        }
                    }
                    env = Rc::new(m);
                }
                InstrKind::Check(c) => {
                    if self.prunable(c, &env) {
                        out.insert((ins.span.file, ins.span.start));
                    }
                }
                InstrKind::With { var, set } => {
                    if self.expr(set, &env).rank() > 0 {
                        return false;
                    }
                    let mut m = (*env).clone();
                    m.insert(*var, Abs::Static);
                    env = Rc::new(m);
                }
                InstrKind::Enum { name, tags } => {
                    let mut m = (*env).clone();
                    m.insert(*name, Abs::Static);
                    for t in tags {
                        m.insert(*t, Abs::Static);
                    }
                    env = Rc::new(m);
                }
                // Procedures, forall bodies and variants: their checks are not pruned
                // (conservative), but nothing in them can make pruning elsewhere unsound.
                InstrKind::Procedure { .. }
                | InstrKind::Call { .. }
                | InstrKind::Forall { .. }
                | InstrKind::IfVariant { .. }
                | InstrKind::Show
                | InstrKind::Instructions => {}
            }
        }
        true
    }

    fn prunable(&mut self, c: &'a Check, env: &Env<'a>) -> bool {
        c.mode == CheckMode::Check && !c.negated && self.expr(&c.expr, env).rank() <= 1
    }

    fn expr(&mut self, e: &'a Expr, env: &Env<'a>) -> Abs<'a> {
        if self.depth > 200 {
            return Abs::Unknown;
        }
        self.depth += 1;
        let v = self.expr_inner(e, env);
        self.depth -= 1;
        v
    }

    fn expr_inner(&mut self, e: &'a Expr, env: &Env<'a>) -> Abs<'a> {
        match &e.kind {
            ExprKind::Zero | ExprKind::Universe | ExprKind::Tag(_) => Abs::Static,
            ExprKind::Var(s) => match env.get(s) {
                Some(v) => v.clone(),
                None if self.antitone.contains(s) => Abs::Unknown,
                None if self.dynamic.contains(s) => Abs::Mono,
                None => Abs::Static,
            },
            ExprKind::Tuple(items) | ExprKind::SetLit(items) => items
                .iter()
                .fold(Abs::Static, |acc, x| join(acc, self.expr(x, env))),
            ExprKind::Unary(op, x) => {
                let v = self.expr(x, env);
                match op {
                    UnOp::Complement => {
                        if v.rank() == 0 {
                            Abs::Static
                        } else {
                            Abs::Unknown
                        }
                    }
                    _ => v,
                }
            }
            ExprKind::Op(op, items) => match op {
                BinOp::Diff => {
                    let mut acc = self.expr(&items[0], env);
                    for x in &items[1..] {
                        if self.expr(x, env).rank() > 0 {
                            acc = Abs::Unknown;
                        }
                    }
                    acc
                }
                _ => items
                    .iter()
                    .fold(Abs::Static, |acc, x| join(acc, self.expr(x, env))),
            },
            ExprKind::App(f, args) => self.app(f, args, env),
            ExprKind::Fun(def) => Abs::Fun(Rc::new((def, env.clone()))),
            ExprKind::Let {
                rec,
                bindings,
                body,
            } => {
                let mut m = (**env).clone();
                for b in bindings {
                    let v = if *rec {
                        Abs::Unknown
                    } else {
                        self.expr(&b.expr, env)
                    };
                    bind(&mut m, &b.pat, v);
                }
                self.expr(body, &Rc::new(m))
            }
            ExprKind::Match { scrutinee, arms } => {
                if self.expr(scrutinee, env).rank() > 0 {
                    return Abs::Unknown;
                }
                match arms {
                    MatchArms::Tags { arms, default } => {
                        let mut acc = Abs::Static;
                        for (_, x) in arms {
                            acc = join(acc, self.expr(x, env));
                        }
                        if let Some(d) = default {
                            acc = join(acc, self.expr(d, env));
                        }
                        acc
                    }
                    MatchArms::Set {
                        empty,
                        elem,
                        rest,
                        nonempty,
                    } => {
                        let mut m = (**env).clone();
                        m.insert(*elem, Abs::Static);
                        m.insert(*rest, Abs::Static);
                        let a = self.expr(empty, env);
                        let b = self.expr(nonempty, &Rc::new(m));
                        join(a, b)
                    }
                }
            }
            ExprKind::If { cond, then, els } => {
                let c = match &**cond {
                    crate::ast::Cond::Variant(_) => Abs::Static,
                    crate::ast::Cond::Equal(a, b) => {
                        let x = self.expr(a, env);
                        join(x, self.expr(b, env))
                    }
                };
                if c.rank() > 0 {
                    return Abs::Unknown;
                }
                let a = self.expr(then, env);
                join(a, self.expr(els, env))
            }
            ExprKind::Try { body, fallback } => {
                let a = self.expr(body, env);
                join(a, self.expr(fallback, env))
            }
        }
    }

    fn app(&mut self, f: &'a Expr, args: &'a [Expr], env: &Env<'a>) -> Abs<'a> {
        let fv = self.expr(f, env);
        let avs: Vec<Abs<'a>> = args.iter().map(|a| self.expr(a, env)).collect();
        match fv {
            Abs::Fun(clo) => {
                let (def, cenv) = &*clo;
                let mut m = (**cenv).clone();
                // Curried: the first argument binds the pattern; further arguments apply
                // to the result.
                let first = avs.first().cloned().unwrap_or(Abs::Static);
                match &def.pat {
                    Pat::Var(s) => {
                        m.insert(*s, first);
                    }
                    Pat::Tuple(names) => {
                        // A tuple argument: each name gets the tuple's worst component.
                        let comps: Vec<Abs<'a>> = match args.first().map(|a| &a.kind) {
                            Some(ExprKind::Tuple(items)) if items.len() == names.len() => {
                                items.iter().map(|x| self.expr(x, env)).collect()
                            }
                            _ => vec![first; names.len()],
                        };
                        for (n, v) in names.iter().zip(comps) {
                            m.insert(*n, v);
                        }
                    }
                }
                let r = self.expr(&def.body, &Rc::new(m));
                if avs.len() > 1 {
                    match r {
                        Abs::Fun(_) => Abs::Unknown,
                        other => other,
                    }
                } else {
                    r
                }
            }
            // Primitives (domain, range, fencerel, ...) and unknown functions: static
            // arguments give a static result; domain/range of a monotone relation are
            // monotone, anything else is unknown.
            _ => {
                let worst = avs.iter().fold(Abs::Static, |acc, x| join(acc, x.clone()));
                if worst.rank() == 0 {
                    return Abs::Static;
                }
                let name = match &f.kind {
                    ExprKind::Var(s) => self.model.sym(*s),
                    _ => "",
                };
                match name {
                    "domain" | "range" if worst.rank() == 1 => Abs::Mono,
                    _ => Abs::Unknown,
                }
            }
        }
    }
}

/// The names an `enum` (static tags) or a `procedure` (unknown) declares, added to `env`.
fn declare(env: &mut Env<'_>, kind: &InstrKind) {
    let mut m = (**env).clone();
    match kind {
        InstrKind::Enum { name, tags } => {
            m.insert(*name, Abs::Static);
            for t in tags {
                m.insert(*t, Abs::Static);
            }
        }
        InstrKind::Procedure { name, .. } => {
            m.insert(*name, Abs::Unknown);
        }
        _ => return,
    }
    *env = Rc::new(m);
}

fn bind<'a>(m: &mut HashMap<Sym, Abs<'a>>, pat: &Pat, v: Abs<'a>) {
    match pat {
        Pat::Var(s) => {
            m.insert(*s, v);
        }
        Pat::Tuple(names) => {
            for n in names {
                m.insert(*n, v.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of the checks of `src` whose spans `select` returns.
    fn check_names(src: &str, select: fn(&Model) -> HashSet<(u32, u32)>) -> Vec<String> {
        let m = Model::parse("t.cat", src).unwrap();
        let spans = select(&m);
        let mut out = Vec::new();
        for i in &m.instrs {
            if let InstrKind::Check(c) = &i.kind {
                if spans.contains(&(i.span.file, i.span.start)) {
                    out.push(c.name.clone().unwrap_or_default());
                }
            }
        }
        out
    }

    #[test]
    fn interval_bindings_and_settle_ranks() {
        let src = "let hb = (po | rf)+\nlet race = (W * R) \\ hb\n\
                   let dr = race & (NA * _)\nflag ~empty dr as f\n\
                   acyclic hb as h\nlet odd = ~hb\nempty odd as o\n";
        let m = Model::parse("t.cat", src).unwrap();
        let names = |ranks: &HashMap<(u32, u32), u8>, want: u8| {
            let mut out = Vec::new();
            for i in &m.instrs {
                if let InstrKind::Check(c) = &i.kind {
                    if ranks.get(&(i.span.file, i.span.start)) == Some(&want) {
                        out.push(c.name.clone().unwrap_or_default());
                    }
                }
            }
            out
        };
        assert_eq!(m.interval.len(), 1); // race
                                         // Nothing pinned: the flag is bounded (rank 1), `hb` monotone, `odd` unknown.
        let r = settle_ranks(&m, &|_| false);
        assert_eq!(names(&r, 1), vec!["f", "h"]);
        assert_eq!(names(&r, 2), vec!["o"]);
        // `hb` pinned: all three are the same on every completion.
        let r = settle_ranks(&m, &|_| true);
        assert_eq!(names(&r, 0), vec!["f", "h", "o"]);
    }

    #[test]
    fn monotone_checks_are_prunable() {
        let src = "let com = rf | co | fr\nacyclic po | com as sc\n\
                   let hb = (po | rf)+\nirreflexive hb ; com as coh\n\
                   empty (rf ; [R]) \\ hb as vis\nflag ~empty rf as f\n\
                   let f(x) = x ; po\nacyclic f(rf) as fun\n\
                   acyclic ~rf as neg\n";
        assert_eq!(check_names(src, prunable_checks), vec!["sc", "coh", "fun"]);
    }

    fn static_names(src: &str) -> Vec<String> {
        let m = Model::parse("t.cat", src).unwrap();
        let spans = static_bindings(&m);
        let mut out = Vec::new();
        for i in &m.instrs {
            if let InstrKind::Let { bindings, .. } = &i.kind {
                for b in bindings {
                    if let Pat::Var(s) = b.pat {
                        if spans.contains(&(b.span.file, b.span.start)) {
                            out.push(m.sym(s).to_string());
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn static_bindings_read_nothing_of_rf_or_co() {
        let src = "let a = po | loc\nlet f(x) = x ; po\nlet b = f(a)\nlet c = f(rf)\n\
                   let d = a | fr\nlet co = co & a\nlet e = co | a\n\
                   let rec g = g | a\nlet h = g\nlet k = [W] ; a\n\
                   with s from linearisations(W, po)\nlet late = po\n";
        assert_eq!(static_names(src), vec!["a", "b", "k"]);
    }

    #[test]
    fn differences_of_monotone_relations_are_bounded_checks() {
        let src = "let hb = (po | rf)+\nempty (rf ; [R]) \\ hb as vis\n\
                   empty (rf ; [R]) \\ po as stat\nempty rf \\ (co ; FW * FW) as fw\n\
                   empty ~rf \\ hb as neg\nflag ~empty rf \\ hb as f\n\
                   acyclic rf \\ hb as acy\nempty rf \\ hb \\ co as two\n\
                   with x from linearisations(W, po)\nempty rf \\ hb as late\n";
        assert_eq!(check_names(src, bounded_checks), vec!["vis", "two"]);
    }

    #[test]
    fn dynamic_with_disables_pruning() {
        let src = "acyclic po | rf as a\nwith x from domain(rf)\nacyclic x as b\n";
        assert!(check_names(src, prunable_checks).is_empty());
        let src = "with s from linearisations(W, po)\nacyclic s | rf as b\n";
        assert_eq!(check_names(src, prunable_checks), vec!["b"]);
    }
}
