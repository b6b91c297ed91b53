// @ts-check
// Play-by-post: a character's (or pirate's) status block and the turn's post, in the form a forum takes (plain
// text, BBCode or Markdown), copied in one tap. The server writes them from the log (GET …/posts/status and
// …/posts/turn), escaping the table's own text for the format; the page only asks and copies.
import { api, h, field, select, Refusal, Unreachable } from "./api.js";
import { copy } from "./reading.js";

const FORMATS = [
  ["text", "Plain text"],
  ["bbcode", "BBCode (phpBB, most forums)"],
  ["markdown", "Markdown (Discord, Reddit)"],
];

/**
 * The "For the forum" card of the table's first tab.
 * @param {HTMLElement} panel
 * @param {any} table the page's Table (app.js)
 * @param {{ id: string, name: string }[]} who the characters (or pirates) a status block can be asked for
 */
export function render(panel, table, who) {
  if (!who.length) return;
  const whose = select(who.map(w => [w.id, w.name]));
  const format = select(FORMATS);
  const said = h("p", { role: "status", class: "quiet" });
  const shown = h("pre", { class: "post", "aria-label": "The post copied", hidden: true });
  const at = () => (table.at !== null ? `&at=${table.at}` : "");
  /** @param {string} what @param {() => string} path */
  const post = (what, path) =>
    h(
      "button",
      {
        type: "button",
        onclick: async () => {
          said.textContent = "";
          try {
            const answer = await api(`${table.base()}${path()}format=${format.value}${at()}`);
            shown.textContent = answer.post;
            shown.hidden = false;
            said.textContent = (await copy(answer.post).catch(() => false))
              ? `Copied ${what} as of position ${answer.position}: paste it into the forum.`
              : "This browser did not copy it: select the text below and copy it by hand.";
          } catch (error) {
            if (!(error instanceof Refusal || error instanceof Unreachable)) throw error;
            said.textContent = error.message;
          }
        },
      },
      `Copy ${what}`,
    );
  panel.append(
    h(
      "section",
      { class: "card wide", "aria-label": "For the forum" },
      h("h2", {}, "For the forum"),
      field("Whose status", whose),
      field("Format", format),
      h(
        "div",
        { class: "buttons" },
        post("the status block", () => `/posts/status?character=${encodeURIComponent(whose.value)}&`),
        post("this turn's post", () => "/posts/turn?"),
      ),
      said,
      shown,
    ),
  );
}
