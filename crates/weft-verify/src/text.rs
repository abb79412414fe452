//! What `weft verify` prints: each kernel's verdict, its possible errors (with the pass
//! that found them and, with `--confirm`, whether an emulator run shows the same race) and
//! notes; and the exit status of a set of reports.

use weft_ir::exit::ExitCode;

use crate::{Finding, Report, Verdict};

/// 1 when a report has errors, 3 when one is undecided (solver timeout) or has no error but
/// something not checked, else 0.
pub fn exit_code(reports: &[Report]) -> ExitCode {
    let mut code = ExitCode::Ok;
    for r in reports {
        match r.verdict {
            Verdict::Errors => code = code.max(ExitCode::Violation),
            Verdict::Unknown | Verdict::Incomplete => code = ExitCode::Internal,
            _ => {}
        }
    }
    code
}

/// A source location reduced to (file name, line).
pub type Loc = (String, String);

/// `file:line` or `file:line:col` of a source location, reduced to the file's name and the
/// line.
pub fn short_loc(l: &str) -> Option<Loc> {
    let (f, r) = l.rsplit_once(':')?;
    let digits = |x: &str| !x.is_empty() && x.chars().all(|c| c.is_ascii_digit());
    let (file, line) = match f.rsplit_once(':') {
        Some((f2, line)) if digits(line) && digits(r) => (f2, line),
        _ => (f, r),
    };
    let name = std::path::Path::new(file)
        .file_name()?
        .to_string_lossy()
        .into_owned();
    Some((name, line.to_string()))
}

/// Whether the emulator's races (`races`: their source-line pairs, or why the run failed;
/// `None` without `--confirm`) show the possible race `f` (`None` for other findings).
pub fn confirmation(
    f: &Finding,
    races: Option<&Result<Vec<(Loc, Loc)>, String>>,
) -> Option<String> {
    if f.kind != "race" {
        return None;
    }
    let races = match races? {
        Ok(r) => r,
        Err(e) => return Some(format!("not confirmed: {e}")),
    };
    let s = f.loc_s.as_deref().and_then(short_loc);
    let t = short_loc(&f.loc_t);
    let shown = races.iter().any(|(x, y)| {
        (Some(x) == s.as_ref() && Some(y) == t.as_ref())
            || (Some(y) == s.as_ref() && Some(x) == t.as_ref())
    });
    Some(if shown {
        "confirmed: the emulator shows a race between these lines".to_string()
    } else {
        "not shown by the emulator in 4 schedules of this launch (zero-filled buffers, \
         scalar arguments 1 unless given: not the counter-example's values)"
            .to_string()
    })
}

/// The reports as text: per kernel its verdict and time, each possible error (with
/// `confirmation`'s line when it has one) and the notes.
pub fn text(reports: &[Report], confirmation: &dyn Fn(&Finding) -> Option<String>) -> String {
    let mut s = String::new();
    for r in reports {
        let t = r.time_ms as f64 / 1000.0;
        match r.verdict {
            Verdict::Verified => s.push_str(&format!("{}: verified ({t:.2} s)\n", r.kernel)),
            Verdict::Bounded => s.push_str(&format!(
                "{}: no error found within the loop unwinding bound (not a proof) ({t:.2} s)\n",
                r.kernel
            )),
            Verdict::Unknown => s.push_str(&format!(
                "{}: not verified: the solver could not decide {} check(s) (timeout) ({t:.2} s)\n",
                r.kernel, r.undecided
            )),
            Verdict::Incomplete => s.push_str(&format!(
                "{}: not verified: no possible error found, but {} propert{} not checked ({t:.2} s)\n",
                r.kernel,
                r.not_checked.len(),
                if r.not_checked.len() == 1 { "y is" } else { "ies are" }
            )),
            Verdict::Errors => {
                s.push_str(&format!(
                    "{}: {} possible error(s) ({t:.2} s)\n",
                    r.kernel,
                    r.findings.len()
                ));
                for f in &r.findings {
                    s.push_str(&format!("  error: {}\n", f.message));
                    if f.pass != "all" {
                        s.push_str(&format!("    (found by the {} pass)\n", f.pass));
                    }
                    if let Some(c) = confirmation(f) {
                        s.push_str(&format!("    {c}\n"));
                    }
                }
            }
        }
        for n in &r.not_checked {
            s.push_str(&format!("  not checked: {n}\n"));
        }
        for n in &r.notes {
            s.push_str(&format!("  note: {n}\n"));
        }
    }
    s
}
