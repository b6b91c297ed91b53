// The log: newest first, as sentences, live; undone entries struck through with who undid them.
import { api, h, action, title, Refusal } from "./api.js";
import { refuse } from "./refusal.js";

const MARKERS = new Set(["event.undone", "event.redone"]);
const PERMANENT = new Set(["campaign.started", "member.joined"]);
const SHOWN = 300;

function cap(text) { return text ? text[0].toUpperCase() + text.slice(1) : text; }

// Until every event carries its sentence from the server, a plain one built from its fields.
function plain(e) {
  const d = e.data || {};
  const who = d.character_id || d.pirate_id || "";
  switch (e.type) {
    case "dice.rolled": {
      const faces = (d.dice || []).map(x => x.face).join(", ");
      const outcome = d.success === true ? ", a success" : d.success === false ? ", a failure" : "";
      return `${cap(who) || "Someone"} rolled ${d.expression || "dice"}${d.purpose ? " for " + d.purpose : ""}: ${faces} makes ${d.total}${outcome}.`;
    }
    case "card.moved": {
      const card = typeof d.card === "string" ? d.card : `a face-down ${d.card?.hidden || "card"}`;
      return `${cap(d.from?.character_id || d.to?.character_id || "")} ${d.verb}s ${card}.`.trim();
    }
    case "event.undone": return `Undid position${d.targets.length > 1 ? "s" : ""} ${d.targets.join(", ")}.`;
    case "event.redone": return `Redid position${d.targets.length > 1 ? "s" : ""} ${d.targets.join(", ")}.`;
    default: {
      const facts = Object.entries(d).filter(([, v]) => v !== null && typeof v !== "object").map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`);
      return `${title(e.type)}${facts.length ? ": " + facts.join(", ") : ""}.`;
    }
  }
}

export class Log {
  constructor(table) {
    this.table = table;
    this.entries = new Map();
    this.list = h("ol", { class: "log", "aria-label": "Log, newest first" });
  }

  latest() { return Math.max(0, ...this.entries.keys()); }

  async load() {
    const after = Math.max(0, this.table.position - SHOWN);
    const page = await api(`${this.table.base()}/events?after=${after}&limit=1000`);
    for (const e of page.events) this.entries.set(e.position, e);
  }

  add(e) {
    this.entries.set(e.position, e);
    if (e.type === "event.undone") for (const t of e.data.targets) { const x = this.entries.get(t); if (x) x.undone_by = e.position; }
    if (e.type === "event.redone") for (const t of e.data.targets) { const x = this.entries.get(t); if (x) x.undone_by = null; }
    this.draw();
  }

  element() {
    const table = this.table;
    const section = h("section", { "aria-labelledby": "log-heading" }, h("h2", { id: "log-heading" }, "Log"));
    if (table.canWrite()) {
      const undo = action("Undo my last", async () => {
        const done = await table.write("/undo", { mine: true });
        return `Undone: position${done.undone.length > 1 ? "s" : ""} ${done.undone.join(", ")}.`;
      }, { primary: false });
      const redo = action("Redo my last", async () => {
        const done = await table.write("/redo", { mine: true });
        return `Redone: position${done.redone.length > 1 ? "s" : ""} ${done.redone.join(", ")}.`;
      }, { primary: false });
      section.append(h("div", { class: "buttons" }, undo.el, redo.el));
    }
    section.append(this.list);
    this.draw();
    return section;
  }

  draw() {
    const table = this.table;
    const owner = table.me.role === "owner" && table.at === null;
    const items = [...this.entries.values()].sort((a, b) => b.position - a.position).slice(0, SHOWN);
    this.list.replaceChildren(...items.map(e => {
      const undone = e.undone_by !== null && e.undone_by !== undefined && (table.at === null || e.undone_by <= table.at);
      const marker = this.entries.get(e.undone_by);
      const sentence = e.sentence || plain(e);
      const what = h("div", { class: "what" },
        h("span", { class: "sentence" }, sentence), " ",
        h("span", { class: "who" }, `— ${table.name(e.actor)}`),
        undone ? h("div", { class: "who" }, `Undone by ${marker ? table.name(marker.actor) : "a later entry"} at position ${e.undone_by}.`) : null);
      const li = h("li", { class: [undone ? "undone" : "", table.at !== null && e.position > table.at ? "later" : ""].join(" ").trim() },
        h("span", { class: "pos" }, `#${e.position}`), what);
      if (owner && !MARKERS.has(e.type) && !PERMANENT.has(e.type)) li.append(this.ownerButton(e, undone, what));
      return li;
    }));
  }

  ownerButton(e, undone, what) {
    const table = this.table;
    const label = undone ? `Redo #${e.position}` : `Undo #${e.position}`;
    const refusal = h("p", { class: "refusal", role: "alert" });
    what.append(refusal);
    const run = async cascade => {
      refusal.textContent = "";
      try {
        await table.write(undone ? "/redo" : "/undo", undone ? { batch: e.batch } : { batch: e.batch, cascade });
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        refuse(refusal, error);
        if (error.status === 409 && !undone && String(error.problem.type).endsWith("/undo-conflict")) {
          refusal.append(" ", h("button", { type: "button", "aria-label": `Undo #${e.position} with everything that depends on it`,
                                             onclick: () => run(true) }, "Undo with what depends on it"));
        }
      }
    };
    return h("button", { type: "button", "aria-label": label, onclick: () => run(false) }, undone ? "Redo" : "Undo");
  }
}
