//! Whole CUDA programs on weft's CUDA runtime (issue 26; docs/programs.md): `weft cc` builds
//! the small programs of `tests/programs/runtime/`, each run prints what its design says
//! (`NAME.expected`), and `weft exec`, `weft race -- ./app` and `weft memcheck` report what
//! the programs plant (source lines named by `// @MARK` comments).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{repo, scratch_in, stderr, stdout, weft};

fn src(name: &str) -> PathBuf {
    repo().join("tests/programs/runtime").join(name)
}

/// `FILE:LINE` of the line carrying `// @mark` in `name`.
fn marked(name: &str, mark: &str) -> String {
    let text = std::fs::read_to_string(src(name)).unwrap();
    let n = text
        .lines()
        .position(|l| l.contains(&format!("// @{mark}")))
        .unwrap_or_else(|| panic!("{name} has no @{mark}"));
    format!("{name}:{}", n + 1)
}

/// Builds `name` (extra `weft cc` options first) into a scratch directory; the executable.
fn build(name: &str, extra: &[&str]) -> PathBuf {
    let dir = scratch_in("programs", &format!("{name}{}", extra.join("")));
    let exe = dir.join("app");
    let s = src(name);
    let mut args = vec!["cc"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-o", exe.to_str().unwrap(), s.to_str().unwrap()]);
    let o = weft(&args);
    assert!(o.status.success(), "weft cc {name}: {}", stderr(&o));
    exe
}

fn run(exe: &Path, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(exe);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(src(name).with_extension("expected")).unwrap()
}

#[test]
fn programs_print_what_their_design_says() {
    for name in [
        "basic.cu",
        "memcpy_kinds.cu",
        "symbols.cu",
        "managed.cu",
        "managed_vars.cu",
        "cuda_arch.cu",
        "dynshared.cu",
        "errors.cu",
    ] {
        let o = run(&build(name, &[]), &[]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert_eq!(stdout(&o), expected(name), "{name}");
    }
}

#[test]
fn old_launch_abi() {
    let exe = build("basic.cu", &["--old-launch-abi"]);
    let o = run(&exe, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), expected("basic.cu"));
}

#[test]
fn emulated_device_properties_come_from_the_environment() {
    let o = run(
        &build("errors.cu", &[]),
        &[("WEFT_DEVICE", "threads=256,shared=1024")],
    );
    let out = stdout(&o);
    assert!(out.contains("max threads 256 shared 1024"), "{out}");
}

#[test]
fn exec_passes_output_and_exit_code_through() {
    let s = src("basic.cu");
    let o = weft(&["exec", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), expected("basic.cu"));
}

#[test]
fn unimplemented_api_stops_with_exit_3() {
    let s = src("unsupported.cu");
    let o = weft(&["exec", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert_eq!(stdout(&o), "before\n");
    assert!(
        stderr(&o).contains("cudaMallocPitch is not implemented"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn host_dereference_of_a_device_pointer_crashes() {
    let exe = build("host_deref.cu", &[]);
    let o = weft(&["exec", "--", exe.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(128 + 11), "{}", stderr(&o));
    assert_eq!(stdout(&o), "before\n");
    assert!(stderr(&o).contains("signal 11 (SIGSEGV"), "{}", stderr(&o));
}

#[test]
fn race_on_a_program_groups_races_across_launches() {
    let s = src("race_counter.cu");
    let o = weft(&["race", "--json", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let line = stdout(&o).lines().last().unwrap().to_string();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    let races = v["races"].as_array().unwrap();
    assert!(!races.is_empty());
    let at = marked("race_counter.cu", "race");
    for r in races {
        assert_eq!(r["first"]["line"], at.as_str());
        assert_eq!(r["second"]["line"], at.as_str());
        assert_eq!(r["launches"], 2, "both launches show it: {r}");
    }
    assert_eq!(v["launches"].as_array().unwrap().len(), 2);
    let o = weft(&["race", s.to_str().unwrap(), "-D", "FIXED"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("0 races, 0 findings in 2 launches"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn race_error_exitcode_and_program_arguments() {
    let exe = build("race_counter.cu", &[]);
    let o = weft(&[
        "race",
        "--error-exitcode",
        "7",
        "--",
        exe.to_str().unwrap(),
        "ignored-arg",
    ]);
    assert_eq!(o.status.code(), Some(7), "{}", stderr(&o));
}

#[test]
fn memcheck_reports_planted_errors_by_allocation() {
    let s = src("memcheck_errors.cu");
    let o = weft(&["memcheck", "--initcheck", "--json", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let line = stdout(&o).lines().last().unwrap().to_string();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    let errs = v["memcheck"].as_array().unwrap();
    let kinds: Vec<&str> = errs.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["oob", "uninit", "api", "leak"], "{line}");
    let oob = &errs[0];
    assert_eq!(oob["at"], marked("memcheck_errors.cu", "oob").as_str());
    assert_eq!(oob["what"], "Invalid __global__ write of size 4 bytes");
    let detail: Vec<&str> = oob["detail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    assert!(
        detail.contains(&"by thread (64,0,0) in block (0,0,0)"),
        "{detail:?}"
    );
    assert!(
        detail.iter().any(
            |d| d.starts_with("and is 0 bytes after the nearest allocation")
                && d.ends_with("of size 256 bytes")
        ),
        "{detail:?}"
    );
    assert_eq!(
        errs[1]["at"],
        marked("memcheck_errors.cu", "uninit").as_str()
    );
    assert!(errs[2]["what"]
        .as_str()
        .unwrap()
        .ends_with("on CUDA API call to cudaFree."));
    assert!(errs[3]["what"]
        .as_str()
        .unwrap()
        .starts_with("Leaked 128 bytes"));
    let c = src("memcheck_clean.cu");
    let o = weft(&["memcheck", "--initcheck", c.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).ends_with("========= ERROR SUMMARY: 0 errors\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn timeout_stops_a_spinning_launch_and_keeps_the_report() {
    let s = src("spin.cu");
    let o = weft(&["race", "--timeout", "2", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("first done\n"), "{out}");
    assert!(
        out.contains("only the launches above were analysed"),
        "{out}"
    );
    assert!(out.contains("in 1 launch;"), "{out}");
    assert!(stderr(&o).contains("--timeout 2s"), "{}", stderr(&o));
}

#[test]
fn cc_rejects_bad_input() {
    let o = weft(&["cc", "--bogus", "x.cu"]);
    assert_eq!(o.status.code(), Some(2));
    let dir = scratch_in("programs", "bad-src");
    let f = dir.join("bad.cu");
    std::fs::write(
        &f,
        "__global__ void k(int *a) { a[0] = ; }\nint main() { return 0; }\n",
    )
    .unwrap();
    let o = weft(&[
        "cc",
        "-o",
        dir.join("a").to_str().unwrap(),
        f.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("bad.cu:1"), "{}", stderr(&o));
}

#[test]
fn default_definition_reports_block_scoped_atomics_across_blocks() {
    // Issue 26 item 3: `scoped` is the default; BARRACUDA's definition stays an option.
    let s = src("atomic_block.cu");
    let o = weft(&["race", "--json", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let line = stdout(&o).lines().last().unwrap().to_string();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["definition"], "scoped");
    let races = v["races"].as_array().unwrap();
    assert_eq!(races.len(), 1, "{line}");
    assert_eq!(races[0]["kind"], "atomic-scope");
    assert_eq!(races[0]["class"], "inter-block");
    assert_eq!(
        races[0]["first"]["line"],
        marked("atomic_block.cu", "scope").as_str()
    );
    let o = weft(&["race", "--definition", "barracuda", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("0 races, 0 findings in 1 launch; definition barracuda"));
}

#[test]
fn device_printf_prints_cuda_formats_at_the_launch_end() {
    // Expected stdout: C's printf of the program's values (checked against glibc's printf),
    // the device lines after the host's earlier line, lanes in increasing order.
    let name = "device_printf.cu";
    let o = weft(&["exec", src(name).to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), expected(name));
    assert_eq!(stderr(&o), "");
}

#[test]
fn device_assert_fails_the_launch_with_cudas_message() {
    let name = "device_assert.cu";
    let s = src(name);
    let o = weft(&["exec", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "sync: 710 cudaErrorAssert\nmemcpy after: 710 cudaErrorAssert\n"
    );
    let line = marked(name, "assert");
    let line = line.rsplit(':').next().unwrap();
    assert_eq!(
        stderr(&o),
        format!(
            "{}:{line}: void check(int *): block: [1,0,0], thread: [2,0,0] Assertion \
             `!(blockIdx.x == 1 && threadIdx.x == 2)` failed.\n",
            s.display()
        )
    );
}

#[test]
fn a_copy_at_another_path_names_its_own_file() {
    // The assert message carries `__FILE__`, compiled into the PTX: two copies of one source
    // sharing one compile cache must each name their own path (the cache once keyed only the
    // file name, and a checkout copied elsewhere printed the first copy's path).
    let name = "device_assert.cu";
    let text = std::fs::read_to_string(src(name)).unwrap();
    let root = scratch_in("programs", "cache-paths");
    let cache = root.join("cache");
    let line = marked(name, "assert");
    let line = line.rsplit(':').next().unwrap();
    for sub in ["a", "b"] {
        let dir = root.join(sub);
        std::fs::create_dir_all(&dir).unwrap();
        let copy = dir.join(name);
        std::fs::write(&copy, &text).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_weft"))
            .args(["exec", copy.to_str().unwrap()])
            .env("WEFT_CACHE_DIR", &cache)
            .env_remove("WEFT_NO_CACHE")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let want = format!("{}:{line}: void check(int *)", copy.display());
        assert!(stderr(&o).starts_with(&want), "{sub}: {}", stderr(&o));
    }
}

#[test]
fn graph_program_with_input_file_and_geometry_arguments() {
    // A CSR graph read from a file named on the command line, `threads_per_block num_blocks`
    // arguments, five BFS launches: levels equal the CPU reference; no race in the correct
    // version; with -DPLANTED only the planted unsynchronised counter line races.
    let s = src("graph_bfs.cu");
    let g = src("graph_200_1000.txt");
    let args = [
        "race",
        "--json",
        s.to_str().unwrap(),
        "--",
        g.to_str().unwrap(),
        "256",
        "4",
    ];
    let o = weft(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("levels match (200 nodes, 1000 edges"),
        "{out}"
    );
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(v["races"].as_array().unwrap().len(), 0, "{out}");
    assert_eq!(v["launches"][0]["block"], serde_json::json!([256, 1, 1]));
    assert_eq!(v["launches"][0]["grid"], serde_json::json!([4, 1, 1]));
    let mut planted = vec!["race", "--json", s.to_str().unwrap(), "-D", "PLANTED", "--"];
    planted.extend([g.to_str().unwrap(), "256", "4"]);
    let o = weft(&planted);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let at = marked("graph_bfs.cu", "planted");
    let races = v["races"].as_array().unwrap();
    assert!(!races.is_empty());
    for r in races {
        assert_eq!(r["first"]["line"], at.as_str(), "{r}");
        assert_eq!(r["second"]["line"], at.as_str(), "{r}");
    }
}

/// `memcheck_api.cu`: an invalid `cudaMemcpy` (not sticky), then a misaligned read, which
/// fails the launch with `cudaErrorMisalignedAddress` (716): the synchronisation and the
/// next copy return it, as CUDA documents for a sticky error; memcheck names both.
#[test]
fn memcheck_reports_misaligned_access_and_invalid_memcpy() {
    let s = src("memcheck_api.cu");
    let o = run(&build("memcheck_api.cu", &[]), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), expected("memcheck_api.cu"));
    let o = weft(&["memcheck", "--json", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with(&expected("memcheck_api.cu")), "{out}");
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let errs = v["memcheck"].as_array().unwrap();
    let kinds: Vec<&str> = errs.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["api", "misaligned"], "{out}");
    assert!(errs[0]["what"]
        .as_str()
        .unwrap()
        .ends_with("on CUDA API call to cudaMemcpy."));
    assert_eq!(
        errs[1]["at"],
        marked("memcheck_api.cu", "misaligned").as_str()
    );
    assert_eq!(errs[1]["what"], "Invalid __global__ read of size 4 bytes");
    let detail: Vec<&str> = errs[1]["detail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    assert!(
        detail.contains(&"by thread (0,0,0) in block (0,0,0)"),
        "{detail:?}"
    );
    assert!(
        detail.iter().any(|d| d.ends_with("is misaligned")),
        "{detail:?}"
    );
    assert_eq!(
        v["launches"][0]["error"], "cudaErrorMisalignedAddress",
        "{out}"
    );
}

/// `lock_order.cu`: a lock whose race shows only when block 1 takes it first. Round-robin
/// alone starts block 0 (no race, the old default and `--schedules 1`); by default a launch
/// this small is also checked under seeds 1-3 on a copy of device memory, which finds the
/// race between the two update lines, while the program's output stays the first run's,
/// printed once.
#[test]
fn small_launches_are_checked_under_more_schedules_by_default() {
    let exe = build("lock_order.cu", &[]);
    let want = expected("lock_order.cu");
    let o = run(&exe, &[]);
    assert_eq!(stdout(&o), want);
    let (u0, u1) = (
        marked("lock_order.cu", "update0"),
        marked("lock_order.cu", "update1"),
    );
    for (extra, code, scheds) in [
        (&[][..], 1, &["rr", "1", "2", "3"][..]),
        (&["--schedules", "1"][..], 0, &["rr"][..]),
    ] {
        let mut args = vec!["race", "--json"];
        args.extend_from_slice(extra);
        args.extend(["--", exe.to_str().unwrap()]);
        let o = weft(&args);
        assert_eq!(o.status.code(), Some(code), "{extra:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.starts_with(&want), "{extra:?}: {out}");
        assert_eq!(out.lines().count(), want.lines().count() + 1, "{out}");
        let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        assert_eq!(
            v["launches"][0]["schedules"],
            serde_json::json!(scheds),
            "{out}"
        );
        let races = v["races"].as_array().unwrap();
        assert_eq!(races.is_empty(), code == 0, "{out}");
        for r in races {
            let mut lines = [
                r["first"]["line"].as_str().unwrap(),
                r["second"]["line"].as_str().unwrap(),
            ];
            lines.sort();
            assert_eq!(lines, [u0.as_str(), u1.as_str()], "{r}");
        }
    }
    // The kernel alone follows the same default.
    let s = src("lock_order.cu");
    let kernel = [
        s.to_str().unwrap(),
        "--grid",
        "2",
        "--block",
        "1",
        "--buffer",
        "balance=1",
    ];
    for (extra, code) in [(&[][..], 1), (&["--schedules", "1"][..], 0)] {
        let mut args = vec!["race"];
        args.extend_from_slice(&kernel);
        args.extend_from_slice(extra);
        let o = weft(&args);
        assert_eq!(o.status.code(), Some(code), "{extra:?}: {}", stdout(&o));
    }
}

/// Kernels taking structs by value (`tests/programs/runtime/struct_param.cu`): clang reads
/// the fields through the parameter's address, which weft cc refused before (exit 2).
#[test]
fn struct_parameters_passed_by_value() {
    let exe = build("struct_param.cu", &[]);
    let o = run(&exe, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), expected("struct_param.cu"));
    let o = weft(&["memcheck", "--", exe.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

/// An out-of-bounds `__shared__` atomic (`shared_atomic_oob.cu`): one memcheck error naming
/// the access (before, only "the emulator stopped the launch" with no space).
#[test]
fn memcheck_names_an_out_of_bounds_shared_atomic() {
    let s = src("shared_atomic_oob.cu");
    let o = weft(&["memcheck", "--json", s.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let line = stdout(&o).lines().last().unwrap().to_string();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    let errs = v["memcheck"].as_array().unwrap();
    assert_eq!(errs.len(), 1, "{line}");
    let e = &errs[0];
    assert_eq!(e["kind"], "oob");
    assert_eq!(e["what"], "Invalid __shared__ atomic of size 4 bytes");
    assert_eq!(e["at"], marked("shared_atomic_oob.cu", "ATOM").as_str());
    let detail: Vec<&str> = e["detail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    assert!(
        detail.contains(&"by thread (4,0,0) in block (0,0,0)"),
        "{detail:?}"
    );
    assert!(
        detail
            .iter()
            .any(|d| d.starts_with("Address 0x10 is out of bounds")),
        "{detail:?}"
    );
}

#[test]
fn run_kernel_prints_device_printf_before_the_report() {
    // Two lanes, one warp instruction: lane 0's line, then lane 1's; printf returns the
    // number of arguments (2), which each lane stores.
    let s = src("printf_kernel.cu");
    let args = [
        "run-kernel",
        s.to_str().unwrap(),
        "--grid",
        "1",
        "--block",
        "2",
        "--buffer",
        "out=2",
    ];
    let o = weft(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("lane 0 of 2\nlane 1 of 2\nkernel "),
        "{out}"
    );
    assert!(out.contains("out (i32 x 2): 2 2\n"), "{out}");
}

#[test]
fn a_run_that_launched_nothing_is_not_reported_clean() {
    // tests/programs/runtime/no_launch.cu: its leading comment gives each case's exit code.
    let exe = build("no_launch.cu", &[]);
    let e = exe.to_str().unwrap();
    let race = |args: &[&str]| {
        let mut v = vec!["race", "--timeout", "3", "--", e];
        v.extend_from_slice(args);
        weft(&v)
    };
    let o = race(&[]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("nothing was checked: no kernel ran"), "{out}");
    assert!(!out.contains("0 races"), "{out}");
    let o = race(&["launch"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("0 races, 0 findings in 1 launch;"),
        "{}",
        stdout(&o)
    );
    let o = race(&["fail"]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stdout(&o).contains("nothing was checked"), "{}", stdout(&o));
    let o = race(&["crash"]);
    assert_eq!(o.status.code(), Some(128 + 11), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("nothing was checked: the program ended before it launched a kernel"),
        "{}",
        stdout(&o)
    );
    let o = race(&["spin"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("nothing was checked: the program ended during its first launch"),
        "{}",
        stdout(&o)
    );
    let o = weft(&["memcheck", "--", e]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("no device access was checked: no kernel ran"),
        "{out}"
    );
    assert!(out.contains("ERROR SUMMARY: 0 errors"), "{out}");
    let o = weft(&["memcheck", "--", e, "launch"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(!stdout(&o).contains("no device access"), "{}", stdout(&o));
}

#[test]
fn mc_runs_device_printf_and_reports_a_failing_assert() {
    // tests/programs/runtime/mc_syscalls.cu: its leading comment gives each variant's result.
    let s = src("mc_syscalls.cu");
    let mc = |defs: &[&str]| {
        let mut v = vec![
            "mc",
            "--json",
            s.to_str().unwrap(),
            "--grid",
            "1",
            "--block",
            "2",
            "--buffer",
            "out=2",
        ];
        v.extend_from_slice(defs);
        weft(&v)
    };
    let o = mc(&[]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let o = mc(&["-D", "FAIL"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let errs = v["errors"].as_array().unwrap();
    assert_eq!(errs.len(), 1, "{v}");
    assert_eq!(errs[0]["kind"], "assertion", "{v}");
    let line: u64 = marked("mc_syscalls.cu", "fails")
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(errs[0]["lines"][0], line, "{v}");
    let o = mc(&["-D", "NONCONST"]);
    assert_eq!(o.status.code(), Some(3), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("not supported by the model checker: a device printf"),
        "{}",
        stderr(&o)
    );
}
