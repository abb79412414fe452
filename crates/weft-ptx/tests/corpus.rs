//! Corpus test: every checked-in PTX file under `tests/data/` (generated once by clang-19
//! from the kernels in `tests/kernels/ptx-smoke/`, plus hand-written feature files) parses,
//! and printing then re-parsing gives the same tree. Set `WEFT_PTX_EXTRA_DIR` to also check
//! every `.ptx` file of another directory.

use std::path::{Path, PathBuf};

fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn check(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let m = weft_ptx::parse(&text).map_err(|e| e.render(&path.display().to_string()))?;
    let printed = m.to_string();
    let again = weft_ptx::parse(&printed)
        .map_err(|e| format!("{} (reprinted): {e}\n{printed}", path.display()))?;
    if again.to_string() != printed {
        return Err(format!("{}: printing is not stable", path.display()));
    }
    let a: Vec<String> = m.instructions().iter().map(|i| i.to_string()).collect();
    let b: Vec<String> = again.instructions().iter().map(|i| i.to_string()).collect();
    if a != b {
        return Err(format!(
            "{}: instructions changed on re-parse",
            path.display()
        ));
    }
    Ok(())
}

#[test]
fn every_checked_in_ptx_file_parses_and_round_trips() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let files = ptx_files(&dir);
    assert!(
        files.len() >= 8,
        "expected the checked-in PTX corpus in {}",
        dir.display()
    );
    let errors: Vec<String> = files.iter().filter_map(|f| check(f).err()).collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn extra_directory_parses() {
    let Ok(dir) = std::env::var("WEFT_PTX_EXTRA_DIR") else {
        return;
    };
    let files = ptx_files(Path::new(&dir));
    let errors: Vec<String> = files.iter().filter_map(|f| check(f).err()).collect();
    println!("checked {} extra files", files.len());
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
