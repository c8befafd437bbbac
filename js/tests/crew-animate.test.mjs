// The Crew's animations decide what moves from two states alone (js/crew/animate.js): the plays
// that are new and the trick just taken; nothing for a first drawing, the past or a mode change.
// And forDummy: when the captain's screen plays the dummy seat's card rather than its own.

import assert from "node:assert/strict";
import { test } from "node:test";
import { movesBetween } from "../crew/animate.js";
import { forDummy } from "../crew/cards.js";

const trick = (number, leader, plays, winner) => ({
  number,
  leader,
  plays: plays.map(([seat, card]) => ({ seat, card })),
  ...(winner === undefined ? {} : { winner }),
});
const st = (seq, t, last, mode = "real") => ({ seq, mode, trick: t, last_trick: last });

test("a new play moves; the plays already shown do not", () => {
  const a = st(
    4,
    trick(2, 1, [[1, "P3"]]),
    trick(
      1,
      0,
      [
        [0, "G1"],
        [1, "G4"],
        [2, "G2"],
      ],
      1,
    ),
  );
  const b = st(
    5,
    trick(2, 1, [
      [1, "P3"],
      [2, "P7"],
    ]),
    a.last_trick,
  );
  assert.deepEqual(movesBetween(a, b), { plays: [{ seat: 2, card: "P7", trick: 2 }], taken: null });
});

test("the last card of a trick moves, then the trick goes to its winner", () => {
  const a = st(
    5,
    trick(2, 1, [
      [1, "P3"],
      [2, "P7"],
    ]),
    trick(1, 0, [[0, "G1"]], 1),
  );
  const b = st(
    6,
    trick(3, 2, []),
    trick(
      2,
      1,
      [
        [1, "P3"],
        [2, "P7"],
        [0, "P1"],
      ],
      2,
    ),
  );
  assert.deepEqual(movesBetween(a, b), { plays: [{ seat: 0, card: "P1", trick: 2 }], taken: { number: 2, winner: 2 } });
});

test("nothing moves on a first drawing, in the past, across modes or for an older state", () => {
  const a = st(5, trick(2, 1, [[1, "P3"]]), null);
  const b = st(
    6,
    trick(2, 1, [
      [1, "P3"],
      [2, "P7"],
    ]),
    null,
  );
  const none = { plays: [], taken: null };
  assert.deepEqual(movesBetween(null, b), none);
  assert.deepEqual(movesBetween(a, { ...b, mode: "history" }), none);
  assert.deepEqual(movesBetween(a, { ...b, mode: "whatif" }), none);
  assert.deepEqual(movesBetween(b, a), none);
  assert.notDeepEqual(movesBetween(a, b), none);
});

test("the captain plays for the dummy: its own hand is not the one to play from", () => {
  const base = { seat: 0, dummy: 2, legal: ["play B1", "play G6"] };
  assert.ok(forDummy({ ...base, acting_for: 2 }));
  assert.ok(!forDummy({ ...base, acting_for: null }));
  assert.ok(!forDummy({ ...base, acting_for: 0 }));
  assert.ok(!forDummy({ ...base, acting_for: 2, legal: ["take 3", "pass"] }));
});
