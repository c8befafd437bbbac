// The history timeline: step or scrub through the recorded turns (no kernel needed),
// and branch a what-if from the turn shown.
import { h } from "./dom.js";
import { turnText } from "./history.js";
import { ariaKey, keyLabel } from "./keys.js";

/**
 * frames: decoded frames; shown: the turn shown (null = live); live: the live state.
 * on.seek(k | null), on.whatIf(k | null). Returns the bar element.
 */
export function drawTimebar(frames, shown, live, on) {
  const n = frames.length - 1; // turns completed
  const bar = h("div", { class: "dsa-timebar", role: "group", "aria-label": "Game history" });
  if (n < 0) return bar;
  const at = shown === null ? n : shown;
  // key: the common action of js/keys.js the button's key does
  const btn = (action, text, aria, key, disabled, fn) =>
    h("button", {
      class: "dsa-btn dsa-btn-small",
      "data-action": action,
      "aria-label": `${aria} (${keyLabel(key)})`,
      "aria-keyshortcuts": ariaKey(key),
      disabled,
      title: `${aria} (${keyLabel(key)})`,
      onclick: fn,
      text,
    });
  const slider = h("input", {
    type: "range",
    min: 0,
    max: Math.max(0, n),
    step: 1,
    class: "dsa-slider",
    "data-action": "hist-slider",
    "aria-label": "Turn shown from the history",
    "aria-valuetext": `turn ${at} of ${n}`,
  });
  slider.value = String(at);
  slider.disabled = n === 0;
  slider.addEventListener("input", () => {
    const k = Number(slider.value);
    on.seek(k === n && shown === null ? null : k);
  });
  const isLive = shown === null;
  const label = h("span", { class: "dsa-hist-label", "aria-live": "polite" });
  if (isLive) label.append(h("strong", { text: live.mode === "whatif" ? "Real game: " : "Live: " }), `after turn ${n}`);
  else label.append(h("strong", { text: `Turn ${at} of ${n}: ` }), turnText(frames[at], live.players));
  bar.append(
    btn("hist-first", "|◀", "First turn", "first", at === 0, () => on.seek(0)),
    btn("hist-prev", "◀", "Previous turn", "prev", at === 0, () => on.seek(Math.max(0, at - 1))),
    slider,
    btn("hist-next", "▶", "Next turn", "next", isLive, () => on.seek(at + 1 > n ? null : at + 1)),
    btn("hist-live", "Live", "Back to the live game", "live", isLive, () => on.seek(null)),
    label,
  );
  return bar;
}
