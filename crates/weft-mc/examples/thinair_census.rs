//! Counting the tests that get the no-thin-air note (docs/mc.md, "Limits"):
//! `cargo run -p weft-mc --example thinair_census -- MODEL DIR|FILE...` lists every litmus
//! test under the paths whose program has a dependency on a potential (po ∪ rf) cycle
//! (`weft_mc::thinair::dep_cycles`, one-location cycles counted for `ptx*` models), then
//! `flagged F of N`, each flagged test with its dependency edges.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: thinair_census MODEL DIR|FILE...");
        std::process::exit(2);
    }
    let one_location = args[1].starts_with("ptx");
    let mut files = Vec::new();
    for a in &args[2..] {
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
    let (mut n, mut flagged) = (0, 0);
    for f in &files {
        let Ok(src) = std::fs::read_to_string(f) else {
            continue;
        };
        let Ok(p) = weft_litmus::parse(&src) else {
            continue;
        };
        n += 1;
        let c = weft_mc::thinair::dep_cycles(&p, one_location);
        if !c.is_empty() {
            flagged += 1;
            println!("{}: {} edges", f.display(), c.len());
            let name = |l: u32| p.locations[l as usize].name.clone();
            for e in &c {
                println!("  {}", e.text(&name));
            }
        }
    }
    println!("flagged {flagged} of {n}");
}
