// WebGPU runner: executes a run specification served by `weft serve` (/api/spec) exactly
// as weft-hw-wgpu's native runner does (crates/weft-hw-wgpu/src/runner.rs): the same
// buffers and bindings, the same per-dispatch plans, the test pass then the result pass,
// the raw result rows read back into a histogram, and the result shader's class counts.

export interface Layout {
  workgroup_size: number;
  testing_workgroups: number;
  max_workgroups: number;
  instances: number;
  row_words: number;
  mem_words: number;
  storage_locs: number;
  mem_stride: number;
  storage_init: number[];
  scratch_words: number;
  table: number[];
  result_workgroup_size: number;
}

export interface Plan {
  workgroups: number;
  shuffle: number[];
  lines: number[];
  params: number[];
}

export interface Column {
  name: string;
  word: number | null;
  constant: string | null;
}

export interface Spec {
  test: string;
  digest: string;
  stress_name: string;
  stress: Record<string, unknown>;
  seed: string;
  iterations: number;
  test_wgsl: string;
  result_wgsl: string;
  bindings: { test: string; result: string };
  layout: Layout;
  columns: Column[];
  strengthened: string[];
  plans: Plan[];
}

export type ClassName = "seq" | "interleaved" | "weak";
export const CLASS_NAMES: ClassName[] = ["seq", "interleaved", "weak"];

export interface Row {
  values: number[];
  count: number;
}

export interface RunResult {
  spec: Spec;
  rows: Row[];
  classCounts: [number, number, number];
  hostCounts: [number, number, number];
  instances: number;
  /** Wall time of the whole run in ms: shader compilation, set-up and every dispatch. */
  ms: number;
}

export interface Gpu {
  device: GPUDevice;
  info: { vendor: string; architecture: string; device: string; description: string };
}

/// Opens the visitor's GPU, or says why not.
export async function openGpu(): Promise<Gpu> {
  if (!("gpu" in navigator) || !navigator.gpu) {
    throw new Error("this browser has no WebGPU (navigator.gpu is missing)");
  }
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error("WebGPU found no adapter");
  const device = await adapter.requestDevice({
    requiredLimits: {
      maxStorageBuffersPerShaderStage: Math.min(8, adapter.limits.maxStorageBuffersPerShaderStage),
    },
  });
  const i = adapter.info;
  return {
    device,
    info: {
      vendor: i?.vendor ?? "",
      architecture: i?.architecture ?? "",
      device: i?.device ?? "",
      description: i?.description ?? "",
    },
  };
}

function bindLayout(device: GPUDevice, kinds: string): GPUBindGroupLayout {
  return device.createBindGroupLayout({
    label: kinds,
    entries: [...kinds].map((k, i) => ({
      binding: i,
      visibility: GPUShaderStage.COMPUTE,
      buffer: {
        type: (k === "u" ? "uniform" : k === "r" ? "read-only-storage" : "storage") as GPUBufferBindingType,
      },
    })),
  });
}

/// The SC class of a result row from the outcome table (`[entries, (row…, class)…]`);
/// rows outside it are weak.
export function classifier(layout: Layout): (row: ArrayLike<number>) => number {
  const t = layout.table;
  const n = t[0] ?? 0;
  const w = layout.row_words;
  const map = new Map<string, number>();
  for (let e = 0; e < n; e++) {
    const base = 1 + e * (w + 1);
    map.set(t.slice(base, base + w).join(","), t[base + w]);
  }
  return (row) => map.get(Array.from(row).join(",")) ?? 2;
}

/// The text of a row over every column (`1:r0=1; 1:r1=0; x=1; y=1`).
export function rowText(spec: Spec, values: number[]): string {
  return spec.columns
    .map((c) => `${c.name}=${c.word === null ? c.constant : values[c.word]}`)
    .join("; ");
}

async function readWords(buf: GPUBuffer): Promise<Int32Array> {
  await buf.mapAsync(GPUMapMode.READ);
  const out = new Int32Array(buf.getMappedRange().slice(0));
  buf.unmap();
  return out;
}

/// Runs every dispatch of `spec`; `progress(done, total, partial)` after each.
export async function runSpec(
  gpu: Gpu,
  spec: Spec,
  progress: (done: number, total: number, partial: RunResult) => void,
): Promise<RunResult> {
  // The test's duration (paper 001 Fig. 5) counts from here: shader compilation and buffer
  // set-up are part of what a visitor waits for, not only the dispatches.
  const start = performance.now();
  const device = gpu.device;
  const ly = spec.layout;
  device.pushErrorScope("validation");
  const testBgl = bindLayout(device, spec.bindings.test);
  const resultBgl = bindLayout(device, spec.bindings.result);
  const pipe = (code: string, bgl: GPUBindGroupLayout, label: string) =>
    device.createComputePipeline({
      label,
      layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }),
      compute: { module: device.createShaderModule({ code, label }), entryPoint: "main" },
    });
  const testPipe = pipe(spec.test_wgsl, testBgl, "test");
  const resultPipe = pipe(spec.result_wgsl, resultBgl, "result-aggregation");
  const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
  const buf = (label: string, bytes: number, usage: number) =>
    device.createBuffer({ label, size: Math.max(16, Math.ceil(bytes / 4) * 4), usage });
  const resBytes = ly.instances * ly.row_words * 4;
  const mem = buf("mem", ly.mem_words * 4, S);
  const res = buf("res", resBytes, S);
  const scratch = buf("scratch", ly.scratch_words * 4, S);
  const sync = buf("sync", 16, S);
  const shuffle = buf("shuffle", ly.max_workgroups * 4, S);
  const lines = buf("lines", ly.max_workgroups * 4, S);
  const params = buf("params", 32, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
  const table = buf("table", ly.table.length * 4, S);
  const counts = buf("counts", 16, S);
  const resRead = buf("res-read", resBytes, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
  const countsRead = buf("counts-read", 16, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
  device.queue.writeBuffer(table, 0, new Int32Array(ly.table));
  let init: GPUBuffer | null = null;
  if (ly.storage_init.some((v) => v !== 0)) {
    const words = new Int32Array(ly.mem_words);
    const nl = Math.max(1, ly.storage_locs);
    for (let m = 0; m < ly.instances; m++) {
      ly.storage_init.forEach((v, j) => {
        words[(m * nl + j) * ly.mem_stride] = v;
      });
    }
    init = buf("mem-init", ly.mem_words * 4, S);
    device.queue.writeBuffer(init, 0, words);
  }
  const group = (layout: GPUBindGroupLayout, bufs: GPUBuffer[], label: string) =>
    device.createBindGroup({
      label,
      layout,
      entries: bufs.map((b, i) => ({ binding: i, resource: { buffer: b } })),
    });
  const testBg = group(testBgl, [mem, res, scratch, sync, shuffle, lines, params], "test");
  const resultBg = group(resultBgl, [mem, res, table, counts], "result");
  const err = await device.popErrorScope();
  if (err) throw new Error(`WebGPU: ${err.message}`);

  const resultGroups = Math.ceil(ly.instances / ly.result_workgroup_size);
  const maxDim = Math.max(1, device.limits.maxComputeWorkgroupsPerDimension);
  const [rx, ry] = resultGroups > maxDim ? [maxDim, Math.ceil(resultGroups / maxDim)] : [Math.max(1, resultGroups), 1];
  const classify = classifier(ly);
  const hist = new Map<string, Row>();
  const gpuCounts: [number, number, number] = [0, 0, 0];
  const hostCounts: [number, number, number] = [0, 0, 0];
  const total = spec.plans.length * ly.instances;
  const snapshot = (): RunResult => ({
    spec,
    rows: [...hist.values()],
    classCounts: [...gpuCounts] as [number, number, number],
    hostCounts: [...hostCounts] as [number, number, number],
    instances: spec.plans.length * ly.instances,
    ms: performance.now() - start,
  });
  for (let it = 0; it < spec.plans.length; it++) {
    const pl = spec.plans[it];
    device.pushErrorScope("validation");
    device.queue.writeBuffer(shuffle, 0, new Uint32Array(pl.shuffle));
    device.queue.writeBuffer(lines, 0, new Uint32Array(pl.lines));
    device.queue.writeBuffer(params, 0, new Uint32Array(pl.params));
    const enc = device.createCommandEncoder({ label: "run" });
    if (init) enc.copyBufferToBuffer(init, 0, mem, 0, mem.size);
    else enc.clearBuffer(mem);
    enc.clearBuffer(res);
    enc.clearBuffer(sync);
    enc.clearBuffer(counts);
    let pass = enc.beginComputePass({ label: "test" });
    pass.setPipeline(testPipe);
    pass.setBindGroup(0, testBg);
    pass.dispatchWorkgroups(pl.workgroups, 1, 1);
    pass.end();
    pass = enc.beginComputePass({ label: "result" });
    pass.setPipeline(resultPipe);
    pass.setBindGroup(0, resultBg);
    pass.dispatchWorkgroups(rx, ry, 1);
    pass.end();
    enc.copyBufferToBuffer(res, 0, resRead, 0, res.size);
    enc.copyBufferToBuffer(counts, 0, countsRead, 0, 16);
    device.queue.submit([enc.finish()]);
    const e = await device.popErrorScope();
    if (e) throw new Error(`WebGPU: ${e.message}`);
    const words = await readWords(resRead);
    const c = new Uint32Array((await readWords(countsRead)).buffer);
    for (let k = 0; k < 3; k++) gpuCounts[k] += c[k];
    const w = ly.row_words;
    for (let m = 0; m < ly.instances; m++) {
      const row = w === 0 ? [] : Array.from(words.subarray(m * w, m * w + w));
      const key = row.join(",");
      const r = hist.get(key);
      if (r) r.count++;
      else hist.set(key, { values: row, count: 1 });
      hostCounts[classify(row)]++;
    }
    progress((it + 1) * ly.instances, total, snapshot());
  }
  for (const b of [mem, res, scratch, sync, shuffle, lines, params, table, counts, resRead, countsRead]) b.destroy();
  init?.destroy();
  return snapshot();
}

/// The paper's checksum: the result shader's counts add up to the instances run and
/// agree with the host's classification of the rows.
export function checksum(r: RunResult): { ok: boolean; text: string } {
  const sum = r.classCounts[0] + r.classCounts[1] + r.classCounts[2];
  const rows = r.rows.reduce((a, x) => a + x.count, 0);
  const same = r.classCounts.every((v, i) => v === r.hostCounts[i]);
  const ok = sum === r.instances && rows === r.instances && same;
  return {
    ok,
    text: `${ok ? "ok" : "FAILED"}: result shader counted ${r.classCounts[0]} seq + ${r.classCounts[1]} interleaved + ${r.classCounts[2]} weak = ${sum}; ${rows} rows read back; ${r.spec.plans.length} iterations × ${r.spec.layout.instances} instances = ${r.instances}`,
  };
}
