// Tune (paper 001 §3.1): the tuning mutants under the seeded configurations of GPUHarbor's
// generator, as a job that survives navigation; per mutant the best configuration by
// target behaviours per second ("none observed" when no configuration showed any, rather
// than configuration #0), and a table of every configuration's target count and rate.
// `tuneRun` is shared with the Campaign page.

import { api } from "../api";
import type { TuneConfig } from "../api-types";
import { byId, html, Html, render, setProgress, setText } from "../html";
import { Job, jobOf, paintWith, startJob, update } from "../jobs";
import { run, spec } from "../runner";
import { app, bestConfigs, pending, queueRun, saveBest, testInfo } from "../state";

const PAGE = "tune";

/// One run in Tune: `target` counts the mutant's target behaviour (weak outcomes, or the
/// interleaved outcomes of the coherence mutants whose target is an SC interleaving).
export interface TuneCell {
  weak: number;
  target: number;
  instances: number;
  seconds: number;
  violations: number;
}

export interface TuneOutcome {
  cells: Record<string, TuneCell[]>;
  runs: number;
  /// Runs whose checksum failed: shown, not queued.
  refused: string[];
  /// Runs that could not be fetched or run.
  failed: string[];
  /// The configurations run (GPUHarbor's parameters).
  configs: TuneConfig[];
  durations: number[];
}

/// Runs every mutant (and with `withConformance` its paired conformance tests) under
/// configurations 0..configs-1 of `seed`, queueing the runs whose checksum holds.
export async function tuneRun(
  j: Job,
  seed: string,
  configs: number,
  iterations: number,
  limits: string,
  mutants: string[],
  withConformance: boolean,
): Promise<TuneOutcome> {
  const out: TuneOutcome = { cells: {}, runs: 0, refused: [], failed: [], durations: [], configs: [] };
  const jobs: { test: string; k: number }[] = [];
  for (let k = 0; k < configs; k++) {
    for (const m of mutants) {
      jobs.push({ test: m, k });
      if (withConformance) for (const c of testInfo(m)?.pairs ?? []) jobs.push({ test: c, k });
    }
  }
  const cfgs = await api.configs(seed, configs, limits);
  out.configs = cfgs;
  const start = performance.now();
  for (let i = 0; i < jobs.length; i++) {
    const { test, k } = jobs[i];
    const elapsed = (performance.now() - start) / 1000;
    // The first runs include shader compilation: no estimate from fewer than 3.
    const eta = i >= 3 ? `about ${((elapsed / i) * (jobs.length - i)).toFixed(0)} s left` : "estimating…";
    update(j, { done: i, total: jobs.length, status: `configuration #${k}: ${test} (${i + 1}/${jobs.length}; ${eta})` });
    let got;
    try {
      got = await run("tune", await spec(test, { tune_seed: seed, index: k, limits }, cfgs[k].seed, iterations));
    } catch (e) {
      // One run that failed (after the API client's retries) does not end the campaign.
      out.failed.push(`${test} #${k}: ${e instanceof Error ? e.message : e}`);
      continue;
    }
    const { result, record } = got;
    out.runs++;
    out.durations.push(result.ms);
    const q = queueRun(result, record);
    if (!q.queued) {
      out.refused.push(`${test} #${k}: ${q.why}`);
      continue;
    }
    const target = testInfo(test)?.target === "interleaved" ? result.classCounts[1] : result.classCounts[2];
    (out.cells[test] ??= [])[k] = {
      weak: result.classCounts[2],
      target,
      instances: result.instances,
      seconds: result.ms / 1000,
      violations: result.classCounts[2],
    };
  }
  update(j, { done: jobs.length, total: jobs.length, status: `done: ${jobs.length} runs` });
  return out;
}

/// The configuration with most target behaviours per second, or null when none showed any.
export function bestOf(cells: TuneCell[]): { k: number; perSecond: number } | null {
  let best: { k: number; perSecond: number } | null = null;
  cells.forEach((c, k) => {
    if (!c || c.target === 0) return;
    const ps = c.seconds > 0 ? c.target / c.seconds : 0;
    if (!best || ps > best.perSecond) best = { k, perSecond: ps };
  });
  return best;
}

function table(seed: string, limits: string, n: number, chosen: string[], t: TuneOutcome): Html {
  let killed = 0;
  const rows = chosen.map((m) => {
    const cells = t.cells[m] ?? [];
    const b = bestOf(cells);
    const c = b ? cells[b.k] : null;
    const kills = cells.filter((x) => x && x.target > 0).length;
    killed += kills > 0 ? 1 : 0;
    if (b) bestConfigs[m] = { index: b.k, seed, limits, weakPerSecond: b.perSecond };
    const pairs = (testInfo(m)?.pairs ?? [])
      .filter((p) => t.cells[p])
      .map((p) => `${p}: ${t.cells[p].reduce((a, x) => a + (x?.violations ?? 0), 0)}`)
      .join(", ");
    return html`<tr><td class="l">${m}</td><td class="l">${testInfo(m)?.target ?? "weak"}</td><td class="best">${b ? `#${b.k}` : "none observed"}</td><td>${b ? b.perSecond.toFixed(1) : "-"}</td><td>${c?.target ?? 0}</td><td>${cells.reduce((a, x) => a + (x?.instances ?? 0), 0)}</td><td class="killed">${kills > 0 ? `yes (${kills}/${n})` : "no"}</td><td class="l small">${pairs || "-"}</td></tr>`;
  });
  const grid = chosen.map(
    (m) =>
      html`<tr><td class="l">${m}</td>${Array.from({ length: n }, (_, k) => {
        const c = t.cells[m]?.[k];
        return c
          ? html`<td class="cfg${c.target > 0 ? " hit" : ""}" title="${c.target} of ${c.instances} in ${c.seconds.toFixed(2)} s">${c.target} (${(c.seconds > 0 ? c.target / c.seconds : 0).toFixed(1)}/s)</td>`
          : html`<td class="cfg">-</td>`;
      })}</tr>`,
  );
  return html`<h3>Best configuration per mutant (seed ${seed})</h3><p id="tu-killed">${killed} of ${chosen.length} mutants killed</p>
    <table id="tune-table"><tr><th class="l">mutant</th><th class="l">target</th><th>best config</th><th>target/s</th><th>target</th><th>instances (all configs)</th><th>killed (configs)</th><th class="l">conformance violations</th></tr>${rows}</table>
    <h3>Every configuration: target behaviours (per second)</h3>
    <div class="scroll"><table id="tune-configs"><tr><th class="l">mutant</th>${Array.from({ length: n }, (_, k) => html`<th>#${k}</th>`)}</tr>${grid}</table></div>
    <details id="tu-params"><summary>The parameters of each configuration</summary><div class="scroll"><table><tr><th class="l">parameter</th>${t.configs.map((c) => html`<th>#${c.index}</th>`)}</tr>${Object.keys(t.configs[0]?.config ?? {}).map(
      (p) => html`<tr><td class="l">${p}</td>${t.configs.map((c) => html`<td>${String(c.config[p])}</td>`)}</tr>`,
    )}</table></div></details>
    ${t.failed.length ? html`<p class="bad" id="tu-failed">${t.failed.length} runs failed: ${t.failed.join("; ")}</p>` : ""}
    ${t.refused.length ? html`<p class="bad" id="tu-refused">${t.refused.length} runs failed their checksum and were not queued: ${t.refused.join("; ")}</p>` : ""}
    <p class="small">${pending.length} runs waiting to be submitted.</p>`;
}

function paint(j: Job) {
  const btn = byId("tu-run");
  if (btn) btn.disabled = j.running;
  setProgress("tu-prog", j.done, j.total);
  setText("tu-status", j.status);
  render(byId("tu-out"), j.error ? html`<p class="bad">${j.error}</p>` : j.output ?? html``);
}

export async function tune(root: HTMLElement) {
  const mutants = app.tests.filter((t) => t.tuning);
  render(
    root,
    html`<section><h2>Tune</h2>
    <p>Runs the ${mutants.length} mutants (tuning tests of paper 001 §3.1, <code>tests/corpus/gpuharbor-mutants</code>) under seeded random stress configurations (GPUHarbor's generator, the same as <code>weft tune</code>) and keeps, per mutant, the configuration with the most target behaviours per second (weak outcomes; for the coherence mutants, the interleaving they target). A mutant is killed when some configuration shows its target behaviour. With the box below, each mutant's paired conformance tests run under every configuration too (the data of the mutant/conformance correlation). A run continues when you visit another page.</p>
    <label>seed <input id="tu-seed" value="rbjnMzXroA" size="12"></label>
    <label>configurations <input id="tu-n" type="number" value="3" min="1" max="1000" size="4"></label>
    <label>iterations <input id="tu-iter" type="number" value="5" min="1" size="4"></label>
    <label>limits <input id="tu-limits" value="64,64" size="8" title="desktop, mobile or L,Ls"></label>
    <label><input id="tu-conf" type="checkbox"> also run each mutant's conformance tests</label>
    <p><button id="tu-all" type="button">all ${mutants.length}</button> <button id="tu-none" type="button">none</button>
    ${mutants.map((m) => html`<label title="target: ${m.target}; pairs: ${m.pairs.join(", ")}"><input type="checkbox" class="tu-m" value="${m.name}" checked> ${m.name}</label> `)}</p>
    <button id="tu-run">Tune</button> <progress id="tu-prog" value="0" max="1"></progress> <span id="tu-status" class="small"></span>
    </section><section id="tu-out"></section>`,
  );
  const tick = (on: boolean) => document.querySelectorAll<HTMLInputElement>(".tu-m").forEach((x) => (x.checked = on));
  byId("tu-all")!.onclick = () => tick(true);
  byId("tu-none")!.onclick = () => tick(false);
  byId("tu-run")!.onclick = () => {
    const seed = byId("tu-seed")!.value;
    const limits = byId("tu-limits")!.value;
    const chosen = [...document.querySelectorAll<HTMLInputElement>(".tu-m:checked")].map((x) => x.value);
    const n = Number(byId("tu-n")!.value);
    const iterations = Number(byId("tu-iter")!.value);
    const withConf = byId("tu-conf")!.checked;
    void startJob(PAGE, async (j) => {
      const t = await tuneRun(j, seed, n, iterations, limits, chosen, withConf);
      j.output = table(seed, limits, n, chosen, t);
      saveBest();
    });
  };
  paintWith(PAGE, paint);
}
