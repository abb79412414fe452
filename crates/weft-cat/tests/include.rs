//! `include` resolution: through a closure, through the file system with a search path,
//! include-once semantics, and the built-in library files.

use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;

use weft_cat::{builtin_library, EvalOptions, Event, ExecutionBase, Model};

fn exec() -> ExecutionBase {
    let mut x = ExecutionBase::new();
    let i = x.add_event(Event::init_write(0));
    let w = x.add_event(Event::write(0, 0));
    let r = x.add_event(Event::read(1, 0));
    x.add_edge("co", i, w);
    x.add_edge("rf", w, r);
    x
}

#[test]
fn closure_resolver_splices_definitions() {
    let files: HashMap<&str, &str> = HashMap::from([
        ("com.cat", "\"communications\"\nlet com = rf | co | fr"),
        ("checks.cat", "include \"com.cat\"\nacyclic po | com as sc"),
    ]);
    let mut resolve = |name: &str| files.get(name).map(|s| s.to_string());
    let m = Model::parse_with(
        "main.cat",
        "\"SC by parts\"\ninclude \"com.cat\"\ninclude \"checks.cat\"\nempty com \\ (rf | co | fr) as defined",
        &mut resolve,
    )
    .unwrap();
    // com.cat is included once; the second include is skipped with a warning.
    assert_eq!(m.warnings.len(), 1, "{:?}", m.warnings);
    assert!(m.warnings[0].contains("checks.cat:1:1") && m.warnings[0].contains("com.cat"));
    assert_eq!(m.files.len(), 3);
    assert_eq!(m.check_names(), vec!["sc", "defined"]);
    let e = m.evaluate(&exec(), &EvalOptions::default()).unwrap();
    assert!(e.allowed());
    assert_eq!(e.runs[0].checks.len(), 2);
}

#[test]
fn builtin_library_files_are_available_everywhere() {
    assert!(builtin_library("stdlib.cat").is_some());
    assert!(builtin_library("cos.cat").is_some());
    let m = Model::parse(
        "m.cat",
        "include \"stdlib.cat\"\ninclude \"cos.cat\"\nacyclic po | rf | co | fr",
    )
    .unwrap();
    assert_eq!(m.files.len(), 3);
    assert!(m.files[1].name.starts_with("<builtin>/"));
}

fn scratch_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("weft-cat-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(d.join("lib")).unwrap();
    fs::create_dir_all(d.join("models")).unwrap();
    d
}

#[test]
fn file_system_resolver_searches_next_to_the_file_then_the_path() {
    let d = scratch_dir("fs");
    fs::write(
        d.join("models/main.cat"),
        "\"main\"\ninclude \"local.cat\"\ninclude \"shared.cat\"\nacyclic hb as hb-acyclic",
    )
    .unwrap();
    fs::write(d.join("models/local.cat"), "\"local\"\nlet base = po | rf").unwrap();
    fs::write(d.join("lib/shared.cat"), "\"shared\"\nlet hb = base+").unwrap();
    let m = Model::load(&d.join("models/main.cat"), &[d.join("lib")])
        .unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(m.name.as_deref(), Some("main"));
    assert!(m.files[2].name.ends_with("shared.cat"));
    assert!(m
        .evaluate(&exec(), &EvalOptions::default())
        .unwrap()
        .allowed());

    // Without the search path, shared.cat is not found; the error points at the include.
    let e = Model::load(&d.join("models/main.cat"), &[]).unwrap_err();
    assert_eq!((e.line(), e.col()), (Some(3), Some(1)));
    assert!(e.message.contains("shared.cat"));

    // A cycle through the file system, spelled with different relative paths.
    fs::write(d.join("models/x.cat"), "include \"../models/y.cat\"").unwrap();
    fs::write(d.join("models/y.cat"), "include \"x.cat\"").unwrap();
    let e = Model::load(&d.join("models/x.cat"), &[]).unwrap_err();
    assert!(e.message.starts_with("include cycle:"), "{}", e.message);
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn models_can_be_shared_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Model>();
    let m = std::sync::Arc::new(Model::parse("sc.cat", "acyclic po | rf | co | fr as sc").unwrap());
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let m = m.clone();
            std::thread::spawn(move || {
                m.evaluate(&exec(), &EvalOptions::default())
                    .unwrap()
                    .allowed()
            })
        })
        .collect();
    for h in handles {
        assert!(h.join().unwrap());
    }
}
