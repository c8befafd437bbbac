// A board key pressed while Python is still answering the last intent is kept and handled once
// the answer is in, but only at the moment of play it was pressed in (js/shell.js keyStillMeant):
// never for the next seat, never behind the hot seat's curtain, never after the game ended.
// Likewise a control that had the focus is not waited for past its seat's turn (turnOver).

import assert from "node:assert/strict";
import { test } from "node:test";
import { keyStillMeant, turnOver } from "../shell.js";

const was = { mode: "real", actor: 0, seat: 0, curtain: false };
const now = { players: ["Ann", "Bob"], mode: "real", actor: 0, seat: 0, curtain: "", over: false };

test("the same seat to act, in the same mode, with no curtain: the key is still meant", () => {
  assert.equal(keyStillMeant(was, now), true);
});

test("the curtain came down with the answer: the key is dropped (it would lift it for the next player)", () => {
  assert.equal(keyStillMeant(was, { ...now, curtain: "Pass the device to Bob" }), false);
});

test("another seat to act, another screen seat, another mode or the game over: dropped", () => {
  assert.equal(keyStillMeant(was, { ...now, actor: 1 }), false);
  assert.equal(keyStillMeant(was, { ...now, seat: 1 }), false);
  assert.equal(keyStillMeant(was, { ...now, mode: "whatif" }), false);
  assert.equal(keyStillMeant(was, { ...now, over: true }), false);
});

test("a board tool (history, what-if) may follow the answer into another mode, not behind the curtain", () => {
  assert.equal(keyStillMeant({ ...was, mode: "whatif" }, now, true), true);
  assert.equal(keyStillMeant(was, { ...now, actor: 1 }, true), true);
  assert.equal(keyStillMeant(was, { ...now, curtain: "Pass the device to Bob" }, true), false);
  assert.equal(keyStillMeant(was, { ...now, seat: 1 }, true), false);
});

test("no game on the board, or nothing kept: dropped", () => {
  assert.equal(keyStillMeant(was, { ...now, players: undefined }), false);
  assert.equal(keyStillMeant(null, now), false);
});

test("a focused control's moment ends with its seat's turn or the game, in play only", () => {
  const at = { mode: "real", actor: 0, over: false };
  assert.equal(turnOver(null, { mode: "real", actor: 1 }), false, "the first redraw");
  assert.equal(turnOver(at, { mode: "real", actor: 0, over: false }), false, "the same turn");
  assert.equal(turnOver(at, { mode: "real", actor: 1, over: false }), true, "the next seat's turn");
  assert.equal(turnOver(at, { mode: "real", actor: 0, over: true }), true, "the game over");
  const whatif = { ...at, mode: "whatif" };
  assert.equal(turnOver(whatif, { mode: "whatif", actor: 1 }), true, "a what-if's turns too");
  // the past shows other seats to act at each step: scrubbing it keeps the history buttons'
  // focus, and so does a change of mode (Step back from the game, End back to it)
  const past = { ...at, mode: "history" };
  assert.equal(turnOver(past, { mode: "history", actor: 1 }), false);
  assert.equal(turnOver(at, { mode: "history", actor: 1 }), false);
  assert.equal(turnOver(past, { mode: "real", actor: 1 }), false);
});
