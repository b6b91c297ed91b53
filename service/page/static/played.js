// @ts-check
// The scenarios (Skull & Shackles) or chapters (Skull Tales) played, each with its report and its recap: opened on
// the page, drawn as headings and lists (reading.js); the links still lead to the API's own answers.
import { api, h, Refusal, Unreachable } from "./api.js";
import { reader } from "./reading.js";
import * as chronicle from "./chronicle.js";
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
  const open = h("div", {});
  // Opened in place: the report as Markdown, drawn; the recap the same, with the buttons that copy it.
  const read = (event, path, heading, share) => {
    event.preventDefault();
    const close = () => {
      open.replaceChildren();
      event.target.focus();
    };
    api(path, { accept: "text/markdown" })
      .then(text => {
        open.replaceChildren(reader(heading, text, { share, onclose: close }));
        open.querySelector("h3")?.scrollIntoView({ block: "start" });
      })
      .catch(error => {
        if (!(error instanceof Refusal || error instanceof Unreachable)) throw error;
        open.replaceChildren(h("p", { class: "refusal", role: "alert" }, error.message));
      });
  };
  const items = played.map(p => {
    const name = chapters ? `Chapter ${p.chapter}` : p.scenario + (p.play > 1 ? ` (play ${p.play})` : "");
    return h(
      "li",
      {},
      h("strong", {}, name),
      ` — ${outcome(p)}, positions ${p.first} to ${p.last}: `,
      h(
        "a",
        {
          href: rooted(p.report),
          "aria-label": `Report of ${name}`,
          onclick: e => read(e, p.report, `Report of ${name}`),
        },
        "report",
      ),
      " · ",
      h(
        "a",
        {
          href: rooted(p.recap),
          "aria-label": `Recap of ${name}`,
          onclick: e => read(e, p.recap, `Recap of ${name}`, true),
        },
        "recap",
      ),
      " · ",
      chronicle.link(open, table, p, name),
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
      items.length ? h("div", { class: "buttons" }, chronicle.button(open, table)) : "",
      open,
    ),
  );
}
