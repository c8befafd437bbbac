// The bot clock, one per model (not per view): when a bot seat is to move, wait `bot_delay` ms,
// then ask Python for one bot step ({type: "bot_step", seq}). Python decides what the bot plays.
// Made by the widget's initialize({model}); every view of the model registers with it.
import { frameCount } from "./history.js";
import { isBot } from "./model.js";

export const DEFAULT_BOT_DELAY = 600;

/** The traits whose changes may start, stop or restart the countdown. */
const WATCHED = ["state", "paused", "bot_delay", "scrub", "history", "history_tail"];

/** True when the board shows a turn from the history (the synced `scrub`, shared by every view). */
export function showsHistory(model) {
  const k = model.get("scrub");
  return typeof k === "number" && k >= 0 && k < frameCount(model.get("history"), model.get("history_tail"));
}

/**
 * The seq of the state whose bot turn is due, or null: not while paused, over, on a human seat,
 * in a what-if (its bots move by hand), while the board shows the past, or when that seq's step
 * was already asked for (`sentSeq`).
 */
export function dueBotSeq(model, sentSeq = -1) {
  const st = model.get("state");
  if (!st?.players || !st.seats) return null;
  if (st.over || !isBot(st, st.current) || model.get("paused") || st.seq === sentSeq) return null;
  if (st.mode === "whatif" || showsHistory(model)) return null;
  return st.seq;
}

/**
 * Start the model's bot clock. `clock` replaces setTimeout/clearTimeout (tests).
 * Returns {attachView, noteSent, dispose}:
 * - attachView({onSendError}) -> detach: bots only move while at least one view shows the board;
 *   onSendError(err) is called when the bot step could not be sent (no kernel);
 * - noteSent(seq): a view sent this seq's bot step itself (the Step button): do not send it again;
 * - dispose(): stop the clock and remove the model listeners.
 */
export function createBotTimer(model, clock = {}) {
  const setTimer = clock.setTimeout ?? globalThis.setTimeout;
  const clearTimer = clock.clearTimeout ?? globalThis.clearTimeout;
  const views = new Set();
  let timer = null;
  let timerSeq = null; // the seq the pending timer is for
  let sentSeq = -1; // the last seq whose bot step was asked for
  let disposed = false;

  function cancel() {
    if (timer !== null) clearTimer(timer);
    timer = null;
    timerSeq = null;
  }

  function fire() {
    const seq = timerSeq;
    timer = null;
    timerSeq = null;
    if (disposed || !views.size || dueBotSeq(model, sentSeq) !== seq) return;
    sentSeq = seq;
    try {
      model.send({ type: "bot_step", seq });
    } catch (err) {
      for (const v of [...views]) v.onSendError?.(err);
    }
  }

  /** (Re)arm or stop the countdown; a countdown already running for the due seq goes on unless `restart`. */
  function update(restart = false) {
    const seq = disposed || !views.size ? null : dueBotSeq(model, sentSeq);
    if (seq === null) {
      cancel();
      return;
    }
    if (timer !== null && timerSeq === seq && !restart) return;
    cancel();
    timerSeq = seq;
    timer = setTimer(fire, Math.max(0, model.get("bot_delay") ?? DEFAULT_BOT_DELAY));
  }

  const listeners = WATCHED.map((name) => [
    `change:${name}`,
    // a new delay applies at once (the countdown starts again with it)
    name === "bot_delay" ? () => update(true) : () => update(),
  ]);
  for (const [event, fn] of listeners) model.on(event, fn);

  return {
    attachView({ onSendError } = {}) {
      const view = { onSendError };
      views.add(view);
      update();
      return () => {
        views.delete(view);
        update();
      };
    },
    noteSent(seq) {
      sentSeq = seq;
      update();
    },
    dispose() {
      disposed = true;
      cancel();
      views.clear();
      for (const [event, fn] of listeners) model.off(event, fn);
    },
  };
}
