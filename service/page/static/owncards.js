// @ts-check
// What the group types once from its own printed cards, for the set-up tab: a scenario card (its locations, villains
// and henchmen) and a product's card list, each kept in the campaign's log for the vault and the scenarios.
import { h, box, field, select } from "./api.js";
import { action } from "./action.js";
import { namePicker, stepper, suggestions, typeCounts } from "./pickers.js";

function say(answer) {
  return `Logged at position ${answer.last_position}.`;
}

// --- the group's scenario card, typed once --------------------------------------------------------------------------

function locationRow(rows, catalogue, players = 1, given = null) {
  const names = [
    ...new Set([
      ...(catalogue.locations.locations || []).map(l => l.name),
      ...catalogue.scenarios.scenarios.flatMap(s => [...(s.locations_for_3 || []), ...(s.locations_named || [])]),
    ]),
  ];
  const n = rows.children.length + 1;
  const listId = `location-names-${n}-${Math.random().toString(36).slice(2, 6)}`;
  const name = h("input", { autocomplete: "off", list: listId, "aria-label": `Location ${n}: name` });
  const from = stepper("Used from this many players", {
    value: players,
    min: 1,
    max: 6,
    name: `Location ${n}: players`,
  });
  const deck = typeCounts(`Location ${n}: its deck list`, { prefix: `Location ${n}: `, values: given?.deck || {} });
  if (given) name.value = given.name;
  const hint = suggestions(name, names, picked => {
    name.value = picked;
    hint.draw();
  });
  const row = h(
    "fieldset",
    { class: "location", "data-row": "location" },
    h("legend", {}, `Location ${n}`),
    field("Name", name),
    hint.el,
    h(
      "datalist",
      { id: listId },
      names.sort().map(v => h("option", { value: v })),
    ),
    from.el,
    deck.el,
  );
  row.read = () => ({ name: name.value.trim(), players: from.value(), deck: deck.value() });
  row.players = () => from.value();
  return row;
}

export function recordScenario(table, catalogue) {
  const cards = catalogue.cards.cards;
  const scenarioName = h("input", { autocomplete: "off", list: "scenario-names", "aria-label": "Scenario" });
  const scenarioHint = suggestions(
    scenarioName,
    catalogue.scenarios.scenarios.map(s => s.name),
    picked => {
      scenarioName.value = picked;
      scenarioHint.draw();
    },
  );
  const adventure = h("input", { autocomplete: "off", list: "adventure-names" });
  const number = stepper("Adventure deck number (#)", { value: 0, min: 0, max: 6, name: "Adventure deck number" });
  const villains = namePicker("Villains", {
    options: cards.filter(c => c.type === "villain").map(c => c.name),
    name: "Add the villain",
  });
  const henchmen = namePicker("Henchmen, top of the list first", {
    options: cards.filter(c => c.type === "henchman").map(c => c.name),
    name: "Add the henchman",
  });
  const rows = h("div", {});
  rows.append(locationRow(rows, catalogue));
  const more = h(
    "button",
    {
      type: "button",
      onclick: () => {
        const last = rows.lastElementChild;
        rows.append(locationRow(rows, catalogue, last ? last.players() : 1));
      },
    },
    "Add a location",
  );
  const anchored = h("input", { autocomplete: "off" });
  const details = h("details", { class: "card" });
  // A kept card, back in the form to be corrected: keeping it again replaces it.
  const load = card => {
    scenarioName.value = card.scenario;
    adventure.value = card.adventure || "";
    anchored.value = card.anchored_at || "";
    number.set(card.number || 0);
    villains.set(card.villains || []);
    henchmen.set(card.henchmen || []);
    rows.replaceChildren();
    for (const l of card.locations) rows.append(locationRow(rows, catalogue, l.players || 1, l));
    details.open = true;
    scenarioName.focus();
  };
  table.editScenarioCard = load;
  const keep = action("Keep this scenario card", async () => {
    const locations = [...rows.children].map(r => r.read()).filter(l => l.name);
    const data = {
      scenario: scenarioName.value.trim(),
      villains: villains.values(),
      henchmen: henchmen.values(),
      locations,
    };
    if (adventure.value.trim()) data.adventure = adventure.value.trim();
    if (number.value()) data.number = number.value();
    if (anchored.value.trim()) data.anchored_at = anchored.value.trim();
    const answer = await table.appendEvents([{ type: "scenario.card_recorded", label: "The scenario card", data }]);
    scenarioName.value = "";
    adventure.value = "";
    anchored.value = "";
    number.set(0);
    villains.set([]);
    henchmen.set([]);
    rows.replaceChildren();
    rows.append(locationRow(rows, catalogue));
    return `${data.scenario}'s card is kept: ${say(answer)}`;
  });
  details.append(
    h("summary", {}, h("strong", {}, "Record a scenario card")),
    h(
      "p",
      { class: "quiet" },
      "The rulebook prints no scenario card: type what is on yours once, and the campaign keeps it for every replay. " +
        "The back of the card lists each location with the number of players it needs; the deck list is on each location card.",
    ),
    field("Scenario", scenarioName),
    scenarioHint.el,
    h(
      "datalist",
      { id: "scenario-names" },
      catalogue.scenarios.scenarios.map(s => h("option", { value: s.name })),
    ),
    field("Adventure (if it is part of one)", adventure),
    h(
      "datalist",
      { id: "adventure-names" },
      catalogue.scenarios.adventures.map(a => h("option", { value: a.name })),
    ),
    number.el,
    villains.el,
    henchmen.el,
    rows,
    more,
    field("The ship is anchored at (only if the card says so)", anchored),
    keep.el,
  );
  return details;
}

// --- a product's card list, typed once ------------------------------------------------------------------------------

function cardRow(rows, catalogue) {
  const n = rows.children.length + 1;
  const name = h("input", { autocomplete: "off", list: "all-card-names", "aria-label": `Card ${n}: name` });
  const type = select(
    ["weapon", "spell", "armor", "item", "ally", "blessing", "monster", "barrier", "villain", "henchman", "loot"],
    { "aria-label": `Card ${n}: type` },
  );
  const count = stepper("Copies", { value: 1, min: 1, max: 30, name: `Card ${n}: copies` });
  const known = new Map(catalogue.cards.cards.map(c => [c.name, c.type]));
  name.addEventListener("change", () => {
    if (known.has(name.value.trim())) type.value = known.get(name.value.trim());
  });
  const row = h("fieldset", {}, h("legend", {}, `Card ${n}`), field("Name", name), field("Type", type), count.el);
  row.read = () => ({ name: name.value.trim(), type: type.value, count: count.value() });
  return row;
}

export function recordProduct(table, catalogue) {
  const product = h("input", { autocomplete: "off", maxlength: 20 });
  const called = h("input", { autocomplete: "off" });
  const rows = h("div", {});
  rows.append(cardRow(rows, catalogue));
  const more = h("button", { type: "button", onclick: () => rows.append(cardRow(rows, catalogue)) }, "Add a card");
  const keep = action("Keep this card list", async () => {
    const cards = [...rows.children].map(r => r.read()).filter(c => c.name);
    const data = { product: product.value.trim(), name: called.value.trim(), cards };
    const answer = await table.appendEvents([{ type: "product.list_recorded", label: "The card list", data }]);
    product.value = "";
    called.value = "";
    rows.replaceChildren();
    rows.append(cardRow(rows, catalogue));
    return `Product ${data.product}'s list is kept: ${say(answer)}`;
  });
  return box(
    "Record a product's card list",
    h(
      "p",
      { class: "quiet" },
      "The rulebook lists no product's cards: type your box's list once to put it in the vault, here or in another campaign.",
    ),
    h("div", { class: "row" }, field("Product (B, C, 1…)", product), field("Its name", called)),
    h(
      "datalist",
      { id: "all-card-names" },
      catalogue.cards.cards.map(c => h("option", { value: c.name })),
    ),
    rows,
    more,
    keep.el,
  );
}
