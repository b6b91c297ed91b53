// @ts-check
// A Pirate ashore in Port on the Play tab (Skull Tales: Full Sail!): learning a skill, buying a Gear card, selling one
// with Haggle, trading Goods at the Docks and spending Time Units moving, each picked from what the fold's turn view
// and the catalogue offer. Prices are never typed: a skill's comes from the catalogue through the server, a Gear
// card's from the one time the table priced that card (the rulebook prints no Gear prices), Goods' from the Trade
// chart. What each costs in Coins, Fame and Time Units, and whether the Pirate may, is the fold's to say when the
// entry is logged.
import { h, field, select, Refusal } from "./api.js";
import { action } from "./action.js";

/**
 * @typedef {{ name: string, kind: string, value: number }} Item
 * @typedef {{ pirate_id: string, name: string, time_units: number, boarded: boolean, skills: string[],
 *   items: Item[], captain_actions: boolean }} Pirate
 * @typedef {{ name: string, price: number, half_space: boolean, equipped: boolean }} GearCard
 * @typedef {{ pirates: Pirate[], gear_cards: GearCard[], hold: Record<string, number>, offered: string[],
 *   any_phase: string[] }} PortView
 * @typedef {{ name: string, class: string, teacher: string, coins?: number }} Skill
 * @typedef {{ name: string, price: number | null, sellable?: boolean }} Goods
 * @typedef {{ skills: { skills: Skill[] }, goods: { goods: Goods[] } }} Catalogue
 * @typedef {(events: { type: string, data: Record<string, unknown> }[]) => Promise<string>} Log
 * @typedef {{ goods: string, quantity: number, direction: string, roll?: number }} TradeLine
 */

const NEW_CARD = "";
const MOVES = [1, 2, 3];
const WAYS = { sell: "Sell", buy: "Buy", deliver: "Deliver" };

/** @param {string} type @param {Record<string, unknown>} data */
const one = (type, data) => [{ type, data }];

/** @param {number} n @param {string} noun */
const count = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/**
 * The Port's own actions for the Pirate chosen, below the chooser of who is ashore.
 * @param {any} table the campaign's table (app.js): what was chosen and what is being traded stay on it
 * @param {PortView} view the Skull Tales turn view
 * @param {Catalogue} catalogue
 * @param {Log} log
 */
export function ashore(table, view, catalogue, log) {
  const offered = new Set([...view.offered, ...view.any_phase]);
  const ashore = view.pirates.filter(p => !p.boarded);
  if (!ashore.length) return null;
  const who = select(
    ashore.map(p => [p.pirate_id, `${p.name}: ${count(p.time_units, "Time Unit")} left`]),
    { "aria-label": "Pirate ashore" },
  );
  if (ashore.some(p => p.pirate_id === table.talesAshore)) who.value = table.talesAshore;
  const actions = h("div", {});
  const draw = () => {
    table.talesAshore = who.value;
    const p = ashore.find(x => x.pirate_id === who.value) || ashore[0];
    const parts = [
      offered.has("skill.learned") ? learning(p, view, catalogue, log) : null,
      offered.has("item.gained") ? buying(p, view, log) : null,
      offered.has("item.lost") ? selling(p, log) : null,
      offered.has("trade.made") && p.captain_actions ? trading(table, p, view, catalogue, log) : null,
      offered.has("time.spent") ? moving(p, log) : null,
    ];
    actions.replaceChildren(...parts.filter(part => part !== null));
  };
  who.addEventListener("change", draw);
  draw();
  return h(
    "div",
    { class: "reset", role: "group", "aria-label": "Ashore" },
    h("h3", {}, "Ashore"),
    field("Pirate ashore", who),
    actions,
  );
}

/**
 * A skill from the catalogue she does not know yet, by class, with a crew member who knows it as her master.
 * @param {Pirate} p @param {PortView} view @param {Catalogue} catalogue @param {Log} log
 */
function learning(p, view, catalogue, log) {
  // A skill the catalogue prices: the others are starting skills only.
  const skills = catalogue.skills.skills.filter(s => s.coins !== undefined && !p.skills.includes(s.name));
  const classes = [...new Set(skills.map(s => s.class))].sort();
  const skill = h(
    "select",
    { "aria-label": "Skill to learn" },
    h("option", { value: "" }, "Choose a skill"),
    classes.map(c =>
      h(
        "optgroup",
        { label: c },
        skills.filter(s => s.class === c).map(s => h("option", { value: s.name }, `${s.name} (${s.teacher})`)),
      ),
    ),
  );
  const master = select([["", "No master in the crew"]], { "aria-label": "Taught by" });
  const masters = () => {
    const knowing = view.pirates.filter(o => o.pirate_id !== p.pirate_id && o.skills.includes(skill.value));
    const kept = master.value;
    master.replaceChildren(
      h("option", { value: "" }, "No master in the crew"),
      ...knowing.map(o => h("option", { value: o.pirate_id }, `${o.name}, who knows it`)),
    );
    if (knowing.some(o => o.pirate_id === kept)) master.value = kept;
  };
  skill.addEventListener("change", masters);
  masters();
  const learn = action(
    "Learn the skill",
    () => {
      if (!skill.value)
        throw new Refusal(422, { detail: `Choose the skill ${p.name} learns first: nothing was sent.` });
      const data = { pirate_id: p.pirate_id, skill: skill.value, ...(master.value ? { master_id: master.value } : {}) };
      return log(one("skill.learned", data)).then(said => {
        skill.value = "";
        masters();
        return said;
      });
    },
    { primary: false, name: `${p.name} learns the skill` },
  );
  return h(
    "div",
    { role: "group", "aria-label": `${p.name} learns a skill` },
    h("div", { class: "row" }, field("Skill to learn", skill), field("Taught by", master)),
    learn.el,
  );
}

/**
 * A Gear card from the Market: one the crew priced before, by tap; a new one typed once with its printed cost.
 * @param {Pirate} p @param {PortView} view @param {Log} log
 */
function buying(p, view, log) {
  const known = view.gear_cards;
  const card = select(
    [...known.map(c => [c.name, `${c.name} (${count(c.price, "Coin")})`]), [NEW_CARD, "A card not priced yet"]],
    { "aria-label": "Gear to buy" },
  );
  const name = h("input", { autocomplete: "off", "aria-label": "Gear card" });
  const cost = h("input", { type: "number", inputmode: "numeric", min: 1, "aria-label": "Its Coins cost" });
  const half = h("input", { type: "checkbox", "aria-label": "Rum or Brew: half a space" });
  const black = h("input", { type: "checkbox", "aria-label": "From the Black Market" });
  const fresh = h(
    "div",
    { class: "row" },
    field("Gear card", name),
    field("Its Coins cost", cost),
    h("label", { class: "inline" }, half, "Rum or Brew: half a space"),
  );
  const shown = () => {
    fresh.style.display = card.value === NEW_CARD ? "" : "none";
  };
  card.addEventListener("change", shown);
  shown();
  // Logged: the fields are emptied, so that the next Pirate's form does not start with this card.
  const bought = said => {
    for (const input of [name, cost]) input.value = "";
    half.checked = black.checked = false;
    return said;
  };
  const buy = action(
    "Buy the card",
    () => {
      const priced = known.find(c => c.name === card.value);
      const market = black.checked ? { black_market: true } : {};
      if (priced) {
        const { name: item, price, half_space, equipped } = priced;
        return log(one("item.gained", { pirate_id: p.pirate_id, item, price, half_space, equipped, ...market })).then(
          bought,
        );
      }
      const item = name.value.trim();
      const price = Number(cost.value);
      if (!item || !(price > 0))
        throw new Refusal(422, { detail: "Type the card's name and the Coins cost printed on it: nothing was sent." });
      const data = { pirate_id: p.pirate_id, item, price, half_space: half.checked, ...market };
      return log(one("item.gained", data)).then(bought);
    },
    { primary: false, name: `${p.name} buys the card` },
  );
  return h(
    "div",
    { role: "group", "aria-label": `${p.name} buys a Gear card` },
    field("Gear to buy", card),
    fresh,
    h("label", { class: "inline" }, black, "From the Black Market"),
    buy.el,
  );
}

/**
 * A Gear card of hers sold with Haggle, for the half of its value the fold computes.
 * @param {Pirate} p @param {Log} log
 */
function selling(p, log) {
  const gear = p.items.filter(i => i.kind === "gear");
  if (!gear.length) return null;
  const item = select(
    gear.map(i => i.name),
    { "aria-label": "Gear to sell" },
  );
  const sell = action(
    "Sell it with Haggle",
    () => log(one("item.lost", { pirate_id: p.pirate_id, item: item.value, haggled: true })),
    { primary: false, name: `${p.name} sells it with Haggle` },
  );
  return h("div", { role: "group", "aria-label": `${p.name} sells with Haggle` }, field("Gear to sell", item), sell.el);
}

/**
 * Time Units spent walking between the Port's locations, one tap each.
 * @param {Pirate} p @param {Log} log
 */
function moving(p, log) {
  const steps = MOVES.filter(n => n <= p.time_units);
  if (!steps.length) return null;
  return h(
    "div",
    { class: "buttons", role: "group", "aria-label": `${p.name} moves` },
    steps.map(
      n =>
        action(
          `Move: ${count(n, "Time Unit")}`,
          () => log(one("time.spent", { pirate_id: p.pirate_id, amount: n, purpose: "move" })),
          { primary: false, name: `${p.name} moves: ${count(n, "Time Unit")}` },
        ).el,
    ),
  );
}

/**
 * One Trade action at the Docks: Goods from the Trade chart, how many and which way, several kinds in one action.
 * @param {any} table @param {Pirate} p @param {PortView} view @param {Catalogue} catalogue @param {Log} log
 */
function trading(table, p, view, catalogue, log) {
  table.talesTrade ??= [];
  /** @type {TradeLine[]} */
  const lines = table.talesTrade;
  const chart = catalogue.goods.goods;
  const goods = select(
    chart.map(g => [g.name, `${g.name} (${g.price === null ? "a die x 10" : count(g.price, "Coin")})`]),
    { "aria-label": "Goods" },
  );
  const way = select([], { "aria-label": "Which way" });
  const quantity = select([], { "aria-label": "How many" });
  const die = select(
    [1, 2, 3, 4, 5, 6].map(n => [String(n), String(n)]),
    { "aria-label": "Sugar's die" },
  );
  const sugarDie = field("Sugar's die", die);
  // Other Goods chosen: their first way (selling what the Hold has); the same Goods drawn again keep the way chosen.
  const ways = (keep = true) => {
    const g = chart.find(x => x.name === goods.value);
    const held = view.hold[goods.value] || 0;
    const kept = way.value;
    const open = g?.sellable === false ? ["deliver"] : held ? ["sell", "buy"] : ["buy"];
    way.replaceChildren(...open.map(w => h("option", { value: w }, WAYS[w])));
    if (keep && open.includes(kept)) way.value = kept;
    const most = way.value === "buy" ? 6 : Math.max(held, 1);
    const n = quantity.value;
    quantity.replaceChildren(
      ...Array.from({ length: most }, (_, i) => h("option", { value: String(i + 1) }, String(i + 1))),
    );
    if (Number(n) <= most) quantity.value = n;
    sugarDie.style.display = g?.price === null ? "" : "none";
  };
  goods.addEventListener("change", () => ways(false));
  way.addEventListener("change", () => ways());
  ways();
  const list = h("ul", { "aria-label": "In this trade" });
  const listed = () =>
    list.replaceChildren(...lines.map(l => h("li", {}, `${WAYS[l.direction]} ${l.quantity} ${l.goods}`)));
  listed();
  const current = () => {
    const g = chart.find(x => x.name === goods.value);
    /** @type {TradeLine} */
    const line = { goods: goods.value, quantity: Number(quantity.value), direction: way.value };
    if (g?.price === null) line.roll = Number(die.value);
    return line;
  };
  const add = h("button", { type: "button" }, "Add these Goods to the trade");
  add.addEventListener("click", () => {
    lines.push(current());
    listed();
  });
  const trade = action(
    "Trade at the Docks",
    async () => {
      const said = await log(one("trade.made", { pirate_id: p.pirate_id, lines: [...lines, current()] }));
      lines.length = 0;
      return said;
    },
    { primary: false, name: `${p.name} trades at the Docks` },
  );
  return h(
    "div",
    { role: "group", "aria-label": `${p.name} trades at the Docks` },
    h("div", { class: "row" }, field("Goods", goods), field("Which way", way), field("How many", quantity), sugarDie),
    list,
    add,
    trade.el,
  );
}
