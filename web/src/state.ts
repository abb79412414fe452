// What the web app keeps between pages and reloads: the WebGPU device, the catalog, the
// runs waiting to be submitted and the submission in flight (issue 29 item 8).
//
// A run is queued only when its checksum holds (paper 001 §4: the result shader's counts
// add up and agree with the rows), so a run the server would refuse with 422 never enters
// the queue. Submitting freezes the queue into an *outbox*: one idempotency key with the
// exact body sent under it, kept in localStorage until the server answers. A lost answer
// is retried with the same key and body (the server answers with the stored submission);
// runs finished meanwhile wait in the queue for the next submission, so they never change
// what was sent under a key. A 409 (the key was used for another body, e.g. a key left by
// an older version of this app) drops the stale key and sends the body again under a new
// one, with a message; a 4xx refusal drops the outbox with the server's reason, so nothing
// stays stuck.

import { api, ApiError } from "./api";
import type { RunIn, SubmissionIn, SubmitAnswer, TestSummary, PresetInfo } from "./api-types";
import { checksum, Gpu, RunResult } from "./gpu";

export const app = {
  gpu: null as Gpu | null,
  gpuError: "",
  tests: [] as TestSummary[],
  presets: [] as PresetInfo[],
};

function load<T>(key: string, fallback: T): T {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : (JSON.parse(v) as T);
  } catch {
    return fallback;
  }
}

/// Runs waiting to be submitted (kept across reloads).
export const pending: RunIn[] = load<RunIn[]>("weft-pending", []);

export function savePending() {
  localStorage.setItem("weft-pending", JSON.stringify(pending));
}

/// Queues a finished run when its checksum holds; says why not otherwise.
export function queueRun(result: RunResult, record: RunIn): { queued: boolean; why: string } {
  const cs = checksum(result);
  if (!cs.ok) return { queued: false, why: `not queued: checksum ${cs.text}` };
  pending.push(record);
  savePending();
  return { queued: true, why: "" };
}

/// The best configuration per mutant from the last tuning (for Conform).
export const bestConfigs: Record<string, { index: number; seed: string; limits: string; weakPerSecond: number }> = load(
  "weft-best",
  {},
);
export function saveBest() {
  localStorage.setItem("weft-best", JSON.stringify(bestConfigs));
}

export function testInfo(name: string): TestSummary | undefined {
  return app.tests.find((t) => t.name === name);
}

// ---------------------------------------------------------------- submissions

interface Outbox {
  key: string;
  body: SubmissionIn;
}

function newKey(): string {
  const a = new Uint8Array(16);
  crypto.getRandomValues(a);
  return [...a].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function loadOutbox(): Outbox | null {
  return load<Outbox | null>("weft-outbox", null);
}
function saveOutbox(o: Outbox | null) {
  if (o) localStorage.setItem("weft-outbox", JSON.stringify(o));
  else localStorage.removeItem("weft-outbox");
}

export function outboxRuns(): number {
  return loadOutbox()?.body.runs.length ?? 0;
}

/// One submission's result, with what happened on the way.
export interface Sent {
  answer: SubmitAnswer | null;
  runs: number;
  notes: string[];
}

async function sendOutbox(o: Outbox, notes: string[]): Promise<SubmitAnswer | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const a = await api.submit({ ...o.body, idempotency_key: o.key });
      saveOutbox(null);
      if (!a.stored) notes.push(`submission ${a.submission} had already been stored (an earlier answer was lost); nothing stored twice`);
      return a;
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && attempt === 0) {
        notes.push(`the server already holds a different submission under this browser's key (a stale key); sending again under a new key`);
        o.key = newKey();
        saveOutbox(o);
        continue;
      }
      if (e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429) {
        saveOutbox(null);
        notes.push(`the server refused ${o.body.runs.length} runs (HTTP ${e.status}: ${e.message}); they were removed from the queue`);
        return null;
      }
      // Network or server trouble after the retries: kept, resent with the same key.
      throw e;
    }
  }
  return null;
}

/// Sends what is in the outbox (a submission whose answer was lost), then the queue as a
/// new submission. Throws on network or server trouble (the outbox is kept).
export async function sendPending(device: SubmissionIn["device"], contact: string): Promise<Sent[]> {
  const out: Sent[] = [];
  // An older version of this app kept a bare key beside the queue: its content is unknown,
  // so it becomes an outbox of the current queue (a 409 then renews it).
  const legacy = localStorage.getItem("weft-key");
  let o = loadOutbox();
  if (legacy) {
    localStorage.removeItem("weft-key");
    if (!o && pending.length) {
      o = { key: legacy, body: { idempotency_key: legacy, device, contact: contact || undefined, runs: pending.splice(0) } };
      saveOutbox(o);
      savePending();
    }
  }
  if (o) {
    const notes: string[] = [];
    out.push({ answer: await sendOutbox(o, notes), runs: o.body.runs.length, notes });
  }
  if (pending.length) {
    const key = newKey();
    const body: SubmissionIn = { idempotency_key: key, device, contact: contact || undefined, runs: pending.splice(0) };
    const fresh = { key, body };
    saveOutbox(fresh);
    savePending();
    const notes: string[] = [];
    out.push({ answer: await sendOutbox(fresh, notes), runs: body.runs.length, notes });
  }
  return out;
}
