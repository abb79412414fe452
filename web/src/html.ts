// The escaping template layer of the web app: every page is written as `html` tagged
// templates, whose interpolated values are escaped as text unless they are themselves
// `Html` (a nested template) or arrays of them. No page builds markup from strings by
// hand, so a device name, test name or server message always renders as text.

/// Markup made by `html` (trusted: its literal parts are the app's own source).
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

const ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function text(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]);
}

/// A template value: text (escaped), a number, nested markup, a list of those, or nothing.
export type Value = Html | string | number | boolean | null | undefined | Value[];

function piece(v: Value): string {
  if (v instanceof Html) return v.markup;
  if (Array.isArray(v)) return v.map(piece).join("");
  if (v === null || v === undefined || v === false) return "";
  return text(String(v));
}

/// `html\`<td>${name}</td>\``: the literal parts as written, every value escaped.
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + strings[i + 1];
  return new Html(out);
}

/// Replaces the children of `el` (when it is still in the page) with `h`.
export function render(el: Element | null, h: Html): void {
  if (el) el.innerHTML = h.markup;
}

/// The element with this id, if the current page has it.
export function byId<T extends HTMLElement = HTMLInputElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

/// Sets a text node's content, if the element is in the page.
export function setText(id: string, s: string): void {
  const e = byId(id);
  if (e) e.textContent = s;
}

/// Sets a progress bar's fraction, if the element is in the page.
export function setProgress(id: string, done: number, total: number): void {
  const e = byId<HTMLProgressElement>(id);
  if (e) e.value = total > 0 ? Math.min(1, done / total) : 0;
}
