//! Race repair of CUDA/OpenCL kernels (paper 004 §4.1, Table 4): the repair loop over kernel
//! sources. The exploration ([`crate::kernel::check_kernel`], run by the caller's `check`,
//! which compiles the text) names every racing pair of statements by source line with each
//! side's atomicity and scope ([`KernelRace`]); [`plan`] turns them into line fixes (widen a
//! heterogeneous race's narrower scopes to the scope holding both threads; make a plain
//! access a relaxed atomic of that scope), [`crate::repair::edit_source`] rewrites the lines,
//! and the edited text is compiled and explored again until no race is left.
//!
//! A kernel made of several files (`#define X` then `#include "base.cu"`, as the benchmark
//! variants are written) is first flattened ([`flatten`]): local quoted includes are
//! expanded, so the repaired kernel is one self-contained file, and every edit is reported at
//! its original file and line.

use std::collections::BTreeMap;

use weft_ir::Scope;

use crate::kernel::{KernelRace, KernelResult};
use crate::repair::{edit_source, Edit, Fix, Lang, Outcome, RepairRound};

/// A kernel source with its local includes expanded.
#[derive(Clone, Debug)]
pub struct Flat {
    pub text: String,
    /// Per line of `text` (0-based): the file and 1-based line it came from.
    pub origin: Vec<(String, u32)>,
}

/// Most nested includes expanded.
const MAX_DEPTH: usize = 8;

/// Expands `#include "NAME"` lines whose file `read(NAME)` returns (files next to the
/// kernel); other lines, `<...>` includes and includes `read` does not find are kept.
pub fn flatten(
    file: &str,
    src: &str,
    read: &dyn Fn(&str) -> Option<String>,
) -> Result<Flat, String> {
    let mut flat = Flat {
        text: String::new(),
        origin: Vec::new(),
    };
    let mut lines = Vec::new();
    expand(file, src, read, 0, &mut lines, &mut flat.origin)?;
    flat.text = lines.join("\n");
    Ok(flat)
}

fn expand(
    file: &str,
    src: &str,
    read: &dyn Fn(&str) -> Option<String>,
    depth: usize,
    out: &mut Vec<String>,
    origin: &mut Vec<(String, u32)>,
) -> Result<(), String> {
    for (i, line) in src.split('\n').enumerate() {
        let t = line.trim_start();
        let inc = t
            .strip_prefix("#include")
            .map(str::trim)
            .and_then(|r| r.strip_prefix('"'))
            .and_then(|r| r.split_once('"'))
            .map(|(name, _)| name);
        if let Some(name) = inc {
            if let Some(body) = read(name) {
                if depth >= MAX_DEPTH {
                    return Err(format!(
                        "{file}:{}: includes nested deeper than {MAX_DEPTH}",
                        i + 1
                    ));
                }
                expand(name, &body, read, depth + 1, out, origin)?;
                continue;
            }
        }
        out.push(line.to_string());
        origin.push((file.to_string(), i as u32 + 1));
    }
    Ok(())
}

fn rank(s: Scope) -> u8 {
    match s {
        Scope::Thread => 0,
        Scope::Warp => 1,
        Scope::Cta => 2,
        Scope::QueueFamily => 3,
        Scope::Gpu => 4,
        Scope::System => 5,
    }
}

fn wider(a: Scope, b: Scope) -> Scope {
    if rank(a) >= rank(b) {
        a
    } else {
        b
    }
}

/// The line fixes that repair `races`: per side, a plain access becomes a relaxed atomic
/// with the race's scope, an atomic whose scope is narrower is widened to it. `Err` when a
/// racing access has no source line.
pub fn plan(races: &[KernelRace]) -> Result<BTreeMap<u32, Fix>, String> {
    let mut fixes: BTreeMap<u32, Fix> = BTreeMap::new();
    for r in races {
        for side in [r.a, r.b] {
            if side.line == 0 {
                return Err("a racing access has no source line (compile with line tables)".into());
            }
            let f = if !side.atomic && !side.write {
                Fix::AtomicLoad(r.need)
            } else if !side.atomic {
                Fix::Atomic(r.need)
            } else if rank(side.scope.unwrap_or(Scope::System)) < rank(r.need) {
                Fix::Widen(r.need)
            } else {
                continue;
            };
            // A load-only fix and a store fix on one line: the store fix (its rewrite also
            // covers `int v = x[i];` loads); two fixes of one kind: the wider scope.
            let merged = match (fixes.get(&side.line).copied(), f) {
                (None, f) => f,
                (Some(Fix::AtomicLoad(a)), Fix::AtomicLoad(b)) => Fix::AtomicLoad(wider(a, b)),
                (Some(Fix::Widen(a)), Fix::Widen(b)) => Fix::Widen(wider(a, b)),
                (Some(Fix::Widen(w)), Fix::AtomicLoad(a))
                | (Some(Fix::AtomicLoad(a)), Fix::Widen(w)) => Fix::AtomicLoad(wider(a, w)),
                (Some(Fix::Atomic(a) | Fix::AtomicLoad(a) | Fix::Widen(a)), Fix::Atomic(b))
                | (Some(Fix::Atomic(a)), Fix::AtomicLoad(b) | Fix::Widen(b)) => {
                    Fix::Atomic(wider(a, b))
                }
            };
            fixes.insert(side.line, merged);
        }
    }
    Ok(fixes)
}

/// One round of the kernel repair loop.
#[derive(Clone, Debug, serde::Serialize)]
pub struct KernelRound {
    /// The racing pairs (lines of the flattened source).
    pub races: Vec<KernelRace>,
    /// Per race, its sides at their original `file:line:col`.
    pub sites: Vec<(String, String)>,
    /// Edits at the original files and lines.
    pub edits: Vec<Edit>,
    /// Complete and stuck executions explored in this round.
    pub executions: u64,
}

impl RepairRound for KernelRound {
    type Race = ((u32, u32), (u32, u32), bool);
    fn race_keys(&self) -> Vec<Self::Race> {
        self.races
            .iter()
            .map(|r| ((r.a.line, r.a.col), (r.b.line, r.b.col), r.hetero))
            .collect()
    }
    fn edits(&self) -> &[Edit] {
        &self.edits
    }
}

/// The outcome of [`repair_kernel`].
pub type KernelRepaired = Outcome<KernelRound, KernelResult>;

/// Explore, repair, repeat until race-free (paper 004 §4.1) for a kernel source `flat` in
/// language `lang`. `check` compiles a text and explores it exhaustively; its `Err` on the
/// input is returned, on an edited text it ends the loop with the reason (and the text
/// before those edits). At most
/// `max_rounds` rounds of edits.
pub fn repair_kernel(
    flat: &Flat,
    lang: Lang,
    check: &mut dyn FnMut(&str) -> Result<KernelResult, String>,
    max_rounds: usize,
) -> Result<KernelRepaired, String> {
    let mut text = flat.text.clone();
    let mut rounds: Vec<KernelRound> = Vec::new();
    // The text before the last edits and its exploration.
    let mut prev: Option<(String, KernelResult)> = None;
    loop {
        let r = match check(&text) {
            Ok(r) => r,
            Err(e) => {
                let (Some((old, last)), Some(round)) = (prev.take(), rounds.last_mut()) else {
                    return Err(e);
                };
                // Its races stay counted; its edits were not made.
                let tried = std::mem::take(&mut round.edits);
                // The last edits made a kernel that does not compile: a type that cannot
                // be atomic (a float, a struct) or an access the rewriter misread.
                let lines: Vec<String> = tried.iter().map(|e| e.to_string()).collect();
                // The compiler's error lines are enough (its notes expand macros at length).
                let errs: Vec<&str> = e.lines().filter(|l| l.contains("error")).take(3).collect();
                let e = if errs.is_empty() {
                    e.clone()
                } else {
                    errs.join(" | ")
                };
                return Ok(KernelRepaired {
                    rounds,
                    text: old,
                    last,
                    race_free: false,
                    refused: Some(format!(
                        "the edited kernel does not compile or launch (a racing access whose type cannot be atomic?); edits tried: {}; {e}",
                        lines.join("; ")
                    )),
                });
            }
        };
        let stop = |why: String, rounds: Vec<KernelRound>, text: String, r: KernelResult| {
            Ok(KernelRepaired {
                rounds,
                text,
                last: r,
                race_free: false,
                refused: Some(why),
            })
        };
        if let Some(s) = &r.stopped {
            return stop(
                format!("the exploration stopped ({s:?}): race freedom is not established"),
                rounds,
                text,
                r,
            );
        }
        if r.races.is_empty() && r.vacuous() {
            return stop(
                format!(
                    "no execution was explored to its end ({} cut at --unroll): race freedom is not established",
                    r.counts.cut
                ),
                rounds,
                text,
                r,
            );
        }
        if r.races.is_empty() {
            return Ok(KernelRepaired {
                rounds,
                text,
                last: r,
                race_free: true,
                refused: None,
            });
        }
        if rounds.len() >= max_rounds {
            return stop(
                format!("still racy after {max_rounds} rounds"),
                rounds,
                text,
                r,
            );
        }
        let fixes = match plan(&r.races) {
            Ok(f) if !f.is_empty() => f,
            Ok(_) => return stop("no edit repairs the races found".into(), rounds, text, r),
            Err(e) => return stop(e, rounds, text, r),
        };
        let (new, mut edits) = match edit_source("kernel", &text, lang, &fixes) {
            Ok(x) => x,
            Err(e) => {
                // `kernel:LINE: why` -> the original file and line.
                let why = match e.strip_prefix("kernel:").and_then(|x| x.split_once(':')) {
                    Some((l, rest)) => match l
                        .parse::<usize>()
                        .ok()
                        .and_then(|l| l.checked_sub(1).and_then(|i| flat.origin.get(i)))
                    {
                        Some((f, ol)) => format!("{f}:{ol}:{rest}"),
                        None => e.clone(),
                    },
                    None => e.clone(),
                };
                return stop(why, rounds, text, r);
            }
        };
        for e in &mut edits {
            if let Some((f, l)) = (e.line as usize)
                .checked_sub(1)
                .and_then(|i| flat.origin.get(i))
            {
                e.file = f.clone();
                e.line = *l;
            }
        }
        let at = |sd: &crate::kernel::RaceSide| match (sd.line as usize)
            .checked_sub(1)
            .and_then(|i| flat.origin.get(i))
        {
            Some((f, l)) => format!("{f}:{l}:{}", sd.col),
            None => format!("{}:{}", sd.line, sd.col),
        };
        rounds.push(KernelRound {
            sites: r.races.iter().map(|x| (at(&x.a), at(&x.b))).collect(),
            races: r.races.clone(),
            edits,
            executions: r.counts.complete + r.stuck,
        });
        prev = Some((std::mem::replace(&mut text, new), r));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::RaceSide;

    #[test]
    fn flattens_local_includes_and_keeps_origins() {
        let read = |n: &str| {
            (n == "base.cu").then(|| "int a;\n#include <weft_cuda.h>\nint b;".to_string())
        };
        let f = flatten(
            "v.cu",
            "//--gridDim=2\n#define X\n#include \"base.cu\"\nint c;",
            &read,
        )
        .unwrap();
        assert_eq!(
            f.text,
            "//--gridDim=2\n#define X\nint a;\n#include <weft_cuda.h>\nint b;\nint c;"
        );
        assert_eq!(f.origin[2], ("base.cu".to_string(), 1));
        assert_eq!(f.origin[4], ("base.cu".to_string(), 3));
        assert_eq!(f.origin[5], ("v.cu".to_string(), 4));
        // An include that cannot be read stays.
        let f = flatten("v.cu", "#include \"gone.h\"", &read).unwrap();
        assert_eq!(f.text, "#include \"gone.h\"");
        // Self-inclusion is cut with an error, not a stack overflow.
        let me = |_: &str| Some("#include \"me.cu\"".to_string());
        assert!(flatten("me.cu", "#include \"me.cu\"", &me).is_err());
    }

    fn side(line: u32, atomic: bool, scope: Option<Scope>) -> RaceSide {
        RaceSide {
            line,
            col: 1,
            write: true,
            atomic,
            scope,
        }
    }

    #[test]
    fn plans_atomics_for_plain_sides_and_widening_for_narrow_scopes() {
        let races = vec![
            KernelRace {
                a: side(5, false, None),
                b: side(6, true, Some(Scope::Cta)),
                hetero: false,
                need: Scope::Gpu,
                threads: ("b0t0".into(), "b1t0".into()),
            },
            KernelRace {
                a: side(6, true, Some(Scope::Cta)),
                b: side(9, true, Some(Scope::Gpu)),
                hetero: true,
                need: Scope::Gpu,
                threads: ("b0t0".into(), "b1t0".into()),
            },
            KernelRace {
                a: side(11, false, None),
                b: RaceSide {
                    write: false,
                    ..side(11, false, None)
                },
                hetero: false,
                need: Scope::Cta,
                threads: ("b0t0".into(), "b0t1".into()),
            },
            KernelRace {
                a: RaceSide {
                    write: false,
                    ..side(20, false, None)
                },
                b: side(21, true, Some(Scope::Gpu)),
                hetero: false,
                need: Scope::Gpu,
                threads: ("b0t0".into(), "b1t0".into()),
            },
        ];
        let p = plan(&races).unwrap();
        assert_eq!(p.get(&5), Some(&Fix::Atomic(Scope::Gpu)));
        assert_eq!(p.get(&6), Some(&Fix::Widen(Scope::Gpu)));
        assert_eq!(p.get(&9), None);
        assert_eq!(p.get(&20), Some(&Fix::AtomicLoad(Scope::Gpu)));
        assert_eq!(p.get(&21), None);
        // Line 11: a write and a read side: the store fix.
        assert_eq!(p.get(&11), Some(&Fix::Atomic(Scope::Cta)));
        let mut zero = races[0].clone();
        zero.a.line = 0;
        assert!(plan(&[zero]).is_err());
    }
}
