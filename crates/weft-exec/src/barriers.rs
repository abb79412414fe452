//! Barrier matching for one skeleton: which barrier events form one barrier instance,
//! which of them synchronise (`syncbar`), and whether the threads can get past their
//! barriers at all. This is the execution-barrier semantics the PTX and Vulkan models
//! read through `syncbar` (PTX ISA "Parallel synchronization: bar, barrier"; Vulkan
//! `OpControlBarrier`), extended with the quorum operand of Dat3M's barrier tests.
//!
//! - The *identity* of a barrier is its id plus every operand but the quorum: PTX
//!   `bar.cta.sync a` is `(a)`, `bar.cta.sync a, b` is `(a, b)`, and Dat3M's
//!   `bar.cta.sync a, b, q` is `(a, b)` with quorum `q`.
//! - Instances: in each thread the k-th barrier of an identity is generation k; the
//!   barriers of one identity, one generation and one instance of the barrier's scope
//!   (the CTA, the warp, the work-group) form one barrier instance.
//! - Without a quorum every member of an instance synchronises with every other (threads
//!   of the scope that never arrive do not block it). With a quorum `q` the first `q`
//!   arrivals open the barrier: they synchronise with each other and with every later
//!   arrival, which passes without waiting. Which arrivals come first is a choice, so an
//!   instance with more than `q` members yields one `syncbar` per choice; an instance
//!   with fewer than `q` members and a waiting barrier never opens.
//! - Vulkan control barriers synchronise at most a workgroup (compute shaders allow no
//!   wider execution scope), whatever scope the test writes.
//! - Deadlock: a thread waiting in instance A before it arrives at instance B makes B
//!   wait for A; a cycle of such waits (two threads taking two barriers in opposite
//!   orders) means no thread gets past. An execution that hangs has no final state.

use weft_ir::{BarrierKind, Program, Scope};

use crate::candidate::Event;
use crate::event::EventKind;

/// Most `syncbar` alternatives built for one skeleton (quorum choices multiply).
pub const MAX_CHOICES: usize = 4096;

/// The barrier synchronisation of one skeleton.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Matching {
    /// One `syncbar` relation per way the quorums can be met; empty when the threads
    /// hang (a quorum that cannot be met, or a deadlock).
    pub choices: Vec<Vec<(usize, usize)>>,
    /// Why the threads hang, when they do.
    pub hang: Option<String>,
}

struct Arrival {
    event: usize,
    thread: usize,
    waits: bool,
    quorum: Option<i64>,
}

/// Matches the barrier events of a skeleton (events in thread order; `po` transitive).
pub fn matching(p: &Program, events: &[Event], po: &[(usize, usize)]) -> Matching {
    // Group arrivals into instances: (identity, scope, generation, representative thread).
    let mut keys: Vec<(Vec<i64>, Scope, usize, usize)> = Vec::new();
    let mut groups: Vec<Vec<Arrival>> = Vec::new();
    let mut generation: std::collections::HashMap<(usize, Vec<i64>, Scope), usize> =
        std::collections::HashMap::new();
    let mut group_of = vec![usize::MAX; events.len()];
    for (i, e) in events.iter().enumerate() {
        let (
            Some(t),
            EventKind::Barrier {
                kind,
                scope,
                id,
                operands,
                ..
            },
        ) = (e.thread, &e.kind)
        else {
            continue;
        };
        let mut identity = vec![*id];
        identity.extend(operands.iter().take(1));
        let quorum = operands.get(1).copied();
        // Vulkan compute shaders can only synchronise execution within a workgroup
        // (OpControlBarrier's execution scope is Workgroup or Subgroup there), so a
        // wider scope still means the workgroup.
        let scope = &if p.arch == weft_ir::Arch::Vulkan {
            (*scope).min(Scope::Cta)
        } else {
            *scope
        };
        let g = generation.entry((t, identity.clone(), *scope)).or_insert(0);
        let gen = *g;
        *g += 1;
        let found = keys.iter().position(|(ident, s, kgen, rep)| {
            *ident == identity
                && s == scope
                && *kgen == gen
                && (*rep == t
                    || p.threads[*rep]
                        .placement
                        .same_instance(&p.threads[t].placement, *scope))
        });
        let gi = found.unwrap_or_else(|| {
            keys.push((identity, *scope, gen, t));
            groups.push(Vec::new());
            groups.len() - 1
        });
        group_of[i] = gi;
        groups[gi].push(Arrival {
            event: i,
            thread: t,
            waits: *kind != BarrierKind::Arrive,
            quorum,
        });
    }
    if groups.is_empty() {
        return Matching {
            choices: vec![Vec::new()],
            hang: None,
        };
    }
    // Deadlock: instance A must complete before instance B when a waiting barrier of A
    // precedes, in its thread, an arrival at B.
    let mut waits_for = vec![Vec::new(); groups.len()];
    for &(a, b) in po {
        let (ga, gb) = (group_of[a], group_of[b]);
        if ga != usize::MAX && gb != usize::MAX && ga != gb {
            let waiting = groups[ga].iter().any(|x| x.event == a && x.waits);
            if waiting {
                waits_for[gb].push(ga);
            }
        }
    }
    if let Some(g) = cycle(&waits_for) {
        let threads: Vec<String> = groups[g].iter().map(|a| format!("P{}", a.thread)).collect();
        return Matching {
            choices: Vec::new(),
            hang: Some(format!(
                "deadlock: barrier {:?} of {} waits in a cycle",
                keys[g].0,
                threads.join(",")
            )),
        };
    }
    // Per instance, the alternatives for its synchronisation edges.
    let mut per_group: Vec<Vec<Vec<(usize, usize)>>> = Vec::new();
    for (gi, g) in groups.iter().enumerate() {
        let quorum = g.iter().filter_map(|a| a.quorum).max();
        let n = g.len();
        match quorum {
            Some(q) if q > n as i64 => {
                if g.iter().any(|a| a.waits) {
                    return Matching {
                        choices: Vec::new(),
                        hang: Some(format!(
                            "barrier {:?}: quorum {q} but only {n} arrivals",
                            keys[gi].0
                        )),
                    };
                }
                per_group.push(vec![Vec::new()]);
            }
            Some(q) if q >= 1 && (q as usize) < n => {
                let mut alts = Vec::new();
                for first in subsets(n, q as usize) {
                    let mut edges = Vec::new();
                    for &a in &first {
                        for b in 0..n {
                            if a != b {
                                edges.push((g[a].event, g[b].event));
                            }
                        }
                    }
                    alts.push(edges);
                }
                per_group.push(alts);
            }
            _ => {
                let mut edges = Vec::new();
                for a in g {
                    for b in g {
                        if a.event != b.event && a.thread != b.thread {
                            edges.push((a.event, b.event));
                        }
                    }
                }
                per_group.push(vec![edges]);
            }
        }
    }
    let mut choices: Vec<Vec<(usize, usize)>> = vec![Vec::new()];
    for alts in per_group {
        let mut next = Vec::new();
        for c in &choices {
            for a in &alts {
                if next.len() >= MAX_CHOICES {
                    break;
                }
                let mut e = c.clone();
                e.extend(a.iter().copied());
                next.push(e);
            }
        }
        choices = next;
    }
    Matching {
        choices,
        hang: None,
    }
}

/// Every `k`-element subset of `0..n`, in lexicographic order.
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    go(0, n, k, &mut cur, &mut out);
    out
}

/// A node on a cycle of the graph `succ` (adjacency lists), if there is one.
fn cycle(succ: &[Vec<usize>]) -> Option<usize> {
    // 0 unvisited, 1 on the stack, 2 done.
    let mut state = vec![0u8; succ.len()];
    fn visit(v: usize, succ: &[Vec<usize>], state: &mut [u8]) -> Option<usize> {
        state[v] = 1;
        for &w in &succ[v] {
            match state[w] {
                1 => return Some(w),
                0 => {
                    if let Some(c) = visit(w, succ, state) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        state[v] = 2;
        None
    }
    (0..succ.len()).find_map(|v| {
        if state[v] == 0 {
            visit(v, succ, &mut state)
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_count() {
        assert_eq!(subsets(3, 2), vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
        assert_eq!(subsets(4, 2).len(), 6);
    }

    #[test]
    fn finds_cycles() {
        assert!(cycle(&[vec![1], vec![0]]).is_some());
        assert_eq!(cycle(&[vec![1], vec![]]), None);
    }
}
