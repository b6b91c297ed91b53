// @ts-check
// Each event the page writes, held to the shape the service describes (GET /v1/games/{game}/event-types): the
// page spells an event's fields in many places (the turn panels, the quick forms, the set-up), and the service
// ignores a field it does not know, so a field renamed on one side would be lost without a word. Every write goes
// through `shaped` (app.js), which refuses, before anything is sent, an event type the service does not describe, a
// field its description lacks, or a required field left out; the refusal is a fault of the page, named plainly.
import { api } from "./api.js";

/**
 * @typedef {{ properties?: Record<string, unknown>, required?: string[] }} Schema
 * @typedef {Map<string, Schema>} Described each event type's JSON Schema, by type
 * @typedef {{ type: string, data?: Record<string, unknown> }} Entry
 */

/** @type {Map<string, Promise<Described>>} */
const asked = new Map();
/** @type {Map<string, Described>} */
const known = new Map();

/**
 * The game's event types as the service describes them, read once per game and page (app.js asks as the page
 * opens, so that a write never waits on this read).
 * @param {string} game
 * @returns {Promise<Described>}
 */
export function described(game) {
  let answer = asked.get(game);
  if (!answer) {
    answer = api(`/v1/games/${game}/event-types`).then(({ event_types: types }) => {
      const read = new Map(types.map(t => [t.type, t.schema || {}]));
      known.set(game, read);
      return read;
    });
    // Not answered (offline, say): asked again next time.
    answer.catch(() => asked.delete(game));
    asked.set(game, answer);
  }
  return answer;
}

/**
 * Whether the descriptions of the game's event types are read, so that writes are held to them.
 * @param {string} game
 */
export function knows(game) {
  return known.has(game);
}

/**
 * What is wrong with an entry's shape against its description, in a sentence; null when nothing is.
 * @param {Described} types
 * @param {Entry} entry
 * @returns {string | null}
 */
export function misshapen(types, entry) {
  const schema = types.get(entry.type);
  if (!schema) return `The service describes no event type ${entry.type}.`;
  const fields = Object.keys(schema.properties || {});
  const data = entry.data || {};
  const unknown = Object.keys(data).filter(key => !fields.includes(key));
  if (unknown.length)
    return `${entry.type} has no field ${unknown.join(", ")} (its fields: ${fields.join(", ") || "none"}).`;
  const missing = (schema.required || []).filter(key => !(key in data));
  if (missing.length) return `${entry.type} needs ${missing.join(", ")}, which the page left out.`;
  return null;
}

/**
 * The entries as they are, once each is held to its described shape; a fault of the page otherwise, before anything
 * is sent. Before the descriptions are read (the page just opened offline), the entries go as they are and the
 * descriptions are asked for: the service checks every entry that reaches it in any case.
 * @template {Entry} T
 * @param {string} game
 * @param {T[]} entries
 * @returns {T[]}
 */
export function shaped(game, entries) {
  const types = known.get(game);
  if (!types) {
    described(game).catch(() => {});
    return entries;
  }
  const wrong = entries.map(entry => misshapen(types, entry)).filter(Boolean);
  if (wrong.length) throw new Error(`this page spelled an event otherwise than the service describes it: ${wrong[0]}`);
  return entries;
}
