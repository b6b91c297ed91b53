// Dice: rolling for a named check (the server rolls, or the faces of real dice are typed in), and the dice luck
// chart: per character and die size, the faces seen against what fair dice would show, with the fit test in words.
import { h, field, select, action } from "./api.js";

export function rollForm(table, people) {
  const pacg = table.game === "pacg-skull-and-shackles";
  const who = select([["", "nobody in particular"], ...people]);
  const purpose = h("input", { autocomplete: "off", placeholder: pacg ? "e.g. defeat a Sea Devil" : "e.g. climb the rigging" });
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
  const server = action("Roll on the server", async () => told(await table.write("/rolls", body())));
  const thrown = action("Log the dice thrown", async () => {
    const typed = faces.value.split(/[\s,]+/).filter(Boolean).map(Number);
    return told(await table.write("/rolls", { ...body(), faces: typed }));
  }, { primary: false });
  return h("details", { class: "card" }, h("summary", {}, h("strong", {}, "Roll for a check")),
    h("div", { class: "row" }, field(pacg ? "Character" : "Pirate", who), field("Dice", expression)),
    h("div", { class: "row" }, field("What for", purpose), field(pacg ? "Skill" : "Attribute", skill),
      field(pacg ? "Difficulty" : "Successes needed", target)),
    server.el,
    field("Faces of the real dice, in the order of the dice", faces), thrown.el);
}

function words(size) {
  const p = size.p_value;
  const verdict = p === null || p === undefined ? "No fit test yet."
    : p < 0.01 ? `Fair dice would throw counts this uneven less than 1 time in 100 (p = ${p.toFixed(3)}): these ${size.die} look unfair.`
    : p < 0.05 ? `Fair dice would throw counts this uneven about ${Math.round(p * 100)} times in 100 (p = ${p.toFixed(3)}): worth watching.`
    : `Fair dice would throw counts at least this uneven ${Math.round(p * 100)} times in 100 (p = ${p.toFixed(2)}): nothing unusual.`;
  return `${size.rolls} ${size.die} thrown, average ${size.mean?.toFixed(2)} against ${size.expected_mean} for fair dice. ${verdict}${size.note ? " " + size.note : ""}`;
}

const NS = "http://www.w3.org/2000/svg";
function s(tag, attrs, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

export function chart(size, whose) {
  const total = size.faces.reduce((a, b) => a + b, 0);
  const fair = total / size.sides;
  const top = Math.max(fair, ...size.faces, 1);
  const width = 320, height = 150, left = 24, bottom = 20, slot = (width - left) / size.sides;
  const y = v => height - bottom - (v / top) * (height - bottom - 10);
  const svg = s("svg", { class: "luck", viewBox: `0 0 ${width} ${height}`, role: "img",
                         "aria-label": `${whose} ${size.die}: ${size.faces.map((n, i) => `${i + 1} came up ${n} times`).join(", ")}; fair dice would show each about ${fair.toFixed(1)} times` });
  size.faces.forEach((n, i) => {
    const x = left + i * slot;
    svg.append(s("rect", { x: x + slot * 0.15, y: y(n), width: slot * 0.7, height: Math.max(0, height - bottom - y(n)) }));
    svg.append(s("text", { x: x + slot / 2, y: height - 6, "text-anchor": "middle" }, i + 1));
    if (n) svg.append(s("text", { x: x + slot / 2, y: y(n) - 2, "text-anchor": "middle" }, n));
  });
  svg.append(s("line", { class: "fair", x1: left, x2: width, y1: y(fair), y2: y(fair) }));
  svg.append(s("text", { x: 2, y: y(fair) - 3 }, "fair"));
  return svg;
}

export async function luck(panel, table) {
  const people = [...new Set((await table.view("/stats/dice")).by_character.map(c => c.character_id).filter(Boolean))];
  const whose = select([["", "Everyone's dice"], ...people.map(p => [p, p[0].toUpperCase() + p.slice(1)])]);
  const charts = h("div", {});
  const draw = async () => {
    const stats = await table.view("/stats/dice", whose.value ? { character: whose.value } : {});
    const label = whose.value ? whose.options[whose.selectedIndex].text + "'s" : "Everyone's";
    charts.replaceChildren(...(stats.sizes.length ? stats.sizes.map(size => h("figure", { class: "card" },
      h("h3", {}, `${label} ${size.die}`), chart(size, label), h("figcaption", {}, words(size))))
      : [h("p", { class: "quiet" }, "No dice rolled yet.")]));
  };
  whose.addEventListener("change", draw);
  panel.append(h("h2", {}, "Dice luck"), field("Whose dice", whose), charts);
  await draw();
}
