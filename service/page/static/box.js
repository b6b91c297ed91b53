// @ts-check
// The box the campaign's cards come from, for its owner: named here, shared with other campaigns by its key, and
// seen whole (GET …/box): which campaign has which cards out, by title, and what two campaigns' decks want beyond
// the copies the box holds. The server adds it up; the page asks and shows.
import { api, h, field, plural, Refusal, Unreachable } from "./api.js";
import { action } from "./action.js";

/** @param {Record<string, number>} cards */
function listed(cards) {
  return Object.entries(cards)
    .map(([name, count]) => (count > 1 ? `${count} × ${name}` : name))
    .join(", ");
}

/** @param {any} box the answer of GET …/box */
function shown(box) {
  return [
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Name"),
      h("dd", {}, box.name),
      h("dt", {}, "Key"),
      h("dd", {}, h("code", { class: "box-key" }, box.key)),
    ),
    h(
      "p",
      { class: "quiet" },
      "Another campaign's owner gives this key, with their own name for the box, to share it.",
    ),
    h("h3", {}, "Cards out"),
    h(
      "ul",
      { class: "plain" },
      box.campaigns.map(c =>
        h(
          "li",
          {},
          h("strong", {}, c.title),
          c.yours ? " (this campaign)" : "",
          ` — ${plural(c.count, "card")} in ${plural(c.decks, "deck")}`,
          c.count ? h("div", { class: "quiet" }, listed(c.out)) : null,
        ),
      ),
    ),
    h("h3", {}, "Missing"),
    box.missing.length
      ? h(
          "ul",
          { class: "plain" },
          box.missing.map(m =>
            h(
              "li",
              {},
              h("strong", {}, m.card),
              `: ${m.wanted} wanted, ${m.held} in the box (${m.held_from === "catalogue" ? "as the catalogue counts" : "as the logs know"}), ${m.missing} missing — `,
              m.by.map(b => `${b.title} ${b.count}`).join(", "),
            ),
          ),
        )
      : h("p", { class: "quiet" }, "Nothing: the box holds every card the decks want."),
  ];
}

/**
 * The owner's "The box" card on the Table tab.
 * @param {HTMLElement} panel
 * @param {any} table the page's Table (app.js)
 */
export async function render(panel, table) {
  if (table.me.role !== "owner" || table.at !== null) return;
  const path = `${table.base()}/box`;
  const body = h("div", {});
  const name = h("input", { type: "text", maxlength: "80", autocomplete: "off" });
  const key = h("input", { type: "text", autocomplete: "off", spellcheck: "false" });
  const put = action("Name the box", async () => {
    const sent = { name: name.value.trim() };
    if (key.value.trim()) sent.key = key.value.trim();
    const box = await api(path, { method: "PUT", body: sent });
    body.replaceChildren(...shown(box));
    key.value = "";
    return `The box is named ${box.name}.`;
  });
  try {
    const box = await api(path);
    name.value = box.name;
    body.append(...shown(box));
  } catch (error) {
    if (!(error instanceof Refusal || error instanceof Unreachable)) throw error;
    body.append(
      h(
        "p",
        { class: "quiet" },
        error instanceof Refusal && error.status === 404
          ? "No box is named yet. Name the box this campaign's cards come from; to share another campaign's box, give its key too."
          : error.message,
      ),
    );
  }
  panel.append(
    h(
      "section",
      { class: "card wide", "aria-label": "The box" },
      h("h2", {}, "The box"),
      body,
      field("Box name", name),
      field("Key of a box another campaign shares (optional)", key),
      put.el,
    ),
  );
}
