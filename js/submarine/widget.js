// Submarine's renderer on the platform's shell (js/shell.js): the board with its highlighted
// places, the own hand, the legal actions that are not on the board, and the players. The
// transport, keys and focus, refusals, curtain, history and what-if bar, setup form generated
// from the option schema and the saved page's replay are the shell's.
import { h } from "../dom.js";
import { mountShell } from "../shell.js";
import { drawBoard } from "./board.js";
import { drawControls, drawPrimer, drawScores, GAME_ARIA, KEYS_HELP, statusText } from "./controls.js";
import { drawHand } from "./hand.js";
import { drawPlayers } from "./players.js";

function draw(st, act, { pending, root }) {
  const ok = !!st.can_act && st.mode !== "history" && !st.curtain && !pending;
  const play = (a) => {
    if (ok && (st.legal || []).includes(a)) act({ type: "intent", choice: a });
  };
  // a board scrolled sideways (a narrow column) stays where the player scrolled it: every redraw
  // makes a new board, which takes the old one's place once the shell has put it in
  const scrolled = root?.querySelector(".sub-board")?.scrollLeft || 0;
  const board = drawBoard(st, { act: play, canAct: ok });
  if (scrolled)
    queueMicrotask(() => {
      board.scrollLeft = scrolled;
    });
  return [
    drawPrimer(st, root),
    h(
      "div",
      { class: "sub-grid" },
      h("div", { class: "sub-main" }, board, drawHand(st)),
      h("div", { class: "sub-side" }, drawControls(st, { act: play, canAct: ok, pending }), drawPlayers(st)),
    ),
    drawScores(st),
  ];
}

/** 1–9 press the n-th highlighted action, Enter the first (a focused button's own Enter aside). */
function onKey(ev) {
  if ((ev.key === " " || ev.key === "Enter") && ev.target.closest?.("button")) return false;
  const buttons = [...ev.currentTarget.querySelectorAll("button.sub-legal[data-choice]:not([disabled])")];
  // a digit past the last highlighted action (or Enter with none) is refused: the shell says so
  const b = /^[1-9]$/.test(ev.key) ? buttons[Number(ev.key) - 1] : ev.key === "Enter" ? buttons[0] : null;
  b?.click();
  return !!b;
}

export default () => ({
  render: (ctx) =>
    mountShell(ctx, {
      title: "Submarine",
      cls: "sub-root",
      draw,
      onKey,
      help: KEYS_HELP,
      aria: GAME_ARIA,
      status: statusText,
    }),
});
