// dsa_widget front end: draws the synced `state`, sends intents. Python decides.

import { Animator, drawDice } from "./animate.js";
import { COLS, drawBoard } from "./board.js";
import { createBotTimer } from "./bot-timer.js";
import { drawControls, drawWaiting } from "./controls.js";
import { drawCurtain } from "./curtain.js";
import { h, replaceChildren } from "./dom.js";
import { expandFrames, frameState } from "./history.js";
import { ariaKey, attachKeys, COMMON_ARIA, COMMON_HELP, keyLabel } from "./keys.js";
import { drawLog, drawPastLog } from "./log.js";
import { choiceForKey, GAME_ARIA, GAME_HELP, isBot, statusText } from "./model.js";
import { drawHints, drawLanding } from "./overlay.js";
import { drawPlayers } from "./players.js";
import { createSetupPanel } from "./setup-panel.js";
import { drawSummary } from "./summary.js";
import { drawTimebar } from "./timebar.js";
import { drawWhatIf } from "./whatif.js";

const ANSWER_TIMEOUT_MS = 3000;
/** From this width of the output area on, the players' cards and hints sit beside the board. */
const WIDE_PX = 880;
const NO_KERNEL = "No kernel is connected: this board is a picture (run the notebook to play).";
const NO_TABLE = "Not connected to the table: reconnecting…";
/** A bot timer that never moves a bot: on a served page the server moves them itself. */
const NO_BOTS = { attachView: () => () => {}, noteSent() {}, dispose() {} };

/** One view of the board. `bots`: the model's bot timer (made by initialize), shared by its views. */
function renderView(model, el, bots) {
  // a served page's screen ({seat, name}; seat null: a spectator), or null in a notebook
  const remote = model.get("remote") || null;
  const noPython = remote ? NO_TABLE : NO_KERNEL;
  const animator = new Animator();
  const status = h("div", { class: "dsa-status", role: "status", "aria-live": "polite" });
  const dice = h("div", { class: "dsa-dice-box" });
  const header = h("div", { class: "dsa-header" }, status, dice);
  const boardBox = h("div", { class: "dsa-board-box", title: "Click the board to skip animations" });
  const controlsBox = h("div", { class: "dsa-controls-box" });
  const error = h("div", { class: "dsa-error", role: "alert", hidden: true });
  const playersBox = h("div", { class: "dsa-players-box" });
  const logBox = h("div", { class: "dsa-log", tabindex: "0", "aria-label": "Turn log" });
  const logDetails = h("details", { class: "dsa-log-details", open: true }, h("summary", { text: "Turn log" }), logBox);
  // the log opens at its end: the latest turn in sight
  logDetails.addEventListener("toggle", () => {
    if (logDetails.open) logBox.scrollTop = logBox.scrollHeight;
  });
  const help = h(
    "div",
    { class: "dsa-keys-help" },
    h("p", { class: "dsa-keys", text: GAME_HELP }),
    h("p", { class: "dsa-keys dsa-common-keys", text: COMMON_HELP }),
  );
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
      send({ type: "new_game", seq: model.get("state").seq, setup: s });
      keys.focus(); // a new game: its keys are live at once
    },
  });
  const root = h(
    "div",
    {
      class: "dsa-root",
      role: "group",
      "aria-label": "Deep Sea Adventure game",
      "aria-keyshortcuts": `${GAME_ARIA} ${COMMON_ARIA}`,
    },
    // the play column, and beside it in a wide cell (below it in a narrow one) the players'
    // cards first, so scores and loads stay in sight, then the hints, the log and the rest
    h(
      "div",
      { class: "dsa-main" },
      curtainBox,
      header,
      summaryBox,
      whatIfBox,
      pastBanner,
      boardBox,
      timeBox,
      controlsBox,
      error,
    ),
    // a served page neither starts games nor opens what-ifs: the host does, in the notebook
    h("div", { class: "dsa-side" }, playersBox, hintsBox, logDetails, remote ? null : setup.el, remote ? null : help),
  );
  el.append(root);
  // the shared focus rule and common keys (js/keys.js); this game's own keys are onKeydown's
  const keys = attachKeys(root, { onKey: onKeydown, onEscape });
  header.insertBefore(keys.badge, dice);

  let pending = false;
  let hintsFolded = false; // the hints panel folded to its header line
  // the summary this view has closed (or had already seen when it appeared): shown once each
  let summaryClosed = null;
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
          keys.focus();
        },
        playAgain: remote
          ? null
          : () => {
              closeSummary();
              send({ type: "play_again", seq: model.get("state").seq });
              keys.focus();
            },
      }),
    );
  }
  let watchdog = null;
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
  function seek(k) {
    viewTurn = k === null || k === undefined || k < 0 || k >= frames.length ? null : k;
    try {
      model.set("scrub", viewTurn === null ? -1 : viewTurn);
      model.save_changes();
    } catch {
      /* no kernel: the page scrubs on its own */
    }
    drawnSeq = -1;
    draw();
  }

  function send(msg) {
    try {
      model.send(msg);
      return true;
    } catch {
      showError(noPython);
      return false;
    }
  }

  function showError(text) {
    error.hidden = !text;
    error.textContent = text || "";
  }

  function intent(choice) {
    const st = model.get("state");
    if (inHistory() || !st.legal.includes(choice) || (!isWhatIf() && isBot(st, st.current))) return;
    if (remote && st.current !== remote.seat) return; // a served screen plays its own seat only
    request({ type: "intent", seq: st.seq, choice });
  }

  /** Send a message that changes the board; wait for Python's answer. */
  function request(msg) {
    const st = model.get("state");
    if (pending) return;
    msg.seq = st.seq;
    animator.skip();
    pending = true;
    root.dataset.pending = "1";
    drawControlsNow();
    if (!send(msg)) {
      pending = false;
      delete root.dataset.pending;
      drawControlsNow();
      return;
    }
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      if (!pending) return;
      pending = false;
      delete root.dataset.pending;
      showError(
        "No answer from Python: no kernel is running this board (a saved page is only a picture), or it is busy.",
      );
      root.dataset.error = "timeout";
      drawControlsNow();
    }, ANSWER_TIMEOUT_MS);
  }

  function setPaused(p) {
    send({ type: "pause", seq: model.get("state").seq, paused: p });
  }
  function stepBot() {
    const st = model.get("state");
    if (!isBot(st, st.current) || st.over || inHistory()) return;
    bots.noteSent(st.seq);
    send({ type: "bot_step", seq: st.seq });
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

  function drawControlsNow() {
    const live = model.get("state");
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
          h(
            "button",
            {
              class: "dsa-btn dsa-whatif-btn",
              "data-action": "whatif",
              "aria-label": `What-if from turn ${viewTurn} (${keyLabel("whatIf")})`,
              "aria-keyshortcuts": ariaKey("whatIf"),
              disabled: pending,
              onclick: branchHere,
            },
            "What-if from here",
            h("kbd", { text: keyLabel("whatIf") }),
          ),
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
      if (!live.over && !remote) {
        c.append(
          h(
            "button",
            {
              class: "dsa-btn dsa-whatif-btn",
              "data-action": "whatif",
              "aria-label": `What-if: try another move in a branch (${keyLabel("whatIf")})`,
              "aria-keyshortcuts": ariaKey("whatIf"),
              disabled: pending,
              onclick: branchHere,
            },
            "What-if…",
            h("kbd", { text: keyLabel("whatIf") }),
          ),
        );
      }
      replaceChildren(controlsBox, c);
      replaceChildren(whatIfBox);
    }
  }

  function drawTimebarNow() {
    const live = model.get("state");
    // the what-if has its own undo/redo
    if (live.mode === "whatif") {
      replaceChildren(timeBox);
      return;
    }
    replaceChildren(timeBox, drawTimebar(frames, inHistory() ? viewTurn : null, live, { seek }));
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
      if (hints && fresh && picked) {
        const layer = drawLanding(ov, picked, cols);
        svgNow.insertBefore(layer, svgNow.querySelector(".dsa-diver"));
      }
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
          model.set("hints", on);
          try {
            model.save_changes();
          } catch {
            /* no kernel */
          }
          drawOverlayNow();
        },
        onPick: (c) => {
          picked = c;
          drawOverlayNow();
        },
      }),
    );
    root.dataset.overlaySeq = fresh ? ov.seq : "";
  }

  function draw() {
    const live = model.get("state");
    if (!live?.players) return;
    const t0 = performance.now();
    const first = drawnSeq < 0;
    pending = false;
    clearTimeout(watchdog);
    delete root.dataset.pending;
    animator.skip();
    const past = inHistory();
    const st = shownState();
    const whatif = live.mode === "whatif";
    root.classList.toggle("dsa-mode-whatif", whatif);
    root.classList.toggle("dsa-mode-past", past);
    const svg = drawBoard(st, cols);
    svgNow = svg;
    replaceChildren(boardBox, svg);
    status.textContent = past
      ? `Turn ${viewTurn} of ${frames.length - 1} (history) — ${statusText(st)}`
      : whatif
        ? `What-if — ${statusText(st)}`
        : statusText(st);
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
    drawCurtainNow(live);
    drawControlsNow();
    drawTimebarNow();
    replaceChildren(playersBox, drawPlayers(st, model.get("bot_help") || {}));
    // scrubbing: the log tells the turns up to the one shown, not the live game's
    replaceChildren(logBox, past ? drawPastLog(frames, viewTurn, st.players) : drawLog(live));
    logBox.scrollTop = logBox.scrollHeight;
    const err = model.get("error");
    if (!err?.message) showError("");
    Object.assign(root.dataset, {
      seq: live.seq,
      step: st.step,
      current: st.current ?? "",
      round: st.round,
      air: st.air,
      over: st.over ? "1" : "0",
      turn: st.turn,
      view: past ? "history" : whatif ? "whatif" : "live",
      viewTurn: past ? viewTurn : "",
      frames: frames.length,
    });
    drawOverlayNow();
    if (!first && !past) animator.moves(svg, st.events, cols);
    root.dataset.animations = animator.count;
    drawnSeq = live.seq;
    root.dataset.drawMs = (performance.now() - t0).toFixed(1);
  }

  /** Hot-seat: between two seats the board hides behind a curtain until the next player asks. */
  function curtainDown(live) {
    return !!live.curtain && !live.curtain.shown && live.mode !== "whatif";
  }
  function drawCurtainNow(live) {
    const down = curtainDown(live);
    root.classList.toggle("dsa-curtained", down);
    root.dataset.curtain = down ? String(live.curtain.seat) : "";
    if (!down) {
      replaceChildren(curtainBox);
      return;
    }
    replaceChildren(
      curtainBox,
      drawCurtain(live.curtain, {
        pending,
        show: () => request({ type: "show_seat" }),
      }),
    );
  }

  function onError() {
    const err = model.get("error") || {};
    if (err.message && err.n !== lastErrorN) {
      lastErrorN = err.n;
      pending = false;
      clearTimeout(watchdog);
      delete root.dataset.pending;
      const prefix =
        {
          stale: "Ignored: ",
          illegal: "Not allowed: ",
          malformed: "Bad request: ",
          setup: "Cannot start: ",
          bot: "Bot error: ",
        }[err.kind] || "";
      showError(prefix + err.message);
      root.dataset.error = err.kind;
      if (err.kind === "setup") setup.showError(err.message);
      drawControlsNow();
    } else if (!err.message) {
      showError("");
      delete root.dataset.error;
    }
  }

  /** Escape skips the animations and closes the summary (then the keys stay); else it releases them. */
  function onEscape() {
    animator.skip();
    if (!summaryBox.firstChild) return false;
    closeSummary();
    return true;
  }

  /** A key while the board has the focus (js/keys.js): `action` is the common action, if any. */
  function onKeydown(ev, action) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    // Space/Enter on a focused button press that button (the browser does it)
    if ((ev.key === " " || ev.key === "Enter") && ev.target.closest?.("button")) return false;
    const st = model.get("state");
    if (curtainDown(st)) return false; // nothing behind the curtain answers a key
    const k = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    // what-if, bots and hints are the host's, in the notebook
    if (remote && (["whatIf", "pause", "botMove"].includes(action) || k === "h")) return true;
    if (k === "h") {
      model.set("hints", !model.get("hints"));
      try {
        model.save_changes();
      } catch {
        /* no kernel */
      }
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
      if (inHistory()) return false;
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
    return !!choice;
  }
  boardBox.addEventListener("click", () => animator.skip());

  // a narrow cell gets fewer spaces per row (bigger chips)
  let ro = null;
  if (typeof ResizeObserver === "function") {
    ro = new ResizeObserver(() => {
      // a wide cell puts the side column beside the board
      const wide = el.clientWidth >= WIDE_PX;
      if ((root.dataset.wide === "1") !== wide) root.dataset.wide = wide ? "1" : "0";
      const w = root.querySelector(".dsa-main")?.clientWidth || root.clientWidth;
      const want = w > 0 && w < 440 ? 5 : COLS;
      if (want !== cols) {
        cols = want;
        drawnSeq = -1;
        draw();
      }
    });
    ro.observe(root);
    ro.observe(el);
  }

  const onState = () => {
    const st = model.get("state");
    if (st && st.seq !== drawnSeq) {
      if (st.turn === 0 && st.events.length === 0) setup.started();
      draw();
    }
  };
  const onPaused = () => drawControlsNow();
  const onHistory = () => {
    refreshFrames();
    if (inHistory()) {
      drawnSeq = -1;
      draw();
    } else drawTimebarNow();
  };
  const onScrub = () => {
    const v = model.get("scrub");
    const want = typeof v === "number" && v >= 0 ? v : null;
    if (want !== viewTurn) {
      viewTurn = want;
      drawnSeq = -1;
      draw();
    }
  };
  const onOverlay = () => drawOverlayNow();
  const listeners = [
    ["change:state", onState],
    ["change:error", onError],
    ["change:paused", onPaused],
    ["change:history", onHistory],
    ["change:history_tail", onHistory],
    ["change:scrub", onScrub],
    ["change:overlay", onOverlay],
    ["change:hints", onOverlay],
  ];
  for (const [name, fn] of listeners) model.on(name, fn);
  refreshFrames();
  {
    const v = model.get("scrub");
    viewTurn = typeof v === "number" && v >= 0 && v < frames.length ? v : null;
  }
  draw();
  onError();
  // the model's bot timer moves the bots while this view (or another) shows the board
  const detachBots = bots.attachView({ onSendError: () => showError(noPython) });
  // is a kernel there? A saved page (static HTML export) has none: the controls that need
  // Python are then disabled, with a note; the history slider still works on its own
  // (Python answers a view's hello by setting `hello` to its number; no answer in 2 s: none)
  const helloN = Math.floor(Math.random() * 2 ** 31);
  const staticNote = h("p", {
    class: "dsa-banner dsa-static-note",
    role: "note",
    text: "No Python is running this board (a saved page, or a busy kernel): it cannot play now. The history slider still replays the game.",
  });
  const onHello = () => {
    if (model.get("hello") !== helloN) return;
    clearTimeout(helloTimer);
    delete root.dataset.kernel;
    staticNote.remove();
  };
  model.on("change:hello", onHello);
  const helloTimer = setTimeout(() => {
    root.dataset.kernel = "none";
    const main = root.querySelector(".dsa-main");
    main.insertBefore(staticNote, main.firstChild); // inside the play column, whatever the layout
  }, 2000);
  try {
    model.send({ type: "hello", n: helloN });
  } catch {
    /* the timer says it */
  }
  return () => {
    keys.dispose();
    clearTimeout(helloTimer);
    model.off("change:hello", onHello);
    detachBots();
    clearTimeout(watchdog);
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
