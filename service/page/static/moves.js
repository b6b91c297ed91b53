// @ts-check
// Logging play in a few taps: the roll, the common moves of each game, and every other event type through a form
// built from the game's own event-type descriptions.
import { api, h, box, field, select, title, Refusal, renew } from "./api.js";
import { action } from "./action.js";
import { fields } from "./form.js";
import { served } from "./pickers.js";
import { refusedView } from "./refusal.js";
import { characters } from "./fleet.js";
import { pirates } from "./sheet.js";
import { rollForm } from "./dice.js";
import * as theTurn from "./turn.js";
import * as talesTurn from "./tales.js";

function list(id, names) {
  return h(
    "datalist",
    { id },
    [...new Set(names)].sort().map(n => h("option", { value: n })),
  );
}
function say(answer) {
  return `Logged at position ${answer.last_position}.`;
}
function options(el, all) {
  el.replaceChildren(...all.map(([v, label]) => h("option", { value: v }, label)));
}

// --- the forms, as data --------------------------------------------------------------------------------------------
//
// Each game's moves are a table of forms: a form is a box with a heading and its parts, in the order they show.
// `build` makes them. A part is one of:
//   { name, label, control }           a labelled control, which may take a value from the state: `follows(state)`
//                                      when that value changes (whose turn it is), `shows(state)` each time the log
//                                      moves on (the open phase); either only while it is not being typed in
//   { name, check }                    a checkbox with its label
//   { row: [parts] }                   labelled controls side by side
//   { list, on, names }                a datalist offered from names(state, values), renewed when a field in `on`
//                                      changes and when the log moves on
//   { name, picks, owner, cards, aria } checkboxes, one per copy of each card of cards(state, values), for the
//                                      character chosen in the field `owner`; what is ticked stays while it is hers
//   { log, events, name }              a button that logs the batch events(values, state, table) makes (`name`:
//                                      its accessible name, when not its text)
// `values` holds every field's value as an entry wants it: text trimmed, numbers as numbers, a checkbox's ticked or
// not, a list of checkboxes' ticked names.

// Controls, each made from the state: its element, how its value is read, and for a select of people or of what
// the state holds, `offered(state)`, the options it is renewed with when the log moves on (what was chosen stays
// chosen while it is offered).
const text =
  (attrs = {}) =>
  () => {
    const el = h("input", { autocomplete: "off", ...attrs });
    return { el, read: () => el.value.trim() };
  };
const number =
  (attrs = {}) =>
  () => {
    const el = h("input", { type: "number", inputmode: "numeric", ...attrs });
    return { el, read: () => Number(el.value) };
  };
const choice = choices => () => {
  const el = select(choices, {});
  return { el, read: () => el.value };
};
const offered = from => (state, game) => {
  const el = select(from(state, game), {});
  return { el, read: () => el.value, offered: now => from(now, game) };
};
// Who can be chosen: the game's people (the party; the crew who are not retired).
const who = offered((state, game) => game.people(state));

const CARD_MOVES = {
  draw: { from: "deck", to: "hand", label: "Draw" },
  discard: { from: "hand", to: "discard", label: "Discard" },
  recharge: { from: "hand", to: "deck", label: "Recharge" },
  bury: { from: "hand", to: "buried", label: "Bury" },
  banish: { from: "hand", to: "vault", label: "Banish" },
  acquire: { from: "encounter", to: "hand", label: "Acquire" },
};

function zone(kind, character) {
  return ["vault", "encounter"].includes(kind) ? { zone: kind } : { zone: kind, character_id: character };
}

const moved = (card, verb, from, to, who) => ({
  type: "card.moved",
  data: { card, verb, from: zone(from, who), to: zone(to, who) },
});
const hand = (state, who) => state.byId.get(who)?.zones?.hand;
const turn = state => state.scenario.turn;

// --- Skull & Shackles --------------------------------------------------------------------------------------------

const PACG = {
  async load(table) {
    const { scenario, characters: party } = await characters(table);
    return { scenario, party, byId: new Map(party.map(c => [c.character_id, c])) };
  },
  people: state => state.party.map(c => [c.character_id, c.name]),
  lists: state => [
    [
      "known-cards",
      state.party
        .flatMap(c =>
          Object.keys(c.zones?.hand || {}).concat(
            Object.keys(c.zones?.deck || {}),
            Object.keys(c.zones?.discard || {}),
          ),
        )
        .concat(Object.keys(state.scenario.encounter || {})),
    ],
  ],
  forms: [
    // A card move: who, which verb, which card (offered from the zone it leaves).
    [
      "Move a card",
      {
        list: "card-choices",
        on: ["mover", "verb"],
        names: (state, v) => {
          const from = CARD_MOVES[v.verb].from;
          return Object.keys(
            (from === "encounter" ? state.scenario.encounter : state.byId.get(v.mover)?.zones?.[from]) || {},
          );
        },
      },
      { name: "mover", label: "Character", control: who, follows: turn },
      { name: "verb", label: "Move", control: choice(Object.entries(CARD_MOVES).map(([k, m]) => [k, m.label])) },
      { name: "card", label: "Card", control: text({ list: "card-choices" }) },
      {
        log: "Move the card",
        events: v => [moved(v.card, v.verb, CARD_MOVES[v.verb].from, CARD_MOVES[v.verb].to, v.mover)],
      },
    ],
    // Damage: the amount, and the cards chosen to discard for it, in one batch.
    [
      "Take damage",
      { name: "hurt", label: "Character", control: who },
      {
        row: [
          { name: "amount", label: "Damage", control: number({ min: 1, value: 1 }) },
          {
            name: "kind",
            label: "Damage type",
            control: choice(["Combat", "Fire", "Cold", "Electricity", "Acid", "Poison", "Mental", "Force"]),
          },
        ],
      },
      {
        name: "chosen",
        picks: "Cards discarded for the damage",
        owner: "hurt",
        cards: (state, v) => hand(state, v.hurt),
        aria: card => `Discard ${card}`,
      },
      {
        log: "Deal the damage",
        events: v => [
          { type: "damage.dealt", data: { character_id: v.hurt, amount: v.amount, damage_type: v.kind } },
          ...v.chosen.map(c => moved(c, "discard", "hand", "discard", v.hurt)),
        ],
      },
    ],
    // Explore: the top card of the explorer's location, revealed into the encounter.
    [
      "Explore a location",
      { name: "explorer", label: "Explorer", control: who },
      { name: "revealed", label: "Card revealed", control: text({ list: "known-cards" }) },
      { name: "again", check: "Explore again (a card's power)" },
      {
        log: "Explore",
        events: (v, state) => [
          {
            type: "card.moved",
            data: {
              card: v.revealed,
              verb: "reveal",
              from: { zone: "location", location: state.byId.get(v.explorer)?.location },
              to: { zone: "encounter" },
              explorer: v.explorer,
              explore_again: v.again,
            },
          },
        ],
      },
    ],
    // The turn: advance the hourglass to start one, reset the hand to end it. The end-of-turn reset names the cards
    // it discards down to and draws up to the hand size, after it in one batch.
    [
      "Turn",
      { name: "starter", label: "Whose turn starts", control: who, follows: turn },
      { name: "hour", label: "Hourglass card (if known)", control: text({ list: "known-cards" }) },
      {
        log: "Advance the hourglass",
        events: v => [
          { type: "hourglass.advanced", data: { character_id: v.starter, ...(v.hour ? { card: v.hour } : {}) } },
        ],
      },
      { name: "ender", label: "Whose turn ends", control: who, follows: turn },
      {
        list: "deck-cards",
        on: ["ender"],
        names: (state, v) => Object.keys(state.byId.get(v.ender)?.zones?.deck || {}),
      },
      {
        name: "shed",
        picks: "Cards discarded down to the hand size",
        owner: "ender",
        cards: (state, v) => hand(state, v.ender),
        aria: card => `Discard ${card} at the reset`,
      },
      {
        name: "drawn",
        label: "Cards drawn up to the hand size",
        control: text({ list: "deck-cards", placeholder: "e.g. Cutlass, Blessing of the Gods" }),
      },
      {
        log: "End the turn",
        events: v => [
          { type: "hand.reset", data: { character_id: v.ender } },
          ...v.shed.map(c => moved(c, "discard", "hand", "discard", v.ender)),
          ...v.drawn
            .split(",")
            .map(x => x.trim())
            .filter(Boolean)
            .map(c => moved(c, "draw", "deck", "hand", v.ender)),
        ],
      },
    ],
  ],
};

// --- Skull Tales --------------------------------------------------------------------------------------------------

const one = (type, data) => [{ type, data }];

const TALES = {
  async load(table) {
    const [crew, { chapter }] = await Promise.all([pirates(table), table.view("/chapter")]);
    return { crew, chapter };
  },
  reference: () => api("/v1/catalog/skull-tales-full-sail"),
  people: state => state.crew.filter(p => p.status !== "retired").map(p => [p.id, p.name]),
  everyone: state => state.crew.map(p => [p.id, p.name]),
  lists: (state, catalogue) => [
    ["skills", (catalogue.skills?.skills || []).map(s => s.name)],
    ["goods", (catalogue.goods?.goods || []).map(g => g.name)],
    ["inventory", state.crew.flatMap(p => (p.items || []).map(i => (typeof i === "string" ? i : i.name || i.item)))],
  ],
  forms: [
    // The chapter and its phases, in the order the rulebook plays them.
    [
      "Chapter and phases",
      {
        row: [
          {
            name: "phase",
            label: "Phase",
            control: choice([
              ["port", "Port"],
              ["voyage", "Voyage"],
              ["adventure", "Adventure"],
            ]),
            shows: state => state.chapter.phase,
          },
          {
            name: "outcome",
            label: "Ended as",
            control: choice([
              ["success", "a success"],
              ["failure", "a failure"],
              ["repeat", "to be repeated"],
            ]),
          },
        ],
      },
      { log: "Start the phase", events: v => one("phase.started", { phase: v.phase }) },
      { log: "End the phase", events: v => one("phase.ended", { phase: v.phase, outcome: v.outcome }) },
      {
        row: [
          {
            name: "chapterNumber",
            label: "Chapter number",
            control: number(),
            shows: state => (state.chapter.chapter || 0) + 1,
          },
          { name: "called", label: "Chapter title", control: text() },
        ],
      },
      { log: "Start the chapter", events: v => one("chapter.started", { number: v.chapterNumber, title: v.called }) },
      // The chapter open now, read when the button is pressed: never the one that was open when the tab was drawn.
      {
        log: "End the chapter",
        events: async (v, _state, table) => {
          const { chapter: open } = await table.view("/chapter");
          return one("chapter.ended", { number: open.chapter || v.chapterNumber });
        },
      },
    ],
    [
      "Port: salaries",
      { name: "earner", label: "Pirate", control: who },
      { log: "Collect the salary", events: v => one("salary.collected", { pirate_id: v.earner }) },
    ],
    [
      "Port: learn a skill",
      { name: "learner", label: "Pirate", control: who },
      { name: "skill", label: "Skill", control: text({ list: "skills" }) },
      {
        name: "master",
        label: "Taught by a crew member who knows it",
        control: offered((state, game) => [["", "nobody (a teacher in port)"], ...game.everyone(state)]),
      },
      {
        log: "Learn the skill",
        events: v =>
          one("skill.learned", { pirate_id: v.learner, skill: v.skill, ...(v.master ? { master_id: v.master } : {}) }),
      },
    ],
    [
      "Port: buy and sell gear",
      { name: "buyer", label: "Buyer", control: who },
      { name: "item", label: "Gear bought", control: text() },
      { name: "price", label: "Price in Coins", control: number({ min: 0, value: 0 }) },
      { log: "Buy the gear", events: v => one("item.gained", { pirate_id: v.buyer, item: v.item, price: v.price }) },
      { name: "seller", label: "Seller", control: who },
      { name: "sold", label: "Gear sold", control: text({ list: "inventory" }) },
      { name: "soldFor", label: "Sold for (Coins)", control: number({ min: 0, value: 0 }) },
      {
        log: "Sell the gear",
        events: v => one("item.lost", { pirate_id: v.seller, item: v.sold, sold_for: v.soldFor }),
      },
    ],
    [
      "Port: trade goods",
      { name: "trader", label: "Pirate", control: who },
      { name: "goods", label: "Goods", control: text({ list: "goods" }) },
      {
        row: [
          { name: "quantity", label: "Tokens", control: number({ min: 1, value: 1 }) },
          {
            name: "direction",
            label: "Trade",
            control: choice([
              ["buy", "Buy"],
              ["sell", "Sell"],
              ["deliver", "Deliver"],
            ]),
          },
        ],
      },
      {
        log: "Trade the goods",
        events: v =>
          one("goods.traded", { pirate_id: v.trader, goods: v.goods, quantity: v.quantity, direction: v.direction }),
      },
    ],
    [
      "Voyage: Trust and Morale",
      { name: "trusted", label: "Pirate or ally", control: who },
      { name: "trust", label: "Trust gained or lost", control: number({ value: 1 }) },
      { name: "why", label: "Why (Trust)", control: text() },
      {
        log: "Change Trust",
        events: v => one("trust.changed", { character_id: v.trusted, amount: v.trust, reason: v.why }),
      },
      { name: "morale", label: "Morale gained or lost", control: number({ value: 1 }) },
      { name: "moraleWhy", label: "Why (Morale)", control: text() },
      { log: "Change Morale", events: v => one("morale.changed", { amount: v.morale, reason: v.moraleWhy }) },
    ],
    [
      "Adventure: Fame, Coins, wounds",
      { name: "hero", label: "Pirate", control: who },
      {
        row: [
          { name: "fame", label: "Fame", control: number({ value: 0 }) },
          { name: "coins", label: "Coins", control: number({ value: 0 }) },
        ],
      },
      {
        name: "source",
        label: "Where from",
        control: choice([
          ["enemy", "an Enemy"],
          ["goal", "a goal"],
          ["search_card", "a Search card"],
          ["fallen_enemy", "a fallen Enemy"],
          ["event", "an event"],
          ["other", "elsewhere"],
        ]),
      },
      {
        log: "Record Fame and Coins",
        events: v => [
          ...(v.fame ? one("fame.changed", { pirate_id: v.hero, amount: v.fame, source: v.source }) : []),
          ...(v.coins ? one("coins.changed", { pirate_id: v.hero, amount: v.coins, source: v.source }) : []),
        ],
      },
      { name: "wounded", label: "Wounded pirate", control: who },
      { name: "wounds", label: "Wounds (negative heals)", control: number({ value: 1 }) },
      { log: "Record the wounds", events: v => one("wounds.changed", { pirate_id: v.wounded, amount: v.wounds }) },
      { name: "fallen", label: "Pirate knocked out", control: who },
      {
        log: "Knocked out",
        name: "Record the pirate knocked out",
        events: v => one("pirate.unconscious", { pirate_id: v.fallen }),
      },
    ],
    [
      "Voyage: the ship is hit",
      {
        row: [
          { name: "sails", label: "Impacts on the sails", control: number({ min: 0, value: 0 }) },
          { name: "hold", label: "Impacts on the hold", control: number({ min: 0, value: 0 }) },
        ],
      },
      { log: "Record the damage to the ship", events: v => one("ship.damaged", { sails: v.sails, hold: v.hold }) },
    ],
  ],
};

// --- the builder --------------------------------------------------------------------------------------------------

// Draw a game's forms into `panel`, and renew what they offer from the state whenever the log moves on
// (`table.onChange`): who can be chosen (a character who joins after the tab was drawn is offered at once), the
// fields that follow the state, the cards offered. What is typed and chosen stays while it can be.
async function build(panel, table, game) {
  const [first, reference] = await Promise.all([game.load(table), game.reference?.()]);
  let state = first;
  const controls = new Map(); // by name: { el, read, offered? }
  const followers = []; // { el, follows | shows, taken }
  const renewers = []; // { on, renew }
  const values = () => Object.fromEntries([...controls].map(([name, c]) => [name, c.read()]));
  const follow = () => {
    for (const f of followers) {
      const value = (f.follows || f.shows)(state);
      if (value === undefined || value === null || value === "" || document.activeElement === f.el) continue;
      if (f.follows && value === f.taken) continue;
      f.el.value = value;
      f.taken = value;
    }
  };
  const part = p => {
    if (p.row) return h("div", { class: "row" }, p.row.map(part));
    if (p.log)
      return action(p.log, async () => say(await table.appendEvents(await p.events(values(), state, table))), {
        name: p.name,
      }).el;
    if (p.list) {
      const el = h("datalist", { id: p.list });
      renewers.push({
        on: p.on,
        renew: () => el.replaceChildren(...p.names(state, values()).map(n => h("option", { value: n }))),
      });
      return el;
    }
    if (p.picks) {
      const el = h("fieldset", {});
      controls.set(p.name, { el, read: () => [...el.querySelectorAll("input:checked")].map(i => i.value) });
      renewers.push({
        on: [p.owner],
        renew: () => {
          const owner = controls.get(p.owner).read();
          renew(
            el,
            owner,
            h("legend", {}, p.picks),
            ...Object.entries(p.cards(state, values()) || {}).flatMap(([name, n]) =>
              Array.from({ length: n }, (_, i) =>
                h(
                  "label",
                  { class: "inline" },
                  h("input", {
                    type: "checkbox",
                    value: name,
                    "aria-label": `${p.aria(name)}${n > 1 ? ` (copy ${i + 1})` : ""}`,
                  }),
                  name,
                ),
              ),
            ),
          );
        },
      });
      return el;
    }
    if (p.check) {
      const el = h("input", { type: "checkbox" });
      controls.set(p.name, { el, read: () => el.checked });
      return h("label", { class: "inline" }, el, p.check);
    }
    const control = p.control(state, game);
    controls.set(p.name, control);
    if (p.follows || p.shows) followers.push({ el: control.el, follows: p.follows, shows: p.shows, taken: undefined });
    return field(p.label, control.el);
  };

  const boxes = game.forms.map(([heading, ...parts]) => box(heading, ...parts.map(part)));
  for (const { on, renew: again } of renewers)
    for (const name of on) controls.get(name).el.addEventListener("change", again);
  follow();
  for (const r of renewers) r.renew();
  panel.append(...game.lists(state, reference).map(([id, names]) => list(id, names)), ...boxes);

  const selects = [...controls.values()].filter(c => c.offered);
  table.onChange = async () => {
    state = await game.load(table);
    for (const c of selects) {
      const kept = c.el.value;
      const all = c.offered(state);
      options(c.el, all);
      if (all.some(([v]) => v === kept)) c.el.value = kept;
    }
    follow();
    for (const r of renewers) r.renew();
  };
  return {
    people: (game.everyone || game.people)(state),
    // A select drawn elsewhere (the roll's "who"), renewed with the people after the choices it offers first.
    adopt(el, before = []) {
      if (el) selects.push({ el, offered: now => [...before, ...game.people(now)] });
    },
  };
}

// --- every other event type ------------------------------------------------------------------------------------

// Every field typed from the event type's schema (form.js): no field on the page asks for JSON.
export async function generic(table, names = []) {
  const answer = await api(`/v1/games/${table.game}/event-types`);
  // Only what this member may append by hand: the service writes the rest itself.
  const types = answer.event_types.filter(t => !t.written_by && (t.appended_by || []).includes(table.me.role));
  const chooser = select([["", "Choose what happened"], ...types.map(t => [t.type, `${title(t.type)}: ${t.summary}`])]);
  const about = h("p", { class: "quiet" });
  const holder = h("div", {});
  let form = null;
  const draw = () => {
    const t = types.find(x => x.type === chooser.value);
    about.textContent = t ? `${t.summary}${t.rulebook ? ` Rulebook: ${t.rulebook}` : ""}` : "";
    form = t
      ? fields(t.schema || {}, { names, example: (t.examples || [])[0] || {}, served: served(t.type, table) })
      : null;
    holder.replaceChildren(form ? form.el : "");
  };
  chooser.addEventListener("change", draw);
  const send = action("Log it", async () => {
    if (!chooser.value) throw new Refusal(0, { detail: "Choose what happened first." });
    return say(await table.appendEvents([{ type: chooser.value, data: form.read() }], { typed: true }));
  });
  return box("Anything else", field("What happened", chooser), about, holder, send.el);
}

export async function render(panel, table) {
  const pacg = table.game === "pacg-skull-and-shackles";
  const { people, adopt } = await build(panel, table, pacg ? PACG : TALES);
  const roll = rollForm(table, people);
  adopt(roll.querySelector("select"), [["", "nobody in particular"]]);
  panel.prepend(roll);
  // The turn heads the tab, above the roll: both are brought up to date when the log moves on. Each game's turn
  // has its own module.
  const top = h("div", {});
  panel.prepend(top);
  const redraw = await (pacg ? theTurn : talesTurn).render(top, table);
  const forms = table.onChange;
  table.onChange = async () => {
    await Promise.all([forms?.(), redraw()]);
  };
  try {
    const names = [...new Set([...people.flat(), ...[...panel.querySelectorAll("datalist option")].map(o => o.value)])];
    panel.append(await generic(table, names));
  } catch (error) {
    refusedView(panel, error);
  }
}
