// The Crew's renderer on the platform's shell (js/shell.js): the tricks, the hand (its keyboard
// focus), the choices, the tasks, the seats and the table's facts, the outcome, the mission clock,
// a proposal to confirm, a teacher's revealed hands and the next attempt after a failure. The
// transport, keys and focus rule, refusals, curtain, history and what-if bar (with its
// comparison), the setup form generated from the option schema and the saved page's replay are
// the shell's. Python checks every intent; nothing here decides a rule.
import { h } from "../dom.js";
import { mountShell } from "../shell.js";
import { createTrickAnimator } from "./animate.js";
import { forDummy, keyIntent, outcomeHead, outcomeText, sortCards, turnText } from "./cards.js";
import { drawControls } from "./controls.js";
import { drawHand, keepFocus } from "./hand.js";
import { drawTable, drawTableFacts } from "./table.js";
import { drawTasks } from "./tasks.js";
import { drawTricks } from "./trick.js";

/** The Crew's own keys (the common ones, history, what-if, bots, are js/keys.js's). */
export const HELP_TEXT =
  "Game keys: ←/→ move along your hand · Enter play the focused card · C communicate it · 1–9 take the n-th task offered (or predict that number, 0 too) · P pass · A agree/accept/confirm · R refuse/reject · N no distress · K keep the tasks";
export const GAME_ARIA = "ArrowLeft ArrowRight Enter C 0 1 2 3 4 5 6 7 8 9 P A R N K";
const RULE = "Table rule: do not talk about your cards; share information only by communicating a card.";

/** The header's words: whose turn and what to do, the past step shown, or how it ended. */
export function statusText(st) {
  if (!st?.players) return "Loading…";
  const turn = turnText(st);
  // the history step shown or a what-if: the shell's words before these (withMode)
  if (st.outcome && st.mode !== "history") return `${outcomeHead(st)} (the attempt is over)`;
  if (st.problem && st.mode !== "history") return `Paused: a bot could not move — ${turn}`;
  return turn;
}

/** The what-if comparison's column labels (its rows: CrewPresenter.compare_row). */
export function compareLabels(st) {
  return {
    trick: "tricks played",
    done: "tasks ✓ done",
    failed: "✗ failed",
    open: "○ open",
    outcome: "outcome",
    tricks_won: `tricks won (${(st.players || []).join(" · ")})`,
  };
}

const CLOCK_WORDS = { running: "", waiting: " (not started)", stopped: " (stopped)" };

/** "⏱ 1:05 left" for `left` seconds; `how`: "running", "waiting" (to start) or "stopped". */
export function clockText(left, how = "running") {
  const m = Math.floor(left / 60);
  const s = Math.floor(left % 60);
  return `⏱ ${m}:${String(s).padStart(2, "0")} left${CLOCK_WORDS[how] ?? ""}`;
}

const isBot = (kind) => !!kind && kind !== "human" && kind !== "tonoja";
const canAct = (st) => !!st.can_act && st.mode !== "history";

/** One board's renderer: the hand's focused card and the clock live here between redraws. */
export function createCrewRenderer() {
  let focused = null; // the card of the hand the keys act on
  let focusIndex = 0; // its place in the sorted hand (the neighbour takes the focus after a play)
  let clockTimer = null;
  let clockBase = null; // {seq, t0}: the clock's remaining time counts from when this state came
  let timeoutSent = -1;
  const anim = createTrickAnimator(); // a card played flies to the trick, a trick to its winner
  let keySkip = null; // the root a key skips the animations on

  /** The cards the arrow keys move along: the hand, or the dummy's playable cards when the
   * captain plays for it. */
  const keyCards = (st) =>
    forDummy(st)
      ? sortCards((st.legal || []).filter((a) => a.startsWith("play ")).map((a) => a.slice(5)))
      : sortCards(st.hand || []);

  function drawClock(st, act, remote) {
    clearInterval(clockTimer);
    clockTimer = null;
    const c = st.clock;
    if (!c || st.mode === "history") return null;
    if (clockBase?.seq !== st.seq) clockBase = { seq: st.seq, t0: performance.now() };
    const { t0 } = clockBase;
    const el = h("span", { class: "crew-clock", role: "timer", "aria-live": "off" });
    const tick = () => {
      const left = c.running ? Math.max(0, c.remaining - (performance.now() - t0) / 1000) : c.remaining;
      el.textContent = clockText(left, c.running ? "running" : st.outcome ? "stopped" : "waiting");
      // the time is up: Python is told once per state (it checks with its own clock); a served
      // page's table keeps its own time
      if (c.running && left <= 0 && timeoutSent !== st.seq && !st.outcome && !remote) {
        if (act({ type: "timeout" }) !== false) timeoutSent = st.seq;
      }
    };
    tick();
    if (c.running) clockTimer = setInterval(tick, 500);
    return el;
  }

  function draw(st, act, { pending, remote, kernel = true, model, root }) {
    const todo = anim.plan(st, root); // read off the board still on screen
    if (root && keySkip !== root) {
      keySkip = root;
      root.addEventListener("keydown", () => anim.skip(), { capture: true });
    }
    queueMicrotask(() => {
      anim.run(todo, root);
      if (root) root.dataset.animations = String(anim.count);
    });
    const hand = keyCards(st);
    // the card played leaves the hand: the focus moves to its neighbour
    if (focused && !hand.includes(focused)) focused = keepFocus(hand, null, focusIndex);
    // did a card (of the hand, or of the dummy's) have the focus before this redraw?
    const active = document.activeElement;
    const hadFocus = !!root?.contains(active) && !!active?.matches?.("button.crew-card-btn");
    const ok = canAct(st);
    const mine = ok ? st : { ...st, legal: [] };
    const intent = (action) => {
      if (!ok || pending || (!(st.legal || []).includes(action) && !action.startsWith("propose "))) return;
      anim.skip();
      act({ type: "intent", choice: action });
    };
    const opts = {
      pending,
      paused: !!st.paused,
      onIntent: intent,
      canAct: ok,
      // a saved page (no kernel) waits for the bot, which will not move there: not "thinking"
      botTurn: kernel && st.mode === "real" && !st.outcome && isBot(st.kinds?.[st.actor]),
      help: model?.get("bot_help") || {},
      onRetry: (tasks) => act({ type: "next_attempt", tasks }),
      served: !!remote,
    };
    // a card of the hand asked for while it is this seat's play goes to Python even when it
    // cannot go (not the suit led, or the dummy's turn): Python says why
    const ask = (action) => {
      if (!ok || pending) return;
      anim.skip();
      act({ type: "intent", choice: action });
    };
    const handEl = drawHand(mine, {
      focused,
      pending,
      onPlay: ask,
      onComm: intent,
      onFocus: (c) => {
        focused = c;
        focusIndex = keyCards(st).indexOf(c);
      },
    });
    // a redraw replaced the focused card's button: the same card (or its neighbour) takes it
    if (hadFocus && focused) {
      queueMicrotask(() => root?.querySelector(`button.crew-card-btn[data-card="${focused}"]`)?.focus());
    }
    const clock = drawClock(st, act, remote);
    return h(
      "div",
      {
        class: "crew-board",
        "data-step": st.step ?? "",
        "data-result": st.outcome?.result ?? "",
        title: "Click the table to skip its animations",
        onpointerdown: () => anim.skip(),
      },
      clock ? h("div", { class: "crew-topline" }, clock) : null,
      st.outcome
        ? h("div", { class: "crew-outcome", "data-result": st.outcome.result ?? "", text: outcomeText(st) })
        : null,
      h(
        "div",
        { class: "crew-grid" },
        h(
          "div",
          { class: "crew-col crew-play-col" },
          drawTricks(st),
          h("div", { class: "crew-hand-outer" }, handEl),
          drawControls(st, opts),
        ),
        h("div", { class: "crew-col crew-side-col" }, drawTasks(mine, opts), drawTable(mine, opts), drawTableFacts(st)),
      ),
      h("p", { class: "crew-rule", text: RULE }),
    );
  }

  /** A key the shell passed on (not a common one): the hand's arrows, Enter, C, digits, letters. */
  function onKey(ev, st, act) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || st.curtain || st.mode === "history") return false;
    // Space/Enter on another focused button press that button (the browser does it)
    const onCard = ev.target.closest?.("button.crew-card-btn");
    if ((ev.key === " " || ev.key === "Enter") && ev.target.closest?.("button") && !onCard) return false;
    const hand = keyCards(st);
    const r = keyIntent(ev.key, { legal: canAct(st) ? st.legal : [], focused, hand, tasks: st.tasks });
    if (r?.kind === "focus") {
      focused = hand[r.index];
      focusIndex = r.index;
      ev.currentTarget
        .querySelector(`:is(.crew-hand, .crew-dummy) button.crew-card-btn[data-card="${focused}"]`)
        ?.focus();
      return true;
    }
    if (r?.kind === "intent") {
      act({ type: "intent", choice: r.action });
      return true;
    }
    return false;
  }

  return {
    draw,
    onKey,
    skip: () => anim.skip(),
    dispose: () => {
      clearInterval(clockTimer);
      anim.skip();
    },
  };
}

export default () => ({
  render(ctx) {
    const crew = createCrewRenderer();
    const unmount = mountShell(ctx, {
      title: "The Crew: Mission Deep Sea",
      cls: "crew-root",
      draw: crew.draw,
      onKey: crew.onKey,
      help: HELP_TEXT,
      aria: GAME_ARIA,
      status: statusText,
      compareLabels,
      banner: false, // the board's outcome line says how the mission ended, and why
      onEscape: () => {
        crew.skip();
        return false;
      },
    });
    return () => {
      unmount();
      crew.dispose();
    };
  },
});
