// @ts-check
// Sharing what a group typed: its scenario cards, product lists and its own cards (Skull Tales: its Character Cards), downloaded as one file, and
// such a file loaded into another campaign as that campaign's own events (all of them or none).
import { api, h, box, Refusal } from "./api.js";
import { action } from "./action.js";

export const KIND = "quartermaster group cards";
// The events a group's file carries: what the group typed from its own cards, nothing the log made of play.
export const SHARED = {
  "pacg-skull-and-shackles": ["scenario.card_recorded", "product.list_recorded", "card.defined"],
  "skull-tales-full-sail": ["character_card.recorded"],
};

// The group's typed cards as events: the scenario cards and product lists the campaign keeps (the recorded view),
// then the cards it defined itself, read from the log with those undone left out.
async function entered(table) {
  const events = [];
  if (table.game === "pacg-skull-and-shackles") {
    const { recorded } = await table.view("/recorded");
    events.push(...recorded.scenario_cards.map(data => ({ type: "scenario.card_recorded", data })));
    events.push(...recorded.product_lists.map(data => ({ type: "product.list_recorded", data })));
  } else {
    const { cards } = await table.view("/cards");
    events.push(...cards.character_cards.map(data => ({ type: "character_card.recorded", data })));
  }
  const kept = ["scenario.card_recorded", "product.list_recorded", "character_card.recorded"];
  const logged = SHARED[table.game].filter(t => !kept.includes(t));
  if (!logged.length) return events;
  const found = [];
  const undone = new Set();
  let after = 0;
  for (;;) {
    const query = new URLSearchParams({ after: String(after), limit: "1000" });
    for (const t of [...logged, "event.undone", "event.redone"]) query.append("type", t);
    const page = await api(`${table.base()}/events?${query}`);
    for (const e of page.events) {
      if (e.type === "event.undone") for (const t of e.data.targets) undone.add(t);
      else if (e.type === "event.redone") for (const t of e.data.targets) undone.delete(t);
      else found.push(e);
    }
    if (page.next === null || page.next === undefined) break;
    after = page.next;
  }
  return events.concat(found.filter(e => !undone.has(e.position)).map(e => ({ type: e.type, data: e.data })));
}

// Why a file is not one this page can load, or null: checked before anything is sent, so a bad file writes nothing.
export function problemWith(file, game) {
  if (!file || typeof file !== "object" || file.kind !== KIND)
    return "This file is not a file of a group's cards that Quartermaster wrote.";
  if (file.game !== game) return `This file holds cards of another game (${file.game}); this campaign cannot use them.`;
  if (!Array.isArray(file.events) || !file.events.length) return "This file holds no card.";
  const allowed = SHARED[game] || [];
  const stranger = file.events.findIndex(
    e => !e || !allowed.includes(e.type) || typeof e.data !== "object" || e.data === null,
  );
  if (stranger >= 0) return `Entry ${stranger + 1} of this file is not a card the group typed; nothing was loaded.`;
  return null;
}

export async function section(table) {
  const types = SHARED[table.game] || [];
  if (!types.length) return h("div", {});
  const save = action(
    "Download the group's cards",
    async () => {
      const events = await entered(table);
      if (!events.length)
        throw new Refusal(0, {
          detail: "The group has typed no card in this campaign yet: there is nothing to download.",
        });
      const file = { kind: KIND, game: table.game, from: table.summary.name, events };
      const link = h("a", {
        href: URL.createObjectURL(new Blob([JSON.stringify(file, null, 1)], { type: "application/json" })),
        download: `${table.summary.name.replace(/[^\w-]+/g, "-")}-cards.json`,
      });
      document.body.append(link);
      link.click();
      link.remove();
      return `Downloaded ${events.length} card${events.length === 1 ? "" : "s"}.`;
    },
    { primary: false },
  );
  const chooser = h("input", {
    type: "file",
    accept: "application/json,.json",
    "aria-label": "File of a group's cards",
  });
  const load = action("Load the file into this campaign", async () => {
    const picked = chooser.files?.[0];
    if (!picked) throw new Refusal(0, { detail: "Choose the file of a group's cards first." });
    let file;
    try {
      file = JSON.parse(await picked.text());
    } catch {
      file = null;
    }
    const problem = problemWith(file, table.game);
    if (problem) throw new Refusal(0, { detail: `${problem} Nothing was written.` });
    const answer = await table.appendEvents(
      file.events.map((e, i) => ({
        type: e.type,
        data: e.data,
        label: e.data.scenario
          ? `The card of ${e.data.scenario}`
          : e.data.product
            ? `Product ${e.data.product}'s list`
            : e.type === "character_card.recorded"
              ? `The ${e.data.archetype} card`
              : `Card ${i + 1} of the file`,
      })),
      { typed: true },
    );
    chooser.value = "";
    return `Loaded ${file.events.length} card${file.events.length === 1 ? "" : "s"} as this campaign's own (position ${answer.last_position}).`;
  });
  return box(
    "Share the group's cards",
    h(
      "p",
      { class: "quiet" },
      "Everything the group typed from its own cards, as one file: another group loads it into its campaign here.",
    ),
    save.el,
    chooser,
    load.el,
  );
}
