//! A byte-identity dump of the instrumentation (issue 25): the rewritten PTX, logging sites
//! and counts of every PTX file given (one `.entry` each, e.g. `weft ptx`'s output for the
//! kernels of tests/race), with and without pruning, one file each. Run it before and after
//! a change and `diff -r`: `cargo run -p weft-instrument --example dump_instr -- OUT F.ptx...`.
fn main() {
    let mut args = std::env::args().skip(1);
    let out = std::path::PathBuf::from(args.next().expect("OUT"));
    std::fs::create_dir_all(&out).unwrap();
    let (mut n, mut ok) = (0, 0);
    for f in args {
        let ptx = std::fs::read_to_string(&f).unwrap();
        let mut s = String::new();
        for prune in [false, true] {
            n += 1;
            match weft_instrument::instrument(&ptx, &weft_instrument::Options { prune }) {
                Ok(i) => {
                    ok += 1;
                    s += &format!(
                        "== prune={prune}\n{}\n{:#?}\n{:#?}\n",
                        i.ptx, i.sites, i.stats
                    );
                }
                Err(e) => s += &format!("== prune={prune} error: {e}\n"),
            }
        }
        let name = std::path::Path::new(&f)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        std::fs::write(out.join(name), s).unwrap();
    }
    eprintln!("{n} rewritings, {ok} accepted");
}
