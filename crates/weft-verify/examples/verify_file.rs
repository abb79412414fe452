//! Verifies one kernel file and prints one TSV line: file, verdict, finding kinds, seconds,
//! checks (for the measurements of `scripts/bench-verify.sh` without building the whole CLI).
//!
//! `verify_file FILE [--lockstep|--no-lockstep] [--two-pass] [--solver-timeout S] [--json]`;
//! exits as `weft verify` does (0 verified, 1 possible errors, 2 bad input, 3 undecided or
//! something not checked).
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The file: the argument that is neither an option nor `--solver-timeout`'s value.
    let path = args
        .iter()
        .enumerate()
        .find(|(i, a)| !a.starts_with("--") && (*i == 0 || args[i - 1] != "--solver-timeout"));
    let Some((_, path)) = path else {
        eprintln!(
            "usage: verify_file KERNEL.cu [--lockstep|--no-lockstep] [--two-pass] [--solver-timeout S] [--json]"
        );
        std::process::exit(2);
    };
    let mut o = weft_verify::Options::default();
    let mut fo = weft_verify::load::FileOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--solver-timeout" {
            if let Some(v) = it.next().and_then(|v| v.parse::<u64>().ok()) {
                o.timeout_ms = v * 1000;
            }
            continue;
        }
        match a.as_str() {
            "--lockstep" => fo.lockstep = Some(true),
            "--no-lockstep" => fo.lockstep = Some(false),
            "--two-pass" => o.warp_method = weft_verify::WarpMethod::TwoPass,
            _ => {}
        }
    }
    let t0 = std::time::Instant::now();
    let r = weft_verify::load::verify_file(std::path::Path::new(path), &o, &fo);
    let secs = t0.elapsed().as_secs_f64();
    if args.iter().any(|a| a == "--json") {
        match &r {
            Ok(r) => println!("{}", serde_json::to_string_pretty(r).unwrap()),
            Err(e) => eprintln!("{e}"),
        }
    }
    let name = std::path::Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match r {
        Ok(rs) => {
            let r = &rs[0];
            let mut kinds: Vec<&str> = r.findings.iter().map(|f| f.kind.as_str()).collect();
            kinds.sort();
            kinds.dedup();
            println!(
                "{name}\t{:?}\t{}\t{secs:.3}\t{}",
                r.verdict,
                kinds.join(","),
                r.checks
            );
            // The exit status `weft verify` gives (0 verified, 1 errors, 3 undecided or
            // something not checked), so that scripts can use this in its place.
            std::process::exit(weft_verify::text::exit_code(&rs).code());
        }
        Err(e) => {
            println!(
                "{name}\terror\t{}\t{secs:.3}\t0",
                e.to_string().replace(['\t', '\n'], " ")
            );
            std::process::exit(2);
        }
    }
}
