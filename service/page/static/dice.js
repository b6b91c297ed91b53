// @ts-check
// Dice: rolling for a named check (the server rolls, or the faces of real dice are typed in), and the dice luck
// chart: per character and die size, the faces seen against what fair dice would show, and what that says in words.
// Dice thrown at the table and the server's dice are counted apart: only the first can be unfair dice (or unfair
// throwing); the server's come from the operating system's random numbers, so any lean there is chance.
import { h, box, field, select } from "./api.js";
import { action } from "./action.js";

export function rollForm(table, people) {
  const pacg = table.game === "pacg-skull-and-shackles";
  const who = select([["", "nobody in particular"], ...people]);
  const purpose = h("input", {
    autocomplete: "off",
    placeholder: pacg ? "e.g. defeat a Sea Devil" : "e.g. climb the rigging",
  });
  const skill = h("input", { autocomplete: "off", placeholder: pacg ? "e.g. Strength" : "e.g. agility" });
  const expression = h("input", { autocomplete: "off", value: pacg ? "1d12+1d6" : "3d6>4", spellcheck: "false" });
  const target = h("input", { type: "number", inputmode: "numeric" });
  const faces = h("input", { autocomplete: "off", inputmode: "numeric", placeholder: "e.g. 9 4" });
  const body = () => {
    const b = { expression: expression.value.trim() };
    if (who.value) b.character_id = who.value;
    if (purpose.value.trim()) b.purpose = purpose.value.trim();
    if (skill.value.trim()) b.skill = skill.value.trim();
    if (target.value !== "") b[pacg ? "difficulty" : "required"] = Number(target.value);
    return b;
  };
  const told = answer => {
    const r = answer.roll.data;
    const outcome = r.success === true ? " — a success" : r.success === false ? " — a failure" : "";
    return `Rolled ${r.dice.map(d => d.face).join(", ")}: ${r.total}${outcome} (position ${answer.last_position}).`;
  };
  // Through the outbox like every entry: kept on this phone until recorded, sent with an Idempotency-Key so a
  // resend answers the same dice rather than rolling again.
  const server = action("Roll on the server", async () => told(await table.connection.submit("/rolls", body())));
  const thrown = action(
    "Log the dice thrown",
    async () => {
      const typed = faces.value
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(Number);
      return told(await table.connection.submit("/rolls", { ...body(), faces: typed }));
    },
    { primary: false },
  );
  return box(
    "Roll for a check",
    h("div", { class: "row" }, field(pacg ? "Character" : "Pirate", who), field("Dice", expression)),
    h(
      "div",
      { class: "row" },
      field("What for", purpose),
      field(pacg ? "Skill" : "Attribute", skill),
      field(pacg ? "Difficulty" : "Successes needed", target),
    ),
    server.el,
    field("Faces of the real dice, in the order of the dice", faces),
    thrown.el,
  );
}

// What the counts allow one to say, in plain words. The chance figure is the fit test's: how often fair dice
// thrown as many times would come out at least this uneven.
export function words(size, source) {
  const p = size.p_value;
  const times = p === null || p === undefined ? null : Math.max(1, Math.round(p * 100));
  const average = `${size.rolls} ${size.die} ${source === "server" ? "rolled" : "thrown"}, average ${size.mean?.toFixed(2)} against ${size.expected_mean} for fair dice.`;
  if (size.note || times === null) {
    return `${average} Too few throws to say anything yet: fair dice wander a lot until each face has come up about 5 times (${5 * size.sides} throws).`;
  }
  if (source === "server") {
    return (
      `${average} The server's dice come from the computer's random numbers, so they are fair: ` +
      (p < 0.05
        ? `counts this uneven happen to fair dice about ${times} time${times > 1 ? "s" : ""} in 100, and this is one of those times.`
        : `counts at least this uneven happen to fair dice about ${times} times in 100. Nothing unusual.`)
    );
  }
  const verdict =
    p < 0.01
      ? `Fair dice would come out this uneven less than once in 100 tries: these ${size.die} (or the way they are thrown) look unfair.`
      : p < 0.05
        ? `Fair dice would come out this uneven only about ${times} times in 100: not enough to call them unfair, but worth watching.`
        : `Fair dice come out at least this uneven about ${times} times in 100: nothing unusual, these look like fair dice.`;
  return `${average} ${verdict}`;
}

const NS = "http://www.w3.org/2000/svg";
function s(tag, attrs, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

export function chart(size, whose, named) {
  const total = size.faces.reduce((a, b) => a + b, 0);
  const fair = total / size.sides;
  const top = Math.max(fair, ...size.faces, 1);
  const width = 320,
    height = 150,
    left = 24,
    bottom = 20,
    slot = (width - left) / size.sides;
  const y = v => height - bottom - (v / top) * (height - bottom - 10);
  const svg = s("svg", {
    class: "luck",
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-label": `${whose} ${size.die}${named ? ` (${named})` : ""}: ${size.faces.map((n, i) => `${i + 1} came up ${n} times`).join(", ")}; fair dice would show each about ${fair.toFixed(1)} times`,
  });
  size.faces.forEach((n, i) => {
    const x = left + i * slot;
    svg.append(
      s("rect", { x: x + slot * 0.15, y: y(n), width: slot * 0.7, height: Math.max(0, height - bottom - y(n)) }),
    );
    svg.append(s("text", { x: x + slot / 2, y: height - 6, "text-anchor": "middle" }, i + 1));
    if (n) svg.append(s("text", { x: x + slot / 2, y: y(n) - 2, "text-anchor": "middle" }, n));
  });
  svg.append(s("line", { class: "fair", x1: left, x2: width, y1: y(fair), y2: y(fair) }));
  svg.append(s("text", { x: 2, y: y(fair) - 3 }, "fair"));
  return svg;
}

/** @type {[string, string, (who: string) => string][]} which dice, named for the picker and for the chart's heading */
const SOURCES = [
  [
    "table",
    "dice thrown at the table",
    who => `${who === "everyone" ? "Everyone's" : `${who}'s`} dice thrown at the table`,
  ],
  ["server", "the server's dice", who => `The server's dice rolled for ${who}`],
];

export async function luck(panel, table) {
  const people = [...new Set((await table.view("/stats/dice")).by_character.map(c => c.character_id).filter(Boolean))];
  const whose = select([["", "Everyone's dice"], ...people.map(p => [p, p[0].toUpperCase() + p.slice(1)])]);
  const charts = h("div", {});
  const draw = async () => {
    const label = whose.value ? `${whose.options[whose.selectedIndex].text}'s` : "Everyone's";
    const who = whose.value ? whose.options[whose.selectedIndex].text : "everyone";
    const asked = whose.value ? { character: whose.value } : {};
    const parts = await Promise.all(SOURCES.map(([source]) => table.view("/stats/dice", { ...asked, source })));
    const shown = SOURCES.flatMap(([source, named, heading], i) =>
      parts[i].sizes.length
        ? [
            h(
              "section",
              { "aria-label": heading(who) },
              h("h3", {}, heading(who)),
              ...parts[i].sizes.map(size =>
                h(
                  "figure",
                  { class: "card" },
                  h("h4", {}, `${size.die}, ${named}`),
                  chart(size, label, named),
                  h("figcaption", {}, words(size, source)),
                ),
              ),
            ),
          ]
        : [],
    );
    charts.replaceChildren(...(shown.length ? shown : [h("p", { class: "quiet" }, "No dice rolled yet.")]));
  };
  whose.addEventListener("change", draw);
  panel.append(h("h2", {}, "Dice luck"), field("Whose dice", whose), charts);
  await draw();
}
