// Deep Sea Adventure's renderer on the platform's shell (js/shell.js). The shell owns the
// transport (seq on every intent, one in flight with a watchdog), the hello probe and the
// no-kernel note, the focus rule and common keys (js/keys.js), the header's status and keys badge
// and the refusal line. Deep Sea keeps its own parts (the shell's opt-outs): the board SVG and
// its animations, the controls, its turn-frame history bar (it scrubs its own `history` /
// `history_tail` traits and the `scrub` trait), the what-if bar, the hints overlay, the round and
// game summaries, the log, the players, its setup panel, its curtain and its model-level bot
// clock (initialize). Python decides.

import { Animator, drawDice } from "./animate.js";
import { COLS, drawBoard } from "./board.js";
import { createBotTimer } from "./bot-timer.js";
import { drawControls, drawWaiting } from "./controls.js";
import { drawCurtain } from "./curtain.js";
import { h, replaceChildren } from "./dom.js";
import { expandFrames, frameState } from "./history.js";
import { ariaKey, keyLabel } from "./keys.js";
import { drawLog, drawPastLog } from "./log.js";
import { choiceForKey, GAME_ARIA, GAME_HELP, isBot, statusText } from "./model.js";
import { drawHints, drawLanding } from "./overlay.js";
import { drawPlayers } from "./players.js";
import { createSetupPanel } from "./setup-panel.js";
import { mountShell } from "./shell.js";
import { drawSummary } from "./summary.js";
import { drawTimebar } from "./timebar.js";
import { drawWhatIf } from "./whatif.js";

/** From this width of the output area on, the players' cards and hints sit beside the board. */
const WIDE_PX = 880;
const NO_KERNEL =
  "Not sent: no kernel is running this board (a saved page is only a picture; run the notebook to play).";
/** A bot timer that never moves a bot: on a served page the server moves them itself. */
const NO_BOTS = { attachView: () => () => {}, noteSent() {}, dispose() {} };

function saveTrait(model, name, value) {
  model.set(name, value);
  try {
    model.save_changes();
  } catch {
    /* no kernel: the page keeps it on its own */
  }
}

/** One view of the board on the shell. `bots`: the model's bot timer (made by initialize). */
function renderView(model, el, bots) {
  // a served page's screen ({seat, name}; seat null: a spectator), or null in a notebook
  const remote = model.get("remote") || null;
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
  const whatIfBox = h("div", { class: "dsa-whatif-box" });
  const pastBanner = h("div", { class: "dsa-banner dsa-past-banner", role: "note", hidden: true });
  const timeBox = h("div", { class: "dsa-time-box" });
  const hintsBox = h("div", { class: "dsa-hints-box" });
  const summaryBox = h("div", { class: "dsa-summary-box" });
  const curtainBox = h("div", { class: "dsa-curtain-box" });
  const setup = createSetupPanel({
    getState: () => model.get("state"),
    getBotNames: () => model.get("bot_names") || ["random"],
    getBotHelp: () => model.get("bot_help") || {},
    start: (s) => {
      request({ type: "new_game", setup: s });
      shell.focus(); // a new game: its keys are live at once
    },
  });
  // the play column, and beside it in a wide cell (below it in a narrow one) the players' cards
  // first, so scores and loads stay in sight, then the hints, the log and the setup
  const main = h(
    "div",
    { class: "dsa-main" },
    curtainBox,
    dice,
    summaryBox,
    whatIfBox,
    pastBanner,
    boardBox,
    timeBox,
    controlsBox,
  );
  // a served page neither starts games nor opens what-ifs: the host does, in the notebook
  const side = h("div", { class: "dsa-side" }, playersBox, hintsBox, logDetails, remote ? null : setup.el);
  const body = h("div", { class: "dsa-body" }, main, side);

  // what the shell hands the renderer at each draw: act (its transport), root, redraw, focus
  const shell = { act: () => false, root: null, redraw: () => {}, focus: () => {}, say: () => {}, pending: false };
  let hintsFolded = false; // the hints panel folded to its header line
  // the summary this view has closed (or had already seen when it appeared): shown once each
  let summaryClosed = null;
  let drawnSeq = -1;
  let cols = COLS;
  let lastErrorN = null;
  let frames = [];
  let viewTurn = null; // the history turn shown (null: live)
  let picked = null; // the choice whose landing spaces are shaded
  const pickedDice = [1, 1]; // the what-if dice picker
  let svgNow = null;

  const isWhatIf = () => model.get("state")?.mode === "whatif";
  const inHistory = () => !isWhatIf() && viewTurn !== null && !!frames[viewTurn];
  /** The state on the board: a history frame, or the live (or what-if) state. */
  function shownState() {
    const live = model.get("state");
    return inHistory() ? frameState(frames[viewTurn], live) : live;
  }
  function refreshFrames() {
    frames = expandFrames(model.get("history"), model.get("history_tail"));
    if (viewTurn !== null && viewTurn >= frames.length) viewTurn = null;
  }
  /** A full redraw (board, header and all) through the shell. */
  function redrawAll() {
    drawnSeq = -1;
    shell.redraw();
  }
  function seek(k) {
    viewTurn = k === null || k === undefined || k < 0 || k >= frames.length ? null : k;
    saveTrait(model, "scrub", viewTurn === null ? -1 : viewTurn);
    redrawAll();
  }
  /** Send a message that changes the board through the shell (it adds the seq, waits for Python). */
  function request(msg) {
    animator.skip();
    const sent = shell.act(msg);
    // a saved page: a click or a key explains itself on the refusal line, and changes nothing
    if (!sent && shell.root?.dataset.kernel === "none") shell.say(NO_KERNEL);
    return sent;
  }
  function intent(choice) {
    const st = model.get("state");
    if (inHistory() || !st.legal.includes(choice) || (!isWhatIf() && isBot(st, st.current))) return;
    if (remote && st.current !== remote.seat) return; // a served screen plays its own seat only
    request({ type: "intent", choice });
  }
  const setPaused = (p) => request({ type: "pause", paused: p });
  function stepBot() {
    const st = model.get("state");
    if (!isBot(st, st.current) || st.over || inHistory()) return;
    bots.noteSent(st.seq);
    request({ type: "bot_step" });
  }
  const whatIfTools = {
    undo: () => request({ type: "undo" }),
    redo: () => request({ type: "redo" }),
    keep: () => request({ type: "keep" }),
    back: () => request({ type: "back_to_real" }),
    rollDice: (d) => request({ type: "roll", dice: d }),
    botMove: () => stepBot(),
  };
  const branchHere = () => request({ type: "what_if", turn: inHistory() ? viewTurn : null });

  const closeSummary = () => {
    const s = model.get("state")?.summary;
    if (s) summaryClosed = s.id;
    replaceChildren(summaryBox);
  };
  function drawSummaryNow(live, st, past, first) {
    const sum = live.mode === "whatif" || past ? null : live.summary;
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
              request({ type: "play_again" });
              shell.focus();
            },
      }),
    );
  }

  const whatIfButton = (text, label) =>
    h(
      "button",
      {
        class: "dsa-btn dsa-whatif-btn",
        "data-action": "whatif",
        "aria-label": `${label} (${keyLabel("whatIf")})`,
        "aria-keyshortcuts": ariaKey("whatIf"),
        disabled: shell.pending,
        onclick: branchHere,
      },
      text,
      h("kbd", { text: keyLabel("whatIf") }),
    );
  function drawControlsNow() {
    const live = model.get("state");
    const pending = shell.pending;
    if (inHistory()) {
      replaceChildren(
        controlsBox,
        h(
          "div",
          { class: "dsa-controls", role: "group", "aria-label": "History" },
          h("span", { class: "dsa-hint", text: "You are looking at the past." }),
          h(
            "button",
            {
              class: "dsa-btn",
              "data-action": "hist-live",
              "aria-label": `Back to the live game (${keyLabel("live")})`,
              "aria-keyshortcuts": ariaKey("live"),
              onclick: () => seek(null),
            },
            "Back to live",
            h("kbd", { text: keyLabel("live") }),
          ),
          whatIfButton("What-if from here", `What-if from turn ${viewTurn}`),
        ),
      );
      replaceChildren(whatIfBox);
    } else if (live.mode === "whatif") {
      const asHumans = { ...live, seats: live.seats.map(() => "human") };
      replaceChildren(
        controlsBox,
        drawControls(asHumans, { paused: false, pending, send: intent, onPause: setPaused, onStep: stepBot }),
      );
      replaceChildren(whatIfBox, drawWhatIf(live, { pending, on: whatIfTools, dice: pickedDice }));
    } else if (remote && (live.over || live.current !== remote.seat)) {
      replaceChildren(controlsBox, drawWaiting(live, remote));
      replaceChildren(whatIfBox);
    } else {
      const c = drawControls(live, {
        paused: model.get("paused"),
        pending,
        send: intent,
        onPause: setPaused,
        onStep: stepBot,
      });
      if (!live.over && !remote) c.append(whatIfButton("What-if…", "What-if: try another move in a branch"));
      replaceChildren(controlsBox, c);
      replaceChildren(whatIfBox);
    }
  }

  function drawTimebarNow() {
    // the what-if has its own undo/redo
    if (isWhatIf()) replaceChildren(timeBox);
    else replaceChildren(timeBox, drawTimebar(frames, inHistory() ? viewTurn : null, model.get("state"), { seek }));
  }

  function drawOverlayNow() {
    const st = model.get("state");
    const hints = !!model.get("hints");
    const ov = model.get("overlay") || {};
    const fresh = ov.seq === st.seq && !inHistory();
    const choices = fresh ? Object.keys(ov.landing || {}) : [];
    if (!choices.includes(picked)) picked = choices.includes("continue") ? "continue" : choices[0] || null;
    if (svgNow) {
      for (const old of svgNow.querySelectorAll(".dsa-ov-landing")) old.remove();
      if (hints && fresh && picked)
        svgNow.insertBefore(drawLanding(ov, picked, cols), svgNow.querySelector(".dsa-diver"));
    }
    if (inHistory() || remote) {
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
    if (shell.root) shell.root.dataset.overlaySeq = fresh ? ov.seq : "";
  }

  /** Hot-seat: between two seats the board hides behind a curtain until the next player asks. */
  const curtainDown = (live) => !!live.curtain && !live.curtain.shown && live.mode !== "whatif";
  function drawCurtainNow(live, root) {
    const down = curtainDown(live);
    root.classList.toggle("dsa-curtained", down);
    root.dataset.curtain = down ? String(live.curtain.seat) : "";
    replaceChildren(
      curtainBox,
      down ? drawCurtain(live.curtain, { pending: shell.pending, show: () => request({ type: "show_seat" }) }) : null,
    );
  }

  /** The whole board: on a new state, a scrub, or a resize. */
  function drawAll(root) {
    const live = model.get("state");
    const t0 = performance.now();
    const first = drawnSeq < 0;
    animator.skip();
    const past = inHistory();
    const st = shownState();
    const whatif = live.mode === "whatif";
    root.classList.toggle("dsa-mode-whatif", whatif);
    root.classList.toggle("dsa-mode-past", past);
    if (live.seq !== drawnSeq && live.turn === 0 && live.events.length === 0) setup.started();
    const svg = drawBoard(st, cols);
    svgNow = svg;
    replaceChildren(boardBox, svg);
    pastBanner.hidden = !past;
    pastBanner.textContent = past
      ? `History: the board after turn ${viewTurn} of ${frames.length - 1}. The live game goes on — press End to come back.`
      : "";
    // the dice show the latest roll of the game shown: the turn scrubbed to, the what-if
    // branch, or the live game (never a stale roll of another of them)
    if (past) {
      const t = st.last_turn;
      replaceChildren(dice, t?.[2].length ? drawDice([{ type: "roll", dice: t[2] }], null) : null);
    } else if (st.events.some((e) => e.type === "roll")) {
      replaceChildren(dice, drawDice(st.events, first ? null : animator));
    } else {
      replaceChildren(dice, st.last_dice ? drawDice([{ type: "roll", dice: st.last_dice }], null) : null);
    }
    drawSummaryNow(live, st, past, first);
    drawTimebarNow();
    replaceChildren(playersBox, drawPlayers(st, model.get("bot_help") || {}));
    // scrubbing: the log tells the turns up to the one shown, not the live game's
    replaceChildren(logBox, past ? drawPastLog(frames, viewTurn, st.players) : drawLog(live));
    logBox.scrollTop = logBox.scrollHeight;
    Object.assign(root.dataset, {
      step: st.step,
      current: st.current ?? "",
      round: st.round,
      air: st.air,
      turn: st.turn,
      view: past ? "history" : whatif ? "whatif" : "live",
      viewTurn: past ? viewTurn : "",
      frames: frames.length,
    });
    if (!first && !past) animator.moves(svg, st.events, cols);
    root.dataset.animations = animator.count;
    drawnSeq = live.seq;
    root.dataset.drawMs = (performance.now() - t0).toFixed(1);
  }

  /** The shell's draw: the whole board on a new state, else the controls (pending, pause, error). */
  function draw(live, act, ctx) {
    Object.assign(shell, {
      act,
      root: ctx.root,
      redraw: ctx.redraw,
      focus: ctx.focus,
      say: ctx.say,
      pending: ctx.pending,
    });
    const root = ctx.root;
    const err = model.get("error") || {};
    if (err.message && err.n !== lastErrorN && err.kind === "setup") setup.showError(err.message);
    if (err.message) lastErrorN = err.n;
    if (live.seq !== drawnSeq) drawAll(root);
    drawCurtainNow(live, root);
    drawControlsNow();
    drawOverlayNow();
    Object.assign(root.dataset, { seq: live.seq, over: live.over ? "1" : "0" });
    return body;
  }

  /** The header's words: the turn scrubbed to, the what-if, or the live game. */
  function status(live) {
    if (!live?.players) return "Loading…";
    const st = shownState();
    if (inHistory()) return `Turn ${viewTurn} of ${frames.length - 1} (history) — ${statusText(st)}`;
    return live.mode === "whatif" ? `What-if — ${statusText(st)}` : statusText(st);
  }

  /** Escape skips the animations and closes the summary (then the keys stay); else it releases them. */
  function onEscape() {
    animator.skip();
    if (!summaryBox.firstChild) return false;
    closeSummary();
    return true;
  }

  /** Every key while the board has the focus (the shell's bars: false): `action` is the common one. */
  function onKey(ev, st, _act, action) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    // Space/Enter on a focused button press that button (the browser does it)
    if ((ev.key === " " || ev.key === "Enter") && ev.target.closest?.("button")) return false;
    if (curtainDown(st)) return !!action; // nothing behind the curtain answers a key
    const k = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    // what-if, bots and hints are the host's, in the notebook
    if (remote && (["whatIf", "pause", "botMove"].includes(action) || k === "h")) return true;
    if (k === "h") {
      saveTrait(model, "hints", !model.get("hints"));
      drawOverlayNow();
      return true;
    }
    if (st.mode !== "whatif") {
      const n = frames.length - 1;
      const at = viewTurn === null ? n : viewTurn;
      if (action === "prev") {
        if (n >= 0) seek(Math.max(0, at - 1));
        return true;
      }
      if (action === "next") {
        if (viewTurn !== null) seek(at + 1 > n ? null : at + 1);
        return true;
      }
      if (action === "first") {
        if (n >= 0) seek(0);
        return true;
      }
      if (action === "live") {
        seek(null);
        return true;
      }
      if (action === "whatIf") {
        if (inHistory() || !st.over) branchHere();
        return true;
      }
      if (inHistory()) return !!action;
    } else {
      if (action === "undo") {
        if (st.whatif.can_undo) whatIfTools.undo();
        return true;
      }
      if (action === "redo") {
        if (st.whatif.can_redo) whatIfTools.redo();
        return true;
      }
      if (action === "back") {
        whatIfTools.back();
        return true;
      }
      if (action === "keep") {
        if (st.whatif.can_keep !== false) whatIfTools.keep();
        return true;
      }
      if (k === "d" && st.legal.includes("roll")) {
        whatIfTools.rollDice(pickedDice.slice());
        return true;
      }
      if (action === "botMove" && isBot(st, st.current)) {
        stepBot();
        return true;
      }
    }
    if (action === "pause") {
      setPaused(!model.get("paused"));
      return true;
    }
    if (action === "botMove") {
      if (model.get("paused")) stepBot();
      return true;
    }
    const choice = choiceForKey(ev.key, st.legal);
    if (choice) intent(choice);
    return !!choice || !!action;
  }
  boardBox.addEventListener("click", () => animator.skip());

  refreshFrames();
  {
    const v = model.get("scrub");
    viewTurn = typeof v === "number" && v >= 0 && v < frames.length ? v : null;
  }
  const cleanupShell = mountShell(
    { model, el },
    {
      title: "Deep Sea Adventure",
      cls: "dsa-deep-sea",
      draw,
      onKey,
      onEscape,
      status,
      help: GAME_HELP,
      aria: GAME_ARIA,
      // Deep Sea keeps these parts of its own
      bars: false,
      log: false,
      setup: false,
      playAgain: false,
      banner: false,
      curtain: false,
      botClock: false,
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
        redrawAll();
      }
    });
    ro.observe(root);
    ro.observe(el);
  }

  const onHistory = () => {
    refreshFrames();
    if (inHistory()) redrawAll();
    else {
      drawTimebarNow();
      root.dataset.frames = frames.length;
    }
  };
  const onScrub = () => {
    const v = model.get("scrub");
    const want = typeof v === "number" && v >= 0 ? v : null;
    if (want !== viewTurn) {
      viewTurn = want;
      redrawAll();
    }
  };
  const onOverlay = () => drawOverlayNow();
  const listeners = [
    ["change:history", onHistory],
    ["change:history_tail", onHistory],
    ["change:scrub", onScrub],
    ["change:overlay", onOverlay],
    ["change:hints", onOverlay],
  ];
  for (const [name, fn] of listeners) model.on(name, fn);
  // the model's bot timer moves the bots while this view (or another) shows the board
  const detachBots = bots.attachView({
    onSendError: () => {
      root.dataset.kernel = "none"; // the shell's note says why nothing moves
      shell.redraw();
    },
  });
  return () => {
    cleanupShell();
    detachBots();
    if (ro) ro.disconnect();
    animator.skip();
    for (const [name, fn] of listeners) model.off(name, fn);
  };
}

/**
 * anywidget calls this once per model (a fresh closure each time), then initialize({model}) once
 * and render({model, el}) once per view: model-level work (the bot timer) lives in initialize.
 */
export default () => {
  let bots = null; // this model's bot timer
  return {
    initialize({ model }) {
      const timer = createBotTimer(model);
      bots = timer;
      return () => {
        timer.dispose();
        if (bots === timer) bots = null;
      };
    },
    render({ model, el }) {
      // initialize runs first in anywidget; a host that skips it gets a timer for this view alone
      // a served page's bots move on the server: no timer there
      const own = bots || model.get("remote") ? null : createBotTimer(model);
      const cleanup = renderView(model, el, bots ?? own ?? NO_BOTS);
      return () => {
        cleanup();
        own?.dispose();
      };
    },
  };
};
