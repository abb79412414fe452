// weft campaign web app: Explore, Tune, Conform, Locks, Submit, Campaign and Results pages over
// the JSON API of `weft serve` (crates/weft-server), running tests on the visitor's GPU
// with WebGPU (gpu.ts). Paper 001 §3 describes the tool this follows.

import { Chart, registerables } from "chart.js";
import { checksum, CLASS_NAMES, classifier, Gpu, openGpu, rowText, RunResult, runSpec, Spec } from "./gpu";

Chart.register(...registerables);

// ---------------------------------------------------------------- API

async function api<T>(path: string, body?: unknown): Promise<T> {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const j = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(j.error ?? `HTTP ${r.status}`);
  return j as T;
}

interface TestSummary {
  name: string; role: string; gpuharbor_name: string; pairs: string[]; digest: string;
  /// Corpus directory under tests/corpus; `tuning`: one of the 32 tuning mutants (paper 001
  /// §3.1); `target`: the class of the behaviour a mutant targets (weak or interleaved).
  corpus: string; tuning: boolean; target: string;
}
interface Preset { name: string; description: string; config: Record<string, unknown> }
type StressSpec = { preset: string } | { tune_seed: string; index: number; limits: string };

/// One finished run, in the form /api/submissions takes.
interface RunIn {
  kind: "run" | "tune" | "conform";
  test: string;
  digest: string;
  stress_name: string;
  stress: Record<string, unknown>;
  /// Decimal text: seeds go above 2^53, past what a JavaScript number holds.
  seed: string;
  iterations: number;
  duration_ms: number;
  started_at: string;
  rows: { values: number[]; count: number }[];
  class_counts: [number, number, number];
}

// ---------------------------------------------------------------- state

let gpu: Gpu | null = null;
let gpuError = "";
let tests: TestSummary[] = [];
let presets: Preset[] = [];
/// Runs waiting to be submitted (kept across reloads).
const pending: RunIn[] = JSON.parse(localStorage.getItem("weft-pending") ?? "[]");
/// The best configuration per mutant from the last tuning (for Conform).
let bestConfigs: Record<string, { index: number; seed: string; limits: string; weakPerSecond: number }> =
  JSON.parse(localStorage.getItem("weft-best") ?? "{}");

function savePending() {
  localStorage.setItem("weft-pending", JSON.stringify(pending));
}

function nowUtc(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, "Z");
}

const page = () => document.getElementById("page")!;
function h(html: string): HTMLElement {
  const d = document.createElement("div");
  d.innerHTML = html;
  return d;
}
function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}
function $(id: string): HTMLInputElement {
  return document.getElementById(id) as HTMLInputElement;
}

/// A run specification; long runs are fetched in chunks of dispatch plans (the server
/// bounds one spec's size) and joined: the plans continue from `from` under the same seed.
async function spec(test: string, stress: StressSpec, seed: string, iterations: number): Promise<Spec> {
  const CHUNK = 1000;
  const first = await api<Spec>("/api/spec", { test, stress, seed, iterations: Math.min(iterations, CHUNK) });
  for (let from = CHUNK; from < iterations; from += CHUNK) {
    const more = await api<Spec>("/api/spec", { test, stress, seed, iterations: Math.min(CHUNK, iterations - from), from });
    first.plans.push(...more.plans);
  }
  first.iterations = iterations;
  return first;
}

async function run(
  kind: RunIn["kind"],
  s: Spec,
  onProgress?: (done: number, total: number, partial: RunResult) => void,
): Promise<{ result: RunResult; record: RunIn }> {
  if (!gpu) throw new Error(gpuError || "no WebGPU device");
  const startedAt = nowUtc();
  const result = await runSpec(gpu, s, onProgress ?? (() => {}));
  const record: RunIn = {
    kind,
    test: s.test,
    digest: s.digest,
    stress_name: s.stress_name,
    stress: s.stress,
    seed: s.seed,
    iterations: s.iterations,
    duration_ms: Math.round(result.ms),
    started_at: startedAt,
    rows: result.rows,
    class_counts: result.classCounts,
  };
  return { result, record };
}

function weakOf(r: RunResult): number {
  return r.classCounts[2];
}

// ---------------------------------------------------------------- histogram

function histogramTable(r: RunResult, forbidWeak: boolean): string {
  const cls = classifier(r.spec.layout);
  const rows = [...r.rows].sort((a, b) => cls(a.values) - cls(b.values) || b.count - a.count);
  let s = `<table id="histogram"><tr><th class="l">outcome</th><th>count</th><th>%</th><th class="l">class</th></tr>`;
  for (const x of rows) {
    const c = CLASS_NAMES[cls(x.values)];
    const bug = forbidWeak && c === "weak";
    s += `<tr class="${bug ? "violation" : ""}"><td class="l">${esc(rowText(r.spec, x.values))}</td><td>${x.count}</td><td>${((100 * x.count) / Math.max(1, r.instances)).toFixed(3)}</td><td class="l ${c}">${c}${bug ? " (forbidden: a bug)" : ""}</td></tr>`;
  }
  const cs = checksum(r);
  s += `</table><p id="checksum" class="${cs.ok ? "ok" : "bad"}">checksum ${esc(cs.text)}</p>`;
  s += `<p class="small">${r.instances} instances in ${(r.ms / 1000).toFixed(2)} s; ${r.classCounts[2]} weak (${((100 * r.classCounts[2]) / Math.max(1, r.instances)).toFixed(4)} %)</p>`;
  return s;
}

function barChart(canvas: HTMLCanvasElement, labels: string[], data: number[], colors: string[]): Chart {
  return new Chart(canvas, {
    type: "bar",
    data: { labels, datasets: [{ label: "instances", data, backgroundColor: colors }] },
    options: { animation: false, responsive: true, maintainAspectRatio: false, plugins: { legend: { display: false } } },
  });
}

const CLASS_COLOR: Record<string, string> = { seq: "#2e9d5b", interleaved: "#e0a100", weak: "#d1372f" };

// ---------------------------------------------------------------- Explore

async function explore() {
  const p = page();
  p.innerHTML = "";
  const opts = tests.map((t) => `<option value="${esc(t.name)}">${esc(t.name)} (${t.role})</option>`).join("");
  const pre = presets.map((x) => `<option value="${x.name}">${x.name}: ${esc(x.description)}</option>`).join("");
  p.appendChild(h(`<section><h2>Explore</h2>
    <label>test <select id="ex-test">${opts}</select></label>
    <label>stress <select id="ex-preset">${pre}</select></label>
    <label>iterations <input id="ex-iter" type="number" value="20" min="1" max="10000" size="6"></label>
    <label>seed <input id="ex-seed" inputmode="numeric" pattern="[0-9]+" value="1" size="20"></label>
    <button id="ex-run">Run</button> <progress id="ex-prog" value="0" max="1"></progress>
    </section>
    <section id="ex-info"></section>
    <section><h3>Histogram</h3><div class="chart"><canvas id="ex-chart"></canvas></div><div id="ex-out"></div></section>`));
  const info = async () => {
    const t = await api<{ text: string; sc_outcomes: { outcome: string; class: string }[]; role: string; meta: { weak_behavior?: string; note?: string } }>(
      `/api/tests/${encodeURIComponent($("ex-test").value)}`,
    );
    $("ex-info").innerHTML = `<h3>${esc($("ex-test").value)} <span class="small">${t.role}</span></h3>
      <pre id="ex-text">${esc(t.text)}</pre>
      <p>weak behaviour: <code>${esc(t.meta.weak_behavior ?? "")}</code>. ${esc(t.meta.note ?? "")}</p>
      <table><tr><th class="l">SC outcome</th><th class="l">class</th></tr>${t.sc_outcomes
        .map((o) => `<tr><td class="l">${esc(o.outcome)}</td><td class="l ${o.class}">${o.class}</td></tr>`)
        .join("")}<tr><td class="l">anything else</td><td class="l weak">weak</td></tr></table>`;
  };
  $("ex-test").onchange = info;
  await info();
  let chart: Chart | null = null;
  $("ex-run").onclick = async () => {
    const btn = $("ex-run");
    btn.disabled = true;
    $("ex-out").innerHTML = "running…";
    try {
      const test = $("ex-test").value;
      const role = tests.find((t) => t.name === test)?.role;
      const s = await spec(test, { preset: $("ex-preset").value }, $("ex-seed").value.trim(), Number($("ex-iter").value));
      const draw = (r: RunResult) => {
        const cls = classifier(r.spec.layout);
        const labels = r.rows.map((x) => rowText(r.spec, x.values));
        const data = r.rows.map((x) => x.count);
        const colors = r.rows.map((x) => CLASS_COLOR[CLASS_NAMES[cls(x.values)]]);
        if (!chart) chart = barChart($("ex-chart") as unknown as HTMLCanvasElement, labels, data, colors);
        else {
          chart.data.labels = labels;
          chart.data.datasets[0].data = data;
          chart.data.datasets[0].backgroundColor = colors;
          chart.update();
        }
      };
      const { result, record } = await run(role === "conformance" ? "conform" : "run", s, (d, n, partial) => {
        ($("ex-prog") as unknown as HTMLProgressElement).value = d / n;
        draw(partial);
      });
      draw(result);
      $("ex-out").innerHTML = histogramTable(result, role === "conformance");
      if (checksum(result).ok) {
        pending.push(record);
        savePending();
      }
    } catch (e) {
      $("ex-out").innerHTML = `<p class="bad">${esc(String(e))}</p>`;
    }
    btn.disabled = false;
  };
}

// ---------------------------------------------------------------- Tune

/// One run in Tune: `target` counts the mutant's target behaviour (weak outcomes, or the
/// interleaved outcomes of the coherence mutants whose target is an SC interleaving).
interface TuneCell { weak: number; target: number; instances: number; seconds: number; violations?: number }

async function tuneRun(
  seed: string,
  configs: number,
  iterations: number,
  limits: string,
  mutants: string[],
  withConformance: boolean,
  status: (text: string, done: number, total: number) => void,
  durations?: number[],
): Promise<Record<string, TuneCell[]>> {
  const cells: Record<string, TuneCell[]> = {};
  const jobs: { test: string; k: number; kind: "tune" }[] = [];
  for (let k = 0; k < configs; k++) {
    for (const m of mutants) {
      jobs.push({ test: m, k, kind: "tune" });
      if (withConformance) {
        for (const c of tests.find((t) => t.name === m)?.pairs ?? []) jobs.push({ test: c, k, kind: "tune" });
      }
    }
  }
  const cfgs = await api<{ seed: string }[]>(`/api/configs?seed=${encodeURIComponent(seed)}&n=${configs}&limits=${encodeURIComponent(limits)}`);
  const start = performance.now();
  for (let j = 0; j < jobs.length; j++) {
    const { test, k } = jobs[j];
    const elapsed = (performance.now() - start) / 1000;
    const eta = j > 0 ? (elapsed / j) * (jobs.length - j) : 0;
    status(`configuration #${k}: ${test} (${j + 1}/${jobs.length}; about ${eta.toFixed(0)} s left)`, j, jobs.length);
    const s = await spec(test, { tune_seed: seed, index: k, limits }, cfgs[k].seed, iterations);
    try {
      const { result, record } = await run("tune", s);
      pending.push(record);
      durations?.push(result.ms);
      const target = tests.find((t) => t.name === test)?.target === "interleaved" ? result.classCounts[1] : weakOf(result);
      (cells[test] ??= [])[k] = {
        weak: weakOf(result),
        target,
        instances: result.instances,
        seconds: result.ms / 1000,
        violations: result.classCounts[2],
      };
    } catch (e) {
      console.warn(`${test} #${k}: ${e}`);
    }
  }
  savePending();
  status(`done: ${jobs.length} runs`, jobs.length, jobs.length);
  return cells;
}

function bestOf(cells: TuneCell[]): { k: number; perSecond: number } | null {
  let best: { k: number; perSecond: number } | null = null;
  cells.forEach((c, k) => {
    if (!c) return;
    const ps = c.seconds > 0 ? c.target / c.seconds : 0;
    if (!best || ps > best.perSecond) best = { k, perSecond: ps };
  });
  return best;
}

async function tune() {
  const p = page();
  const mutants = tests.filter((t) => t.tuning);
  p.innerHTML = "";
  p.appendChild(h(`<section><h2>Tune</h2>
    <p>Runs the ${mutants.length} mutants (tuning tests of paper 001 §3.1, <code>tests/corpus/gpuharbor-mutants</code>) under seeded random stress configurations (GPUHarbor's generator, the same as <code>weft tune</code>) and keeps, per mutant, the configuration with the most target behaviours per second (weak outcomes; for the coherence mutants, the interleaving they target). A mutant is killed when some configuration shows its target behaviour. With the box below, each mutant's paired conformance tests run under every configuration too (the data of the mutant/conformance correlation).</p>
    <label>seed <input id="tu-seed" value="rbjnMzXroA" size="12"></label>
    <label>configurations <input id="tu-n" type="number" value="3" min="1" max="1000" size="4"></label>
    <label>iterations <input id="tu-iter" type="number" value="5" min="1" size="4"></label>
    <label>limits <input id="tu-limits" value="64,64" size="8" title="desktop, mobile or L,Ls"></label>
    <label><input id="tu-conf" type="checkbox"> also run each mutant's conformance tests</label>
    <p><button id="tu-all" type="button">all ${mutants.length}</button> <button id="tu-none" type="button">none</button>
    ${mutants.map((m) => `<label title="target: ${esc(m.target)}; pairs: ${esc(m.pairs.join(", "))}"><input type="checkbox" class="tu-m" value="${esc(m.name)}" checked> ${esc(m.name)}</label>`).join(" ")}</p>
    <button id="tu-run">Tune</button> <progress id="tu-prog" value="0" max="1"></progress> <span id="tu-status" class="small"></span>
    </section><section id="tu-out"></section>`));
  const tick = (on: boolean) => document.querySelectorAll<HTMLInputElement>(".tu-m").forEach((x) => (x.checked = on));
  $("tu-all").onclick = () => tick(true);
  $("tu-none").onclick = () => tick(false);
  $("tu-run").onclick = async () => {
    $("tu-run").disabled = true;
    try {
      const seed = $("tu-seed").value;
      const limits = $("tu-limits").value;
      const chosen = [...document.querySelectorAll<HTMLInputElement>(".tu-m:checked")].map((x) => x.value);
      const n = Number($("tu-n").value);
      const cells = await tuneRun(seed, n, Number($("tu-iter").value), limits, chosen, $("tu-conf").checked, (t, d, total) => {
        $("tu-status").textContent = t;
        ($("tu-prog") as unknown as HTMLProgressElement).value = d / Math.max(1, total);
      });
      let rows = "";
      let killed = 0;
      for (const m of chosen) {
        const b = bestOf(cells[m] ?? []);
        const c = b ? cells[m][b.k] : null;
        const target = tests.find((t) => t.name === m)?.target ?? "weak";
        const kills = (cells[m] ?? []).filter((x) => x && x.target > 0).length;
        killed += kills > 0 ? 1 : 0;
        if (b) bestConfigs[m] = { index: b.k, seed, limits, weakPerSecond: b.perSecond };
        const pairs = (tests.find((t) => t.name === m)?.pairs ?? [])
          .map((p) => {
            const v = (cells[p] ?? []).reduce((a, x) => a + (x?.violations ?? 0), 0);
            return cells[p] ? `${esc(p)}: ${v}` : "";
          })
          .filter((x) => x)
          .join(", ");
        rows += `<tr><td class="l">${esc(m)}</td><td class="l">${esc(target)}</td><td>${b ? "#" + b.k : "-"}</td><td>${b ? b.perSecond.toFixed(1) : "-"}</td><td>${c?.target ?? "-"}</td><td>${c?.instances ?? "-"}</td><td class="killed">${kills > 0 ? `yes (${kills}/${n})` : "no"}</td><td class="l small">${pairs || "-"}</td></tr>`;
      }
      let s = `<h3>Best configuration per mutant (seed ${esc(seed)})</h3><p id="tu-killed">${killed} of ${chosen.length} mutants killed</p><table id="tune-table"><tr><th class="l">mutant</th><th class="l">target</th><th>best config</th><th>target/s</th><th>target</th><th>instances</th><th>killed (configs)</th><th class="l">conformance violations</th></tr>${rows}</table>`;
      localStorage.setItem("weft-best", JSON.stringify(bestConfigs));
      $("tu-out").innerHTML = s + `<p class="small">${pending.length} runs waiting to be submitted.</p>`;
    } catch (e) {
      $("tu-out").innerHTML = `<p class="bad">${esc(String(e))}</p>`;
    }
    $("tu-run").disabled = false;
  };
}

// ---------------------------------------------------------------- Conform

async function conform() {
  const p = page();
  const conf = tests.filter((t) => t.role === "conformance");
  p.innerHTML = "";
  p.appendChild(h(`<section><h2>Conform</h2>
    <p>Runs the conformance tests under the best configuration of their paired mutant (from Tune; the <em>stress</em> preset where there is none). Under WebGPU's memory model their weak outcomes are forbidden: seeing one is a bug in the device, driver or browser.</p>
    <label>iterations <input id="co-iter" type="number" value="5" min="1" size="4"></label>
    <p>${conf.map((m) => `<label><input type="checkbox" class="co-t" value="${esc(m.name)}" ${m.name === "MP-CO" ? "checked" : ""}> ${esc(m.name)}</label>`).join(" ")}</p>
    <button id="co-run">Run conformance tests</button> <span id="co-status" class="small"></span></section>
    <section id="co-out"></section>`));
  $("co-run").onclick = async () => {
    $("co-run").disabled = true;
    let out = `<table id="conform-table"><tr><th class="l">test</th><th class="l">stress</th><th>instances</th><th>violations</th><th class="l">verdict</th></tr>`;
    const details: string[] = [];
    let bugs = 0;
    for (const t of [...document.querySelectorAll<HTMLInputElement>(".co-t:checked")].map((x) => x.value)) {
      $("co-status").textContent = `running ${t}…`;
      // The best configuration among its paired mutants' (the one with most target/s).
      const b = (tests.find((x) => x.name === t)?.pairs ?? [])
        .map((m) => bestConfigs[m])
        .filter((x) => x)
        .sort((x, y) => y.weakPerSecond - x.weakPerSecond)[0];
      const stress: StressSpec = b ? { tune_seed: b.seed, index: b.index, limits: b.limits } : { preset: "stress" };
      try {
        const s = await spec(t, stress, "7", Number($("co-iter").value));
        const { result, record } = await run("conform", s);
        pending.push(record);
        const v = result.classCounts[2];
        bugs += v > 0 ? 1 : 0;
        out += `<tr class="${v > 0 ? "violation" : ""}"><td class="l">${esc(t)}</td><td class="l">${esc(s.stress_name)}</td><td>${result.instances}</td><td>${v}</td><td class="l ${v > 0 ? "bad" : "ok"}">${v > 0 ? "VIOLATION: outcomes the model forbids" : "conforms"}</td></tr>`;
        details.push(`<h3>${esc(t)}</h3>` + histogramTable(result, true));
      } catch (e) {
        out += `<tr><td class="l">${esc(t)}</td><td colspan="4" class="l bad">${esc(String(e))}</td></tr>`;
      }
    }
    savePending();
    out += "</table>";
    $("co-out").innerHTML =
      (bugs > 0
        ? `<p class="violation bad">${bugs} conformance test(s) showed outcomes the WebGPU memory model forbids: a bug in this device, driver or browser.</p>`
        : `<p class="ok">No forbidden outcome observed.</p>`) + out + details.join("");
    $("co-status").textContent = "";
    $("co-run").disabled = false;
  };
}

// ---------------------------------------------------------------- Submit

function browserAndOs(): { browser: string; os: string } {
  const ua = navigator.userAgent;
  const m = ua.match(/(Firefox|Edg|OPR|Chrome|Chromium|Version)\/(\d+)/);
  let browser = m ? `${m[1] === "Edg" ? "Edge" : m[1] === "Version" ? "Safari" : m[1]} ${m[2]}` : "unknown";
  if (/HeadlessChrome/.test(ua)) browser = browser.replace("Chrome", "HeadlessChrome");
  const os = /Windows/.test(ua) ? "Windows" : /Mac OS X/.test(ua) ? "macOS" : /Android/.test(ua) ? "Android" : /CrOS/.test(ua) ? "ChromeOS" : /Linux/.test(ua) ? "Linux" : /iPhone|iPad/.test(ua) ? "iOS" : "unknown";
  return { browser, os };
}

function deviceDescription() {
  const { browser, os } = browserAndOs();
  const i = gpu?.info;
  return {
    backend: "webgpu",
    vendor: i?.vendor || "unknown",
    architecture: i?.architecture ?? "",
    name: i?.device || i?.description || "",
    driver: "",
    api: "WebGPU",
    browser,
    os,
  };
}

function newKey(): string {
  const a = new Uint8Array(16);
  crypto.getRandomValues(a);
  return [...a].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function sendPending(contact: string): Promise<{ submission: number; runs: number[]; stored: boolean }> {
  let key = localStorage.getItem("weft-key");
  if (!key) {
    key = newKey();
    localStorage.setItem("weft-key", key);
  }
  const body = { idempotency_key: key, device: deviceDescription(), contact: contact || undefined, runs: pending };
  const r = await api<{ submission: number; runs: number[]; stored: boolean }>("/api/submissions", body);
  pending.length = 0;
  savePending();
  localStorage.removeItem("weft-key");
  return r;
}

async function submit() {
  const p = page();
  p.innerHTML = "";
  const preview = {
    device: deviceDescription(),
    runs: pending.map((r) => ({ ...r, rows: `${r.rows.length} distinct result rows` })),
  };
  p.appendChild(h(`<section><h2>Submit</h2>
    <p>This is what will be sent to the campaign server: the device as WebGPU describes it, your browser and operating system, and for each run the test, stress configuration, seed, iterations, duration and the counts of every outcome. Nothing else.</p>
    <pre id="su-preview">${esc(JSON.stringify(preview, null, 2))}</pre>
    <label>contact (optional) <input id="su-contact" size="30"></label>
    <button id="su-send" ${pending.length ? "" : "disabled"}>Submit ${pending.length} runs</button>
    <p id="su-out"></p></section>`));
  $("su-send").onclick = async () => {
    $("su-send").disabled = true;
    try {
      const r = await sendPending($("su-contact").value);
      $("su-out").innerHTML = `<span class="ok" id="su-done">Stored as submission ${r.submission} (${r.runs.length} runs).</span> See <a href="#results">Results</a>.`;
    } catch (e) {
      $("su-out").innerHTML = `<span class="bad">${esc(String(e))}</span>`;
      $("su-send").disabled = false;
    }
  };
}

// ---------------------------------------------------------------- Campaign

/// The campaign's fixed defaults (paper 001 §3.3: seed rbjnMzXroA, 50 configurations of
/// 50 iterations on the web); a URL may lower them (`#campaign?configs=2&iterations=2`)
/// for a quick trial.
function campaignDefaults() {
  const q = new URLSearchParams(location.hash.split("?")[1] ?? "");
  return {
    seed: "rbjnMzXroA",
    configs: Number(q.get("configs") ?? 50),
    iterations: Number(q.get("iterations") ?? 50),
    limits: q.get("limits") ?? "desktop",
    /// A subset of the mutants (tests only: `#campaign?mutants=MP,SB`); all 32 by default.
    mutants: q.get("mutants"),
  };
}

async function campaign() {
  const d = campaignDefaults();
  const p = page();
  p.innerHTML = "";
  p.appendChild(h(`<section><h2>Campaign</h2>
    <p>One button runs the campaign's tests on your GPU with fixed settings (seed <code>${d.seed}</code>, ${d.configs} stress configurations × ${d.iterations} iterations, limits ${esc(d.limits)}), every mutant and its conformance tests under every configuration, then submits the results.</p>
    <p id="ca-consent-text"><strong>Consent.</strong> This server stores and publishes, for each run (on the Results page, through <code>/api/runs</code> and the CSV and JSON exports): its results, test, stress configuration, seed, start time and duration; your GPU's vendor, architecture and name as WebGPU reports them; your browser and operating system. An optional contact is stored and never published. Your IP address is used only to limit how often submissions arrive and is not stored. No other information about you is collected. Your GPU will be busy for the duration; you may stop at any time by closing the page.</p>
    <label><input type="checkbox" id="ca-consent"> I agree</label>
    <label>contact (optional) <input id="ca-contact" size="30"></label>
    <button id="ca-run">Start</button> <progress id="ca-prog" value="0" max="1"></progress> <span id="ca-status" class="small"></span>
    </section><section id="ca-out"></section>`));
  $("ca-run").onclick = async () => {
    if (!$("ca-consent").checked) {
      $("ca-status").textContent = "please agree to the consent text first";
      return;
    }
    $("ca-run").disabled = true;
    try {
      const only = d.mutants?.split(",");
      const mutants = tests.filter((t) => t.tuning && (!only || only.includes(t.name))).map((t) => t.name);
      const durations: number[] = [];
      const t0 = performance.now();
      await tuneRun(d.seed, d.configs, d.iterations, d.limits, mutants, true, (t, dn, total) => {
        $("ca-status").textContent = t;
        ($("ca-prog") as unknown as HTMLProgressElement).value = dn / Math.max(1, total);
      }, durations);
      // Time on this device as paper 001 §4 counts it: runs over a minute (the machine
      // slept) are replaced by a neighbour's duration. The recorded durations are sent
      // unchanged; the server's analyses impute the same way (Fig. 5).
      let imputed = 0;
      const counted = durations.map((ms, i) => {
        if (ms <= 60_000) return ms;
        imputed++;
        const nb = durations.slice(0, i).reverse().find((x) => x <= 60_000) ?? durations.slice(i + 1).find((x) => x <= 60_000);
        return nb ?? 0;
      });
      const minutes = counted.reduce((a, x) => a + x, 0) / 60000;
      const r = await sendPending($("ca-contact").value);
      $("ca-out").innerHTML = `<p class="ok" id="ca-done">Thank you: ${r.runs.length} runs stored as submission ${r.submission}; testing took ${minutes.toFixed(2)} min (${imputed} run durations over a minute imputed; ${((performance.now() - t0) / 60000).toFixed(2)} min wall time).</p><a href="#results">See the results</a>`;
    } catch (e) {
      $("ca-out").innerHTML = `<p class="bad">${esc(String(e))}</p>`;
    }
    $("ca-run").disabled = false;
  };
}

// ---------------------------------------------------------------- Locks

/// The lock case study (paper 001 §5.3, Table 5): spin locks taken by threads of different
/// workgroups around a plain counter increment. An instance fails when the counter is not
/// the number of increments; a thread stopped at the shader's spin cap reports i32::MIN in
/// every register (cut: neither a success nor a failure).
const CUT_VALUE = -2147483648;

async function locks() {
  const p = page();
  const locks = tests.filter((t) => t.role === "lock");
  const metas = await Promise.all(locks.map((t) => api<{ meta: { lock: string; fenced: boolean; counter: string; expected: number } }>(`/api/tests/${encodeURIComponent(t.name)}`)));
  p.innerHTML = "";
  p.appendChild(h(`<section><h2>Locks</h2>
    <p>Paper 001 §5.3: test-and-set (TAS), test-and-test-and-set (TTAS) and compare-and-swap (CAS) spin locks, unfenced (UF) and fenced (F), each taken by two threads of different workgroups that increment a plain counter; an instance <em>fails</em> when an increment is lost (the counter is not 2). The no-lock baseline loses increments even under sequential consistency. WGSL's atomics are relaxed and it has no acquire/release fences, so the fenced locks cannot run in WebGPU (the server refuses them, as <code>weft run --backend wgpu</code> does); <code>weft mc -m vulkan</code> shows that the fences make them correct and that the unfenced ones are not.</p>
    <label>stress <select id="lk-preset">${presets.map((x) => `<option ${x.name === "stress" ? "selected" : ""}>${esc(x.name)}</option>`).join("")}</select></label>
    <label>iterations <input id="lk-iter" type="number" value="20" min="1" size="5"></label>
    <p>${locks.map((t) => `<label><input type="checkbox" class="lk-t" value="${esc(t.name)}" checked> ${esc(t.name)}</label>`).join(" ")}</p>
    <button id="lk-run">Run lock tests</button> <span id="lk-status" class="small"></span></section>
    <section id="lk-out"></section>`));
  $("lk-run").onclick = async () => {
    $("lk-run").disabled = true;
    let out = `<table id="locks-table"><tr><th class="l">test</th><th class="l">lock</th><th>fenced</th><th>instances</th><th>failing</th><th>cut</th><th class="l">verdict</th></tr>`;
    for (const name of [...document.querySelectorAll<HTMLInputElement>(".lk-t:checked")].map((x) => x.value)) {
      const m = metas[locks.findIndex((t) => t.name === name)].meta;
      const head = `<td class="l">${esc(name)}</td><td class="l">${esc(m.lock)}</td><td>${m.fenced ? "F" : "UF"}</td>`;
      $("lk-status").textContent = `running ${name}…`;
      try {
        const s = await spec(name, { preset: $("lk-preset").value }, "11", Number($("lk-iter").value));
        const { result, record } = await run("run", s);
        pending.push(record);
        const col = s.columns.find((c) => c.name === m.counter)?.word;
        const regs = s.columns.filter((c) => c.name.includes(":") && c.word !== null).map((c) => c.word!);
        let failing = 0;
        let cut = 0;
        for (const r of result.rows) {
          if (regs.some((w) => r.values[w] === CUT_VALUE)) cut += r.count;
          else if (col === undefined || col === null || r.values[col] !== m.expected) failing += r.count;
        }
        out += `<tr class="${failing > 0 && m.lock !== "none" ? "violation" : ""}">${head}<td>${result.instances}</td><td class="failing">${failing}</td><td>${cut}</td><td class="l ${failing > 0 ? "bad" : "ok"}">${failing > 0 ? (m.lock === "none" ? "increments lost (no lock: expected)" : "critical section violated") : "no failure"}</td></tr>`;
      } catch (e) {
        out += `<tr>${head}<td colspan="3">-</td><td class="l small">${esc(String(e))}</td></tr>`;
      }
    }
    savePending();
    $("lk-out").innerHTML = out + `</table><p class="small">${pending.length} runs waiting to be submitted (Submit page).</p>`;
    $("lk-status").textContent = "done";
    $("lk-run").disabled = false;
  };
}

// ---------------------------------------------------------------- Results

interface Report {
  devices: { vendor: string; architecture: string; name: string; browser: string; os: string }[];
  tests: string[];
  runs: number;
  best_rates: { device: number; test: string; rate: number; stress_name: string }[];
  vendor_rates: { vendor: string; test: string; devices: number; mean: number; median: number }[];
  similarity: null | {
    seed: string; devices: number[]; matrix: number[][];
    vendors: { vendor: string; pairs: number; avg: number; median: number; min: number; max: number }[];
    nearest: { device: number; nearest_known: number | null; similarity: number; unknown_model: boolean }[];
  };
  clustering: null | { k: number; distortions: number[]; assignment: [number, number][]; suggested: number[] };
  correlations: { device: number; mutant: string; conformance: string; n: number; result: null | { r: number; t: number; dof: number; p: number } }[];
  durations: { device: number; vendor: string; minutes: number; imputed: number }[];
  locks: { device: number; test: string; lock: string; fenced: boolean; runs: number; instances: number; failing: number; cut: number; lost: number; seconds: number }[];
}

async function results() {
  const p = page();
  p.innerHTML = "<p>loading…</p>";
  const [rep, subs] = await Promise.all([
    api<Report>("/api/analyses"),
    api<{ id: number; received_at: string; runs: number }[]>("/api/submissions"),
  ]);
  const dev = (i: number) => {
    const d = rep.devices[i];
    return `${d.name || d.vendor}${d.browser ? " (" + d.browser + ", " + d.os + ")" : ""}`;
  };
  let s = `<section><h2>Results</h2><p>${rep.runs} runs from ${rep.devices.length} devices in ${subs.length} submissions. <a href="/api/export.csv">CSV</a> · <a href="/api/export.json">JSON</a></p>
    <table id="submissions"><tr><th>submission</th><th class="l">received</th><th>runs</th></tr>${subs
      .slice(-10)
      .map((x) => `<tr><td>${x.id}</td><td class="l">${esc(x.received_at)}</td><td>${x.runs}</td></tr>`)
      .join("")}</table></section>`;
  s += `<section><h3>Weak behaviours per vendor (mean and median of each device's best rate; paper 001 Fig. 6)</h3><div class="chart"><canvas id="re-fig6"></canvas></div></section>`;
  s += `<section><h3>Best rate per device and test (% of instances; Table 2)</h3><table id="table2"><tr><th class="l">device</th>${rep.tests.map((t) => `<th>${esc(t)}</th>`).join("")}</tr>${rep.devices
    .map((_, i) => `<tr><td class="l">${esc(dev(i))}</td>${rep.tests
      .map((t) => {
        const b = rep.best_rates.find((x) => x.device === i && x.test === t);
        return `<td>${b ? (b.rate * 100).toFixed(3) : "-"}</td>`;
      })
      .join("")}</tr>`)
    .join("")}</table></section>`;
  if (rep.similarity) {
    const sim = rep.similarity;
    s += `<section><h3>Device similarity (cosine; seed ${esc(sim.seed)}; Table 3)</h3><table id="table3"><tr><th class="l">vendor</th><th>pairs</th><th>avg</th><th>median</th><th>min</th><th>max</th></tr>${sim.vendors
      .map((v) => `<tr><td class="l">${esc(v.vendor)}</td><td>${v.pairs}</td><td>${v.avg.toFixed(3)}</td><td>${v.median.toFixed(3)}</td><td>${v.min.toFixed(3)}</td><td>${v.max.toFixed(3)}</td></tr>`)
      .join("")}</table>
      <table><tr><th class="l">device</th><th class="l">nearest known device</th><th>similarity</th></tr>${sim.nearest
        .map((n) => `<tr><td class="l">${esc(dev(n.device))}${n.unknown_model ? " (model unknown)" : ""}</td><td class="l">${n.nearest_known === null ? "-" : esc(dev(n.nearest_known))}</td><td>${n.similarity.toFixed(3)}</td></tr>`)
        .join("")}</table></section>`;
  }
  if (rep.clustering) {
    const c = rep.clustering;
    s += `<section><h3>Clusters (k-means, k = ${c.k} by the elbow; Table 4)</h3><div class="chart"><canvas id="re-elbow"></canvas></div><table><tr><th>cluster</th><th class="l">test on</th><th class="l">members</th></tr>${c.suggested
      .map((d, k) => `<tr><td>${k}</td><td class="l">${esc(dev(d))}</td><td class="l">${c.assignment.filter((a) => a[1] === k).map((a) => esc(dev(a[0]))).join(", ")}</td></tr>`)
      .join("")}</table></section>`;
  }
  s += `<section><h3>Mutant weak rate vs conformance violation rate (Pearson, t-test; §5.1)</h3><table id="correlations"><tr><th class="l">device</th><th class="l">pair</th><th>n</th><th>r</th><th>p</th></tr>${rep.correlations
    .map((c) => `<tr><td class="l">${esc(dev(c.device))}</td><td class="l">${esc(c.mutant)} / ${esc(c.conformance)}</td><td>${c.n}</td><td>${c.result ? c.result.r.toFixed(3) : "-"}</td><td>${c.result ? c.result.p.toExponential(2) : "-"}</td></tr>`)
    .join("")}</table></section>`;
  s += `<section><h3>Lock case study: failing instances per device and lock (§5.3, Table 5)</h3><table id="table5"><tr><th class="l">device</th><th class="l">test</th><th class="l">lock</th><th>fenced</th><th>runs</th><th>instances</th><th>failing</th><th>cut</th><th>seconds</th></tr>${rep.locks
    .map((l) => `<tr><td class="l">${esc(dev(l.device))}</td><td class="l">${esc(l.test)}</td><td class="l">${esc(l.lock)}</td><td>${l.fenced ? "F" : "UF"}</td><td>${l.runs}</td><td>${l.instances}</td><td>${l.failing}</td><td>${l.cut}</td><td>${l.seconds.toFixed(2)}</td></tr>`)
    .join("")}</table></section>`;
  s += `<section><h3>Testing time per device by vendor (Fig. 5)</h3><div class="chart"><canvas id="re-fig5"></canvas></div></section>`;
  p.innerHTML = s;
  const vendors = [...new Set(rep.vendor_rates.map((v) => v.vendor))];
  new Chart(document.getElementById("re-fig6") as HTMLCanvasElement, {
    type: "bar",
    data: {
      labels: rep.tests,
      datasets: vendors.flatMap((v) => [
        { label: `${v} mean`, data: rep.tests.map((t) => 100 * (rep.vendor_rates.find((x) => x.vendor === v && x.test === t)?.mean ?? 0)) },
        { label: `${v} median`, data: rep.tests.map((t) => 100 * (rep.vendor_rates.find((x) => x.vendor === v && x.test === t)?.median ?? 0)) },
      ]),
    },
    options: { animation: false, maintainAspectRatio: false, scales: { y: { type: "logarithmic", title: { display: true, text: "weak behaviours (%)" } } } },
  });
  if (rep.clustering) {
    new Chart(document.getElementById("re-elbow") as HTMLCanvasElement, {
      type: "line",
      data: { labels: rep.clustering.distortions.map((_, i) => `k=${i + 1}`), datasets: [{ label: "distortion", data: rep.clustering.distortions }] },
      options: { animation: false, maintainAspectRatio: false },
    });
  }
  const byVendor = [...new Set(rep.durations.map((d) => d.vendor))];
  new Chart(document.getElementById("re-fig5") as HTMLCanvasElement, {
    type: "scatter",
    data: {
      datasets: byVendor.map((v, vi) => ({
        label: v,
        data: rep.durations.filter((d) => d.vendor === v).map((d) => ({ x: vi, y: d.minutes })),
      })),
    },
    options: { animation: false, maintainAspectRatio: false, scales: { x: { ticks: { callback: (x) => byVendor[Number(x)] ?? "" } }, y: { title: { display: true, text: "minutes" } } } },
  });
}

// ---------------------------------------------------------------- routing

const pages: Record<string, () => Promise<void>> = { explore, tune, conform, locks, submit, campaign, results };

async function route() {
  const name = location.hash.slice(1).split("?")[0] || "explore";
  document.querySelectorAll("#nav a").forEach((a) => a.classList.toggle("active", (a as HTMLElement).dataset.page === name));
  try {
    await (pages[name] ?? explore)();
  } catch (e) {
    page().innerHTML = `<p class="bad">${esc(String(e))}</p>`;
  }
}

async function start() {
  try {
    gpu = await openGpu();
    const i = gpu.info;
    document.getElementById("gpu-status")!.textContent = `WebGPU: ${[i.vendor, i.architecture, i.device || i.description].filter(Boolean).join(" / ") || "adapter without a description"}`;
  } catch (e) {
    gpuError = String(e);
    document.getElementById("gpu-status")!.textContent = `no WebGPU: ${gpuError}`;
  }
  [tests, presets] = await Promise.all([api<TestSummary[]>("/api/tests"), api<Preset[]>("/api/presets")]);
  window.addEventListener("hashchange", route);
  await route();
}

start();
