// @ts-check
// A form's submit button and where its outcome shows, in its own module so that api.js, refusal.js and override.js
// import one another in one direction only (action -> override, refusal -> api).
import { h, Refusal, Unreachable, Queued } from "./api.js";
import { refuse } from "./refusal.js";
import { offerOverride } from "./override.js";

// A form's submit button with the place beside it where the outcome is shown: what was recorded, why it waits on
// this phone, the server's refusal (through refusal.js), or that the server cannot be reached. Never nothing: a write
// with no answer after 3 seconds says so while it keeps waiting.
export const PATIENCE = 3000;
/**
 * @param {string} label the button's words
 * @param {() => Promise<unknown>} run what the button does
 * @param {{ primary?: boolean, name?: string }} [options] `name`: the button's accessible name when not its words
 */
export function action(label, run, { primary = true, name } = {}) {
  const refusal = h("p", { class: "refusal", role: "alert" });
  const done = h("p", { class: "done", role: "status" });
  const button = h("button", { type: "button", class: primary ? "primary" : "", "aria-label": name || label });
  button.textContent = label;
  button.addEventListener("click", async () => {
    refusal.textContent = "";
    done.textContent = "";
    delete done.dataset.kind;
    button.disabled = true;
    const slow = setTimeout(() => {
      done.dataset.kind = "waiting";
      done.textContent = "No answer from the server after 3 seconds: still waiting for it.";
    }, PATIENCE);
    try {
      const said = await run();
      delete done.dataset.kind;
      done.textContent = typeof said === "string" ? said : "";
    } catch (error) {
      done.textContent = "";
      if (error instanceof Queued) {
        done.dataset.kind = "queued";
        done.textContent = error.message;
      } else if (error instanceof Unreachable) refusal.textContent = error.message;
      else if (error instanceof Refusal) {
        refuse(refusal, error);
        offerOverride(refusal, error, answer => {
          done.textContent = `Logged against the rules at position ${answer.last_position}.`;
        });
      } else {
        refusal.textContent = `This page hit a fault and did not finish: ${error.message}`;
        console.error(error);
      }
    } finally {
      clearTimeout(slow);
      button.disabled = false;
    }
  });
  return { button, refusal, done, el: h("div", { class: "act" }, button, refusal, done) };
}
