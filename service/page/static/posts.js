// @ts-check
// Play-by-post: a character's (or pirate's) status block and the turn's post, in the form a forum takes (plain
// text, BBCode or Markdown), copied in one tap. The server writes them from the log (GET …/posts/status and
// …/posts/turn), escaping the table's own text for the format; the page only asks and copies. The other way, a
// thread's posts pasted in are previewed by the server (POST …/posts/preview: what each entry would log, in the log's
// words, or why the rules refuse it) and logged in one Confirm tap (POST …/posts/confirm); nothing is written before.
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
      paste(table),
    ),
  );
}

/** @type {Record<string, string>} */
const STATUS = { new: "Would log", logged: "Logged already", refused: "Refused" };

/**
 * The "Paste a thread" box: the posts pasted, their preview as a list, and one Confirm tap.
 * @param {any} table the page's Table (app.js)
 * @returns {HTMLElement}
 */
function paste(table) {
  const text = h("textarea", {
    rows: 4,
    spellcheck: "false",
    autocomplete: "off",
    oninput: () => {
      overrides = {}; // another thread: the reasons given were for the entries of the last one
    },
  });
  const heard = h("p", { role: "status", class: "quiet" });
  const list = h("ol", { class: "pasted", "aria-label": "What the thread would log", hidden: true });
  /** @type {{ text: string, position: number, ids: string[], overrides: Record<string, string> } | null} */
  let previewed = null;
  // The entries refused by a rule of the game that the table logs anyway, by id, with its reason (override.js's way).
  /** @type {Record<string, string>} */
  let overrides = {};
  const confirm = h("button", { type: "button", hidden: true, onclick: () => logIt() }, "Confirm");
  /** @param {string} words */
  const done = words => {
    heard.textContent = words;
    confirm.hidden = true;
    previewed = null;
  };
  /** @param {unknown} error */
  const refused = error => {
    if (!(error instanceof Refusal || error instanceof Unreachable)) throw error;
    done(error.message);
  };
  /**
   * "Log it anyway" beside an entry refused by a rule of the game: the reason, then the preview again with it.
   * @param {string} id
   */
  const anyway = id => {
    const reason = h("input", { type: "text", autocomplete: "off" });
    const send = h(
      "button",
      {
        type: "button",
        onclick: () => {
          if (!reason.value.trim()) return;
          overrides = { ...overrides, [id]: reason.value.trim() };
          preview();
        },
      },
      "Log it anyway",
    );
    return h("div", { class: "anyway" }, h("label", {}, "Why does the table log it anyway? ", reason), send);
  };
  const preview = async () => {
    list.replaceChildren();
    list.hidden = true;
    done("");
    try {
      const answer = await api(`${table.base()}/posts/preview`, {
        method: "POST",
        body: { text: text.value, overrides },
      });
      list.replaceChildren(
        ...answer.entries.map((/** @type {any} */ e) =>
          h(
            "li",
            { class: e.status },
            h("strong", {}, `${STATUS[e.status]}: `),
            e.sentence,
            e.reason ? ` ${e.reason}` : "",
            h("span", { class: "quiet" }, ` (${e.poster})`),
            e.overridable ? anyway(e.id) : "",
          ),
        ),
      );
      list.hidden = false;
      const ids = answer.entries
        .filter((/** @type {any} */ e) => e.status === "new")
        .map((/** @type {any} */ e) => e.id);
      const refusals = answer.entries.length - ids.length;
      heard.textContent =
        `${ids.length} of ${answer.entries.length} entries would be logged` +
        (refusals ? `; ${refusals} would not (see below).` : ".") +
        (answer.notice ? ` ${answer.notice}` : "") +
        (ids.length ? " Nothing is written until you confirm." : "");
      if (ids.length) {
        previewed = { text: text.value, position: answer.position, ids, overrides };
        confirm.hidden = false;
      }
    } catch (error) {
      refused(error);
    }
  };
  const logIt = async () => {
    if (!previewed) return;
    try {
      const answer = await api(`${table.base()}/posts/confirm`, { method: "POST", body: previewed });
      done(
        answer.replayed
          ? "These entries were logged already; nothing more was written."
          : `Logged ${answer.logged} entries from the thread, up to position ${answer.position}.`,
      );
      list.hidden = true;
      text.value = "";
      overrides = {};
    } catch (error) {
      refused(error);
    }
  };
  return h(
    "div",
    { class: "paste" },
    h("h3", {}, "Paste a thread"),
    field("The thread's turn posts, as copied from the forum", text),
    h("div", { class: "buttons" }, h("button", { type: "button", onclick: preview }, "Preview"), confirm),
    heard,
    list,
  );
}
