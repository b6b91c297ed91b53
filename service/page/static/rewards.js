// @ts-check
// After a scenario (Skull & Shackles), on the Play tab: the rewards it opened and the campaign's progress.
//
// The scenario view says what is due between scenarios: each reward opened (the scenario's, the adventure's, the
// Adventure Path's), who earns it, and the feat boxes each character may check now, leftmost first. The page offers
// one tap per open box; a card recorded without boxes of a kind has them asked once, inline, and kept (Skull &
// Shackles Rulebook, Ending a Scenario, Adventure, or Adventure Path; Your Character: Feats).
import { api, h, plural, Refusal, select } from "./api.js";
import { action } from "./action.js";
import { stepper, suggestions } from "./pickers.js";

const KINDS = /** @type {const} */ (["skill", "power", "card"]);
const TITLES = { skill: "Skill", power: "Power", card: "Card" };

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// A box in words: "Dexterity +1", "Hand Size 5", "Weapon: 5 cards".
function boxWords(kind, feat) {
  if (kind !== "card") return feat;
  const [type, count] = feat.split(" ");
  return `${capital(type)}: ${count} cards`;
}

/**
 * @param {any} table
 * @param {any[]} events
 */
async function log(table, events) {
  const answer = await table.appendEvents(events);
  // Shown at the panel's top as well: the panel is drawn again as soon as the log moves on.
  table.turnSaid = `Logged at position ${answer.last_position}.`;
  return table.turnSaid;
}

// The boxes of one kind her card lacks, asked once: a count of boxes per skill, per Cards List type, or the Hand
// Size power's; what they are labelled follows from the card (+1, +2…; the counts after the Cards List's; the hand
// sizes after hers). Kept with character.card_completed.
function askBoxes(table, c, kind) {
  /** @type {[string, ReturnType<typeof stepper>, (n: number) => any[]][]} */
  const rows = [];
  if (kind === "skill")
    for (const skill of c.skills)
      rows.push([
        skill,
        stepper(`${skill}: feat boxes`, { value: 0, min: 0, max: 6, name: `${c.name}'s ${skill} feat boxes` }),
        n => Array.from({ length: n }, (_, i) => `+${i + 1}`),
      ]);
  if (kind === "card")
    for (const [type, count] of Object.entries(c.cards_list))
      rows.push([
        type,
        stepper(`${capital(type)}: feat boxes`, { value: 0, min: 0, max: 6, name: `${c.name}'s ${type} feat boxes` }),
        n => Array.from({ length: n }, (_, i) => count + i + 1),
      ]);
  if (kind === "power" && c.hand_size != null)
    rows.push([
      "Hand Size",
      stepper("Hand Size: feat boxes", { value: 0, min: 0, max: 6, name: `${c.name}'s Hand Size feat boxes` }),
      n => Array.from({ length: n }, (_, i) => String(c.hand_size + i + 1)),
    ]);
  const other =
    kind === "power" ? h("input", { autocomplete: "off", "aria-label": `${c.name}'s other power box` }) : null;
  const keep = action(
    `Keep ${c.name}'s ${kind} feat boxes`,
    () => {
      const card = {};
      const key = kind === "skill" ? "skills" : kind === "card" ? "card_feats" : "powers";
      card[key] = {};
      for (const [name, count, labels] of rows) {
        if (!count.value()) continue;
        card[key][name] = kind === "skill" ? { feats: labels(count.value()) } : labels(count.value());
      }
      const typed = other?.value.trim();
      if (typed) card.powers[typed] = [typed];
      if (!Object.keys(card[key]).length)
        throw new Refusal(0, {
          detail: `Give the number of ${kind} feat boxes on ${c.name}'s card first: nothing was written.`,
        });
      return log(table, [{ type: "character.card_completed", data: { character_id: c.character_id, card } }]);
    },
    { primary: false },
  );
  return h(
    "fieldset",
    { class: "counts" },
    h("legend", {}, `${c.name}'s card as recorded has no ${kind} feat boxes: count them on her card, once`),
    rows.map(([, s]) => s.el),
    other ? h("label", {}, "Another power's box, as printed ", other) : null,
    keep.el,
  );
}

// One character's feat from one reward: a tap per box she may check; her boxes asked where her card lacks them.
function featChoices(table, reward, c) {
  if (c.feat_gained) return h("p", { class: "done" }, `${c.name} has her feat from ${reward.reward_of}.`);
  const taps = KINDS.flatMap(kind =>
    c.feats[kind].open.map(
      feat =>
        action(
          `${TITLES[kind]}: ${boxWords(kind, feat)}`,
          () =>
            log(table, [
              {
                type: "feat.gained",
                data: { character_id: c.character_id, kind, feat, reward_of: reward.reward_of },
              },
            ]),
          { primary: false, name: `${c.name}: ${TITLES[kind]}: ${boxWords(kind, feat)}` },
        ).el,
    ),
  );
  const asked = KINDS.filter(kind => !c.feats[kind].recorded);
  const full = KINDS.filter(kind => c.feats[kind].recorded && !c.feats[kind].open.length);
  return h(
    "div",
    { role: "group", "aria-label": `${c.name}'s feat from ${reward.reward_of}` },
    h("h4", {}, c.name),
    taps.length ? h("div", { class: "buttons" }, taps) : null,
    full.length
      ? h("p", { class: "quiet" }, `No ${full.join(" or ")} box is left unchecked: a feat of that type is not gained.`)
      : null,
    asked.length
      ? h(
          "details",
          {},
          h("summary", {}, `Her card's ${asked.join(", ")} feat boxes (not recorded yet)`),
          asked.map(kind => askBoxes(table, c, kind)),
        )
      : null,
  );
}

// The catalogue's ships, read once a page, for a ship reward.
/** @type {Promise<string[]> | null} */
let shipNames = null;
function catalogueShips() {
  shipNames ??= api("/v1/catalog/pacg-skull-and-shackles")
    .then(c => c.ships.ships.map(s => s.name))
    .catch(() => []);
  return shipNames;
}

// A ship earned by the reward: one of the catalogue's ships the fleet card has not checked off yet.
function shipReward(table, reward, checked) {
  const ship = select([["", "the ship the card names"]], { "aria-label": `Ship earned from ${reward.reward_of}` });
  catalogueShips().then(names => {
    for (const name of names.filter(n => !checked.includes(n))) ship.append(h("option", { value: name }, name));
  });
  const take = action(
    "Check off the ship",
    () => {
      if (!ship.value) throw new Refusal(0, { detail: "Choose the ship the reward names first: nothing was written." });
      return log(table, [{ type: "ship.awarded", data: { ship: ship.value, reward_of: reward.reward_of } }]);
    },
    { primary: false, name: `Check off the ship earned from ${reward.reward_of}` },
  );
  return h("details", {}, h("summary", {}, "A ship, if the card gives one"), ship, take.el);
}

// A loot card the reward gives, handed to one of the characters who earned it; a loot card the campaign does not
// know yet has its type asked once (the type it counts as) and is defined as it is handed out.
function lootReward(table, reward, names) {
  const known = new Set(names.filter(([, type]) => type === "loot").map(([n]) => n));
  const label = `Loot card from ${reward.reward_of}`;
  const card = h("input", { autocomplete: "off", "aria-label": label });
  const countsAs = select(
    ["weapon", "spell", "armor", "item", "ally", "blessing"].map(t => [t, capital(t)]),
    { "aria-label": `${label}: counts as` },
  );
  // In a div: a label is drawn as a block by the page's style, whatever its `hidden`.
  const asked = h("div", { hidden: true }, h("label", {}, "New to the campaign: the type it counts as ", countsAs));
  const check = () => {
    asked.hidden = !card.value.trim() || known.has(card.value.trim());
  };
  const hints = suggestions(card, [...known], picked => {
    card.value = picked;
    check();
  });
  card.addEventListener("input", check);
  const to = select([...reward.characters.map(c => [c.character_id, c.name]), ["vault", "the vault"]], {
    "aria-label": `${label}: to`,
  });
  const give = action(
    "Hand out the loot",
    () => {
      const name = card.value.trim();
      if (!name) throw new Refusal(0, { detail: "Name the loot card the reward gives first: nothing was written." });
      const defined = known.has(name)
        ? []
        : [{ type: "card.defined", data: { card: { name, type: "loot", loot_type: countsAs.value, count: 1 } } }];
      return log(table, [
        ...defined,
        { type: "loot.awarded", data: { card: name, to: to.value, reward_of: reward.reward_of } },
      ]);
    },
    { primary: false, name: `Hand out the loot from ${reward.reward_of}` },
  );
  return h(
    "details",
    {},
    h("summary", {}, "A loot card, if the card gives one"),
    h("label", {}, "Loot ", card),
    hints.el,
    asked,
    to,
    give.el,
  );
}

// A role card, when one is due: a side her card records, in one tap; otherwise the side's name and its power feat
// boxes as printed (each power's boxes, comma between them), given once with the choice.
function roleChoice(table, due) {
  const choose = (role, powers) =>
    log(table, [
      { type: "role.chosen", data: { character_id: due.character_id, role, ...(powers ? { powers } : {}) } },
    ]);
  if (due.sides.length)
    return h(
      "div",
      { class: "buttons", role: "group", "aria-label": `${due.name}'s role` },
      due.sides.map(
        side =>
          action(`Take the role ${side}`, () => choose(side), {
            primary: false,
            name: `${due.name}: take the role ${side}`,
          }).el,
      ),
    );
  const side = h("input", { autocomplete: "off", "aria-label": `${due.name}'s role side` });
  const rows = h("div", {});
  const addRow = () => {
    const n = rows.children.length + 1;
    rows.append(
      h(
        "div",
        { class: "row", "data-row": "power" },
        h(
          "label",
          {},
          `Power ${n} `,
          h("input", { autocomplete: "off", "aria-label": `${due.name}'s role power ${n}` }),
        ),
        h(
          "label",
          {},
          "its boxes ",
          h("input", {
            autocomplete: "off",
            "aria-label": `${due.name}'s role power ${n}: boxes`,
            placeholder: "5, 6, 7",
          }),
        ),
      ),
    );
  };
  addRow();
  const take = action(
    "Take the role",
    () => {
      const name = side.value.trim();
      if (!name)
        throw new Refusal(0, { detail: `Give the side of ${due.name}'s role card chosen first: nothing was written.` });
      const powers = {};
      for (const row of rows.children) {
        const [power, boxes] = [...row.querySelectorAll("input")].map(i => i.value.trim());
        if (power)
          powers[power] = boxes
            .split(",")
            .map(b => b.trim())
            .filter(Boolean);
      }
      return choose(name, powers);
    },
    { primary: false, name: `${due.name}: take the role` },
  );
  return h(
    "div",
    { role: "group", "aria-label": `${due.name}'s role` },
    h("label", {}, "The side chosen ", side),
    rows,
    h("button", { type: "button", onclick: addRow }, "One more power"),
    take.el,
  );
}

// The plunder won: each face-down card turned over, named, and handed to a character (or the vault) as loot.
function plunderPart(table, scenario, party, names) {
  const faceDown = Object.entries(scenario.plunder?.face_down || {}).flatMap(([type, n]) =>
    Array.from({ length: n }, () => type),
  );
  if (!faceDown.length || scenario.lost) return null;
  return h(
    "section",
    { class: "card", "aria-label": "The plunder won" },
    h("h3", {}, `Plunder won: ${plural(faceDown.length, "card")} under the ship`),
    h("p", { class: "quiet" }, "Turn each over, name it, and hand it to a character as loot (or to the vault)."),
    faceDown.map((type, i) => {
      const label = `The ${type} turned over${faceDown.length > 1 ? ` (${i + 1})` : ""}`;
      const card = h("input", { autocomplete: "off", "aria-label": label });
      const hints = suggestions(
        card,
        names.filter(([, t, as]) => (as || t) === type).map(([n]) => n),
        picked => {
          card.value = picked;
        },
      );
      const to = select([...party.map(c => [c.character_id, c.name]), ["vault", "the vault"]], {
        "aria-label": `${label}: to`,
      });
      const give = action(
        "Hand out",
        () => {
          if (!card.value.trim())
            throw new Refusal(0, { detail: `Name the ${type} turned over first: nothing was written.` });
          return log(table, [
            { type: "loot.awarded", data: { card: card.value.trim(), to: to.value, source: "plunder" } },
          ]);
        },
        { primary: false, name: `Hand out ${label.charAt(0).toLowerCase()}${label.slice(1)}` },
      );
      return h(
        "div",
        {
          class: "row",
          role: "group",
          "aria-label": `${capital(type)} plunder${faceDown.length > 1 ? ` (${i + 1})` : ""}`,
        },
        h("label", {}, `${capital(type)} `, card),
        hints.el,
        to,
        give.el,
      );
    }),
  );
}

function progressLine(scenario) {
  const adventure = scenario.progress?.adventure;
  const won = scenario.completed || [];
  const last = won.length ? won[won.length - 1] : null;
  if (!adventure) {
    if (scenario.lost) return "The party plays no adventure.";
    return last
      ? `${last} was won. The party plays no adventure.`
      : "No scenario is being played: start one on the Set up tab.";
  }
  const next = adventure.complete
    ? `${adventure.name} is complete.`
    : adventure.next
      ? `Next: ${adventure.next}.`
      : "Next: the following scenario on the adventure's card.";
  return `${adventure.name}: ${adventure.won} of its ${plural(adventure.scenario_count, "scenario")} won. ${next}`;
}

/**
 * The Play tab between scenarios: the progress, the rewards due, the plunder won, the way to the next set-up.
 * @param {any} table
 * @param {any} scenario the scenario view when no scenario is in progress
 * @param {any[]} party the characters, as the character view reads them
 * @param {[string, string, string][]} names the cards the campaign knows, each with its type and the type it
 *   counts as, for naming a plunder card turned over or a loot card
 */
export function afterScenario(table, scenario, party, names) {
  const rewards = scenario.rewards || [];
  // Flat and without gaps: the panel's replaceChildren takes nodes, not lists.
  return [
    h("h2", { id: "turn-heading" }, rewards.length ? "Rewards" : "The turn"),
    h("p", { class: "done", role: "status", "aria-label": "Last logged here" }, table.turnSaid || ""),
    scenario.lost ? h("p", {}, `${scenario.lost}.`) : null,
    h("p", { "aria-label": "The campaign's progress" }, progressLine(scenario)),
    rewards.map(reward =>
      h(
        "section",
        { class: "card", "aria-label": `The reward of ${reward.reward_of}` },
        h("h3", {}, `The reward of ${reward.reward_of} (${reward.kind})`),
        h(
          "p",
          { class: "quiet" },
          `Read it on the ${reward.kind} card. A feat: each character taps the box she checks, the leftmost of its line.`,
        ),
        reward.characters.map(c => featChoices(table, reward, c)),
        lootReward(table, reward, names),
        shipReward(table, reward, scenario.fleet_checked || []),
      ),
    ),
    scenario.roles_due?.length
      ? h(
          "section",
          { class: "card", "aria-label": "Role cards" },
          h("h3", {}, "Role cards"),
          h(
            "p",
            { class: "quiet" },
            "The party has completed the adventures a role card waits for: each character without one chooses a side, for good.",
          ),
          scenario.roles_due.map(due => h("div", {}, h("h4", {}, due.name), roleChoice(table, due))),
        )
      : null,
    plunderPart(
      table,
      scenario,
      party.filter(c => c.alive !== false),
      names,
    ),
    h(
      "button",
      { type: "button", onclick: () => table.show("setup") },
      scenario.lost
        ? "Set the scenario up again"
        : (scenario.completed || []).length
          ? "Set up the next scenario"
          : "Set up a scenario",
    ),
  ]
    .flat()
    .filter(Boolean);
}
