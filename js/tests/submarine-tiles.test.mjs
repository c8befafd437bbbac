// Submarine front end's pure helpers: tiles and colours are named in text (never by colour alone),
// and every action gets an aria-label: `node --test js/tests/`.

import assert from "node:assert/strict";
import { test } from "node:test";
import { commonAction } from "../keys.js";
import { describe, GAME_ARIA, KEYS_HELP, statusText } from "../submarine/controls.js";
import { colourMark, parseTile, tileLabel, tileWords } from "../submarine/tiles.js";

test("tiles carry type and colour as text", () => {
  assert.deepEqual(parseTile("T06K2"), { kind: "treasure", type: 6, colour: "K2" });
  assert.deepEqual(parseTile("SHK5"), { kind: "shell", type: null, colour: "K5" });
  assert.equal(tileLabel("T12K1"), "12 R●");
  assert.equal(tileLabel("SHK3"), "S G■");
  assert.equal(tileWords("T01K4"), "type 1 treasure, blue");
  const marks = ["K1", "K2", "K3", "K4", "K5"].map(colourMark);
  assert.equal(new Set(marks).size, 5);
});

test("every kind of action has words", () => {
  for (const a of [
    "place 3",
    "sail 2",
    "sail end",
    "mode collect",
    "collect 3.2 T06K2 card",
    "collect 3.2 T06K2 joker SHK1",
    "move 1.1 2.2",
    "exchange K3",
    "pass",
    "end",
  ]) {
    const [label, text] = describe(a);
    assert.ok(label.length > 3 && text.length > 1, a);
    assert.notEqual(label, a, a);
  }
  assert.match(KEYS_HELP, /Game keys:/);
  for (const key of GAME_ARIA.split(" ")) assert.equal(commonAction({ key }), null, key);
});

test("the status names the winner at the end", () => {
  const st = { players: ["Ann", "Bob"], over: true, result: { condition: "E2", winners: [1] }, scores: [3, 5] };
  assert.match(statusText(st), /Bob won/);
});
