// Conform: the conformance tests under the best configuration of their paired mutant (from
// Tune; the `stress` preset where there is none), with a progress bar, as a job that
// survives navigation; a weak outcome is a violation of the WebGPU memory model. A run
// whose checksum fails is shown and not queued.

import { byId, html, Html, render, setProgress, setText } from "../html";
import { Job, paintWith, startJob, update } from "../jobs";
import type { StressSpec } from "../api";
import { histogramTable, run, spec } from "../runner";
import { app, bestConfigs, queueRun, testInfo } from "../state";

const PAGE = "conform";

function paint(j: Job) {
  const btn = byId("co-run");
  if (btn) btn.disabled = j.running;
  setProgress("co-prog", j.done, j.total);
  setText("co-status", j.status);
  render(byId("co-out"), j.error ? html`<p class="bad">${j.error}</p>` : j.output ?? html``);
}

export async function conform(root: HTMLElement) {
  const conf = app.tests.filter((t) => t.role === "conformance");
  render(
    root,
    html`<section><h2>Conform</h2>
    <p>Runs the conformance tests under the best configuration of their paired mutant (from Tune; the <em>stress</em> preset where there is none). Under WebGPU's memory model their weak outcomes are forbidden: seeing one is a bug in the device, driver or browser.</p>
    <label>iterations <input id="co-iter" type="number" value="5" min="1" size="4"></label>
    <p>${conf.map((m) => html`<label><input type="checkbox" class="co-t" value="${m.name}" ${m.name === "MP-CO" ? html`checked` : ""}> ${m.name}</label> `)}</p>
    <button id="co-run">Run conformance tests</button> <progress id="co-prog" value="0" max="1"></progress> <span id="co-status" class="small"></span></section>
    <section id="co-out"></section>`,
  );
  byId("co-run")!.onclick = () => {
    const chosen = [...document.querySelectorAll<HTMLInputElement>(".co-t:checked")].map((x) => x.value);
    const iterations = Number(byId("co-iter")!.value);
    void startJob(PAGE, async (j) => {
      const rows: Html[] = [];
      const details: Html[] = [];
      let bugs = 0;
      for (let i = 0; i < chosen.length; i++) {
        const t = chosen[i];
        update(j, { done: i, total: chosen.length, status: `running ${t} (${i + 1}/${chosen.length})…` });
        // The best configuration among its paired mutants' (the one with most target/s).
        const b = (testInfo(t)?.pairs ?? [])
          .map((m) => bestConfigs[m])
          .filter((x) => x)
          .sort((x, y) => y.weakPerSecond - x.weakPerSecond)[0];
        const stress: StressSpec = b ? { tune_seed: b.seed, index: b.index, limits: b.limits } : { preset: "stress" };
        try {
          const s = await spec(t, stress, "7", iterations);
          const { result, record } = await run("conform", s);
          const q = queueRun(result, record);
          const v = result.classCounts[2];
          bugs += v > 0 && q.queued ? 1 : 0;
          rows.push(
            q.queued
              ? html`<tr class="${v > 0 ? "violation" : ""}"><td class="l">${t}</td><td class="l">${s.stress_name}</td><td>${result.instances}</td><td>${v}</td><td class="l ${v > 0 ? "bad" : "ok"}">${v > 0 ? "VIOLATION: outcomes the model forbids" : "conforms"}</td></tr>`
              : html`<tr><td class="l">${t}</td><td class="l">${s.stress_name}</td><td>${result.instances}</td><td>-</td><td class="l bad">${q.why}</td></tr>`,
          );
          details.push(html`<h3>${t}</h3>${histogramTable(result, true)}`);
        } catch (e) {
          rows.push(html`<tr><td class="l">${t}</td><td colspan="4" class="l bad">${String(e)}</td></tr>`);
        }
        update(j, { done: i + 1 });
      }
      j.status = "";
      j.output = html`${bugs > 0
        ? html`<p class="violation bad">${bugs} conformance test(s) showed outcomes the WebGPU memory model forbids: a bug in this device, driver or browser.</p>`
        : html`<p class="ok">No forbidden outcome observed.</p>`}
        <table id="conform-table"><tr><th class="l">test</th><th class="l">stress</th><th>instances</th><th>violations</th><th class="l">verdict</th></tr>${rows}</table>${details}`;
    });
  };
  paintWith(PAGE, paint);
}
