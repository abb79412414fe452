//! The instrumented-PTX path on every kernel of `tests/race/`: the kernel's PTX is
//! rewritten to log into a device-side queue, the instrumented kernel runs on the SIMT
//! emulator, and the queue, decoded, must equal the emulator's native trace of the
//! uninstrumented kernel warp by warp (every warp's sequence of accesses — thread,
//! instruction, space, address, width, value stored —, `endi`, `if`/`else`/`fi` and barrier
//! arrivals, and every CTA's barrier completions), and give the same race report.
//! Fig. 9's shares (instructions instrumented before and after pruning) are printed.
//!
//! Both runs are scheduled run-to-block (round-robin, unbounded quantum): a warp runs until
//! it waits at a barrier or finishes, so the interleaving depends on the kernel's barriers
//! and exits only, not on how many instructions the instrumentation adds (with a bounded
//! quantum, spin loops and racy values legitimately differ between the two runs).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use weft_instrument::{decode_with_findings, instrument, queue_buffer, Options};
use weft_race::{Compressed, Definition, Detector, Geometry};
use weft_simt::spec::{bind, parse_buffer_spec, source_params, BufferSpec};
use weft_simt::{
    AccessEvent, AccessSpace, Arg, BranchEvent, Buffer, ElemType, LaunchConfig,
    Options as SimOptions, Schedule, TraceSink,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Ev {
    Access(u64, u32, &'static str, String, u64, u8, u64),
    Endi(u32, u32),
    Branch(&'static str, u32),
    Arrive(u32, u32, bool),
}

/// Events per warp and barrier completions per CTA.
#[derive(Default)]
struct Rec {
    block_threads: u32,
    warps: BTreeMap<u64, Vec<Ev>>,
    bars: BTreeMap<u64, Vec<u32>>,
}

impl TraceSink for Rec {
    fn access(&mut self, e: &AccessEvent) {
        let space = match e.space {
            AccessSpace::Local => return,
            AccessSpace::Global => "g".to_string(),
            AccessSpace::Shared(c) => format!("s{c}"),
        };
        let op = match e.op {
            weft_simt::AccessOp::Load => "ld",
            weft_simt::AccessOp::Store => "st",
            weft_simt::AccessOp::Atomic(_) => "atom",
        };
        let value = if op == "st" { e.value } else { 0 };
        let bt = u64::from(self.block_threads);
        let w = (e.tid / bt) * bt.div_ceil(32) + (e.tid % bt) / 32;
        self.warps
            .entry(w)
            .or_default()
            .push(Ev::Access(e.tid, e.pc, op, space, e.addr, e.width, value));
    }
    fn endi(&mut self, warp: u64, mask: u32, pc: u32) {
        self.warps.entry(warp).or_default().push(Ev::Endi(mask, pc));
    }
    fn branch(&mut self, ev: BranchEvent, warp: u64, mask: u32) {
        let k = match ev {
            BranchEvent::If => "if",
            BranchEvent::Else => "else",
            BranchEvent::Fi => "fi",
        };
        self.warps
            .entry(warp)
            .or_default()
            .push(Ev::Branch(k, mask));
    }
    fn bar_arrive(&mut self, _cta: u64, warp: u64, mask: u32, id: u32, wait: bool, _pc: u32) {
        self.warps
            .entry(warp)
            .or_default()
            .push(Ev::Arrive(mask, id, wait));
    }
    fn bar(&mut self, cta: u64, id: u32, _all: bool) {
        self.bars.entry(cta).or_default().push(id);
    }
}

/// Feeds both a recorder and a detector.
struct Both<'a>(&'a mut Rec, &'a mut Detector<Compressed>);
impl TraceSink for Both<'_> {
    fn access(&mut self, e: &AccessEvent) {
        self.0.access(e);
        self.1.access(e);
    }
    fn endi(&mut self, w: u64, m: u32, pc: u32) {
        self.0.endi(w, m, pc);
        self.1.endi(w, m, pc);
    }
    fn branch(&mut self, ev: BranchEvent, w: u64, m: u32) {
        self.0.branch(ev, w, m);
        self.1.branch(ev, w, m);
    }
    fn bar_arrive(&mut self, c: u64, w: u64, m: u32, id: u32, wait: bool, pc: u32) {
        self.0.bar_arrive(c, w, m, id, wait, pc);
        self.1.bar_arrive(c, w, m, id, wait, pc);
    }
    fn bar(&mut self, c: u64, id: u32, all: bool) {
        self.0.bar(c, id, all);
        self.1.bar(c, id, all);
    }
}

struct Case {
    name: String,
    ptx: String,
    source: String,
    launch: LaunchConfig,
    specs: Vec<BufferSpec>,
    scalars: Vec<(String, String)>,
    schedule: Schedule,
}

fn load(expect: &Path) -> Option<Case> {
    let name = expect.file_stem()?.to_str()?.to_string();
    let src = ["cu", "cl"]
        .iter()
        .map(|e| expect.with_extension(e))
        .find(|p| p.is_file())?;
    let source = std::fs::read_to_string(&src).ok()?;
    let opts = weft_cuda::CompileOptions {
        extra_args: vec!["-gline-tables-only".into()],
        ..weft_cuda::CompileOptions::default()
    };
    let k = weft_cuda::compile_kernel_file(&src, &opts).expect("compiles");
    let mut launch = k.header.launch.map(|l| LaunchConfig {
        grid: l.grid,
        block: l.block,
    });
    let text = std::fs::read_to_string(expect).ok()?;
    let args: Vec<String> = text
        .lines()
        .find_map(|l| l.strip_prefix("args:"))
        .unwrap_or("")
        .split_whitespace()
        .map(String::from)
        .collect();
    let (mut specs, mut scalars, mut schedule) = (Vec::new(), Vec::new(), Schedule::RoundRobin);
    let mut i = 0;
    while i + 1 < args.len() {
        let v = &args[i + 1];
        match args[i].as_str() {
            "--buffer" => specs.push(parse_buffer_spec(v).expect("buffer")),
            "--arg" => {
                let (n, x) = v.split_once('=').expect("NAME=VALUE");
                scalars.push((n.to_string(), x.to_string()));
            }
            "--schedule" if v != "rr" => schedule = Schedule::Random(v.parse().expect("seed")),
            "--grid" | "--block" => {
                let d = weft_cuda::geometry::parse_dims(v).expect("dims");
                let l = launch.get_or_insert(LaunchConfig {
                    grid: [1; 3],
                    block: [1; 3],
                });
                if args[i] == "--grid" {
                    l.grid = d
                } else {
                    l.block = d
                }
            }
            _ => {}
        }
        i += 2;
    }
    Some(Case {
        name,
        ptx: k.ptx.ptx,
        source,
        launch: launch.expect("geometry"),
        specs,
        scalars,
        schedule,
    })
}

#[test]
fn queue_contents_decode_to_the_native_trace() {
    if std::process::Command::new("clang-19")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("clang-19 not installed: skipped");
        return;
    }
    let mut expects: Vec<PathBuf> = std::fs::read_dir(root().join("tests/race"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "expect"))
        .collect();
    expects.sort();
    let (mut same, mut checked) = (0, 0);
    let mut problems = Vec::new();
    let (mut ins, mut before, mut after) = (0usize, 0usize, 0usize);
    for e in &expects {
        let Some(c) = load(e) else { continue };
        checked += 1;
        let module = weft_ptx::parse(&c.ptx).unwrap();
        let kernel = weft_ptx::lower_kernel(&module, None).unwrap();
        let sp = source_params(
            &c.source,
            weft_cuda::compiler::demangle_simple(&kernel.name),
        );
        let (args, buffers) = bind(&kernel, sp.as_deref(), &c.specs, &c.scalars).unwrap();
        let geo = Geometry {
            block_threads: c.launch.block_threads() as u32,
            ctas: c.launch.grid_ctas() as u32,
        };
        let _ = c.schedule;
        let opts = SimOptions {
            schedule: Schedule::RoundRobin,
            quantum: u32::MAX,
            max_steps: 1 << 26,
            ..SimOptions::default()
        };
        // Native.
        let mut native = Rec {
            block_threads: geo.block_threads,
            ..Rec::default()
        };
        let mut dn: Detector<Compressed> = Detector::new(&kernel, geo, Definition::Barracuda);
        let on = weft_simt::run_with_sink(
            &kernel,
            c.launch,
            &args,
            buffers.clone(),
            &opts,
            None,
            Some(&mut Both(&mut native, &mut dn)),
        )
        .unwrap();
        // Instrumented.
        let inst = match instrument(&c.ptx, &Options::default()) {
            Ok(i) => i,
            Err(err) => {
                problems.push(format!("{}: not instrumented: {err}", c.name));
                continue;
            }
        };
        let pruned = instrument(&c.ptx, &Options { prune: true }).unwrap();
        ins += pruned.stats.instructions;
        before += pruned.stats.instrumented;
        after += pruned.stats.instrumented_pruned;
        let im = match weft_ptx::parse(&inst.ptx) {
            Ok(m) => m,
            Err(err) => {
                problems.push(format!(
                    "{}: instrumented PTX does not parse: {err}",
                    c.name
                ));
                continue;
            }
        };
        let ik = match weft_ptx::lower_kernel(&im, None) {
            Ok(k) => k,
            Err(err) => {
                problems.push(format!(
                    "{}: instrumented PTX does not lower: {err}",
                    c.name
                ));
                continue;
            }
        };
        // Three queues (CTA c logs into queue c % 3), merged by ticket when decoding.
        let mut q = Buffer::zeroed("__wq_queue", ElemType::U8, 0);
        q.data = queue_buffer(3, 1 << 14);
        let mut iargs: Vec<Arg> = args.clone();
        iargs.push(Arg::Buffer(buffers.len()));
        let mut ibufs = buffers.clone();
        ibufs.push(q);
        let oi = match weft_simt::run(&ik, c.launch, &iargs, ibufs, &opts, None) {
            Ok(o) => o,
            Err(err) => {
                problems.push(format!("{}: instrumented run failed: {err}", c.name));
                continue;
            }
        };
        let queue = &oi.buffers.last().unwrap().data;
        let mut decoded = Rec {
            block_threads: geo.block_threads,
            ..Rec::default()
        };
        let mut dd: Detector<Compressed> = Detector::new(&kernel, geo, Definition::Barracuda);
        let mut bf = Vec::new();
        if let Err(err) = decode_with_findings(
            queue,
            &inst.sites,
            geo.block_threads,
            geo.ctas,
            &mut Both(&mut decoded, &mut dd),
            &mut bf,
        ) {
            problems.push(format!("{}: {err}", c.name));
            continue;
        }
        // The decoder's barrier divergence (what `weft race --backend cuda` reports) agrees
        // with the emulator's on the same run.
        // (`bar.arrive` paired with `bar.sync` on one barrier is the producer/consumer
        // idiom, which `weft race` does not report either.)
        let arrives = kernel.arrive_positions();
        let emu_div = on.findings.iter().any(|f| match f {
            weft_simt::Finding::BarrierMismatch { positions, .. } => {
                !positions.iter().any(|p| arrives.contains(p))
            }
            f => f.to_string().starts_with("barrier divergence"),
        });
        if emu_div == bf.is_empty() {
            problems.push(format!(
                "{}: barrier divergence: emulator {emu_div}, decoder {bf:?}",
                c.name
            ));
        }
        let mut ok = true;
        for (w, evs) in &native.warps {
            let got = decoded.warps.get(w).cloned().unwrap_or_default();
            if &got != evs {
                let k = evs
                    .iter()
                    .zip(&got)
                    .position(|(a, b)| a != b)
                    .unwrap_or(evs.len().min(got.len()));
                problems.push(format!(
                    "{}: warp {w}: event {k} differs: native {:?} vs queue {:?} ({} vs {} events; native run completed: {}, instrumented: {})",
                    c.name,
                    evs.get(k),
                    got.get(k),
                    evs.len(),
                    got.len(),
                    on.completed,
                    oi.completed
                ));
                ok = false;
                break;
            }
        }
        if ok && decoded.warps.len() != native.warps.len() {
            problems.push(format!(
                "{}: {} warps logged, {} in the native trace",
                c.name,
                decoded.warps.len(),
                native.warps.len()
            ));
            ok = false;
        }
        if ok && decoded.bars != native.bars {
            problems.push(format!("{}: barrier completions differ", c.name));
            ok = false;
        }
        let mut rn = dn.finish();
        let mut rd = dd.finish();
        rn.resolve(|pc| kernel.describe_pos(pc as usize));
        rd.resolve(|pc| kernel.describe_pos(pc as usize));
        let key = |r: &weft_race::Report| {
            let mut v: Vec<(String, String, String)> = r
                .by_lines()
                .iter()
                .map(|x| {
                    let (a, b) = (x.first.line.clone(), x.second.line.clone());
                    (
                        x.kind.name().to_string(),
                        a.clone().min(b.clone()),
                        a.max(b),
                    )
                })
                .collect();
            v.sort();
            v.dedup();
            v
        };
        if ok && key(&rn) != key(&rd) {
            problems.push(format!(
                "{}: race reports differ: {:?} vs {:?}",
                c.name,
                key(&rn),
                key(&rd)
            ));
            ok = false;
        }
        if ok {
            same += 1;
        }
    }
    eprintln!(
        "instrumented PTX: {same} of {checked} suite kernels decode to their native trace; Fig. 9: {before} of {ins} static instructions instrumented ({:.1}%), {after} after pruning ({:.1}%)",
        100.0 * before as f64 / ins.max(1) as f64,
        100.0 * after as f64 / ins.max(1) as f64
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
