// @ts-check
// Skull & Shackles at a glance: whose turn, the hourglass, each character's cards, the fleet and plunder, the locations.
import { h, counts, plural, title } from "./api.js";
import { refusedView } from "./refusal.js";

// The characters of the campaign, by id: the scenario's party when one is played, else everyone who joined.
export async function characters(table) {
  const { scenario } = await table.view("/scenario");
  let ids = scenario.in_progress ? Object.keys(scenario.characters) : [];
  if (!ids.length) {
    const { state } = await table.view("/state");
    ids = Object.keys(state?.characters || {});
  }
  const read = await Promise.all(ids.map(id => table.view(`/characters/${encodeURIComponent(id)}`)));
  return { scenario, characters: read.map(r => r.character) };
}

// Whose status block the forum card offers (posts.js).
export async function forum(table) {
  return (await characters(table)).characters.map(c => ({ id: c.character_id, name: c.name }));
}

// The way forward from an empty table: the set-up tab, where characters are picked and their decks built.
function emptyParty(table) {
  return h(
    "div",
    {},
    h("p", { class: "quiet" }, "No character has joined yet."),
    table.canWrite()
      ? h("button", { type: "button", class: "primary", onclick: () => table.show("setup") }, "Set up the party")
      : h("p", { class: "quiet" }, "The owner or a player sets up the party on the Set up tab."),
  );
}

function sheetOf(c, turn) {
  const z = c.zones || {};
  const n = c.counts || {};
  return h(
    "article",
    { class: "card", "aria-label": c.name },
    h("h3", {}, c.name, c.alive ? "" : " (dead)", turn === c.character_id ? " — taking the turn" : ""),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Player"),
      h("dd", {}, c.player || "—"),
      h("dt", {}, "Location"),
      h("dd", {}, c.location || "—"),
      h("dt", {}, `Hand (${n.hand ?? 0} of ${c.hand_size ?? "?"})`),
      h("dd", {}, counts(z.hand)),
      h("dt", {}, "Deck"),
      h("dd", {}, plural(n.deck ?? 0, "card")),
      h("dt", {}, `Discard (${n.discard ?? 0})`),
      h("dd", {}, counts(z.discard)),
      n.buried ? [h("dt", {}, `Buried (${n.buried})`), h("dd", {}, counts(z.buried))] : null,
      n.displayed ? [h("dt", {}, "Displayed"), h("dd", {}, counts(z.displayed))] : null,
      c.role ? [h("dt", {}, "Role"), h("dd", {}, c.role)] : null,
    ),
  );
}

export async function render(panel, table) {
  let found, fleet;
  try {
    [found, { fleet }] = await Promise.all([characters(table), table.view("/fleet")]);
  } catch (error) {
    refusedView(panel, error);
    return;
  }
  const { scenario, characters: party } = found;
  const turnName = party.find(c => c.character_id === scenario.turn)?.name || scenario.turn;
  const top = scenario.in_progress
    ? h(
        "section",
        { class: "card wide", "aria-label": "Scenario" },
        h("h2", {}, scenario.name),
        h(
          "dl",
          { class: "facts" },
          h("dt", {}, "Turn"),
          h("dd", {}, turnName ? `${turnName}'s turn (turn ${scenario.turns})` : "not started"),
          h("dt", {}, title(scenario.hourglass.name)),
          h("dd", {}, `${plural(scenario.hourglass.left, "card")} left, ${scenario.hourglass.discards} discarded`),
          scenario.villains?.length ? [h("dt", {}, "Villain"), h("dd", {}, scenario.villains.join(", "))] : null,
          scenario.henchmen?.length ? [h("dt", {}, "Henchmen"), h("dd", {}, scenario.henchmen.join(", "))] : null,
          h("dt", {}, "Status"),
          h("dd", {}, scenario.status),
        ),
      )
    : h(
        "section",
        { class: "card wide" },
        h("h2", {}, "Between scenarios"),
        h(
          "p",
          {},
          scenario.completed?.length ? `Completed: ${scenario.completed.join(", ")}.` : "No scenario played yet.",
        ),
      );
  const ship = h(
    "section",
    { class: "card", "aria-label": "Fleet" },
    h("h2", {}, "Fleet"),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Ship"),
      h("dd", {}, fleet.current ? `${fleet.current}${fleet.wrecked ? " (wrecked)" : ""}` : "none"),
      fleet.anchored ? [h("dt", {}, "Anchored at"), h("dd", {}, fleet.anchored)] : null,
      h("dt", {}, "Plunder"),
      h("dd", {}, `${plural(fleet.plunder, "card")} `, counts(fleet.plunder_known)),
      h("dt", {}, "Fleet"),
      h("dd", {}, (fleet.checked || []).join(", ") || "—"),
    ),
  );
  const places = scenario.in_progress
    ? h(
        "section",
        { class: "card", "aria-label": "Locations" },
        h("h2", {}, "Locations"),
        h(
          "ul",
          { class: "plain" },
          scenario.locations.map(l =>
            h(
              "li",
              {},
              h("strong", {}, l.name),
              ` — ${l.status}, ${plural(l.cards, "card")}`,
              l.characters.length
                ? ` · ${l.characters.map(id => party.find(c => c.character_id === id)?.name || id).join(", ")}`
                : "",
              Object.keys(l.known).length ? h("div", {}, counts(l.known)) : null,
            ),
          ),
        ),
      )
    : null;
  panel.append(
    h(
      "div",
      { class: "grid" },
      top,
      h(
        "section",
        { class: "wide", "aria-label": "Characters" },
        h("h2", {}, "Characters"),
        party.length
          ? h(
              "div",
              { class: "grid" },
              party.map(c => sheetOf(c, scenario.turn)),
            )
          : emptyParty(table),
      ),
      ship,
      places,
    ),
  );
}
