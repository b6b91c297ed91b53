// @ts-check
// Chronicle sheets on the page, to read and to print: one scenario's (or chapter's) sheet, or the campaign's sheets
// in order, each as the server builds it from the log (GET …/chronicles) with its log positions and digest. While
// they are open the page is marked `sheets-open`, and the print style (paperwork.css) prints only them, one sheet a page.
import { api, h, Refusal, Unreachable } from "./api.js";
import { rooted } from "./root.js";

/** @param {Record<string, number>} cards */
const counted = cards =>
  Object.entries(cards || {})
    .map(([name, count]) => (count > 1 ? `${name} ×${count}` : name))
    .join(", ") || "none";

/** @param {string} key */
const words = key => key.charAt(0).toUpperCase() + key.slice(1).replaceAll("_", " ");

/**
 * A value of a sheet the page does not know the shape of (a chapter's record), said in words.
 * @param {unknown} value
 * @returns {string}
 */
function said(value) {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.map(said).join("; ") || "none";
  if (typeof value === "object")
    return Object.entries(value)
      .map(([k, v]) => `${k}: ${said(v)}`)
      .join(", ");
  return String(value);
}

// What a Skull Tales chapter's sheet keeps beyond the party and result (service/application/chronicles.py).
const CHAPTER_RECORD = ["pirates", "injuries", "skills_learned", "feats", "retired", "recruited", "crew_booty"];

/**
 * One sheet as a printable article: what organized play records, then where in the log it comes from.
 * @param {string} campaign
 * @param {any} sheet
 */
export function article(campaign, sheet) {
  const chapter = "chapter" in sheet;
  const name = chapter ? `Chapter ${sheet.chapter}` : sheet.scenario;
  /** @type {[string, string][]} */
  const rows = [
    [chapter ? "Chapter" : "Scenario", `${name} (play ${sheet.play})`],
    ["Result", said(sheet.result)],
    ["Party", sheet.party.map((/** @type {any} */ p) => `${p.name} (${p.player})`).join(", ") || "none"],
  ];
  const names = Object.fromEntries(sheet.party.map((/** @type {any} */ p) => [p.id, p.name]));
  for (const reward of sheet.rewards || [])
    rows.push([
      "Reward",
      Object.entries(reward)
        .filter(([k]) => k !== "position")
        .map(([k, v]) => `${k} ${v}`)
        .join(", "),
    ]);
  for (const feat of sheet.feats || []) rows.push(["Feat", `${feat.feat} (${names[feat.to] || feat.to})`]);
  for (const cards of Object.values(sheet.cards || {}))
    rows.push([`${cards.name}'s cards`, `gained ${counted(cards.gained)}; lost ${counted(cards.lost)}`]);
  for (const [who, deck] of Object.entries(sheet.decks || {}))
    rows.push([`${names[who] || who}'s deck`, counted(/** @type {Record<string, number>} */ (deck))]);
  if (chapter) for (const key of CHAPTER_RECORD) if (key in sheet) rows.push([words(key), said(sheet[key])]);
  for (const o of sheet.overridden || [])
    rows.push(["Overridden", `at position ${o.position}: ${o.reason} (${o.recorded_by || "the table"})`]);
  const title = `Chronicle sheet: ${name}`;
  return h(
    "article",
    { class: "chronicle", "aria-label": title },
    h("h4", {}, title),
    h("p", { class: "campaign" }, campaign),
    h(
      "dl",
      {},
      rows.map(([k, v]) => h("div", {}, h("dt", {}, k), h("dd", {}, v))),
    ),
    h(
      "p",
      { class: "digest" },
      `Log positions ${sheet.first} to ${sheet.last}; the log's digest there (SHA-256): `,
      h("code", {}, sheet.digest),
    ),
  );
}

/**
 * Open the sheets in `open`: all of them, or the one whose log range starts at `first`.
 * @param {HTMLElement} open where the reading goes (played.js)
 * @param {any} table the page's Table (app.js)
 * @param {number | null} first
 * @param {HTMLElement} [from] what to give the focus back to on Close
 */
export async function show(open, table, first = null, from) {
  const root = document.documentElement;
  const close = () => {
    open.replaceChildren();
    root.classList.remove("sheets-open");
    from?.focus();
  };
  try {
    const answer = await api(`${table.base()}/chronicles`);
    const named = String(answer.campaign).replace(/[^\w-]+/g, "-");
    const sheets = answer.sheets.filter((/** @type {any} */ s) => first === null || s.first === first);
    const title =
      first === null
        ? "Chronicle sheets"
        : `Chronicle sheet of ${sheets[0]?.scenario ?? `Chapter ${sheets[0]?.chapter}`}`;
    open.replaceChildren(
      h(
        "section",
        { class: "card wide reading chronicles", "aria-label": title },
        h("h3", {}, title),
        h(
          "div",
          { class: "buttons" },
          h("button", { type: "button", onclick: () => window.print() }, "Print"),
          h(
            "a",
            { href: rooted(`${table.base()}/chronicles?format=text`), download: `${named}-chronicles.txt` },
            "Download as text",
          ),
          h(
            "a",
            { href: rooted(`${table.base()}/chronicles`), download: `${named}-chronicles.json` },
            "Download to verify",
          ),
          h("button", { type: "button", onclick: close }, "Close"),
        ),
        sheets.length
          ? sheets.map((/** @type {any} */ s) => article(answer.campaign, s))
          : h("p", { class: "quiet" }, "No scenario or chapter has been played yet."),
      ),
    );
    root.classList.add("sheets-open");
    open.querySelector("h3")?.scrollIntoView({ block: "start" });
  } catch (error) {
    if (!(error instanceof Refusal || error instanceof Unreachable)) throw error;
    open.replaceChildren(h("p", { class: "refusal", role: "alert" }, error.message));
  }
}

/**
 * The link that opens one played scenario's (or chapter's) sheet, for its line in the list.
 * @param {HTMLElement} open
 * @param {any} table
 * @param {{ first: number }} played
 * @param {string} name
 */
export function link(open, table, played, name) {
  return h(
    "a",
    {
      href: "#",
      "aria-label": `Chronicle sheet of ${name}`,
      onclick: (/** @type {Event} */ e) => {
        e.preventDefault();
        show(open, table, played.first, /** @type {HTMLElement} */ (e.target));
      },
    },
    "chronicle sheet",
  );
}

/**
 * The button that opens every sheet of the campaign, in order, to print.
 * @param {HTMLElement} open
 * @param {any} table
 */
export function button(open, table) {
  return h(
    "button",
    {
      type: "button",
      onclick: (/** @type {Event} */ e) => show(open, table, null, /** @type {HTMLElement} */ (e.target)),
    },
    "Chronicle sheets to print",
  );
}
