// The model-level bot timer (js/bot-timer.js) and the widget's lifecycle, on a fake model: `node --test js/tests/`.

import assert from "node:assert/strict";
import { test } from "node:test";
import { createBotTimer, dueBotSeq } from "../bot-timer.js";
import widget from "../widget.js";

/** A tiny stand-in for anywidget's model: get/set/on/off/send; `set` fires change:<name>. */
function fakeModel(attrs, { sendThrows = false } = {}) {
  const values = { ...attrs };
  const handlers = new Map();
  const sent = [];
  return {
    sent,
    get: (name) => values[name],
    set(name, value) {
      values[name] = value;
      for (const fn of [...(handlers.get(`change:${name}`) || [])]) fn();
    },
    on(event, fn) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event).add(fn);
    },
    off(event, fn) {
      handlers.get(event)?.delete(fn);
    },
    send(msg) {
      if (sendThrows) throw new Error("no comm");
      sent.push(msg);
    },
    listenerCount: () => [...handlers.values()].reduce((n, s) => n + s.size, 0),
  };
}

/** A fake clock: timers run only when tick(ms) says so. */
function fakeClock() {
  let now = 0;
  let next = 1;
  const timers = new Map();
  return {
    setTimeout(fn, ms) {
      const id = next++;
      timers.set(id, { fn, at: now + ms });
      return id;
    },
    clearTimeout(id) {
      timers.delete(id);
    },
    tick(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = until;
    },
    get pending() {
      return timers.size;
    },
  };
}

const botTurn = (seq, extra = {}) => ({
  seq,
  players: ["Ann", "Bot"],
  seats: ["human", "random"],
  current: 1,
  over: false,
  mode: "live",
  ...extra,
});

function setup(attrs = {}, opts = {}) {
  const model = fakeModel({ state: botTurn(5), paused: false, bot_delay: 100, scrub: -1, ...attrs }, opts);
  const clock = fakeClock();
  const bots = createBotTimer(model, clock);
  return { model, clock, bots };
}

test("one timer per model: two views, one bot_step after bot_delay", () => {
  const { model, clock, bots } = setup();
  assert.equal(clock.pending, 0, "no view shows the board yet: no timer");
  bots.attachView();
  bots.attachView();
  assert.equal(clock.pending, 1);
  clock.tick(99);
  assert.deepEqual(model.sent, []);
  clock.tick(1);
  assert.deepEqual(model.sent, [{ type: "bot_step", seq: 5 }]);
  assert.equal(clock.pending, 0);
  // the answer (a new state) starts the next countdown, still one timer
  model.set("state", botTurn(6));
  model.set("history_tail", { frames: [{}] });
  assert.equal(clock.pending, 1);
  clock.tick(100);
  assert.deepEqual(
    model.sent.map((m) => m.seq),
    [5, 6],
  );
});

test("the same seq is asked for once, even if the state is published again", () => {
  const { model, clock, bots } = setup();
  bots.attachView();
  clock.tick(100);
  model.set("state", botTurn(5));
  model.set("paused", true);
  model.set("paused", false);
  clock.tick(1000);
  assert.equal(model.sent.length, 1);
});

test("no send while paused, over, on a human seat, in a what-if or showing the past", () => {
  const cases = {
    paused: { paused: true },
    over: { state: botTurn(5, { over: true }) },
    human: { state: botTurn(5, { current: 0 }) },
    whatif: { state: botTurn(5, { mode: "whatif" }) },
    history: { scrub: 0, history_tail: { frames: [{}, {}] } },
    "no state yet": { state: {} },
  };
  for (const [name, attrs] of Object.entries(cases)) {
    const { model, clock, bots } = setup(attrs);
    bots.attachView();
    clock.tick(10_000);
    assert.deepEqual(model.sent, [], name);
    assert.equal(clock.pending, 0, name);
  }
  // a scrub past the recorded frames is not a history view (the views show the live game then)
  const { model, clock, bots } = setup({ scrub: 3, history_tail: { frames: [{}] } });
  bots.attachView();
  clock.tick(100);
  assert.equal(model.sent.length, 1);
});

test("pausing, scrubbing or a human turn stops the countdown; resuming starts it again", () => {
  const { model, clock, bots } = setup({ history_tail: { frames: [{}, {}] } });
  bots.attachView();
  clock.tick(50);
  model.set("paused", true);
  assert.equal(clock.pending, 0);
  clock.tick(1000);
  model.set("paused", false);
  clock.tick(99);
  assert.deepEqual(model.sent, [], "resuming waits a full bot_delay");
  model.set("scrub", 1);
  clock.tick(1000);
  assert.deepEqual(model.sent, [], "no bot move while the board shows the past");
  model.set("scrub", -1);
  clock.tick(100);
  assert.deepEqual(model.sent, [{ type: "bot_step", seq: 5 }]);
  model.set("state", botTurn(6, { current: 0 }));
  clock.tick(1000);
  assert.equal(model.sent.length, 1, "the human's turn: nothing sent");
});

test("a new state before the timer fires cancels the old seq's step", () => {
  const { model, clock, bots } = setup();
  bots.attachView();
  clock.tick(50);
  model.set("state", botTurn(7));
  assert.equal(clock.pending, 1);
  clock.tick(100);
  assert.deepEqual(model.sent, [{ type: "bot_step", seq: 7 }]);
});

test("a new bot_delay applies at once", () => {
  const { model, clock, bots } = setup({ bot_delay: 600 });
  bots.attachView();
  clock.tick(10);
  model.set("bot_delay", 40);
  clock.tick(39);
  assert.deepEqual(model.sent, []);
  clock.tick(1);
  assert.equal(model.sent.length, 1);
});

test("a step sent by a view (Step button) is not sent again by the timer", () => {
  const { model, clock, bots } = setup({ paused: true });
  bots.attachView();
  bots.noteSent(5);
  model.set("paused", false);
  clock.tick(1000);
  assert.deepEqual(model.sent, []);
  assert.equal(dueBotSeq(model, 5), null);
  assert.equal(dueBotSeq(model, 4), 5);
});

test("bots wait while no view shows the board", () => {
  const { model, clock, bots } = setup();
  const detachA = bots.attachView();
  const detachB = bots.attachView();
  detachA();
  assert.equal(clock.pending, 1, "one view still shows it");
  detachB();
  assert.equal(clock.pending, 0);
  clock.tick(1000);
  assert.deepEqual(model.sent, []);
});

test("no kernel: every view hears that the step could not be sent; no retry", () => {
  const { clock, bots } = setup({}, { sendThrows: true });
  const heard = [];
  bots.attachView({ onSendError: () => heard.push("a") });
  bots.attachView({ onSendError: () => heard.push("b") });
  clock.tick(100);
  assert.deepEqual(heard, ["a", "b"]);
  clock.tick(10_000);
  assert.equal(heard.length, 2);
});

test("dispose stops the timer and removes every listener", () => {
  const { model, clock, bots } = setup();
  bots.attachView();
  assert.equal(clock.pending, 1);
  assert.ok(model.listenerCount() > 0);
  bots.dispose();
  assert.equal(clock.pending, 0);
  assert.equal(model.listenerCount(), 0);
  model.set("state", botTurn(6));
  clock.tick(10_000);
  assert.deepEqual(model.sent, []);
});

test("the widget: one module object per model, initialize returns a cleanup that removes its listeners", () => {
  assert.equal(typeof widget, "function", "a factory: anywidget calls it once per model");
  const a = widget();
  const b = widget();
  assert.equal(typeof a.initialize, "function");
  assert.equal(typeof a.render, "function");
  assert.notEqual(a, b);
  const model = fakeModel({ state: botTurn(5), paused: true, bot_delay: 0, scrub: -1 });
  const cleanup = a.initialize({ model });
  assert.equal(typeof cleanup, "function");
  assert.ok(model.listenerCount() > 0);
  cleanup();
  assert.equal(model.listenerCount(), 0);
});
