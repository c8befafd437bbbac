// The Crew front end: draws the synced `state` (one seat's view, built by Python from
// CrewView.to_dict()), sends intents. Python checks every intent; nothing here decides a rule.

import { createBotTimer } from "../bot-timer.js";
import { drawCurtain } from "../curtain.js";
import { h, replaceChildren } from "../dom.js";
import { attachKeys, COMMON_ARIA, COMMON_HELP, keyLabel } from "../keys.js";
import { actorOf, keyIntent, outcomeText, sortCards, turnText } from "./cards.js";
import { drawControls } from "./controls.js";
import { drawHand, keepFocus } from "./hand.js";
import { drawHistoryBar, drawWhatIf } from "./history.js";
import { createCrewSetup } from "./setup.js";
import { drawTable, drawTableFacts } from "./table.js";
import { drawTasks } from "./tasks.js";
import { drawTricks } from "./trick.js";

const ANSWER_TIMEOUT_MS = 3000;
/** Below this width of the output area the tasks and seats go under the play column. */
const NARROW_PX = 700;
const NO_KERNEL = "No kernel is connected: this board is a picture (run the notebook to play).";
/** The Crew's own keys (the common ones, history, what-if, bots, are js/keys.js's). */
export const HELP_TEXT =
  "Game keys: ←/→ move along your hand · Enter play the focused card · C communicate it · 1–9 take the n-th task offered (or predict that number, 0 too) · P pass · A agree/accept/confirm · R refuse/reject · N no distress · K keep the tasks";
const GAME_ARIA = "ArrowLeft ArrowRight Enter C 0 1 2 3 4 5 6 7 8 9 P A R N K";

/** The state as js/bot-timer.js reads it: {players, seats (bot name or "human"), current, over, seq, mode}. */
export function botState(st) {
  if (!st?.players) return st;
  const kinds = st.kinds || [];
  const actor = st.actor ?? actorOf(st);
  return {
    players: st.players,
    seats: st.players.map((_, q) => (kinds[q] && kinds[q] !== "tonoja" ? kinds[q] : "human")),
    current: actor,
    over: !!st.outcome || actor === null || actor === undefined,
    seq: st.seq,
    // a what-if (its bots move by hand) or the history shown: no bot clock
    mode: st.mode === "whatif" || st.mode === "history" ? "whatif" : "real",
  };
}

/** A view of the model that js/bot-timer.js can drive (it knows DeepSea's state shape). */
export function botModel(model) {
  return {
    get: (name) => {
      if (name === "state") return botState(model.get("state"));
      if (name === "scrub") return -1;
      return model.get(name);
    },
    on: (event, fn) => model.on(event, fn),
    off: (event, fn) => model.off(event, fn),
    send: (msg) => model.send(msg),
  };
}

const isBotSeat = (st, q) => {
  const k = st.kinds?.[q];
  return q !== null && q !== undefined && !!k && k !== "human" && k !== "tonoja";
};

function renderView(model, el, bots) {
  const status = h("div", { class: "dsa-status crew-status", role: "status", "aria-live": "polite" });
  const clock = h("span", { class: "crew-clock", role: "timer", "aria-live": "off", hidden: true });
  const header = h("div", { class: "dsa-header" }, status, clock);
  const outcome = h("div", { class: "crew-outcome", role: "alert", hidden: true });
  const curtainBox = h("div", { class: "dsa-curtain-box" });
  const whatIfBox = h("div", { class: "dsa-whatif-box" });
  const pastBanner = h("div", { class: "dsa-banner dsa-past-banner", role: "note", hidden: true });
  const histBox = h("div", { class: "crew-history-box" });
  const tricksBox = h("div", { class: "crew-tricks-box" });
  const handBox = h("div", { class: "crew-hand-outer" });
  const controlsBox = h("div", { class: "dsa-controls-box" });
  const error = h("div", { class: "dsa-error", role: "alert", hidden: true });
  const tasksBox = h("div", { class: "crew-tasks-outer" });
  const seatsBox = h("div", { class: "crew-seats-box" });
  const factsBox = h("div", { class: "crew-facts-box" });
  const help = h(
    "div",
    { class: "dsa-keys-help" },
    h("p", { class: "dsa-keys crew-keys", text: HELP_TEXT }),
    h("p", { class: "dsa-keys dsa-common-keys", text: COMMON_HELP }),
  );
  const rule = h("p", {
    class: "crew-rule",
    text: "Table rule: do not talk about your cards; share information only by communicating a card.",
  });
  const setup = createCrewSetup({
    getSetup: () => model.get("setup"),
    getBotNames: () => model.get("bot_names") || ["random"],
    getBotHelp: () => model.get("bot_help") || {},
    start: (s) => {
      request({ type: "new_game", setup: s });
      keys.focus();
    },
  });
  const root = h(
    "div",
    {
      class: "dsa-root crew-root",
      role: "group",
      "aria-label": "The Crew: Mission Deep Sea",
      "aria-keyshortcuts": `${GAME_ARIA} ${COMMON_ARIA}`,
    },
    h(
      "div",
      { class: "dsa-main crew-main" },
      curtainBox,
      header,
      outcome,
      whatIfBox,
      pastBanner,
      histBox,
      h(
        "div",
        { class: "crew-grid" },
        h("div", { class: "crew-col crew-play-col" }, tricksBox, handBox, controlsBox, error),
        h("div", { class: "crew-col crew-side-col" }, tasksBox, seatsBox, factsBox),
      ),
      rule,
      setup.el,
      help,
    ),
  );
  el.append(root);
  // the shared focus rule and common keys (js/keys.js); this game's own keys are onKeydown's
  const keys = attachKeys(root, { onKey: onKeydown });
  header.append(keys.badge);
  // a page served by the seat server (model.get("remote")) sends intents only: no setup panel
  const served = !!model.get("remote");
  setup.el.hidden = served;

  let pending = false;
  let watchdog = null;
  let drawnSeq = -1;
  let lastErrorN = null;
  let focused = null; // the card of the hand the keys act on
  let focusIndex = 0; // its place in the sorted hand (the neighbour takes the focus after a play)
  let clockTimer = null;
  let timeoutSent = -1;

  const live = () => model.get("state");

  function send(msg) {
    try {
      model.send(msg);
      return true;
    } catch {
      showError(NO_KERNEL);
      return false;
    }
  }
  function showError(text) {
    error.hidden = !text;
    error.textContent = text || "";
  }
  function setPending(p) {
    pending = p;
    if (p) root.dataset.pending = "1";
    else delete root.dataset.pending;
  }
  /** Send a message that changes the board (it quotes the state's seq); wait for Python's answer. */
  function request(msg) {
    const st = live();
    if (pending || !st) return;
    msg.seq = st.seq;
    setPending(true);
    drawActive();
    if (!send(msg)) {
      setPending(false);
      drawActive();
      return;
    }
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      if (!pending) return;
      setPending(false);
      showError("No answer from Python: no kernel is running this board, or it is busy.");
      root.dataset.error = "timeout";
      drawActive();
    }, ANSWER_TIMEOUT_MS);
  }
  const canAct = (st) => !!st.can_act && st.mode !== "history";
  function intent(action) {
    const st = live();
    if (!canAct(st) || (!(st.legal || []).includes(action) && !action.startsWith("propose "))) return;
    request({ type: "intent", choice: action });
  }
  function setPaused(p) {
    send({ type: "pause", seq: live().seq, paused: p });
  }
  function stepBot() {
    const st = live();
    const actor = st.actor ?? actorOf(st);
    if (st.outcome || st.mode === "history") return;
    if (st.mode !== "whatif" && !isBotSeat(st, actor)) return;
    bots.noteSent(st.seq);
    send({ type: "bot_step", seq: st.seq });
  }
  const tools = {
    undo: () => request({ type: "undo" }),
    redo: () => request({ type: "redo" }),
    keep: () => request({ type: "keep" }),
    back: () => request({ type: "back_to_real" }),
    botMove: () => stepBot(),
    playOut: () => request({ type: "play_out" }),
  };
  function seek(k) {
    request({ type: "scrub", step: k });
  }
  const whatIf = () => request({ type: "what_if" });

  /** The parts that depend on `pending` (buttons disabled while Python answers). */
  function drawActive() {
    const st = live();
    if (!st?.players) return;
    const handFocus = handBox.contains(document.activeElement);
    const inMode = st.mode === "whatif";
    const actor = st.actor ?? actorOf(st);
    const botTurn = !inMode && !st.outcome && isBotSeat(st, actor) && st.mode !== "history";
    const opts = {
      pending,
      paused: !!model.get("paused"),
      onIntent: intent,
      onPause: setPaused,
      onStep: stepBot,
      canAct: canAct(st),
      botTurn,
      help: model.get("bot_help") || {},
      onRetry: (t) => request({ type: "next_attempt", tasks: t }),
      onPlayAgain: () => request({ type: "play_again" }),
      served,
    };
    replaceChildren(tricksBox, drawTricks(st));
    replaceChildren(
      handBox,
      drawHand(canAct(st) ? st : { ...st, legal: [] }, {
        focused,
        pending,
        onPlay: intent,
        onComm: intent,
        onFocus: (c) => {
          focused = c;
          focusIndex = sortCards(live().hand || []).indexOf(c);
        },
      }),
    );
    replaceChildren(controlsBox, drawControls(st, opts));
    replaceChildren(tasksBox, drawTasks(canAct(st) ? st : { ...st, legal: [] }, opts));
    replaceChildren(seatsBox, drawTable(canAct(st) ? st : { ...st, legal: [] }, opts));
    replaceChildren(factsBox, drawTableFacts(st));
    // the history is the real game's: the what-if has its own undo and redo
    replaceChildren(histBox, st.history && !inMode ? drawHistoryBar(st, { pending, on: { seek, whatIf } }) : null);
    replaceChildren(
      whatIfBox,
      inMode ? drawWhatIf(st, { pending, on: tools, botTurn: !st.can_act && actor !== null }) : null,
    );
    if (handFocus && focused) focusCard(focused);
  }

  function focusCard(card) {
    const b = card ? handBox.querySelector(`button.crew-card-btn[data-card="${card}"]`) : null;
    if (b) b.focus({ preventScroll: true });
  }

  function drawCurtainNow(st) {
    const down = !!st.curtain && !st.curtain.shown && st.mode !== "whatif";
    root.classList.toggle("dsa-curtained", down);
    root.dataset.curtain = down ? String(st.curtain.seat) : "";
    replaceChildren(
      curtainBox,
      down ? drawCurtain(st.curtain, { pending, show: () => request({ type: "show_seat" }) }) : null,
    );
    return down;
  }

  function drawClock(st) {
    clearInterval(clockTimer);
    clockTimer = null;
    const c = st.clock;
    if (!c || st.mode === "history") {
      clock.hidden = true;
      return;
    }
    clock.hidden = false;
    const t0 = performance.now();
    const tick = () => {
      const left = c.running ? Math.max(0, c.remaining - (performance.now() - t0) / 1000) : c.remaining;
      const m = Math.floor(left / 60);
      const s = Math.floor(left % 60);
      clock.textContent = `⏱ ${m}:${String(s).padStart(2, "0")} left${c.running ? "" : " (not started)"}`;
      if (c.running && left <= 0 && timeoutSent !== st.seq && !st.outcome) {
        timeoutSent = st.seq;
        clearInterval(clockTimer);
        send({ type: "timeout", seq: st.seq });
      }
    };
    tick();
    if (c.running) clockTimer = setInterval(tick, 500);
  }

  function draw() {
    const st = live();
    if (!st?.players) return;
    setPending(false);
    clearTimeout(watchdog);
    const hand = sortCards(st.hand || []);
    // the card played leaves the hand: the focus moves to its neighbour
    if (focused && !hand.includes(focused)) focused = keepFocus(hand, null, focusIndex);
    root.classList.toggle("dsa-mode-whatif", st.mode === "whatif");
    root.classList.toggle("dsa-mode-past", st.mode === "history");
    drawCurtainNow(st);
    const turn = turnText(st);
    status.textContent =
      st.mode === "history"
        ? `History, step ${st.history?.at} of ${st.history?.n} — ${turn}`
        : st.mode === "whatif"
          ? `What-if — ${turn}`
          : turn;
    outcome.hidden = !st.outcome;
    outcome.textContent = st.outcome ? outcomeText(st) : "";
    outcome.dataset.result = st.outcome?.result ?? "";
    pastBanner.hidden = st.mode !== "history";
    pastBanner.textContent =
      st.mode === "history"
        ? `History: the table after step ${st.history.at} of ${st.history.n}, as this seat saw it. ${keyLabel("live")}: back to the live game.`
        : "";
    drawClock(st);
    drawActive();
    const err = model.get("error");
    if (!err?.message) showError("");
    Object.assign(root.dataset, {
      seq: st.seq,
      step: st.step ?? "",
      toMove: st.to_move ?? "",
      actor: st.actor ?? "",
      seat: st.seat ?? "",
      view: st.mode || "real",
      outcome: st.outcome?.result ?? "",
    });
    drawnSeq = st.seq;
  }

  function onError() {
    const err = model.get("error") || {};
    if (err.message && err.n !== lastErrorN) {
      lastErrorN = err.n;
      setPending(false);
      clearTimeout(watchdog);
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
      drawActive();
    } else if (!err.message) {
      showError("");
      delete root.dataset.error;
    }
  }

  /** A key while the board has the focus (js/keys.js): `action` is the common action, if any. */
  function onKeydown(ev, action) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    const st = live();
    if (!st?.players) return false;
    const onCardButton = ev.target.closest?.("button.crew-card-btn");
    // Space/Enter on another focused button press that button (the browser does it)
    if ((ev.key === " " || ev.key === "Enter") && ev.target.closest?.("button") && !onCardButton) return false;
    if (root.classList.contains("dsa-curtained")) return false;
    const hist = st.history || { n: 0, at: null };
    const inHist = st.mode === "history";
    const inWhatIf = st.mode === "whatif";
    const nav = {
      prev: () => !inWhatIf && hist.n > 0 && seek(Math.max(0, (hist.at ?? hist.n) - 1)),
      next: () => inHist && seek(hist.at + 1 >= hist.n ? null : hist.at + 1),
      first: () => !inWhatIf && hist.n > 0 && seek(0),
      live: () => inHist && seek(null),
      whatIf: () => !inWhatIf && st.can_branch !== false && whatIf(),
    };
    if (nav[action]) {
      nav[action]();
      return true;
    }
    if (inWhatIf) {
      const w = st.whatif || {};
      const tool = {
        undo: () => w.can_undo && tools.undo(),
        redo: () => w.can_redo && tools.redo(),
        keep: () => w.can_keep !== false && tools.keep(),
        back: () => tools.back(),
        playOut: () => !st.outcome && tools.playOut(),
        botMove: () => !st.can_act && tools.botMove(),
      }[action];
      if (tool) {
        tool();
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
    if (inHist || action) return false;
    const hand = sortCards(st.hand || []);
    const r = keyIntent(ev.key, { legal: canAct(st) ? st.legal : [], focused, hand });
    if (r?.kind === "focus") {
      focused = hand[r.index];
      focusIndex = r.index;
      focusCard(focused);
      return true;
    }
    if (r?.kind === "intent") {
      intent(r.action);
      return true;
    }
    return false;
  }

  // a narrow output area stacks the table under the play column
  let ro = null;
  if (typeof ResizeObserver === "function") {
    ro = new ResizeObserver(() => {
      const narrow = el.clientWidth > 0 && el.clientWidth < NARROW_PX;
      if ((root.dataset.narrow === "1") !== narrow) root.dataset.narrow = narrow ? "1" : "0";
    });
    ro.observe(el);
  }

  const onState = () => {
    const st = live();
    if (st && st.seq !== drawnSeq) {
      if (st.fresh) setup.started();
      draw();
    }
  };
  const onPaused = () => drawActive();
  const listeners = [
    ["change:state", onState],
    ["change:error", onError],
    ["change:paused", onPaused],
  ];
  for (const [name, fn] of listeners) model.on(name, fn);
  draw();
  onError();
  const detachBots = bots.attachView({ onSendError: () => showError(NO_KERNEL) });
  const helloN = Math.floor(Math.random() * 2 ** 31);
  const onHello = () => {
    if (model.get("hello") !== helloN) return;
    clearTimeout(helloTimer);
    delete root.dataset.kernel;
  };
  model.on("change:hello", onHello);
  const helloTimer = setTimeout(() => {
    root.dataset.kernel = "none";
    showError(NO_KERNEL);
  }, 2000);
  try {
    model.send({ type: "hello", n: helloN });
  } catch {
    /* the timer says it */
  }
  return () => {
    keys.dispose();
    clearTimeout(helloTimer);
    clearInterval(clockTimer);
    clearTimeout(watchdog);
    if (ro) ro.disconnect();
    model.off("change:hello", onHello);
    detachBots();
    for (const [name, fn] of listeners) model.off(name, fn);
  };
}

/** anywidget: initialize once per model (the bot clock), render once per view. */
export default () => {
  let bots = null;
  return {
    initialize({ model }) {
      const timer = createBotTimer(botModel(model));
      bots = timer;
      return () => {
        timer.dispose();
        if (bots === timer) bots = null;
      };
    },
    render({ model, el }) {
      const own = bots ? null : createBotTimer(botModel(model));
      const cleanup = renderView(model, el, bots ?? own);
      return () => {
        cleanup();
        own?.dispose();
      };
    },
  };
};
