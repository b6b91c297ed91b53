// The turn on the Play tab (Skull & Shackles): whose turn it is, where she is, her hand and deck, the blessings left,
// the actions of the turn as one-tap buttons, and the encounter in progress as a panel whose outcomes log the result
// and the card's fate in one tap each.
//
// What may be done now is the fold's to say: when the service answers the turn view (`/turn`), only what it offers
// is shown, with the events it names; without it, every action of the turn is shown and the fold refuses what the
// rules forbid, with its reason beside the button.
import { h, counts, plural, Refusal, typedIn, putBack } from "./api.js";
import { action } from "./action.js";
import { characters } from "./fleet.js";

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

// What the turn view offers, by action ("give", "move", ...), or null when every action is shown.
function offeredKinds(view) {
  if (!view || !Array.isArray(view.offered)) return null;
  return new Set(view.offered.map(o => (typeof o === "string" ? o : o.action || o.kind || o.step)));
}

// The next character by the seating order: the view's, else the party's order, the dead passed over.
function nextOf(view, scenario, party, whose) {
  if (view?.next) return view.next;
  const seated = (view?.seating || Object.keys(scenario.characters || {})).filter(
    id => scenario.characters?.[id]?.alive !== false,
  );
  if (!seated.length) return null;
  const at = seated.indexOf(whose);
  return seated[(at + 1) % seated.length] ?? party[0]?.character_id ?? null;
}

function copies(zone) {
  return Object.entries(zone || {}).flatMap(([name, n]) => Array.from({ length: n }, () => name));
}

// The cards drawn at a reset, tapped one by one from the deck's known cards: each tap adds one, a chip's tap takes
// it back. `read()` is the list of names in the order tapped.
function drawPicker(me) {
  const drawn = [];
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
  return { el, read: () => [...drawn] };
}

function facts(me, scenario, view) {
  const n = me.counts || {};
  const left = view?.blessings_left ?? scenario.hourglass?.left;
  return h(
    "dl",
    { class: "facts" },
    h("dt", {}, "Location"),
    h("dd", {}, me.location || "—"),
    view?.step ? [h("dt", {}, "Step"), h("dd", {}, view.step_name || view.step)] : null,
    h("dt", {}, `Hand (${n.hand ?? 0} of ${me.hand_size ?? "?"})`),
    h("dd", {}, counts(me.zones?.hand)),
    h("dt", {}, "Deck"),
    h("dd", {}, plural(n.deck ?? 0, "card")),
    h("dt", {}, "Discards"),
    h("dd", {}, plural(n.discard ?? 0, "card")),
    h("dt", {}, "Blessings left"),
    h("dd", {}, String(left ?? "?")),
  );
}

// One outcome button per way the encounter may end: from the view (its label and events), else the table's usual
// ones for a card in the encounter, each with the card's fate in the same batch.
function outcomes(card, place, whose, view) {
  const offered = (view?.encounter?.card === card && view.encounter.outcomes) || null;
  if (offered) return offered.map(o => ({ label: o.label || o.outcome, events: o.events }));
  const back = place ? { zone: "location", location: place } : null;
  const ended = outcome => ({ type: "encounter.ended", data: { card, outcome } });
  return [
    {
      label: "Defeated: banish it",
      events: [ended("defeated"), moved(card, "banish", { zone: "encounter" }, { zone: "vault" })],
    },
    back && {
      label: "Undefeated: shuffle it back",
      events: [ended("undefeated"), moved(card, "shuffle", { zone: "encounter" }, back)],
    },
    back && {
      label: "Evaded: shuffle it back",
      events: [ended("evaded"), moved(card, "shuffle", { zone: "encounter" }, back)],
    },
    { label: "Acquired to the hand", events: [moved(card, "acquire", { zone: "encounter" }, own("hand", whose))] },
    { label: "Not acquired: banish it", events: [moved(card, "banish", { zone: "encounter" }, { zone: "vault" })] },
  ].filter(Boolean);
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
  return h(
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
}

function encounterPanel(table, scenario, me, view) {
  const cards = Object.keys(scenario.encounter || {});
  if (!cards.length) return null;
  return cards.map(card => {
    const info = view?.encounter?.card === card ? view.encounter : {};
    return h(
      "section",
      { class: "card encounter", "aria-label": `Encountering ${card}` },
      h("h3", {}, `${me.name} encounters ${card}`),
      info.type || info.check
        ? h("p", {}, [info.type, typeof info.check === "string" ? info.check : null].filter(Boolean).join(" · "))
        : null,
      checkRoll(table, me, card, info),
      h(
        "div",
        { class: "buttons" },
        outcomes(card, info.location || me.location, me.character_id, view).map(
          o => action(o.label, () => log(table, o.events), { primary: false }).el,
        ),
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

function startButtons(table, party) {
  return h(
    "div",
    { class: "buttons" },
    party
      .filter(c => c.alive !== false)
      .map(
        c =>
          action(`Start ${c.name}'s turn`, () =>
            log(table, [{ type: "hourglass.advanced", data: { character_id: c.character_id } }]),
          ).el,
      ),
  );
}

// The turn's panel in `into`, drawn again (`redraw`) each time the log moves on.
export async function render(into, table) {
  const box = h("section", { class: "card turn", "aria-labelledby": "turn-heading" });
  into.append(box);
  const redraw = async () => {
    const [{ scenario, characters: party }, view] = await Promise.all([characters(table), turnView(table)]);
    // Drawn again: what is typed or chosen stays (the dice typed before a card is played, say).
    const typed = typedIn(box);
    draw(scenario, party, view);
    putBack(box, typed);
  };
  const draw = (scenario, party, view) => {
    if (!scenario.in_progress) {
      box.replaceChildren(
        h("h2", { id: "turn-heading" }, "The turn"),
        h("p", { class: "quiet" }, "No scenario is being played: start one on the Set up tab."),
      );
      return;
    }
    const byId = new Map(party.map(c => [c.character_id, c]));
    const whose = view?.character_id ?? scenario.turn;
    const me = byId.get(whose);
    if (!me) {
      box.replaceChildren(
        h("h2", { id: "turn-heading" }, "The first turn"),
        h("p", {}, "Whose turn comes first? The hourglass advances as it starts."),
        startButtons(table, party),
      );
      return;
    }
    const kinds = offeredKinds(view);
    const may = kind => kinds === null || kinds.has(kind);
    const parts = [];
    const here = me.location;
    const open = (scenario.locations || []).filter(l => l.status === "open");

    // Give a card: a card of her hand to another character (at her location, the fold checks).
    const others = party.filter(c => c.character_id !== whose && c.alive !== false);
    if (may("give") && others.length && me.counts?.hand) {
      const card = h(
        "select",
        { "aria-label": "Card to give" },
        Object.keys(me.zones.hand).map(n => h("option", { value: n }, n)),
      );
      const to = h(
        "select",
        { "aria-label": "Give it to" },
        others.map(c => h("option", { value: c.character_id }, c.name)),
      );
      parts.push(
        h(
          "div",
          { class: "row" },
          card,
          to,
          action("Give", () => log(table, [moved(card.value, "give", own("hand", whose), own("hand", to.value))]), {
            primary: false,
            name: "Give the card",
          }).el,
        ),
      );
    }
    // A card of her hand played (on a check, for a power): where it goes, in one tap once chosen.
    if (me.counts?.hand) parts.push(playRow(table, me));
    // Move: one button for each open location she is not at.
    if (may("move"))
      parts.push(
        h(
          "div",
          { class: "buttons" },
          open
            .filter(l => l.name !== here)
            .map(
              l =>
                action(
                  `Move to ${l.name}`,
                  () => log(table, [{ type: "character.moved", data: { character_id: whose, to: l.name } }]),
                  {
                    primary: false,
                  },
                ).el,
            ),
        ),
      );
    // Explore: the card revealed from her location's deck.
    const place = open.find(l => l.name === here) || (scenario.locations || []).find(l => l.name === here);
    if (may("explore") && place && place.cards > 0 && !Object.keys(scenario.encounter || {}).length) {
      const known = Object.keys(place.known || {});
      const revealed = h("input", { autocomplete: "off", list: "explore-cards", "aria-label": "Card revealed" });
      parts.push(
        h(
          "div",
          { class: "row" },
          h(
            "datalist",
            { id: "explore-cards" },
            known.map(n => h("option", { value: n })),
          ),
          revealed,
          action(
            "Explore",
            () => {
              const card = revealed.value.trim();
              if (!card)
                throw new Refusal(422, { detail: `Type the card ${me.name} revealed first: nothing was sent.` });
              return log(table, [
                {
                  type: "card.moved",
                  data: {
                    card,
                    verb: "reveal",
                    from: { zone: "location", location: here },
                    to: { zone: "encounter" },
                    explorer: whose,
                  },
                },
              ]);
            },
            { name: `Explore ${here}` },
          ).el,
        ),
      );
    }
    // Close her location (when the rules allow it, the fold says).
    if (may("close") && place && place.status === "open")
      parts.push(
        action(`Close ${here}`, () => log(table, [{ type: "location.closed", data: { location: here, by: whose } }]), {
          primary: false,
        }).el,
      );
    // Reset: discard down to the hand size, and the cards drawn up to it, tapped; her hand size asked once.
    if (may("reset")) {
      const picker = drawPicker(me);
      const size = me.hand_size == null ? h("input", { type: "number", inputmode: "numeric", min: 1, max: 15 }) : null;
      const over = Math.max(0, (me.counts?.hand ?? 0) - (me.hand_size ?? Infinity));
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
      parts.push(
        h(
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
              return log(table, [
                {
                  type: "hand.reset",
                  data: { character_id: whose, ...(size ? { hand_size: Number(size.value) } : {}) },
                },
                ...discards.map(c => moved(c, "discard", own("hand", whose), own("discard", whose))),
                ...picker.read().map(c => moved(c, "draw", own("deck", whose), own("hand", whose))),
              ]);
            },
            { name: `Reset ${me.name}'s hand` },
          ).el,
        ),
      );
    }
    // End the turn: the next character's turn starts as the hourglass advances.
    const next = byId.get(nextOf(view, scenario, party, whose));
    if (may("end") && next)
      parts.push(
        action(`End the turn: ${next.name} next`, () =>
          log(table, [{ type: "hourglass.advanced", data: { character_id: next.character_id } }]),
        ).el,
      );

    box.replaceChildren(
      h("h2", { id: "turn-heading" }, `${me.name}'s turn`),
      h("p", { class: "done", role: "status", "aria-label": "Last logged here" }, table.turnSaid || ""),
      facts(me, scenario, view),
      ...(encounterPanel(table, scenario, me, view) || []),
      ...parts,
    );
  };
  await redraw();
  return redraw;
}
