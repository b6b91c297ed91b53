// @ts-check
// Skull Tales at a glance: each pirate's record sheet, the ship, the Crew's Booty, the chapter and its phase.
import { h, title } from "./api.js";
import { refusedView } from "./refusal.js";

export async function pirates(table) {
  return (await table.view("/pirates")).pirates;
}

// Whose status block the forum card offers (posts.js).
export async function forum(table) {
  return (await pirates(table)).map(p => ({ id: p.id, name: p.name }));
}

function record(p) {
  const items = [
    ...(p.starting_gear || []),
    ...(p.items || []).map(i => (typeof i === "string" ? i : i.name || i.item)),
  ];
  return h(
    "article",
    { class: "card", "aria-label": `${p.name}'s record sheet` },
    h("h3", {}, p.name, p.captain ? " — Captain" : "", p.status !== "active" ? ` (${p.status})` : ""),
    h(
      "p",
      { class: "quiet" },
      [p.archetype, (p.classes || []).join(", "), p.player && `played by ${p.player}`].filter(Boolean).join(" · "),
    ),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Fame"),
      h("dd", {}, p.fame, p.at_risk?.fame ? ` (+${p.at_risk.fame} at risk)` : ""),
      h("dt", {}, "Coins"),
      h("dd", {}, p.coins, p.at_risk?.coins ? ` (+${p.at_risk.coins} at risk)` : ""),
      h("dt", {}, "Wounds"),
      h("dd", {}, `${p.wounds} of ${p.health}`),
      h("dt", {}, "Destiny Points"),
      h("dd", {}, `${p.destiny_points} of ${p.destiny_points_max}`),
      h("dt", {}, "Skills"),
      h("dd", {}, (p.skills || []).join(", ") || "—"),
      h("dt", {}, "Inventory"),
      h("dd", {}, items.join(", ") || "—"),
      p.injuries?.length ? [h("dt", {}, "Injuries"), h("dd", {}, p.injuries.join(", "))] : null,
      p.cursed ? [h("dt", {}, "Curse"), h("dd", {}, p.penance ? `cursed, penance: ${p.penance}` : "cursed")] : null,
      h("dt", {}, "Salary"),
      h("dd", {}, p.salary),
    ),
  );
}

export async function render(panel, table) {
  let crew, ship, chapter;
  try {
    [crew, { ship }, { chapter }] = await Promise.all([pirates(table), table.view("/ship"), table.view("/chapter")]);
  } catch (error) {
    refusedView(panel, error);
    return;
  }
  const vessel = ship.ship;
  const goods = Object.entries(vessel?.goods || {})
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  panel.append(
    h(
      "div",
      { class: "grid" },
      h(
        "section",
        { class: "card wide", "aria-label": "Chapter" },
        h("h2", {}, chapter.chapter ? `Chapter ${chapter.chapter}` : "Before the first chapter"),
        h(
          "dl",
          { class: "facts" },
          h("dt", {}, "Phase"),
          h(
            "dd",
            {},
            chapter.phase ? `${title(chapter.phase)} Phase` : "between phases",
            chapter.phases_done?.length ? ` (done: ${chapter.phases_done.map(title).join(", ")})` : "",
          ),
          h("dt", {}, "Captain"),
          h("dd", {}, ship.captain_name || "none yet"),
          h("dt", {}, "Crew's Booty"),
          h("dd", {}, `${ship.crew_booty} Coins`),
        ),
      ),
      h(
        "section",
        { class: "wide", "aria-label": "Pirates" },
        h("h2", {}, "Pirates"),
        crew.length
          ? h("div", { class: "grid" }, crew.map(record))
          : h(
              "div",
              {},
              h("p", { class: "quiet" }, "No pirate has been recruited yet."),
              table.canWrite()
                ? h(
                    "button",
                    { type: "button", class: "primary", onclick: () => table.show("setup") },
                    "Set up the crew",
                  )
                : null,
            ),
      ),
      h(
        "section",
        { class: "card", "aria-label": "Ship" },
        h("h2", {}, vessel ? vessel.name || vessel.type : "No ship yet"),
        vessel
          ? h(
              "dl",
              { class: "facts" },
              h("dt", {}, "Type"),
              h("dd", {}, vessel.type),
              h("dt", {}, "Sails"),
              h("dd", {}, `${vessel.sails} of ${vessel.sails_max}`),
              h("dt", {}, "Hold"),
              h("dd", {}, `${vessel.hold} of ${vessel.hold_max}`),
              h("dt", {}, "Cannons"),
              h("dd", {}, vessel.cannons),
              h("dt", {}, "Goods"),
              h("dd", {}, goods || "—"),
            )
          : null,
        h(
          "dl",
          { class: "facts" },
          h("dt", {}, "Captain"),
          h("dd", {}, ship.captain_name || "none yet"),
          h("dt", {}, "Crew's Booty"),
          h("dd", {}, `${ship.crew_booty} Coins`),
          h("dt", {}, "Morale"),
          h("dd", {}, ship.morale),
        ),
      ),
    ),
  );
}
