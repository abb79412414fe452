//! The two WGSL shaders of a run (paper 001 §3.2) and their buffer layout: the test shader
//! (many instances per dispatch, thread roles, memory stress, pre-stress, spin barrier,
//! bank conflicts) and the result-aggregation shader (copies final memory into each
//! instance's result row and counts seq/interleaved/weak with atomic counters against a
//! table of the SC-reachable outcomes computed by `classify`).

use std::fmt::Write as _;

use weft_litmus::classify::{address_value, Class, Classification};
use weft_stress::StressConfig;

use crate::error::CodegenError;
use crate::lower::{Lowered, Place};

/// Workgroup memory available to the test, in words (WebGPU's default 16 KiB).
pub const WORKGROUP_WORDS: u32 = 4096;
/// Iterations a testing invocation spins at the barrier before going on (GPUHarbor: 1024).
pub const SPIN_LIMIT: u32 = 1024;
/// Invocations per workgroup of the result-aggregation shader.
pub const RESULT_WG: u32 = 256;
/// Words of workgroup memory hit by the bank-conflict incantation.
pub const BANK_WORDS: u32 = 1024;

/// Where each value of an outcome comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Word `i` of the instance's result row.
    Gpu(u32),
    /// A constant (a register holding a location's address).
    Const(i64),
}

/// Sizes and layout of the buffers of one generated test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub workgroup_size: u32,
    pub testing_workgroups: u32,
    /// Test instances per dispatch (`testingWorkgroups × workgroupSize`).
    pub instances: u64,
    /// Words of each instance's result row.
    pub row_words: u32,
    /// Storage cells per instance, and their stride.
    pub storage_locs: u32,
    pub mem_stride: u32,
    /// Words of the storage test buffer.
    pub mem_words: u64,
    /// Initial value per storage slot.
    pub storage_init: Vec<i32>,
    /// Workgroup cells per instance and their stride.
    pub workgroup_locs: u32,
    pub workgroup_stride: u32,
    /// For every register of every thread (thread-major), then every location: its slot.
    pub slots: Vec<Slot>,
    pub reg_counts: Vec<usize>,
    pub loc_count: usize,
    /// Workgroups the threads of one instance span.
    pub groups: u32,
    /// The result shader's outcome table: `[entries, (row values…, class)…]`.
    pub table: Vec<i32>,
}

fn class_code(c: Class) -> i32 {
    match c {
        Class::Seq => 0,
        Class::Interleaved => 1,
        Class::Weak => 2,
    }
}

fn modpow(b: u64, e: u32, m: u64) -> u64 {
    let mut r = 1 % m;
    for _ in 0..e {
        r = r * (b % m) % m;
    }
    r
}

/// The inverse of `a` modulo `m` (`a` coprime with `m`).
fn modinv(a: u64, m: u64) -> u64 {
    if m == 1 {
        return 0;
    }
    let (mut t, mut nt, mut r, mut nr) = (0i64, 1i64, m as i64, (a % m) as i64);
    while nr != 0 {
        let q = r / nr;
        (t, nt) = (nt, t - q * nt);
        (r, nr) = (nr, r - q * nr);
    }
    t.rem_euclid(m as i64) as u64
}

/// The two shaders and their layout.
pub struct Shaders {
    pub test: String,
    pub result: String,
    pub layout: Layout,
}

/// Builds the shaders for a lowered program under `cfg`.
pub fn build(
    p: &weft_ir::Program,
    l: &Lowered,
    cfg: &StressConfig,
    class: &Classification,
) -> Result<Shaders, CodegenError> {
    let wg = cfg.workgroup_size;
    let t = cfg.testing_workgroups;
    if l.groups > 1 && t < l.groups {
        return Err(CodegenError::new(format!(
            "the test's threads need {} different workgroups but testingWorkgroups = {t}; raise testingWorkgroups to at least {}",
            l.groups, l.groups
        )));
    }
    if l.max_rank > wg {
        return Err(CodegenError::new(format!(
            "{} threads of the test share a workgroup but workgroupSize = {wg}; raise workgroupSize",
            l.max_rank
        )));
    }
    let n = cfg.instances_per_dispatch();
    let nl = l.storage_init.len() as u32;
    let stride = cfg.mem_stride;
    let mem_words = (n * nl.max(1) as u64 * stride as u64).max(1);
    if mem_words > (1 << 28) {
        return Err(CodegenError::new(format!(
            "the test memory would take {mem_words} words (instances × locations × memStride): too large; lower testingWorkgroups, workgroupSize or memStride"
        )));
    }
    let nw = l.workgroup_init.len() as u32;
    let mut wstride = 0;
    if nw > 0 {
        let per = wg * nw;
        if per > WORKGROUP_WORDS {
            return Err(CodegenError::new(format!(
                "{nw} workgroup-memory location(s) × workgroupSize {wg} exceed the {WORKGROUP_WORDS} words of workgroup memory; lower workgroupSize"
            )));
        }
        wstride = stride.min(WORKGROUP_WORDS / per).max(1);
    }

    // Outcome slots: registers thread-major, then locations.
    let mut slots = Vec::new();
    let mut row = 0u32;
    let mut reg_slot = Vec::new();
    for (ti, th) in l.threads.iter().enumerate() {
        let mut v = Vec::new();
        for (ri, r) in th.regs.iter().enumerate() {
            match r {
                Some(_) => {
                    slots.push(Slot::Gpu(row));
                    v.push(Some(row));
                    row += 1;
                }
                None => {
                    let loc = p.threads[ti].regs[ri]
                        .init
                        .and_then(|x| match x {
                            weft_ir::Value::Addr(loc) => Some(loc),
                            _ => None,
                        })
                        .unwrap_or(weft_ir::LocId(0));
                    slots.push(Slot::Const(address_value(loc, 0)));
                    v.push(None);
                }
            }
        }
        reg_slot.push(v);
    }
    let mut loc_slot = Vec::new();
    for _ in &l.places {
        slots.push(Slot::Gpu(row));
        loc_slot.push(row);
        row += 1;
    }
    let row_words = row;

    // The outcome table from the SC classification (paper 001 §3.2 behaviours).
    let mut table = vec![0i32];
    let mut entries = 0;
    'outcomes: for (o, c) in class.outcomes() {
        let mut vals = vec![0i32; row_words as usize];
        let mut s = 0;
        for (ti, th) in l.threads.iter().enumerate() {
            for ri in 0..th.regs.len() {
                let v = o.regs.get(ti).and_then(|r| r.get(ri)).copied().unwrap_or(0);
                match slots[s] {
                    Slot::Gpu(i) => match i32::try_from(v) {
                        Ok(x) => vals[i as usize] = x,
                        Err(_) => continue 'outcomes,
                    },
                    Slot::Const(k) if k != v => continue 'outcomes,
                    Slot::Const(_) => {}
                }
                s += 1;
            }
        }
        for (li, _) in l.places.iter().enumerate() {
            let v = o.mem.get(li).and_then(|m| m.first()).copied().unwrap_or(0);
            match i32::try_from(v) {
                Ok(x) => vals[loc_slot[li] as usize] = x,
                Err(_) => continue 'outcomes,
            }
        }
        table.extend(vals);
        table.push(class_code(c));
        entries += 1;
    }
    table[0] = entries;

    let layout = Layout {
        workgroup_size: wg,
        testing_workgroups: t,
        instances: n,
        row_words,
        storage_locs: nl,
        mem_stride: stride,
        mem_words,
        storage_init: l.storage_init.clone(),
        workgroup_locs: nw,
        workgroup_stride: wstride,
        slots,
        reg_counts: l.threads.iter().map(|t| t.regs.len()).collect(),
        loc_count: l.places.len(),
        groups: l.groups,
        table,
    };
    let common = common_wgsl(&layout, cfg, l);
    let test = test_wgsl(&layout, cfg, l, &reg_slot, &loc_slot, &common);
    let result = result_wgsl(&layout, l, &loc_slot, &common);
    Ok(Shaders {
        test,
        result,
        layout,
    })
}

/// Constants and the instance-to-cell mapping shared by both shaders.
fn common_wgsl(ly: &Layout, cfg: &StressConfig, l: &Lowered) -> String {
    let n = ly.instances;
    let mut s = String::new();
    let _ = writeln!(s, "const WG: u32 = {}u;", ly.workgroup_size);
    let _ = writeln!(s, "const T: u32 = {}u;", ly.testing_workgroups);
    let _ = writeln!(s, "const N: u32 = {n}u;");
    let _ = writeln!(s, "const NL: u32 = {}u;", ly.storage_locs.max(1));
    let _ = writeln!(s, "const STRIDE: u32 = {}u;", ly.mem_stride);
    let _ = writeln!(s, "const ROW: u32 = {}u;", ly.row_words);
    s.push_str(
        "
// a * b mod m without 32-bit overflow (m < 2^31).
fn mulmod(a: u32, b: u32, m: u32) -> u32 {
    var r = 0u;
    var x = a % m;
    var y = b;
    loop {
        if (y == 0u) { break; }
        if ((y & 1u) == 1u) { r = (r + x) % m; }
        x = (x + x) % m;
        y = y >> 1u;
    }
    return r;
}
",
    );
    // Storage slot j of instance i: (permuteSecond^j · i mod N) · NL + j, times memStride
    // (GPUHarbor: x = id·stride·2, y = perm(id)·stride·2 + stride for two locations).
    for j in 0..ly.storage_locs {
        let ps = modpow(cfg.permute_second as u64, j, n.max(1));
        let _ = writeln!(
            s,
            "fn cell_s{j}(i: u32) -> u32 {{ return (mulmod(i, {ps}u, N) * NL + {j}u) * STRIDE; }}"
        );
    }
    let _ = l;
    s
}

fn test_wgsl(
    ly: &Layout,
    cfg: &StressConfig,
    l: &Lowered,
    reg_slot: &[Vec<Option<u32>>],
    loc_slot: &[u32],
    common: &str,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// weft litmus test shader (paper 001 §3.2): {} instances per dispatch.",
        ly.instances
    );
    s.push_str(
        "struct Params {
    dispatched: u32,
    do_barrier: u32,
    mem_stress: u32,
    pre_stress: u32,
    mem_pattern: u32,
    pre_pattern: u32,
    bank_mode: u32,
    pad: u32,
}
@group(0) @binding(0) var<storage, read_write> mem: array<atomic<i32>>;
@group(0) @binding(1) var<storage, read_write> res: array<i32>;
@group(0) @binding(2) var<storage, read_write> scratch: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> sync: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read> shuffle: array<u32>;
@group(0) @binding(5) var<storage, read> lines: array<u32>;
@group(0) @binding(6) var<uniform> params: Params;
var<workgroup> wg_id: u32;
",
    );
    if ly.workgroup_locs > 0 {
        let _ = writeln!(
            s,
            "var<workgroup> wmem: array<atomic<i32>, {}>;",
            ly.workgroup_size * ly.workgroup_locs * ly.workgroup_stride
        );
    }
    if cfg.bank_conflicts {
        let _ = writeln!(s, "var<workgroup> bank: array<atomic<u32>, {BANK_WORDS}>;");
    }
    s.push_str(common);
    let _ = writeln!(s, "const LINE: u32 = {}u;", cfg.stress_line_size);
    let _ = writeln!(s, "const MEM_ITERS: u32 = {}u;", cfg.mem_stress_iterations);
    let _ = writeln!(s, "const PRE_ITERS: u32 = {}u;", cfg.pre_stress_iterations);
    let _ = writeln!(s, "const SPIN_LIMIT: u32 = {SPIN_LIMIT}u;");
    s.push_str(
        "
fn safe_div(a: i32, b: i32) -> i32 { if (b == 0i) { return 0i; } return a / b; }
fn safe_rem(a: i32, b: i32) -> i32 { if (b == 0i) { return 0i; } return a % b; }

// Memory stress (paper 000 §4.3.1; GPUHarbor's access patterns: (S,S)=0 (S,L)=1 (L,S)=2 (L,L)=3).
fn stress(iters: u32, pattern: u32, base: u32, lid: u32) {
    let a = base + (lid % LINE);
    for (var i = 0u; i < iters; i = i + 1u) {
        if (pattern == 0u) {
            atomicStore(&scratch[a], i);
            atomicStore(&scratch[a], i + 1u);
        } else if (pattern == 1u) {
            atomicStore(&scratch[a], i);
            _ = atomicLoad(&scratch[a]);
        } else if (pattern == 2u) {
            _ = atomicLoad(&scratch[a]);
            atomicStore(&scratch[a], i);
        } else {
            _ = atomicLoad(&scratch[a]);
            _ = atomicLoad(&scratch[a]);
        }
    }
}

// Thread synchronisation (paper 000 §4.3.4): a bounded spin barrier of all testing invocations.
fn spin() {
    atomicAdd(&sync[0], 1u);
    var i = 0u;
    loop {
        if (atomicLoad(&sync[0]) >= N || i >= SPIN_LIMIT) { break; }
        i = i + 1u;
    }
}
",
    );
    s.push_str(
        "
@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) l: u32) {
    if (l == 0u) { wg_id = shuffle[wid.x]; }
    let w = workgroupUniformLoad(&wg_id);
    if (w >= T) {
        if (params.mem_stress == 1u) { stress(MEM_ITERS, params.mem_pattern, lines[wid.x], l); }
        return;
    }
",
    );
    instances(&mut s, ly, cfg, l);
    body(&mut s, ly, cfg, l, reg_slot, loc_slot);
    s
}

/// The instances each invocation plays, one per test thread (paper 000 §4.2's
/// permutations), its cells and its registers' initial values.
fn instances(s: &mut String, ly: &Layout, cfg: &StressConfig, l: &Lowered) {
    let wg = ly.workgroup_size as u64;
    let t = ly.testing_workgroups as u64;
    let pf = cfg.permute_first as u64 % wg;
    let pfinv = modinv(pf, wg);
    // Rank offset within a group (distinct invocations for threads sharing a workgroup).
    let off = if l.max_rank > 1 {
        1 + (cfg.permute_first as u64 % ((wg - 1) / (l.max_rank as u64 - 1)).max(1))
    } else {
        0
    };
    // Workgroup step between groups, bounded so that the groups' workgroups differ.
    let q2 = if l.groups > 1 {
        ((t - 1) / (l.groups as u64 - 1)).max(1)
    } else {
        1
    };
    // Instances each invocation plays, one per test thread.
    for (k, th) in l.threads.iter().enumerate() {
        let c = th.group as u64;
        let r = th.rank as u64;
        let pfc = modpow(pf, th.group, wg);
        let _ = writeln!(
            s,
            "    let L{k} = ((l * {pfc}u) % WG + {}u) % WG;",
            (r * off) % wg
        );
        if c == 0 {
            let _ = writeln!(s, "    let i{k} = w * WG + L{k};");
        } else {
            let _ = writeln!(
                s,
                "    let i{k} = ((w + {c}u * (1u + ((L{k} * {pfinv}u) % WG) % {q2}u)) % T) * WG + L{k};"
            );
        }
        for (wgmem, j) in &th.places {
            if *wgmem {
                let _ = writeln!(
                    s,
                    "    let c{k}_w{j} = (L{k} * {}u + {j}u) * {}u;",
                    ly.workgroup_locs, ly.workgroup_stride
                );
            } else {
                let _ = writeln!(s, "    let c{k}_s{j} = cell_s{j}(i{k});");
            }
        }
        for (ri, init) in th.regs.iter().enumerate() {
            if let Some(v) = init {
                let _ = writeln!(s, "    var t{k}_r{ri}: i32 = {v}i;");
            }
        }
    }
}

/// Workgroup memory's initial values, pre-stress and the spin barrier, bank conflicts, each
/// phase's code between barriers, and the registers and workgroup memory written out.
fn body(
    s: &mut String,
    ly: &Layout,
    cfg: &StressConfig,
    l: &Lowered,
    reg_slot: &[Vec<Option<u32>>],
    loc_slot: &[u32],
) {
    for (j, v) in l.workgroup_init.iter().enumerate() {
        let _ = writeln!(
            s,
            "    atomicStore(&wmem[(l * {}u + {j}u) * {}u], {v}i);",
            ly.workgroup_locs, ly.workgroup_stride
        );
    }
    if ly.workgroup_locs > 0 {
        s.push_str("    workgroupBarrier();\n");
    }
    s.push_str(
        "    if (params.pre_stress == 1u) { stress(PRE_ITERS, params.pre_pattern, lines[wid.x], l); }
    if (params.do_barrier == 1u) { spin(); }
",
    );
    if cfg.bank_conflicts {
        // Paper 000 §4.3.2: accesses that do (stride 32 words: one bank) or do not (stride
        // 1) conflict, chosen per dispatch.
        s.push_str(
            "    let b = select(l % BANK_WORDS_C, (l * 32u) % BANK_WORDS_C, params.bank_mode == 1u);
    atomicStore(&bank[b], l);
    _ = atomicLoad(&bank[b]);
"
            .replace("BANK_WORDS_C", &format!("{BANK_WORDS}u"))
            .as_str(),
        );
    }
    let barrier = match l.barrier_spaces {
        (true, true) => "    storageBarrier();\n    workgroupBarrier();\n",
        (false, true) => "    workgroupBarrier();\n",
        _ => "    storageBarrier();\n",
    };
    for ph in 0..l.phases {
        if ph > 0 {
            s.push_str(barrier);
        }
        for (k, th) in l.threads.iter().enumerate() {
            if let Some(code) = th.phases.get(ph) {
                if !code.is_empty() {
                    let _ = writeln!(s, "    // {} (phase {ph})", th.name);
                    s.push_str(code);
                }
            }
            let _ = k;
        }
    }
    // Registers go to the instance each invocation played.
    for (k, th) in l.threads.iter().enumerate() {
        for (ri, slot) in reg_slot[k].iter().enumerate() {
            if let Some(sl) = slot {
                let _ = writeln!(s, "    res[i{k} * ROW + {sl}u] = t{k}_r{ri};");
            }
        }
        let _ = th;
    }
    // Final workgroup memory of the instance this invocation's workgroup slot holds.
    if ly.workgroup_locs > 0 {
        s.push_str("    workgroupBarrier();\n");
        for (li, pl) in l.places.iter().enumerate() {
            if let Place::Workgroup(j) = pl {
                let _ = writeln!(
                    s,
                    "    res[(w * WG + l) * ROW + {}u] = atomicLoad(&wmem[(l * {}u + {j}u) * {}u]);",
                    loc_slot[li], ly.workgroup_locs, ly.workgroup_stride
                );
            }
        }
    }
    s.push_str("}\n");
}

fn result_wgsl(ly: &Layout, l: &Lowered, loc_slot: &[u32], common: &str) -> String {
    let mut s = String::new();
    s.push_str(
        "// weft result-aggregation shader (paper 001 §3.2): final memory into each row, then
// seq / interleaved / weak counted against the SC-reachable outcomes of `classify`.
@group(0) @binding(0) var<storage, read_write> mem: array<atomic<i32>>;
@group(0) @binding(1) var<storage, read_write> res: array<i32>;
@group(0) @binding(2) var<storage, read> table: array<i32>;
@group(0) @binding(3) var<storage, read_write> counts: array<atomic<u32>>;
",
    );
    s.push_str(common);
    let _ = writeln!(s, "const RWG: u32 = {RESULT_WG}u;");
    s.push_str(
        "
@compute @workgroup_size(RWG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) l: u32) {
    let i = (wid.y * nwg.x + wid.x) * RWG + l;
    if (i >= N) { return; }
    let row = i * ROW;
",
    );
    for (li, pl) in l.places.iter().enumerate() {
        if let Place::Storage(j) = pl {
            let _ = writeln!(
                s,
                "    res[row + {}u] = atomicLoad(&mem[cell_s{j}(i)]);",
                loc_slot[li]
            );
        }
    }
    s.push_str(
        "    var cls = 2u;
    let entries = u32(table[0]);
    for (var e = 0u; e < entries; e = e + 1u) {
        let base = 1u + e * (ROW + 1u);
        var same = true;
        for (var k = 0u; k < ROW; k = k + 1u) {
            if (res[row + k] != table[base + k]) { same = false; break; }
        }
        if (same) { cls = u32(table[base + ROW]); break; }
    }
    atomicAdd(&counts[cls], 1u);
}
",
    );
    let _ = ly;
    s
}
