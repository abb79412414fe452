//! Running the tests the no-thin-air check flags (docs/mc.md, "Dependency cycles"):
//! `cargo run -p weft-mc --example speculate_census -- MODEL SECONDS DIR|FILE...` explores
//! every litmus test under the paths whose program has a dependency on a potential
//! (po ∪ rf) cycle, with value speculation, and prints one tab-separated row per test:
//! path, `built` (speculation ran: no note) or `note` (the guessed values did not settle),
//! `Ok`/`No`, positive and negative executions, states, executions dropped unjustified,
//! graphs, seconds (`timeout` when it ran past SECONDS); then `flagged F of N, built B`.
//! `UNROLL=N` sets the unroll bound.

use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: speculate_census MODEL SECONDS DIR|FILE...");
        std::process::exit(2);
    }
    let model = &args[1];
    let secs: u64 = args[2].parse().unwrap_or(60);
    let one_location = model.starts_with("ptx");
    let Ok(cat) = weft_exec::models::load(model) else {
        eprintln!("unknown model {model}");
        std::process::exit(2);
    };
    let mut files = Vec::new();
    for a in &args[3..] {
        for e in walkdir::WalkDir::new(a)
            .sort_by_file_name()
            .into_iter()
            .flatten()
        {
            if e.path().extension().is_some_and(|x| x == "litmus") {
                files.push(e.path().to_path_buf());
            }
        }
    }
    let (mut n, mut flagged, mut built) = (0, 0, 0);
    for f in &files {
        let Ok(src) = std::fs::read_to_string(f) else {
            continue;
        };
        let Ok(p) = weft_litmus::parse(&src) else {
            continue;
        };
        n += 1;
        if weft_mc::thinair::dep_cycles(&p, one_location).is_empty() {
            continue;
        }
        flagged += 1;
        let opts = weft_mc::McOptions {
            threads: 1,
            timeout: Some(Duration::from_secs(secs)),
            unroll: std::env::var("UNROLL")
                .ok()
                .and_then(|u| u.parse().ok())
                .unwrap_or(weft_mc::McOptions::default().unroll),
            ..weft_mc::McOptions::default()
        };
        let start = Instant::now();
        match weft_mc::check_litmus(&p, model, &cat, &opts) {
            Ok(r) => {
                let note = !r.dep_cycles.is_empty();
                built += usize::from(!note);
                println!(
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    f.display(),
                    if note { "note" } else { "built" },
                    if r.sim.validated { "Ok" } else { "No" },
                    r.sim.positive,
                    r.sim.negative,
                    r.sim.states.len(),
                    r.counts.unjustified,
                    r.counts.graphs,
                    if r.sim.timed_out {
                        "timeout".to_string()
                    } else {
                        format!("{:.2}", start.elapsed().as_secs_f64())
                    }
                );
            }
            Err(e) => println!("{}\terror\t{e}", f.display()),
        }
    }
    println!("flagged {flagged} of {n}, built {built}");
}
