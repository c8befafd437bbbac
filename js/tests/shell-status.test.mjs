// js/shell.js's header words: one wording of the history step and of a what-if for every game.

import assert from "node:assert/strict";
import { test } from "node:test";
import { statusText, whoseTurn, withMode } from "../shell.js";

test("every game's header names the history step shown and a what-if the same way", () => {
  const st = { players: ["You", "Bot"], actor: 1, seat: 0, can_act: false, mode: "real", history: { n: 10, at: null } };
  assert.equal(withMode(st, "Bot: roll"), "Bot: roll");
  // Submarine's header said only "Bot 2's turn: place..." in the past and in a what-if
  assert.equal(withMode({ ...st, mode: "history", history: { n: 10, at: 9 } }, "x"), "History, step 9 of 10 — x");
  assert.equal(withMode({ ...st, mode: "whatif" }, "x"), "What-if — x");
});

test("the shell's own words: the viewer's seat is 'Your turn', in the past too", () => {
  const st = { players: ["You", "Bot"], actor: 1, seat: 0, can_act: false, mode: "real", history: { n: 10, at: null } };
  assert.equal(statusText(st), "Bot's turn.");
  assert.equal(statusText({ ...st, actor: 0, can_act: true }), "Your turn.");
  assert.equal(statusText({ ...st, actor: 0, mode: "history", history: { n: 10, at: 9 } }), "Your turn.");
});

test("a stuck bot pauses the live game, not the past step shown; no dangling dash", () => {
  const st = { players: ["You", "Bot"], actor: 1, seat: 0, can_act: false, mode: "real", problem: { message: "x" } };
  assert.equal(statusText(st), "Paused: a bot could not move.");
  const past = { ...st, mode: "history", history: { n: 10, at: 3 } };
  assert.equal(withMode(past, statusText(past)), "History, step 3 of 10 — Bot's turn.");
  // nobody to act (words ""): the mode alone
  assert.equal(withMode({ ...st, mode: "whatif" }, ""), "What-if");
  assert.equal(withMode({ ...past }, ""), "History, step 3 of 10");
});

test("every game ends in one wording: the shell's and Deep Sea's own status agree", async () => {
  const { statusText: deepSea } = await import("../model.js");
  const st = { players: ["Ann", "Bob", "You"], actor: 0, seat: 2, over: true, mode: "real" };
  for (const [winners, words] of [
    [[0], "Game over: Ann wins."],
    [[2], "Game over: You win."],
    [[0, 1], "Game over: Ann and Bob win."],
  ]) {
    assert.equal(statusText({ ...st, winners }), words);
    assert.equal(deepSea({ ...st, winners }), words);
  }
  assert.equal(statusText({ ...st, winners: [] }), "Game over.");
  // Deep Sea alone can end with the winner hidden from this seat
  assert.equal(deepSea({ ...st, winners: [] }), "Game over: the winner depends on values still hidden.");
  // in the past, one dash: the mode's
  const past = { ...st, winners: [0], mode: "history", history: { n: 9, at: 9 } };
  assert.equal(withMode(past, deepSea(past)), "History, step 9 of 9 — Game over: Ann wins.");
});

test("whose turn, in the shell's words for every game that draws the turn itself (Pig's line)", () => {
  const st = { players: ["You", "Bot"], actor: 1, current: 1, seat: 0, can_act: false };
  assert.equal(whoseTurn(st), "Bot's turn");
  assert.equal(whoseTurn(st, 0), "Your turn");
  // a hot-seat board (no seat of its own) may act for whoever is to play
  assert.equal(whoseTurn({ ...st, seat: null, can_act: true }), "Your turn");
  assert.equal(whoseTurn({ ...st, actor: null }), "");
  // a served table before its start (or after its close): nobody's turn yet
  assert.equal(whoseTurn({ ...st, actor: 0, waiting: "Waiting for the host to start the game." }), "");
});
