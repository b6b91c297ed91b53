// @ts-check
// A typed form for any event type, built from its JSON schema (GET /v1/games/{game}/event-types): a name as a text
// field with suggestions, a number as a number, a choice as a select in the game's words, a yes-or-no as a checkbox,
// a list of names as a picker with search, counts by name as steppers, a nested object as its own fields, a list of
// objects as repeated fields. No field asks for JSON.
import { h, field, select, title } from "./api.js";
import { namePicker, suggestions, CARD_TYPES } from "./pickers.js";

function words(value) {
  return String(value)
    .replace(/[_.]/g, " ")
    .replace(/^./, c => c.toUpperCase());
}
// A description's first sentence, with the schema's code quoting taken off.
function help(schema) {
  return (schema.description || "").replace(/`/g, "").split("\n")[0];
}
function plainType(schema) {
  if (schema.type) return Array.isArray(schema.type) ? schema.type.find(t => t !== "null") : schema.type;
  return undefined;
}
// The schema without its "or nothing" alternative, and whether that alternative was there.
function unwrap(schema) {
  const options = schema.anyOf || schema.oneOf;
  if (!options) return { schema, optional: false };
  const real = options.filter(s => s.type !== "null");
  if (real.length === 1)
    return {
      schema: { ...real[0], description: schema.description || real[0].description, default: schema.default },
      optional: real.length !== options.length,
    };
  return { schema: { ...schema, anyOf: real }, optional: real.length !== options.length };
}
function choicesOf(schema) {
  if (schema.enum) return schema.enum;
  if (schema.const !== undefined) return [schema.const];
  return null;
}

// A control for one value: { el, read() -> value or undefined }. `names` offers known names to text fields.
/**
 * @typedef {{ el: HTMLElement, read: () => any, offer?: (names: string[]) => void }} Control
 * `offer`: the names a name field (or a map's row names) offers, replaced once the form knows more (whose deck).
 */
/**
 * @param {string} label
 * @param {any} raw the value's JSON Schema, as the server describes it
 * @param {{ required?: boolean, names?: string[], example?: unknown }} [settings]
 * @returns {Control}
 */
export function control(label, raw, { required = false, names = [], example } = {}) {
  const { schema, optional } = unwrap(raw);
  const type = plainType(schema);
  const choices = choicesOf(schema);
  const about = help(schema);
  const note = about ? h("small", { class: "quiet" }, about) : null;
  const wrap = (...children) => h("div", { class: "field" }, ...children, note);

  if (choices) {
    const el = select([...(required ? [] : [["", "—"]]), ...choices.map(c => [String(c), words(c)])], {
      "aria-label": label,
      "data-kind": "choice",
    });
    if (schema.default !== undefined && schema.default !== null) el.value = String(schema.default);
    const numeric = choices.every(c => typeof c === "number");
    return {
      el: wrap(field(label, el)),
      read: () => (el.value === "" ? undefined : numeric ? Number(el.value) : el.value),
    };
  }
  if (type === "boolean") {
    const el = h("input", { type: "checkbox", "aria-label": label, "data-kind": "boolean" });
    el.checked = schema.default === true;
    return { el: wrap(h("label", { class: "inline" }, el, label)), read: () => el.checked };
  }
  if (type === "integer" || type === "number") {
    const el = h("input", {
      type: "number",
      inputmode: "numeric",
      "aria-label": label,
      "data-kind": type,
      min: schema.minimum,
      max: schema.maximum,
      placeholder: example !== undefined ? String(example) : undefined,
    });
    return { el: wrap(field(label, el)), read: () => (el.value.trim() === "" ? undefined : Number(el.value)) };
  }
  if (type === "string") {
    const el = h("input", {
      autocomplete: "off",
      "aria-label": label,
      "data-kind": "string",
      placeholder: typeof example === "string" ? example : undefined,
    });
    const hint = suggestions(el, names, picked => {
      el.value = picked;
      hint.draw();
    });
    return {
      el: wrap(field(label, el), hint.el),
      read: () => (el.value.trim() === "" ? undefined : el.value.trim()),
      offer: hint.offer,
    };
  }
  if (type === "array") {
    const items = unwrap(schema.items || {}).schema;
    const itemType = plainType(items);
    if (itemType === "object" && items.properties) return repeated(label, items, { names, note });
    if (choicesOf(items)) {
      const boxes = choicesOf(items).map(c =>
        h("input", {
          type: "checkbox",
          value: String(c),
          "aria-label": `${label}: ${words(c)}`,
          "data-kind": "choice",
        }),
      );
      return {
        el: wrap(
          h(
            "fieldset",
            {},
            h("legend", {}, label),
            boxes.map(b => h("label", { class: "inline" }, b, words(b.value))),
          ),
        ),
        read: () => {
          const v = boxes.filter(b => b.checked).map(b => b.value);
          return v.length ? v : undefined;
        },
      };
    }
    const numeric = itemType === "integer" || itemType === "number";
    const picker = namePicker(label, { options: numeric ? [] : names });
    if (numeric) {
      picker.input.type = "number";
      picker.input.inputMode = "numeric";
    }
    picker.input.dataset.kind = numeric ? "numbers" : "names";
    return {
      el: wrap(picker.el),
      read: () => {
        const v = picker.values();
        return v.length ? (numeric ? v.map(Number) : v) : undefined;
      },
    };
  }
  if (type === "object" && schema.properties)
    return nested(label, schema, { names, optional: optional || !required, note });
  if (type === "object") return counts(label, schema, { names, note });
  if (schema.anyOf) return alternatives(label, schema, { names, note });
  // Anything else is taken as a name.
  const el = h("input", { autocomplete: "off", "aria-label": label, "data-kind": "string" });
  return { el: wrap(field(label, el)), read: () => el.value.trim() || undefined };
}

// The fields of an object, each from its own schema; the `examples` give placeholders, never values.
// `served`: for a field by its key, the names to offer from what is filled in so far (her deck's cards once the
// character is named), asked again at each change in the form.
/**
 * @param {any} schema an object's JSON Schema, as the server describes it
 * @param {{ names?: string[], example?: any, served?: Record<string, (data: any) => Promise<string[]>> }} [settings]
 */
export function fields(schema, { names = [], example = {}, served = {} } = {}) {
  const required = new Set(schema.required || []);
  /** @type {[string, Control][]} */
  const controls = Object.entries(schema.properties || {}).map(([key, s]) => [
    key,
    control(`${title(key)}${required.has(key) ? "" : " (optional)"}`, s, {
      required: required.has(key),
      names,
      example: example?.[key],
    }),
  ]);
  const read = () => {
    /** @type {Record<string, unknown>} */
    const data = {};
    for (const [key, c] of controls) {
      const v = c.read();
      if (v !== undefined && !(v === false && !required.has(key))) data[key] = v;
    }
    return data;
  };
  const el = h(
    "div",
    { class: "fields" },
    controls.map(([, c]) => c.el),
  );
  const offered = controls.filter(([key, c]) => served[key] && c.offer);
  if (offered.length) {
    let asked = 0;
    const ask = async () => {
      const mine = ++asked;
      const data = read();
      const lists = await Promise.all(offered.map(([key]) => served[key](data).catch(() => [])));
      if (mine !== asked) return;
      offered.forEach(([, c], i) => {
        // What the fold says is there, when it says: else every name the table knows.
        c.offer?.(lists[i].length ? lists[i] : names);
      });
    };
    el.addEventListener("change", ask);
    ask();
  }
  return { el, read };
}

function nested(label, schema, { names, optional, note }) {
  const inner = fields(schema, { names });
  if (!optional)
    return { el: h("fieldset", { class: "nested" }, h("legend", {}, label), note, inner.el), read: () => inner.read() };
  // An optional object: its fields show once the table says it gives one.
  const give = h("input", {
    type: "checkbox",
    "aria-label": `Give ${label.replace(/ \(optional\)$/, "").toLowerCase()}`,
  });
  const box = h("div", { hidden: true }, inner.el);
  give.addEventListener("change", () => {
    box.hidden = !give.checked;
  });
  return {
    el: h("fieldset", { class: "nested" }, h("legend", {}, h("label", { class: "inline" }, give, label)), note, box),
    read: () => (give.checked ? inner.read() : undefined),
  };
}

function repeated(label, items, { names, note }) {
  const list = h("div", {});
  const rows = [];
  const add = () => {
    const inner = fields(items, { names });
    const row = h("fieldset", { class: "nested" }, h("legend", {}, `${label}: ${rows.length + 1}`), inner.el);
    const entry = { row, inner };
    row.append(
      h(
        "button",
        {
          type: "button",
          onclick: () => {
            rows.splice(rows.indexOf(entry), 1);
            row.remove();
          },
        },
        "Take this one out",
      ),
    );
    rows.push(entry);
    list.append(row);
  };
  const more = h("button", { type: "button", "aria-label": `Add one to ${label.toLowerCase()}` }, "Add one");
  more.addEventListener("click", add);
  return {
    el: h("fieldset", { class: "nested" }, h("legend", {}, label), note, list, more),
    read: () => {
      const v = rows.map(r => r.inner.read());
      return v.length ? v : undefined;
    },
  };
}

// Counts by name (a location's deck by card type, goods by kind): a name and a number, as many rows as needed.
// A map typed row by row (a feat's requirements, an injury's attribute changes, a mutiny's bids, a phase's degrees):
// each row's name is picked from what the served description names (`charisma`, `action_points`) and the table's
// names (its pirates' ids), and a value the schema lists is chosen, not typed.
function counts(label, schema, { names = [], note }) {
  const value = unwrap(schema.additionalProperties || {}).schema;
  const numeric = ["integer", "number"].includes(plainType(value));
  const choices = choicesOf(value);
  const described = [...(schema.description || "").matchAll(/`([a-z][a-z_]*)`/g)].map(m => m[1]);
  const offered = [...new Set([...described, ...names])];
  const listId = `keys-${Math.random().toString(36).slice(2, 9)}`;
  const list = h(
    "div",
    {},
    h(
      "datalist",
      { id: listId },
      offered.map(n => h("option", { value: n }, words(n))),
    ),
  );
  /** @type {[HTMLInputElement, HTMLInputElement | HTMLSelectElement][]} */
  const rows = [];
  const add = (key = "") => {
    const name = /** @type {HTMLInputElement} */ (
      h("input", {
        autocomplete: "off",
        value: key,
        list: offered.length ? listId : undefined,
        "aria-label": `${label}: name ${rows.length + 1}`,
        "data-kind": "string",
      })
    );
    const amount = choices
      ? select([["", "—"], ...choices.map(c => [String(c), words(c)])], {
          "aria-label": `${label}: value ${rows.length + 1}`,
          "data-kind": "choice",
        })
      : numeric
        ? h("input", {
            type: "number",
            inputmode: "numeric",
            "aria-label": `${label}: how many ${rows.length + 1}`,
            "data-kind": "integer",
          })
        : h("input", {
            autocomplete: "off",
            "aria-label": `${label}: value ${rows.length + 1}`,
            "data-kind": "string",
          });
    rows.push([name, amount]);
    list.append(h("div", { class: "row" }, name, amount));
  };
  // A deck list names card types: offer each one, to be filled in or left at nothing.
  if (/deck|type/i.test(`${label} ${schema.description || ""}`)) {
    for (const t of CARD_TYPES) add(t);
  } else add();
  const more = h("button", { type: "button", "aria-label": `Add a row to ${label.toLowerCase()}` }, "Add a row");
  more.addEventListener("click", () => add());
  return {
    el: h("fieldset", { class: "nested" }, h("legend", {}, label), note, list, more),
    offer: found => {
      const datalist = list.querySelector("datalist");
      datalist?.replaceChildren(
        ...[...new Set([...found, ...described])].map(n => h("option", { value: n }, words(n))),
      );
      for (const [name] of rows) name.setAttribute("list", listId);
    },
    read: () => {
      const out = {};
      for (const [name, amount] of rows) {
        if (!name.value.trim() || amount.value.trim() === "") continue;
        out[name.value.trim()] = numeric ? Number(amount.value) : amount.value.trim();
      }
      return Object.keys(out).length ? out : undefined;
    },
  };
}

// One of several shapes (a card by name, or face down by its type): choose which, then fill it in.
function alternatives(label, schema, { names, note }) {
  const shapes = schema.anyOf.map(s => unwrap(s).schema);
  const labels = shapes.map(s =>
    s.title
      ? words(s.title.replace(/([a-z])([A-Z])/g, "$1 $2"))
      : plainType(s) === "string"
        ? "By name"
        : words(plainType(s) || "value"),
  );
  const which = select(
    labels.map((l, i) => [String(i), l]),
    { "aria-label": `${label}: which kind`, "data-kind": "choice" },
  );
  const made = shapes.map((s, i) => control(`${label} (${labels[i].toLowerCase()})`, s, { required: true, names }));
  const holders = made.map((c, i) => h("div", { hidden: i !== 0 }, c.el));
  which.addEventListener("change", () =>
    holders.forEach((x, i) => {
      x.hidden = String(i) !== which.value;
    }),
  );
  return {
    el: h("div", { class: "field" }, field(`${label}: which kind`, which), holders, note),
    read: () => made[Number(which.value)].read(),
    offer: found => {
      for (const c of made) c.offer?.(found);
    },
  };
}
