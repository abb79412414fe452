//! Measuring `weft mc` on one litmus test without the whole CLI (docs/perf.md's LB-22 rows):
//! `cargo run --release -p weft-mc --example mc_litmus -- MODEL FILE [THREADS] [MAX_STATES]
//! [nosym]` explores FILE under MODEL (native for rc11/scoped-rc11/sc) and streams herd7's
//! block to stdout, as `weft mc` prints it, then the executions explored, the graphs built
//! and the thread symmetry used (`nosym`: none).

use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: mc_litmus MODEL FILE [THREADS] [MAX_STATES]");
        std::process::exit(2);
    }
    let src = match std::fs::read_to_string(&args[2]) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: {e}", args[2]);
            std::process::exit(2);
        }
    };
    let p = match weft_litmus::parse(&src) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}: {e:?}", args[2]);
            std::process::exit(2);
        }
    };
    let Ok(cat) = weft_exec::models::load(&args[1]) else {
        eprintln!("unknown model {}", args[1]);
        std::process::exit(2);
    };
    let opts = weft_mc::McOptions {
        threads: args.get(3).and_then(|t| t.parse().ok()).unwrap_or(1),
        max_states: Some(args.get(4).and_then(|t| t.parse().ok()).unwrap_or(100_000)),
        symmetry: args.get(5).is_none_or(|a| a != "nosym"),
        ..weft_mc::McOptions::default()
    };
    match weft_mc::check_litmus(&p, &args[1], &cat, &opts) {
        Ok(r) => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let _ = r.sim.herd_write(&p, &mut out);
            let _ = writeln!(out, "Executions explored: {}", r.counts.complete);
            let _ = writeln!(out, "Graphs: {}", r.counts.graphs);
            if let Some(s) = &r.symmetry {
                let _ = writeln!(out, "Symmetry: {s}");
            }
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(3);
        }
    }
}
