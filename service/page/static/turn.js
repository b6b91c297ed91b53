// @ts-check
// The turn on the Play tab (Skull & Shackles): whose turn it is, where she is, her hand and deck, the blessings left,
// the actions of the turn as one-tap buttons, and the encounter in progress as a panel whose outcomes log the result
// and the card's fate in one tap each.
//
// What may be done now is the fold's to say: the turn view (`/turn`) names the step, the actions it offers with what
// each needs (the cards a give may hand over, the locations a move may reach, who may take the next turn), and the
// outcomes the logged check allows, each with its events; the page offers exactly those and spells no rule. Against
// a service without the view, every action of the turn is shown and the fold refuses what the rules forbid.
import { h, counts, plural, Refusal, typedIn, putBack } from "./api.js";
import { action } from "./action.js";
import { characters } from "./fleet.js";
import { exploreRow } from "./explore.js";
import { afterScenario } from "./rewards.js";

const moved = (card, verb, from, to) => ({ type: "card.moved", data: { card, verb, from, to } });
const own = (zone, character_id) => ({ zone, character_id });

// The turn view, or null where the service has none (an older service): a 404 for the view itself, not a refusal.
// Asked once per page: a service without the view does not grow one while the page is open.
async function turnView(table) {
  if (table.noTurnView) return null;
  try {
    const answer = await table.view("/turn");
    return answer.turn ?? answer;
  } catch (error) {
    if (!(error instanceof Refusal && error.status === 404)) throw error;
    table.noTurnView = true;
    return null;
  }
}

// What the turn view offers, by action ("give", "move", ..., "end turn"), or null when there is no view.
function offersOf(view) {
  if (!view || !Array.isArray(view.offered)) return null;
  return new Map(view.offered.map(o => [o.action, o]));
}

// The next character by the seating order without a view: the party's order, the dead passed over.
function nextOf(scenario, whose) {
  const seated = Object.keys(scenario.characters || {}).filter(id => scenario.characters[id]?.alive !== false);
  if (!seated.length) return [];
  return [seated[(seated.indexOf(whose) + 1) % seated.length]];
}

function copies(zone) {
  return Object.entries(zone || {}).flatMap(([name, n]) => Array.from({ length: n }, () => name));
}

// The cards drawn at a reset, tapped one by one from the deck's known cards: each tap adds one, a chip's tap takes
// it back. `read()` is the list of names in the order tapped. The taps are kept on the table under `key` until
// `done()`, so a redraw (another phone logs something meanwhile) does not lose them.
function drawPicker(table, me, key) {
  table.turnDrawn ??= {};
  table.turnDrawn[key] ??= [];
  const drawn = table.turnDrawn[key];
  const chips = h("p", { class: "chips", "aria-live": "polite" });
  const need = Math.max(0, (me.hand_size ?? 0) - (me.counts?.hand ?? 0));
  const show = () => {
    chips.replaceChildren(
      ...(drawn.length
        ? drawn.map((name, i) =>
            h(
              "button",
              {
                type: "button",
                class: "chip",
                "aria-label": `Put back ${name}`,
                onclick: () => {
                  drawn.splice(i, 1);
                  show();
                },
              },
              `${name} ✕`,
            ),
          )
        : [h("span", { class: "quiet" }, "No card tapped yet.")]),
    );
  };
  show();
  const deck = Object.keys(me.zones?.deck || {}).sort();
  const buttons = h(
    "div",
    { class: "buttons", role: "group", "aria-label": "Cards drawn" },
    deck.map(name =>
      h(
        "button",
        {
          type: "button",
          onclick: () => {
            const left = (me.zones.deck[name] || 0) - drawn.filter(n => n === name).length;
            if (left > 0) drawn.push(name);
            show();
          },
        },
        `Drew ${name}`,
      ),
    ),
  );
  const el = h(
    "div",
    {},
    h(
      "p",
      { class: "quiet" },
      me.hand_size == null
        ? "Tap each card drawn, in the order drawn."
        : `Tap each card drawn: ${plural(need, "card")} up to the hand size of ${me.hand_size}.`,
    ),
    buttons,
    chips,
  );
  return {
    el,
    read: () => [...drawn],
    done: () => {
      delete table.turnDrawn[key];
    },
  };
}

function facts(me, scenario, view) {
  const n = me.counts || {};
  const hand = view ? view.hand.length + (view.hidden_in_hand || 0) : (n.hand ?? 0);
  const size = view ? view.hand_size : me.hand_size;
  return h(
    "dl",
    { class: "facts" },
    h("dt", {}, "Location"),
    h("dd", {}, (view ? view.location : me.location) || "—"),
    view?.step ? [h("dt", {}, "Step"), h("dd", {}, view.step_name || view.step)] : null,
    h("dt", {}, `Hand (${hand} of ${size ?? "?"})`),
    h("dd", {}, counts(me.zones?.hand)),
    h("dt", {}, "Deck"),
    h("dd", {}, plural(view ? view.deck : (n.deck ?? 0), "card")),
    h("dt", {}, "Discards"),
    h("dd", {}, plural(view ? view.discard : (n.discard ?? 0), "card")),
    h("dt", {}, "Blessings left"),
    h("dd", {}, String(view ? view.blessings_left : (scenario.hourglass?.left ?? "?"))),
  );
}

// An outcome in words, from its events: "Defeated: banish it", "Undefeated: shuffle it back", "Acquired".
const FATES = { banish: "banish it", shuffle: "shuffle it back", acquire: "to the hand", return: "return it" };
function outcomeLabel(outcome, events) {
  const words = outcome.charAt(0).toUpperCase() + outcome.slice(1);
  const fate = events
    .map(e =>
      e.type === "card.moved"
        ? FATES[e.data.verb]
        : e.type === "location.closed"
          ? `close ${e.data.location}`
          : e.type === "villain.escaped"
            ? `it escapes to ${e.data.to.join(", ")}`
            : e.type === "scenario.ended"
              ? `the scenario is ${e.data.result}`
              : null,
    )
    .filter(Boolean);
  return fate.length && outcome !== "acquired" ? `${words}: ${fate.join(", ")}` : words;
}

// One outcome button per way the encounter may end: the view's, each with the events it names; without a view,
// the table's usual ones, each with the card's fate in the same batch.
function outcomes(card, place, whose, view) {
  if (view) {
    const found = view.encounter?.card === card ? view.encounter.outcomes || [] : [];
    return found.map(o => ({ label: outcomeLabel(o.outcome, o.events), events: o.events }));
  }
  const back = place ? { zone: "location", location: place } : null;
  const ended = outcome => ({ type: "encounter.ended", data: { card, outcome } });
  const banish = moved(card, "banish", { zone: "encounter" }, { zone: "vault" });
  const shuffle = back && moved(card, "shuffle", { zone: "encounter" }, back);
  const all = [
    ["defeated", [ended("defeated"), banish]],
    back && ["undefeated", [ended("undefeated"), shuffle]],
    back && ["evaded", [ended("evaded"), shuffle]],
    ["acquired", [moved(card, "acquire", { zone: "encounter" }, own("hand", whose))]],
    ["not acquired", [banish]],
  ];
  return all.filter(Boolean).map(([outcome, events]) => ({ label: outcomeLabel(outcome, events), events }));
}

// The check against the card met: the dice and the difficulty, rolled by the server for the character encountering
// it, or the faces of the real dice typed.
function checkRoll(table, me, card, info) {
  const dice = h("input", {
    autocomplete: "off",
    spellcheck: "false",
    "aria-label": "Dice",
    placeholder: "e.g. 1d8+3",
    value: info.dice || "",
  });
  const difficulty = h("input", {
    type: "number",
    inputmode: "numeric",
    "aria-label": "Difficulty",
    value: info.difficulty ?? "",
  });
  const faces = h("input", {
    autocomplete: "off",
    inputmode: "numeric",
    "aria-label": "Faces thrown",
    placeholder: "e.g. 5 2",
  });
  const body = () => {
    const expression = dice.value.trim();
    if (!expression)
      throw new Refusal(422, { detail: "Type the dice of the check first (e.g. 1d8+3): nothing was sent." });
    return {
      expression,
      character_id: me.character_id,
      purpose: "check",
      ...(difficulty.value !== "" ? { difficulty: Number(difficulty.value) } : {}),
    };
  };
  const told = answer => {
    const r = answer.roll.data;
    const outcome = r.success === true ? ": a success" : r.success === false ? ": a failure" : "";
    return said(table, `${card}: rolled ${r.dice.map(d => d.face).join(", ")} for ${r.total}${outcome}.`);
  };
  const typed = () =>
    faces.value
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
  // Her skills' dice as the fold counts them (feats included): a tap puts them in the Dice field, where a card's
  // dice may be added.
  const skills = Object.entries(me.skill_dice || {});
  const chips = skills.length
    ? h(
        "div",
        { class: "buttons", role: "group", "aria-label": `${me.name}'s skills` },
        skills.map(([skill, rolled]) =>
          h(
            "button",
            {
              type: "button",
              class: "chip",
              onclick: () => {
                dice.value = rolled;
              },
            },
            `${skill} ${rolled}`,
          ),
        ),
      )
    : null;
  const row = h(
    "div",
    { class: "row", role: "group", "aria-label": `The check against ${card}` },
    dice,
    difficulty,
    action("Roll", async () => told(await table.connection.submit("/rolls", body())), { name: "Roll the check" }).el,
    faces,
    action("Log the dice", async () => told(await table.connection.submit("/rolls", { ...body(), faces: typed() })), {
      primary: false,
      name: "Log the dice thrown for the check",
    }).el,
  );
  return [chips, row];
}

function encounterPanel(table, scenario, me, byId, view) {
  const cards = view ? (view.encounter ? [view.encounter.card] : []) : Object.keys(scenario.encounter || {});
  return cards.map(card => {
    const info = view?.encounter?.card === card ? view.encounter : {};
    const who = (info.character && byId.get(info.character.character_id)) || me;
    const check = [
      info.type,
      info.check ? `check to ${info.check}` : null,
      info.difficulty != null ? `difficulty ${info.difficulty}` : null,
      info.result ? `rolled ${info.total}: a ${info.result}` : null,
      info.summoned ? "summoned" : null,
    ].filter(Boolean);
    const choices = outcomes(card, info.from || me.location, who.character_id, view);
    return h(
      "section",
      { class: "card encounter", "aria-label": `Encountering ${card}` },
      h("h3", {}, `${who.name} encounters ${card}`),
      check.length ? h("p", {}, check.join(" · ")) : null,
      info.result ? null : checkRoll(table, who, card, info),
      h(
        "div",
        { class: "buttons", role: "group", "aria-label": "How the encounter ended" },
        choices.map(o => action(o.label, () => log(table, o.events), { primary: false }).el),
      ),
    );
  });
}

// What this phone logged last from the panel, shown at its top: the panel is drawn again as soon as the log moves
// on, and the button that said it is drawn anew with it.
function said(table, text) {
  table.turnSaid = text;
  return text;
}

async function log(table, events) {
  const answer = await table.appendEvents(events);
  return said(table, `Logged at position ${answer.last_position}.`);
}

const PLAYED = [
  ["discard", "Discard"],
  ["recharge", "Recharge"],
  ["bury", "Bury"],
  ["banish", "Banish"],
];

function playRow(table, me) {
  const whose = me.character_id;
  const card = h(
    "select",
    { "aria-label": "Card played" },
    Object.keys(me.zones.hand).map(n => h("option", { value: n }, n)),
  );
  const to = {
    discard: own("discard", whose),
    recharge: own("deck", whose),
    bury: own("buried", whose),
    banish: { zone: "vault" },
  };
  return h(
    "div",
    { class: "row", role: "group", "aria-label": "Play a card" },
    card,
    PLAYED.map(
      ([verb, label]) =>
        action(label, () => log(table, [moved(card.value, verb, own("hand", whose), to[verb])]), {
          primary: false,
          name: `${label} the card played`,
        }).el,
    ),
  );
}

function startingHand(table, c) {
  const picker = drawPicker(table, c, `deal:${c.character_id}`);
  return h(
    "div",
    { class: "reset", role: "group", "aria-label": `${c.name}'s starting hand` },
    h("h3", {}, `${c.name}'s starting hand`),
    picker.el,
    action(
      "Deal the hand",
      () => {
        const drawn = picker.read();
        if (!drawn.length) throw new Refusal(422, { detail: `Tap the cards ${c.name} drew first: nothing was sent.` });
        return log(
          table,
          drawn.map(card => moved(card, "draw", own("deck", c.character_id), own("hand", c.character_id))),
        ).then(said => {
          picker.done();
          return said;
        });
      },
      { name: `Deal ${c.name}'s starting hand` },
    ).el,
  );
}

// Reset: discard down to the hand size, and the cards drawn up to it, tapped; her hand size asked once when her card
// lacks it (the fold keeps it on her card). A reset already begun needs only the draws.
function resetPart(table, me, needs) {
  const whose = me.character_id;
  const known = needs.hand_size ?? me.hand_size;
  const picker = drawPicker(table, { ...me, hand_size: known }, `reset:${whose}`);
  const size = known == null ? h("input", { type: "number", inputmode: "numeric", min: 1, max: 15 }) : null;
  const over = Math.max(0, (me.counts?.hand ?? 0) - (known ?? Number.POSITIVE_INFINITY));
  const shed = over
    ? h(
        "fieldset",
        {},
        h("legend", {}, `Discard ${plural(over, "card")} down to the hand size`),
        copies(me.zones.hand).map((name, i) =>
          h(
            "label",
            { class: "inline" },
            h("input", { type: "checkbox", value: name, "aria-label": `Discard ${name} (${i + 1})` }),
            name,
          ),
        ),
      )
    : null;
  return h(
    "div",
    { class: "reset", role: "group", "aria-label": "Reset the hand" },
    h("h3", {}, "Reset the hand"),
    size ? h("label", {}, `${me.name}'s hand size (her card lacks it; kept from now on) `, size) : null,
    shed,
    picker.el,
    action(
      "Reset the hand",
      () => {
        const discards = shed ? [...shed.querySelectorAll("input:checked")].map(i => i.value) : [];
        const start = needs.in_progress
          ? []
          : [{ type: "hand.reset", data: { character_id: whose, ...(size ? { hand_size: Number(size.value) } : {}) } }];
        return log(table, [
          ...start,
          ...discards.map(c => moved(c, "discard", own("hand", whose), own("discard", whose))),
          ...picker.read().map(c => moved(c, "draw", own("deck", whose), own("hand", whose))),
        ]).then(said => {
          picker.done();
          return said;
        });
      },
      { name: `Reset ${me.name}'s hand` },
    ).el,
  );
}

// The turn's panel in `into`, drawn again (`redraw`) each time the log moves on.
export async function render(into, table) {
  const box = h("section", { class: "card turn", "aria-labelledby": "turn-heading" });
  into.append(box);
  // Redraws overlap when the log moves on twice in quick succession (a card played, then the roll): each reads the
  // views as of its own start, and only the latest started may draw. An older one answered last would put back the
  // outcomes offered before the roll (a defeat after a failed check), which the fold then refuses.
  let started = 0;
  const redraw = async () => {
    const mine = ++started;
    const [{ scenario, characters: party }, view] = await Promise.all([characters(table), turnView(table)]);
    // Between scenarios, the cards the campaign knows with their types: a plunder card turned over is named from them.
    const names = scenario.in_progress
      ? []
      : Object.entries((await table.view("/state")).state?.cards || {}).map(([name, info]) => [
          name,
          info[0],
          info[4] || info[0],
        ]);
    if (mine !== started) return;
    // Drawn again: what is typed or chosen stays (the dice typed before a card is played, say).
    const typed = typedIn(box);
    draw(scenario, party, view, names);
    putBack(box, typed);
  };
  const draw = (scenario, party, view, names = []) => {
    if (!scenario.in_progress) {
      // Between scenarios: what the last one left, its rewards by tap (rewards.js); before any, the way to set up.
      box.replaceChildren(
        ...(scenario.progress
          ? afterScenario(table, scenario, party, names)
          : [
              h("h2", { id: "turn-heading" }, "The turn"),
              h("p", { class: "quiet" }, "No scenario is being played: start one on the Set up tab."),
            ]),
      );
      return;
    }
    const byId = new Map(party.map(c => [c.character_id, c]));
    const offers = offersOf(view);
    const whose = view ? view.character?.character_id : scenario.turn;
    const me = byId.get(whose);
    if (!me) {
      const first = offers ? offers.get("start turn")?.needs?.next || [] : party.filter(c => c.alive !== false);
      // Starting hands, one step per player: the cards she drew, tapped, logged in one batch.
      const dealing = party.filter(c => c.alive !== false && !c.counts?.hand && c.counts?.deck);
      box.replaceChildren(
        h("h2", { id: "turn-heading" }, "The first turn"),
        h("p", { class: "done", role: "status", "aria-label": "Last logged here" }, table.turnSaid || ""),
        ...dealing.map(c => startingHand(table, c)),
        h("p", {}, "Who goes first? The hourglass advances as her turn starts."),
        h(
          "div",
          { class: "buttons" },
          first.map(
            c =>
              action(`Start ${c.name}'s turn`, () =>
                log(table, [{ type: "hourglass.advanced", data: { character_id: c.character_id } }]),
              ).el,
          ),
        ),
      );
      return;
    }
    // What an action needs, from the view; without one, what the campaign's state suggests.
    const need = (kind, fallback) => (offers ? offers.get(kind)?.needs : fallback());
    const parts = [];
    const here = me.location;
    const inPlay = (scenario.locations || []).filter(l => l.status === "open");
    const encounter = view ? Boolean(view.encounter) : Object.keys(scenario.encounter || {}).length > 0;

    const give = need("give", () => ({
      card: Object.keys(me.zones?.hand || {}),
      to: party.filter(c => c.character_id !== whose && c.alive !== false).map(c => c.character_id),
    }));
    if (give?.card?.length && give.to?.length) {
      const card = h(
        "select",
        { "aria-label": "Card to give" },
        give.card.map(n => h("option", { value: n }, n)),
      );
      const to = h(
        "select",
        { "aria-label": "Give it to" },
        give.to.map(id => h("option", { value: id }, byId.get(id)?.name || id)),
      );
      parts.push(
        h(
          "div",
          { class: "row", role: "group", "aria-label": "Give a card" },
          h("label", {}, "Give ", card),
          h("label", {}, "to ", to),
          action("Give", () => log(table, [moved(card.value, "give", own("hand", whose), own("hand", to.value))]), {
            primary: false,
            name: "Give the card",
          }).el,
        ),
      );
    }
    // A card of her hand played (on a check, for a power): allowed at any step, so always offered.
    if (me.counts?.hand) parts.push(playRow(table, me));
    const move = need("move", () => (encounter ? null : { to: inPlay.map(l => l.name).filter(n => n !== here) }));
    if (move?.to?.length)
      parts.push(
        h(
          "div",
          { class: "buttons", role: "group", "aria-label": "Move" },
          move.to.map(
            to =>
              action(
                `Move to ${to}`,
                () => log(table, [{ type: "character.moved", data: { character_id: whose, to } }]),
                { primary: false },
              ).el,
          ),
        ),
      );
    const place = (scenario.locations || []).find(l => l.name === here);
    const explore = need("explore", () =>
      place && place.cards > 0 && !encounter ? { location: here, explore_again: false } : null,
    );
    if (explore) parts.push(exploreRow(table, me, place, explore, events => log(table, events)));
    const close = need("close", () =>
      place?.status === "open" && !encounter ? { locations: [{ location: here }] } : null,
    );
    // A location closed for good (by whoever is there: she, for her own), or for the villain's encounter only (by
    // the character there, named by the fold's own check).
    for (const { location, how, temporary } of close?.locations || [])
      parts.push(
        action(
          temporary ? `Close ${location} for this encounter` : `Close ${location}`,
          () =>
            log(table, [
              {
                type: "location.closed",
                data: temporary ? { location, temporary: true } : { location, by: whose, ...(how ? { how } : {}) },
              },
            ]),
          { primary: false },
        ).el,
      );
    const reset = need("reset", () => (encounter ? null : { hand_size: me.hand_size, in_progress: false }));
    if (reset) parts.push(resetPart(table, me, reset));
    const end = need("end turn", () => (encounter ? null : { next: nextOf(scenario, whose).map(id => byId.get(id)) }));
    for (const next of end?.next || [])
      if (next)
        parts.push(
          action(`End the turn: ${next.name} next`, () =>
            log(table, [{ type: "hourglass.advanced", data: { character_id: next.character_id } }]),
          ).el,
        );

    box.replaceChildren(
      h("h2", { id: "turn-heading" }, `${me.name}'s turn`),
      h("p", { class: "done", role: "status", "aria-label": "Last logged here" }, table.turnSaid || ""),
      facts(me, scenario, view),
      ...encounterPanel(table, scenario, me, byId, view),
      ...parts,
    );
  };
  await redraw();
  return redraw;
}
