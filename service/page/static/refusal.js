// @ts-check
// Every refusal the page shows goes through `refuse`: the server's sentence beside the control that asked, and for
// a batch of several entries, each refused entry named by what the page calls it and why.
import { api, h, Refusal, title } from "./api.js";

// The game's event types, from the served event descriptions: a refusal that names one ("rebuild it with
// deck.rebuilt") shows the words the page offers it by ("“Deck rebuilt”", as in "Anything else") instead.
/** @type {Map<string, string>} */
const words = new Map();

/**
 * Learn the game's event types once a table opens; until they are known, a sentence is shown as the server wrote it.
 * @param {string} game
 */
export async function learnWords(game) {
  const answer = await api(`/v1/games/${game}/event-types`);
  for (const t of answer.event_types || []) words.set(t.type, title(t.type));
}

/**
 * The server's sentence with every event type it names put in the page's words.
 * @param {string} text
 */
export function inWords(text) {
  return text.replace(/\b[a-z][a-z_]*(?:\.[a-z][a-z_]*)+\b/g, type =>
    words.has(type) ? `“${words.get(type)}”` : type,
  );
}

// What the page sent, as labels of its entries: "Deck built for Lirianne", in the order they were sent.
export function entryLabels(events) {
  return (events || []).map(e => e.label || (e.type || "").replace(/[._]/g, " ").replace(/^./, c => c.toUpperCase()));
}

// The words of a refusal, for places that show it as plain text (a heading, a status line).
export function sentence(error) {
  if (error instanceof Refusal) return inWords(error.message);
  return "The page could not reach the server; nothing was written. Try again when it answers.";
}

// Show `error` in `place` (a .refusal element). A refused batch the table sent carries its events
// (`error.events`, with the page's `label` for each), so each refused entry is named as the page names it.
export function refuse(place, error) {
  const problem = error instanceof Refusal ? error.problem || {} : {};
  const errors = Array.isArray(problem.errors) ? problem.errors : [];
  const labels = entryLabels(error.events);
  place.replaceChildren();
  if (errors.length > 1 || (errors.length === 1 && labels.length > 1)) {
    const count = errors.length;
    place.append(
      h(
        "span",
        {},
        count === 1
          ? "One entry of what was sent cannot be recorded; nothing was written."
          : `${count} entries of what was sent cannot be recorded; nothing was written.`,
      ),
    );
    place.append(
      h(
        "ul",
        { class: "entries" },
        errors.map(e => {
          const which = Number.isInteger(e.index)
            ? `${labels[e.index] || `Entry ${e.index + 1}`} (entry ${e.index + 1})`
            : "";
          const reason = inWords(String(e.reason));
          return h("li", {}, which ? `${which}: ${reason}` : reason);
        }),
      ),
    );
  } else {
    place.append(h("span", {}, sentence(error)));
  }
}

// A view whose reads the server refused: the refusal in `panel`, in place of the view. Anything but a refusal is
// thrown on.
export function refusedView(panel, error) {
  if (!(error instanceof Refusal)) throw error;
  const place = h("p", { class: "refusal", role: "alert" });
  refuse(place, error);
  panel.append(place);
}
