// Logging play in a few taps: the roll, the common moves of each game, and every other event type through a form
// built from the game's own event-type descriptions.
import { api, h, field, select, action, title, Refusal, renew } from "./api.js";
import { fields } from "./form.js";
import { refuse } from "./refusal.js";
import { characters } from "./fleet.js";
import { pirates } from "./sheet.js";
import { rollForm } from "./dice.js";

function box(heading, ...body) {
  return h("details", { class: "card" }, h("summary", {}, h("strong", {}, heading)), ...body);
}

function number(attrs = {}) { return h("input", { type: "number", inputmode: "numeric", ...attrs }); }
function text(attrs = {}) { return h("input", { autocomplete: "off", ...attrs }); }
function list(id, names) { return h("datalist", { id }, [...new Set(names)].sort().map(n => h("option", { value: n }))); }
function say(answer) { return `Logged at position ${answer.last_position}.`; }

// Selects of who can be chosen, kept so each is renewed from the current state when the log moves on (a character
// who joins after the tab was drawn is offered at once); what was chosen stays chosen while it can be.
function people() {
  const made = [];
  return {
    select(options) { const el = select(options, {}); made.push([el, []]); return el; },
    // A select drawn elsewhere (the roll's "who"), with the choices it offers before the people.
    adopt(el, first = []) { if (el) made.push([el, first]); },
    renew(options) {
      for (const [el, first] of made) {
        const kept = el.value;
        const all = [...first, ...options];
        el.replaceChildren(...all.map(([v, label]) => h("option", { value: v }, label)));
        if (all.some(([v]) => v === kept)) el.value = kept;
      }
    },
  };
}

// --- Skull & Shackles --------------------------------------------------------------------------------------------

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

async function pacg(panel, table) {
  const { scenario, characters: party } = await characters(table);
  const byId = new Map(party.map(c => [c.character_id, c]));
  const choosers = people();
  const who = () => choosers.select(party.map(c => [c.character_id, c.name]));
  const cardNames = party.flatMap(c => Object.keys(c.zones?.hand || {}).concat(Object.keys(c.zones?.deck || {}), Object.keys(c.zones?.discard || {})));
  panel.append(list("known-cards", cardNames.concat(Object.keys(scenario.encounter || {}))));

  // A card move: who, which verb, which card (offered from the zone it leaves).
  const mover = who(), verb = select(Object.entries(CARD_MOVES).map(([k, m]) => [k, m.label])), card = text({ list: "card-choices" });
  const choices = h("datalist", { id: "card-choices" });
  const offer = () => {
    const from = CARD_MOVES[verb.value].from;
    const pile = from === "encounter" ? scenario.encounter || {} : byId.get(mover.value)?.zones?.[from] || {};
    choices.replaceChildren(...Object.keys(pile).map(n => h("option", { value: n })));
  };
  mover.addEventListener("change", offer); verb.addEventListener("change", offer); offer();
  // Something was logged: read the characters again so the cards offered are where they are now.
  table.onChange = async () => {
    const again = await characters(table);
    for (const c of again.characters) byId.set(c.character_id, c);
    Object.assign(scenario, again.scenario);
    choosers.renew(again.characters.map(c => [c.character_id, c.name]));
    // Whose turn it is now: the turn's pickers follow it when it passes to someone else.
    if (again.scenario.turn && again.scenario.turn !== turnShown) {
      turnShown = again.scenario.turn;
      for (const el of [starter, ender, mover]) el.value = turnShown;
    }
    offer(); offerHand(); offerReset();
  };
  const move = action("Move the card", async () => {
    const m = CARD_MOVES[verb.value];
    return say(await table.appendEvents([{ type: "card.moved", data: {
      card: card.value.trim(), verb: verb.value, from: zone(m.from, mover.value), to: zone(m.to, mover.value) } }]));
  });

  // Damage: the amount, and the cards chosen to discard for it, in one batch.
  const hurt = who(), amount = number({ min: 1, value: 1 }), kind = select(["Combat", "Fire", "Cold", "Electricity", "Acid", "Poison", "Mental", "Force"]);
  const chosen = h("fieldset", {}, h("legend", {}, "Cards discarded for the damage"));
  const offerHand = () => {
    const hand = byId.get(hurt.value)?.zones?.hand || {};
    renew(chosen, hurt.value, h("legend", {}, "Cards discarded for the damage"),
      ...Object.entries(hand).flatMap(([name, n]) => Array.from({ length: n }, (_, i) =>
        h("label", { class: "inline" }, h("input", { type: "checkbox", value: name, "aria-label": `Discard ${name}${n > 1 ? ` (copy ${i + 1})` : ""}` }), name))));
  };
  hurt.addEventListener("change", offerHand); offerHand();
  const damage = action("Deal the damage", async () => {
    const cards = [...chosen.querySelectorAll("input:checked")].map(i => i.value);
    return say(await table.appendEvents([
      { type: "damage.dealt", data: { character_id: hurt.value, amount: Number(amount.value), damage_type: kind.value } },
      ...cards.map(c => ({ type: "card.moved", data: { card: c, verb: "discard", from: zone("hand", hurt.value), to: zone("discard", hurt.value) } })),
    ]));
  });

  // Explore: the top card of the explorer's location, revealed into the encounter.
  const explorer = who(), revealed = text({ list: "known-cards" }), again = h("input", { type: "checkbox" });
  const explore = action("Explore", async () => {
    const c = byId.get(explorer.value);
    return say(await table.appendEvents([{ type: "card.moved", data: {
      card: revealed.value.trim(), verb: "reveal", from: { zone: "location", location: c?.location }, to: { zone: "encounter" },
      explorer: explorer.value, explore_again: again.checked } }]));
  });

  // The turn: advance the hourglass to start one, reset the hand to end it.
  const starter = who(), hour = text({ list: "known-cards" });
  const advance = action("Advance the hourglass", async () => say(await table.appendEvents([{ type: "hourglass.advanced",
    data: { character_id: starter.value, ...(hour.value.trim() ? { card: hour.value.trim() } : {}) } }])));
  // The end-of-turn reset names the cards it discards down to and draws up to the hand size, after it in one batch.
  const ender = who(), drawn = text({ list: "deck-cards", placeholder: "e.g. Cutlass, Blessing of the Gods" });
  const deckCards = h("datalist", { id: "deck-cards" });
  const shed = h("fieldset", {});
  const offerReset = () => {
    const c = byId.get(ender.value);
    deckCards.replaceChildren(...Object.keys(c?.zones?.deck || {}).map(n => h("option", { value: n })));
    renew(shed, ender.value, h("legend", {}, "Cards discarded down to the hand size"),
      ...Object.entries(c?.zones?.hand || {}).flatMap(([name, n]) => Array.from({ length: n }, (_, i) =>
        h("label", { class: "inline" }, h("input", { type: "checkbox", value: name, "aria-label": `Discard ${name} at the reset${n > 1 ? ` (copy ${i + 1})` : ""}` }), name))));
  };
  ender.addEventListener("change", offerReset);
  let turnShown = scenario.turn;
  if (scenario.turn) { starter.value = scenario.turn; ender.value = scenario.turn; mover.value = scenario.turn; offer(); }
  offerReset();
  const end = action("End the turn", async () => {
    const who = ender.value;
    const discards = [...shed.querySelectorAll("input:checked")].map(i => i.value);
    const draws = drawn.value.split(",").map(x => x.trim()).filter(Boolean);
    return say(await table.appendEvents([
      { type: "hand.reset", data: { character_id: who } },
      ...discards.map(c => ({ type: "card.moved", data: { card: c, verb: "discard", from: zone("hand", who), to: zone("discard", who) } })),
      ...draws.map(c => ({ type: "card.moved", data: { card: c, verb: "draw", from: zone("deck", who), to: zone("hand", who) } })),
    ]));
  });

  panel.append(
    box("Move a card", choices, field("Character", mover), field("Move", verb), field("Card", card), move.el),
    box("Take damage", field("Character", hurt), h("div", { class: "row" }, field("Damage", amount), field("Damage type", kind)), chosen, damage.el),
    box("Explore a location", field("Explorer", explorer), field("Card revealed", revealed), h("label", { class: "inline" }, again, "Explore again (a card's power)"), explore.el),
    box("Turn", field("Whose turn starts", starter), field("Hourglass card (if known)", hour), advance.el,
        field("Whose turn ends", ender), deckCards, shed, field("Cards drawn up to the hand size", drawn), end.el));
  return { people: party.map(c => [c.character_id, c.name]), choosers };
}

// --- Skull Tales --------------------------------------------------------------------------------------------------

async function tales(panel, table) {
  const [crew, catalogue] = await Promise.all([pirates(table), api("/v1/catalog/skull-tales-full-sail")]);
  const choosers = people();
  const who = () => choosers.select(crew.filter(p => p.status !== "retired").map(p => [p.id, p.name]));
  panel.append(list("skills", (catalogue.skills?.skills || []).map(s => s.name)),
               list("goods", (catalogue.goods?.goods || []).map(g => g.name)),
               list("inventory", crew.flatMap(p => (p.items || []).map(i => typeof i === "string" ? i : i.name || i.item))));
  const one = (type, data) => table.appendEvents([{ type, data }]).then(say);

  const earner = who();
  const salary = action("Collect the salary", () => one("salary.collected", { pirate_id: earner.value }));

  const learner = who(), skill = text({ list: "skills" }), master = select([["", "nobody (a teacher in port)"], ...crew.map(p => [p.id, p.name])]);
  const learn = action("Learn the skill", () => one("skill.learned", { pirate_id: learner.value, skill: skill.value.trim(), ...(master.value ? { master_id: master.value } : {}) }));

  const buyer = who(), item = text(), price = number({ min: 0, value: 0 });
  const buy = action("Buy the gear", () => one("item.gained", { pirate_id: buyer.value, item: item.value.trim(), price: Number(price.value) }));
  const seller = who(), sold = text({ list: "inventory" }), soldFor = number({ min: 0, value: 0 });
  const sell = action("Sell the gear", () => one("item.lost", { pirate_id: seller.value, item: sold.value.trim(), sold_for: Number(soldFor.value) }));

  const trader = who(), goods = text({ list: "goods" }), quantity = number({ min: 1, value: 1 }), direction = select([["buy", "Buy"], ["sell", "Sell"], ["deliver", "Deliver"]]);
  const trade = action("Trade the goods", () => one("goods.traded", { pirate_id: trader.value, goods: goods.value.trim(), quantity: Number(quantity.value), direction: direction.value }));

  const hero = who(), fame = number({ value: 0 }), coins = number({ value: 0 }), source = select(["enemy", "goal", "search_card", "fallen_enemy", "event", "other"]);
  const reward = action("Record Fame and Coins", async () => {
    const events = [];
    if (Number(fame.value)) events.push({ type: "fame.changed", data: { pirate_id: hero.value, amount: Number(fame.value), source: source.value } });
    if (Number(coins.value)) events.push({ type: "coins.changed", data: { pirate_id: hero.value, amount: Number(coins.value), source: source.value } });
    return say(await table.appendEvents(events));
  });
  const hurt = who(), wounds = number({ value: 1 });
  const wound = action("Record the wounds", () => one("wounds.changed", { pirate_id: hurt.value, amount: Number(wounds.value) }));

  const trusted = who(), trust = number({ value: 1 }), why = text();
  const trustDone = action("Change Trust", () => one("trust.changed", { character_id: trusted.value, amount: Number(trust.value), reason: why.value.trim() }));
  const morale = number({ value: 1 }), moraleWhy = text();
  const moraleDone = action("Change Morale", () => one("morale.changed", { amount: Number(morale.value), reason: moraleWhy.value.trim() }));

  // The chapter and its phases, in the order the rulebook plays them.
  const { chapter } = await table.view("/chapter");
  const phase = select([["port", "Port"], ["voyage", "Voyage"], ["adventure", "Adventure"]]);
  if (chapter.phase) phase.value = chapter.phase;
  const outcome = select([["success", "a success"], ["failure", "a failure"], ["repeat", "to be repeated"]]);
  const startPhase = action("Start the phase", () => one("phase.started", { phase: phase.value }));
  const endPhase = action("End the phase", () => one("phase.ended", { phase: phase.value, outcome: outcome.value }));
  const chapterNumber = number({ value: (chapter.chapter || 0) + 1 }), called = text();
  const startChapter = action("Start the chapter", () => one("chapter.started", { number: Number(chapterNumber.value), title: called.value.trim() }));
  // The chapter open now, read when the button is pressed: never the one that was open when the tab was drawn.
  const endChapter = action("End the chapter", async () => {
    const { chapter: open } = await table.view("/chapter");
    return one("chapter.ended", { number: open.chapter || Number(chapterNumber.value) });
  });
  table.onChange = async () => {
    const [again, { chapter: now }] = await Promise.all([pirates(table), table.view("/chapter")]);
    choosers.renew(again.filter(p => p.status !== "retired").map(p => [p.id, p.name]));
    master.replaceChildren(...[["", "nobody (a teacher in port)"], ...again.map(p => [p.id, p.name])].map(([v, l]) => h("option", { value: v }, l)));
    if (now.phase) phase.value = now.phase;
    if (document.activeElement !== chapterNumber) chapterNumber.value = String((now.chapter || 0) + 1);
  };

  const sails = number({ min: 0, value: 0 }), hold = number({ min: 0, value: 0 });
  const shipHit = action("Record the damage to the ship", () => one("ship.damaged", { sails: Number(sails.value), hold: Number(hold.value) }));
  const fallen = who();
  const knockedOut = action("Knocked out", () => one("pirate.unconscious", { pirate_id: fallen.value }), { name: "Record the pirate knocked out" });

  panel.append(
    box("Chapter and phases", h("div", { class: "row" }, field("Phase", phase), field("Ended as", outcome)), startPhase.el, endPhase.el,
        h("div", { class: "row" }, field("Chapter number", chapterNumber), field("Chapter title", called)), startChapter.el, endChapter.el),
    box("Port: salaries", field("Pirate", earner), salary.el),
    box("Port: learn a skill", field("Pirate", learner), field("Skill", skill), field("Taught by a crew member who knows it", master), learn.el),
    box("Port: buy and sell gear", field("Buyer", buyer), field("Gear bought", item), field("Price in Coins", price), buy.el,
        field("Seller", seller), field("Gear sold", sold), field("Sold for (Coins)", soldFor), sell.el),
    box("Port: trade goods", field("Pirate", trader), field("Goods", goods), h("div", { class: "row" }, field("Tokens", quantity), field("Trade", direction)), trade.el),
    box("Voyage: Trust and Morale", field("Pirate or ally", trusted), field("Trust gained or lost", trust), field("Why (Trust)", why), trustDone.el,
        field("Morale gained or lost", morale), field("Why (Morale)", moraleWhy), moraleDone.el),
    box("Adventure: Fame, Coins, wounds", field("Pirate", hero), h("div", { class: "row" }, field("Fame", fame), field("Coins", coins)), field("Where from", source), reward.el,
        field("Wounded pirate", hurt), field("Wounds (negative heals)", wounds), wound.el,
        field("Pirate knocked out", fallen), knockedOut.el),
    box("Voyage: the ship is hit", h("div", { class: "row" }, field("Impacts on the sails", sails), field("Impacts on the hold", hold)), shipHit.el));
  return { people: crew.map(p => [p.id, p.name]), choosers };
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
    about.textContent = t ? `${t.summary}${t.rulebook ? " Rulebook: " + t.rulebook : ""}` : "";
    form = t ? fields(t.schema || {}, { names, example: (t.examples || [])[0] || {} }) : null;
    holder.replaceChildren(form ? form.el : "");
  };
  chooser.addEventListener("change", draw);
  const send = action("Log it", async () => {
    if (!chooser.value) throw new Refusal(0, { detail: "Choose what happened first." });
    return say(await table.appendEvents([{ type: chooser.value, data: form.read() }]));
  });
  return box("Anything else", field("What happened", chooser), about, holder, send.el);
}

export async function render(panel, table) {
  const { people, choosers } = table.game === "pacg-skull-and-shackles" ? await pacg(panel, table) : await tales(panel, table);
  const roll = rollForm(table, people);
  choosers.adopt(roll.querySelector("select"), [["", "nobody in particular"]]);
  panel.prepend(roll);
  try {
    const names = [...new Set([...people.flatMap(([id, name]) => [id, name]),
      ...[...panel.querySelectorAll("datalist option")].map(o => o.value)])];
    panel.append(await generic(table, names));
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const place = h("p", { class: "refusal", role: "alert" });
    refuse(place, error);
    panel.append(place);
  }
}
