// dsa_widget front end: draws the synced `state`, sends intents. Python decides.
import { h, replaceChildren } from "./dom.js";
import { COLS, drawBoard } from "./board.js";
import { drawPlayers } from "./players.js";
import { drawControls } from "./controls.js";
import { drawLog } from "./log.js";
import { createSetupPanel } from "./setup-panel.js";
import { Animator, drawDice } from "./animate.js";
import { choiceForKey, isBot, statusText } from "./model.js";

const ANSWER_TIMEOUT_MS = 3000;

function render({ model, el }) {
  const animator = new Animator();
  const status = h("div", { class: "dsa-status", role: "status", "aria-live": "polite" });
  const dice = h("div", { class: "dsa-dice-box" });
  const header = h("div", { class: "dsa-header" }, status, dice);
  const boardBox = h("div", { class: "dsa-board-box", title: "Click the board or press Escape to skip animations" });
  const controlsBox = h("div", { class: "dsa-controls-box" });
  const error = h("div", { class: "dsa-error", role: "alert", hidden: true });
  const playersBox = h("div", { class: "dsa-players-box" });
  const logBox = h("div", { class: "dsa-log", tabindex: "0", "aria-label": "Turn log" });
  const logDetails = h("details", { class: "dsa-log-details", open: true }, h("summary", { text: "Turn log" }), logBox);
  const help = h("p", { class: "dsa-keys", text: "Keys: R/Space roll · T take · N do nothing · B turn back · C keep diving · 1–9 put down · P pause bots · S step · Esc skip animation" });
  const setup = createSetupPanel({
    getState: () => model.get("state"),
    getBotNames: () => model.get("bot_names") || ["random"],
    start: (s) => send({ type: "new_game", seq: model.get("state").seq, setup: s }),
  });
  // data-lm-suppress-shortcuts: keys pressed in the board are the game's, not JupyterLab's
  // command-mode shortcuts (R would turn the cell raw, C copy it, B insert a cell...).
  const root = h("div", { class: "dsa-root", tabindex: "0", role: "group", "aria-label": "Deep Sea Adventure game",
    "aria-keyshortcuts": "R Space T N B C 1 2 3 4 5 6 7 8 9 P S Escape", "data-lm-suppress-shortcuts": "true" },
    header, boardBox, controlsBox, error, playersBox, logDetails, setup.el, help);
  el.append(root);

  let pending = false;
  let watchdog = null;
  let botTimer = null;
  let botSeq = -1;
  let drawnSeq = -1;
  let cols = COLS;
  let lastErrorN = null;

  function send(msg) {
    try {
      model.send(msg);
      return true;
    } catch (e) {
      showError("No kernel is connected: this board is a picture (run the notebook to play).");
      return false;
    }
  }

  function showError(text) {
    error.hidden = !text;
    error.textContent = text || "";
  }

  function intent(choice) {
    const st = model.get("state");
    if (pending || !st.legal.includes(choice) || isBot(st, st.current)) return;
    animator.skip();
    pending = true;
    root.dataset.pending = "1";
    drawControlsNow();
    if (!send({ type: "intent", seq: st.seq, choice })) { pending = false; delete root.dataset.pending; drawControlsNow(); return; }
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      if (!pending) return;
      pending = false;
      delete root.dataset.pending;
      showError("No answer from Python: no kernel is running this board (a saved page is only a picture), or it is busy.");
      root.dataset.error = "timeout";
      drawControlsNow();
    }, ANSWER_TIMEOUT_MS);
  }

  function setPaused(p) { send({ type: "pause", paused: p }); }
  function stepBot() {
    const st = model.get("state");
    if (!isBot(st, st.current) || st.over) return;
    botSeq = st.seq;
    send({ type: "bot_step", seq: st.seq });
  }

  function drawControlsNow() {
    const st = model.get("state");
    const hadFocus = controlsBox.contains(document.activeElement);
    replaceChildren(controlsBox, drawControls(st, { paused: model.get("paused"), pending, send: intent, onPause: setPaused, onStep: stepBot }));
    if (hadFocus) root.focus({ preventScroll: true });
  }

  function scheduleBot() {
    clearTimeout(botTimer);
    const st = model.get("state");
    if (st.over || !isBot(st, st.current) || model.get("paused") || botSeq === st.seq) return;
    botTimer = setTimeout(() => {
      const now = model.get("state");
      if (now.seq !== st.seq || model.get("paused")) return;
      botSeq = st.seq;
      send({ type: "bot_step", seq: st.seq });
    }, Math.max(0, model.get("bot_delay") ?? 600));
  }

  function draw() {
    const st = model.get("state");
    if (!st || !st.players) return;
    const t0 = performance.now();
    const first = drawnSeq < 0;
    pending = false;
    clearTimeout(watchdog);
    delete root.dataset.pending;
    animator.skip();
    const svg = drawBoard(st, cols);
    replaceChildren(boardBox, svg);
    status.textContent = statusText(st);
    // the dice keep showing the last roll until the next one
    if (st.events.some((e) => e.type === "roll") || st.turn === 0 && !st.events.length) {
      replaceChildren(dice, drawDice(st.events, first ? null : animator));
    }
    drawControlsNow();
    replaceChildren(playersBox, drawPlayers(st));
    replaceChildren(logBox, drawLog(st));
    logBox.scrollTop = logBox.scrollHeight;
    const err = model.get("error");
    if (!err || !err.message) showError("");
    Object.assign(root.dataset, {
      seq: st.seq, step: st.step, current: st.current ?? "", round: st.round, air: st.air,
      over: st.over ? "1" : "0", turn: st.turn,
    });
    if (!first) animator.moves(svg, st, st.events, cols);
    root.dataset.animations = animator.count;
    drawnSeq = st.seq;
    root.dataset.drawMs = (performance.now() - t0).toFixed(1);
    scheduleBot();
  }

  function onError() {
    const err = model.get("error") || {};
    if (err.message && err.n !== lastErrorN) {
      lastErrorN = err.n;
      pending = false;
      clearTimeout(watchdog);
      delete root.dataset.pending;
      const prefix = { stale: "Ignored: ", illegal: "Not allowed: ", malformed: "Bad request: ", setup: "Cannot start: ", bot: "Bot error: " }[err.kind] || "";
      showError(prefix + err.message);
      root.dataset.error = err.kind;
      if (err.kind === "setup") setup.showError(err.message);
      drawControlsNow();
    } else if (!err.message) {
      showError("");
      delete root.dataset.error;
    }
  }

  root.addEventListener("keydown", (ev) => {
    if (ev.target.closest && ev.target.closest("input, select, textarea, summary, form")) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    // Space/Enter on a focused button press that button (the browser does it)
    if ((ev.key === " " || ev.key === "Enter") && ev.target.closest && ev.target.closest("button")) return;
    const st = model.get("state");
    if (ev.key === "Escape") { animator.skip(); return; }
    if (ev.key === "p" || ev.key === "P") { setPaused(!model.get("paused")); ev.preventDefault(); return; }
    if ((ev.key === "s" || ev.key === "S") && model.get("paused")) { stepBot(); ev.preventDefault(); return; }
    const choice = choiceForKey(ev.key, st.legal);
    if (choice) {
      ev.preventDefault();
      ev.stopPropagation();
      intent(choice);
    }
  });
  boardBox.addEventListener("click", () => animator.skip());

  // a narrow cell gets fewer spaces per row (bigger chips)
  let ro = null;
  if (typeof ResizeObserver === "function") {
    ro = new ResizeObserver(() => {
      const w = root.clientWidth;
      const want = w > 0 && w < 440 ? 5 : COLS;
      if (want !== cols) {
        cols = want;
        drawnSeq = -1;
        draw();
      }
    });
    ro.observe(root);
  }

  const onState = () => {
    const st = model.get("state");
    if (st && st.seq !== drawnSeq) {
      if (st.turn === 0 && st.events.length === 0) setup.started();
      draw();
    }
  };
  const onPaused = () => { drawControlsNow(); scheduleBot(); };
  model.on("change:state", onState);
  model.on("change:error", onError);
  model.on("change:paused", onPaused);
  draw();
  onError();
  return () => {
    clearTimeout(botTimer);
    clearTimeout(watchdog);
    if (ro) ro.disconnect();
    animator.skip();
    model.off("change:state", onState);
    model.off("change:error", onError);
    model.off("change:paused", onPaused);
  };
}

export default { render };
