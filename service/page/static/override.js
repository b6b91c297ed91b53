// @ts-check
// "Log it anyway": beside a refusal for a rule of the game, the table may send the same events again with an
// override and its reason (the owner, or any player where the campaign allows it). An integrity refusal (a card
// that does not exist, a copy in two places) offers nothing: no override can record it.
import { api, h } from "./api.js";

// Whether a refused request can be sent again with an override: an append whose every refusal is a rule.
export function overridable(error) {
  const request = error?.request;
  return Boolean(
    error?.problem?.overridable &&
      request &&
      request.method === "POST" &&
      /\/events$/.test(request.path) &&
      Array.isArray(request.body?.events),
  );
}

// The same batch with the reason on each event refused for a rule; the others go as they were.
export function withOverride(body, errors, reason) {
  const refused = new Set((errors || []).filter(e => e.kind === "rule").map(e => e.index));
  return {
    ...body,
    events: body.events.map((event, index) => (refused.has(index) ? { ...event, override: { reason } } : event)),
  };
}

// Put the control after the refusal's sentence in `place`; `done(answer)` is told of the append once it is logged.
export function offerOverride(place, error, done) {
  if (!overridable(error)) return;
  const reason = h("input", {
    type: "text",
    maxlength: 500,
    "aria-label": "Why the table logs it anyway",
    placeholder: "House rule, a card the tracker does not know…",
  });
  const said = h("p", { class: "override-said", role: "alert" });
  const send = h("button", { type: "button", class: "primary" }, "Log with this reason");
  const ask = h(
    "div",
    { class: "override", hidden: true },
    h("label", {}, "Why does the table log it anyway? ", reason),
    send,
    said,
  );
  const open = h("button", { type: "button", "aria-label": "Log it anyway" }, "Log it anyway");
  open.addEventListener("click", () => {
    ask.hidden = false;
    open.hidden = true;
    reason.focus();
  });
  send.addEventListener("click", async () => {
    said.textContent = "";
    const why = reason.value.trim();
    if (!why) {
      said.textContent = "Say why the table logs it against the rules.";
      return;
    }
    send.disabled = true;
    try {
      const { path, method, body } = error.request;
      const answer = await api(path, { method, body: withOverride(body, error.problem.errors, why) });
      ask.hidden = true;
      place.textContent = done ? "" : `Logged against the rules at position ${answer.last_position}.`;
      done?.(answer);
    } catch (failed) {
      said.textContent = failed.message || String(failed);
    } finally {
      send.disabled = false;
    }
  });
  place.append(" ", open, ask);
}
