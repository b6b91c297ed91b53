// @ts-check
// The table display: a tablet or a TV in the middle of the table, opened with the read-only link the owner makes on
// the Members tab (`/display#<token>`). It shows what GET /display answers (the fold's display view and the log's
// latest sentences), follows the live stream, says so when it stops following, and has no control at all.
import { rooted, here } from "./root.js";

const main = /** @type {HTMLElement} */ (document.getElementById("display"));
const RETRY = 3000;

/**
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {...(Node | string | number | null | undefined | false)} children
 */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/**
 * @param {string} path
 * @param {{ method?: string, body?: unknown }} [options]
 * @returns {Promise<{ ok: boolean, status: number, content: any }>}
 */
async function ask(path, { method = "GET", body } = {}) {
  /** @type {Record<string, string>} */
  const headers = { "X-Quartermaster": "page" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const answer = await fetch(rooted(path), {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10000),
  });
  const type = answer.headers.get("content-type") || "";
  const content = type.includes("json") ? await answer.json() : { detail: await answer.text() };
  return { ok: answer.ok, status: answer.status, content };
}

/** @param {string} words */
function say(words) {
  main.replaceChildren(
    h("h1", { class: "shown-title" }, "Table display"),
    h("p", { class: "said", role: "alert" }, words),
  );
}

/** @param {number} ms */
function clock(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

const PHASES = { adventure: "Adventure Phase", voyage: "Voyage Phase", port: "Port Phase" };

/** @param {any} next what the chapter does next, as the fold's turn view says it */
function nextStep(next) {
  if (next.action === "start chapter") return `Next: chapter ${next.number} starts`;
  if (next.action === "start phase") return `Next: the ${PHASES[next.phase] || next.phase} starts`;
  if (next.action === "end phase") return `Next: the ${PHASES[next.phase] || next.phase} ends`;
  return `Next: chapter ${next.number} ends`;
}

/** @param {any} t the Skull & Shackles display view */
function pacg(t) {
  if (!t.scenario) {
    const done = t.completed.length ? `Scenarios won: ${t.completed.join(", ")}.` : "No scenario played yet.";
    return [h("p", { class: "big" }, "No scenario in progress"), h("p", { class: "aside" }, t.ended || done)];
  }
  const turn = t.turn
    ? h(
        "p",
        { class: "big", "data-part": "turn" },
        `Turn ${t.turn.number}: `,
        h("strong", {}, t.turn.character),
        t.turn.location ? ` at ${t.turn.location}` : "",
        t.turn.step ? h("span", { class: "aside" }, ` · ${t.turn.step}`) : "",
      )
    : h(
        "p",
        { class: "big", "data-part": "turn" },
        t.next.length ? `Next turn: ${t.next.join(" or ")}` : "Between turns",
      );
  const blessings = t.blessings
    ? h(
        "p",
        { class: "count", "data-part": "blessings" },
        h("span", { class: "number" }, t.blessings.left),
        ` ${t.blessings.name === "hourglass" ? "blessings left in the hourglass" : `left in the ${t.blessings.name}`}`,
      )
    : null;
  const places = h(
    "ul",
    { class: "places", "aria-label": "Locations" },
    ...t.locations.map(
      /** @param {any} p */ p =>
        h(
          "li",
          { class: `place ${p.status === "open" ? "" : "shut"}`, "data-place": p.name },
          h("span", { class: "place-name" }, p.name),
          h("span", { class: "number" }, p.cards),
          h(
            "span",
            { class: "aside" },
            `${p.cards === 1 ? "card" : "cards"} left${p.status === "open" ? "" : ` · ${p.status}`}`,
          ),
          p.characters.length ? h("span", { class: "here" }, p.characters.join(", ")) : null,
        ),
    ),
  );
  return [h("div", { class: "head" }, turn, blessings), places];
}

/** @param {any} t the Skull Tales display view */
function tales(t) {
  if (!t.chapter)
    return [h("p", { class: "big" }, "No chapter started yet"), h("p", { class: "aside" }, nextStep(t.next))];
  const phase = t.phase ? PHASES[t.phase] || t.phase : "between phases";
  const port = t.pirates.some(/** @param {any} p */ p => p.time_units !== null);
  const rows = t.pirates.map(
    /** @param {any} p */ p =>
      h(
        "tr",
        { "data-pirate": p.name },
        h("th", { scope: "row" }, p.name, p.name === t.captain ? h("span", { class: "aside" }, " · Captain") : ""),
        h("td", {}, p.fame),
        h("td", {}, p.coins),
        port ? h("td", {}, p.time_units ?? "—") : null,
      ),
  );
  return [
    h(
      "div",
      { class: "head" },
      h("p", { class: "big", "data-part": "phase" }, `Chapter ${t.chapter}: `, h("strong", {}, phase)),
      h("p", { class: "aside" }, nextStep(t.next)),
    ),
    h(
      "table",
      { class: "crew" },
      h("caption", {}, "The crew"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, "Pirate"),
          h("th", { scope: "col" }, "Fame"),
          h("th", { scope: "col" }, "Coins"),
          port ? h("th", { scope: "col" }, "Time Units") : null,
        ),
      ),
      h("tbody", {}, ...rows),
    ),
  ];
}

class Display {
  /** @param {string} campaign */
  constructor(campaign) {
    this.campaign = campaign;
    this.base = `/v1/campaigns/${campaign}`;
    this.position = 0;
    /** @type {EventSource | null} */
    this.source = null;
    this.state = "connecting";
    /** @type {string | null} */
    this.why = null;
    this.asOf = Date.now();
    /** @type {any} */
    this.shown = null;
    this.pending = false;
    this.dirty = false;
    this.status = h("p", { class: "status", role: "status", id: "live" });
  }

  // One read at a time; an event heard meanwhile reads again after it, so the last entry is never missed.
  async read() {
    if (this.pending) {
      this.dirty = true;
      return;
    }
    this.pending = true;
    this.dirty = false;
    try {
      const { ok, status, content } = await ask(`${this.base}/display`);
      if (!ok) {
        if (status === 401 || status === 403 || status === 404) this.stop(content.detail);
        return;
      }
      if (content.position < this.position) return;
      this.position = content.position;
      this.shown = content;
      this.asOf = Date.now();
      this.draw();
    } catch {
      this.lost();
    } finally {
      this.pending = false;
      if (this.dirty) this.read();
    }
  }

  draw() {
    const d = this.shown;
    if (!d) return;
    const title = d.game === "pacg-skull-and-shackles" ? d.table.scenario || d.campaign : d.campaign;
    const game = d.game === "pacg-skull-and-shackles" ? pacg(d.table) : tales(d.table);
    const last = h(
      "ol",
      { class: "last", "aria-label": "The latest entries, newest last" },
      ...d.last.map(
        /** @param {any} e */ e =>
          h(
            "li",
            { class: e.undone ? "undone" : "", value: String(e.position) },
            e.sentence,
            e.undone ? " (undone)" : "",
          ),
      ),
    );
    main.replaceChildren(
      h(
        "header",
        { class: "top" },
        h("h1", { class: "shown-title" }, title),
        title === d.campaign ? null : h("p", { class: "aside" }, d.campaign),
        this.status,
      ),
      h("section", { class: "game", "aria-label": "The game now" }, ...game),
      h("section", { class: "entries", "aria-label": "The log" }, h("h2", {}, "Latest entries"), last),
    );
    this.showState();
  }

  showState() {
    const words = {
      live: `Following live · position ${this.position}`,
      connecting: "Connecting…",
      lost: `Not following: reconnecting… · as of ${clock(this.asOf)}`,
      stopped: `Not following: the server stopped · as of ${clock(this.asOf)}`,
      ended: `Stopped following: ${this.why}`,
    }[this.state];
    this.status.textContent = words;
    this.status.dataset.state = this.state;
    document.body.dataset.state = this.state;
  }

  lost() {
    if (this.state === "ended") return;
    this.state = "lost";
    this.showState();
  }

  /** @param {string} why */
  stop(why) {
    this.source?.close();
    this.source = null;
    this.state = "ended";
    this.why = why;
    if (!this.shown) say(`This table display does not follow the campaign: ${why}`);
    else this.showState();
  }

  follow() {
    if (this.state === "ended") return;
    const source = new EventSource(rooted(`${this.base}/stream?after=${this.position}`));
    this.source = source;
    source.addEventListener("open", () => {
      this.state = "live";
      this.showState();
      this.read();
    });
    source.addEventListener("event", message => {
      const recorded = JSON.parse(message.data);
      if (recorded.position > this.position) this.read();
    });
    source.addEventListener("closing", () => {
      source.close();
      this.state = "stopped";
      this.showState();
      setTimeout(() => this.again(source), RETRY);
    });
    source.addEventListener("ended", message => this.stop(JSON.parse(message.data).detail));
    source.addEventListener("error", () => {
      if (this.state === "ended" || this.source !== source) return;
      if (this.state !== "stopped") this.lost();
      // Closed for good (an answer that was not a stream): open a new one once the server answers.
      if (source.readyState === EventSource.CLOSED) setTimeout(() => this.again(source), RETRY);
    });
  }

  /** @param {EventSource} old */
  async again(old) {
    if (this.source !== old || this.state === "ended") return;
    try {
      const { ok, status, content } = await ask(this.base);
      if (ok) this.follow();
      else if (status === 401 || status === 404) this.stop(content.detail);
      else setTimeout(() => this.again(old), RETRY);
    } catch {
      setTimeout(() => this.again(old), RETRY);
    }
  }
}

async function signIn() {
  // The token is in the fragment, which no server ever sees; take it and clear the address bar at once.
  const token = decodeURIComponent(location.hash.slice(1));
  history.replaceState(null, "", rooted("/display"));
  if (token) {
    const { ok, content } = await ask("/session", { method: "POST", body: { token } });
    if (!ok) return say(content.detail);
    history.replaceState(null, "", rooted(`/display/${content.campaign}`));
    return content.campaign;
  }
  const { content } = await ask("/session");
  const displays = (content.tables || []).filter(/** @param {any} t */ t => t.role === "display");
  if (displays.length === 1) {
    history.replaceState(null, "", rooted(`/display/${displays[0].campaign}`));
    return displays[0].campaign;
  }
  return say("Open the table display link the campaign's owner made on the Members tab.");
}

async function start() {
  const match = here().match(/^\/display\/([0-9a-f-]{36})$/);
  const campaign = match ? match[1] : await signIn();
  if (!campaign) return;
  const display = new Display(campaign);
  await display.read();
  display.follow();
  // The screen's network went away: say so now (a stream can take minutes to notice), and follow again when it is back.
  window.addEventListener("offline", () => {
    if (display.state === "ended") return;
    display.source?.close();
    display.source = null;
    display.lost();
  });
  window.addEventListener("online", () => {
    if (display.state !== "ended" && !display.source) display.follow();
  });
}

start().catch(error => say(`The table display could not start: ${error.message}`));
