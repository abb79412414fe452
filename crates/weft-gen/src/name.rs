//! Test names as diy7 writes them with `-num false`: a family named by the shape of the
//! threads and the communications between them (`MP`, `SB`, `IRIW`, `Z6.3`, ...), then one
//! part per thread of two or more events (`po`, `addr`, `fencesc`, `porlxrlx`,
//! `addrW-po`), collapsed to `part`+`s` when all agree and left out when all are `po`.
//! weft's GPU extension appends the qualifiers of an edge after its part, so GPU names stay
//! unique and readable (docs/gen.md, "Names").

use crate::cycle::{Cycle, Layout};
use crate::edge::{Ann, Com, Dir, DpKind, Edge, FenceName, Kind, Loc, Region};
use weft_ir::Scope;

/// The families diy7 knows, keyed by thread shapes and communications: each thread is its
/// first and last event (`W` alone for a single write) followed by the communication out
/// of it.
const FAMILIES: &[(&str, &str)] = &[
    ("MP", "WW Rf RR Fr"),
    ("SB", "WR Fr WR Fr"),
    ("LB", "RW Rf RW Rf"),
    ("S", "WW Rf RW Co"),
    ("R", "WW Co WR Fr"),
    ("2+2W", "WW Co WW Co"),
    ("3.SB", "WR Fr WR Fr WR Fr"),
    ("3.LB", "RW Rf RW Rf RW Rf"),
    ("3.2W", "WW Co WW Co WW Co"),
    ("WRC", "W Rf RW Rf RR Fr"),
    ("RWC", "W Rf RR Fr WR Fr"),
    ("WRR+2W", "W Rf RR Fr WW Co"),
    ("WRW+WR", "W Rf RW Co WR Fr"),
    ("WRW+2W", "W Rf RW Co WW Co"),
    ("WWC", "W Rf RW Rf RW Co"),
    ("W+RWC", "WW Rf RR Fr WR Fr"),
    ("ISA2", "WW Rf RW Rf RR Fr"),
    ("Z6.0", "WW Rf RW Co WR Fr"),
    ("Z6.1", "WW Co WW Rf RW Co"),
    ("Z6.2", "WW Rf RW Rf RW Co"),
    ("Z6.3", "WW Co WW Rf RR Fr"),
    ("Z6.4", "WW Co WR Fr WR Fr"),
    ("Z6.5", "WW Co WW Co WR Fr"),
    ("IRIW", "W Rf RR Fr W Rf RR Fr"),
    ("IRWIW", "W Rf RW Co W Rf RW Co"),
    ("IRRWIW", "W Rf RR Fr W Rf RW Co"),
    ("4.SB", "WR Fr WR Fr WR Fr WR Fr"),
    ("4.LB", "RW Rf RW Rf RW Rf RW Rf"),
    ("4.2W", "WW Co WW Co WW Co WW Co"),
];

/// The family key of a cycle that starts at a thread start.
pub fn family_key(c: &Cycle, lay: &Layout) -> String {
    let mut out = Vec::new();
    for t in &lay.threads {
        let first = lay.events[t[0]].dir;
        let last = lay.events[*t.last().unwrap()].dir;
        let shape = if t.len() == 1 {
            first.letter().to_string()
        } else {
            format!("{}{}", first.letter(), last.letter())
        };
        out.push(shape);
        let e = &c.edges[*t.last().unwrap()];
        out.push(
            match e.kind {
                Kind::Com { com: Com::Rf, .. } => "Rf",
                Kind::Com { com: Com::Fr, .. } => "Fr",
                _ => "Co",
            }
            .to_string(),
        );
    }
    out.join(" ")
}

/// The family of a cycle starting at a thread start, if diy7 names it.
pub fn family(c: &Cycle, lay: &Layout) -> Option<&'static str> {
    let k = family_key(c, lay);
    FAMILIES.iter().find(|(_, key)| *key == k).map(|(n, _)| *n)
}

fn ann_word(a: Option<Ann>) -> &'static str {
    match a {
        None | Some(Ann::Na) => "na",
        Some(Ann::Rlx) => "rlx",
        Some(Ann::Acq) => "acq",
        Some(Ann::Rel) => "rel",
        Some(Ann::AR) => "ar",
        Some(Ann::Sc) => "sc",
        Some(Ann::Con) => "con",
    }
}

fn is_plain(a: Option<Ann>) -> bool {
    matches!(a, None | Some(Ann::Na))
}

fn base_word(e: &Edge) -> String {
    let s = |l: Loc| if l == Loc::Same { "s" } else { "" };
    match e.kind {
        Kind::Rmw => "rmw".to_string(),
        Kind::Po(l) => format!("po{}", s(l)),
        Kind::Dp(k, l) => {
            let w = match k {
                DpKind::Addr => "addr",
                DpKind::Data => "data",
                DpKind::Ctrl => "ctrl",
            };
            format!("{w}{}", s(l))
        }
        Kind::Fence(f, l) => {
            let w = match f {
                FenceName::Sc => "fencesc",
                FenceName::Acq => "fenceacq",
                FenceName::Rel => "fencerel",
                FenceName::AR => "fencear",
                FenceName::Rlx => "fencerlx",
                FenceName::Con => "fencecon",
                FenceName::Membar => "membar",
                FenceName::Bar => "bar",
            };
            format!("{w}{}", s(l))
        }
        Kind::Com { com, .. } => match com {
            Com::Rf => "rfi",
            Com::Fr => "fri",
            Com::Co => "coi",
        }
        .to_string(),
    }
}

fn target_implied(e: &Edge) -> bool {
    e.is_com() || e.kind == Kind::Rmw
}

fn source_implied(e: &Edge) -> bool {
    e.is_com() || matches!(e.kind, Kind::Dp(..) | Kind::Rmw)
}

fn scope_word(s: Scope) -> &'static str {
    match s {
        Scope::Thread => "th",
        Scope::Warp => "wp",
        Scope::Cta => "cta",
        Scope::QueueFamily => "qf",
        Scope::Gpu => "gpu",
        Scope::System => "sys",
    }
}

/// weft's GPU suffix of an edge's part: its qualifiers after dots.
fn gpu_suffix(e: &Edge) -> String {
    let mut s = String::new();
    if let Some(sc) = e.quals.scope {
        s.push('.');
        s.push_str(scope_word(sc));
    }
    if e.quals.region == Some(Region::Shared) {
        s.push_str(".sh");
    }
    if let Some(c) = e.quals.cache {
        s.push('.');
        s.push_str(c.op().name());
    }
    if e.quals.volatile {
        s.push_str(".vol");
    }
    s
}

/// The name part of one thread (its internal edges).
fn thread_part(c: &Cycle, lay: &Layout, t: &[usize]) -> String {
    let edges: Vec<usize> = t[..t.len() - 1].to_vec();
    let mut words = Vec::new();
    for (k, &i) in edges.iter().enumerate() {
        let e = &c.edges[i];
        let mut w = base_word(e);
        let sa = lay.events[i].ann;
        let ta = lay.events[(i + 1) % c.edges.len()].ann;
        if !(is_plain(sa) && is_plain(ta)) {
            w.push_str(ann_word(sa));
            w.push_str(ann_word(ta));
        }
        if let Some(&nx) = edges.get(k + 1) {
            if !target_implied(e) && !source_implied(&c.edges[nx]) {
                w.push(match e.tgt {
                    Dir::R => 'R',
                    Dir::W => 'W',
                });
            }
        }
        w.push_str(&gpu_suffix(e));
        words.push(w);
    }
    words.join("-")
}

/// The suffix weft adds for the placement of threads and regions carried by external
/// communication edges (`+rfe.cta` ...), empty for diy7's own cycles.
fn com_suffix(c: &Cycle) -> String {
    let mut parts = Vec::new();
    for e in &c.edges {
        if e.is_ext() {
            let g = gpu_suffix(e);
            if !g.is_empty() {
                let w = match e.kind {
                    Kind::Com { com: Com::Rf, .. } => "rfe",
                    Kind::Com { com: Com::Fr, .. } => "fre",
                    _ => "coe",
                };
                parts.push(format!("{w}{g}"));
            } else {
                parts.push(String::new());
            }
        }
    }
    if parts.iter().all(|p| p.is_empty()) {
        return String::new();
    }
    if parts.windows(2).all(|w| w[0] == w[1]) {
        return format!("+{}s", parts[0]);
    }
    parts
        .into_iter()
        .map(|p| format!("+{}", if p.is_empty() { "_" } else { &p }))
        .collect()
}

/// The name of the test built from `c` in its own rotation, or `None` when the family is
/// not one diy7 names.
pub fn name_of(c: &Cycle) -> Option<String> {
    let lay = c.layout();
    let fam = family(c, &lay)?;
    Some(format!("{fam}{}", suffix(c, &lay)))
}

fn suffix(c: &Cycle, lay: &Layout) -> String {
    let parts: Vec<String> = lay
        .threads
        .iter()
        .filter(|t| t.len() > 1)
        .map(|t| thread_part(c, lay, t))
        .collect();
    let mut s = String::new();
    if !parts.is_empty() && !parts.iter().all(|p| p == "po") {
        if parts.len() > 1 && parts.windows(2).all(|w| w[0] == w[1]) {
            s = format!("+{}s", parts[0]);
        } else {
            for p in parts {
                s.push('+');
                s.push_str(&p);
            }
        }
    }
    s.push_str(&lone_suffix(lay));
    s.push_str(&com_suffix(c));
    s
}

/// The part diy7 gives the threads of one event (the lone writes of `IRIW`, `WRC`, ...):
/// when any of them carries a C order, `+` and each one's order capitalised, in thread
/// order, `Na` for a plain one (`IRIW+porlxrlxs+RlxRlx`, `IRIW+ponarlx+porlxna+NaRlx`,
/// `WRC+porlxrlxs+Sc`); nothing when all are plain.
fn lone_suffix(lay: &Layout) -> String {
    let lone: Vec<Option<Ann>> = lay
        .threads
        .iter()
        .filter(|t| t.len() == 1)
        .map(|t| lay.events[t[0]].ann)
        .collect();
    if lone.iter().all(|&a| is_plain(a)) {
        return String::new();
    }
    let mut s = String::from("+");
    for a in lone {
        s.push_str(match a {
            None | Some(Ann::Na) => "Na",
            Some(Ann::Rlx) => "Rlx",
            Some(Ann::Acq) => "Acq",
            Some(Ann::Rel) => "Rel",
            Some(Ann::AR) => "AR",
            Some(Ann::Sc) => "Sc",
            Some(Ann::Con) => "Con",
        });
    }
    s
}

/// The name diy7 gives a cycle of a family it does not name: the shapes of the threads
/// joined by `+` (`W+RR+WW+RW`: a lone write, then read-read, write-write and read-write
/// threads), then the usual parts.
fn fallback_name(c: &Cycle) -> String {
    let lay = c.layout();
    let shapes: Vec<String> = lay
        .threads
        .iter()
        .map(|t| {
            let first = lay.events[t[0]].dir.letter();
            if t.len() == 1 {
                first.to_string()
            } else {
                format!("{first}{}", lay.events[*t.last().unwrap()].dir.letter())
            }
        })
        .collect();
    format!("{}{}", shapes.join("+"), suffix(c, &lay))
}

/// The edges of a rotation in the order diy7 ranks them when choosing among rotations
/// (learnt from its outputs): `Fri`, fences, `Rfi`, `Coi`, external communications,
/// dependencies (addr, data, ctrl), program order (writes first), exchanges.
fn edge_key(c: &Cycle) -> Vec<u8> {
    use crate::edge::{Com, DpKind, Kind};
    let d = |x: Dir| (x == Dir::R) as u8;
    c.edges
        .iter()
        .map(|e| match e.kind {
            Kind::Com {
                com: Com::Fr,
                ext: false,
            } => 0,
            Kind::Fence(..) => 10,
            Kind::Com {
                com: Com::Rf,
                ext: false,
            } => 20,
            Kind::Com {
                com: Com::Co,
                ext: false,
            } => 30,
            Kind::Com { com, ext: true } => 40 + com as u8,
            Kind::Dp(k, _) => {
                50 + match k {
                    DpKind::Addr => 0,
                    DpKind::Data => 1,
                    DpKind::Ctrl => 2,
                }
            }
            Kind::Po(_) => 60 + 2 * d(e.src) + d(e.tgt),
            Kind::Rmw => 70,
        })
        .collect()
}

/// Number of events of the first thread.
fn first_len(c: &Cycle) -> usize {
    c.layout().threads.first().map_or(0, |t| t.len())
}

/// The name as diy7 orders rotations (learnt from its outputs up to size 8): dependencies
/// addr, data, ctrl (`ctrl` sorts as `dz`), and without the direction letters written
/// after a part (`ctrlR-po` sorts as `ctrl-po`, before `ctrl-rmw`).
fn order_key(n: &str) -> String {
    let b: Vec<char> = n.chars().collect();
    let mut out = String::with_capacity(n.len());
    for (i, &ch) in b.iter().enumerate() {
        let dir_letter = (ch == 'R' || ch == 'W')
            && i > 0
            && b[i - 1].is_ascii_lowercase()
            && b.get(i + 1)
                .is_none_or(|&c| c == '-' || c == '+' || c == '.');
        if !dir_letter {
            out.push(ch);
        }
    }
    out.replace("ctrl", "dz")
}

/// Chooses the rotation diy7 builds the test from and names it: among the rotations that
/// start at a thread start and belong to a named family, the one whose first thread is
/// shortest, then the least name in diy7's order ([`order_key`]).
pub fn normalise(c: &Cycle) -> (Cycle, String) {
    // (thread sizes, name with ctrl sorted after data, name), rotation
    type Best = ((usize, Vec<u8>, String, String), Cycle);
    let mut best: Option<Best> = None;
    for r in c.thread_rotations() {
        if let Some(n) = name_of(&r) {
            let k = (first_len(&r), edge_key(&r), order_key(&n), n);
            if best.as_ref().is_none_or(|(b, _)| k < *b) {
                best = Some((k, r));
            }
        }
    }
    match best {
        Some(((_, _, _, n), r)) => (r, n),
        None => {
            let mut best: Option<Best> = None;
            for r in c.thread_rotations() {
                let n = fallback_name(&r);
                // Thread shapes order writes first (`WW+RR+...` before `RR+WW+...`).
                let swapped: String = n
                    .chars()
                    .map(|c| match c {
                        'W' => 'R',
                        'R' => 'W',
                        c => c,
                    })
                    .collect();
                let k = (first_len(&r), Vec::new(), order_key(&swapped), n);
                if best.as_ref().is_none_or(|(b, _)| k < *b) {
                    best = Some((k, r));
                }
            }
            match best {
                Some(((_, _, _, n), r)) => (r, n),
                None => (c.clone(), fallback_name(c)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nm(s: &str) -> String {
        normalise(&Cycle::parse(s).unwrap()).1
    }

    #[test]
    fn classic_names() {
        assert_eq!(nm("PodWR Fre PodWR Fre"), "SB");
        assert_eq!(nm("Fre PodWR Fre PodWR"), "SB");
        assert_eq!(nm("PodWW Rfe PodRR Fre"), "MP");
        assert_eq!(
            nm("PodWRRlxRlx FreRlxRlx PodWRRlxRlx FreRlxRlx"),
            "SB+porlxrlxs"
        );
        assert_eq!(nm("Rfe PodRR Fre Rfe DpCtrldR Fre"), "IRIW+ctrl+po");
        // diy7 names the orders of one-event threads (diyone7 -arch C -norm -num false).
        assert_eq!(
            nm("RfeRlxRlx PodRRRlxRlx FreRlxRlx RfeRlxRlx PodRRRlxRlx FreRlxRlx"),
            "IRIW+porlxrlxs+RlxRlx"
        );
        assert_eq!(
            nm("Rfe PodRRNaRlx FreRlxRlx RfeRlxRlx PodRRRlxNa Fre"),
            "IRIW+ponarlx+porlxna+NaRlx"
        );
        assert_eq!(
            nm("RfeScRlx PodRWRlxRlx RfeRlxRlx PodRRRlxRlx FreRlxSc"),
            "WRC+porlxrlxs+Sc"
        );
        assert_eq!(
            nm("DpAddrdW Rfe DpAddrdW PodWR DpAddrdW Rfe"),
            "LB+addr+addrW-po-addr"
        );
    }
}
