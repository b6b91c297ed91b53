// @ts-check
// The outbox: every write this phone makes to the log waits here, in the page's own storage (localStorage, so it
// survives a reload and a closed tab and needs no service worker), until the server has recorded it or refused it.
//
// An entry is stored before it is sent, and it is sent with ids made here: its events' ids (POST /events) or an
// Idempotency-Key (POST /rolls). A resend of a batch the server already recorded is answered with what it recorded
// (200), so sending again whenever the outcome is not known (no answer, a timeout, a 503 that cannot tell whether
// it wrote, a reload while a request was in flight) records it once at most. Entries go one at a time, in the order
// they were made: the next is sent only once the one before it is recorded or refused.
//
// What a queued entry is checked against: the campaign's state when it arrives, not the position it was made at.
// It is sent without `expected_position`, as the page sends every entry, so the fold checks it against everything
// recorded before it (other phones' entries included) and refuses it, with the rule's sentence, only if it no
// longer fits (a card another phone discarded meanwhile). At a table the order entries reach the log is the order
// things happened closely enough, and refusing every entry made during an outage because another phone wrote is
// what would lose the table's writes. `made_at` keeps the position it was made at, to say so beside a refusal.
//
// This module touches no page: storage, sending and time come in, so the same code runs under node in the tests.

// What an answer means for the entry: recorded, refused (the server said no, with a sentence), or again (nothing
// is known: send it again with the same ids). `status` is null when no answer came.
export function verdict(status) {
  if (status === null || status === undefined) return "again";
  if (status >= 200 && status < 300) return "recorded";
  if (status >= 500 || status === 408 || status === 429) return "again";
  return "refused";
}

// A random (version 4) UUID. crypto.randomUUID exists only in a secure context; a table's LAN page over http is not.
export function uuid(crypto = globalThis.crypto) {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map(n => n.toString(16).padStart(2, "0")).join("");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

// The error a send throws when it did not even try (the browser knows it has no network).
export class Unsent extends Error {
  constructor() {
    super("This phone is offline: nothing was sent.");
    this.unsent = true;
  }
}

export class Outbox {
  // send(entry) resolves {status, content} for any answer and rejects when none came; with an error whose
  // `unsent` is true when it knows the request never left (the phone is offline).
  constructor({ campaign, storage, send, clock = () => Date.now(), crypto = globalThis.crypto }) {
    this.key = `qm.outbox:${campaign}`;
    this.storage = storage;
    this.send = send;
    this.clock = clock;
    this.crypto = crypto;
    this.listeners = new Set();
    this.flushing = null;
    /** @type {{ verdict: string, status: number | null, content: any } | null} what the last attempt ended as */
    this.last = null;
  }

  // Always read from storage: another tab of the same campaign may have sent or added entries.
  all() {
    try {
      return JSON.parse(this.storage.getItem(this.key) || "[]");
    } catch {
      return [];
    }
  }

  write(entries) {
    if (entries.length) this.storage.setItem(this.key, JSON.stringify(entries));
    else this.storage.removeItem(this.key);
  }

  change(local, edit) {
    const entries = this.all();
    const at = entries.findIndex(e => e.local === local);
    if (at < 0) return null;
    const changed = edit(entries[at]);
    if (changed === null) entries.splice(at, 1);
    else entries[at] = changed;
    this.write(entries);
    return entries[at] ?? null;
  }

  on(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(what, entry, detail) {
    for (const listener of this.listeners) listener(what, entry, detail);
  }

  waiting() {
    return this.all().filter(e => e.state === "waiting");
  }
  refused() {
    return this.all().filter(e => e.state === "refused");
  }

  // Keep a write: `path` under the campaign (/events or /rolls), its body, a label the log shows until the server's
  // sentence replaces it, and the position the phone had seen. Stored before anything is sent.
  add({ path, body, label, made_at = null, actor = null }) {
    const entry = {
      local: uuid(this.crypto),
      path,
      label,
      made_at,
      actor,
      made: this.clock(),
      state: "waiting",
      tries: 0,
      body: this.identified(path, body),
      key: path === "/events" ? null : uuid(this.crypto),
    };
    this.write([...this.all(), entry]);
    this.emit("added", entry);
    return entry;
  }

  identified(path, body) {
    if (path !== "/events") return body;
    return { ...body, events: body.events.map(e => ({ ...e, id: e.id || uuid(this.crypto) })) };
  }

  // Send what waits, in order, one at a time; one flush at a time per page. Resolves with how it ended: "empty"
  // (nothing waits) or "again" (no answer or a passing failure: the caller tries again later).
  flush() {
    if (!this.flushing)
      this.flushing = this.run().finally(() => {
        this.flushing = null;
      });
    return this.flushing;
  }

  async run() {
    for (;;) {
      const next = this.waiting()[0];
      if (!next) return "empty";
      let status = null,
        content = null,
        unsent = false;
      try {
        ({ status, content } = await this.send(next));
      } catch (error) {
        status = null;
        unsent = error?.unsent === true;
      }
      const ended = verdict(status);
      this.last = { verdict: ended, status, content };
      if (ended === "again") {
        // `sent`: it may have reached the server, which may have recorded it. Only an entry never sent can be taken
        // back by dropping it; one that may be recorded is sent again until the server says which.
        this.change(next.local, e => ({ ...e, tries: e.tries + 1, sent: e.sent || !unsent }));
        this.emit("again", next, this.last);
        return "again";
      }
      if (ended === "recorded") {
        this.change(next.local, () => null);
        this.emit("recorded", next, content);
      } else {
        const problem = content && typeof content === "object" ? content : { detail: String(content || "") };
        const refused = this.change(next.local, e => ({
          ...e,
          state: "refused",
          status,
          problem,
          refused: this.clock(),
        }));
        // Another tab may have dropped it meanwhile; then there is nothing left to show.
        this.emit("refused", refused || { ...next, state: "refused", status, problem }, content);
      }
    }
  }

  // Whether the player may take a waiting entry back by dropping it: only if it never left this phone.
  takeable(local) {
    const entry = this.all().find(e => e.local === local);
    return (
      Boolean(entry) &&
      entry.state === "waiting" &&
      !entry.sent &&
      !(this.flushing && this.waiting()[0]?.local === local)
    );
  }

  // The player's answer to a refusal: drop the entry, or send it again (edited or not) after whatever waits.
  drop(local) {
    const dropped = this.all().find(e => e.local === local);
    this.change(local, () => null);
    if (dropped) this.emit("dropped", dropped);
    return dropped || null;
  }

  retry(local, body = null) {
    const entries = this.all();
    const at = entries.findIndex(e => e.local === local);
    if (at < 0) return null;
    const old = entries[at];
    // An edited entry is a new write: new ids (the server refuses an id recorded with other content) and a new key.
    const fresh =
      body === null
        ? old
        : { ...old, body: this.identified(old.path, stripIds(old.path, body)), key: old.key && uuid(this.crypto) };
    const again = { ...fresh, state: "waiting", tries: 0, problem: undefined, status: undefined, refused: undefined };
    entries.splice(at, 1);
    entries.push(again);
    this.write(entries);
    this.emit("added", again);
    return again;
  }
}

function stripIds(path, body) {
  if (path !== "/events") return body;
  return { ...body, events: body.events.map(({ id, ...e }) => e) };
}
