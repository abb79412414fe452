//! Shared helpers for the integration tests: a small builder of candidate executions
//! (litmus-style: locations with initial writes, threads of events in program order, rf
//! and co edges) and the models under `tests/models`.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use weft_cat::{EvalOptions, Evaluation, Event, ExecutionBase, FsResolver, Model};

/// The directory of the test models.
pub fn models_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/models")
}

/// Loads `tests/models/<name>`, panicking with a rendered error.
pub fn model(name: &str) -> Model {
    let path = models_dir().join(name);
    Model::load(&path, &[]).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// Parses a model from text (includes resolved in `tests/models`).
pub fn model_text(text: &str) -> Model {
    let mut r = FsResolver {
        search_path: vec![models_dir()],
    };
    Model::parse_with("inline.cat", text, &mut r).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// Evaluates with default options, panicking with a rendered error.
pub fn eval(m: &Model, x: &ExecutionBase) -> Evaluation {
    m.evaluate(x, &EvalOptions::default())
        .unwrap_or_else(|e| panic!("{}", e.render()))
}

/// Builds an execution: one initial write per location, threads in program order.
#[derive(Default)]
pub struct Builder {
    pub x: ExecutionBase,
    locs: BTreeMap<String, (usize, usize)>, // name -> (location id, initial write)
    threads: BTreeMap<usize, Vec<usize>>,
}

impl Builder {
    pub fn new() -> Self {
        Self::default()
    }

    /// The initial write of a location (declaring it on first use).
    pub fn init(&mut self, loc: &str) -> usize {
        self.loc(loc).1
    }

    fn loc(&mut self, name: &str) -> (usize, usize) {
        if let Some(&l) = self.locs.get(name) {
            return l;
        }
        let id = self.locs.len();
        let iw = self.x.add_event(Event::init_write(id));
        self.locs.insert(name.to_string(), (id, iw));
        (id, iw)
    }

    fn push(&mut self, t: usize, mut e: Event, tags: &[&str]) -> usize {
        for tag in tags {
            e = e.tag(tag);
        }
        let id = self.x.add_event(e);
        self.threads.entry(t).or_default().push(id);
        id
    }

    pub fn w(&mut self, t: usize, loc: &str, tags: &[&str]) -> usize {
        let (l, _) = self.loc(loc);
        self.push(t, Event::write(t, l), tags)
    }

    pub fn r(&mut self, t: usize, loc: &str, tags: &[&str]) -> usize {
        let (l, _) = self.loc(loc);
        self.push(t, Event::read(t, l), tags)
    }

    pub fn f(&mut self, t: usize, tags: &[&str]) -> usize {
        self.push(t, Event::fence(t), tags)
    }

    pub fn rf(&mut self, w: usize, r: usize) {
        self.x.add_edge("rf", w, r);
    }

    /// The coherence order of one location: its initial write, then `writes` in order.
    pub fn co(&mut self, loc: &str, writes: &[usize]) {
        let iw = self.init(loc);
        let mut order = vec![iw];
        order.extend_from_slice(writes);
        self.x.add_total_order("co", &order);
    }

    pub fn edge(&mut self, rel: &str, a: usize, b: usize) {
        self.x.add_edge(rel, a, b);
    }

    /// Adds `po` (a strict total order per thread) and returns the execution.
    pub fn finish(mut self) -> ExecutionBase {
        for events in self.threads.values() {
            self.x.add_total_order("po", events);
        }
        for tag in ["RLX", "ACQ", "REL", "ACQ_REL", "SC", "NA"] {
            self.x.declare_set(tag);
        }
        self.x
    }
}

/// The events of each thread, for scope relations.
pub fn thread_events(x: &ExecutionBase, t: usize) -> Vec<usize> {
    (0..x.events.len())
        .filter(|&e| x.events[e].thread == Some(t))
        .collect()
}
