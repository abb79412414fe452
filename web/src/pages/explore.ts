// Explore (GPUHarbor's explorer, issue 29 item 12): one test on the visitor's GPU with a
// live histogram on a log axis, a stress panel with every parameter of the configuration
// (filled from a preset, each editable: an edited panel runs as a custom configuration),
// the configuration actually run and the WGSL the server generated for it. The default is
// MP under the `stress` preset, a pair that shows weak behaviour on GPUs that have it.

import type { StressSpec } from "../api";
import { api } from "../api";
import type { RunResult, Spec } from "../gpu";
import { byId, html, Html, render, setProgress, setText } from "../html";
import { Job, jobOf, paintWith, startJob, update } from "../jobs";
import { drawHistogram, histogramTable, run, spec } from "../runner";
import { app, queueRun, testInfo } from "../state";

const PAGE = "explore";
export const DEFAULT_TEST = "MP";
export const DEFAULT_PRESET = "stress";

interface ExploreData {
  partial: RunResult | null;
  spec: Spec | null;
}

function paramInputs(config: Record<string, number | boolean>): Html {
  return html`${Object.entries(config).map(
    ([k, v]) =>
      html`<label class="param">${k} ${typeof v === "boolean"
        ? html`<input id="ex-param-${k}" data-param="${k}" type="checkbox" ${v ? html`checked` : ""}>`
        : html`<input id="ex-param-${k}" data-param="${k}" type="number" min="0" value="${v}" size="6">`}</label>`,
  )}`;
}

/// The configuration in the panel, as GPUHarbor's JSON names it.
function panelConfig(): Record<string, number | boolean> {
  const c: Record<string, number | boolean> = {};
  document.querySelectorAll<HTMLInputElement>("#ex-params input[data-param]").forEach((x) => {
    c[x.dataset.param!] = x.type === "checkbox" ? x.checked : Number(x.value);
  });
  return c;
}

function configView(s: Spec): Html {
  return html`<h3>Configuration run: ${s.stress_name}</h3>
    <table id="ex-config"><tr><th class="l">parameter</th><th>value</th></tr>${Object.entries(s.stress).map(
      ([k, v]) => html`<tr><td class="l">${k}</td><td>${String(v)}</td></tr>`,
    )}</table>
    <details id="ex-wgsl"><summary>WGSL of the test shader (${s.test_wgsl.length} bytes) and the result shader</summary>
    <pre id="ex-wgsl-test">${s.test_wgsl}</pre><pre id="ex-wgsl-result">${s.result_wgsl}</pre></details>`;
}

function paint(j: Job) {
  const d = j.data as ExploreData | null;
  const btn = byId("ex-run");
  if (btn) btn.disabled = j.running;
  setProgress("ex-prog", j.done, j.total);
  setText("ex-status", j.status);
  if (d?.partial) drawHistogram(byId<HTMLCanvasElement>("ex-chart"), d.partial);
  if (d?.spec) render(byId("ex-spec"), configView(d.spec));
  render(byId("ex-out"), j.error ? html`<p class="bad">${j.error}</p>` : j.output ?? html``);
}

export async function explore(root: HTMLElement) {
  const job = jobOf(PAGE);
  const chosen = (job?.data as { test?: string } | null)?.test ?? DEFAULT_TEST;
  render(
    root,
    html`<section><h2>Explore</h2>
    <label>test <select id="ex-test">${app.tests.map(
      (t) => html`<option value="${t.name}" ${t.name === chosen ? html`selected` : ""}>${t.name} (${t.role})</option>`,
    )}</select></label>
    <label>stress <select id="ex-preset">${app.presets.map(
      (x) => html`<option value="${x.name}" ${x.name === DEFAULT_PRESET ? html`selected` : ""}>${x.name}: ${x.description}</option>`,
    )}<option value="custom">custom: the parameters below</option></select></label>
    <label>iterations <input id="ex-iter" type="number" value="20" min="1" max="10000" size="6"></label>
    <label>seed <input id="ex-seed" inputmode="numeric" pattern="[0-9]+" value="1" size="20"></label>
    <button id="ex-run">Run</button> <progress id="ex-prog" value="0" max="1"></progress> <span id="ex-status" class="small"></span>
    <details id="ex-stress"><summary>Stress parameters (GPUHarbor's names; editing one runs a custom configuration)</summary>
    <div id="ex-params"></div></details>
    </section>
    <section id="ex-info"></section>
    <section><h3>Histogram (log scale)</h3><div class="chart"><canvas id="ex-chart"></canvas></div><div id="ex-out"></div></section>
    <section id="ex-spec"></section>`,
  );
  const fill = () => {
    const p = app.presets.find((x) => x.name === byId("ex-preset")!.value);
    if (p) render(byId("ex-params"), paramInputs(p.config));
  };
  byId("ex-preset")!.onchange = fill;
  fill();
  byId("ex-params")!.oninput = () => {
    byId("ex-preset")!.value = "custom";
  };
  const info = async () => {
    const name = byId("ex-test")!.value;
    const t = await api.test(name);
    const meta = t.meta as { weak_behavior?: string; note?: string };
    render(
      byId("ex-info"),
      html`<h3>${name} <span class="small">${t.role}</span></h3>
      <pre id="ex-text">${t.text}</pre>
      <p>weak behaviour: <code>${meta.weak_behavior ?? ""}</code>. ${meta.note ?? ""}</p>
      <table><tr><th class="l">SC outcome</th><th class="l">class</th></tr>${t.sc_outcomes.map(
        (o) => html`<tr><td class="l">${o.outcome}</td><td class="l ${o.class}">${o.class}</td></tr>`,
      )}<tr><td class="l">anything else</td><td class="l weak">weak</td></tr></table>`,
    );
  };
  byId("ex-test")!.onchange = info;
  await info();
  byId("ex-run")!.onclick = () => {
    const test = byId("ex-test")!.value;
    const preset = byId("ex-preset")!.value;
    const stress: StressSpec = preset === "custom" ? { config: panelConfig() } : { preset };
    const seed = byId("ex-seed")!.value.trim();
    const iterations = Number(byId("ex-iter")!.value);
    const conformance = testInfo(test)?.role === "conformance";
    void startJob(PAGE, async (j) => {
      const data: ExploreData & { test: string } = { partial: null, spec: null, test };
      j.data = data;
      j.status = "fetching the run specification…";
      const s = await spec(test, stress, seed, iterations);
      data.spec = s;
      j.status = "running…";
      const { result, record } = await run(conformance ? "conform" : "run", s, (done, total, partial) => {
        data.partial = partial;
        update(j, { done, total, status: `${done} of ${total} instances` });
      });
      data.partial = result;
      const q = queueRun(result, record);
      j.output = html`${histogramTable(result, conformance)}<p class="small" id="ex-queued">${q.queued ? "queued for submission" : q.why}</p>`;
      j.done = j.total;
      j.status = "done";
    });
  };
  paintWith(PAGE, paint);
}
