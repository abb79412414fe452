// Submit: shows exactly what will be sent (the device and every queued run; a submission
// whose answer was lost is sent first, under its own key and body), then sends it and
// says what the server did, including a stale key renewed or runs it refused.

import { byId, html, Html, render } from "../html";
import { deviceDescription } from "../runner";
import { outboxRuns, pending, Sent, sendPending } from "../state";

export function sentSummary(sent: Sent[]): Html {
  return html`${sent.map(
    (s) => html`${s.notes.map((n) => html`<p class="note small">${n}</p>`)}${s.answer
      ? html`<span class="ok">Stored as submission ${s.answer.submission} (${s.answer.runs.length} runs${s.answer.stored ? "" : "; already stored"}).</span> `
      : html`<span class="bad">${s.runs} runs not stored.</span> `}`,
  )}`;
}

export async function submit(root: HTMLElement) {
  const waiting = outboxRuns();
  const preview = {
    device: deviceDescription(),
    runs: pending.map((r) => ({ ...r, rows: `${r.rows?.length ?? 0} distinct result rows` })),
  };
  render(
    root,
    html`<section><h2>Submit</h2>
    <p>This is what will be sent to the campaign server: the device as WebGPU describes it, your browser and operating system, and for each run the test, stress configuration, seed, iterations, duration and the counts of every outcome. Nothing else.</p>
    ${waiting ? html`<p id="su-outbox" class="note">${waiting} runs of an earlier submission whose answer never arrived are sent again first, unchanged (the server stores them once).</p>` : ""}
    <pre id="su-preview">${JSON.stringify(preview, null, 2)}</pre>
    <label>contact (optional) <input id="su-contact" size="30"></label>
    <button id="su-send" ${pending.length + waiting ? "" : html`disabled`}>Submit ${pending.length + waiting} runs</button>
    <p id="su-out"></p></section>`,
  );
  byId("su-send")!.onclick = async () => {
    byId("su-send")!.disabled = true;
    try {
      const sent = await sendPending(deviceDescription(), byId("su-contact")?.value ?? "");
      render(byId("su-out"), html`<span id="su-done">${sentSummary(sent)}</span> See <a href="#results">Results</a>.`);
    } catch (e) {
      render(byId("su-out"), html`<span class="bad" id="su-error">${String(e instanceof Error ? e.message : e)}; the runs are kept and sent again, under the same key, with the next Submit.</span>`);
      const b = byId("su-send");
      if (b) b.disabled = false;
    }
  };
}
