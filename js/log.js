// The turn log in words (sentences computed in Python, shown as text).
import { h } from "./dom.js";

export function drawLog(state) {
  const ol = h("ol", { class: "dsa-log-list", start: Math.max(1, state.log_total - state.log.length + 1) });
  for (const line of state.log) ol.append(h("li", { text: line }));
  return ol;
}
