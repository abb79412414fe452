//! optcheck (paper 000 §4.4): did `ptxas` keep each test thread's memory instructions in
//! the order of the test? The generated kernel brackets every test thread's body with two
//! reads of `%clock64` (SASS `CS2R`/`S2R`/`S2UR ... SR_CLOCKLO`); the k-th pair of clock
//! reads in the SASS delimits test thread k. Inside each region the loads, stores and
//! atomics must be exactly the test's, in the test's order and memory space, and every
//! fence of the test must have a `MEMBAR` between the same accesses (the compiler may add
//! `MEMBAR`s and `CCTL`s of its own for acquire/release; those are allowed). Where the
//! paper encodes the specification in `xor` instructions, weft uses the clock markers and
//! the expected sequence kept from code generation.
//!
//! [`parse_sass`], [`regions`] and [`check_sass`] are pure and tested on hand-written SASS;
//! [`check_ptx`] runs `ptxas` and `cuobjdump -sass` (or `nvdisasm`) when they are on PATH.

use std::path::PathBuf;
use std::process::Command;

use crate::lower::MemKind;

/// optcheck's answer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Verdict {
    /// Every test thread's accesses are in the test's order.
    Kept,
    /// The compiler moved, merged, dropped or added accesses; `details` says where.
    Reordered { details: String },
    /// The check could not run (no CUDA tools, or the markers were not found).
    Unavailable(String),
}

/// The memory space a SASS instruction names (by its opcode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SassSpace {
    Global,
    Shared,
    /// `LD`/`ST`/`ATOM`/`RED`: generic addressing, any space.
    Generic,
}

/// What a SASS instruction is, for optcheck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SassClass {
    Load(SassSpace),
    Store(SassSpace),
    Rmw(SassSpace),
    /// `MEMBAR`, `FENCE`.
    Fence,
    /// A read of the clock (marker).
    Clock,
    /// Anything else (arithmetic, branches, `CCTL`, local-memory spills).
    Other,
}

/// One SASS instruction as cuobjdump/nvdisasm print it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SassInstr {
    /// The offset in `/*0090*/`.
    pub offset: u64,
    /// The guard predicate (`@P0`, `@!P1`), if any.
    pub guard: Option<String>,
    /// The opcode with its modifiers (`LDG.E.STRONG.GPU`).
    pub opcode: String,
    /// The operands as printed.
    pub operands: String,
}

impl SassInstr {
    /// The instruction's class; one guarded by `@!PT` never executes (ptxas emits such
    /// placeholders, e.g. `@!PT LDS RZ, [RZ]`) and counts as `Other`.
    pub fn class(&self) -> SassClass {
        if self.guard.as_deref() == Some("@!PT") {
            return SassClass::Other;
        }
        classify(&self.opcode, &self.operands)
    }
}

/// Classifies an opcode (with modifiers) and its operands.
pub fn classify(opcode: &str, operands: &str) -> SassClass {
    if operands.contains("SR_CLOCKLO") || operands.contains("SR_CLOCKHI") {
        return SassClass::Clock;
    }
    let base = opcode.split('.').next().unwrap_or("");
    match base {
        "LDG" => SassClass::Load(SassSpace::Global),
        "LDS" => SassClass::Load(SassSpace::Shared),
        "LD" => SassClass::Load(SassSpace::Generic),
        "STG" => SassClass::Store(SassSpace::Global),
        "STS" => SassClass::Store(SassSpace::Shared),
        "ST" => SassClass::Store(SassSpace::Generic),
        "ATOMG" | "REDG" => SassClass::Rmw(SassSpace::Global),
        "ATOMS" | "REDS" => SassClass::Rmw(SassSpace::Shared),
        "ATOM" | "RED" => SassClass::Rmw(SassSpace::Generic),
        "MEMBAR" | "FENCE" => SassClass::Fence,
        _ => SassClass::Other,
    }
}

/// Parses the instruction lines of `cuobjdump -sass` / `nvdisasm` output:
/// `/*0090*/   @P0 LDG.E.STRONG.GPU R2, [R2.64] ;   /* 0x... */`. Other lines (headers,
/// labels, encodings on their own line) are skipped. Never panics.
pub fn parse_sass(text: &str) -> Vec<SassInstr> {
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim_start();
        let Some(rest) = l.strip_prefix("/*") else {
            continue;
        };
        let Some(end) = rest.find("*/") else {
            continue;
        };
        let Ok(offset) = u64::from_str_radix(rest[..end].trim(), 16) else {
            continue;
        };
        let mut body = rest[end + 2..].trim();
        // Drop the trailing encoding comment and the `;`.
        if let Some(c) = body.find("/*") {
            body = body[..c].trim();
        }
        let body = body.trim_end_matches(';').trim();
        if body.is_empty() {
            continue;
        }
        let mut words = body.splitn(2, char::is_whitespace);
        let mut first = words.next().unwrap_or("");
        let mut rest = words.next().unwrap_or("").trim();
        let mut guard = None;
        if first.starts_with('@') {
            guard = Some(first.to_string());
            let mut w = rest.splitn(2, char::is_whitespace);
            first = w.next().unwrap_or("");
            rest = w.next().unwrap_or("").trim();
        }
        if first.is_empty() || !first.chars().next().is_some_and(|c| c.is_ascii_uppercase()) {
            continue;
        }
        out.push(SassInstr {
            offset,
            guard,
            opcode: first.to_string(),
            operands: rest.to_string(),
        });
    }
    out
}

/// One test thread's region of the SASS: the instructions from its first clock marker to
/// its second (`strict`), and from there to the end of that path (`tail`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Region {
    pub strict: Vec<SassInstr>,
    pub tail: Vec<SassInstr>,
}

/// Splits the instruction stream into test-thread regions. Every read of `SR_CLOCKLO` is a
/// marker (a `SR_CLOCKHI` read is the other half of a 64-bit read); markers pair up in
/// code order, two per test thread. `ptxas` may hoist a body's closing clock read above
/// the body's accesses (it has no inputs; seen with ptxas 13.0 for sm_90), so a region
/// runs from its first marker up to the next region's first marker or the first
/// unconditional `EXIT`, whichever comes first: `strict` up to the second marker, `tail`
/// after it, where the harness's own result stores and counters also live. `None` when
/// the markers do not pair up.
pub fn regions(instrs: &[SassInstr]) -> Option<Vec<Region>> {
    let markers: Vec<usize> = instrs
        .iter()
        .enumerate()
        .filter(|(_, i)| i.operands.contains("SR_CLOCKLO") && i.guard.as_deref() != Some("@!PT"))
        .map(|(k, _)| k)
        .collect();
    if markers.is_empty() || !markers.len().is_multiple_of(2) {
        return None;
    }
    let keep = |x: &&SassInstr| x.class() != SassClass::Clock;
    let mut out = Vec::new();
    for (k, p) in markers.chunks(2).enumerate() {
        let next = markers.get(2 * k + 2).copied().unwrap_or(instrs.len());
        let mut end = next;
        if let Some(e) = instrs[p[1]..next]
            .iter()
            .position(|x| x.guard.is_none() && x.opcode == "EXIT")
        {
            end = p[1] + e;
        }
        out.push(Region {
            strict: instrs[p[0]..p[1]].iter().filter(keep).cloned().collect(),
            tail: instrs[p[1]..end].iter().filter(keep).cloned().collect(),
        });
    }
    Some(out)
}

fn space_of_mnemonic(m: &str) -> SassSpace {
    if m.contains(".shared") {
        SassSpace::Shared
    } else if m.contains(".global") {
        SassSpace::Global
    } else {
        SassSpace::Generic
    }
}

fn space_ok(expected: SassSpace, got: SassSpace) -> bool {
    expected == got || expected == SassSpace::Generic || got == SassSpace::Generic
}

/// Checks one thread's region against its expected sequence; `Err` says what differs.
/// In the strict part every access must be the next expected one; in the tail, accesses
/// that are not the next expected one are the harness's and are passed over.
fn check_thread(expected: &[(MemKind, String)], region: &Region) -> Result<(), String> {
    let mem = |i: &&SassInstr| !matches!(i.class(), SassClass::Other | SassClass::Clock);
    let actual: Vec<(&SassInstr, bool)> = region
        .strict
        .iter()
        .filter(mem)
        .map(|i| (i, false))
        .chain(region.tail.iter().filter(mem).map(|i| (i, true)))
        .collect();
    let mut k = 0usize;
    for (kind, m) in expected {
        if *kind == MemKind::Fence {
            // A MEMBAR before the next access (in the tail, harness accesses may come first).
            loop {
                match actual.get(k) {
                    Some((a, _)) if a.class() == SassClass::Fence => break,
                    Some((_, true)) => k += 1,
                    _ => return Err(format!("the fence {m} has no MEMBAR at its place")),
                }
            }
            while k < actual.len() && actual[k].0.class() == SassClass::Fence {
                k += 1;
            }
            continue;
        }
        let sp = space_of_mnemonic(m);
        loop {
            // Skip compiler-added fences before the next access.
            while k < actual.len() && actual[k].0.class() == SassClass::Fence {
                k += 1;
            }
            let Some((a, tolerant)) = actual.get(k) else {
                return Err(format!(
                    "{m} has no SASS instruction (dropped or moved out of the body)"
                ));
            };
            let ok = match (kind, a.class()) {
                (MemKind::Load, SassClass::Load(s)) => space_ok(sp, s),
                (MemKind::Store, SassClass::Store(s)) => space_ok(sp, s),
                (MemKind::Rmw, SassClass::Rmw(s)) => space_ok(sp, s),
                _ => false,
            };
            k += 1;
            if ok {
                break;
            }
            if !tolerant {
                return Err(format!(
                    "expected {m} but found {} {} at /*{:04x}*/",
                    a.opcode, a.operands, a.offset
                ));
            }
        }
    }
    while k < actual.len() && actual[k].0.class() == SassClass::Fence {
        k += 1;
    }
    if let Some((extra, false)) = actual.get(k) {
        return Err(format!(
            "an extra memory instruction {} {} at /*{:04x}*/",
            extra.opcode, extra.operands, extra.offset
        ));
    }
    Ok(())
}

/// Checks SASS text against the expected sequences of every test thread. `ptxas` lays the
/// test threads' bodies out in an order of its own (thread 1's before thread 0's, seen for
/// sm_90), so regions are matched to threads: the verdict is `Kept` when some one-to-one
/// assignment of regions to threads matches every thread.
pub fn check_sass(sass: &str, expected: &[Vec<(MemKind, String)>]) -> Verdict {
    let instrs = parse_sass(sass);
    let Some(regs) = regions(&instrs) else {
        return Verdict::Unavailable(
            "the clock markers around the test bodies do not pair up in the SASS".into(),
        );
    };
    if regs.len() != expected.len() {
        return Verdict::Unavailable(format!(
            "found {} marked test bodies in the SASS, expected {}",
            regs.len(),
            expected.len()
        ));
    }
    // fits[r][t]: region r matches thread t.
    let fits: Vec<Vec<Result<(), String>>> = regs
        .iter()
        .map(|r| expected.iter().map(|e| check_thread(e, r)).collect())
        .collect();
    if assignment(&fits).is_some() {
        return Verdict::Kept;
    }
    // For each thread that no region fits, what each region lacks.
    let mut problems = Vec::new();
    for t in 0..expected.len() {
        let whys: Vec<String> = fits
            .iter()
            .enumerate()
            .filter_map(|(r, row)| match &row[t] {
                Err(why) => Some(format!("body {} of the SASS: {why}", r + 1)),
                Ok(()) => None,
            })
            .collect();
        if whys.len() == fits.len() {
            problems.push(format!("thread {t}: {}", whys.join(" / ")));
        }
    }
    if problems.is_empty() {
        problems.push("no assignment of the marked bodies to the test threads matches".into());
    }
    Verdict::Reordered {
        details: problems.join("; "),
    }
}

/// A perfect matching of regions to threads in `fits` (backtracking; tests have few
/// threads), as `assign[region] = thread`.
fn assignment(fits: &[Vec<Result<(), String>>]) -> Option<Vec<usize>> {
    fn go(
        r: usize,
        fits: &[Vec<Result<(), String>>],
        used: &mut Vec<bool>,
        out: &mut Vec<usize>,
    ) -> bool {
        if r == fits.len() {
            return true;
        }
        for t in 0..used.len() {
            if !used[t] && fits[r][t].is_ok() {
                used[t] = true;
                out.push(t);
                if go(r + 1, fits, used, out) {
                    return true;
                }
                out.pop();
                used[t] = false;
            }
        }
        false
    }
    let n = fits.first().map_or(0, |r| r.len());
    let mut used = vec![false; n];
    let mut out = Vec::new();
    go(0, fits, &mut used, &mut out).then_some(out)
}

fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Compiles `ptx` with `ptxas -O3 -arch=<arch>`, disassembles it and checks it. Answers
/// `Unavailable` when the tools are not on PATH or fail.
pub fn check_ptx(ptx: &str, expected: &[Vec<(MemKind, String)>], arch: &str) -> Verdict {
    let Some(ptxas) = which("ptxas") else {
        return Verdict::Unavailable("ptxas is not on PATH".into());
    };
    let dis = which("cuobjdump")
        .map(|p| (p, vec!["-sass"]))
        .or_else(|| which("nvdisasm").map(|p| (p, vec![])));
    let Some((dis, dis_args)) = dis else {
        return Verdict::Unavailable("neither cuobjdump nor nvdisasm is on PATH".into());
    };
    let dir = match tempfile::Builder::new().prefix("weft-optcheck-").tempdir() {
        Ok(d) => d,
        Err(e) => return Verdict::Unavailable(format!("no temporary directory: {e}")),
    };
    let src = dir.path().join("test.ptx");
    let bin = dir.path().join("test.cubin");
    if let Err(e) = std::fs::write(&src, ptx) {
        return Verdict::Unavailable(format!("writing the PTX: {e}"));
    }
    let out = Command::new(&ptxas)
        .arg(format!("-arch={arch}"))
        .arg("-O3")
        .arg(&src)
        .arg("-o")
        .arg(&bin)
        .output();
    match out {
        Ok(o) if o.status.success() => {}
        Ok(o) => {
            return Verdict::Unavailable(format!(
                "ptxas failed: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            ))
        }
        Err(e) => return Verdict::Unavailable(format!("running ptxas: {e}")),
    }
    let out = Command::new(&dis).args(&dis_args).arg(&bin).output();
    match out {
        Ok(o) if o.status.success() => check_sass(&String::from_utf8_lossy(&o.stdout), expected),
        Ok(o) => Verdict::Unavailable(format!(
            "disassembly failed: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(e) => Verdict::Unavailable(format!("running the disassembler: {e}")),
    }
}

#[cfg(test)]
mod tests {
    //! The SASS below is hand-written in the format `cuobjdump -sass` prints (offset
    //! comment, optional guard, opcode with modifiers, operands, `;`, encoding comment);
    //! it is a fixture, not captured compiler output.

    use super::*;

    fn mp_expected() -> Vec<Vec<(MemKind, String)>> {
        vec![
            vec![
                (MemKind::Store, "st.global.cg.s32".into()),
                (MemKind::Fence, "membar.gl".into()),
                (MemKind::Store, "st.global.cg.s32".into()),
            ],
            vec![
                (MemKind::Load, "ld.global.cg.s32".into()),
                (MemKind::Load, "ld.global.ca.s32".into()),
            ],
        ]
    }

    const KEPT: &str = r#"
	code for sm_70
		Function : weft_litmus
	.headerflags    @"EF_CUDA_SM70 EF_CUDA_PTX_SM(EF_CUDA_SM70)"
        /*0000*/                   MOV R1, c[0x0][0x28] ;                        /* 0x00000a0000017a02 */
        /*0010*/                   LDG.E.SYS R0, [R2] ;                          /* 0x0000000002007381 */
        /*0020*/                   ISETP.NE.AND P0, PT, R0, RZ, PT ;             /* 0x000000ff0000720c */
        /*0030*/              @P0  BRA 0x100 ;                                   /* 0x000000c000000947 */
        /*0040*/                   CS2R R6, SR_CLOCKLO ;                         /* 0x0000000000067805 */
        /*0050*/                   STG.E.STRONG.GPU [R4], R9 ;                   /* 0x0000000904007386 */
        /*0060*/                   MEMBAR.SC.GPU ;                               /* 0x0000000000007992 */
        /*0070*/                   ERRBAR ;                                      /* 0x00000000000079ab */
        /*0080*/                   STG.E.STRONG.GPU [R10], R9 ;                  /* 0x000000090a007386 */
        /*0090*/                   CS2R R12, SR_CLOCKLO ;                        /* 0x00000000000c7805 */
        /*00a0*/                   STG.E.SYS [R14], R12 ;                        /* 0x0000000c0e007386 */
        /*00b0*/                   EXIT ;                                        /* 0x000000000000794d */
        /*0100*/                   S2R R6, SR_CLOCKLO ;                          /* 0x0000000000067919 */
        /*0110*/                   S2R R7, SR_CLOCKHI ;                          /* 0x0000000000077919 */
        /*0120*/                   LDG.E.STRONG.GPU R8, [R4] ;                   /* 0x0000000004087381 */
        /*0130*/                   LDG.E.EF R9, [R4] ;                           /* 0x0000000004097381 */
        /*0140*/                   CS2R R12, SR_CLOCKLO ;                        /* 0x00000000000c7805 */
        /*0150*/                   STG.E.SYS [R14], R8 ;                         /* 0x000000080e007386 */
        /*0160*/                   EXIT ;                                        /* 0x000000000000794d */
        /*0170*/                   BRA 0x170;                                    /* 0x000fc0000383ffff */
"#;

    #[test]
    fn parses_cuobjdump_lines() {
        let v = parse_sass(KEPT);
        assert_eq!(v.len(), 20);
        assert_eq!(v[0].opcode, "MOV");
        assert_eq!(v[3].guard.as_deref(), Some("@P0"));
        assert_eq!(v[3].opcode, "BRA");
        assert_eq!(v[5].opcode, "STG.E.STRONG.GPU");
        assert_eq!(v[5].operands, "[R4], R9");
        assert_eq!(v[5].offset, 0x50);
        assert_eq!(v[19].operands, "0x170");
        assert_eq!(v[4].class(), SassClass::Clock);
        assert_eq!(v[6].class(), SassClass::Fence);
        assert_eq!(v[7].class(), SassClass::Other, "ERRBAR is not a fence");
    }

    #[test]
    fn kept_order_is_kept() {
        assert_eq!(check_sass(KEPT, &mp_expected()), Verdict::Kept);
    }

    #[test]
    fn a_store_turned_into_a_load_is_reordered() {
        let sass = KEPT.replace(
            "STG.E.STRONG.GPU [R10], R9 ;",
            "LDG.E.STRONG.GPU R3, [R10] ;",
        );
        match check_sass(&sass, &mp_expected()) {
            Verdict::Reordered { details } => {
                assert!(details.contains("thread 0"), "{details}");
                assert!(details.contains("st.global.cg.s32"), "{details}");
            }
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn an_access_hoisted_above_the_body_is_reordered() {
        // T0's first store moved above the opening marker (out of the body).
        let sass = KEPT
            .replace(
                "/*0040*/                   CS2R R6, SR_CLOCKLO ;",
                "/*0040*/                   STG.E.STRONG.GPU [R4], R9 ;",
            )
            .replace(
                "/*0050*/                   STG.E.STRONG.GPU [R4], R9 ;",
                "/*0050*/                   CS2R R6, SR_CLOCKLO ;",
            );
        assert!(matches!(
            check_sass(&sass, &mp_expected()),
            Verdict::Reordered { .. }
        ));
    }

    #[test]
    fn a_closing_marker_hoisted_above_the_accesses_is_kept() {
        // ptxas 13.0 (sm_90) schedules the closing clock read before the loads it
        // brackets; the loads are still the thread's, in order, before its result stores.
        let sass = KEPT
            .replace(
                "/*0120*/                   LDG.E.STRONG.GPU R8, [R4] ;",
                "/*0120*/                   CS2R R12, SR_CLOCKLO ;",
            )
            .replace(
                "/*0130*/                   LDG.E.EF R9, [R4] ;",
                "/*0130*/                   LDG.E.STRONG.GPU R8, [R4] ;",
            )
            .replace(
                "/*0140*/                   CS2R R12, SR_CLOCKLO ;",
                "/*0140*/                   LDG.E.EF R9, [R4] ;",
            );
        assert_eq!(check_sass(&sass, &mp_expected()), Verdict::Kept);
    }

    #[test]
    fn bodies_laid_out_in_another_order_are_matched_to_their_threads() {
        let mut ex = mp_expected();
        ex.swap(0, 1);
        assert_eq!(check_sass(KEPT, &ex), Verdict::Kept);
    }

    #[test]
    fn a_missing_fence_is_reported() {
        let sass = KEPT.replace("MEMBAR.SC.GPU ;", "NOP ;");
        match check_sass(&sass, &mp_expected()) {
            Verdict::Reordered { details } => assert!(details.contains("membar.gl"), "{details}"),
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn merged_loads_are_reordered() {
        // Two loads of the same address merged into one.
        let sass = KEPT.replace("LDG.E.EF R9, [R4] ;", "MOV R9, R8 ;");
        assert!(matches!(
            check_sass(&sass, &mp_expected()),
            Verdict::Reordered { .. }
        ));
    }

    #[test]
    fn never_executed_placeholders_are_ignored() {
        let sass = KEPT.replace(
            "/*0130*/                   LDG.E.EF R9, [R4] ;",
            "/*0130*/                   LDG.E.EF R9, [R4] ;\n        /*0138*/              @!PT LDS RZ, [RZ] ;",
        );
        assert_eq!(parse_sass(&sass).len(), 21);
        assert_eq!(check_sass(&sass, &mp_expected()), Verdict::Kept);
    }

    #[test]
    fn shared_space_must_match() {
        let exp = vec![vec![(MemKind::Load, "ld.shared.cg.s32".to_string())]];
        let ok = "/*0000*/ CS2R R2, SR_CLOCKLO ;\n/*0010*/ LDS R4, [R5] ;\n/*0020*/ CS2R R6, SR_CLOCKLO ;\n";
        assert_eq!(check_sass(ok, &exp), Verdict::Kept);
        let bad = ok.replace("LDS R4", "LDG.E R4");
        assert!(matches!(check_sass(&bad, &exp), Verdict::Reordered { .. }));
        // Generic LD matches any space.
        let generic = ok.replace("LDS R4", "LD.E R4");
        assert_eq!(check_sass(&generic, &exp), Verdict::Kept);
    }

    #[test]
    fn atom_compiled_to_red_is_kept() {
        let exp = vec![vec![(MemKind::Rmw, "atom.global.add.u32".to_string())]];
        let s = "/*0000*/ CS2R R2, SR_CLOCKLO ;\n/*0010*/ MEMBAR.ALL.GPU ;\n/*0020*/ RED.E.ADD.STRONG.GPU [R4.64], R5 ;\n/*0030*/ CS2R R6, SR_CLOCKLO ;\n";
        assert_eq!(check_sass(s, &exp), Verdict::Kept);
    }

    #[test]
    fn missing_markers_make_it_unavailable() {
        let sass = KEPT.replace("CS2R R12, SR_CLOCKLO ;", "NOP ;");
        assert!(matches!(
            check_sass(&sass, &mp_expected()),
            Verdict::Unavailable(_)
        ));
        assert!(matches!(
            check_sass("", &mp_expected()),
            Verdict::Unavailable(_)
        ));
    }

    #[test]
    fn junk_never_panics() {
        for s in [
            "/*",
            "/*zz*/ LDG",
            "/*0010*/",
            "/*0010*/ @P0",
            "/*0010*/ ;",
            "\u{0}/*1*/ X",
        ] {
            let _ = parse_sass(s);
            let _ = check_sass(s, &mp_expected());
        }
    }

    #[test]
    fn without_tools_the_check_is_unavailable() {
        if which("ptxas").is_some() {
            return;
        }
        assert!(matches!(
            check_ptx("", &mp_expected(), "sm_70"),
            Verdict::Unavailable(_)
        ));
    }
}
