// Deep Sea Adventure's renderer on the platform's shell (js/shell.js). The shell owns what every
// game shares: the transport (seq on every intent, one in flight with a watchdog), the hello
// probe and the no-kernel note, the focus rule and common keys (js/keys.js), the header, the
// refusal line, the curtain, the bot clock, the history and what-if bar (step back and on, the
// what-if, undo, redo, keep, play on, back to the real game), the setup form generated from the
// game's schema and the static-export rule (a saved page scrubs the synced past on its own).
// Deep Sea draws only its own: the board SVG and its animations, the dice, the choices (and the
// what-if's chosen dice), the players' cards, the hints overlay, the round and game summaries,
// the turn log and the comparison's table. Python decides.

import { Animator, drawDice } from "./animate.js";
import { COLS, drawBoard, pathWords } from "./board.js";
import { drawControls } from "./controls.js";
import { h, replaceChildren } from "./dom.js";
import { drawLog } from "./log.js";
import { choiceForKey, GAME_ARIA, GAME_HELP, SERVED_GAME_ARIA, SERVED_GAME_HELP, statusText } from "./model.js";
import { drawHints, drawLanding } from "./overlay.js";
import { drawPlayers } from "./players.js";
import { mountShell, saveTrait } from "./shell.js";
import { drawSummary } from "./summary.js";
import { drawCompare, drawDicePicker } from "./whatif.js";

/** From this width of the output area on, the players' cards and hints sit beside the board. */
const WIDE_PX = 880;

/** One view of the board on the shell. */
function renderView(model, el) {
  const remote = model.get("remote") || null; // a served page's screen ({seat, name})
  const animator = new Animator();
  const dice = h("div", { class: "dsa-dice-box" });
  const boardBox = h("div", { class: "dsa-board-box", title: "Click the board to skip animations" });
  const controlsBox = h("div", { class: "dsa-controls-box" });
  const playersBox = h("div", { class: "dsa-players-box" });
  const logBox = h("div", { class: "dsa-log", tabindex: "0", "aria-label": "Turn log" });
  const logDetails = h("details", { class: "dsa-log-details", open: true }, h("summary", { text: "Turn log" }), logBox);
  // the log opens at its end: the latest turn in sight
  logDetails.addEventListener("toggle", () => {
    if (logDetails.open) logBox.scrollTop = logBox.scrollHeight;
  });
  const hintsBox = h("div", { class: "dsa-hints-box" });
  const summaryBox = h("div", { class: "dsa-summary-box" });
  // the play column, and beside it in a wide cell (below it in a narrow one) the players' cards
  // first, so scores and loads stay in sight, then the hints and the log
  const main = h("div", { class: "dsa-main" }, dice, summaryBox, boardBox, controlsBox);
  const side = h("div", { class: "dsa-side" }, playersBox, hintsBox, logDetails);
  const body = h("div", { class: "dsa-body" }, main, side);

  // what the shell hands the renderer at each draw
  const shell = { act: () => false, root: null, redraw: () => {}, focus: () => {}, say: () => {}, pending: false };
  let hintsFolded = false; // the hints panel folded to its header line
  // the summary this view has closed (or had already seen when it appeared): shown once each
  let summaryClosed = null;
  let drawnKey = null; // the state drawn last (its seq, mode and step shown)
  let cols = COLS;
  let shown = null; // the state on the board now
  let picked = null; // the choice whose landing spaces are shaded
  const pickedDice = [1, 1]; // the what-if's dice picker

  const send = (choice) => {
    animator.skip();
    shell.act({ type: "intent", choice });
  };
  const rollDice = (d) => {
    animator.skip();
    shell.act({ type: "roll", dice: d });
  };
  const closeSummary = () => {
    const s = shown?.summary;
    if (s) summaryClosed = s.id;
    const held = summaryHolds();
    replaceChildren(summaryBox);
    if (held) shell.redraw(); // the bots were waiting for it: their clock starts again
  };
  // A round's summary is news to read before the next round starts: while it is open the
  // bots wait (Continue or Escape closes it), instead of playing on behind it.
  const summaryHolds = () => !!summaryBox.firstChild && !summaryBox.firstChild.classList.contains("dsa-summary-game");
  function drawSummaryNow(st, first) {
    const sum = st.mode === "real" ? st.summary : null;
    if (first && sum && !sum.over) summaryClosed = sum.id; // a reload does not replay old news
    if (!sum || sum.id === summaryClosed) {
      replaceChildren(summaryBox);
      return;
    }
    if (summaryBox.firstChild?.dataset.summary === sum.id) return;
    replaceChildren(
      summaryBox,
      drawSummary(st, sum, {
        close: () => {
          closeSummary();
          shell.focus();
        },
        playAgain: remote
          ? null
          : () => {
              closeSummary();
              animator.skip();
              shell.act({ type: "play_again" });
              shell.focus();
            },
      }),
    );
  }

  /** The what-if's chosen dice, while a roll is what comes next in it. */
  const dicePicker = (st) =>
    st.mode === "whatif" && !st.over && st.step === "roll"
      ? drawDicePicker(pickedDice, { pending: shell.pending, roll: rollDice })
      : null;
  function drawControlsNow(st) {
    replaceChildren(
      controlsBox,
      drawControls(st, { paused: model.get("paused"), pending: shell.pending, send, extra: dicePicker(st) }),
    );
  }

  function drawOverlayNow() {
    const st = shown;
    if (!st) return;
    const hints = !!model.get("hints");
    const ov = model.get("overlay") || {};
    const fresh = ov.seq === st.seq && st.mode !== "history";
    const choices = fresh ? Object.keys(ov.landing || {}) : [];
    if (!choices.includes(picked)) picked = choices.includes("continue") ? "continue" : choices[0] || null;
    const svg = boardBox.querySelector("svg");
    if (svg) {
      for (const old of svg.querySelectorAll(".dsa-ov-landing")) old.remove();
      if (hints && fresh && picked) svg.insertBefore(drawLanding(ov, picked, cols), svg.querySelector(".dsa-diver"));
    }
    if (st.mode === "history" || remote) {
      replaceChildren(hintsBox);
      return;
    }
    replaceChildren(
      hintsBox,
      drawHints(st, fresh ? ov : null, {
        hints,
        picked,
        folded: hintsFolded,
        onFold: (f) => {
          hintsFolded = f; // this view only: the numbers keep coming, just out of sight
          drawOverlayNow();
        },
        onHints: (on) => {
          saveTrait(model, "hints", on);
          drawOverlayNow();
        },
        onPick: (c) => {
          picked = c;
          drawOverlayNow();
        },
      }),
    );
    // set once the figures themselves are on screen (not while the first ones are warming up)
    if (shell.root) shell.root.dataset.overlaySeq = fresh && !ov.warming ? ov.seq : "";
  }

  /** The board, the dice, the cards and the log: on a new state, a step scrubbed to, a resize. */
  function drawAll(st, root) {
    const t0 = performance.now();
    const first = drawnKey === null;
    animator.skip();
    const svg = drawBoard(st, cols);
    // the picture is one image to a screen reader: the path and the divers in words beside it
    const words = h(
      "ol",
      { class: "dsa-sr-only dsa-path-words", "aria-label": "The path in words" },
      pathWords(st).map((w) => h("li", { text: w })),
    );
    replaceChildren(boardBox, svg, words);
    // the dice show the latest roll of the game shown: the step scrubbed to, the what-if, or
    // the live game (never a stale roll of another of them)
    if (st.events.some((e) => e.type === "roll")) replaceChildren(dice, drawDice(st.events, first ? null : animator));
    else replaceChildren(dice, st.last_dice ? drawDice([{ type: "roll", dice: st.last_dice }], null) : null);
    drawSummaryNow(st, first);
    replaceChildren(playersBox, drawPlayers(st, model.get("bot_help") || {}));
    replaceChildren(logBox, drawLog(st));
    logBox.scrollTop = logBox.scrollHeight;
    Object.assign(root.dataset, {
      step: st.step,
      current: st.current ?? "",
      round: st.round,
      air: st.air,
      turn: st.turn,
      view: st.mode === "real" ? "live" : st.mode,
    });
    if (!first && st.mode !== "history") animator.moves(svg, st.events, cols);
    root.dataset.animations = animator.count;
    root.dataset.drawMs = (performance.now() - t0).toFixed(1);
  }

  /** The shell's draw: the whole board on a new state, else the controls (pending, pause). */
  function draw(st, act, ctx) {
    Object.assign(shell, {
      act,
      root: ctx.root,
      redraw: ctx.redraw,
      focus: ctx.focus,
      say: ctx.say,
      pending: ctx.pending,
    });
    shown = st;
    const key = `${st.seq}/${st.mode}/${st.history?.at ?? ""}/${cols}`;
    if (key !== drawnKey) {
      drawAll(st, ctx.root);
      drawnKey = key;
    }
    drawControlsNow(st);
    drawOverlayNow();
    return body;
  }

  /** Escape skips the animations and closes the summary (then the keys stay); else it releases them. */
  function onEscape() {
    animator.skip();
    if (!summaryBox.firstChild) return false;
    closeSummary();
    return true;
  }

  /** Deep Sea's own keys (the common ones are the shell's): its choices, D and H. */
  function onKey(ev, st) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    // Space/Enter on a focused button press that button (the browser does it)
    if ((ev.key === " " || ev.key === "Enter") && ev.target.closest?.("button")) return false;
    const k = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    // a served table has no hints and no what-if: its D and H say so instead of nothing
    if (remote && (k === "h" || k === "d")) {
      shell.say(k === "h" ? "H: no hints at a served table" : "D: the chosen dice are for a what-if");
      return true;
    }
    if (k === "h") {
      saveTrait(model, "hints", !model.get("hints"));
      drawOverlayNow();
      return true;
    }
    if (k === "d") {
      if (dicePicker(st)) rollDice(pickedDice.slice());
      return true;
    }
    const choice = st.can_act ? choiceForKey(ev.key, st.legal) : null;
    if (choice) send(choice);
    return !!choice;
  }
  boardBox.addEventListener("click", () => animator.skip());

  const cleanupShell = mountShell(
    { model, el },
    {
      title: "Deep Sea Adventure",
      cls: "dsa-deep-sea",
      draw,
      onKey,
      onEscape,
      status: statusText, // the shell says which step of the history, or that it is a what-if
      help: remote ? SERVED_GAME_HELP : GAME_HELP,
      aria: remote ? SERVED_GAME_ARIA : GAME_ARIA, // a served page's D and H only say why not
      drawCompare,
      // the live region tells the turn log's new lines (Deep Sea sends no history labels)
      told: (st) => ({ total: st.log_total ?? 0, lines: (st.log || []).slice(-6) }),
      botClock: (st) => (st.kinds?.[st.actor] ?? "human") !== "human" && !summaryHolds(),
      // the round and game summaries tell the end, with their own Play again
      banner: false,
      playAgain: false,
    },
  );
  const root = shell.root || el.querySelector(".dsa-root");

  // a narrow cell gets fewer spaces per row (bigger chips); a wide one puts the side column beside
  let ro = null;
  if (typeof ResizeObserver === "function") {
    ro = new ResizeObserver(() => {
      const wide = el.clientWidth >= WIDE_PX;
      if ((root.dataset.wide === "1") !== wide) root.dataset.wide = wide ? "1" : "0";
      const w = main.clientWidth || root.clientWidth;
      const want = w > 0 && w < 440 ? 5 : COLS;
      if (want !== cols) {
        cols = want;
        shell.redraw();
      }
    });
    ro.observe(root);
    ro.observe(el);
  }
  const onOverlay = () => drawOverlayNow();
  for (const name of ["change:overlay", "change:hints"]) model.on(name, onOverlay);
  return () => {
    cleanupShell();
    if (ro) ro.disconnect();
    animator.skip();
    for (const name of ["change:overlay", "change:hints"]) model.off(name, onOverlay);
  };
}

export default () => ({ render: ({ model, el }) => renderView(model, el) });
