// Long runs that outlive the page that started them (issue 29 item 9). A job belongs to a
// page (Explore, Tune, ...) and keeps its progress, status line, partial and final output
// in this module, not in page elements; its updates repaint the page only while that page
// is shown (through the page's painter, which finds its elements by id and skips the
// missing), so leaving a page mid-run neither stops nor breaks the run, and coming back
// shows it where it is. Closing or reloading the tab while a job runs asks first.

import { Html } from "./html";

export interface Job {
  /// What the job is (a page may have more than one: Campaign's estimate and run).
  key: string;
  /// The page that shows it.
  page: string;
  running: boolean;
  done: number;
  total: number;
  status: string;
  /// The page's latest output (partial while running), and any error.
  output: Html | null;
  error: string;
  /// Page-specific data (e.g. the partial histogram), for the painter.
  data: unknown;
}

const jobs: Record<string, Job> = {};
const painters: Record<string, (j: Job) => void> = {};
let current = "";

/// The page now shown (set by the router).
export function showing(page: string) {
  current = page;
}

/// The job of this key, if there is one.
export function jobOf(key: string): Job | undefined {
  return jobs[key];
}

export function anyRunning(): boolean {
  return Object.values(jobs).some((j) => j.running);
}

/// How a page draws the job of this key; called now when there is one.
export function paintWith(key: string, f: (j: Job) => void) {
  painters[key] = f;
  const j = jobs[key];
  if (j) f(j);
}

/// Repaints a job if its page is shown.
export function update(j: Job, change: Partial<Job> = {}) {
  Object.assign(j, change);
  if (current === j.page) painters[j.key]?.(j);
}

/// Starts `body` as the job `key` of `page` (default: the key is the page) unless one runs
/// already; the job ends when `body` does.
export async function startJob(key: string, body: (j: Job) => Promise<void>, page = key): Promise<Job | null> {
  if (jobs[key]?.running) return null;
  const j: Job = { key, page, running: true, done: 0, total: 1, status: "", output: null, error: "", data: null };
  jobs[key] = j;
  update(j);
  try {
    await body(j);
  } catch (e) {
    j.error = String(e instanceof Error ? e.message : e);
  }
  update(j, { running: false });
  return j;
}

window.addEventListener("beforeunload", (e) => {
  if (anyRunning()) {
    e.preventDefault();
    e.returnValue = "";
  }
});
