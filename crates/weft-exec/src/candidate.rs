//! Candidate executions (paper 000 §5.1.2) as data: a [`Skeleton`] is one combination of
//! thread traces with the initial writes, `po`, `rmw` and the dependencies, and for every
//! read the writes it may read from; a [`Candidate`] adds one choice of `rf` and `co`.
//! The simulator enumerates candidates over these; the model checker builds the skeleton
//! of an explored execution to have it judged by a `.cat` model the same way.

use weft_ir::{MemAttrs, Program, Span};

use crate::event::{Cell, EventKind, Trace};
use crate::value::of_init;

/// One event of a candidate execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Thread index, `None` for the initial writes.
    pub thread: Option<usize>,
    /// Position in its thread's trace.
    pub po_index: usize,
    pub kind: EventKind,
    pub cell: Option<Cell>,
    pub via: Option<weft_ir::LocId>,
    pub value: i64,
    pub attrs: MemAttrs,
    pub rmw: bool,
    pub span: Span,
    /// A read whose value comes from the write it reads from (see `TraceEvent`).
    pub symbolic: bool,
}

impl Event {
    #[inline]
    pub fn is_read(&self) -> bool {
        self.kind == EventKind::Read
    }

    #[inline]
    pub fn is_write(&self) -> bool {
        self.kind == EventKind::Write
    }

    #[inline]
    pub fn is_init(&self) -> bool {
        self.thread.is_none()
    }
}

/// The events of one combination of thread traces, before rf and co are chosen.
#[derive(Clone, Debug)]
pub struct Skeleton<'t> {
    pub events: Vec<Event>,
    /// The trace chosen for each thread.
    pub traces: Vec<&'t Trace>,
    /// Event id of each thread's first event (thread events are contiguous, in po order).
    pub thread_start: Vec<usize>,
    pub po: Vec<(usize, usize)>,
    pub rmw: Vec<(usize, usize)>,
    pub addr: Vec<(usize, usize)>,
    pub data: Vec<(usize, usize)>,
    pub ctrl: Vec<(usize, usize)>,
    /// For each read, the writes it may read from (same cell, same value).
    pub rf_choices: Vec<(usize, Vec<usize>)>,
    /// For each cell with writes, the non-initial writes and the initial write.
    pub cells: Vec<(Cell, usize, Vec<usize>)>,
}

/// A candidate execution: a skeleton with rf and co chosen.
#[derive(Clone, Debug)]
pub struct Candidate<'s, 't> {
    pub skeleton: &'s Skeleton<'t>,
    pub rf: Vec<(usize, usize)>,
    pub co: Vec<(usize, usize)>,
    /// The last write of each cell in co order, i.e. the final memory.
    pub final_writes: Vec<usize>,
}

impl<'s, 't> Candidate<'s, 't> {
    #[inline]
    pub fn events(&self) -> &[Event] {
        &self.skeleton.events
    }

    /// The value an event reads or writes: a symbolic read's comes from its rf write
    /// (0 while the read has none).
    #[inline]
    pub fn value_of(&self, id: usize) -> i64 {
        let e = &self.skeleton.events[id];
        if e.symbolic {
            self.rf
                .iter()
                .find(|(_, r)| *r == id)
                .map(|(w, _)| self.skeleton.events[*w].value)
                .unwrap_or(0)
        } else {
            e.value
        }
    }

    /// Final value of a register of a thread.
    pub fn reg_value(&self, thread: usize, reg: usize) -> i64 {
        let Some(tr) = self.skeleton.traces.get(thread) else {
            return 0;
        };
        match tr.reg_src.get(reg).copied().flatten() {
            Some(k) => self.value_of(self.skeleton.thread_start[thread] + k),
            None => tr.regs.get(reg).copied().unwrap_or(0),
        }
    }

    /// Final value of a cell (its initial value if never written).
    pub fn final_value(&self, cell: Cell) -> Option<i64> {
        self.final_writes
            .iter()
            .map(|w| &self.skeleton.events[*w])
            .find(|e| e.cell == Some(cell))
            .map(|e| e.value)
    }
}

/// Edges of a relation over event ids.
pub type Pairs = Vec<(usize, usize)>;

impl Candidate<'_, '_> {
    /// For a partial candidate of the simulator's search (some reads without their
    /// write, some writes not yet in their cell's coherence order): `rf` and `co` pairs
    /// that contain those of every completion. Each remaining read gets every write it
    /// may read from; each write not yet placed is ordered both ways with every other
    /// write of its cell (and after the initial write); the placed writes keep their
    /// order, which insertion never changes.
    pub fn upper_bound(&self) -> (Pairs, Pairs) {
        let sk = self.skeleton;
        let mut read = vec![false; sk.events.len()];
        for &(_, r) in &self.rf {
            read[r] = true;
        }
        let mut rf = self.rf.clone();
        for (r, ws) in &sk.rf_choices {
            if !read[*r] {
                rf.extend(ws.iter().map(|&w| (w, *r)));
            }
        }
        let mut placed = vec![false; sk.events.len()];
        for &(a, b) in &self.co {
            placed[a] = true;
            placed[b] = true;
        }
        let mut co = self.co.clone();
        for (_, init, ws) in &sk.cells {
            for &u in ws.iter().filter(|&&u| !placed[u]) {
                co.push((*init, u));
                for &v in ws.iter().filter(|&&v| v != u) {
                    co.push((u, v));
                    co.push((v, u));
                }
            }
        }
        (rf, co)
    }
}

/// Builds the skeleton for one choice of traces.
pub fn skeleton<'t>(p: &Program, traces: Vec<&'t Trace>) -> Skeleton<'t> {
    let mut events = Vec::new();
    // Initial writes: one per element of every storage location.
    let mut init_of = std::collections::HashMap::new();
    for (i, l) in p.locations.iter().enumerate() {
        if l.alias.is_some() {
            continue;
        }
        for index in 0..l.size.min(64) {
            let cell = Cell {
                loc: weft_ir::LocId(i as u32),
                index,
            };
            init_of.insert(cell, events.len());
            events.push(Event {
                thread: None,
                po_index: 0,
                kind: EventKind::Write,
                cell: Some(cell),
                via: Some(cell.loc),
                value: of_init(l.init),
                attrs: MemAttrs::default(),
                rmw: false,
                span: l.span,
                symbolic: false,
            });
        }
    }
    let (mut po, mut rmw, mut addr, mut data, mut ctrl) = (vec![], vec![], vec![], vec![], vec![]);
    let mut thread_start = Vec::new();
    for (t, tr) in traces.iter().enumerate() {
        let base = events.len();
        thread_start.push(base);
        for (k, e) in tr.events.iter().enumerate() {
            let id = base + k;
            for (j, before) in tr.events[..k].iter().enumerate() {
                if e.sequenced_after(before) {
                    po.push((base + j, id));
                }
            }
            if e.rmw && e.kind == EventKind::Write && k > 0 {
                rmw.push((id - 1, id));
            }
            addr.extend(e.addr_deps.iter().map(|d| (base + d, id)));
            data.extend(e.data_deps.iter().map(|d| (base + d, id)));
            ctrl.extend(e.ctrl_deps.iter().map(|d| (base + d, id)));
            events.push(Event {
                thread: Some(t),
                po_index: k,
                kind: e.kind.clone(),
                cell: e.cell,
                via: e.via,
                value: e.value,
                attrs: e.attrs.clone(),
                rmw: e.rmw,
                span: e.span,
                symbolic: e.symbolic,
            });
        }
    }
    let mut rf_choices = Vec::new();
    for (r, e) in events.iter().enumerate() {
        if !e.is_read() {
            continue;
        }
        let ws: Vec<usize> = events
            .iter()
            .enumerate()
            .filter(|(_, w)| w.is_write() && w.cell == e.cell && (e.symbolic || w.value == e.value))
            .map(|(i, _)| i)
            .collect();
        rf_choices.push((r, ws));
    }
    let mut cells: Vec<(Cell, usize, Vec<usize>)> = init_of
        .iter()
        .map(|(c, i)| {
            let ws = events
                .iter()
                .enumerate()
                .filter(|(_, w)| w.is_write() && !w.is_init() && w.cell == Some(*c))
                .map(|(i, _)| i)
                .collect();
            (*c, *i, ws)
        })
        .collect();
    cells.sort_by_key(|c| c.0);
    Skeleton {
        events,
        traces,
        thread_start,
        po,
        rmw,
        addr,
        data,
        ctrl,
        rf_choices,
        cells,
    }
}

impl<'t> Skeleton<'t> {
    /// The skeleton with each read of `reads` (indices into `rf_choices`) *split*: one
    /// copy of the read per write it may read from (the read itself for the first, new
    /// events appended after the others for the rest), each copy with the read's
    /// attributes and every `po` and dependency edge of the read (none between two copies
    /// of one read); and the `rf` edges giving each copy its own write. Every completion
    /// of a partial candidate whose remaining steps are `reads` maps injectively into
    /// this execution (see `weft_cat::Model::settle`). `None` when a read is part of a
    /// read-modify-write (the pair would have to be split together).
    pub fn split(&self, reads: &[usize]) -> Option<(Skeleton<'t>, Pairs)> {
        let mut sk = self.clone();
        let mut rf = Vec::new();
        for &k in reads {
            let (r, ws) = &self.rf_choices[k];
            let r = *r;
            if self.events[r].rmw || self.rmw.iter().any(|&(a, b)| a == r || b == r) {
                return None;
            }
            for (i, &w) in ws.iter().enumerate() {
                let id = if i == 0 {
                    r
                } else {
                    let id = sk.events.len();
                    sk.events.push(self.events[r].clone());
                    for rel in [&mut sk.po, &mut sk.addr, &mut sk.data, &mut sk.ctrl] {
                        let copies: Pairs = rel
                            .iter()
                            .filter_map(|&(a, b)| {
                                if a == r {
                                    Some((id, b))
                                } else if b == r {
                                    Some((a, id))
                                } else {
                                    None
                                }
                            })
                            .collect();
                        rel.extend(copies);
                    }
                    id
                };
                rf.push((w, id));
            }
        }
        Some((sk, rf))
    }
}
