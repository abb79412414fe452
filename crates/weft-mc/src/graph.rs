//! Execution graphs of the exploration (paper 004 §4, after TruSt): per-thread event
//! sequences in program order, a reads-from source per read, a coherence order per cell,
//! and the total order in which events were added (stamps), which the revisit condition
//! reads. A graph holds only what one execution needs, so memory is linear in the program.

use std::sync::Arc;

use weft_exec::event::{EventKind, TraceEvent};
use weft_ir::Span;

/// An event of a thread: (thread, index in the thread).
pub type EvId = (u32, u32);

/// Where a read takes its value from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Src {
    /// The initial write of the cell.
    Init,
    Ev(EvId),
}

/// One event of the graph.
#[derive(Clone, Debug)]
pub struct Node {
    pub ev: Arc<TraceEvent>,
    /// Dense cell id ([`crate::step::cells`] order), `u32::MAX` when none.
    pub cell: u32,
    /// Position in the order of addition.
    pub stamp: u32,
    /// A read's source.
    pub rf: Option<Src>,
    /// The value read or written.
    pub value: i64,
    /// A read that got its source by a backward revisit (it keeps its place in the order
    /// of addition, before its source).
    pub revisited: bool,
    /// An awaiting read ([`crate::step::Action::Await`]): the values it may read. It is
    /// only ever added reading a write of such a value, so it is maximal when it reads the
    /// coherence-latest write *of such a value*, and no write of another value revisits it.
    pub range: Option<(i64, i64)>,
    /// Row of this event's happens-before view in [`Graph::hb`] (`u32::MAX`: none yet),
    /// filled by the native check ([`crate::native::check_incremental`]).
    pub hb: u32,
}

impl Node {
    pub fn is_read(&self) -> bool {
        self.ev.kind == EventKind::Read
    }
    pub fn is_write(&self) -> bool {
        self.ev.kind == EventKind::Write
    }
}

/// How far a thread got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Running,
    Done,
    AssertFailed(Span),
    Blocked,
    Cut,
    Fault(String),
}

/// A thread's events, shared between a graph and its copies until one of them changes
/// them (copy on write: `DerefMut` copies a shared list first), so copying a graph for a
/// child copies only the thread the child extends.
#[derive(Clone, Debug, Default)]
pub struct Nodes(Arc<Vec<Node>>);

impl Nodes {
    pub fn new(v: Vec<Node>) -> Nodes {
        Nodes(Arc::new(v))
    }
}

impl std::ops::Deref for Nodes {
    type Target = Vec<Node>;
    fn deref(&self) -> &Vec<Node> {
        &self.0
    }
}

impl std::ops::DerefMut for Nodes {
    fn deref_mut(&mut self) -> &mut Vec<Node> {
        Arc::make_mut(&mut self.0)
    }
}

impl<'a> IntoIterator for &'a Nodes {
    type Item = &'a Node;
    type IntoIter = std::slice::Iter<'a, Node>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a mut Nodes {
    type Item = &'a mut Node;
    type IntoIter = std::slice::IterMut<'a, Node>;
    fn into_iter(self) -> Self::IntoIter {
        Arc::make_mut(&mut self.0).iter_mut()
    }
}

#[derive(Clone, Debug)]
pub struct ThreadG<S> {
    pub nodes: Nodes,
    /// The stepper's state after the last node (fed, for a read).
    pub state: S,
    pub status: Status,
}

/// An execution graph (complete or not).
#[derive(Clone, Debug)]
pub struct Graph<S> {
    pub th: Vec<ThreadG<S>>,
    /// Per cell: its non-initial writes in coherence order (the initial write is first).
    pub co: Vec<Vec<EvId>>,
    pub next_stamp: u32,
    /// Happens-before views of the events checked so far, as the native check computed
    /// them (rows of one count per thread; a node's [`Node::hb`] names its row). An event
    /// added at the end of a thread has no hb-successor, so the views of a consistent graph
    /// stay valid in its children; a revisit calls [`Graph::forget_views`].
    pub hb: HbCache,
}

/// The views cached in a graph (see [`Graph::hb`]).
#[derive(Clone, Debug, Default)]
pub struct HbCache {
    /// One row of `threads` counts per event with a view.
    pub rows: Vec<u32>,
    /// Whether a checked event is an SC fence (the incremental check then recomputes
    /// `psc` over the whole graph).
    pub sc_fence: bool,
}

impl<S> Graph<S> {
    pub fn node(&self, e: EvId) -> &Node {
        &self.th[e.0 as usize].nodes[e.1 as usize]
    }

    pub fn node_mut(&mut self, e: EvId) -> &mut Node {
        &mut self.th[e.0 as usize].nodes[e.1 as usize]
    }

    /// Drops the cached views (after a change that is not an event added at the end of a
    /// thread, e.g. a revisit changing a read's source).
    pub fn forget_views(&mut self) {
        self.hb = HbCache::default();
        for th in &mut self.th {
            for n in &mut th.nodes {
                n.hb = u32::MAX;
            }
        }
    }

    pub fn events(&self) -> usize {
        self.th.iter().map(|t| t.nodes.len()).sum()
    }

    /// The value a source provides (`init` gives the initial value of each cell).
    pub fn src_value(&self, s: Src, cell: u32, init: &[i64]) -> i64 {
        match s {
            Src::Init => init[cell as usize],
            Src::Ev(e) => self.node(e).value,
        }
    }

    /// Position of a write in its cell's coherence order (0 = the initial write).
    pub fn co_pos(&self, cell: u32, s: Src) -> usize {
        match s {
            Src::Init => 0,
            Src::Ev(e) => self.co[cell as usize]
                .iter()
                .position(|x| *x == e)
                .map(|i| i + 1)
                .unwrap_or(usize::MAX),
        }
    }

    /// The (po ∪ rf)-prefix of `e` (including `e`), as the number of leading events of
    /// each thread it contains: prefixes are closed under program order.
    pub fn porf_prefix(&self, e: EvId) -> Vec<u32> {
        let mut cnt = vec![0u32; self.th.len()];
        let mut work = vec![e];
        while let Some((t, i)) = work.pop() {
            let have = cnt[t as usize];
            if have > i {
                continue;
            }
            cnt[t as usize] = i + 1;
            for k in have..=i {
                if let Some(Src::Ev(s)) = self.th[t as usize].nodes[k as usize].rf {
                    if cnt[s.0 as usize] <= s.1 {
                        work.push(s);
                    }
                }
            }
        }
        cnt
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_exec::event::Cell;
    use weft_ir::MemAttrs;

    fn ev(kind: EventKind) -> Arc<TraceEvent> {
        Arc::new(TraceEvent {
            kind,
            cell: Some(Cell {
                loc: weft_ir::LocId(0),
                index: 0,
            }),
            via: None,
            value: 0,
            attrs: MemAttrs::default(),
            rmw: false,
            addr_deps: vec![],
            data_deps: vec![],
            ctrl_deps: vec![],
            span: Span::default(),
            symbolic: false,
            step: 0,
            unseq: None,
        })
    }

    fn node(kind: EventKind, stamp: u32, rf: Option<Src>) -> Node {
        Node {
            ev: ev(kind),
            cell: 0,
            stamp,
            rf,
            value: 0,
            revisited: false,
            range: None,
            hb: u32::MAX,
        }
    }

    #[test]
    fn porf_prefix_follows_program_order_and_reads_from() {
        // T0: W ; R(from T1#0).  T1: W ; W.  T2: R(init).
        let th = |nodes| ThreadG {
            nodes: Nodes::new(nodes),
            state: (),
            status: Status::Running,
        };
        let g = Graph {
            th: vec![
                th(vec![
                    node(EventKind::Write, 0, None),
                    node(EventKind::Read, 3, Some(Src::Ev((1, 0)))),
                ]),
                th(vec![
                    node(EventKind::Write, 1, None),
                    node(EventKind::Write, 2, None),
                ]),
                th(vec![node(EventKind::Read, 4, Some(Src::Init))]),
            ],
            co: vec![vec![(0, 0), (1, 0), (1, 1)]],
            next_stamp: 5,
            hb: HbCache::default(),
        };
        assert_eq!(g.porf_prefix((0, 1)), vec![2, 1, 0]);
        assert_eq!(g.porf_prefix((1, 1)), vec![0, 2, 0]);
        assert_eq!(g.porf_prefix((2, 0)), vec![0, 0, 1]);
        assert_eq!(g.co_pos(0, Src::Ev((1, 0))), 2);
        assert_eq!(g.co_pos(0, Src::Init), 0);
    }
}
