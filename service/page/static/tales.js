// @ts-check
// The turn on the Play tab (Skull Tales: Full Sail!): the chapter and its phase, each Pirate's Fame, Coins and Time
// Units, and what the chapter does next as one-tap buttons: start the chapter and its phases in order, end the
// Adventure with each Pirate's result chosen in words, elect the Captain when the election is due, collect Salary and
// come back aboard in Port, each Pirate's own actions ashore (ashore.js), end the phase and the chapter.
//
// What may be done now is the fold's to say: the Skull Tales turn view (`/turn`) names the next step of the chapter,
// each Pirate's degrees of success the Adventure's end allows, the election when it is due with its candidates, and
// the entries the phase allows; the page offers exactly those and spells no rule.
import { api, h, Refusal, typedIn, putBack } from "./api.js";
import { action } from "./action.js";
import { ashore } from "./ashore.js";

const PHASES = { port: "Port", voyage: "Voyage", adventure: "Adventure" };
const DEGREES = { total_success: "Total success", partial_success: "Partial success", failure: "Failure" };

async function log(table, events) {
  const answer = await table.appendEvents(events);
  table.talesSaid = `Logged at position ${answer.last_position}.`;
  return table.talesSaid;
}

const one = (type, data) => [{ type, data }];

function facts(view) {
  const port = view.phase === "port";
  return h(
    "dl",
    { class: "facts" },
    h("dt", {}, "Captain"),
    h("dd", {}, view.captain?.name || "none yet"),
    view.pirates.map(p => [
      h("dt", {}, p.name),
      h(
        "dd",
        {},
        [
          `${p.fame} Fame${p.at_risk.fame ? ` (+${p.at_risk.fame} at risk)` : ""}`,
          `${p.coins} Coins${p.at_risk.coins ? ` (+${p.at_risk.coins} at risk)` : ""}`,
          port ? `${p.time_units} Time Units${p.boarded ? ", back aboard" : ""}` : null,
          p.status === "unconscious" ? "Unconscious" : null,
        ]
          .filter(Boolean)
          .join(" · "),
      ),
    ]),
  );
}

// The end of the Adventure: each Pirate's result tapped among the degrees the fold allows her (one offered alone is
// chosen already), then the Adventure ended as a success, a failure, or to be played again.
function adventureEnd(table, view) {
  // Kept on the table across redraws (another phone's entry redraws the panel): what was tapped stays.
  table.talesChosen ??= new Map();
  const chosen = table.talesChosen;
  const groups = view.pirates.map(p => {
    if (p.degrees.length === 1 || !p.degrees.includes(chosen.get(p.pirate_id))) chosen.delete(p.pirate_id);
    if (p.degrees.length === 1) chosen.set(p.pirate_id, p.degrees[0]);
    const buttons = p.degrees.map(degree => {
      const b = h("button", { type: "button", "aria-pressed": String(chosen.get(p.pirate_id) === degree) });
      b.textContent = DEGREES[degree] || degree;
      b.addEventListener("click", () => {
        chosen.set(p.pirate_id, degree);
        for (const other of buttons) other.setAttribute("aria-pressed", String(other === b));
      });
      return b;
    });
    return h(
      "div",
      { class: "buttons", role: "group", "aria-label": `How the Adventure ended for ${p.name}` },
      h("span", {}, `${p.name}: `),
      buttons,
    );
  });
  const degrees = () => Object.fromEntries(chosen);
  const ended = async outcome => {
    const undecided = view.pirates.filter(p => !chosen.has(p.pirate_id)).map(p => p.name);
    if (outcome === "success" && undecided.length)
      throw new Refusal(422, {
        detail: `Tap how the Adventure ended for ${undecided.join(", ")} first: nothing was sent.`,
      });
    const said = await log(table, one("phase.ended", { phase: "adventure", outcome, degrees: degrees() }));
    chosen.clear();
    return said;
  };
  return h(
    "div",
    { class: "reset", role: "group", "aria-label": "The end of the Adventure" },
    h("h3", {}, "The end of the Adventure"),
    groups,
    action("End the Adventure: a success", () => ended("success")).el,
    action("End the Adventure: a failure", () => ended("failure"), { primary: false }).el,
    action("Play the Adventure again", () => ended("repeat"), { primary: false }).el,
  );
}

function election(table, view) {
  const { method, candidates } = view.election;
  const fame = candidates[0]?.fame ?? 0;
  const said =
    method === "most_fame"
      ? `The crew has no Captain: ${candidates[0].name} gained the most Fame in the Adventure (${fame}).`
      : `The crew has no Captain: ${candidates.map(c => c.name).join(" and ")} tie with ${fame} Fame in the ` +
        "Adventure. Roll Charisma against each other, then tap the winner.";
  return h(
    "div",
    { class: "reset", role: "group", "aria-label": "The Captain's election" },
    h("h3", {}, "The Captain's election"),
    h("p", {}, said),
    h(
      "div",
      { class: "buttons" },
      candidates.map(
        c =>
          action(`Elect ${c.name} Captain`, () =>
            log(table, one("captain.elected", { pirate_id: c.pirate_id, method })),
          ).el,
      ),
    ),
  );
}

// The Port's common steps, one tap each for each Pirate: her Salary, and coming back aboard.
function port(table, view) {
  const offered = new Set(view.offered);
  return view.pirates.map(p =>
    h(
      "div",
      { class: "buttons", role: "group", "aria-label": `${p.name} in Port` },
      offered.has("salary.collected") && !p.salary_collected && !p.boarded
        ? action(`Collect ${p.name}'s Salary`, () => log(table, one("salary.collected", { pirate_id: p.pirate_id })), {
            primary: false,
          }).el
        : null,
      offered.has("pirate.boarded") && !p.boarded
        ? action(`${p.name} back aboard`, () => log(table, one("pirate.boarded", { pirate_id: p.pirate_id })), {
            primary: false,
          }).el
        : null,
    ),
  );
}

// The next step of the chapter, as the view names it.
function next(table, view) {
  const step = view.next;
  if (!step) return [];
  if (step.action === "start chapter")
    return [
      action(`Start chapter ${step.number}`, () => log(table, one("chapter.started", { number: step.number }))).el,
    ];
  if (step.action === "start phase")
    return [
      action(`Start the ${PHASES[step.phase]} phase`, () => log(table, one("phase.started", { phase: step.phase }))).el,
    ];
  if (step.action === "end chapter")
    return [action(`End chapter ${step.number}`, () => log(table, one("chapter.ended", { number: step.number }))).el];
  if (step.phase === "adventure") return [adventureEnd(table, view)];
  if (step.phase === "voyage")
    return [
      action("End the Voyage: a success", () => log(table, one("phase.ended", { phase: "voyage", outcome: "success" })))
        .el,
      action(
        "End the Voyage: a failure",
        () => log(table, one("phase.ended", { phase: "voyage", outcome: "failure" })),
        { primary: false },
      ).el,
    ];
  return [
    action(`End the ${PHASES[step.phase]} phase`, () => log(table, one("phase.ended", { phase: step.phase }))).el,
  ];
}

function heading(view) {
  if (!view.phases.length) return view.chapter ? `Chapter ${view.chapter} has ended` : "Before the first chapter";
  if (view.phase) return `Chapter ${view.chapter}: the ${PHASES[view.phase]} phase`;
  return `Chapter ${view.chapter}: between phases`;
}

// The turn's panel in `into`, drawn again (`redraw`) each time the log moves on. What is typed or chosen in it stays,
// and the field being typed into keeps its focus (api.js); of two redraws close together only the later one draws.
export async function render(into, table) {
  const box = h("section", { class: "card turn", "aria-labelledby": "turn-heading" });
  into.append(box);
  table.talesCatalogue ??= api("/v1/catalog/skull-tales-full-sail");
  let started = 0;
  const redraw = async () => {
    const mine = ++started;
    const [answer, catalogue] = await Promise.all([table.view("/turn"), table.talesCatalogue]);
    if (mine !== started) return;
    const view = answer.turn ?? answer;
    const typed = typedIn(box);
    const parts = [
      h("h2", { id: "turn-heading" }, heading(view)),
      h("p", { class: "done", role: "status", "aria-label": "Last logged here" }, table.talesSaid || ""),
      facts(view),
      ...(view.phase === "port" ? port(table, view) : []),
      view.phase === "port" ? ashore(table, view, catalogue, events => log(table, events)) : null,
      view.election ? election(table, view) : null,
      ...next(table, view),
    ];
    box.replaceChildren(...parts.filter(part => part !== null));
    putBack(box, typed);
  };
  await redraw();
  return redraw;
}
