// A board key pressed while Python is still answering the last intent is kept and handled once
// the answer is in, but only at the moment of play it was pressed in (js/shell.js keyStillMeant):
// never for the next seat, never behind the hot seat's curtain, never after the game ended.

import assert from "node:assert/strict";
import { test } from "node:test";
import { keyStillMeant } from "../shell.js";

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
