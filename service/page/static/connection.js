// @ts-check
// The phone and the server: whether they are in touch (the live indicator says it, truthfully), since when the page
// shows what it last saw (the banner), and the writes that wait on this phone until the server answers (outbox.js).
// The writes are sent again whenever the server may be back: the browser's `online` event, the live stream opening
// again, the page coming to the front, and a timer while anything waits. Background Sync and the service worker
// are not relied on: on a table's LAN page over http there is no service worker at all.
import { h, onStale, Refusal, Queued } from "./api.js";
import { PATIENCE } from "./action.js";
import { Outbox, Unsent } from "./outbox.js";
import { rooted } from "./root.js";

const RETRY = 3000,
  RETRY_MOST = 15000;

// The page's files for a reload without the server (sw.js). Browsers allow a service worker only in a secure context
// (https, or localhost); elsewhere the page still keeps its reads and its queue, but a reload needs the server.
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker
    .register(rooted("/sw.js"))
    .catch(error => console.warn("The page's files are not kept for offline use:", error));
}

function clock(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

export class Connection {
  constructor(table) {
    this.table = table;
    this.streaming = false;
    // Whether the stream has opened or failed since the page opened: until then the page is connecting, which is
    // not being away (no banner), so the first paint is not a warning that goes a moment later.
    this.followed = false;
    this.answering = true; // the last request got an answer
    this.asOf = null; // the time of what the page shows, while it is not in touch; null when live
    this.timer = null;
    this.outbox = new Outbox({ campaign: table.id, storage: localStorage, send: entry => this.send(entry) });
    this.outbox.on((what, entry, detail) => this.heard(what, entry, detail));
    this.banner = h("p", { id: "offline", class: "banner offline", role: "status", hidden: true });
    document.querySelector("header.bar").after(this.banner);
    onStale(at => {
      this.answering = false;
      this.asOf = Math.min(this.asOf ?? at, at);
      this.show();
    });
    window.addEventListener("online", () => {
      this.show();
      this.probe();
    });
    window.addEventListener("offline", () => this.lost());
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.flush();
    });
    // Another tab of this campaign queued or sent something: show it here too.
    window.addEventListener("storage", event => {
      if (event.key === this.outbox.key) this.table.log.draw();
      this.show();
    });
    // Entries kept from before a reload go as soon as the server answers, stream or not.
    this.show();
    this.flush();
  }

  async send(entry) {
    if (!navigator.onLine) throw new Unsent();
    const headers = { "X-Quartermaster": "page", "Content-Type": "application/json" };
    if (entry.key) headers["Idempotency-Key"] = entry.key;
    const answer = await fetch(rooted(`${this.table.base()}${entry.path}`), {
      method: "POST",
      headers,
      credentials: "same-origin",
      body: JSON.stringify(entry.body),
      signal: AbortSignal.timeout(10000),
    });
    const type = answer.headers.get("content-type") || "";
    const content = type.includes("json") ? await answer.json() : { detail: await answer.text() };
    const retryAfter = Number(answer.headers.get("retry-after"));
    if (retryAfter > 0) content.retry_after = retryAfter;
    return { status: answer.status, content };
  }

  // Whether the server answers, when the browser says the network is back but the stream never broke.
  async probe() {
    if (this.outbox.waiting().length) return this.flush();
    try {
      const answer = await fetch(rooted(this.table.base()), {
        credentials: "same-origin",
        signal: AbortSignal.timeout(10000),
      });
      if (answer.ok) this.contact();
      else this.lost();
    } catch {
      this.lost();
    }
    this.show();
    return undefined;
  }

  // Send what waits now, and again later for as long as something waits and the server does not answer.
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.outbox.waiting().length) return Promise.resolve("empty");
    return this.outbox.flush().then(ended => {
      if (ended === "again" && !this.timer) {
        const last = this.outbox.last || { status: undefined, content: undefined };
        const tries = this.outbox.waiting()[0]?.tries || 1;
        const wait = last.content?.retry_after ? last.content.retry_after * 1000 : Math.min(RETRY * tries, RETRY_MOST);
        this.timer = setTimeout(() => this.flush(), wait);
      }
      return ended;
    });
  }

  heard(what, _entry, detail) {
    if (what === "recorded") {
      this.contact();
      for (const e of detail?.events || []) this.table.log.add(e, { soft: true });
      if (detail?.last_position) {
        this.table.position = Math.max(this.table.position, detail.last_position);
        this.table.changed();
      }
    } else if (what === "refused") this.contact();
    else if (what === "again") {
      if (this.outbox.last?.status === null) this.lost();
      else this.contact();
    }
    this.table.log.draw();
    this.show();
  }

  // An answer came: the server is there. A page that showed kept reads brings its views up to date.
  contact() {
    const wasStale = this.asOf !== null;
    this.answering = true;
    if (this.streaming) this.asOf = null;
    if (wasStale && this.asOf === null) this.table.changed();
  }

  lost() {
    this.answering = false;
    this.asOf ??= Date.now();
    this.show();
  }

  // The live stream: `follow` hands it over as it opens it.
  follow(source) {
    source.addEventListener("open", () => {
      this.streaming = true;
      this.followed = true;
      this.stopped = false;
      this.contact();
      this.show();
      this.flush();
    });
    // The server says it is stopping (app.js waits for it to be back, then follows again).
    source.addEventListener("closing", () => {
      this.streaming = false;
      this.followed = true;
      this.stopped = true;
      this.asOf ??= Date.now();
      this.show();
    });
    source.addEventListener("error", () => {
      this.streaming = false;
      this.followed = true;
      this.asOf ??= Date.now();
      this.show();
      // A stream answered with an error (a 503 while the database is away) is closed for good: open a new one.
      if (source.readyState === EventSource.CLOSED && !this.stopped && !this.revoked)
        setTimeout(() => {
          if (this.table.source === source) this.table.follow();
        }, RETRY);
    });
  }

  // The server ended the stream for good (the member revoked, or their join link replaced): say why, in words, and
  // follow no more.
  cut(why) {
    this.revoked = why;
    this.streaming = false;
    this.followed = true;
    this.show();
  }

  state() {
    if (this.revoked) return ["revoked", "no longer following"];
    if (!navigator.onLine) return ["offline", "offline"];
    if (this.stopped) return ["stopped", "server stopped; following again when it is back"];
    if (!this.streaming && !this.followed && this.answering) return ["connecting", "connecting…"];
    if (!this.streaming) return ["lost", "reconnecting…"];
    if (!this.answering) return ["lost", "server unreachable"];
    return ["live", "live"];
  }

  show() {
    const [state, words] = this.state();
    const waiting = this.outbox.waiting().length,
      refused = this.outbox.refused().length;
    const live = document.getElementById("live");
    const more = [waiting ? `${waiting} not saved yet` : "", refused ? `${refused} refused` : ""].filter(Boolean);
    live.textContent = [words, ...more].join(" · ");
    live.dataset.state = state;
    live.dataset.waiting = String(waiting);
    const away = (state !== "live" && state !== "connecting") || this.asOf !== null;
    this.banner.hidden = !away && !waiting;
    if (this.revoked) {
      this.banner.textContent = this.revoked;
      this.banner.setAttribute("role", "alert");
    } else if (away) {
      const when = this.asOf ?? Date.now();
      this.banner.textContent =
        `${state === "offline" ? "This phone is offline" : "The server is not answering"}: ` +
        `the page shows the campaign as of ${clock(when)}${this.table.position ? ` (position ${this.table.position})` : ""}. ` +
        `Entries you make now wait on this phone and are sent, in order, when the server answers${waiting ? ` (${waiting} waiting)` : ""}.`;
    } else if (waiting) {
      this.banner.textContent = `Sending ${waiting} ${waiting === 1 ? "entry" : "entries"} made on this phone…`;
    }
  }

  // Why an entry waits, in words, for the control that made it.
  why(entry, timedOut) {
    const last = this.outbox.last || { status: undefined, content: undefined };
    const reason = timedOut
      ? "the server has not answered in 3 seconds"
      : last.status === null
        ? navigator.onLine
          ? "the server cannot be reached"
          : "this phone is offline"
        : `the server could not record it just now (${last.status}${last.content?.detail ? `: ${last.content.detail}` : ""})`;
    const serverRoll = entry.path === "/rolls" && !entry.body.faces;
    const waiting = this.outbox.waiting().length;
    return (
      `${serverRoll ? "Not rolled yet" : "Not saved yet"}: ${reason}. It waits on this phone, at the top of the log, ` +
      `and is sent${serverRoll ? " (and rolled by the server)" : ""} when the server answers, in the order made ` +
      `(${waiting} waiting), with the same ids, so it is never recorded twice.`
    );
  }

  // A write from a control: kept first, then sent. Resolves with the server's answer if it is recorded within
  // 3 seconds; rejects with the server's Refusal (the entry is then dropped: the control shows why and keeps what
  // was typed), or with Queued, saying why it waits, while the outbox keeps sending it.
  submit(path, body, label) {
    const table = this.table;
    const entry = this.outbox.add({ path, body, label, made_at: table.position, actor: table.me.id });
    return new Promise((resolve, reject) => {
      let open = true;
      const finish = then => {
        if (open) {
          open = false;
          stop();
          clearTimeout(timer);
          then();
        }
      };
      const stop = this.outbox.on((what, e, detail) => {
        if (what === "recorded" && e.local === entry.local) finish(() => resolve(detail));
        else if (what === "refused" && e.local === entry.local) {
          finish(() => {
            this.outbox.drop(entry.local);
            reject(
              new Refusal(e.status, e.problem, {
                path: `${table.base()}${entry.path}`,
                method: "POST",
                body: entry.body,
              }),
            );
          });
        } else if (what === "again") finish(() => reject(new Queued(this.why(entry, false))));
      });
      const timer = setTimeout(() => finish(() => reject(new Queued(this.why(entry, true)))), PATIENCE);
      table.log.draw();
      this.show();
      this.flush();
    });
  }
}
