// The API client of the web app: one typed function per route of `weft serve`, with the
// request and response types generated from the server's Rust types (api-types.ts, written
// by `WEFT_UPDATE=1 cargo test -p weft-server --test ts_types`, checked current by that
// test). Every request retries with exponential backoff on 429, 5xx and network errors,
// waiting at least what a Retry-After header asks (issue 29 item 9: one rate-limited
// request must not abort a campaign of thousands of runs). Run specifications (/api/spec)
// are streamed by the server rather than built from one Rust type; their shape is gpu.ts's.

import type {
  AnalysisReport,
  PresetInfo,
  SubmissionIn,
  SubmissionListItem,
  SubmitAnswer,
  TestDetail,
  TestSummary,
  TuneConfig,
} from "./api-types";
import type { Spec } from "./gpu";

/// An answer the server gave with an error status (after the retries, for 429/5xx).
export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/// How many times a request is tried, and the first backoff in ms (doubled each time).
export const RETRY = { attempts: 6, firstMs: 500, maxMs: 30_000 };

/// Called before each wait, so a page can say why it is waiting, and with an empty `what`
/// when a retried request got through.
export let onRetry: (what: string, waitMs: number, attempt: number) => void = () => {};
export function setRetryListener(f: typeof onRetry) {
  onRetry = f;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function retryAfterMs(r: Response): number | null {
  const h = r.headers.get("retry-after");
  if (!h) return null;
  const s = Number(h);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const t = Date.parse(h);
  return Number.isFinite(t) ? Math.max(0, t - Date.now()) : null;
}

/// One request with retries; the parsed JSON body of a 2xx answer.
export async function request<T>(path: string, body?: unknown): Promise<T> {
  const init: RequestInit =
    body === undefined
      ? {}
      : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  let backoff = RETRY.firstMs;
  for (let attempt = 1; ; attempt++) {
    let r: Response | null = null;
    let failure = "";
    try {
      r = await fetch(path, init);
    } catch (e) {
      failure = `network error: ${e}`;
    }
    if (r && r.ok) {
      if (attempt > 1) onRetry("", 0, 0);
      return (await r.json()) as T;
    }
    const transient = !r || r.status === 429 || r.status >= 500;
    if (r && !transient) {
      const j = await r.json().catch(() => ({}));
      throw new ApiError(r.status, j.error ?? `HTTP ${r.status}`);
    }
    if (attempt >= RETRY.attempts) {
      if (attempt > 1) onRetry("", 0, 0);
      if (r) {
        const j = await r.json().catch(() => ({}));
        throw new ApiError(r.status, `${j.error ?? `HTTP ${r.status}`} (after ${attempt} tries)`);
      }
      throw new ApiError(0, `${failure} (after ${attempt} tries)`);
    }
    const wait = Math.min(RETRY.maxMs, Math.max(backoff, (r && retryAfterMs(r)) ?? 0));
    onRetry(r ? `HTTP ${r.status}` : failure, wait, attempt);
    await sleep(wait);
    backoff = Math.min(RETRY.maxMs, backoff * 2);
  }
}

export type StressSpec =
  | { preset: string }
  | { tune_seed: string; index: number; limits: string }
  | { config: Record<string, unknown> };

export const api = {
  tests: () => request<TestSummary[]>("/api/tests"),
  test: (name: string) => request<TestDetail>(`/api/tests/${encodeURIComponent(name)}`),
  presets: () => request<PresetInfo[]>("/api/presets"),
  configs: (seed: string, n: number, limits: string) =>
    request<TuneConfig[]>(`/api/configs?seed=${encodeURIComponent(seed)}&n=${n}&limits=${encodeURIComponent(limits)}`),
  spec: (body: { test: string; stress: StressSpec; seed: string; iterations: number; from?: number }) =>
    request<Spec>("/api/spec", body),
  submit: (body: SubmissionIn) => request<SubmitAnswer>("/api/submissions", body),
  submissions: () => request<SubmissionListItem[]>("/api/submissions"),
  analyses: () => request<AnalysisReport>("/api/analyses"),
};
