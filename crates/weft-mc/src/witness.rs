//! Witness executions: an explored graph as a Graphviz digraph (threads as clusters, `po`,
//! `rf`, immediate `co`) and as the interleaving that built it (events in order of
//! addition, with source positions), which is how a user replays the execution by hand.

use weft_exec::event::EventKind;
use weft_ir::Program;

use crate::graph::{EvId, Graph, Src};

fn label<S>(p: &Program, g: &Graph<S>, e: EvId) -> String {
    let n = g.node(e);
    let what = match &n.ev.kind {
        EventKind::Read => "R",
        EventKind::Write => "W",
        EventKind::Fence { .. } => "F",
        EventKind::Barrier { .. } => "B",
    };
    let ord = if n.ev.attrs.order.is_atomic() {
        format!(".{}", n.ev.attrs.order.name())
    } else {
        String::new()
    };
    let scope =
        n.ev.attrs
            .scope
            .map(|s| format!(".{}", s.name()))
            .unwrap_or_default();
    match n.ev.cell {
        Some(c) => {
            let l = p.loc(c.loc);
            let loc = if l.size > 1 {
                format!("{}[{}]", l.name, c.index)
            } else {
                l.name.clone()
            };
            format!("{what}{ord}{scope} {loc}={}", n.value)
        }
        None => format!("{what}{ord}{scope}"),
    }
}

/// The graph as DOT.
pub fn dot<S>(p: &Program, g: &Graph<S>, _init: &[i64], index: usize) -> String {
    let mut s = format!(
        "digraph \"{}-mc-{index}\" {{\n  rankdir=TB;\n  init [label=\"init\" shape=box];\n",
        p.name.replace('"', "'")
    );
    for (t, th) in g.th.iter().enumerate() {
        let name = p.threads.get(t).map(|x| x.name.as_str()).unwrap_or("?");
        s += &format!("  subgraph cluster_{t} {{ label=\"{name}\";\n");
        for i in 0..th.nodes.len() {
            let l = label(p, g, (t as u32, i as u32)).replace('"', "'");
            s += &format!("    n{t}_{i} [label=\"{l}\" shape=box];\n");
        }
        s += "  }\n";
        for i in 1..th.nodes.len() {
            s += &format!("  n{t}_{} -> n{t}_{i} [label=\"po\"];\n", i - 1);
        }
    }
    for (t, th) in g.th.iter().enumerate() {
        for (i, n) in th.nodes.iter().enumerate() {
            match n.rf {
                Some(Src::Init) => {
                    s += &format!("  init -> n{t}_{i} [label=\"rf\" color=red];\n");
                }
                Some(Src::Ev(w)) => {
                    s += &format!("  n{}_{} -> n{t}_{i} [label=\"rf\" color=red];\n", w.0, w.1);
                }
                None => {}
            }
        }
    }
    for ws in &g.co {
        for k in 1..ws.len() {
            s += &format!(
                "  n{}_{} -> n{}_{} [label=\"co\" color=blue];\n",
                ws[k - 1].0,
                ws[k - 1].1,
                ws[k].0,
                ws[k].1
            );
        }
    }
    s += "}\n";
    s
}

/// The events in the order they were added, one per line: `P1 line 3: R.acquire x=1 (rf P0#2)`.
pub fn interleaving<S>(p: &Program, g: &Graph<S>, _init: &[i64]) -> String {
    let mut all: Vec<(u32, EvId)> = Vec::new();
    for (t, th) in g.th.iter().enumerate() {
        for (i, n) in th.nodes.iter().enumerate() {
            all.push((n.stamp, (t as u32, i as u32)));
        }
    }
    all.sort();
    let mut s = String::new();
    for (_, e) in all {
        let n = g.node(e);
        let name = p
            .threads
            .get(e.0 as usize)
            .map(|x| x.name.as_str())
            .unwrap_or("?");
        let rf = match n.rf {
            Some(Src::Init) => " (from init)".to_string(),
            Some(Src::Ev(w)) => format!(
                " (from {}#{})",
                p.threads
                    .get(w.0 as usize)
                    .map(|x| x.name.as_str())
                    .unwrap_or("?"),
                w.1
            ),
            None => String::new(),
        };
        s += &format!("{name}#{} {}: {}{rf}\n", e.1, n.ev.span, label(p, g, e));
    }
    s
}
