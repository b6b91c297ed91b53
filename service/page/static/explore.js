// @ts-check
// The Explore row of the turn panel (Skull & Shackles): the card revealed, by a few letters and a tap on its name,
// and, for a card neither the campaign nor the catalogue knows, its type asked once, inline: the fold keeps it from
// then on (Skull & Shackles Rulebook, Card Types).
import { api, h, Refusal, select } from "./api.js";
import { action } from "./action.js";
import { suggestions } from "./pickers.js";

const PACG = "pacg-skull-and-shackles";
const TYPES = ["monster", "barrier", "weapon", "spell", "armor", "item", "ally", "blessing"];

// The names the catalogue knows, read once a page: the server fills in their types by itself.
/** @type {Promise<Set<string>> | null} */
let catalogued = null;
function catalogueNames() {
  catalogued ??= api(`/v1/catalog/${PACG}`)
    .then(c => new Set(c.cards.cards.map(k => k.name)))
    .catch(() => new Set());
  return catalogued;
}

/**
 * The Explore row.
 * @param {any} table
 * @param {any} me the character exploring
 * @param {any} place the scenario view's location she is at (its known cards, its face-down types)
 * @param {{ location: string, explore_again?: boolean }} explore what the turn view offers
 * @param {(events: any[]) => Promise<string>} log
 */
export function exploreRow(table, me, place, explore, log) {
  const known = Object.keys(place?.known || {});
  const names = new Set(known);
  const revealed = h("input", { autocomplete: "off", list: "explore-cards", "aria-label": "Card revealed" });
  // The types still face down there, first: a card revealed is one of them.
  const here = Object.keys(place?.face_down || {}).filter(t => TYPES.includes(t));
  const type = select(
    [...here, ...TYPES.filter(t => !here.includes(t))].map(t => [t, t[0].toUpperCase() + t.slice(1)]),
    {
      "aria-label": "Its type",
    },
  );
  // In a div: a label is drawn as a block by the page's style, whatever its `hidden`.
  const asked = h("div", { hidden: true }, h("label", {}, "New to the campaign: its type (asked once) ", type));
  const check = () => {
    const name = revealed.value.trim();
    asked.hidden = !name || names.has(name);
  };
  // A few letters, then a tap on the card's name: the names are the vault's and the catalogue's, read when the field
  // is first used.
  const offered = suggestions(revealed, known, name => {
    revealed.value = name;
    check();
  });
  revealed.addEventListener("input", check);
  revealed.addEventListener(
    "focus",
    () =>
      Promise.all([table.view("/vault"), catalogueNames()])
        .then(([vault, listed]) => {
          for (const name of [...Object.keys(vault.vault?.cards || {}), ...listed]) names.add(name);
          offered.offer([...names]);
          check();
        })
        .catch(() => {}),
    { once: true },
  );
  const again = explore.explore_again;
  return h(
    "div",
    { class: "row", role: "group", "aria-label": "Explore" },
    h(
      "datalist",
      { id: "explore-cards" },
      known.map(n => h("option", { value: n })),
    ),
    h("label", {}, again ? "Revealed (a card or power lets her explore again) " : "Card revealed ", revealed),
    offered.el,
    asked,
    action(
      again ? "Explore again" : "Explore",
      () => {
        const card = revealed.value.trim();
        if (!card) throw new Refusal(422, { detail: `Type the card ${me.name} revealed first: nothing was sent.` });
        return log([
          {
            type: "card.moved",
            data: {
              card,
              verb: "reveal",
              from: { zone: "location", location: explore.location },
              to: { zone: "encounter" },
              explorer: me.character_id,
              ...(asked.hidden ? {} : { card_type: type.value }),
              ...(again ? { explore_again: true } : {}),
            },
          },
        ]);
      },
      { name: `Explore ${explore.location}` },
    ).el,
  );
}
