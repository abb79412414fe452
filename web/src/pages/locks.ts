// Locks: the lock case study (paper 001 §5.3, Table 5): spin locks taken by threads of
// different workgroups around a plain counter increment, with a progress bar, as a job
// that survives navigation. An instance fails when the counter is not the number of
// increments; a thread stopped at the shader's spin cap reports i32::MIN in every register
// (cut: neither a success nor a failure). A run whose checksum fails is not queued.

import { api } from "../api";
import { byId, html, Html, render, setProgress, setText } from "../html";
import { Job, paintWith, startJob, update } from "../jobs";
import { run, spec } from "../runner";
import { app, pending, queueRun } from "../state";

const PAGE = "locks";
const CUT_VALUE = -2147483648;

interface LockMeta {
  lock: string;
  fenced: boolean;
  counter: string;
  expected: number;
}

function paint(j: Job) {
  const btn = byId("lk-run");
  if (btn) btn.disabled = j.running;
  setProgress("lk-prog", j.done, j.total);
  setText("lk-status", j.status);
  render(byId("lk-out"), j.error ? html`<p class="bad">${j.error}</p>` : j.output ?? html``);
}

export async function locks(root: HTMLElement) {
  const lockTests = app.tests.filter((t) => t.role === "lock");
  const metas = await Promise.all(lockTests.map(async (t) => (await api.test(t.name)).meta as unknown as LockMeta));
  render(
    root,
    html`<section><h2>Locks</h2>
    <p>Paper 001 §5.3: test-and-set (TAS), test-and-test-and-set (TTAS) and compare-and-swap (CAS) spin locks, unfenced (UF) and fenced (F), each taken by two threads of different workgroups that increment a plain counter; an instance <em>fails</em> when an increment is lost (the counter is not 2). The no-lock baseline loses increments even under sequential consistency. WGSL's atomics are relaxed and it has no acquire/release fences, so the fenced locks cannot run in WebGPU (the server refuses them, as <code>weft run --backend wgpu</code> does); <code>weft mc -m vulkan</code> shows that the fences make them correct and that the unfenced ones are not.</p>
    <label>stress <select id="lk-preset">${app.presets.map((x) => html`<option ${x.name === "stress" ? html`selected` : ""}>${x.name}</option>`)}</select></label>
    <label>iterations <input id="lk-iter" type="number" value="20" min="1" size="5"></label>
    <p>${lockTests.map((t) => html`<label><input type="checkbox" class="lk-t" value="${t.name}" checked> ${t.name}</label> `)}</p>
    <button id="lk-run">Run lock tests</button> <progress id="lk-prog" value="0" max="1"></progress> <span id="lk-status" class="small"></span></section>
    <section id="lk-out"></section>`,
  );
  byId("lk-run")!.onclick = () => {
    const chosen = [...document.querySelectorAll<HTMLInputElement>(".lk-t:checked")].map((x) => x.value);
    const preset = byId("lk-preset")!.value;
    const iterations = Number(byId("lk-iter")!.value);
    void startJob(PAGE, async (j) => {
      const rows: Html[] = [];
      for (let i = 0; i < chosen.length; i++) {
        const name = chosen[i];
        const m = metas[lockTests.findIndex((t) => t.name === name)];
        const head = html`<td class="l">${name}</td><td class="l">${m.lock}</td><td>${m.fenced ? "F" : "UF"}</td>`;
        update(j, { done: i, total: chosen.length, status: `running ${name} (${i + 1}/${chosen.length})…` });
        try {
          const s = await spec(name, { preset }, "11", iterations);
          const { result, record } = await run("run", s);
          const q = queueRun(result, record);
          const col = s.columns.find((c) => c.name === m.counter)?.word;
          const regs = s.columns.filter((c) => c.name.includes(":") && c.word !== null).map((c) => c.word!);
          let failing = 0;
          let cut = 0;
          for (const r of result.rows) {
            if (regs.some((w) => r.values[w] === CUT_VALUE)) cut += r.count;
            else if (col === undefined || col === null || r.values[col] !== m.expected) failing += r.count;
          }
          const verdict = !q.queued
            ? q.why
            : failing > 0
              ? m.lock === "none"
                ? "increments lost (no lock: expected)"
                : "critical section violated"
              : "no failure";
          rows.push(
            html`<tr class="${failing > 0 && m.lock !== "none" ? "violation" : ""}">${head}<td>${result.instances}</td><td class="failing">${failing}</td><td>${cut}</td><td class="l ${failing > 0 || !q.queued ? "bad" : "ok"}">${verdict}</td></tr>`,
          );
        } catch (e) {
          rows.push(html`<tr>${head}<td colspan="3">-</td><td class="l small">${String(e)}</td></tr>`);
        }
        update(j, { done: i + 1 });
      }
      j.status = "done";
      j.output = html`<table id="locks-table"><tr><th class="l">test</th><th class="l">lock</th><th>fenced</th><th>instances</th><th>failing</th><th>cut</th><th class="l">verdict</th></tr>${rows}</table><p class="small">${pending.length} runs waiting to be submitted (Submit page).</p>`;
    });
  };
  paintWith(PAGE, paint);
}
