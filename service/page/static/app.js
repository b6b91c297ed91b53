// @ts-check
// The table page: which campaign, which tab, which position, and the live stream that keeps it all current.
import { api, h, field, select, Refusal, Unreachable, typedIn, putBack } from "./api.js";
import { action } from "./action.js";
import { Connection } from "./connection.js";
import { Log } from "./log.js";
import * as fleet from "./fleet.js";
import * as sheet from "./sheet.js";
import * as played from "./played.js";
import * as posts from "./posts.js";
import * as aside from "./aside.js";
import { Fresh } from "./fresh.js";
import { refuse, learnWords } from "./refusal.js";
import { rooted, here } from "./root.js";
import { shaped, described } from "./shapes.js";

// The tabs a phone does not open on: their modules are imported when a tab is first drawn, and right after the first
// view in any case (`all`), so an open page holds every module even if the server goes away.
const tabs = {
  moves: () => import("./moves.js"),
  dice: () => import("./dice.js"),
  crew: () => import("./crew.js"),
  setup: () => import("./setup.js"),
  all: () => Promise.all([tabs.moves(), tabs.dice(), tabs.crew(), tabs.setup()]),
};

const main = document.getElementById("main");
const GAMES = {
  "pacg-skull-and-shackles": { title: "Skull & Shackles", glance: fleet, glanceName: "Table", paperwork: aside },
  "skull-tales-full-sail": { title: "Skull Tales: Full Sail!", glance: sheet, glanceName: "Crew sheets" },
};

async function join() {
  // The token is in the fragment, which no server ever sees; take it and clear the address bar at once.
  const token = decodeURIComponent(location.hash.slice(1));
  history.replaceState(null, "", rooted("/join"));
  if (!token) {
    main.replaceChildren(
      h("p", { role: "alert" }, "This join link has no token in it. Ask the campaign's owner for your link."),
    );
    return;
  }
  try {
    const table = await api("/session", { method: "POST", body: { token } });
    history.replaceState(null, "", rooted(`/c/${table.campaign}`));
    await route();
  } catch (error) {
    if (!(error instanceof Refusal || error instanceof Unreachable)) throw error;
    const place = h("p", { class: "refusal", role: "alert" });
    if (error instanceof Refusal) refuse(place, error);
    else place.textContent = error.message;
    main.replaceChildren(place);
  }
}

// The campaign's name and game head the page (its one h1); elsewhere the page's own heading does, and this one hides.
function heading(text) {
  const title = document.getElementById("title");
  title.textContent = text;
  title.hidden = !text;
}

async function home() {
  heading("");
  const { tables } = await api("/session");
  const list = tables.length
    ? h(
        "ul",
        { class: "plain" },
        tables.map(t =>
          h(
            "li",
            { class: "card" },
            h("a", { href: rooted(`/c/${t.campaign}`) }, t.name),
            " ",
            h("span", { class: "quiet" }, `${GAMES[t.game]?.title || t.game} · you are ${t.member} (${t.role})`),
          ),
        ),
      )
    : h(
        "p",
        { class: "quiet" },
        "This phone has not joined a campaign yet. Open the join link the campaign's owner shows you, or start one.",
      );
  const name = h("input", { required: true, autocomplete: "off" });
  const owner = h("input", { autocomplete: "off", value: "Captain" });
  const game = select(Object.entries(GAMES).map(([id, g]) => [id, g.title]));
  const start = action("Start the campaign", async () => {
    const made = await api("/v1/campaigns", {
      method: "POST",
      body: { name: name.value.trim(), game: game.value, owner_name: owner.value.trim() || "Owner" },
    });
    await api("/session", { method: "POST", body: { token: made.token } });
    history.pushState(null, "", rooted(`/c/${made.id}`));
    await route();
  });
  main.replaceChildren(
    h("h1", {}, "Your campaigns"),
    list,
    h(
      "section",
      { class: "card", "aria-labelledby": "start" },
      h("h2", { id: "start" }, "Start a campaign"),
      field("Campaign name", name),
      field("Game", game),
      field("Your name (the owner)", owner),
      start.el,
    ),
  );
}

class Table {
  constructor(summary, me) {
    this.id = summary.id;
    this.summary = summary;
    this.game = summary.game;
    this.kind = GAMES[this.game];
    this.me = me;
    this.members = new Map(summary.members.map(m => [m.member_id, m.name]));
    this.position = summary.position;
    const at = Number(new URLSearchParams(location.search).get("at"));
    this.at = at > 0 && at < this.position ? at : null;
    this.tab = "glance";
    this.log = new Log(this);
    this.refreshing = null;
    this.fresh = new Fresh();
    // Writes to the log wait on this phone until the server records them (connection.js, outbox.js).
    this.connection = new Connection(this);
    this.outbox = this.connection.outbox;
  }

  base() {
    return `/v1/campaigns/${this.id}`;
  }
  // Every read of a view goes through here, so looking back shows every view as it was.
  view(path, params = {}) {
    const query = new URLSearchParams(params);
    if (this.at !== null) query.set("at", String(this.at));
    const text = query.toString();
    const sent = text ? undefined : this.fresh.answer(path, this.position);
    return sent !== undefined ? Promise.resolve(sent) : api(`${this.base()}${path}${text ? `?${text}` : ""}`);
  }
  // A read that never looks back (the scenarios played), answered from the stream when it sent it.
  latest(path) {
    const sent = this.fresh.answer(path, this.position);
    return sent !== undefined ? Promise.resolve(sent) : api(`${this.base()}${path}`);
  }
  write(path, body, key) {
    return api(`${this.base()}${path}`, { method: "POST", body, key });
  }
  // Through the outbox (connection.js). A refused batch keeps what was sent, so its refusal names each entry
  // (refusal.js); `label` stays on the page, and names the entry while it waits on this phone.
  // Each entry the page built is first held to the shape the service describes for its type (shapes.js); entries
  // the table typed or loaded from a file (`typed`) go as they are, for the service to refuse in its own words.
  /**
   * @param {any[]} events
   * @param {{ typed?: boolean }} [how]
   */
  appendEvents(events, { typed = false } = {}) {
    const sent = events.map(({ label, ...e }) => e);
    const label =
      events
        .map(e => e.label)
        .filter(Boolean)
        .join(" ") || undefined;
    let checked;
    try {
      checked = typed ? sent : shaped(this.game, sent);
    } catch (error) {
      return Promise.reject(Object.assign(error, { events }));
    }
    return this.connection.submit("/events", { events: checked }, label).catch(error => {
      error.events = events;
      throw error;
    });
  }
  name(member) {
    return this.members.get(member) || "someone";
  }
  canWrite() {
    return this.at === null && (this.me.role === "owner" || this.me.role === "player");
  }

  render() {
    heading(`${this.summary.name} · ${this.kind.title}`);
    this.tabs = h("nav", { class: "tabs", role: "tablist", "aria-label": "Views" });
    const names = [
      ["glance", this.kind.glanceName],
      ["setup", "Set up"],
      ["play", "Play and log"],
      ["dice", "Dice luck"],
      ["crew", "Members"],
    ];
    for (const [key, label] of names) {
      this.tabs.append(
        h(
          "button",
          { role: "tab", "data-tab": key, "aria-selected": String(this.tab === key), onclick: () => this.show(key) },
          label,
        ),
      );
    }
    this.slider = h("input", {
      type: "range",
      min: 1,
      max: this.position,
      value: this.at ?? this.position,
      "aria-label": "Look back to position",
      oninput: () => (this.picked.textContent = this.slider.value),
      onchange: () => this.lookBack(Number(this.slider.value)),
    });
    this.picked = h("output", {}, String(this.at ?? this.position));
    this.nowButton = h(
      "button",
      { type: "button", onclick: () => this.lookBack(null), hidden: this.at === null },
      "Back to now",
    );
    this.banner = h("p", { class: "banner", role: "status", hidden: this.at === null });
    this.panel = h("section", { id: "panel", role: "tabpanel" });
    main.replaceChildren(
      h(
        "div",
        { class: "lookback" },
        h(
          "div",
          {},
          h("label", {}, "Position ", this.picked, " of ", h("span", { id: "latest" }, this.position)),
          this.slider,
        ),
        this.nowButton,
      ),
      this.banner,
      this.tabs,
      this.panel,
    );
    this.updateBanner();
    return this.show(this.tab);
  }

  updateBanner() {
    this.banner.hidden = this.at === null;
    this.nowButton.hidden = this.at === null;
    this.banner.textContent =
      this.at === null
        ? ""
        : `Looking back: every view shows the campaign as it was at position ${this.at}. Go back to now to log play.`;
  }

  lookBack(at) {
    this.at = at !== null && at < this.position ? at : null;
    const url = new URL(location.href);
    if (this.at === null) url.searchParams.delete("at");
    else url.searchParams.set("at", String(this.at));
    history.replaceState(null, "", url);
    this.slider.value = this.at ?? this.position;
    this.picked.textContent = String(this.at ?? this.position);
    this.updateBanner();
    this.show(this.tab);
  }

  async show(tab) {
    // Drawn again (something new in the log): what is typed and chosen in it is put back.
    const typed = tab === this.tab ? typedIn(this.panel) : null;
    this.tab = tab;
    this.onChange = null;
    for (const button of this.tabs.children) button.setAttribute("aria-selected", String(button.dataset.tab === tab));
    const panel = h("div", {});
    this.panel.replaceChildren(panel);
    // The fields the player types into while the tab is being drawn keep what she typed (putBack).
    const touched = new Set();
    const mark = (/** @type {Event} */ event) => touched.add(event.target);
    panel.addEventListener("input", mark);
    panel.addEventListener("change", mark);
    try {
      await this.draw(tab, panel);
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
      panel.append(
        h(
          "p",
          { class: "refusal", role: "alert" },
          `${error.message} This view was not kept on this phone, so it shows when the server answers.`,
        ),
      );
    }
    panel.removeEventListener("input", mark);
    panel.removeEventListener("change", mark);
    putBack(panel, typed, touched);
  }

  async draw(tab, panel) {
    if (tab === "glance") {
      await this.kind.glance.render(panel, this);
      if (this.kind.paperwork) await this.kind.paperwork.render(panel, this);
      await played.render(panel, this);
      posts.render(panel, this, await this.kind.glance.forum(this));
    } else if (tab === "setup") {
      if (this.canWrite()) await (await tabs.setup()).render(panel, this);
      else
        panel.append(
          h(
            "p",
            { class: "quiet" },
            this.at !== null ? "Go back to now to set up the game." : "Only the owner and the players set up the game.",
          ),
        );
    } else if (tab === "play") {
      // The log (and what waits on this phone) shows even when the moves cannot be drawn without the server.
      try {
        if (this.canWrite()) await (await tabs.moves()).render(panel, this);
      } finally {
        panel.append(this.log.element());
      }
    } else if (tab === "dice") await (await tabs.dice()).luck(panel, this);
    else if (tab === "crew") await (await tabs.crew()).render(panel, this);
  }

  // Something new in the log: bring the open view up to date, a little later so a burst refreshes once.
  changed() {
    document.getElementById("latest").textContent = this.position;
    this.slider.max = this.position;
    if (this.at === null) {
      this.slider.value = this.position;
      this.picked.textContent = String(this.position);
    }
    if (this.at !== null) return;
    clearTimeout(this.refreshing);
    // The play and set-up tabs keep what is being typed: only the choices they offer (who, which cards, the open
    // chapter) are renewed from the current state.
    const keeps = this.tab === "play" || this.tab === "setup";
    this.refreshing = setTimeout(async () => {
      const position = this.position;
      await (keeps ? this.onChange?.() : this.show(this.tab));
      this.panel.dataset.position = position; // the position the open view was last brought up to
    }, 150);
  }

  follow() {
    const source = new EventSource(rooted(`${this.base()}/stream?after=${this.log.latest()}&views=true`));
    source.addEventListener("views", message => this.fresh.take(message.data));
    source.addEventListener("event", message => {
      const recorded = JSON.parse(message.data);
      if (recorded.type === "member.joined") this.members.set(recorded.data.member_id, recorded.data.name);
      this.position = Math.max(this.position, recorded.position);
      this.log.add(recorded);
      this.changed();
    });
    // Whether this phone is following the log right now, for the players and for the tests alike.
    this.connection.follow(source);
    // The server is stopping: not a lost connection to retry at once, but a server to wait for.
    source.addEventListener("closing", () => {
      source.close();
      const back = () =>
        fetch(rooted("/healthz"))
          .then(r => (r.ok ? this.follow() : Promise.reject()))
          .catch(() => setTimeout(back, 2000));
      setTimeout(back, 2000);
    });
    // The member was revoked or their join link replaced: the server says why, and this page stops following.
    source.addEventListener("ended", message => {
      source.close();
      this.connection.cut(JSON.parse(message.data).detail);
    });
    this.source = source;
  }
}

async function campaign(id) {
  let summary, tables;
  try {
    [summary, { tables }] = await Promise.all([api(`/v1/campaigns/${id}`), api("/session")]);
  } catch (error) {
    if (!(error instanceof Refusal || error instanceof Unreachable)) throw error;
    const place = h("p", { class: "refusal", role: "alert" });
    if (error instanceof Refusal) refuse(place, error);
    else place.textContent = error.message;
    main.replaceChildren(place, h("p", {}, h("a", { href: rooted("/") }, "Your campaigns")));
    return;
  }
  const me = tables.find(t => t.campaign === id);
  const table = new Table(summary, { id: me.member_id, name: me.member, role: me.role });
  window.quartermaster = table;
  // The open view first, then the log and the stream, which starts where the log's first page ends: that page is the
  // largest read (up to 300 events, each with its sentence), and the view a phone opens on does not need it.
  await table.render().finally(() => {
    tabs.all().catch(error => console.warn("The other tabs' modules are not loaded yet:", error));
    learnWords(table.game).catch(error => console.warn("Refusals name event types as the server does:", error));
    described(table.game).catch(error => console.warn("Writes are held to the event types' shapes:", error));
    return table.log.load().then(() => {
      table.log.draw();
      table.follow();
    });
  });
}

async function route() {
  const path = here();
  if (path === "/join") return join();
  const match = path.match(/^\/c\/([0-9a-f-]{36})$/);
  if (match) return campaign(match[1]);
  return home();
}

window.addEventListener("popstate", () => route());
route();
