// Results: paper 001's figures and tables from /api/analyses (the same report as
// `weft analyze`), laid out to fit the page: Table 2 with a row per test and a column per
// device inside its own scrolling box, every table in a box no wider than the page. On the
// log axis of Fig. 6 a zero rate is drawn as a short bar at the axis floor and labelled 0
// (a log axis has no 0), so "no weak behaviour" is visible rather than missing. An empty
// database says "No data yet".

import { Chart } from "chart.js";
import { api } from "../api";
import type { AnalysisReport } from "../api-types";
import { html, render } from "../html";
import { markChart } from "../runner";

/// The floor of Fig. 6's log axis (% of instances); zero rates are drawn there.
const FLOOR = 1e-5;

export async function results(root: HTMLElement) {
  render(root, html`<p>loading…</p>`);
  const [rep, subs] = await Promise.all([api.analyses(), api.submissions()]);
  if (rep.runs === 0) {
    render(
      root,
      html`<section><h2>Results</h2><p id="re-empty">No data yet: no run has been submitted to this server. Run the Campaign (or Explore, Tune, Conform) and submit to see the analyses here.</p></section>`,
    );
    return;
  }
  const dev = (i: number) => {
    const d = rep.devices[i];
    return `${d.name || d.vendor}${d.browser ? " (" + d.browser + ", " + d.os + ")" : ""}`;
  };
  render(root, page(rep, subs, dev));
  drawCharts(rep);
}

function page(rep: AnalysisReport, subs: { id: number; received_at: string; runs: number }[], dev: (i: number) => string) {
  const best = (i: number, t: string) => rep.best_rates.find((x) => x.device === i && x.test === t);
  const sim = rep.similarity;
  const c = rep.clustering;
  return html`<section><h2>Results</h2><p>${rep.runs} runs from ${rep.devices.length} devices in ${subs.length} submissions. <a href="/api/export.csv">CSV</a> · <a href="/api/export.json">JSON</a></p>
    <table id="submissions"><tr><th>submission</th><th class="l">received</th><th>runs</th></tr>${subs
      .slice(-10)
      .map((x) => html`<tr><td>${x.id}</td><td class="l">${x.received_at}</td><td>${x.runs}</td></tr>`)}</table></section>
    <section><h3>Weak behaviours per vendor (mean and median of each device's best rate; paper 001 Fig. 6; log axis, 0 drawn at the floor)</h3><div class="chart wide"><canvas id="re-fig6"></canvas></div></section>
    <section><h3>Best rate per test and device (% of instances; Table 2)</h3><div class="scroll"><table id="table2"><tr><th class="l">test</th>${rep.devices.map(
      (_, i) => html`<th class="dev">${dev(i)}</th>`,
    )}</tr>${rep.tests.map(
      (t) => html`<tr><td class="l">${t}</td>${rep.devices.map((_, i) => {
        const b = best(i, t);
        return html`<td title="${b ? b.stress_name : ""}">${b ? (b.rate * 100).toFixed(3) : "-"}</td>`;
      })}</tr>`,
    )}</table></div></section>
    ${sim
      ? html`<section><h3>Device similarity (cosine; seed ${sim.seed}; Table 3)</h3><table id="table3"><tr><th class="l">vendor</th><th>pairs</th><th>avg</th><th>median</th><th>min</th><th>max</th></tr>${sim.vendors.map(
          (v) => html`<tr><td class="l">${v.vendor}</td><td>${v.pairs}</td><td>${v.avg.toFixed(3)}</td><td>${v.median.toFixed(3)}</td><td>${v.min.toFixed(3)}</td><td>${v.max.toFixed(3)}</td></tr>`,
        )}</table>
      <div class="scroll"><table><tr><th class="l">device</th><th class="l">nearest known device</th><th>similarity</th></tr>${sim.nearest.map(
        (n) => html`<tr><td class="l">${dev(n.device)}${n.unknown_model ? " (model unknown)" : ""}</td><td class="l">${n.nearest_known === null ? "-" : dev(n.nearest_known)}</td><td>${n.similarity.toFixed(3)}</td></tr>`,
      )}</table></div></section>`
      : ""}
    ${c
      ? html`<section><h3>Clusters (k-means, k = ${c.k} by the elbow; Table 4)</h3><div class="chart"><canvas id="re-elbow"></canvas></div><div class="scroll"><table><tr><th>cluster</th><th class="l">test on</th><th class="l">members</th></tr>${c.suggested.map(
          (d, k) => html`<tr><td>${k}</td><td class="l">${dev(d)}</td><td class="l">${c.assignment.filter((a) => a[1] === k).map((a) => dev(a[0])).join(", ")}</td></tr>`,
        )}</table></div></section>`
      : ""}
    <section><h3>Mutant weak rate vs conformance violation rate (Pearson, t-test; §5.1)</h3><div class="scroll"><table id="correlations"><tr><th class="l">device</th><th class="l">pair</th><th>n</th><th>r</th><th>p</th></tr>${rep.correlations.map(
      (x) => html`<tr><td class="l">${dev(x.device)}</td><td class="l">${x.mutant} / ${x.conformance}</td><td>${x.n}</td><td>${x.result ? x.result.r.toFixed(3) : "-"}</td><td>${x.result ? x.result.p.toExponential(2) : "-"}</td></tr>`,
    )}</table></div></section>
    <section><h3>Lock case study: failing instances per device and lock (§5.3, Table 5)</h3><div class="scroll"><table id="table5"><tr><th class="l">device</th><th class="l">test</th><th class="l">lock</th><th>fenced</th><th>runs</th><th>instances</th><th>failing</th><th>cut</th><th>seconds</th></tr>${rep.locks.map(
      (l) => html`<tr><td class="l">${dev(l.device)}</td><td class="l">${l.test}</td><td class="l">${l.lock}</td><td>${l.fenced ? "F" : "UF"}</td><td>${l.runs}</td><td>${l.instances}</td><td>${l.failing}</td><td>${l.cut}</td><td>${l.seconds.toFixed(2)}</td></tr>`,
    )}</table></div></section>
    <section><h3>Testing time per device by vendor (Fig. 5)</h3><div class="chart"><canvas id="re-fig5"></canvas></div></section>`;
}

function drawCharts(rep: AnalysisReport) {
  const vendors = [...new Set(rep.vendor_rates.map((v) => v.vendor))];
  const rate = (v: string, t: string, f: "mean" | "median") => 100 * (rep.vendor_rates.find((x) => x.vendor === v && x.test === t)?.[f] ?? 0);
  const datasets = vendors.flatMap((v) =>
    (["mean", "median"] as const).map((f) => {
      const raw = rep.tests.map((t) => rate(v, t, f));
      return { label: `${v} ${f}`, raw, data: raw.map((x) => (x > 0 ? x : FLOOR)) };
    }),
  );
  const fig6 = document.getElementById("re-fig6") as HTMLCanvasElement | null;
  if (fig6) {
    new Chart(fig6, {
      type: "bar",
      data: { labels: rep.tests, datasets: datasets.map((d) => ({ label: d.label, data: d.data })) },
      options: {
        animation: false,
        maintainAspectRatio: false,
        scales: {
          y: {
            type: "logarithmic",
            // Below the floor, so a zero rate (drawn at the floor) is a visible stub.
            min: FLOOR / 4,
            suggestedMax: 1,
            title: { display: true, text: "weak behaviours (%)" },
            ticks: { callback: (v) => (Number(v) < FLOOR ? "" : Number(v) === FLOOR ? "0" : String(v)) },
          },
        },
        plugins: {
          tooltip: {
            callbacks: {
              label: (ctx) => `${ctx.dataset.label}: ${datasets[ctx.datasetIndex].raw[ctx.dataIndex]} %`,
            },
          },
        },
      },
    });
    markChart(fig6, "logarithmic", datasets.flatMap((d) => d.data));
  }
  const elbow = document.getElementById("re-elbow") as HTMLCanvasElement | null;
  if (elbow && rep.clustering) {
    new Chart(elbow, {
      type: "line",
      data: { labels: rep.clustering.distortions.map((_, i) => `k=${i + 1}`), datasets: [{ label: "distortion", data: rep.clustering.distortions }] },
      options: { animation: false, maintainAspectRatio: false },
    });
  }
  const byVendor = [...new Set(rep.durations.map((d) => d.vendor))];
  const fig5 = document.getElementById("re-fig5") as HTMLCanvasElement | null;
  if (fig5) {
    new Chart(fig5, {
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
}
