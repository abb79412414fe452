//! MC-Mutants (paper 001 §3.1): from a conformance test whose target behaviour a model
//! forbids, operators derive *mutants* whose target is allowed, so that a stress
//! configuration can be ranked by how many mutants it kills (observes).
//!
//! * **weakening sw** removes the barriers that synchronise the threads (all of them, or
//!   all but one thread's) — the target stays the weak outcome;
//! * **weakening po-loc** de-aliases a coherence test (two locations where the conformance
//!   test has one) — the target stays the weak outcome; the coherence conformance tests are
//!   built by [`alias`];
//! * **reversing po-loc** swaps the two same-location accesses of a coherence test's
//!   thread, so the target becomes an outcome sequential consistency reaches (an
//!   *interleaving*).
//!
//! Extensions (weft, not in paper 001; docs/gen.md): **weakening scope** narrows the scope
//! of every atomic access and fence from device to workgroup, and **moving a thread** to
//! another workgroup (`move_thread`).

use weft_ir::{Expr, LocId, Program, Prop, Scope, Stmt, StmtKind, Term};

/// The three operators of paper 001, and weft's extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operator {
    WeakenSw,
    WeakenPoLoc,
    ReversePoLoc,
    /// Extension: atomics and fences at workgroup instead of device scope.
    WeakenScope,
    /// Extension: one thread moved to a workgroup of its own.
    MoveThread,
}

impl Operator {
    pub fn name(self) -> &'static str {
        match self {
            Operator::WeakenSw => "weakening sw",
            Operator::WeakenPoLoc => "weakening po-loc",
            Operator::ReversePoLoc => "reversing po-loc",
            Operator::WeakenScope => "weakening scope",
            Operator::MoveThread => "moving a thread",
        }
    }
}

/// What a mutant's target behaviour is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TargetKind {
    /// A weak behaviour the model allows (not reachable under SC).
    Weak,
    /// An interleaving (reachable under SC).
    Interleaving,
}

impl TargetKind {
    pub fn name(self) -> &'static str {
        match self {
            TargetKind::Weak => "weak",
            TargetKind::Interleaving => "interleaving",
        }
    }
}

/// A mutant, paired with the conformance test it comes from.
#[derive(Clone, Debug)]
pub struct Mutant {
    /// weft's file name (`MP-barrier1`).
    pub name: String,
    /// GPUHarbor's name (`messagePassingBarrier1`).
    pub gpuharbor_name: String,
    /// The conformance test it is paired with (weft name).
    pub paired_with: String,
    pub operator: Operator,
    pub target: TargetKind,
    pub program: Program,
}

/// An operator that does not apply to a test.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MutantError(pub String);

fn has_barrier(code: &[Stmt]) -> bool {
    let mut found = false;
    weft_ir::code::walk(code, &mut |s| {
        found |= matches!(s.kind, StmtKind::Barrier(_))
    });
    found
}

fn strip_barriers(code: &mut Vec<Stmt>) {
    code.retain(|s| !matches!(s.kind, StmtKind::Barrier(_)));
    for s in code.iter_mut() {
        match &mut s.kind {
            StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                strip_barriers(then_branch);
                strip_barriers(else_branch);
            }
            StmtKind::While { prelude, body, .. } => {
                strip_barriers(prelude);
                strip_barriers(body);
            }
            _ => {}
        }
    }
}

/// Weakening sw: the test without the barriers of every thread except `keep` (`None`:
/// no barrier left). Errors when the test has no barrier to remove.
pub fn weaken_sw(p: &Program, keep: Option<usize>) -> Result<Program, MutantError> {
    let with: Vec<usize> = (0..p.threads.len())
        .filter(|&t| has_barrier(&p.threads[t].code))
        .collect();
    if with.is_empty() || (keep.is_some() && with.len() < 2) {
        return Err(MutantError(format!("{} has no barrier to remove", p.name)));
    }
    if let Some(k) = keep {
        if !with.contains(&k) {
            return Err(MutantError(format!(
                "thread {k} of {} has no barrier",
                p.name
            )));
        }
    }
    let mut q = p.clone();
    for (t, th) in q.threads.iter_mut().enumerate() {
        if Some(t) != keep {
            strip_barriers(&mut th.code);
        }
    }
    Ok(q)
}

/// The location a memory statement accesses, when its address is a constant.
fn loc_of(s: &Stmt) -> Option<LocId> {
    match &s.kind {
        StmtKind::Load(l) => l.addr.as_loc(),
        StmtKind::Store(st) => st.addr.as_loc(),
        StmtKind::Rmw(r) => r.addr.as_loc(),
        _ => None,
    }
}

/// Reversing po-loc: swaps the first two accesses to one location in the first thread
/// that has two.
pub fn reverse_poloc(p: &Program) -> Result<Program, MutantError> {
    let mut q = p.clone();
    for th in q.threads.iter_mut() {
        let mem: Vec<usize> = (0..th.code.len())
            .filter(|&i| th.code[i].kind.is_memory())
            .collect();
        for a in 0..mem.len() {
            for b in a + 1..mem.len() {
                let (i, j) = (mem[a], mem[b]);
                if loc_of(&th.code[i]).is_some() && loc_of(&th.code[i]) == loc_of(&th.code[j]) {
                    th.code.swap(i, j);
                    return Ok(q);
                }
            }
        }
    }
    Err(MutantError(format!(
        "{} has no thread accessing one location twice",
        p.name
    )))
}

fn writes_to(p: &Program, l: LocId) -> Vec<i64> {
    let mut v = Vec::new();
    for t in &p.threads {
        weft_ir::code::walk(&t.code, &mut |s| match &s.kind {
            StmtKind::Store(st) if st.addr.as_loc() == Some(l) => {
                if let Expr::Int(i) = st.value {
                    v.push(i)
                }
            }
            StmtKind::Rmw(r) if r.addr.as_loc() == Some(l) => {
                if let Some(Expr::Int(i)) = r.args.last() {
                    v.push(*i)
                }
            }
            _ => {}
        });
    }
    v
}

/// The coherence form of a test (GPUHarbor's `aliasedMemory`): location `from` becomes
/// `into`, its written values shifted above `into`'s so that every write stays distinct,
/// and the target outcome mapped accordingly (a final-value term on `from` is dropped
/// when the target already constrains `into`'s final value).
pub fn alias(p: &Program, from: &str, into: &str, name: &str) -> Result<Program, MutantError> {
    let (Some(f), Some(t)) = (p.loc_by_name(from), p.loc_by_name(into)) else {
        return Err(MutantError(format!(
            "{} has no locations {from} and {into}",
            p.name
        )));
    };
    let shift = writes_to(p, t).into_iter().max().unwrap_or(0);
    let mut q = p.clone();
    q.name = name.to_string();
    // Registers reading `from`, per thread.
    let mut reads_from: Vec<Vec<u32>> = vec![Vec::new(); q.threads.len()];
    for (ti, th) in q.threads.iter_mut().enumerate() {
        fn fix(code: &mut [Stmt], f: LocId, t: LocId, shift: i64, regs: &mut Vec<u32>) {
            for s in code {
                match &mut s.kind {
                    StmtKind::Load(l) if l.addr.as_loc() == Some(f) => {
                        l.addr = Expr::Addr(t);
                        regs.push(l.dst.0);
                    }
                    StmtKind::Store(st) if st.addr.as_loc() == Some(f) => {
                        st.addr = Expr::Addr(t);
                        if let Expr::Int(i) = &mut st.value {
                            *i += shift;
                        }
                    }
                    StmtKind::Rmw(r) if r.addr.as_loc() == Some(f) => {
                        r.addr = Expr::Addr(t);
                        if let Some(d) = r.dst {
                            regs.push(d.0);
                        }
                        if let Some(Expr::Int(i)) = r.args.last_mut() {
                            *i += shift;
                        }
                    }
                    StmtKind::If {
                        then_branch,
                        else_branch,
                        ..
                    } => {
                        fix(then_branch, f, t, shift, regs);
                        fix(else_branch, f, t, shift, regs);
                    }
                    _ => {}
                }
            }
        }
        fix(&mut th.code, f, t, shift, &mut reads_from[ti]);
        for prm in th.params.iter_mut() {
            if prm.loc == f {
                prm.loc = t;
            }
        }
    }
    if let Some(c) = &mut q.condition {
        let constrains_into = {
            let mut terms = Vec::new();
            c.prop.terms(&mut terms);
            terms
                .iter()
                .any(|x| matches!(x, Term::Mem { loc, .. } if *loc == t))
        };
        c.prop = map_prop(&c.prop, f, t, shift, &reads_from, constrains_into);
    }
    // Drop the now unused location and renumber the others.
    q.locations.remove(f.index());
    let renum = |l: LocId| -> LocId {
        if l.0 > f.0 {
            LocId(l.0 - 1)
        } else {
            l
        }
    };
    for th in q.threads.iter_mut() {
        fn walk_mut(code: &mut [Stmt], g: &dyn Fn(LocId) -> LocId) {
            for s in code {
                let fixe = |e: &mut Expr| {
                    if let Expr::Addr(l) = e {
                        *l = g(*l)
                    }
                };
                match &mut s.kind {
                    StmtKind::Load(l) => fixe(&mut l.addr),
                    StmtKind::Store(st) => fixe(&mut st.addr),
                    StmtKind::Rmw(r) => fixe(&mut r.addr),
                    StmtKind::If {
                        then_branch,
                        else_branch,
                        ..
                    } => {
                        walk_mut(then_branch, g);
                        walk_mut(else_branch, g);
                    }
                    _ => {}
                }
            }
        }
        walk_mut(&mut th.code, &renum);
        for prm in th.params.iter_mut() {
            prm.loc = renum(prm.loc);
        }
    }
    if let Some(c) = &mut q.condition {
        c.prop = relabel(&c.prop, &renum);
    }
    Ok(q)
}

fn relabel(p: &Prop, g: &dyn Fn(LocId) -> LocId) -> Prop {
    let t = |x: &Term| match x {
        Term::Mem { loc, index } => Term::Mem {
            loc: g(*loc),
            index: *index,
        },
        Term::Addr(l) => Term::Addr(g(*l)),
        o => o.clone(),
    };
    match p {
        Prop::Cmp(a, op, b) => Prop::Cmp(t(a), *op, t(b)),
        Prop::Not(a) => Prop::negate(relabel(a, g)),
        Prop::And(a, b) => Prop::and(relabel(a, g), relabel(b, g)),
        Prop::Or(a, b) => Prop::or(relabel(a, g), relabel(b, g)),
        o => o.clone(),
    }
}

fn map_prop(
    p: &Prop,
    f: LocId,
    t: LocId,
    shift: i64,
    reads_from: &[Vec<u32>],
    constrains_into: bool,
) -> Prop {
    let rec = |x: &Prop| map_prop(x, f, t, shift, reads_from, constrains_into);
    match p {
        Prop::Cmp(a, op, b) => {
            let bump = |v: &Term| match v {
                Term::Int(i) if *i != 0 => Term::Int(i + shift),
                o => o.clone(),
            };
            match (a, b) {
                (Term::Reg { thread, reg }, v) if reads_from[*thread].contains(&reg.0) => {
                    Prop::Cmp(a.clone(), *op, bump(v))
                }
                (Term::Mem { loc, index }, v) if *loc == f => {
                    if constrains_into {
                        Prop::True
                    } else {
                        Prop::Cmp(
                            Term::Mem {
                                loc: t,
                                index: *index,
                            },
                            *op,
                            bump(v),
                        )
                    }
                }
                _ => p.clone(),
            }
        }
        Prop::Not(a) => Prop::negate(rec(a)),
        Prop::And(a, b) => match (rec(a), rec(b)) {
            (Prop::True, x) | (x, Prop::True) => x,
            (x, y) => Prop::and(x, y),
        },
        Prop::Or(a, b) => Prop::or(rec(a), rec(b)),
        o => o.clone(),
    }
}

/// Extension: every atomic access, fence and barrier semantics at workgroup scope.
pub fn weaken_scope(p: &Program) -> Result<Program, MutantError> {
    let mut q = p.clone();
    let mut changed = false;
    for th in q.threads.iter_mut() {
        for s in th.code.iter_mut() {
            let attrs = match &mut s.kind {
                StmtKind::Load(l) => Some(&mut l.attrs),
                StmtKind::Store(st) => Some(&mut st.attrs),
                StmtKind::Rmw(r) => Some(&mut r.attrs),
                StmtKind::Fence(f) => Some(&mut f.attrs),
                _ => None,
            };
            if let Some(a) = attrs {
                if matches!(a.scope, Some(sc) if sc > Scope::Cta) {
                    a.scope = Some(Scope::Cta);
                    changed = true;
                }
            }
        }
    }
    if !changed {
        return Err(MutantError(format!("{} has no scope to narrow", p.name)));
    }
    Ok(q)
}

/// Extension: thread `t` moved to a workgroup of its own.
pub fn move_thread(p: &Program, t: usize) -> Result<Program, MutantError> {
    let mut q = p.clone();
    let fresh = q
        .threads
        .iter()
        .filter_map(|th| th.placement.id_at(Scope::Cta))
        .max()
        .map_or(0, |m| m + 1);
    let th = q
        .threads
        .get_mut(t)
        .ok_or_else(|| MutantError(format!("{} has no thread {t}", p.name)))?;
    let mut found = false;
    for (s, id) in th.placement.levels.iter_mut() {
        if *s == Scope::Cta {
            *id = fresh;
            found = true;
        }
    }
    if !found {
        return Err(MutantError(format!(
            "thread {t} of {} has no workgroup",
            p.name
        )));
    }
    Ok(q)
}

/// One of GPUHarbor's conformance tests, as weft names it and as GPUHarbor does.
#[derive(Clone, Debug)]
pub struct Conformance {
    pub name: String,
    pub gpuharbor_name: String,
    pub program: Program,
}

/// The coherence conformance tests of paper 001 built from the two-location tests
/// (`MP` -> `MP-CO`, messagePassingCoherency, ...): `(plain test, name, GPUHarbor name)`.
pub const COHERENCY: [(&str, &str, &str); 6] = [
    ("MP", "MP-CO", "messagePassingCoherency"),
    ("LB", "LB-CO", "loadBufferCoherency"),
    ("S", "S-CO", "storeCoherency"),
    ("R", "R-CO", "readCoherency"),
    ("SB", "SB-CO", "storeBufferCoherency"),
    ("2+2W", "2+2W-CO", "twoPlusTwoWriteCoherency"),
];

/// The barrier conformance tests and the GPUHarbor stem of their weakening-sw mutants.
pub const BARRIER: [(&str, &str); 6] = [
    ("MP-barrier", "messagePassing"),
    ("LB-barrier", "loadBuffer"),
    ("S-barrier", "store"),
    ("R-RMW-barrier", "readRMW"),
    ("SB-RMW-barrier", "storeBufferRMW"),
    ("2+2W-RMW-barrier", "twoPlusTwoWriteRMW"),
];

/// The single-location conformance tests and their reversing-po-loc mutants.
pub const COHERENCE: [(&str, &str); 8] = [
    ("CoRR", "rr"),
    ("CoRR-RMW", "rrRMW"),
    ("CoRW2", "rw"),
    ("CoRW2-RMW", "rwRMW"),
    ("CoWR", "wr"),
    ("CoWR-RMW", "wrRMW"),
    ("CoWW", "ww"),
    ("CoWW-RMW", "wwRMW"),
];

/// GPUHarbor's 32 tuning mutants from its conformance tests: `tests` maps weft names of
/// the barrier and single-location conformance tests and of the plain two-location tests
/// (`MP`, `LB`, `S`, `R`, `SB`, `2+2W`) to their programs. Returns the mutants in
/// GPUHarbor's order (18 weakening sw, 6 weakening po-loc, 8 reversing po-loc).
pub fn gpuharbor_mutants(
    tests: &dyn Fn(&str) -> Option<Program>,
) -> Result<Vec<Mutant>, MutantError> {
    let get = |n: &str| tests(n).ok_or_else(|| MutantError(format!("missing test {n}")));
    let mut out = Vec::new();
    for (conf, stem) in BARRIER {
        let p = get(conf)?;
        let base = conf.replace("-barrier", "");
        for (keep, suffix, gsuffix) in [
            (None, "", ""),
            (Some(0), "-barrier1", "Barrier1"),
            (Some(1), "-barrier2", "Barrier2"),
        ] {
            let mut q = weaken_sw(&p, keep)?;
            q.name = format!("{base}{suffix}");
            out.push(Mutant {
                name: q.name.clone(),
                gpuharbor_name: format!("{stem}{gsuffix}"),
                paired_with: conf.to_string(),
                operator: Operator::WeakenSw,
                target: TargetKind::Weak,
                program: q,
            });
        }
    }
    for (plain, conf, gname) in COHERENCY {
        let mut q = get(plain)?;
        q.name = format!("{conf}-tuning");
        out.push(Mutant {
            name: q.name.clone(),
            gpuharbor_name: format!("{gname}Tuning"),
            paired_with: conf.to_string(),
            operator: Operator::WeakenPoLoc,
            target: TargetKind::Weak,
            program: q,
        });
    }
    for (conf, gname) in COHERENCE {
        let mut q = reverse_poloc(&get(conf)?)?;
        q.name = format!("{conf}-mutant");
        out.push(Mutant {
            name: q.name.clone(),
            gpuharbor_name: format!("{gname}Mutant"),
            paired_with: conf.to_string(),
            operator: Operator::ReversePoLoc,
            target: TargetKind::Interleaving,
            program: q,
        });
    }
    Ok(out)
}

/// The coherence conformance test of a plain two-location test (`x` and `y` aliased).
pub fn coherency_test(plain: &Program, name: &str) -> Result<Program, MutantError> {
    alias(plain, "y", "x", name)
}
