// @ts-check
// A report or a recap read on the phone: the server's Markdown (the same text a chat or a forum gets) drawn as the
// page's headings, lists and tables, and a recap copied to paste elsewhere, as Markdown or as plain text.
import { h } from "./api.js";

// The Markdown the server writes has headings (#, ##, ###), lists ("- "), tables ("| a | b |") and paragraphs; each
// heading sits `depth` levels under the one it is read beneath (a report under the region's h2 starts at h3).
export function drawn(text, depth = 3) {
  const nodes = [];
  let list = null;
  let rows = null;
  const close = () => {
    if (list) nodes.push(list);
    if (rows) nodes.push(table(rows));
    list = null;
    rows = null;
  };
  for (const line of text.split("\n")) {
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    if (heading) {
      close();
      nodes.push(h(`h${Math.min(6, depth + heading[1].length - 1)}`, {}, heading[2]));
    } else if (/^\s*[-*]\s+/.test(line)) {
      if (rows) close();
      list ??= h("ul", { class: "told" });
      list.append(h("li", {}, line.replace(/^\s*[-*]\s+/, "")));
    } else if (/^\s*\|.*\|\s*$/.test(line)) {
      if (list) close();
      rows ??= [];
      rows.push(line);
    } else if (line.trim()) {
      close();
      nodes.push(h("p", {}, line));
    } else close();
  }
  close();
  return nodes;
}

function cells(line) {
  return line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map(c => c.trim());
}

function table(lines) {
  const [head, ...rest] = lines.map(cells);
  const body = rest.filter(r => !r.every(c => /^:?-+:?$/.test(c)));
  return h(
    "div",
    { class: "scroll" },
    h(
      "table",
      { class: "told" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          head.map(c => h("th", { scope: "col" }, c)),
        ),
      ),
      h(
        "tbody",
        {},
        body.map(r =>
          h(
            "tr",
            {},
            r.map(c => h("td", {}, c)),
          ),
        ),
      ),
    ),
  );
}

// Plain text for a chat that shows Markdown as typed: headings lose their marks, lists keep a bullet.
export function plain(text) {
  return text
    .split("\n")
    .map(line => line.replace(/^#{1,6}\s+/, "").replace(/^(\s*)[-*]\s+/, "$1• "))
    .join("\n");
}

// The clipboard API needs a secure context (https, or the laptop's own 127.0.0.1); a phone on the LAN's http address
// has none, so the text is selected in a hidden field and copied the older way.
export async function copy(text) {
  if (globalThis.isSecureContext && navigator.clipboard) {
    await navigator.clipboard.writeText(text);
    return true;
  }
  const area = h("textarea", { readonly: true, "aria-hidden": "true", tabindex: "-1", class: "offscreen" });
  area.value = text;
  document.body.append(area);
  area.select();
  try {
    return document.execCommand("copy");
  } finally {
    area.remove();
  }
}

// The reading's region: a heading naming it, a Close button, for a recap the Copy buttons, then the text drawn.
/**
 * @param {string} title
 * @param {string} text Markdown
 * @param {{ share?: boolean, onclose?: () => void }} [settings] `share`: offer the Copy buttons
 */
export function reader(title, text, { share = false, onclose } = {}) {
  const said = h("p", { role: "status", class: "quiet" });
  const copier = (label, form) =>
    h(
      "button",
      {
        type: "button",
        onclick: async () => {
          try {
            said.textContent = (await copy(form(text)))
              ? `Copied ${label === "Copy" ? "as Markdown" : "as plain text"}: paste it into the chat or the forum.`
              : "This browser did not copy it: select the text below and copy it by hand.";
          } catch {
            said.textContent = "This browser did not copy it: select the text below and copy it by hand.";
          }
        },
      },
      label,
    );
  const buttons = h(
    "div",
    { class: "buttons" },
    share ? [copier("Copy", t => t), copier("Copy as plain text", plain)] : [],
    h("button", { type: "button", onclick: () => onclose?.() }, "Close"),
  );
  return h(
    "section",
    { class: "card wide reading", "aria-label": title },
    h("h3", {}, title),
    buttons,
    said,
    h("div", { class: "told" }, drawn(text, 4)),
  );
}
