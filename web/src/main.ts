// weft campaign web app: the router over the pages (pages/), each rendering through the
// escaping template layer (html.ts) and talking to `weft serve` through the typed API
// client (api.ts, types generated from the server's Rust types); long runs are jobs that
// survive navigation (jobs.ts); tests run on the visitor's GPU with WebGPU (gpu.ts).
// Paper 001 §3 describes the tool this follows.

import { api, setRetryListener } from "./api";
import { openGpu } from "./gpu";
import { html, render } from "./html";
import { showing } from "./jobs";
import { campaign } from "./pages/campaign";
import { conform } from "./pages/conform";
import { explore } from "./pages/explore";
import { locks } from "./pages/locks";
import { results } from "./pages/results";
import { submit } from "./pages/submit";
import { tune } from "./pages/tune";
import { app } from "./state";

const pages: Record<string, (root: HTMLElement) => Promise<void>> = { explore, tune, conform, locks, submit, campaign, results };

async function route() {
  const root = document.getElementById("page")!;
  const asked = location.hash.slice(1).split("?")[0] || "explore";
  const name = pages[asked] ? asked : "explore";
  document.querySelectorAll("#nav a").forEach((a) => a.classList.toggle("active", (a as HTMLElement).dataset.page === name));
  showing(name);
  try {
    await pages[name](root);
  } catch (e) {
    render(root, html`<p class="bad">${String(e instanceof Error ? e.message : e)}</p>`);
  }
}

async function start() {
  const status = document.getElementById("gpu-status")!;
  setRetryListener((what, ms, attempt) => {
    const n = document.getElementById("net-status");
    if (n) n.textContent = what ? `server busy (${what}): retrying in ${(ms / 1000).toFixed(1)} s (try ${attempt + 1})` : "";
    if (what) (window as unknown as { weftRetries: number }).weftRetries = ((window as unknown as { weftRetries?: number }).weftRetries ?? 0) + 1;
  });
  try {
    app.gpu = await openGpu();
    const i = app.gpu.info;
    status.textContent = `WebGPU: ${[i.vendor, i.architecture, i.device || i.description].filter(Boolean).join(" / ") || "adapter without a description"}`;
  } catch (e) {
    app.gpuError = String(e);
    status.textContent = `no WebGPU: ${app.gpuError}`;
  }
  [app.tests, app.presets] = await Promise.all([api.tests(), api.presets()]);
  window.addEventListener("hashchange", route);
  await route();
}

start();
