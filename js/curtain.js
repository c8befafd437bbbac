// Hot-seat: the curtain between two seats. The board behind it holds public knowledge only
// until the next player presses Show (Python then sends that seat's view).
import { h } from "./dom.js";
import { isYou } from "./model.js";

/** The curtain's words for `curtain` = {seat, name}. */
export function curtainText(curtain) {
  const who = isYou(curtain.name) ? "yourself" : curtain.name;
  return `Pass the device to ${who}, then press Show (Enter). The board stays hidden until then.`;
}

/** The curtain panel; `show()` asks Python for the seat's view. */
export function drawCurtain(curtain, { pending, show }) {
  return h(
    "div",
    { class: "dsa-curtain", role: "dialog", "aria-label": `Pass the device to ${curtain.name}` },
    h("p", { class: "dsa-curtain-text", text: curtainText(curtain) }),
    h("button", {
      class: "dsa-btn dsa-primary",
      "data-action": "show-seat",
      disabled: pending,
      onclick: show,
      text: `Show ${curtain.name}'s board`,
    }),
  );
}
