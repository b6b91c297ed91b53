// @ts-check
// Members: who is at the table, and for the owner, new members with their join link and its QR code.
import { api, h, field, select, Refusal, forget } from "./api.js";
import { action } from "./action.js";
import { uuid } from "./outbox.js";
import { rooted } from "./root.js";

async function joinBase() {
  // A phone cannot open "localhost": offer the address of this machine on the local network instead, when the server
  // answers there (started with --host 0.0.0.0); else the link this computer opens, and how to let phones in.
  if (!["localhost", "127.0.0.1", "[::1]"].includes(location.hostname)) return { base: location.origin };
  const { addresses, not_listening: closed = [], seen } = await api("/page/addresses");
  // Behind a reverse proxy the server is asked by another origin than this page's: the proxy's is the one to give.
  if (seen && seen !== location.origin) return { base: location.origin };
  if (addresses.length)
    return { base: addresses[0], note: `Phones on this network open ${addresses[0]}; this computer can too.` };
  return {
    base: location.origin,
    note: closed.length
      ? `This link opens on this computer only: the server listens on ${location.hostname} alone. For phones on ` +
        `this network, start it with "quartermaster serve --host 0.0.0.0" and they open ${closed[0]}.`
      : "This machine has no address on a local network, so only this computer can open the link.",
  };
}

// A table display's link opens the read-only display (display.js) instead of the table page.
const DISPLAY_LINK = {
  path: "/display",
  what: "table display link",
  how: "Open it on the tablet or TV in the middle of the table, or scan it there. It is shown only now: it reads the campaign and can change nothing, and Revoke ends it at once.",
};

export async function showJoin(into, name, token, kind = undefined) {
  const { base, note } = await joinBase();
  const link = `${base}${rooted(kind?.path || "/join")}#${token}`;
  const what = kind ? `${name}'s ${kind.what}` : `${name}'s join link`;
  const svg = await fetch(rooted("/join-code"), {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-Quartermaster": "page" },
    body: JSON.stringify({ link }),
  }).then(r => r.text());
  const img = h("img", { src: `data:image/svg+xml;base64,${btoa(svg)}`, alt: `QR code of ${what}` });
  into.replaceChildren(
    h(
      "div",
      { class: "card", "aria-label": what },
      h("h3", {}, what),
      h(
        "p",
        {},
        kind?.how ||
          "Scan it with the phone, or open the link on it. It is shown only now: keep it private, like a key.",
      ),
      h("div", { class: "qr" }, img),
      // Text, not a link: tapping it here would sign this phone in as the new member.
      h("p", { class: "link", "aria-label": kind ? `Link of ${what}` : `Join link for ${name}` }, link),
      note ? h("p", { class: "quiet" }, note) : null,
    ),
  );
}

// The table display: a read-only member whose link opens the display on a tablet or a TV (display.js); revoked like
// any member, from its line above, which ends its live stream at once.
function displayForm(table, shown, count) {
  const make = action("Make a table display link", async () => {
    const name = count ? `Table display ${count + 1}` : "Table display";
    const made = await table.write("/members", { name, role: "display" }, key(name, "display"));
    keys.delete(`${name}\u0000display`);
    await showJoin(shown, made.name, made.token, DISPLAY_LINK);
    return undefined;
  });
  return h(
    "section",
    { class: "card", "aria-labelledby": "table-display" },
    h("h2", { id: "table-display" }, "Table display link"),
    h(
      "p",
      {},
      "A read-only screen for a tablet or a TV in the middle of the table: whose turn, the locations and their cards, the blessings or the chapter, and the latest entries, live, in large type. It can change nothing.",
    ),
    make.el,
  );
}

function memberForm(table, shown) {
  const name = h("input", { autocomplete: "off" });
  const role = select([
    ["player", "Player"],
    ["viewer", "Viewer (reads only)"],
    ["owner", "Owner"],
  ]);
  const add = action("Add the member", async () => {
    const typed = name.value.trim();
    if (!typed) throw new Refusal(422, { detail: "Type the new member's name first: nothing was sent." });
    // Taken from the box at once, so a second tap while this one is on its way cannot add the same name again.
    name.value = "";
    try {
      const made = await table.write("/members", { name: typed, role: role.value }, key(typed, role.value));
      keys.delete(`${typed}\u0000${role.value}`);
      await showJoin(shown, made.name, made.token);
      return undefined;
    } catch (error) {
      // Refused: a new try is a new request. Unanswered: the same key, so a retry adds her once at most.
      if (error instanceof Refusal) keys.delete(`${typed}\u0000${role.value}`);
      if (!name.value) name.value = typed;
      throw error;
    }
  });
  return h(
    "section",
    { class: "card", "aria-labelledby": "add-member" },
    h("h2", { id: "add-member" }, "Add a member"),
    field("Name", name),
    field("Role", role),
    add.el,
  );
}

// One Idempotency-Key per member being added, until it is answered: a retry after no answer adds her once.
const keys = new Map();
function key(name, role) {
  const which = `${name}\u0000${role}`;
  if (!keys.has(which)) keys.set(which, uuid());
  return keys.get(which);
}

// For the owner, on another member's line: a new join link for a lost phone (the old link stops working on every
// server at once), and revoking the member (their phone is signed out everywhere; they stay named in the log).
function memberControls(table, m, shown, redraw) {
  if (table.me.role !== "owner" || table.at !== null || m.member_id === table.me.id || m.revoked_at) return null;
  const path = `${table.base()}/members/${m.member_id}`;
  const link = action(
    "New join link",
    async () => {
      const made = await api(`${path}/token`, { method: "POST" });
      await showJoin(shown, made.name, made.token, made.role === "display" ? DISPLAY_LINK : undefined);
      return `${made.name}'s old join link no longer works.`;
    },
    { primary: false, name: `New join link to give ${m.name}` },
  );
  const revoke = action(
    "Revoke",
    async () => {
      if (!confirm(`Revoke ${m.name}? Their phone is signed out and their join link stops working.`)) return;
      await api(path, { method: "DELETE" });
      redraw();
    },
    { primary: false, name: `Revoke ${m.name}` },
  );
  return h("span", { class: "member-controls" }, link.el, revoke.el);
}

export async function render(panel, table) {
  const summary = await api(table.base());
  // Kept across redraws (a member joining redraws this tab): a join link is shown only once.
  if (table.me.role === "owner") table.joinShown ??= h("div", {});
  const shown = table.me.role === "owner" ? table.joinShown : null;
  const redraw = () => {
    panel.replaceChildren();
    render(panel, table);
  };
  const rows = summary.members.map(m =>
    h(
      "li",
      {},
      h("strong", {}, m.name),
      ` — ${m.role}`,
      m.revoked_at ? " (revoked)" : "",
      m.member_id === table.me.id ? " (you, on this phone)" : "",
      memberControls(table, m, shown, redraw),
    ),
  );
  panel.append(h("h2", {}, "Members"), h("ul", { class: "plain" }, rows));
  if (table.me.role === "owner" && table.at === null) {
    // The form is kept across redraws (a member joining redraws this tab): what is being typed stays in the Name box.
    table.memberForm ||= memberForm(table, shown);
    const displays = summary.members.filter(m => m.role === "display").length;
    panel.append(table.memberForm, displayForm(table, shown, displays), shown);
  }
  if (table.me.role === "owner") {
    // The whole log in one file (NDJSON with a hash chain), which any Quartermaster imports as a new campaign.
    const file = h("a", { href: rooted(`${table.base()}/export`), download: "" }, "Download this campaign's file");
    panel.append(h("p", {}, file));
  }
  const leave = action(
    "Sign this phone out",
    async () => {
      // Signing out would strand what waits on this phone: it must be sent (or dropped) first.
      const left = table.outbox.all().length;
      if (left)
        throw new Refusal(409, {
          detail: `${left} ${left === 1 ? "entry" : "entries"} made on this phone ${left === 1 ? "is" : "are"} not recorded yet (see the top of the log): wait until ${left === 1 ? "it is" : "they are"} sent, or drop ${left === 1 ? "it" : "them"}, then sign out.`,
        });
      await api(`/session/${table.id}`, { method: "DELETE" });
      forget(table.id);
      location.assign(rooted("/"));
    },
    { primary: false },
  );
  panel.append(h("p", { class: "quiet" }, `You are ${table.me.name}, ${table.me.role} of this campaign.`), leave.el);
}
