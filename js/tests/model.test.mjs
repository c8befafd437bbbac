// Pure front-end logic (no DOM): run with `node --test js/tests/`.

import assert from "node:assert/strict";
import { test } from "node:test";
import { COLS, diverXY, pathWords, polygonPoints, spaceXY } from "../board.js";
import { commonAction } from "../keys.js";
import {
  choiceForKey,
  choiceLabel,
  GAME_ARIA,
  GAME_HELP,
  isBot,
  itemText,
  obj,
  poss,
  statusText,
  subj,
} from "../model.js";

const state = {
  players: ["Ann", "<b>Bob</b>"],
  seats: ["human", "baseline"],
  current: 0,
  step: "search",
  over: false,
  winners: [],
  legal: ["none", "drop 0", "drop 1"],
  must_turn_back: false,
  path: [[[1]], 0, [[2], [3]]],
  divers: [
    { pos: 2, up: true, home: false, items: [[[1]], [[4], [4]]] },
    { pos: 0, up: false, home: false, items: [] },
  ],
};

test("keys map to legal choices only", () => {
  assert.equal(choiceForKey("n", state.legal), "none");
  assert.equal(choiceForKey("N", state.legal), "none");
  assert.equal(choiceForKey("1", state.legal), "drop 0");
  assert.equal(choiceForKey("2", state.legal), "drop 1");
  assert.equal(choiceForKey("3", state.legal), null);
  assert.equal(choiceForKey("t", state.legal), null);
  assert.equal(choiceForKey(" ", ["roll"]), "roll");
  assert.equal(choiceForKey("r", ["roll"]), "roll");
  assert.equal(choiceForKey("b", ["back", "continue"]), "back");
  assert.equal(choiceForKey("x", ["back", "continue"]), null);
});

test("labels name what a choice does", () => {
  assert.equal(choiceLabel("drop 1", state).aria, "Put down item 2: the stack of 2 (levels 4+4)");
  assert.equal(choiceLabel("drop 1", state).text, "Put down 2: stack 4+4"); // which one, on the button
  assert.equal(choiceLabel("drop 0", state).text.startsWith("Put down 1: level "), true);
  assert.equal(choiceLabel("drop 0", state).key, "1");
  assert.equal(choiceLabel("back", state).key, "B");
  assert.match(choiceLabel("roll", { ...state, must_turn_back: true }).aria, /must turn back/);
});

test("status and items in words", () => {
  assert.equal(statusText(state), "Ann: search the space");
  assert.equal(statusText({ ...state, current: 1, step: "roll" }), "<b>Bob</b> (baseline bot): roll the dice");
  assert.equal(statusText({ ...state, over: true, winners: [0, 1] }), "Game over: Ann and <b>Bob</b> win.");
  assert.equal(itemText([[3, 9]]), "level-3 chip worth 9");
  assert.ok(isBot(state, 1) && !isBot(state, 0) && !isBot(state, null));
});

test("board geometry snakes in rows, like the real board", () => {
  assert.deepEqual(spaceXY(1), [107, 63]);
  assert.deepEqual(spaceXY(8), [429, 63]);
  assert.deepEqual(spaceXY(9), [429, 109]);
  assert.deepEqual(spaceXY(6, 5), [291, 109]); // narrow: 5 per row, row 2 runs back
  assert.equal(COLS, 8);
  assert.deepEqual(diverXY(3, 0), [204, 50]); // right of the space's centre (199): its number stays in sight
  assert.equal(polygonPoints(2, 0, 0, 1).split(" ").length, 4);
  assert.equal(polygonPoints(4, 0, 0, 1).split(" ").length, 6);
});

test("the sink step: chips numbered in pickup order, stacks broken, keys 1-9 and L", () => {
  const sink = {
    ...state,
    step: "sink",
    legal: ["lay all", "lay 0", "lay 2"],
    laying: [1],
    divers: [{ pos: 2, up: true, home: false, items: [[[1]], [[4], [3]]] }, state.divers[1]],
  };
  assert.equal(choiceLabel("lay 2", sink).text, "Lay 3: level 3"); // the stack's second chip
  assert.equal(choiceLabel("lay all", sink).key, "L");
  assert.equal(choiceForKey("3", sink.legal), "lay 2");
  assert.equal(choiceForKey("2", sink.legal), null); // chip 1 is laid already
  assert.equal(choiceForKey("l", sink.legal), "lay all");
  assert.equal(choiceForKey("2", state.legal), "drop 1"); // at a search, digits still put down
  assert.match(statusText(sink), /choose the order your chips sink in/);
});

test("Deep Sea's own keys are documented and none is a common key (js/keys.js)", () => {
  const legal = ["roll", "take", "none", "back", "continue", "lay all", "drop 0", "lay 8"];
  for (const k of ["r", "R", " ", "t", "n", "b", "c", "l", "1", "9"]) assert.ok(choiceForKey(k, legal), k);
  for (const k of GAME_ARIA.split(" ")) {
    const key = k === "Space" ? " " : k.length === 1 ? k.toLowerCase() : k;
    assert.equal(commonAction({ key }), null, k);
    assert.ok(GAME_HELP.includes(/^[1-9]$/.test(k) ? "1–9" : k), k);
  }
  // the keys that were Deep Sea's own for common actions are gone (P pause, K keep, arrows)
  for (const k of ["p", "k", "ArrowLeft", "ArrowRight"]) assert.equal(choiceForKey(k, legal), null, k);
});

test("a player called You reads in the second person", () => {
  assert.equal(subj("You", "gets", "get"), "You get");
  assert.equal(subj("Ann", "gets", "get"), "Ann gets");
  assert.equal(poss("you"), "your");
  assert.equal(poss("Ann"), "Ann's");
  assert.equal(obj("You"), "you");
  const over = { ...state, over: true, winners: [0], players: ["You", "Bot"] };
  assert.equal(statusText(over), "Game over: You win.");
});

test("the path in words: runs of like spaces, then each diver (what a screen reader gets of the picture)", () => {
  const st = {
    path: [[[1]], [[1]], 0, [[2, 7]], [[3], [4]]],
    divers: [
      { pos: 3, up: true, items: [[1]] },
      { pos: 0, up: false, items: [] },
    ],
    players: ["Ann", "Bob"],
  };
  assert.deepEqual(pathWords(st), [
    "Spaces 1 to 2: level-1 chip",
    "Space 3: blank",
    "Space 4: level-2 chip worth 7",
    "Space 5: stack of 2 (levels 3+4)",
    "Ann (A): space 3, heading up, carrying 1",
    "Bob (B): in the submarine",
  ]);
  assert.deepEqual(pathWords({ path: [], divers: [], players: [] }), []);
});
