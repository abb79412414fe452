// Running one test on the visitor's GPU and showing it: the run specification fetched in
// chunks, the run itself (gpu.ts), the record a submission carries, the outcome table, and
// the histogram chart on a logarithmic axis (rare weak outcomes stay visible; GPUHarbor's
// explorer draws it the same way), with the values drawn kept on the canvas for tests.

import { Chart, registerables } from "chart.js";
import { api, StressSpec } from "./api";
import type { RunIn } from "./api-types";
import { checksum, CLASS_NAMES, classifier, rowText, RunResult, runSpec, Spec } from "./gpu";
import { html, Html } from "./html";
import { app } from "./state";

Chart.register(...registerables);

export function nowUtc(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, "Z");
}

/// A run specification; long runs are fetched in chunks of dispatch plans (the server
/// bounds one spec's size) and joined: the plans continue from `from` under the same seed.
export async function spec(test: string, stress: StressSpec, seed: string, iterations: number): Promise<Spec> {
  const CHUNK = 1000;
  const first = await api.spec({ test, stress, seed, iterations: Math.min(iterations, CHUNK) });
  for (let from = CHUNK; from < iterations; from += CHUNK) {
    const more = await api.spec({ test, stress, seed, iterations: Math.min(CHUNK, iterations - from), from });
    first.plans.push(...more.plans);
  }
  first.iterations = iterations;
  return first;
}

export async function run(
  kind: "run" | "tune" | "conform",
  s: Spec,
  onProgress?: (done: number, total: number, partial: RunResult) => void,
): Promise<{ result: RunResult; record: RunIn }> {
  if (!app.gpu) throw new Error(app.gpuError || "no WebGPU device");
  const startedAt = nowUtc();
  const result = await runSpec(app.gpu, s, onProgress ?? (() => {}));
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

export const pct = (n: number, of: number, digits = 3) => ((100 * n) / Math.max(1, of)).toFixed(digits);

/// The outcome table of a run with its checksum.
export function histogramTable(r: RunResult, forbidWeak: boolean): Html {
  const cls = classifier(r.spec.layout);
  const rows = [...r.rows].sort((a, b) => cls(a.values) - cls(b.values) || b.count - a.count);
  const cs = checksum(r);
  return html`<table id="histogram"><tr><th class="l">outcome</th><th>count</th><th>%</th><th class="l">class</th></tr>
    ${rows.map((x) => {
      const c = CLASS_NAMES[cls(x.values)];
      const bug = forbidWeak && c === "weak";
      return html`<tr class="${bug ? "violation" : ""}"><td class="l">${rowText(r.spec, x.values)}</td><td>${x.count}</td><td>${pct(x.count, r.instances)}</td><td class="l ${c}">${c}${bug ? " (forbidden: a bug)" : ""}</td></tr>`;
    })}</table>
    <p id="checksum" class="${cs.ok ? "ok" : "bad"}">checksum ${cs.text}</p>
    <p class="small">${r.instances} instances in ${(r.ms / 1000).toFixed(2)} s; ${r.classCounts[2]} weak (${pct(r.classCounts[2], r.instances, 4)} %)</p>`;
}

export const CLASS_COLOR: Record<string, string> = { seq: "#2e9d5b", interleaved: "#e0a100", weak: "#d1372f" };

/// Records on the canvas what a chart draws (for the browser test): its axis type, the
/// values and how many times it was updated.
export function markChart(canvas: HTMLCanvasElement, scale: string, values: number[]) {
  canvas.dataset.scale = scale;
  canvas.dataset.values = JSON.stringify(values);
  canvas.dataset.updates = String(Number(canvas.dataset.updates ?? 0) + 1);
}

/// The live histogram of a run: instances per outcome on a log axis, coloured by class.
export function drawHistogram(canvas: HTMLCanvasElement | null, r: RunResult): void {
  if (!canvas || !canvas.isConnected) return;
  const cls = classifier(r.spec.layout);
  const labels = r.rows.map((x) => rowText(r.spec, x.values));
  const data = r.rows.map((x) => x.count);
  const colors = r.rows.map((x) => CLASS_COLOR[CLASS_NAMES[cls(x.values)]]);
  let chart = Chart.getChart(canvas);
  if (!chart) {
    chart = new Chart(canvas, {
      type: "bar",
      data: { labels, datasets: [{ label: "instances", data, backgroundColor: colors }] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { legend: { display: false } },
        scales: { y: { type: "logarithmic", min: 0.5, title: { display: true, text: "instances (log)" } } },
      },
    });
  } else {
    chart.data.labels = labels;
    chart.data.datasets[0].data = data;
    chart.data.datasets[0].backgroundColor = colors;
    chart.update();
  }
  markChart(canvas, "logarithmic", data);
}

// ---------------------------------------------------------------- the device

function browserAndOs(): { browser: string; os: string } {
  const ua = navigator.userAgent;
  const m = ua.match(/(Firefox|Edg|OPR|Chrome|Chromium|Version)\/(\d+)/);
  let browser = m ? `${m[1] === "Edg" ? "Edge" : m[1] === "Version" ? "Safari" : m[1]} ${m[2]}` : "unknown";
  if (/HeadlessChrome/.test(ua)) browser = browser.replace("Chrome", "HeadlessChrome");
  const os = /Windows/.test(ua) ? "Windows" : /Mac OS X/.test(ua) ? "macOS" : /Android/.test(ua) ? "Android" : /CrOS/.test(ua) ? "ChromeOS" : /Linux/.test(ua) ? "Linux" : /iPhone|iPad/.test(ua) ? "iOS" : "unknown";
  return { browser, os };
}

/// The device as a submission describes it.
export function deviceDescription() {
  const { browser, os } = browserAndOs();
  const i = app.gpu?.info;
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
