// Campaign: fixed defaults (paper 001 §3.3: seed rbjnMzXroA, 50 configurations of 50
// iterations on the web; a URL may lower them, `#campaign?configs=2&iterations=2`), a
// duration estimate measured on this GPU before the visitor consents (a few short runs of
// MP under the campaign's first configurations, sent nowhere), the consent text, then
// every mutant and its conformance tests under every configuration as a job that survives
// navigation, then the submission.

import { api } from "../api";
import { byId, html, render, setProgress, setText } from "../html";
import { Job, jobOf, paintWith, startJob, update } from "../jobs";
import { deviceDescription, run, spec } from "../runner";
import { app, sendPending, testInfo } from "../state";
import { sentSummary } from "./submit";
import { tuneRun } from "./tune";

const PAGE = "campaign";
const ESTIMATE = "campaign-estimate";

export function campaignDefaults() {
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

type Defaults = ReturnType<typeof campaignDefaults>;

function campaignTests(d: Defaults): { mutants: string[]; runsPerConfig: number } {
  const only = d.mutants?.split(",");
  const mutants = app.tests.filter((t) => t.tuning && (!only || only.includes(t.name))).map((t) => t.name);
  const runsPerConfig = mutants.reduce((a, m) => a + 1 + (testInfo(m)?.pairs.length ?? 0), 0);
  return { mutants, runsPerConfig };
}

function minutes(ms: number): string {
  return ms < 90_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${(ms / 60_000).toFixed(ms < 600_000 ? 1 : 0)} min`;
}

/// Times MP under up to 3 of the campaign's configurations with 1 and with 3 iterations:
/// per configuration a fixed cost (set-up, compilation) and a cost per iteration, averaged
/// and scaled to the whole campaign.
async function estimate(j: Job, d: Defaults) {
  const { runsPerConfig } = campaignTests(d);
  const sample = Math.min(3, d.configs);
  const cfgs = await api.configs(d.seed, sample, d.limits);
  let fixed = 0;
  let perIteration = 0;
  for (let k = 0; k < sample; k++) {
    update(j, { done: k, total: sample, status: `measuring configuration #${k}…` });
    const stress = { tune_seed: d.seed, index: k, limits: d.limits };
    const one = (await run("tune", await spec("MP", stress, cfgs[k].seed, 1))).result.ms;
    const three = (await run("tune", await spec("MP", stress, cfgs[k].seed, 3))).result.ms;
    const per = Math.max(0, (three - one) / 2);
    perIteration += per / sample;
    fixed += Math.max(0, one - per) / sample;
  }
  const total = d.configs * runsPerConfig * (fixed + d.iterations * perIteration);
  j.data = total;
  j.status = "";
  j.output = html`<span id="ca-estimate-value" data-ms="${Math.round(total)}">about ${minutes(total)}</span> for ${d.configs * runsPerConfig} runs (${runsPerConfig} per configuration), measured on this GPU with MP under ${sample} of the ${d.configs} configurations (the configurations differ, so the real time may differ severalfold). These measuring runs are not sent.`;
}

function paint(j: Job) {
  const btn = byId("ca-run");
  if (btn) btn.disabled = j.running;
  setProgress("ca-prog", j.done, j.total);
  setText("ca-status", j.status);
  render(byId("ca-out"), j.error ? html`<p class="bad">${j.error}</p>` : j.output ?? html``);
}

function paintEstimate(j: Job) {
  render(byId("ca-estimate"), j.error ? html`<span class="bad">cannot estimate: ${j.error}</span>` : j.output ?? html`${j.status || "measuring…"}`);
}

export async function campaign(root: HTMLElement) {
  const d = campaignDefaults();
  render(
    root,
    html`<section><h2>Campaign</h2>
    <p>One button runs the campaign's tests on your GPU with fixed settings (seed <code>${d.seed}</code>, ${d.configs} stress configurations × ${d.iterations} iterations, limits ${d.limits}), every mutant and its conformance tests under every configuration, then submits the results. You may visit other pages while it runs.</p>
    <p><strong>Expected duration:</strong> <span id="ca-estimate">measuring…</span></p>
    <p id="ca-consent-text"><strong>Consent.</strong> This server stores and publishes, for each run (on the Results page, through <code>/api/runs</code> and the CSV and JSON exports): its results, test, stress configuration, seed, start time and duration; your GPU's vendor, architecture and name as WebGPU reports them; your browser and operating system. An optional contact is stored and never published. Your IP address is used only to limit how often submissions arrive and is not stored. No other information about you is collected. Your GPU will be busy for the duration; you may stop at any time by closing the page.</p>
    <label><input type="checkbox" id="ca-consent"> I agree</label>
    <label>contact (optional) <input id="ca-contact" size="30"></label>
    <button id="ca-run">Start</button> <progress id="ca-prog" value="0" max="1"></progress> <span id="ca-status" class="small"></span>
    </section><section id="ca-out"></section>`,
  );
  const key = `${ESTIMATE}:${d.configs}:${d.iterations}:${d.limits}:${d.mutants ?? ""}`;
  paintWith(key, paintEstimate);
  if (!jobOf(key) && app.gpu) void startJob(key, (j) => estimate(j, d), PAGE);
  if (!app.gpu) render(byId("ca-estimate"), html`<span class="bad">no WebGPU: ${app.gpuError}</span>`);
  byId("ca-run")!.onclick = () => {
    if (!byId("ca-consent")!.checked) {
      setText("ca-status", "please agree to the consent text first");
      return;
    }
    const contact = byId("ca-contact")?.value ?? "";
    void startJob(PAGE, async (j) => {
      const { mutants } = campaignTests(d);
      const t0 = performance.now();
      const t = await tuneRun(j, d.seed, d.configs, d.iterations, d.limits, mutants, true);
      // Time on this device as paper 001 §4 counts it: runs over a minute (the machine
      // slept) are replaced by a neighbour's duration. The recorded durations are sent
      // unchanged; the server's analyses impute the same way (Fig. 5).
      let imputed = 0;
      const counted = t.durations.map((ms, i) => {
        if (ms <= 60_000) return ms;
        imputed++;
        const nb = t.durations.slice(0, i).reverse().find((x) => x <= 60_000) ?? t.durations.slice(i + 1).find((x) => x <= 60_000);
        return nb ?? 0;
      });
      const mins = counted.reduce((a, x) => a + x, 0) / 60000;
      j.status = "submitting…";
      const sent = await sendPending(deviceDescription(), contact);
      const last = sent[sent.length - 1]?.answer;
      j.status = "";
      j.output = html`${sentSummary(sent)}${last
        ? html`<p class="ok" id="ca-done">Thank you: ${last.runs.length} runs stored as submission ${last.submission}; testing took ${mins.toFixed(2)} min (${imputed} run durations over a minute imputed; ${((performance.now() - t0) / 60000).toFixed(2)} min wall time).</p>`
        : ""}${t.refused.length ? html`<p class="bad">${t.refused.length} runs failed their checksum and were not sent.</p>` : ""}${t.failed.length ? html`<p class="bad">${t.failed.length} runs could not be fetched or run: ${t.failed.slice(0, 5).join("; ")}</p>` : ""}<a href="#results">See the results</a>`;
    });
  };
  paintWith(PAGE, paint);
}
