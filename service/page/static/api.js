// @ts-check
// Talking to Quartermaster's HTTP API from the page, and building the page's elements.
// The session cookie authenticates every request; writes carry the page's header, which another site cannot send.
// It imports no other module of the page but root.js (where the service is served): a refusal's words (refusal.js)
// and "Log it anyway" (override.js) build on it, and a form's button that shows them is in action.js.

import { rooted } from "./root.js";

export class Refusal extends Error {
  constructor(status, problem, request) {
    super(problem.detail || `The server answered ${status}.`);
    this.status = status;
    this.problem = problem;
    this.request = request; // { path, method, body }: what was refused, for "Log it anyway" (override.js)
  }
}

// The server could not be reached (no network, the server stopped, no answer in time): nothing is known about a
// write it carried, so it is sent again with the same ids or key, never taken as refused.
export class Unreachable extends Error {
  constructor(cause) {
    super("The server cannot be reached: this phone is offline, or the server is stopped or not answering.");
    this.cause = cause;
  }
}

// A write that waits on this phone (see outbox.js): not refused, not recorded yet. `message` says why and what next.
export class Queued extends Error {}

// The last answer to each read, kept in the page's own storage so that a phone without the server still shows the
// campaign as it last saw it (and says as of when: see connection.js).
const KEPT = "qm.read:";
const KEEP_AT_MOST = 60;
const listeners = new Set();
export function onStale(listener) {
  listeners.add(listener);
}
function store() {
  try {
    return globalThis.localStorage || null;
  } catch {
    return null;
  }
}

function keep(path, content) {
  const storage = store();
  if (!storage || !(path.startsWith("/v1/") || path === "/session")) return;
  const entry = JSON.stringify({ at: Date.now(), content });
  try {
    storage.setItem(KEPT + path, entry);
  } catch {
    // Full: forget the oldest reads (the queue of writes is kept under other keys and never evicted).
    const kept = Object.keys(storage)
      .filter(k => k.startsWith(KEPT))
      .map(k => [k, JSON.parse(storage.getItem(k) || "{}").at || 0])
      .sort((a, b) => a[1] - b[1]);
    for (const [k] of kept.slice(0, Math.max(1, kept.length - KEEP_AT_MOST / 2))) storage.removeItem(k);
    try {
      storage.setItem(KEPT + path, entry);
    } catch {
      /* larger than the whole storage: not kept */
    }
  }
}

function kept(path) {
  const raw = store()?.getItem(KEPT + path);
  return raw ? JSON.parse(raw) : null;
}

// Signed out: what this phone kept of the campaign goes (the list of campaigns is read again on the next visit).
export function forget(campaign) {
  const storage = store();
  if (!storage) return;
  for (const k of Object.keys(storage)) {
    if (k.startsWith(`${KEPT}/v1/campaigns/${campaign}`) || k === `${KEPT}/session`) storage.removeItem(k);
  }
}

// `accept`: the form of the answer asked for (a report as Markdown); it is kept apart from the same path's JSON.
/**
 * @param {string} path below the service's root
 * @param {{ method?: string, body?: unknown, key?: string, timeout?: number, accept?: string }} [options]
 * @returns {Promise<any>} the answer's JSON, or its text when it is not JSON
 */
export async function api(path, { method = "GET", body, key, timeout = 15000, accept } = {}) {
  const headers = { "X-Quartermaster": "page" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (accept) headers.Accept = accept;
  const keptAs = accept ? `${path} ${accept}` : path;
  if (key) headers["Idempotency-Key"] = key;
  let answer;
  try {
    answer = await fetch(rooted(path), {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeout),
    });
  } catch (error) {
    // "Failed to fetch", a timeout: the browser says no more than that the answer never came.
    const old = method === "GET" ? kept(keptAs) : null;
    if (old) {
      for (const listener of listeners) listener(old.at, path);
      return old.content;
    }
    throw new Unreachable(error);
  }
  const type = answer.headers.get("content-type") || "";
  const content = type.includes("json") ? await answer.json() : await answer.text();
  if (!answer.ok)
    throw new Refusal(answer.status, typeof content === "object" ? content : { detail: content }, {
      path,
      method,
      body,
    });
  if (method === "GET") keep(keptAs, content);
  return content;
}

// h("button", {onclick, "aria-label": "..."}, "text", child, ...): an element with its attributes and children.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "value") el.value = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// A labelled control: the label names it for screen readers and tests alike.
export function field(label, control) {
  const id = control.id || `f${Math.random().toString(36).slice(2, 9)}`;
  control.id = id;
  return h("div", {}, h("label", { for: id }, label), control);
}

// A form or a section a player opens: a card with its heading as the summary.
export function box(heading, ...body) {
  return h("details", { class: "card" }, h("summary", {}, h("strong", {}, heading)), ...body);
}

export function select(options, attrs = {}) {
  return h(
    "select",
    attrs,
    options.map(o => (Array.isArray(o) ? h("option", { value: o[0] }, o[1]) : h("option", { value: o }, o))),
  );
}

// What is typed and chosen in a view, by each control's name, to put back when the view is drawn again (a member
// joining, another phone's entry): a redraw never empties a box or unticks a card. The control being typed into keeps
// the focus and the caret, so the next keys go on into the same field.
function named(el) {
  return el.getAttribute("aria-label") || [...(el.labels || [])].map(l => l.textContent).join(" ") || el.name || "";
}

/** @typedef {Map<string, string | boolean> & { focused?: { key: string, start: number | null, end: number | null } }} Typed */

/**
 * @param {ParentNode} root
 * @returns {Typed}
 */
export function typedIn(root) {
  const seen = new Map();
  /** @type {Typed} */
  const typed = new Map();
  for (const el of /** @type {NodeListOf<HTMLInputElement>} */ (root.querySelectorAll("input, select, textarea"))) {
    const name = named(el);
    if (!name || el.type === "hidden") continue;
    const n = (seen.get(name) || 0) + 1;
    seen.set(name, n);
    typed.set(`${name}#${n}`, el.type === "checkbox" ? el.checked : el.value);
    if (el === document.activeElement) typed.focused = { key: `${name}#${n}`, ...caret(el) };
  }
  return typed;
}

// Where the caret is in a text field (a number field or a select has none to keep).
function caret(el) {
  try {
    return { start: el.selectionStart ?? null, end: el.selectionEnd ?? null };
  } catch {
    return { start: null, end: null };
  }
}

/**
 * What was typed before a redraw, put back into the fields drawn again; a field the player has already typed into
 * or changed in the new drawing (`touched`: she went on while it was being drawn) keeps what she put there.
 * @param {ParentNode} root
 * @param {Typed | null} typed
 * @param {Set<EventTarget | null>} [touched]
 */
export function putBack(root, typed, touched) {
  if (!typed) return;
  const seen = new Map();
  for (const el of /** @type {NodeListOf<HTMLInputElement>} */ (root.querySelectorAll("input, select, textarea"))) {
    const name = named(el);
    const n = (seen.get(name) || 0) + 1;
    seen.set(name, n);
    const was = typed.get(`${name}#${n}`);
    if (was === undefined || touched?.has(el)) continue;
    if (el.type === "checkbox") {
      if (el.checked !== was) {
        el.checked = Boolean(was);
        el.dispatchEvent(new Event("change"));
      }
    } else if (el.value !== was && (!(el instanceof HTMLSelectElement) || [...el.options].some(o => o.value === was))) {
      el.value = String(was);
      el.dispatchEvent(new Event("change"));
    }
    const focused = typed.focused;
    if (focused?.key === `${name}#${n}` && el !== document.activeElement && el.isConnected) {
      el.focus({ preventScroll: true });
      if (focused.start !== null && focused.end !== null) {
        try {
          el.setSelectionRange(focused.start, focused.end);
        } catch {
          /* a field without a caret */
        }
      }
    }
  }
}

// Replace a container's controls (the cards in a hand, offered again after an entry) keeping what was ticked, as
// long as they are offered for the same `owner` (the same character's hand, not another's cards of the same name).
export function renew(container, owner, ...children) {
  const typed = container.dataset.owner === String(owner) ? typedIn(container) : null;
  container.dataset.owner = String(owner);
  container.replaceChildren(...children);
  putBack(container, typed);
}

export function title(text) {
  return text.replace(/[_.]/g, " ").replace(/^./, c => c.toUpperCase());
}

export function counts(zone) {
  const entries = Object.entries(zone || {}).filter(([, n]) => n > 0);
  if (!entries.length) return h("span", { class: "quiet" }, "none known");
  return h(
    "span",
    { class: "chips" },
    entries.map(([name, n]) => h("span", { class: "chip" }, n > 1 ? `${name} ×${n}` : name)),
  );
}

// "1 card", "2 cards": a count with its noun, singular for one.
export function plural(n, noun, many = `${noun}s`) {
  return `${n} ${n === 1 ? noun : many}`;
}
