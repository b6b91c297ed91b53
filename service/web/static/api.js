// Talking to Quartermaster's HTTP API from the page, and building the page's elements.
// The session cookie authenticates every request; writes carry the page's header, which another site cannot send.

import { offerOverride } from "./override.js";

export class Refusal extends Error {
  constructor(status, problem, request) {
    super(problem.detail || `The server answered ${status}.`);
    this.status = status;
    this.problem = problem;
    this.request = request; // { path, method, body }: what was refused, for "Log it anyway" (override.js)
  }
}

export async function api(path, { method = "GET", body } = {}) {
  const headers = { "X-Quartermaster": "page" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const answer = await fetch(path, {
    method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = answer.headers.get("content-type") || "";
  const content = type.includes("json") ? await answer.json() : await answer.text();
  if (!answer.ok) throw new Refusal(answer.status, typeof content === "object" ? content : { detail: content }, { path, method, body });
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

export function select(options, attrs = {}) {
  return h("select", attrs, options.map(o => Array.isArray(o)
    ? h("option", { value: o[0] }, o[1]) : h("option", { value: o }, o)));
}

// A form's submit button with the place beside it where the server's refusal is shown (through refusal.js).
export function action(label, run, { primary = true, name } = {}) {
  const refusal = h("p", { class: "refusal", role: "alert" });
  const done = h("p", { class: "done", role: "status" });
  const button = h("button", { type: "button", class: primary ? "primary" : "", "aria-label": name || label });
  button.textContent = label;
  button.addEventListener("click", async () => {
    refusal.textContent = ""; done.textContent = "";
    button.disabled = true;
    try {
      const said = await run();
      if (typeof said === "string") done.textContent = said;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      (await import("./refusal.js")).refuse(refusal, error);
      offerOverride(refusal, error, answer => { done.textContent = `Logged against the rules at position ${answer.last_position}.`; });
    } finally {
      button.disabled = false;
    }
  });
  return { button, refusal, done, el: h("div", { class: "act" }, button, refusal, done) };
}

export function title(text) {
  return text.replace(/[_.]/g, " ").replace(/^./, c => c.toUpperCase());
}

export function counts(zone) {
  const entries = Object.entries(zone || {}).filter(([, n]) => n > 0);
  if (!entries.length) return h("span", { class: "quiet" }, "none known");
  return h("span", { class: "chips" }, entries.map(([name, n]) => h("span", { class: "chip" }, n > 1 ? `${name} ×${n}` : name)));
}
