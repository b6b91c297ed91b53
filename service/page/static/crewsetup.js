// @ts-check
// Skull Tales at the start of a campaign: each player recruits a Pirate from an archetype's Character Card, then the
// crew plays the first chapter, which starts directly in the Adventure Phase with no Captain and no ship yet
// (Skull Tales: Full Sail! rulebook, Book I: How to start; Game Modes, Chapters).
// The rulebook does not print the cards' values (attributes, Health, Action and Destiny Points, Salary, starting
// skills and gear), so the group types a card's values once: they are kept as its own card
// (`character_card.recorded`) and filled in the next time that archetype is recruited, here or in a campaign that
// loaded the group's file (share.js). The player then chooses only her name, her hand, and who plays.
import { api, h, field, select, Refusal } from "./api.js";
import { action } from "./action.js";
import { namePicker } from "./pickers.js";
import * as share from "./share.js";

const TALES = "skull-tales-full-sail";
const CLASSES = ["Rogue", "Duelist", "Scholar", "Mystic", "Rowdy", "Shooter"];
const ATTRIBUTES = [
  ["melee", "Melee Combat"],
  ["ranged", "Ranged Combat"],
  ["strength", "Strength"],
  ["agility", "Agility"],
  ["intelligence", "Intelligence"],
  ["perception", "Perception"],
  ["charisma", "Charisma"],
];
const POINTS = [
  ["action_points", "Action Points"],
  ["health", "Health"],
  ["destiny_points", "Destiny Points"],
  ["salary", "Salary"],
];
const FIRST_CHAPTER = "The Secret of Captain Jones";

function say(answer) {
  return `Logged at position ${answer.last_position}.`;
}
function slug(name) {
  return (
    name
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "pirate"
  );
}
function section(id, heading, ...body) {
  return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id }, heading), ...body);
}

export async function render(panel, table) {
  const catalogue = await api(`/v1/catalog/${TALES}`);
  const live = h("div", {});
  // The group's Character Cards as the campaign keeps them now, by archetype: read by the form at each choice.
  const kept = new Map();
  const form = recruitForm(table, catalogue, kept);
  const draw = async () => {
    const [{ pirates }, { chapter }, { cards }] = await Promise.all([
      table.view("/pirates"),
      table.view("/chapter"),
      table.view("/cards"),
    ]);
    kept.clear();
    for (const card of cards.character_cards) kept.set(card.archetype, card);
    live.replaceChildren(crew(pirates), firstChapter(table, pirates, chapter));
    form.refresh();
  };
  table.onChange = draw;
  panel.append(h("h1", {}, "Set up the crew"), live, form.el, await share.section(table));
  await draw();
}

function crew(pirates) {
  return section(
    "setup-crew",
    "The crew",
    pirates.length
      ? h(
          "ul",
          { class: "plain" },
          pirates.map(p =>
            h("li", {}, h("strong", {}, p.name), ` — ${p.archetype}`, p.player ? `, played by ${p.player}` : ""),
          ),
        )
      : h("p", { class: "quiet" }, "No pirate has been recruited yet: each player recruits one below."),
  );
}

function firstChapter(table, pirates, chapter) {
  if (chapter.chapter) {
    return section(
      "setup-chapter",
      "The chapter",
      h(
        "p",
        {},
        `Chapter ${chapter.chapter} is open${chapter.phase ? `, in its ${chapter.phase} phase` : ""}. The Play tab logs it.`,
      ),
    );
  }
  const start = action(`Start chapter 1, ${FIRST_CHAPTER}`, async () =>
    say(
      await table.appendEvents([
        { type: "chapter.started", label: "Chapter 1", data: { number: 1, title: FIRST_CHAPTER } },
        { type: "phase.started", label: "Its Adventure Phase", data: { phase: "adventure" } },
      ]),
    ),
  );
  return section(
    "setup-chapter",
    "The first chapter",
    h(
      "p",
      { class: "quiet" },
      "The first chapter starts directly in the Adventure Phase. The crew has no Captain yet (the Pirates roll Confronted Charisma for the Initiative) and no ship: both come with the chapter's end.",
    ),
    pirates.length ? start.el : h("p", { class: "quiet" }, "Recruit the crew first."),
  );
}

function number(label) {
  return h("input", { type: "number", inputmode: "numeric", min: 0, max: 99, "aria-label": label, required: true });
}

// The card's values, as the form holds them and as a `character_card.recorded` carries them.
function cardOf(archetype, classes, values, skills, gear) {
  const card = {
    archetype,
    classes: classes.filter(c => c.checked).map(c => c.value),
    attributes: Object.fromEntries(ATTRIBUTES.map(([key]) => [key, Number(values[key].value)])),
    skills: skills.values(),
    starting_gear: gear.values(),
  };
  for (const [key] of POINTS) card[key] = Number(values[key].value);
  return card;
}

// Whether two cards print the same values (the order of classes, skills and gear aside).
function same(a, b) {
  const printed = card =>
    JSON.stringify([
      [...card.classes].sort(),
      ATTRIBUTES.map(([k]) => card.attributes[k]),
      POINTS.map(([k]) => card[k]),
      [...card.skills].sort(),
      [...card.starting_gear].sort(),
    ]);
  return printed(a) === printed(b);
}

function recruitForm(table, catalogue, kept) {
  const archetypes = catalogue.archetypes.archetypes;
  const archetype = select([["", "Choose the Character Card"], ...archetypes.map(a => [a.name, a.name])]);
  const name = h("input", { autocomplete: "off", maxlength: 60 });
  const members = [...table.members.values()];
  const player = select(
    table.me.role === "owner" ? [table.me.name, ...members.filter(m => m !== table.me.name)] : [table.me.name],
  );
  const hand = select([
    ["right", "Right"],
    ["left", "Left"],
  ]);
  const classes = CLASSES.map(c => h("input", { type: "checkbox", value: c, "aria-label": `Class: ${c}` }));
  const values = Object.fromEntries([...ATTRIBUTES, ...POINTS].map(([key, label]) => [key, number(label)]));
  const skillNames = (catalogue.skills?.skills || []).map(s => s.name);
  const skills = namePicker("Starting skills", { options: skillNames, name: "Add the starting skill" });
  const gear = namePicker("Starting gear", { options: [], name: "Add the starting gear" });
  const keep = h("input", { type: "checkbox", checked: true, "aria-label": "Keep these values as the group's card" });
  const keepLabel = h("span", {}, "Keep these values as the group's card, to fill them in the next time");
  const note = h("p", { class: "quiet" });
  const fill = () => {
    const found = archetypes.find(a => a.name === archetype.value);
    const card = kept.get(archetype.value);
    if (card) {
      for (const box of classes) box.checked = card.classes.includes(box.value);
      for (const [key] of ATTRIBUTES) values[key].value = String(card.attributes[key]);
      for (const [key] of POINTS) values[key].value = String(card[key]);
      skills.set(card.skills);
      gear.set(card.starting_gear);
      keep.checked = false;
      note.textContent = `The group's ${card.archetype} card is kept: its values are filled in. Change them only if the card was typed wrongly (the card is then kept again).`;
      return;
    }
    for (const box of classes) box.checked = (found?.known_classes || []).includes(box.value);
    for (const input of Object.values(values)) input.value = "";
    skills.set([]);
    gear.set([]);
    keep.checked = true;
    note.textContent = found
      ? `Type ${found.name}'s values from the card once: the rulebook does not print them, and the campaign keeps them for the next time.${found.classes_complete ? "" : " Tick the classes the card shows."}`
      : "";
  };
  archetype.addEventListener("change", fill);
  // Correcting a kept card's value keeps the card again, so that the Pirate and the card agree.
  const edited = () => {
    if (kept.has(archetype.value)) keep.checked = true;
  };
  for (const control of [...Object.values(values), ...classes]) control.addEventListener("change", edited);
  const recruit = action("Recruit the pirate", async () => {
    const named = name.value.trim();
    const missing = [...ATTRIBUTES, ...POINTS].filter(([key]) => values[key].value === "").map(([, label]) => label);
    if (!archetype.value || !named || missing.length) {
      const what = [!archetype.value && "the Character Card", !named && "the pirate's name", ...missing].filter(
        Boolean,
      );
      throw new Refusal(0, { detail: `Give ${what.join(", ")} first: nothing was written.` });
    }
    const card = cardOf(archetype.value, classes, values, skills, gear);
    const { archetype: _, ...printed } = card;
    const data = {
      pirate_id: slug(named),
      name: named,
      archetype: archetype.value,
      player: player.value,
      dominant_hand: hand.value,
      ...printed,
    };
    const known = kept.get(archetype.value);
    const entries = [];
    if (keep.checked && !(known && same(known, card))) {
      entries.push({ type: "character_card.recorded", label: `The group's ${archetype.value} card`, data: card });
    }
    entries.push({ type: "pirate.recruited", label: `${named} the ${archetype.value}`, data });
    const answer = await table.appendEvents(entries);
    if (entries.length > 1) kept.set(archetype.value, card);
    name.value = "";
    archetype.value = "";
    hand.value = "right";
    fill();
    return `${named} joined the crew${entries.length > 1 ? ", and the group's card is kept" : ""}. ${say(answer)}`;
  });
  const el = section(
    "setup-recruit",
    "Recruit a pirate",
    field("Character Card (archetype)", archetype),
    note,
    field("Pirate's name", name),
    h("div", { class: "row" }, field("Played by", player), field("Dominant hand", hand)),
    h(
      "fieldset",
      {},
      h("legend", {}, "Classes on the card"),
      classes.map(c => h("label", { class: "inline" }, c, c.value)),
    ),
    h(
      "fieldset",
      { class: "numbers" },
      h("legend", {}, "Attributes on the card"),
      ATTRIBUTES.map(([key, label]) => field(label, values[key])),
    ),
    h(
      "fieldset",
      { class: "numbers" },
      h("legend", {}, "Points and Salary on the card"),
      POINTS.map(([key, label]) => field(label, values[key])),
    ),
    skills.el,
    gear.el,
    h("label", { class: "inline" }, keep, keepLabel),
    recruit.el,
  );
  // After another phone kept a card, or a file was loaded: an archetype being chosen takes the kept values.
  const refresh = () => {
    if (kept.has(archetype.value) && Object.values(values).every(v => v.value === "")) fill();
  };
  return { el, refresh };
}
