// @ts-check
// Typed controls for names and numbers, so no field on the page ever asks for JSON: a picker of names with search
// (free names allowed), a number stepper, and a set of steppers for counts by card type.
import { h } from "./api.js";

let made = 0;

// Under a text field, the offered names that match what is typed so far, each a button: a few letters and a tap.
export function suggestions(input, names, pick, { max = 4 } = {}) {
  // Not labelled with the field's own name, so that finding the field by its label finds only the field.
  const box = h("div", { class: "suggest", "data-for": input.getAttribute("aria-label") || "" });
  let offered = names;
  const draw = () => {
    const typed = input.value.trim().toLowerCase();
    const found =
      typed.length < 2
        ? []
        : offered
            .filter(n => n.toLowerCase().includes(typed) && n.toLowerCase() !== typed)
            .sort((a, b) => a.toLowerCase().indexOf(typed) - b.toLowerCase().indexOf(typed))
            .slice(0, max);
    box.replaceChildren(
      ...found.map(n =>
        h(
          "button",
          {
            type: "button",
            class: "pick",
            onclick: () => {
              pick(n);
              draw();
            },
          },
          n,
        ),
      ),
    );
  };
  input.addEventListener("input", draw);
  return {
    el: box,
    offer: list => {
      offered = list;
      draw();
    },
    draw,
  };
}
function uid(prefix) {
  made += 1;
  return `${prefix}-${made}`;
}

// A list of names: type to search the offered names, Add (or Enter) puts it in the list, × takes it out.
// `single` keeps at most one name. `options` may be replaced later with `offer(names)`.
/**
 * @param {string} label
 * @param {{ options?: string[], values?: string[], single?: boolean, name?: string }} [settings]
 */
export function namePicker(label, { options = [], values = [], single = false, name } = {}) {
  const listId = uid("names");
  const datalist = h("datalist", { id: listId });
  const input = h("input", { autocomplete: "off", list: listId, "aria-label": label, enterkeyhint: "done" });
  const chosen = h("ul", { class: "chips plain", "aria-label": `${label}: chosen` });
  let picked = [];
  const draw = () => {
    chosen.replaceChildren(
      ...picked.map((n, i) =>
        h(
          "li",
          { class: "chip" },
          n,
          " ",
          h(
            "button",
            {
              type: "button",
              class: "x",
              "aria-label": `Take ${n} out of ${label}`,
              onclick: () => {
                picked.splice(i, 1);
                draw();
                changed();
              },
            },
            "×",
          ),
        ),
      ),
    );
  };
  const listeners = [];
  const changed = () => {
    for (const fn of listeners) fn(picked.slice());
  };
  const add = () => {
    const value = input.value.trim();
    if (!value) return;
    // A name offered by the catalogue or the vault is taken as it is spelled there, whatever the case typed.
    const known = [...datalist.options].map(o => o.value).find(o => o.toLowerCase() === value.toLowerCase());
    picked = single ? [known || value] : [...picked, known || value];
    input.value = "";
    draw();
    changed();
    hints?.draw();
  };
  input.addEventListener("keydown", e => {
    if (e.key === "Enter") {
      e.preventDefault();
      add();
    }
  });
  // Picking a name from the offered list adds it at once: one tap, no Add button.
  input.addEventListener("input", e => {
    if (e.inputType === "insertReplacementText") {
      if ([...datalist.options].some(o => o.value === input.value)) add();
    }
  });
  const hints = suggestions(input, [...new Set(options)], n => {
    input.value = n;
    add();
  });
  const offer = names => {
    datalist.replaceChildren(...[...new Set(names)].sort().map(n => h("option", { value: n })));
    hints.offer([...new Set(names)]);
  };
  offer(options);
  picked = values.slice();
  draw();
  const button = h(
    "button",
    { type: "button", "aria-label": name || `Add to ${label.toLowerCase()}`, onclick: add },
    "Add",
  );
  input.id = uid("pick");
  const el = h(
    "div",
    { class: "picker" },
    h("label", { for: input.id }, label),
    h("div", { class: "row tight" }, input, button),
    hints.el,
    datalist,
    chosen,
  );
  return {
    el,
    input,
    offer,
    values: () => {
      if (input.value.trim()) add();
      return picked.slice();
    },
    set: list => {
      picked = list.slice();
      draw();
      changed();
    },
    onChange: fn => listeners.push(fn),
  };
}

// A whole number with − and + beside it (and typing allowed).
/**
 * @param {string} label
 * @param {{ value?: number, min?: number, max?: number, name?: string }} [settings]
 */
export function stepper(label, { value = 0, min = 0, max = 99, name } = {}) {
  const input = h("input", { type: "number", inputmode: "numeric", min, max, value, "aria-label": name || label });
  const listeners = [];
  const set = n => {
    input.value = String(Math.max(min, Math.min(max, n)));
    for (const fn of listeners) fn(Number(input.value));
  };
  input.addEventListener("change", () => set(Number(input.value) || 0));
  const minus = h(
    "button",
    {
      type: "button",
      class: "step",
      "aria-label": `One fewer: ${name || label}`,
      onclick: () => set(Number(input.value) - 1),
    },
    "−",
  );
  const plus = h(
    "button",
    {
      type: "button",
      class: "step",
      "aria-label": `One more: ${name || label}`,
      onclick: () => set(Number(input.value) + 1),
    },
    "+",
  );
  const el = h("div", { class: "stepper" }, h("span", { class: "what" }, label), minus, input, plus);
  return { el, input, value: () => Number(input.value) || 0, set, onChange: fn => listeners.push(fn) };
}

// Counts by card type (a location's deck, a deck's cards list), each with its stepper.
export const CARD_TYPES = ["monster", "barrier", "weapon", "spell", "armor", "item", "ally", "blessing"];

export function typeCounts(label, { types = CARD_TYPES, values = {}, prefix = "" } = {}) {
  /** @type {[string, ReturnType<typeof stepper>][]} */
  const steppers = types.map(t => [
    t,
    stepper(t[0].toUpperCase() + t.slice(1), { value: values[t] || 0, name: `${prefix}${t}` }),
  ]);
  const el = h(
    "fieldset",
    { class: "counts" },
    h("legend", {}, label),
    steppers.map(([, s]) => s.el),
  );
  return {
    el,
    value: () => Object.fromEntries(steppers.filter(([, s]) => s.value() > 0).map(([t, s]) => [t, s.value()])),
  };
}

// What the fold knows of a character, for the generic form's pickers (her view: her zones, powers and role card).
/** @param {any} table @param {string} id */
async function characterView(table, id) {
  const answer = await table.view(`/characters/${encodeURIComponent(id)}`);
  return answer.character || {};
}

/**
 * The names "Anything else" offers for an event type's fields, from what is filled in so far: a role chosen among
 * the sides of her role card and its powers among her card's and the side's, a card moved (drawn at a reset, say)
 * among the cards the fold says are in the zone it leaves. The table may still type a name the fold does not know.
 * @param {string} type the event type
 * @param {any} table the campaign's table (app.js)
 * @returns {Record<string, (data: any) => Promise<string[]>>}
 */
export function served(type, table) {
  if (type === "role.chosen")
    return {
      role: async data =>
        data.character_id ? Object.keys((await characterView(table, data.character_id)).role_sides || {}) : [],
      powers: async data => {
        if (!data.character_id) return [];
        const c = await characterView(table, data.character_id);
        return [...Object.keys(c.powers || {}), ...(c.role_sides?.[data.role] || [])];
      },
    };
  if (type === "card.moved")
    return {
      card: async data => {
        const from = data.from || {};
        if (!from.character_id || !from.zone) return [];
        return Object.keys((await characterView(table, from.character_id)).zones?.[from.zone] || {});
      },
    };
  return {};
}
