// @ts-check
// Setting up at the table, by taps and short names: the box, the party and its decks, the group's own scenario
// cards and the scenario started from one (Skull & Shackles); the crew recruited from its archetypes (Skull Tales,
// in crewsetup.js). What the group types once (scenario cards and product lists, in owncards.js; its own cards) is
// kept as events of the campaign, offered again, and shared as one file (share.js).
import { api, h, field, select, Refusal } from "./api.js";
import { action } from "./action.js";
import { namePicker, stepper, typeCounts } from "./pickers.js";
import { recordScenario, recordProduct } from "./owncards.js";
import * as share from "./share.js";

const PACG = "pacg-skull-and-shackles";
const PRODUCT_NAMES = { B: "the base set", C: "the Character Add-On Deck" };

function section(id, heading, ...body) {
  return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id }, heading), ...body);
}
function say(answer) {
  return `Logged at position ${answer.last_position}.`;
}
function plural(n, word) {
  return `${n} ${n === 1 ? word : word === "ally" ? "allies" : `${word}s`}`;
}
function typeTitle(t) {
  return t[0].toUpperCase() + t.slice(1);
}

export async function render(panel, table) {
  if (table.game !== PACG) {
    const crew = await import("./crewsetup.js");
    return crew.render(panel, table);
  }
  const catalogue = await api(`/v1/catalog/${PACG}`);
  const live = h("div", {});
  const begin = adventureForm(table, catalogue);
  // Who has joined, which decks are built, which cards were recorded: read again from the current state on every
  // change, so no picker offers what was true when the tab was drawn. The card being typed below is kept.
  const draw = async () => {
    const [{ state }, { recorded }] = await Promise.all([table.view("/state"), table.view("/recorded")]);
    live.replaceChildren(
      theBox(table, state, recorded),
      party(table, state, catalogue),
      scenario(table, state, recorded, catalogue),
    );
    begin.refresh(state, recorded);
  };
  table.onChange = draw;
  panel.append(
    h("h1", {}, "Set up the game"),
    live,
    begin.el,
    recordScenario(table, catalogue),
    recordProduct(table, catalogue),
    await share.section(table),
  );
  await draw();
}

// --- the box ------------------------------------------------------------------------------------------------------

function theBox(table, state, recorded) {
  const inVault = new Set(state.products || []);
  const offers = Object.entries(PRODUCT_NAMES)
    .filter(([p]) => !inVault.has(p))
    .map(([product, name]) =>
      action(
        `Put ${name} (${product}) in the vault`,
        async () => say(await table.appendEvents([{ type: "vault.products_added", data: { product } }])),
        { primary: false },
      ),
    );
  for (const listed of recorded.product_lists) {
    if (inVault.has(listed.product)) continue;
    offers.push(
      action(
        `Put product ${listed.product} in the vault`,
        async () =>
          say(
            await table.appendEvents([
              { type: "vault.products_added", data: { product: listed.product, cards: listed.cards } },
            ]),
          ),
        { primary: false },
      ),
    );
  }
  return section(
    "setup-box",
    "The box",
    h(
      "p",
      { class: "quiet" },
      inVault.size
        ? `In the vault: ${[...inVault].map(p => (PRODUCT_NAMES[p] ? `${PRODUCT_NAMES[p]} (${p})` : `product ${p}`)).join(", ")}.`
        : "Nothing is in the vault yet. A character's suggested deck puts her set in the vault by itself.",
    ),
    offers.map(o => o.el),
  );
}

// --- the party ----------------------------------------------------------------------------------------------------

function party(table, state, catalogue) {
  const known = catalogue.characters.characters;
  const joined = state.characters || {};
  const members = [...table.members.values()];
  const me = table.me.name;
  // A player picks her own character; the owner may pick one for any member of the table.
  const player = select(table.me.role === "owner" ? [me, ...members.filter(m => m !== me)] : [me]);
  const pickable = known.filter(c => !joined[c.character_id]);
  const picks = h(
    "div",
    { class: "choices", role: "group", "aria-label": "Characters to pick" },
    pickable.map(
      c =>
        action(
          `Pick ${c.name}, ${c.class}`,
          async () =>
            say(
              await table.appendEvents([
                { type: "character.joined", data: { character_id: c.character_id, player: player.value } },
              ]),
            ),
          { primary: false },
        ).el,
    ),
  );
  const sheets = Object.entries(joined).map(([id, c]) => characterRow(table, state, catalogue, id, c));
  return section(
    "setup-party",
    "The party",
    sheets.length ? h("div", {}, sheets) : h("p", { class: "quiet" }, "No character has joined yet: pick one below."),
    pickable.length ? [h("h3", {}, "Pick a character"), field("Played by", player), picks] : null,
  );
}

function characterRow(table, state, catalogue, id, c) {
  const found = catalogue.characters.characters.find(k => k.character_id === id);
  const head = h("h3", {}, `${c.name}`, h("span", { class: "quiet" }, ` played by ${c.player || "—"}`));
  if (c.has_deck) return h("article", { "aria-label": c.name }, head, h("p", { class: "done" }, "The deck is built."));
  const suggested = Object.values(found?.suggested_deck || {}).flat();
  // Kept across redraws: another phone's entry must not wipe a deck being adjusted here.
  table.deckEditors ??= new Map();
  const editors = table.deckEditors;
  const holder = editors.get(id) || h("div", {});
  editors.set(id, holder);
  const use =
    found && suggested.length
      ? action(
          "Use the suggested deck",
          async () => {
            const { state: now } = await table.view("/state");
            return say(
              await table.appendEvents([
                ...boxFor(now, found),
                { type: "deck.built", label: `${c.name}'s deck`, data: { character_id: id, cards: suggested } },
              ]),
            );
          },
          { name: `Use the suggested deck for ${c.name}` },
        )
      : null;
  const adjust = action(
    "Adjust the deck",
    async () => {
      holder.replaceChildren(deckEditor(table, state, catalogue, id, c, suggested));
    },
    { primary: false, name: `Adjust ${c.name}'s deck` },
  );
  return h(
    "article",
    { "aria-label": c.name },
    head,
    found ? null : h("p", { class: "quiet" }, "The catalogue has no suggested deck for her: build it card by card."),
    h("div", { class: "buttons" }, use?.el, adjust.el),
    holder,
  );
}

// The products a catalogue character's suggested deck comes from, when they are not in the vault yet.
function boxFor(state, found) {
  const inVault = new Set(state.products || []);
  return inVault.has(found.set) ? [] : [{ type: "vault.products_added", data: { product: found.set } }];
}

function cardsListOf(c) {
  return Object.fromEntries(Object.entries(c.card?.cards_list || {}).map(([t, line]) => [t, line.count ?? line]));
}

// A deck card by card: names searched in the vault and the catalogue, with the counts by type against the Cards List.
function deckEditor(table, state, catalogue, id, c, start) {
  const catalogueTypes = new Map(catalogue.cards.cards.map(k => [k.name, k.loot_type || k.type]));
  const boons = new Set(["weapon", "spell", "armor", "item", "ally", "blessing", "loot"]);
  const known = Object.keys(state.cards || {});
  const offered = [...known, ...catalogue.cards.cards.filter(k => boons.has(k.type)).map(k => k.name)];
  const typeOf = name => {
    const info = state.cards?.[name];
    return info ? info[4] || info[0] : catalogueTypes.get(name);
  };
  const wanted = cardsListOf(c);
  const picker = namePicker(`Cards of ${c.name}'s deck`, {
    options: offered,
    values: start,
    name: `Add the card to ${c.name}'s deck`,
  });
  const tally = h("div", {
    class: "tally",
    "aria-live": "polite",
    "aria-label": `${c.name}'s deck against the Cards List`,
  });
  const unknownTypes = new Map();
  const drawTally = list => {
    const by = {};
    const strangers = [];
    for (const name of list) {
      const t = typeOf(name) || unknownTypes.get(name)?.value;
      if (t) by[t] = (by[t] || 0) + 1;
      else if (!strangers.includes(name)) strangers.push(name);
    }
    const types = [...new Set([...Object.keys(wanted), ...Object.keys(by)])];
    tally.replaceChildren(
      h(
        "p",
        {},
        types
          .map(t =>
            h(
              "span",
              { class: (by[t] || 0) === (wanted[t] || 0) ? "met" : "short" },
              `${typeTitle(t)} ${by[t] || 0} of ${wanted[t] || 0}`,
            ),
          )
          .flatMap((x, i) => (i ? [" · ", x] : [x])),
      ),
      strangers.map(name => {
        const chooser =
          unknownTypes.get(name) ||
          select([["", "its type?"], ...[...boons].filter(b => b !== "loot").map(b => [b, typeTitle(b)])]);
        unknownTypes.set(name, chooser);
        chooser.onchange = () => drawTally(picker.values());
        return field(`${name} is not in the vault or the catalogue: its type`, chooser);
      }),
    );
  };
  picker.onChange(drawTally);
  drawTally(start);
  const build = action(`Build ${c.name}'s deck`, async () => {
    const cards = picker.values();
    const events = [];
    for (const name of new Set(cards)) {
      if (state.cards?.[name]) continue;
      const chosen = unknownTypes.get(name)?.value;
      if (catalogueTypes.has(name))
        events.push({ type: "card.defined", label: `${name} into the vault`, data: { card: name } });
      else if (!chosen)
        throw new Refusal(0, {
          detail: `${name} is not in the vault or the catalogue: choose its type first. Nothing was written.`,
        });
      else
        events.push({
          type: "card.defined",
          label: `${name} into the vault`,
          data: { card: { name, type: chosen, count: cards.filter(x => x === name).length } },
        });
    }
    events.push({ type: "deck.built", label: `${c.name}'s deck`, data: { character_id: id, cards } });
    return say(await table.appendEvents(events));
  });
  return h("div", { class: "card" }, picker.el, tally, build.el);
}

// --- the scenario -------------------------------------------------------------------------------------------------

export function locationsFor(card, players) {
  return card.locations.filter(l => (l.players || 1) <= players);
}

// A scenario the catalogue knows the locations of for this party's size, as a card not recorded yet: its location
// deck lists (which no rulebook prints) are asked when it is set up, and kept with the card.
function catalogueCard(known, players) {
  const names = known[`locations_for_${players}`];
  if (!names?.length) return null;
  return {
    scenario: known.name,
    villains: known.villains || [],
    henchmen: known.henchmen || [],
    ...(known.adventure ? { adventure: known.adventure } : {}),
    locations: names.map(name => ({ name, players, deck: {} })),
    fromCatalogue: true,
  };
}

function scenario(table, state, recorded, catalogue) {
  const now = state.scenario;
  if (now) {
    return section(
      "setup-scenario",
      "The scenario",
      h(
        "p",
        {},
        `${now.name} is being played${now.turn ? "" : "; the first turn has not begun"}. The Table tab shows it.`,
      ),
    );
  }
  const party = Object.entries(state.characters || {}).filter(([, c]) => c.alive && c.has_deck);
  const recordedNames = new Set(recorded.scenario_cards.map(c => c.scenario));
  const cards = [
    ...recorded.scenario_cards,
    ...catalogue.scenarios.scenarios
      .filter(s => !recordedNames.has(s.name))
      .map(s => catalogueCard(s, party.length))
      .filter(Boolean),
  ];
  const chosen = h("div", {});
  // The card being set up stays open when another phone's entry redraws this tab (with the party as it is now).
  const open = card => {
    table.settingUp = card.scenario;
    // Deck lists being counted for a catalogue scenario survive another phone's entry redrawing this tab.
    table.catalogueSetups ??= new Map();
    const key = `${card.scenario}|${party.length}`;
    const kept = card.fromCatalogue ? table.catalogueSetups.get(key) : null;
    const form = kept || confirm(table, state, card, party);
    if (card.fromCatalogue) table.catalogueSetups.set(key, form);
    chosen.replaceChildren(form);
  };
  const picks = h(
    "div",
    { class: "choices", role: "group", "aria-label": "Recorded scenario cards" },
    cards.map(card => h("button", { type: "button", onclick: () => open(card) }, `Set up ${card.scenario}`)),
    cards
      .filter(card => !card.fromCatalogue)
      .map(card =>
        h(
          "button",
          { type: "button", class: "quiet", onclick: () => table.editScenarioCard?.(card) },
          `Correct the card of ${card.scenario}`,
        ),
      ),
  );
  const reopened = cards.find(card => card.scenario === table.settingUp);
  if (reopened) open(reopened);
  return section(
    "setup-scenario",
    "The scenario",
    state.lost
      ? h("p", { class: "quiet" }, `${state.lost}. Set it up again from its card: nothing is typed twice.`)
      : null,
    party.length
      ? h(
          "p",
          { class: "quiet" },
          `The party: ${party.map(([, c]) => c.name).join(", ")} (${plural(party.length, "player")}).`,
        )
      : h("p", { class: "quiet" }, "The party needs at least one character with a deck first."),
    cards.length
      ? picks
      : h(
          "p",
          { class: "quiet" },
          "No scenario card is recorded yet: record yours below, once; the campaign keeps it.",
        ),
    chosen,
  );
}

function confirm(table, state, card, party) {
  const players = party.length;
  const used = locationsFor(card, players);
  // A catalogue scenario's location deck lists, asked once here (from each location card) and kept with its card.
  const decks = card.fromCatalogue
    ? new Map(used.map(l => [l.name, typeCounts(`${l.name}: its deck list`, { prefix: `${l.name}: ` })]))
    : null;
  const roll = select([
    ["", "roll the d6 and choose"],
    ...[1, 2, 3, 4, 5, 6].map(n => [
      String(n),
      `${n}: ${["weapon", "spell", "armor", "item", "ally", "your choice"][n - 1]}`,
    ]),
  ]);
  const choiceType = select([
    ["weapon", "Weapon"],
    ["spell", "Spell"],
    ["armor", "Armor"],
    ["item", "Item"],
    ["ally", "Ally"],
  ]);
  const choiceField = field("Plunder type chosen on a 6", choiceType);
  choiceField.hidden = true;
  roll.addEventListener("change", () => {
    choiceField.hidden = roll.value !== "6";
  });
  const start = select(
    used.map(l => l.name),
    {},
  );
  if (card.anchored_at) {
    start.value = card.anchored_at;
    start.disabled = true;
  }
  const adventure = state.adventure?.name;
  const go = action(`Start ${card.scenario}`, async () => {
    if (!roll.value)
      throw new Refusal(0, {
        detail: "Roll the d6 on the Plunder Table and choose its face first: the setup stashes 1 plunder card.",
      });
    const listed = used.map(l => ({ ...l, deck: decks ? decks.get(l.name).value() : l.deck }));
    if (decks && listed.some(l => !Object.keys(l.deck).length))
      throw new Refusal(0, {
        detail: `Give each location's deck list from its location card first (${listed
          .filter(l => !Object.keys(l.deck).length)
          .map(l => l.name)
          .join(", ")} has none): nothing was written.`,
      });
    const data = {
      scenario: card.scenario,
      number: card.number || 0,
      villains: card.villains,
      henchmen: card.henchmen,
      locations: listed.map(l => ({ name: l.name, deck: l.deck })),
    };
    // The card as the catalogue and the group know it, kept for every replay: nothing is asked twice.
    const kept = decks
      ? [
          {
            type: "scenario.card_recorded",
            label: `${card.scenario}'s card`,
            data: {
              scenario: card.scenario,
              villains: card.villains,
              henchmen: card.henchmen,
              locations: listed,
              ...(card.adventure ? { adventure: card.adventure } : {}),
            },
          },
        ]
      : [];
    // Played as part of its adventure only when the party is playing that adventure; else on its own.
    if (card.adventure && card.adventure === adventure) data.adventure = card.adventure;
    if (card.anchored_at) data.anchored_at = card.anchored_at;
    const stash = roll.value === "6" ? { roll: 6, card_type: choiceType.value } : { roll: Number(roll.value) };
    return say(
      await table.appendEvents([
        ...kept,
        { type: "scenario.started", label: `${card.scenario} set up`, data },
        { type: "plunder.stashed", label: "The setup plunder", data: stash },
        ...party.map(([id, c]) => ({
          type: "character.moved",
          label: `${c.name} at ${start.value}`,
          data: { character_id: id, to: start.value },
        })),
      ]),
    );
  });
  return h(
    "div",
    { class: "card", "aria-label": `Setting up ${card.scenario}` },
    h("h3", {}, `${card.scenario} for ${plural(players, "player")}`),
    card.adventure && card.adventure !== adventure
      ? h("p", { class: "quiet" }, `Played on its own: the party is not playing ${card.adventure}.`)
      : null,
    decks
      ? [
          h(
            "p",
            { class: "quiet" },
            `The catalogue knows ${card.scenario}'s locations for ${plural(players, "player")}; the deck lists are on the location cards: count each once, and the campaign keeps them with the card.`,
          ),
          [...decks.values()].map(d => d.el),
        ]
      : h(
          "ul",
          { class: "plain" },
          used.map(l =>
            h(
              "li",
              {},
              h("strong", {}, l.name),
              " — ",
              Object.entries(l.deck)
                .map(([t, n]) => plural(n, t))
                .join(", ") || "no cards",
            ),
          ),
        ),
    card.villains.length ? h("p", {}, `Villain: ${card.villains.join(", ")}`) : null,
    card.henchmen.length ? h("p", {}, `Henchmen: ${card.henchmen.join(", ")}`) : null,
    h(
      "p",
      { class: "quiet" },
      `The hourglass takes the campaign's ${state.options?.hourglass ?? 30} blessings; the ship is the ${state.fleet?.current || "Merchantman"}.`,
    ),
    field("Setup plunder: the d6 on the Plunder Table", roll),
    choiceField,
    field(card.anchored_at ? `Everyone starts at the ship, anchored at` : "Everyone starts at", start),
    go.el,
  );
}

// --- the adventure ----------------------------------------------------------------------------------------------

// Beginning an adventure (`adventure.started`). The catalogue knows every scenario of no adventure (the rulebook
// names only the first of some), so the group names the scenarios it knows, in order, and how many its card lists:
// the scenarios played as part of it complete the list as they are played (Skull & Shackles Rulebook, After the
// Scenario: Ending a Scenario, Adventure, or Adventure Path). Built once, so what is typed stays when another phone's
// entry redraws the tab; `refresh` says what the party is playing now.
function adventureForm(table, catalogue) {
  const known = catalogue.scenarios.adventures;
  let recordedCards = [];
  const status = h("p", { class: "quiet" });
  const name = namePicker("Adventure", { options: known.map(a => a.name), single: true, name: "Add this adventure" });
  const chosenName = () => (name.values()[0] || "").trim();
  const scenarios = namePicker("Its scenarios, in order", { name: "Add the scenario" });
  const count = stepper("Scenarios its card lists", { value: 1, min: 1, max: 12 });
  const number = stepper("Its adventure deck number (#; 0 for the base set)", { value: 0, min: 0, max: 6 });
  const note = h("p", { class: "quiet" });
  // What the catalogue and the group's cards know of the adventure chosen, filled in once when it is chosen; an
  // adventure neither knows leaves what the group typed as it is.
  let filledFor = "";
  const fill = () => {
    if (chosenName() === filledFor) return;
    filledFor = chosenName();
    const adventure = known.find(a => a.name === filledFor);
    const theirs = recordedCards.filter(c => c.adventure === filledFor).map(c => c.scenario);
    note.textContent = "";
    if (!adventure && !theirs.length) return;
    const listed = [...new Set([...(adventure?.scenarios || []), ...theirs])];
    scenarios.set(listed);
    count.set(Math.max(adventure?.scenario_count || listed.length || 1, listed.length));
    number.set(adventure?.number ?? 0);
    note.textContent =
      adventure && !adventure.complete
        ? `The catalogue knows ${listed.length ? `only ${listed.join(", ")}` : "none of its scenarios"}: add those on the adventure's card that you know, in order, and say how many it lists. The scenarios played as part of it complete the list as they are played.`
        : "";
  };
  name.onChange(fill);
  const go = action("Begin the adventure", async () => {
    const adventure = chosenName();
    const listed = scenarios.values();
    if (!adventure) throw new Refusal(0, { detail: "Give the adventure's name first: nothing was written." });
    if (count.value() < listed.length) {
      throw new Refusal(0, {
        detail: `${adventure}'s card cannot list ${count.value()} scenarios when ${listed.length} are named: nothing was written.`,
      });
    }
    const data = { adventure, number: number.value(), scenarios: listed };
    if (count.value() > listed.length) data.scenario_count = count.value();
    const answer = await table.appendEvents([{ type: "adventure.started", label: `${adventure} begun`, data }]);
    name.set([]);
    scenarios.set([]);
    count.set(1);
    number.set(0);
    note.textContent = "";
    filledFor = "";
    return `${adventure} has begun. ${say(answer)}`;
  });
  const el = section(
    "setup-adventure",
    "The adventure",
    status,
    h("details", {}, h("summary", {}, "Begin an adventure"), name.el, note, scenarios.el, count.el, number.el, go.el),
  );
  const refresh = (state, recorded) => {
    recordedCards = recorded.scenario_cards;
    const offered = [...new Set([...known.map(a => a.name), ...recordedCards.map(c => c.adventure).filter(Boolean)])];
    name.offer(offered);
    scenarios.offer?.([
      ...new Set([...catalogue.scenarios.scenarios.map(s => s.name), ...recordedCards.map(c => c.scenario)]),
    ]);
    const now = state.adventure;
    if (!now) {
      status.textContent = "The party is playing no adventure: a scenario is played on its own until one begins.";
      return;
    }
    const won = now.scenarios.filter(n => (state.completed || []).includes(n)).length;
    const of = Math.max(now.count || 0, now.scenarios.length);
    status.textContent = `The party is playing ${now.name}: ${won} of its ${of} scenario${of === 1 ? "" : "s"} won${now.scenarios.length < of ? ` (${now.scenarios.length} named so far: ${now.scenarios.join(", ")})` : ""}.`;
  };
  return { el, refresh };
}
