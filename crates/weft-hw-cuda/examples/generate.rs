//! Prints the PTX (or, with `--cuda`, the CUDA-C) kernel weft generates for a litmus file:
//! `cargo run -p weft-hw-cuda --example generate -- FILE [--cuda] [--all-incantations]`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: generate FILE [--cuda] [--all-incantations]");
        std::process::exit(2);
    };
    let src = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(1);
        }
    };
    let p = match weft_litmus::parse(&src) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(1);
        }
    };
    let all = args.iter().any(|a| a == "--all-incantations");
    let params = weft_hw_cuda::CudaParams {
        mem_stress: all,
        bank_conflicts: all,
        thread_randomisation: all,
        thread_sync: all,
        ..weft_hw_cuda::CudaParams::default()
    };
    match weft_hw_cuda::generate(&p, &params) {
        Ok(g) if args.iter().any(|a| a == "--cuda") => print!("{}", g.cuda_c),
        Ok(g) => print!("{}", g.ptx),
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(1);
        }
    }
}
