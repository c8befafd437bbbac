// History decoding and the words/numbers of the history bar and the hints: `node --test js/tests/`.

import assert from "node:assert/strict";
import { test } from "node:test";
import { expandFrames, fracText, fracTitle, frameCount, frameState, precisePct, turnText } from "../history.js";

const chunk = {
  frames: [
    {
      k: 0,
      r: 1,
      a: 25,
      c: 0,
      s: "roll",
      P: [[[1]], [[1]], [[2]]],
      D: [
        [0, 0, 0, []],
        [0, 0, 0, []],
      ],
      B: [
        [[], []],
        [0, 0],
      ],
    },
    { k: 1, r: 1, a: 25, c: 1, s: "roll", pd: [[1, 0]], dd: [[0, [2, 0, 0, [[[1]]]]]], t: [0, 0, [1, 1], "take"] },
    { k: 2, r: 1, a: 24, c: 0, s: "turn_back", dd: [[1, [1, 0, 0, []]]], t: [1, 0, [1, 2], "none"] },
  ],
};

test("frames decode cumulatively: a delta changes only what it names", () => {
  const f = expandFrames({ chunks: [] }, chunk);
  assert.equal(f.length, 3);
  assert.deepEqual(f[0].path, [[[1]], [[1]], [[2]]]);
  assert.deepEqual(f[1].path, [[[1]], 0, [[2]]]);
  assert.deepEqual(f[2].path, [[[1]], 0, [[2]]]);
  assert.deepEqual(f[1].divers[0], { pos: 2, up: false, home: false, items: [[[1]]] });
  assert.deepEqual(
    f[2].divers.map((d) => d.pos),
    [2, 1],
  );
  assert.deepEqual(f[0].path, [[[1]], [[1]], [[2]]], "earlier frames are not changed by later deltas");
  assert.deepEqual(f[2].scores, [0, 0]);
  assert.equal(f[2].air, 24);
  // completed rounds come first
  const two = expandFrames({ chunks: [chunk] }, { frames: [{ ...chunk.frames[0], k: 3, r: 2 }] });
  assert.deepEqual(
    two.map((x) => x.turn),
    [0, 1, 2, 3],
  );
  assert.deepEqual(expandFrames({}, {}), []);
});

test("a frame is drawn with the live state's names and no choices", () => {
  const live = { players: ["Ann", "Bob"], seats: ["human", "random"], legal: ["roll"], seq: 9, rounds: 3 };
  const st = frameState(expandFrames({}, chunk)[1], live);
  assert.deepEqual(st.legal, []);
  assert.equal(st.players[1], "Bob");
  assert.equal(st.seq, 9);
  assert.equal(st.mode, "history");
});

test("turns and chances in words", () => {
  const f = expandFrames({}, chunk);
  assert.equal(turnText(f[0], ["Ann", "Bob"]), "the start of the game");
  assert.equal(turnText(f[1], ["Ann", "Bob"]), "Ann rolled 1+1, took the treasure");
  assert.equal(
    turnText({ last_turn: [1, 1, [3, 3], "drop 0"] }, ["Ann", "<b>Bob</b>"]),
    "<b>Bob</b> turned back, rolled 3+3, put down item 1",
  );
  assert.equal(fracText(1, 3), "33% (1/3)");
  assert.equal(fracText(1, 1), "100%");
  assert.equal(fracText(0, 1), "0%");
  assert.equal(fracText(1, 531441), "<1% (1/531441)");
  assert.equal(fracText(6560, 6561), ">99% (6560/6561)");
  // beyond 10^7 (and beyond 2^53, sent as strings): a precise percentage, the exact value in a tooltip
  assert.equal(fracText("79765889463593982435328", "79766443076872509863361"), "≈ 99.99931%");
  assert.equal(fracText("553613328000", "79766443076872509863361"), "≈ 0.00000000069%");
  assert.equal(fracText("5536133", "79766443076872509863361"), "≈ <0.000000000001%");
  assert.equal(fracText("79766443076872509863360", "79766443076872509863361"), "≈ >99.999999999999%");
  assert.equal(fracText(1, 3 ** 20), "≈ 0.000000029%");
  assert.equal(fracText(String(2 ** 60), String(2 ** 61)), "≈ 50.0%");
  assert.equal(fracTitle("7", "79766443076872509863361"), "exactly 7/79766443076872509863361");
  // denominators far past 10^40 (50 rolls of the dice) keep their tiny chances
  assert.equal(fracText("1", (9n ** 50n).toString()), "≈ <0.000000000001%");
  assert.equal(fracText((9n ** 50n - 1n).toString(), (9n ** 50n).toString()), "≈ >99.999999999999%");
  assert.equal(fracText((9n ** 49n).toString(), (9n ** 50n).toString()), "≈ 11.1%");
  assert.equal(fracText("1", (9n ** 400n).toString()), "≈ <0.000000000001%");
  assert.equal(fracText("0", (9n ** 400n).toString()), "≈ 0%");
  assert.equal(fracTitle(1, 3), null);
  assert.equal(precisePct(99.5), "99.5%");
  assert.equal(precisePct(42.25), "42.3%");
});

test("frameCount counts the frames without decoding them", () => {
  assert.equal(frameCount({ chunks: [chunk, chunk] }, chunk), expandFrames({ chunks: [chunk, chunk] }, chunk).length);
  assert.equal(frameCount({ chunks: [chunk] }, {}), 3);
  assert.equal(frameCount(undefined, undefined), 0);
  assert.equal(frameCount({}, { frames: [] }), 0);
});
