// @ts-check
// Skull & Shackles, between sessions: who sits out (a character set aside, her deck written down in the log and its
// cards back in the box; brought back with the same cards) and the pull list to print before the group plays. The
// fold decides what is allowed (Skull & Shackles Rulebook, Between Games); the page offers it and shows its answer.
import { api, h, plural, Refusal, Unreachable } from "./api.js";
import { action } from "./action.js";
import { characters } from "./fleet.js";
import * as box from "./box.js";

/** Every card a character holds, one entry per copy: the list written down as she is set aside.
 * @param {any} c a character view */
function held(c) {
  /** @type {string[]} */
  const cards = [];
  for (const zone of Object.values(c.zones || {}))
    for (const [name, count] of Object.entries(zone)) for (let i = 0; i < Number(count); i++) cards.push(name);
  return cards;
}

/** @param {any} table @param {any} c */
function row(table, c, between) {
  const count = c.aside ? c.aside.length : held(c).length;
  const said = c.aside ? `set aside, ${plural(count, "card")} written down` : `plays, ${plural(count, "card")}`;
  let act = null;
  if (table.canWrite() && between && c.alive) {
    act = c.aside
      ? action(`Bring back ${c.name}`, async () => {
          const answer = await table.appendEvents([
            { type: "character.brought_back", label: `${c.name} brought back`, data: { character_id: c.character_id } },
          ]);
          return `${c.name} is back with her deck: logged at position ${answer.last_position}.`;
        })
      : count
        ? action(
            `Set aside ${c.name}`,
            async () => {
              const answer = await table.appendEvents([
                {
                  type: "character.set_aside",
                  label: `${c.name} set aside`,
                  data: { character_id: c.character_id, cards: held(c) },
                },
              ]);
              return `${c.name}'s deck is written down and back in the box: logged at position ${answer.last_position}.`;
            },
            { primary: false },
          )
        : null;
  }
  return h("li", {}, h("strong", {}, c.name), ` — ${said}`, act ? act.el : null);
}

/** The pull list as the server writes it for printing, shown in the card with a Print button.
 * @param {any} table @param {HTMLElement} shown @param {HTMLElement} said */
async function pull(table, shown, said) {
  said.textContent = "";
  try {
    const at = table.at !== null ? `?at=${table.at}` : "";
    shown.textContent = await api(`${table.base()}/pull-list${at}`, { accept: "text/plain" });
    shown.hidden = false;
    said.textContent = "The cards to take out of the box, deck by deck.";
  } catch (error) {
    if (!(error instanceof Refusal || error instanceof Unreachable)) throw error;
    said.textContent = error.message;
  }
}

/** @param {any} table @param {HTMLElement} shown @param {HTMLElement} said */
async function print(table, shown, said) {
  if (shown.hidden) await pull(table, shown, said);
  if (shown.hidden) return;
  // Only the pull list prints (style.css, body.print-pull); the page is left as it was.
  document.body.classList.add("print-pull");
  window.addEventListener("afterprint", () => document.body.classList.remove("print-pull"), { once: true });
  window.print();
}

/**
 * The "Who plays" card of the Table tab.
 * @param {HTMLElement} panel
 * @param {any} table the page's Table (app.js)
 */
export async function render(panel, table) {
  let found;
  try {
    found = await characters(table);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return;
  }
  const { scenario, characters: party } = found;
  if (!party.length) return;
  const between = !scenario.in_progress;
  const said = h("p", { role: "status", class: "quiet" });
  const shown = h("pre", { class: "post pull-list", "aria-label": "Pull list", hidden: true });
  panel.append(
    h(
      "section",
      { class: "card wide", "aria-label": "Who plays" },
      h("h2", {}, "Who plays"),
      h(
        "p",
        { class: "quiet" },
        between
          ? "A character whose player sits out is set aside: her deck is written down and its cards go back in the box."
          : "Characters are set aside or brought back between scenarios.",
      ),
      h(
        "ul",
        { class: "plain" },
        party.map(c => row(table, c, between)),
      ),
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "button", onclick: () => pull(table, shown, said) }, "Show the pull list"),
        h("button", { type: "button", onclick: () => print(table, shown, said) }, "Print the pull list"),
      ),
      said,
      shown,
    ),
  );
  await box.render(panel, table);
}
