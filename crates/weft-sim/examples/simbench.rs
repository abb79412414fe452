//! Times the simulator on litmus files without the CLI (profiling aid for docs/perf.md):
//! `cargo run --release -p weft-sim --example simbench -- MODEL FILE... [--timeout S]`
//! prints one line per file: name, candidates, pruned, judged (partial candidates the
//! model judged), consistent, states (listed plus in product form), Positive/Negative, seconds, and
//! whether the enumeration finished.

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut timeout = None;
    if let Some(i) = args.iter().position(|a| a == "--timeout") {
        timeout = Some(std::time::Duration::from_secs_f64(
            args[i + 1].parse().expect("seconds"),
        ));
        args.drain(i..i + 2);
    }
    let model = weft_sim::models::load(&args[0]).expect("model");
    for f in &args[1..] {
        let src = std::fs::read_to_string(f).expect("read");
        let p = weft_litmus::parse(&src).expect("parse");
        let opts = weft_sim::SimOptions {
            timeout,
            settle: std::env::var_os("SIMBENCH_NO_SETTLE").is_none(),
            // SIMBENCH_MAX_STATES=N: product form past N states (as `weft sim`).
            max_states: std::env::var("SIMBENCH_MAX_STATES")
                .ok()
                .and_then(|v| v.parse().ok()),
            ..Default::default()
        };
        if std::env::var_os("SIMBENCH_SKELETONS").is_some() {
            let tt = weft_sim::traces::thread_traces(&p, opts.limits).expect("traces");
            let (mut n, mut combos) = (0u64, 0u64);
            weft_sim::candidates::for_each_skeleton(&p, &tt, &mut |sk| {
                n += 1;
                combos += weft_sim::candidates::combinations(sk);
                true
            });
            let per: Vec<usize> = tt.per_thread.iter().map(|t| t.len()).collect();
            println!("traces per thread {per:?}, skeletons {n}, rf x co combinations {combos}");
        }
        let r = weft_sim::simulate(&p, &model, &opts).expect("simulate");
        if let Ok(dir) = std::env::var("SIMBENCH_STATES") {
            // One line per state, `col=val; ...` in column order (herd's layout).
            let mut out = String::new();
            for vals in r.states.keys() {
                let cells: Vec<String> = r
                    .columns
                    .iter()
                    .zip(vals)
                    .map(|(c, v)| format!("{c}={v};"))
                    .collect();
                out += &cells.join(" ");
                out.push('\n');
            }
            for t in &r.terms {
                out += &t.line(&r.columns);
                out.push('\n');
            }
            let path = format!("{dir}/{}.{}.states", r.name, args[0]);
            std::fs::write(path, out).expect("write states");
        }
        println!(
            "{} {} cand={} pruned={} judged={} settled={} cons={} states={} pos={} neg={} flags={:?} undef={} {:.3}s {}",
            r.name,
            args[0],
            r.candidates,
            r.pruned,
            r.judged,
            r.settled,
            r.consistent,
            r.state_count(),
            r.positive,
            r.negative,
            r.flags,
            r.undefined,
            r.seconds,
            if r.timed_out { "timeout" } else { "full" }
        );
    }
}
