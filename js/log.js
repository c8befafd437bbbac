// The turn log in words (sentences computed in Python, shown as text).
import { h } from "./dom.js";
import { turnText } from "./history.js";

const PAST_TAIL = 40;

/** While scrubbing history: one line per turn up to the turn shown (from the frames alone, so it works with no kernel). */
export function drawPastLog(frames, upto, players) {
  const first = Math.max(1, upto - PAST_TAIL + 1);
  const ol = h("ol", { class: "dsa-log-list dsa-log-past", start: first });
  for (let k = first; k <= upto; k++) ol.append(h("li", { "data-turn": k, text: turnText(frames[k], players) }));
  return ol;
}

export function drawLog(state) {
  const ol = h("ol", { class: "dsa-log-list", start: Math.max(1, state.log_total - state.log.length + 1) });
  for (const line of state.log) ol.append(h("li", { text: line }));
  return ol;
}
