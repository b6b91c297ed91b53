// The scenarios (Skull & Shackles) or chapters (Skull Tales) played, each with a link to its report and its recap.
import { h } from "./api.js";
import { rooted } from "./root.js";

function outcome(played) {
  if (typeof played.outcome === "string") return played.outcome === "playing" ? "being played" : played.outcome;
  const phases = Object.entries(played.outcome || {}).map(([phase, how]) => `${phase} ${how}`);
  return [played.ended ? "ended" : "being played", ...phases].join(", ");
}

export async function render(panel, table) {
  const chapters = table.game === "skull-tales-full-sail";
  const answer = await table.latest("/scenarios");
  const played = (chapters ? answer.chapters : answer.scenarios) || [];
  const title = chapters ? "Chapters played" : "Scenarios played";
  const items = played.map(p => {
    const name = chapters ? `Chapter ${p.chapter}` : p.scenario + (p.play > 1 ? ` (play ${p.play})` : "");
    return h(
      "li",
      {},
      h("strong", {}, name),
      ` — ${outcome(p)}, positions ${p.first} to ${p.last}: `,
      h("a", { href: rooted(p.report), "aria-label": `Report of ${name}` }, "report"),
      " · ",
      h("a", { href: rooted(p.recap), "aria-label": `Recap of ${name}` }, "recap"),
    );
  });
  // Named for what it offers, not "Scenarios": the table already has a region named "Scenario".
  panel.append(
    h(
      "section",
      { class: "card wide", "aria-label": "Reports and recaps" },
      h("h2", {}, title),
      items.length
        ? h("ul", { class: "plain" }, items)
        : h("p", { class: "quiet" }, chapters ? "No chapter played yet." : "No scenario played yet."),
    ),
  );
}
