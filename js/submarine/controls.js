// The status line and the legal actions that are not drawn on the board (the platform's shell,
// js/shell.js, draws the history and what-if bar, the log and the help lines).
import { h } from "../dom.js";
import { colourMark, tileLabel, tileWords } from "./tiles.js";

/** Submarine's own keys (the common ones, history, what-if, bots, are js/keys.js's). */
export const KEYS_HELP = "Game keys: 1–9 pick the n-th highlighted action · Enter the first";
export const GAME_ARIA = "1 2 3 4 5 6 7 8 9 Enter";

/** Words for an action (aria-label) and a short button text. */
export function describe(a) {
  const p = a.split(" ");
  switch (p[0]) {
    case "place":
      return [`Place a bathyscaphe in column ${p[1]}`, `place ${p[1]}`];
    case "sail":
      return p[1] === "end" ? ["Sail to the end", "sail end"] : [`Sail to column ${p[1]}`, `sail ${p[1]}`];
    case "mode":
      return [`This step: ${p[1]}`, p[1]];
    case "collect": {
      const how = p[3] === "joker" ? `with joker ${tileWords(p[4])}` : "paying cards";
      const short = p[3] === "joker" ? `joker ${tileLabel(p[4])}` : "card";
      return [`Collect ${tileWords(p[2])} at ${p[1]}, ${how}`, `collect ${tileLabel(p[2])} @${p[1]} (${short})`];
    }
    case "move":
      return [`Move a bathyscaphe from ${p[1]} to ${p[2]}`, `move ${p[1]}→${p[2]}`];
    case "exchange":
      return [`Exchange a ${p[1]} card with the top of your pile`, `exchange ${colourMark(p[1])}`];
    case "pass":
      return ["Pass (no exchange)", "pass"];
    case "end":
      return ["End this step", "end step"];
    default:
      return [a, a];
  }
}

const ON_BOARD = (a) => a.startsWith("place ") || a.startsWith("sail ");

export function statusText(st) {
  const players = st.players || [];
  if (st.over) {
    const w = (st.result?.winners || []).map((q) => players[q]).join(" and ");
    const scores = (st.scores || []).map((s, q) => `${players[q]} ${s}`).join(", ");
    return `Game over (${st.result?.condition ?? ""}): ${w} won. Scores: ${scores}.`;
  }
  const who = players[st.actor] ?? "?";
  const you = st.actor === st.seat && st.seat !== null && st.seat !== undefined;
  return `${you ? "Your" : `${who}'s`} turn · phase ${st.phase}${st.step?.mode ? ` (${st.step.mode})` : ""} · turn ${st.turn_number}`;
}

/** The legal actions that are not drawn on the board (the shell draws the history and what-if
 * bar, the log and the help). */
export function drawControls(st, { act, canAct, pending }) {
  const legal = canAct ? st.legal || [] : [];
  const extra = legal.filter((a) => !ON_BOARD(a));
  const groups = {};
  for (const a of extra) {
    const k = a.split(" ")[0];
    if (!groups[k]) groups[k] = [];
    groups[k].push(a);
  }
  const actions = h(
    "div",
    { class: "sub-actions", "aria-label": "Your legal actions" },
    Object.entries(groups).map(([k, list]) =>
      h(
        "div",
        { class: "sub-group", "data-group": k },
        list.map((a) => {
          const [label, text] = describe(a);
          return h("button", {
            class: "dsa-btn sub-legal sub-act",
            "data-action": k,
            "data-choice": a,
            "aria-label": label,
            title: label,
            disabled: pending,
            onclick: () => act(a),
            text,
          });
        }),
      ),
    ),
    legal.length && !extra.length ? h("p", { class: "sub-hint", text: "Choose on the board (highlighted)." }) : null,
  );
  return h("div", { class: "sub-controls" }, actions);
}
