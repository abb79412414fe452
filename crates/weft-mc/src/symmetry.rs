//! Thread symmetry of litmus programs (issue 28 item 7): threads that are the same code up
//! to the constants they store are interchangeable, so the model checker builds one
//! execution per orbit and expands each final state over the symmetry group.
//!
//! [`Symmetry::of`] accepts only programs where renaming is provably an automorphism:
//! every thread is straight-line code of loads and stores (no guards, branches, local
//! computation, assertions, RMWs, fences or barriers), every store writes a constant, no
//! loaded register is used again (so a value read flows only to the final state), and a
//! class's threads have the same code, registers, parameters and placement, their first
//! memory access a store. Each class member's stored constants are distinct from each
//! other, from the other members', from every other constant of the program (other
//! threads' stores, initial values) and from addresses. Swapping two members and their
//! constants position by position then maps executions to executions and final states to
//! final states (registers moved to the other thread, constants renamed).
//!
//! Representative: in every execution the first writes of a class's members (all to one
//! cell) are totally ordered by coherence; the representative of an orbit has them in
//! ascending thread order. Exactly one member of each orbit has that order, and no
//! permutation but the identity fixes an execution, so each representative stands for
//! |G| executions. The explorer adds the class members' leading stores before any read
//! (they can then never be deleted by a revisit, and their coherence order never changes)
//! and keeps only the placements of a member's first write after its predecessor's
//! (`explore`), so pruning loses no representative.

use std::collections::HashMap;

use weft_exec::value::decode_addr;
use weft_ir::{Expr, Program, Reg, Stmt, StmtKind, Term};

/// Largest symmetry group expanded (8! permutations).
const MAX_GROUP: u64 = 40_320;

/// The interchangeable threads of a program and the group they generate.
#[derive(Clone, Debug)]
pub struct Symmetry {
    /// Classes of interchangeable threads (ascending ids, two or more each).
    pub classes: Vec<Vec<usize>>,
    /// Per thread: the previous member of its class (its first write must be
    /// coherence-after that member's in a representative).
    pub pred: Vec<Option<usize>>,
    /// Per thread: whether it belongs to a class.
    pub member: Vec<bool>,
    /// Per group element: the destination column of each column, and the value renaming.
    perms: Vec<Perm>,
}

/// One element of the group.
#[derive(Clone, Debug)]
struct Perm {
    /// Thread → its image.
    threads: Vec<usize>,
    /// Column → the column its value moves to.
    dst: Vec<usize>,
    /// Stored constant → its image (other values are fixed).
    ren: HashMap<i64, i64>,
}

/// The thread's code as a shape (spans dropped, stored constants zeroed) and its stored
/// constants, or `None` when the thread is not straight-line loads and constant stores.
fn shape(t: &weft_ir::Thread) -> Option<(Vec<StmtKind>, Vec<i64>)> {
    let mut kinds = Vec::new();
    let mut consts = Vec::new();
    let mut loaded: Vec<Reg> = Vec::new();
    let mut used: Vec<Reg> = Vec::new();
    for s in &t.code {
        let Stmt {
            kind, guard, unseq, ..
        } = s;
        if guard.is_some() || unseq.is_some() {
            return None;
        }
        match kind {
            StmtKind::Load(l) => {
                l.addr.regs(&mut used);
                loaded.push(l.dst);
                kinds.push(kind.clone());
            }
            StmtKind::Store(st) => {
                st.addr.regs(&mut used);
                let Expr::Int(v) = st.value else {
                    return None;
                };
                consts.push(v);
                let mut k = st.clone();
                k.value = Expr::Int(0);
                kinds.push(StmtKind::Store(k));
            }
            _ => return None,
        }
    }
    if loaded.iter().any(|r| used.contains(r)) {
        return None;
    }
    Some((kinds, consts))
}

fn factorial(k: usize) -> u64 {
    (1..=k as u64).product()
}

/// Every permutation of `0..k`, in lexicographic order.
fn permutations(k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut v: Vec<usize> = (0..k).collect();
    fn rec(v: &mut Vec<usize>, i: usize, out: &mut Vec<Vec<usize>>) {
        if i == v.len() {
            out.push(v.clone());
            return;
        }
        for j in i..v.len() {
            v.swap(i, j);
            rec(v, i + 1, out);
            v.swap(i, j);
        }
    }
    rec(&mut v, 0, &mut out);
    out
}

impl Symmetry {
    /// The symmetry of `p` whose final states have columns `cols`, or `None` when no two
    /// threads are interchangeable under the rules above.
    pub fn of(p: &Program, cols: &[Term]) -> Option<Symmetry> {
        if p.filter.is_some() || !p.relations.is_empty() || p.threads.len() < 2 {
            return None;
        }
        let shapes: Vec<(Vec<StmtKind>, Vec<i64>)> =
            p.threads.iter().map(shape).collect::<Option<_>>()?;
        let n = p.threads.len();
        // Group threads with the same shape, registers, parameters and placement.
        let mut class_of: Vec<Option<usize>> = vec![None; n];
        let mut classes: Vec<Vec<usize>> = Vec::new();
        for t in 0..n {
            if class_of[t].is_some() {
                continue;
            }
            let mut c = vec![t];
            for u in t + 1..n {
                let (a, b) = (&p.threads[t], &p.threads[u]);
                if class_of[u].is_none()
                    && shapes[t].0 == shapes[u].0
                    && a.regs == b.regs
                    && a.params == b.params
                    && a.placement == b.placement
                {
                    c.push(u);
                }
            }
            if c.len() < 2 {
                continue;
            }
            for &u in &c {
                class_of[u] = Some(classes.len());
            }
            classes.push(c);
        }
        // A class's first access must be a store (its first write is the one ordered).
        classes.retain(|c| matches!(shapes[c[0]].0.first(), Some(StmtKind::Store(_))));
        if classes.is_empty() {
            return None;
        }
        let member: Vec<bool> = (0..n)
            .map(|t| classes.iter().any(|c| c.contains(&t)))
            .collect();
        // Constants: distinct within and across members, and from everything else.
        let mut others: Vec<i64> = Vec::new();
        for (t, (_, consts)) in shapes.iter().enumerate() {
            if !member[t] {
                others.extend(consts);
            }
        }
        for l in &p.locations {
            others.push(weft_exec::value::of_init(l.init));
        }
        for th in &p.threads {
            for r in &th.regs {
                if let Some(v) = r.init {
                    others.push(weft_exec::value::of_init(v));
                }
            }
        }
        let mut seen: Vec<i64> = Vec::new();
        for c in &classes {
            for &t in c {
                for &v in &shapes[t].1 {
                    if seen.contains(&v)
                        || others.contains(&v)
                        || decode_addr(v, p.locations.len()).is_some()
                    {
                        return None;
                    }
                    seen.push(v);
                }
            }
        }
        // Every register column of a member must exist for every member of its class.
        let col_of = |t: &Term| cols.iter().position(|c| c == t);
        for c in cols {
            if let Term::Reg { thread, reg } = c {
                if let Some(k) = classes.iter().find(|k| k.contains(thread)) {
                    for &u in k {
                        col_of(&Term::Reg {
                            thread: u,
                            reg: *reg,
                        })?;
                    }
                }
            }
        }
        let size: u64 = classes.iter().map(|c| factorial(c.len())).product();
        if size > MAX_GROUP {
            return None;
        }
        let mut pred = vec![None; n];
        for c in &classes {
            for w in c.windows(2) {
                pred[w[1]] = Some(w[0]);
            }
        }
        // The group: the product of each class's permutations.
        let mut perms: Vec<(Vec<usize>, HashMap<i64, i64>)> =
            vec![((0..n).collect(), HashMap::new())];
        for c in &classes {
            let mut next = Vec::new();
            for (map, ren) in &perms {
                for pi in permutations(c.len()) {
                    let mut m = map.clone();
                    let mut r = ren.clone();
                    for (a, &b) in pi.iter().enumerate() {
                        let (from, to) = (c[a], c[b]);
                        m[from] = to;
                        for (k, &v) in shapes[from].1.iter().enumerate() {
                            r.insert(v, shapes[to].1[k]);
                        }
                    }
                    next.push((m, r));
                }
            }
            perms = next;
        }
        let perms = perms
            .into_iter()
            .map(|(m, r)| {
                let dst = cols
                    .iter()
                    .enumerate()
                    .map(|(i, c)| match c {
                        Term::Reg { thread, reg } => col_of(&Term::Reg {
                            thread: m[*thread],
                            reg: *reg,
                        })
                        .expect("checked above"),
                        _ => i,
                    })
                    .collect();
                Perm {
                    threads: m,
                    dst,
                    ren: r,
                }
            })
            .collect();
        Some(Symmetry {
            classes,
            pred,
            member,
            perms,
        })
    }

    /// The number of permutations (executions each representative stands for).
    pub fn size(&self) -> u64 {
        self.perms.len() as u64
    }

    /// The images of final state `vals` under every permutation (the identity first).
    pub fn images<'a>(&'a self, vals: &'a [i64]) -> impl Iterator<Item = Vec<i64>> + 'a {
        self.perms.iter().map(move |g| {
            let mut out = vec![0; vals.len()];
            for (i, v) in vals.iter().enumerate() {
                out[g.dst[i]] = *g.ren.get(v).unwrap_or(v);
            }
            out
        })
    }

    /// The thread map of permutation `k` (thread → its image), for
    /// [`crate::kernel::WitnessGraph`]s.
    pub fn thread_map(&self, k: usize) -> &[usize] {
        &self.perms[k].threads
    }

    /// A line for the report: the classes (thread names) and the group's size.
    pub fn describe(&self, p: &Program) -> String {
        let cls: Vec<String> = self
            .classes
            .iter()
            .map(|c| {
                let names: Vec<&str> = c.iter().map(|&t| p.threads[t].name.as_str()).collect();
                format!("{{{}}}", names.join(", "))
            })
            .collect();
        format!(
            "threads {} interchangeable (stored values renamed): one execution built per orbit of {}",
            cls.join(", "),
            self.size()
        )
    }
}
