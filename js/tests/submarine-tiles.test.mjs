// Submarine front end's pure helpers: tiles and colours are named in text (never by colour alone),
// every action's words come from the screen (dsa_widget/submarine/words.py), matched by position,
// and the status line is the screen's prompt or ending: `node --test js/tests/`.

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
  assert.equal(tileWords("T01K4"), "blue treasure 1");
  assert.equal(tileWords("SHK2"), "yellow shell");
  const marks = ["K1", "K2", "K3", "K4", "K5"].map(colourMark);
  assert.equal(new Set(marks).size, 5);
});

test("every action's words are the screen's, by position", () => {
  const st = {
    legal: ["move 1.1 2.2", "exchange K3", "pass"],
    words: {
      legal: [
        {
          say: "Move your bathyscaphe from column 1, depth 1 to column 2, depth 2",
          short: "to col 2, depth 2",
          group: "Move",
        },
        { say: "Put a green card from your hand under your pile", short: "Swap a green card", group: "While you wait" },
        { say: "Pass: keep your hand as it is", short: "Pass", group: "While you wait" },
      ],
    },
  };
  assert.equal(describe(st, "exchange K3").short, "Swap a green card");
  assert.equal(describe(st, "pass").say, "Pass: keep your hand as it is");
  assert.equal(describe(st, "move 1.1 2.2").group, "Move");
  // an action the screen has no words for is shown as it is, never dropped
  assert.equal(describe(st, "end").short, "end");
  assert.match(KEYS_HELP, /Game keys:/);
  for (const key of GAME_ARIA.split(" ")) assert.equal(commonAction({ key }), null, key);
});

test("the status is the prompt while playing and the ending at the end", () => {
  // the turn is Python's count of turns of play (turn_number also counts the placements)
  const playing = {
    over: false,
    turn_number: 19,
    words: { prompt: "Your turn: move your submarine to the right.", turn: "turn 4" },
  };
  assert.equal(statusText(playing), "Your turn: move your submarine to the right. (turn 4)");
  const placing = { over: false, turn_number: 3, words: { prompt: "Your turn: place a bathyscaphe.", turn: "" } };
  assert.equal(statusText(placing), "Your turn: place a bathyscaphe.");
  const st = {
    over: true,
    words: { ending: "Game over: column 2 ran out of treasure. Bob won with 5 treasure types." },
  };
  assert.match(statusText(st), /^Game over: column 2 ran out of treasure\. Bob won/);
});
