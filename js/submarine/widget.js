// Submarine: the anywidget front end. Draws the synced `state` (one seat's view, built by
// Python) and sends intents; Python checks every one. Bots are stepped by name: when a bot
// seat is to move, wait `bot_delay` ms and send {type: "bot_step", seq}.
import { drawCurtain } from "../curtain.js";
import { h, replaceChildren } from "../dom.js";
import { attachKeys, COMMON_ARIA } from "../keys.js";
import { drawBoard } from "./board.js";
import { drawControls, GAME_ARIA, statusText } from "./controls.js";
import { drawHand } from "./hand.js";
import { drawPlayers } from "./players.js";
import { drawSetup } from "./setup.js";

const ANSWER_TIMEOUT_MS = 15000;

function render({ model, el }) {
  const root = h("div", {
    class: "dsa-root sub-root",
    role: "group",
    "aria-label": "Submarine game",
    "aria-keyshortcuts": `${GAME_ARIA} ${COMMON_ARIA}`,
  });
  el.append(root);
  // the shared focus rule and common keys (js/keys.js); this game's own keys are onKey's
  const keys = attachKeys(root, { onKey });
  let pending = false;
  let watchdog = null;
  let botTimer = null;
  let showSetup = false;

  const live = () => model.get("state") || {};
  function send(msg) {
    try {
      model.send(msg);
      return true;
    } catch (_e) {
      return false;
    }
  }
  function setPending(p) {
    pending = p;
    if (p) root.dataset.pending = "1";
    else delete root.dataset.pending;
  }
  function request(msg) {
    const st = live();
    if (pending) return;
    msg.seq = st.seq;
    setPending(true);
    draw();
    if (!send(msg)) {
      setPending(false);
      draw();
      return;
    }
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      if (!pending) return;
      setPending(false);
      root.dataset.error = "timeout";
      draw();
    }, ANSWER_TIMEOUT_MS);
  }
  const canAct = (st) => !!st.can_act && st.mode !== "history" && !st.curtain;
  function act(a) {
    const st = live();
    if (!canAct(st) || !(st.legal || []).includes(a)) return;
    request({ type: "intent", choice: a });
  }
  const tools = {
    pause: () => send({ type: "pause", seq: live().seq, paused: !model.get("paused") }),
    undo: () => request({ type: "undo" }),
    redo: () => request({ type: "redo" }),
    back: () => request({ type: "back_to_real" }),
    whatIf: () => request({ type: "what_if" }),
    playOut: () => request({ type: "play_out" }),
    scrub: (k) => request({ type: "scrub", step: k }),
  };

  function scheduleBot() {
    clearTimeout(botTimer);
    const st = live();
    if (!st.players || st.over || st.mode !== "real" || st.curtain || model.get("paused")) return;
    const kind = st.kinds?.[st.actor];
    if (kind === undefined || kind === "human") return;
    const seq = st.seq;
    botTimer = setTimeout(
      () => {
        if (live().seq === seq && !model.get("paused")) send({ type: "bot_step", seq });
      },
      Math.max(0, Number(model.get("bot_delay")) || 0),
    );
  }

  function draw() {
    const st = live();
    const err = model.get("error") || {};
    root.dataset.seq = String(st.seq ?? -1);
    root.dataset.mode = st.mode || "";
    root.dataset.over = st.over ? "1" : "";
    if (st.curtain) root.dataset.curtain = String(st.curtain.seat);
    else delete root.dataset.curtain;
    if (err.kind) root.dataset.error = err.kind;
    else if (root.dataset.error !== "timeout") delete root.dataset.error;
    if (!st.players) {
      replaceChildren(root, h("p", { text: "Loading Submarine…" }));
      return;
    }
    const header = h(
      "div",
      { class: "dsa-header" },
      h("span", { class: "dsa-status sub-status", role: "status", "aria-live": "polite", text: statusText(st) }),
      keys.badge,
      h("button", {
        class: "dsa-btn",
        "data-action": "setup",
        "aria-label": "Open the setup panel",
        "aria-expanded": showSetup ? "true" : "false",
        onclick: () => {
          showSetup = !showSetup;
          draw();
        },
        text: "⚙ setup",
      }),
    );
    const parts = [header];
    if (err.kind) parts.push(h("p", { class: "sub-error", role: "alert", text: err.message }));
    if (root.dataset.error === "timeout")
      parts.push(h("p", { class: "sub-error", role: "alert", text: "No answer from Python (no kernel?)." }));
    if (showSetup) {
      parts.push(
        drawSetup(model.get("setup") || {}, {
          start: (setup) => {
            showSetup = false;
            request({ type: "new_game", setup });
          },
          close: () => {
            showSetup = false;
            draw();
          },
        }),
      );
    }
    if (st.over) {
      parts.push(
        h(
          "div",
          { class: "sub-banner", role: "status", "data-action": "game-over" },
          statusText(st),
          " ",
          h("button", {
            class: "dsa-btn dsa-primary",
            "data-action": "play-again",
            "aria-label": "Play again with the same settings",
            onclick: () => request({ type: "play_again" }),
            text: "Play again",
          }),
        ),
      );
    }
    if (st.curtain) {
      parts.push(drawCurtain(st.curtain, { pending, show: () => request({ type: "show_seat" }) }));
    }
    const ok = canAct(st) && !pending;
    parts.push(
      h(
        "div",
        { class: "sub-grid" },
        h("div", { class: "sub-main" }, drawBoard(st, { act, canAct: ok }), drawHand(st)),
        h("div", { class: "sub-side" }, drawControls(st, { act, canAct: ok, tools, pending }), drawPlayers(st)),
      ),
    );
    replaceChildren(root, parts);
    // a served page only plays: the notebook's tools, the setup and "Play again" are the host's
    if (model.get("remote")) {
      for (const x of root.querySelectorAll(".sub-tools,[data-action=setup],[data-action=play-again]")) x.remove();
    }
  }

  /** A key while the board has the focus (js/keys.js): `action` is the common action, if any. */
  function onKey(ev, action) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    // Space/Enter on a focused button press that button (the browser does it)
    if ((ev.key === " " || ev.key === "Enter") && ev.target.closest?.("button")) return false;
    const st = live();
    const buttons = [...root.querySelectorAll("button.sub-legal[data-choice]:not([disabled])")];
    const k = ev.key;
    if (/^[1-9]$/.test(k)) {
      buttons[Number(k) - 1]?.click();
      return true;
    }
    if (k === "Enter") {
      buttons[0]?.click();
      return true;
    }
    // a served page (model.get("remote")) only plays: the notebook's tools are not there
    if (!action || model.get("remote") || !st.players) return false;
    const hist = st.history || { n: 0, at: null };
    const whatIf = st.mode === "whatif";
    const run = {
      pause: () => tools.pause(),
      whatIf: () => !whatIf && !st.curtain && tools.whatIf(),
      undo: () => st.whatif?.can_undo && tools.undo(),
      redo: () => st.whatif?.can_redo && tools.redo(),
      back: () => whatIf && tools.back(),
      playOut: () => whatIf && !st.over && tools.playOut(),
      prev: () => !whatIf && hist.n > 0 && tools.scrub(Math.max(0, (hist.at ?? hist.n) - 1)),
      next: () => st.mode === "history" && tools.scrub(hist.at + 1 >= hist.n ? null : hist.at + 1),
      first: () => !whatIf && hist.n > 0 && tools.scrub(0),
      live: () => st.mode === "history" && tools.scrub(null),
    }[action];
    run?.(); // S (a bot move) has nothing to do here: Submarine's bots move on their own
    return true;
  }

  const onState = () => {
    clearTimeout(watchdog);
    setPending(false);
    delete root.dataset.error;
    draw();
    scheduleBot();
  };
  const onError = () => {
    clearTimeout(watchdog);
    setPending(false);
    draw();
  };
  const onPaused = () => {
    draw();
    scheduleBot();
  };
  model.on("change:state", onState);
  model.on("change:error", onError);
  model.on("change:paused", onPaused);
  model.on("change:setup", draw);
  draw();
  scheduleBot();
  return () => {
    clearTimeout(watchdog);
    clearTimeout(botTimer);
    keys.dispose();
    model.off("change:state", onState);
    model.off("change:error", onError);
    model.off("change:paused", onPaused);
    model.off("change:setup", draw);
  };
}

/** anywidget (and the seat server's page): a function giving the widget's render. */
export default () => ({ render });
