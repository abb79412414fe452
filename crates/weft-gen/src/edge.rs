//! The edge language of cycles: herd's diy7 edge names (`PodWR`, `Rfe`, `Fri`, `Coe`/`Wse`,
//! `DpAddrdW`, `FenceScdWR`, with C order annotations such as `PodWRRlxRlx`) and weft's GPU
//! qualifiers appended after dots (`Rfe.cta`, `FenceScdWR.gpu`, `PodWR.shared.cg`; paper 000
//! §4: cycles annotated with scopes and memory regions). docs/gen.md lists the grammar.

use std::fmt;

use weft_ir::{CacheOp, Scope};

/// A PTX cache operator a generated access may carry (paper 000 §3.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cache {
    Ca,
    Cg,
}

impl Cache {
    pub fn op(self) -> CacheOp {
        match self {
            Cache::Ca => CacheOp::Ca,
            Cache::Cg => CacheOp::Cg,
        }
    }
}

/// Direction of an event: a read or a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    R,
    W,
}

impl Dir {
    pub fn letter(self) -> char {
        match self {
            Dir::R => 'R',
            Dir::W => 'W',
        }
    }
}

/// Same location (`s`) or different location (`d`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Loc {
    Same,
    Diff,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DpKind {
    Addr,
    Data,
    Ctrl,
}

impl DpKind {
    pub fn name(self) -> &'static str {
        match self {
            DpKind::Addr => "Addr",
            DpKind::Data => "Data",
            DpKind::Ctrl => "Ctrl",
        }
    }
}

/// A fence kind: diy7's C fences (`FenceSc` = `atomic_thread_fence(memory_order_seq_cst)`)
/// and, for GPU targets, PTX's legacy `membar` and the CTA/workgroup execution barrier
/// `Bar` (`bar.sync 0`, WGSL `workgroupBarrier`/`storageBarrier`) (weft extensions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FenceName {
    Sc,
    Acq,
    Rel,
    AR,
    Rlx,
    Con,
    Membar,
    Bar,
}

impl FenceName {
    pub const ALL: [FenceName; 8] = [
        FenceName::Sc,
        FenceName::Acq,
        FenceName::Rel,
        FenceName::AR,
        FenceName::Rlx,
        FenceName::Con,
        FenceName::Membar,
        FenceName::Bar,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FenceName::Sc => "Sc",
            FenceName::Acq => "Acq",
            FenceName::Rel => "Rel",
            FenceName::AR => "AR",
            FenceName::Rlx => "Rlx",
            FenceName::Con => "Con",
            FenceName::Membar => "Membar",
            FenceName::Bar => "Bar",
        }
    }
}

/// Communication relations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Com {
    Rf,
    Fr,
    Co,
}

/// C11 order annotations of diy7's C edges (`Rlx`, `Acq`, `Rel`, `Sc`, `AR`, `Con`); `Na`
/// is an explicitly plain (non-atomic) access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ann {
    Na,
    Rlx,
    Acq,
    Rel,
    AR,
    Sc,
    Con,
}

impl Ann {
    pub const ALL: [Ann; 7] = [
        Ann::Na,
        Ann::Rlx,
        Ann::Acq,
        Ann::Rel,
        Ann::AR,
        Ann::Sc,
        Ann::Con,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Ann::Na => "Na",
            Ann::Rlx => "Rlx",
            Ann::Acq => "Acq",
            Ann::Rel => "Rel",
            Ann::AR => "AR",
            Ann::Sc => "Sc",
            Ann::Con => "Con",
        }
    }
}

/// The shape of an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Program order (`Pos`/`Pod`).
    Po(Loc),
    /// Dependency from a read (`DpAddrdW`): address, data or control.
    Dp(DpKind, Loc),
    /// Program order through a fence (`FenceScdWR`).
    Fence(FenceName, Loc),
    /// Communication; `ext` when the two events are in different threads.
    Com { com: Com, ext: bool },
    /// diy7's `Rmw` (alias `Exch`): the read and the write of one atomic exchange, from the
    /// read to the write, same location, same thread.
    Rmw,
}

/// Memory region of a location (weft GPU extension).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Region {
    Global,
    Shared,
}

/// weft's GPU qualifiers of an edge (`.cta`, `.shared`, `.cg`, `.vol`, `.ar` ...).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Quals {
    /// On an external communication edge: the narrowest scope instance the two threads
    /// share (`.wp` same warp, `.cta` same CTA, `.gpu` different CTAs, `.sys` different
    /// devices). On a fence: the fence's scope. On other edges: the scope of the atomic
    /// accesses at both ends.
    pub scope: Option<Scope>,
    /// Memory region of the locations the edge's events access.
    pub region: Option<Region>,
    /// PTX cache operator of the edge's accesses (`.ca`, `.cg`).
    pub cache: Option<Cache>,
    /// `.vol`: the edge's accesses are `volatile`.
    pub volatile: bool,
}

/// One edge of a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edge {
    pub kind: Kind,
    pub src: Dir,
    pub tgt: Dir,
    pub src_ann: Option<Ann>,
    pub tgt_ann: Option<Ann>,
    pub quals: Quals,
}

/// An edge name that is not part of the language.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad edge `{text}`: {message}")]
pub struct EdgeError {
    pub text: String,
    pub message: String,
}

fn err(text: &str, message: impl Into<String>) -> EdgeError {
    EdgeError {
        text: text.to_string(),
        message: message.into(),
    }
}

fn dir(c: u8) -> Option<Dir> {
    match c {
        b'R' => Some(Dir::R),
        b'W' => Some(Dir::W),
        _ => None,
    }
}

fn loc(c: u8) -> Option<Loc> {
    match c {
        b's' => Some(Loc::Same),
        b'd' => Some(Loc::Diff),
        _ => None,
    }
}

/// Parses zero or two order annotations (`RlxRlx`, `RelAcq`, `NaRlx`).
fn anns(s: &str) -> Option<(Option<Ann>, Option<Ann>)> {
    if s.is_empty() {
        return Some((None, None));
    }
    for a in Ann::ALL {
        if let Some(rest) = s.strip_prefix(a.name()) {
            for b in Ann::ALL {
                if rest == b.name() {
                    return Some((Some(a), Some(b)));
                }
            }
        }
    }
    None
}

fn scope_word(w: &str) -> Option<Scope> {
    Some(match w {
        "wp" | "warp" | "sg" => Scope::Warp,
        "cta" | "wg" => Scope::Cta,
        "qf" => Scope::QueueFamily,
        "gpu" | "gl" | "dv" => Scope::Gpu,
        "sys" => Scope::System,
        _ => return None,
    })
}

impl Edge {
    /// Parses one edge token.
    pub fn parse(text: &str) -> Result<Edge, EdgeError> {
        let mut parts = text.split('.');
        let base = parts.next().unwrap_or("");
        let mut e = Edge::parse_base(base).map_err(|m| err(text, m))?;
        for q in parts {
            if let Some(s) = scope_word(q) {
                if e.quals.scope.replace(s).is_some() {
                    return Err(err(text, "two scope qualifiers"));
                }
            } else {
                match q {
                    "shared" => e.quals.region = Some(Region::Shared),
                    "global" => e.quals.region = Some(Region::Global),
                    "ca" => e.quals.cache = Some(Cache::Ca),
                    "cg" => e.quals.cache = Some(Cache::Cg),
                    "vol" | "volatile" => e.quals.volatile = true,
                    _ => {
                        return Err(err(
                            text,
                            format!("unknown qualifier `.{q}` (expected wp, cta, gpu, sys, sg, wg, qf, dv, shared, global, ca, cg or vol)"),
                        ))
                    }
                }
            }
        }
        Ok(e)
    }

    fn parse_base(s: &str) -> Result<Edge, String> {
        let b = s.as_bytes();
        let mk = |kind, src, tgt, rest: &str| -> Result<Edge, String> {
            let (sa, ta) = anns(rest).ok_or_else(|| {
                format!("`{rest}` is not a pair of annotations (Na, Rlx, Acq, Rel, AR, Sc, Con)")
            })?;
            Ok(Edge {
                kind,
                src,
                tgt,
                src_ann: sa,
                tgt_ann: ta,
                quals: Quals::default(),
            })
        };
        for (p, com, ext) in [
            ("Rfe", Com::Rf, true),
            ("Rfi", Com::Rf, false),
            ("Fre", Com::Fr, true),
            ("Fri", Com::Fr, false),
            ("Coe", Com::Co, true),
            ("Coi", Com::Co, false),
            ("Wse", Com::Co, true),
            ("Wsi", Com::Co, false),
        ] {
            if let Some(rest) = s.strip_prefix(p) {
                let (src, tgt) = match com {
                    Com::Rf => (Dir::W, Dir::R),
                    Com::Fr => (Dir::R, Dir::W),
                    Com::Co => (Dir::W, Dir::W),
                };
                return mk(Kind::Com { com, ext }, src, tgt, rest);
            }
        }
        for p in ["Rmw", "Exch"] {
            if let Some(rest) = s.strip_prefix(p) {
                return mk(Kind::Rmw, Dir::R, Dir::W, rest);
            }
        }
        if let Some(rest) = s.strip_prefix("Po") {
            let rb = rest.as_bytes();
            if rb.len() >= 3 {
                if let (Some(l), Some(a), Some(c)) = (loc(rb[0]), dir(rb[1]), dir(rb[2])) {
                    return mk(Kind::Po(l), a, c, &rest[3..]);
                }
            }
            return Err("expected Pos or Pod followed by two of R/W".into());
        }
        if let Some(rest) = s.strip_prefix("Dp") {
            for k in [DpKind::Addr, DpKind::Data, DpKind::Ctrl] {
                if let Some(r) = rest.strip_prefix(k.name()) {
                    let rb = r.as_bytes();
                    if rb.len() >= 2 {
                        if let (Some(l), Some(t)) = (loc(rb[0]), dir(rb[1])) {
                            if k == DpKind::Data && t == Dir::R {
                                return Err("a data dependency targets a write".into());
                            }
                            return mk(Kind::Dp(k, l), Dir::R, t, &r[2..]);
                        }
                    }
                }
            }
            return Err("expected DpAddr, DpData or DpCtrl, then s or d, then R or W".into());
        }
        if let Some(rest) = s.strip_prefix("Fence") {
            for f in FenceName::ALL {
                if matches!(f, FenceName::Membar | FenceName::Bar) {
                    continue;
                }
                if let Some(r) = rest.strip_prefix(f.name()) {
                    let rb = r.as_bytes();
                    if rb.len() >= 3 {
                        if let (Some(l), Some(a), Some(c)) = (loc(rb[0]), dir(rb[1]), dir(rb[2])) {
                            return mk(Kind::Fence(f, l), a, c, &r[3..]);
                        }
                    }
                }
            }
            return Err("expected FenceSc, FenceAcq, FenceRel, FenceAR, FenceRlx or FenceCon, then s or d, then two of R/W".into());
        }
        for (p, f) in [("Membar", FenceName::Membar), ("Bar", FenceName::Bar)] {
            if let Some(r) = s.strip_prefix(p) {
                let rb = r.as_bytes();
                if rb.len() >= 3 {
                    if let (Some(l), Some(a), Some(c)) = (loc(rb[0]), dir(rb[1]), dir(rb[2])) {
                        return mk(Kind::Fence(f, l), a, c, &r[3..]);
                    }
                }
                return Err(format!("expected {p}, then s or d, then two of R/W"));
            }
        }
        let _ = b;
        Err(
            "unknown edge (expected Po, Dp, Fence, Membar, Bar, Rf, Fr, Co, Ws, Rmw or Exch edges)"
                .into(),
        )
    }

    /// Parses a whitespace- or comma-separated list of edges.
    pub fn parse_list(text: &str) -> Result<Vec<Edge>, EdgeError> {
        text.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(Edge::parse)
            .collect()
    }

    pub fn is_com(&self) -> bool {
        matches!(self.kind, Kind::Com { .. })
    }

    pub fn is_ext(&self) -> bool {
        matches!(self.kind, Kind::Com { ext: true, .. })
    }

    /// Whether the edge moves to another location (`d` edges).
    pub fn changes_loc(&self) -> bool {
        matches!(
            self.kind,
            Kind::Po(Loc::Diff) | Kind::Dp(_, Loc::Diff) | Kind::Fence(_, Loc::Diff)
        )
    }

    /// The class used by diy7's composition rules: po, dependency, fence, communication
    /// or read-modify-write.
    pub fn class(&self) -> u8 {
        match self.kind {
            Kind::Po(_) => 0,
            Kind::Dp(..) => 1,
            Kind::Fence(..) => 2,
            Kind::Com { .. } => 3,
            Kind::Rmw => 4,
        }
    }

    /// The edge without GPU qualifiers (what diy7 would print).
    pub fn diy(&self) -> Edge {
        Edge {
            quals: Quals::default(),
            ..*self
        }
    }

    /// The edge without C annotations nor qualifiers.
    pub fn bare(&self) -> Edge {
        Edge {
            src_ann: None,
            tgt_ann: None,
            quals: Quals::default(),
            ..*self
        }
    }
}

fn scope_short(s: Scope) -> &'static str {
    match s {
        Scope::Thread => "thread",
        Scope::Warp => "wp",
        Scope::Cta => "cta",
        Scope::QueueFamily => "qf",
        Scope::Gpu => "gpu",
        Scope::System => "sys",
    }
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = |l: Loc| if l == Loc::Same { 's' } else { 'd' };
        match self.kind {
            Kind::Com { com, ext } => {
                let b = match com {
                    Com::Rf => "Rf",
                    Com::Fr => "Fr",
                    Com::Co => "Co",
                };
                write!(f, "{b}{}", if ext { 'e' } else { 'i' })?;
            }
            Kind::Rmw => write!(f, "Rmw")?,
            Kind::Po(lc) => write!(f, "Po{}{}{}", l(lc), self.src.letter(), self.tgt.letter())?,
            Kind::Dp(k, lc) => write!(f, "Dp{}{}{}", k.name(), l(lc), self.tgt.letter())?,
            Kind::Fence(n, lc) => {
                if matches!(n, FenceName::Membar | FenceName::Bar) {
                    write!(f, "{}", n.name())?;
                } else {
                    write!(f, "Fence{}", n.name())?;
                }
                write!(f, "{}{}{}", l(lc), self.src.letter(), self.tgt.letter())?;
            }
        }
        if let (Some(a), Some(b)) = (self.src_ann, self.tgt_ann) {
            write!(f, "{}{}", a.name(), b.name())?;
        }
        if let Some(s) = self.quals.scope {
            write!(f, ".{}", scope_short(s))?;
        }
        match self.quals.region {
            Some(Region::Shared) => write!(f, ".shared")?,
            Some(Region::Global) => write!(f, ".global")?,
            None => {}
        }
        if let Some(c) = self.quals.cache {
            write!(f, ".{}", c.op().name())?;
        }
        if self.quals.volatile {
            write!(f, ".vol")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_diy_edges() {
        for s in [
            "PodWR",
            "PosRR",
            "Rfe",
            "Fri",
            "Coe",
            "DpAddrdW",
            "DpCtrlsR",
            "FenceScdWR",
            "PodWRRlxRlx",
            "RfeRelAcq",
            "FreRlxRlx",
            "Rfe.cta",
            "MembardWW.gpu",
            "BardWR",
            "PodWR.shared.cg",
            "Rmw",
            "RmwAcqRel",
        ] {
            assert_eq!(Edge::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(Edge::parse("Wse").unwrap().to_string(), "Coe");
        assert_eq!(Edge::parse("Exch").unwrap().to_string(), "Rmw");
    }

    #[test]
    fn rejects_bad_edges() {
        for s in [
            "", "Pod", "PodXR", "DpDatadR", "Rfe.foo", "PodWRRlx", "Fence",
        ] {
            assert!(Edge::parse(s).is_err(), "{s}");
        }
    }
}
