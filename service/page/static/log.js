// @ts-check
// The log: newest first, as sentences, live; undone entries struck through with who undid them.
import { api, h, title, Refusal, Unreachable } from "./api.js";
import { action } from "./action.js";
import { uuid } from "./outbox.js";
import { refuse, inWords } from "./refusal.js";

const MARKERS = new Set(["event.undone", "event.redone"]);
const PERMANENT = new Set(["campaign.started", "member.joined"]);
const SHOWN = 300;

function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// An event the server has not told yet: an entry still waiting on this phone, or an append's own answer until the
// stream brings the event with its sentence. Its type and plain fields only: the sentences are the server's.
function unsaid(e) {
  const facts = Object.entries(e.data || {})
    .filter(([, v]) => v !== null && typeof v !== "object")
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`);
  return `${title(e.type)}${facts.length ? `: ${facts.join(", ")}` : ""}.`;
}

function quoted(e) {
  return `#${e.position} “${e.sentence || unsaid(e)}”`;
}
function ago(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// What a waiting entry says until the server's sentence replaces it.
export function describe(entry) {
  const b = entry.body || {};
  if (entry.label) return entry.label;
  if (entry.path === "/rolls") {
    const what = `${b.expression}${b.purpose ? ` for ${b.purpose}` : ""}${b.character_id ? ` (${cap(b.character_id)})` : ""}`;
    return b.faces ? `Dice thrown at the table: ${what}, faces ${b.faces.join(", ")}.` : `Roll ${what} on the server.`;
  }
  return (b.events || []).map(unsaid).join(" ");
}

export class Log {
  constructor(table) {
    this.table = table;
    this.entries = new Map();
    this.list = h("ol", { class: "log", "aria-label": "Log, newest first" });
    // Per entry, what is being asked or said about it (an undo to confirm, its outcome): kept across redraws.
    this.notes = new Map();
  }

  latest() {
    return Math.max(0, ...this.entries.keys());
  }

  async load() {
    const after = Math.max(0, this.table.position - SHOWN);
    try {
      const page = await api(`${this.table.base()}/events?after=${after}&limit=1000`);
      for (const e of page.events) this.entries.set(e.position, e);
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
    }
  }

  // `soft`: an append's own answer, which carries no sentence: it never replaces what the stream already brought.
  add(e, { soft = false } = {}) {
    if (soft && this.entries.has(e.position)) return;
    const known = this.entries.get(e.position);
    if (known && known.undone_by !== undefined && e.undone_by === undefined) e.undone_by = known.undone_by;
    this.entries.set(e.position, e);
    if (e.type === "event.undone")
      for (const t of e.data.targets) {
        const x = this.entries.get(t);
        if (x) x.undone_by = e.position;
      }
    if (e.type === "event.redone")
      for (const t of e.data.targets) {
        const x = this.entries.get(t);
        if (x) x.undone_by = null;
      }
    this.draw();
  }

  note(key) {
    if (!this.notes.has(key)) this.notes.set(key, h("div", { class: "note" }));
    return this.notes.get(key);
  }

  batchOf(e) {
    return [...this.entries.values()].filter(x => x.batch === e.batch).sort((a, b) => a.position - b.position);
  }

  counts(e) {
    return !MARKERS.has(e.type) && !PERMANENT.has(e.type) && (e.undone_by === null || e.undone_by === undefined);
  }

  // "My last": an entry of mine still waiting on this phone, else my latest recorded batch that still counts. A
  // refused entry never counts: it was never recorded, and undoing "my last" after one must not reach past it.
  async mine() {
    const table = this.table;
    const waiting = table.outbox
      .waiting()
      .filter(e => e.actor === table.me.id)
      .at(-1);
    if (waiting) return { waiting };
    const mine = [...this.entries.values()].filter(e => e.actor === table.me.id && this.counts(e));
    if (mine.length) return { recorded: this.batchOf(mine.reduce((a, b) => (a.position > b.position ? a : b))) };
    // Nothing of mine among the entries this page holds: ask the log for all of mine.
    let after = 0,
      last = null;
    for (;;) {
      const page = await api(
        `${table.base()}/events?member=${encodeURIComponent(table.me.id)}&after=${after}&limit=1000`,
      );
      for (const e of page.events) if (this.counts(e)) last = e;
      if (page.next === null || !page.events.length) break;
      after = page.next;
    }
    if (!last) return null;
    const batch = (await api(`${table.base()}/events?after=${last.position - 1}&limit=1000`)).events.filter(
      e => e.batch === last.batch,
    );
    return { recorded: batch };
  }

  element() {
    const table = this.table;
    const section = h("section", { "aria-labelledby": "log-heading" }, h("h2", { id: "log-heading" }, "Log"));
    if (table.canWrite()) {
      const asking = this.note("mine");
      const undo = action(
        "Undo my last",
        async () => {
          const found = await this.mine();
          if (!found) return "There is nothing of yours to undo.";
          if (found.waiting) this.askTakeBack(asking, found.waiting);
          else this.askUndo(asking, found.recorded);
          return undefined;
        },
        { primary: false },
      );
      const redo = action(
        "Redo my last",
        async () => {
          const done = await table.write("/redo", { mine: true }, uuid());
          return `Redone: ${this.told(done.redone)}.`;
        },
        { primary: false },
      );
      section.append(h("div", { class: "buttons" }, undo.el, redo.el), asking);
    }
    // Looking back without scrolling: the entries that name what is searched, or a position to look back to.
    const find = h("input", {
      type: "search",
      autocomplete: "off",
      "aria-label": "Find in the log",
      placeholder: "A card, a name, or #40",
      value: this.search || "",
      oninput: () => {
        this.search = find.value.trim().toLowerCase();
        this.draw();
      },
    });
    const jump = h("input", { type: "number", inputmode: "numeric", min: 1, "aria-label": "Position to look back to" });
    const go = h(
      "button",
      {
        type: "button",
        onclick: () => {
          const at = Math.trunc(Number(jump.value));
          if (at >= 1) table.lookBack(Math.min(at, table.position));
        },
      },
      "Look back to it",
    );
    section.append(h("div", { class: "row" }, find, h("div", { class: "buttons" }, jump, go)), this.list);
    this.draw();
    return section;
  }

  // Whether an entry answers the search: "#40" its position, else words of its sentence or of who logged it.
  found(e) {
    const wanted = this.search;
    if (!wanted) return true;
    if (/^#\d+$/.test(wanted)) return `#${e.position}` === wanted;
    const said = `${e.sentence || unsaid(e)} ${this.table.name(e.actor)}`.toLowerCase();
    return said.includes(wanted);
  }

  told(positions) {
    return positions.map(p => (this.entries.has(p) ? quoted(this.entries.get(p)) : `#${p}`)).join(", ");
  }

  // Ask before undoing: the entries of the batch, in the server's sentences, and who logged them. A conflict with
  // later entries is shown with them; undoing those too is offered there, already confirmed.
  askUndo(into, batch) {
    const table = this.table;
    const first = batch[0];
    const keys = { false: uuid(), true: uuid() };
    const said = h("p", { class: "refusal", role: "alert" });
    const dialog = h(
      "div",
      { class: "confirm card", role: "dialog", "aria-label": "Confirm the undo" },
      h("p", {}, `Undo ${batch.length > 1 ? "these entries" : "this entry"}, logged by ${table.name(first.actor)}?`),
      h(
        "ul",
        { class: "plain" },
        batch.map(e => h("li", {}, quoted(e))),
      ),
    );
    const yes = h("button", { type: "button", class: "primary" }, "Undo it");
    const no = h("button", { type: "button", onclick: () => into.replaceChildren() }, "Keep it");
    const run = async cascade => {
      said.textContent = "";
      yes.disabled = true;
      const slow = setTimeout(() => {
        said.textContent =
          "No answer from the server after 3 seconds: still waiting for it. Nothing is undone until it answers.";
      }, 3000);
      try {
        const done = await table.write("/undo", { batch: first.batch, cascade }, keys[cascade]);
        into.replaceChildren(
          h(
            "p",
            { class: "done", role: "status" },
            `Undone: ${this.told(done.undone)}, logged by ${table.name(first.actor)}.`,
          ),
        );
      } catch (error) {
        if (error instanceof Unreachable) {
          said.textContent =
            "Not undone yet: the server cannot be reached, so the undo may not have reached it. " +
            "Tap Undo it again when the server answers: it is sent with the same key, so it is done once at most.";
        } else if (error instanceof Refusal) {
          refuse(said, error);
          if (error.status === 409 && !cascade && String(error.problem.type).endsWith("/undo-conflict")) {
            said.append(
              " ",
              h(
                "button",
                {
                  type: "button",
                  "aria-label": `Undo #${first.position} with everything that depends on it`,
                  onclick: () => run(true),
                },
                "Undo with what depends on it",
              ),
            );
          }
        } else throw error;
      } finally {
        clearTimeout(slow);
        yes.disabled = false;
      }
    };
    yes.addEventListener("click", () => run(false));
    dialog.append(h("div", { class: "buttons" }, yes, no), said);
    into.replaceChildren(dialog);
  }

  // My last entry has not reached the server: taking it back is dropping it from this phone, if it never left it.
  // One that was sent without an answer may be recorded: it is sent again until the server says, then undone.
  askTakeBack(into, entry) {
    const outbox = this.table.outbox;
    const takeable = outbox.takeable(entry.local);
    const dialog = h(
      "div",
      { class: "confirm card", role: "dialog", "aria-label": "Confirm the undo" },
      h(
        "p",
        {},
        takeable
          ? `Take back “${describe(entry)}”? It is still on this phone: the server has not recorded it.`
          : `“${describe(entry)}” has been sent and the server has not said yet whether it recorded it: ` +
              "undo it once it shows in the log with its position.",
      ),
    );
    const no = h("button", { type: "button", onclick: () => into.replaceChildren() }, takeable ? "Keep it" : "Close");
    const yes = h(
      "button",
      {
        type: "button",
        class: "primary",
        onclick: () => {
          const dropped = outbox.takeable(entry.local) ? outbox.drop(entry.local) : null;
          into.replaceChildren(
            h(
              "p",
              { class: "done", role: "status" },
              dropped ? `Taken back: “${describe(entry)}” was never sent.` : "It was sent meanwhile: see the log.",
            ),
          );
        },
      },
      "Take it back",
    );
    dialog.append(h("div", { class: "buttons" }, takeable ? yes : null, no));
    into.replaceChildren(dialog);
  }

  // The entries waiting on this phone and those the server refused, newest first, above the recorded ones.
  pending() {
    const table = this.table;
    // An entry the stream has already brought as recorded, whose own answer is still on its way, shows once: as
    // recorded, at its position.
    const recorded = new Set([...this.entries.values()].map(e => e.id));
    const shown = table.outbox
      .all()
      .filter(e => !(e.path === "/events" && e.body.events.every(x => recorded.has(x.id))));
    return shown.reverse().map(entry => {
      const refused = entry.state === "refused";
      const what = h(
        "div",
        { class: "what" },
        h("span", { class: "sentence" }, describe(entry)),
        " ",
        h("span", { class: "who" }, `— ${table.name(entry.actor)}`),
      );
      if (refused) {
        const since =
          entry.made_at !== null && table.position > entry.made_at
            ? ` It was made at position ${entry.made_at}; the log was at ${table.position} when it was checked.`
            : "";
        what.append(
          h(
            "p",
            { class: "refusal", role: "alert" },
            `Refused, not recorded: ${entry.problem?.detail ? inWords(entry.problem.detail) : `the server answered ${entry.status}.`}${since}`,
          ),
          this.refusedControls(entry),
        );
      } else {
        what.append(
          h(
            "div",
            { class: "who" },
            `Not saved yet: waiting on this phone since ${ago(entry.made)}${entry.tries ? `, tried ${entry.tries} time${entry.tries > 1 ? "s" : ""}` : ""}.`,
          ),
        );
      }
      return h(
        "li",
        { class: refused ? "refused" : "pending", "data-local": entry.local },
        h("span", { class: "pos" }, refused ? "✕" : "…"),
        what,
      );
    });
  }

  refusedControls(entry) {
    const outbox = this.table.outbox;
    const editor = this.note(`edit:${entry.local}`);
    const drop = h(
      "button",
      { type: "button", "aria-label": `Drop “${describe(entry)}”`, onclick: () => outbox.drop(entry.local) },
      "Drop it",
    );
    const again = h(
      "button",
      {
        type: "button",
        "aria-label": `Send “${describe(entry)}” again`,
        onclick: () => {
          outbox.retry(entry.local);
          this.table.connection.flush();
        },
      },
      "Send again",
    );
    const edit = h(
      "button",
      { type: "button", "aria-label": `Edit “${describe(entry)}”`, onclick: () => this.edit(editor, entry) },
      "Edit",
    );
    return h("div", {}, h("div", { class: "buttons" }, drop, edit, again), editor);
  }

  // Edit a refused entry field by field (structured fields as JSON), then send it again as a new entry.
  edit(into, entry) {
    const objects = entry.path === "/events" ? entry.body.events.map(e => e.data || {}) : [entry.body];
    const inputs = [];
    const groups = objects.map((data, i) =>
      h(
        "fieldset",
        {},
        h("legend", {}, entry.path === "/events" ? title(entry.body.events[i].type) : "The roll"),
        Object.entries(data).map(([name, value]) => {
          const input = h("input", {
            autocomplete: "off",
            value: typeof value === "object" ? JSON.stringify(value) : String(value),
          });
          inputs.push({ i, name, value, input });
          const id = `e${Math.random().toString(36).slice(2, 9)}`;
          input.id = id;
          return h("div", {}, h("label", { for: id }, title(name)), input);
        }),
      ),
    );
    const said = h("p", { class: "refusal", role: "alert" });
    const send = h(
      "button",
      {
        type: "button",
        class: "primary",
        onclick: () => {
          const edited = objects.map(d => ({ ...d }));
          try {
            for (const { i, name, value, input } of inputs) {
              const raw = input.value.trim();
              edited[i][name] =
                typeof value === "number"
                  ? Number(raw)
                  : typeof value === "boolean"
                    ? raw === "true"
                    : typeof value === "object" && value !== null
                      ? JSON.parse(raw)
                      : raw;
            }
          } catch (error) {
            said.textContent = `A field does not read as it should: ${error.message}`;
            return;
          }
          const body =
            entry.path === "/events"
              ? { ...entry.body, events: entry.body.events.map((e, i) => ({ ...e, data: edited[i] })) }
              : edited[0];
          into.replaceChildren();
          this.notes.delete(`edit:${entry.local}`);
          this.table.outbox.retry(entry.local, body);
          this.table.connection.flush();
        },
      },
      "Send the edited entry",
    );
    const cancel = h("button", { type: "button", onclick: () => into.replaceChildren() }, "Cancel");
    into.replaceChildren(
      h(
        "div",
        { class: "card", role: "group", "aria-label": "Edit the refused entry" },
        groups,
        said,
        h("div", { class: "buttons" }, send, cancel),
      ),
    );
  }

  draw() {
    const table = this.table;
    const items = [...this.entries.values()]
      .filter(e => this.found(e))
      .sort((a, b) => b.position - a.position)
      .slice(0, SHOWN);
    this.list.replaceChildren(
      ...(table.at === null ? this.pending() : []),
      ...items.map(e => {
        const undone =
          e.undone_by !== null && e.undone_by !== undefined && (table.at === null || e.undone_by <= table.at);
        const marker = this.entries.get(e.undone_by);
        const sentence = e.sentence || unsaid(e);
        // Who logged it shares a line with what can be done from it, so an entry costs one row of buttons at most.
        const foot = h(
          "div",
          { class: "foot" },
          h("span", { class: "who" }, `— ${table.name(e.actor)}`),
          h(
            "button",
            {
              type: "button",
              "aria-label": `Look back to here (#${e.position})`,
              onclick: () => table.lookBack(e.position),
            },
            "Look back to here",
          ),
          this.mayUndo(e) ? this.undoButton(e, undone) : null,
        );
        const what = h(
          "div",
          { class: "what" },
          h("span", { class: "sentence" }, sentence),
          undone
            ? h(
                "div",
                { class: "who" },
                `Undone by ${marker ? table.name(marker.actor) : "a later entry"} at position ${e.undone_by}.`,
              )
            : null,
          foot,
        );
        const li = h(
          "li",
          {
            class: [undone ? "undone" : "", table.at !== null && e.position > table.at ? "later" : ""].join(" ").trim(),
          },
          h("span", { class: "pos" }, `#${e.position}`),
          what,
        );
        if (this.notes.has(e.position)) what.append(this.notes.get(e.position));
        return li;
      }),
    );
  }

  // The owner may undo any entry, a player her own; a joining or the start of the campaign is never undone here.
  mayUndo(e) {
    const table = this.table;
    if (table.at !== null || !table.canWrite() || MARKERS.has(e.type) || PERMANENT.has(e.type)) return false;
    return table.me.role === "owner" || e.actor === table.me.id;
  }

  undoButton(e, undone) {
    const table = this.table;
    if (!undone) {
      return h(
        "button",
        {
          type: "button",
          "aria-label": `Undo #${e.position}`,
          onclick: () => {
            this.askUndo(this.note(e.position), this.batchOf(e));
            this.draw();
          },
        },
        "Undo",
      );
    }
    const redo = async () => {
      const into = this.note(e.position);
      try {
        const done = await table.write("/redo", { batch: e.batch }, uuid());
        into.replaceChildren(h("p", { class: "done", role: "status" }, `Redone: ${this.told(done.redone)}.`));
      } catch (error) {
        if (!(error instanceof Refusal || error instanceof Unreachable)) throw error;
        const place = h("p", { class: "refusal", role: "alert" });
        if (error instanceof Refusal) refuse(place, error);
        else place.textContent = error.message;
        into.replaceChildren(place);
      }
      this.draw();
    };
    return h("button", { type: "button", "aria-label": `Redo #${e.position}`, onclick: redo }, "Redo");
  }
}
