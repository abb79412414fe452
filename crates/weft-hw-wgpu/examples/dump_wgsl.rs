//! A byte-identity dump of the WGSL path (issue 25): for every litmus file under the given
//! folders, the lowering (`Lowered`'s `Debug`, plain and with every location aliased) and,
//! under every stress preset, the generated test and result shaders, layout and notes (or
//! the refusal), one file per litmus file. Run it before and after a change and `diff -r`:
//! `cargo run -p weft-hw-wgpu --example dump_wgsl -- OUT tests/corpus ../shared/corpus`.
use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(args.next().expect("OUT"));
    let roots: Vec<PathBuf> = args.map(PathBuf::from).collect();
    std::fs::create_dir_all(&out).unwrap();
    let (mut files, mut accepted) = (0, 0);
    for f in weft_litmus::files::collect(&roots).into_iter().flatten() {
        let Ok(p) = weft_litmus::files::load(&f) else {
            continue;
        };
        files += 1;
        let mut s = String::new();
        let mut any = false;
        for aliased in [false, true] {
            let q = if aliased {
                weft_hw_wgpu::lower::alias_all(&p)
            } else {
                Ok(p.clone())
            };
            match q.and_then(|q| weft_hw_wgpu::lower::lower(&q)) {
                Ok(l) => {
                    any = true;
                    writeln!(s, "== lower aliased={aliased}\n{l:#?}").unwrap()
                }
                Err(e) => writeln!(s, "== lower aliased={aliased} error: {e}").unwrap(),
            }
        }
        for (preset, _) in weft_stress::Preset::all() {
            match weft_hw_wgpu::generate(&p, &preset.config()) {
                Ok(g) => writeln!(
                    s,
                    "== {}\n{}\n-- result\n{}\n-- layout\n{:#?}\n-- strengthened\n{:#?}",
                    preset.name(),
                    g.test_wgsl,
                    g.result_wgsl,
                    g.layout,
                    g.strengthened
                )
                .unwrap(),
                Err(e) => writeln!(s, "== {} error: {e}", preset.name()).unwrap(),
            }
        }
        if any {
            accepted += 1;
        }
        let name = f.to_string_lossy().replace('/', "__");
        std::fs::write(out.join(name), s).unwrap();
    }
    eprintln!("{files} files loaded, {accepted} lowered");
}
