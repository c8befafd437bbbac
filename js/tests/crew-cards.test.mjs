// The Crew front end's pure helpers (js/crew/cards.js, the renderer's status, clock and comparison
// words, and the shell's generic comparison columns), on the contract's view JSON
// (js/crew/fixture.json): `node --test js/tests/`.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  actionLabel,
  actorOf,
  cardKey,
  cardName,
  forTonoja,
  keyIntent,
  outcomeText,
  parseAction,
  parseCard,
  positionText,
  STATUS_WORDS,
  SUITS,
  seatToPlay,
  sortCards,
  takeActions,
  turnText,
} from "../crew/cards.js";
import { clockText, compareLabels, GAME_ARIA, HELP_TEXT, statusText } from "../crew/widget.js";
import { COMMON_HELP, commonAction } from "../keys.js";
import { compareCell, compareColumns, withMode } from "../shell.js";

const FIXTURE = JSON.parse(readFileSync(new URL("../crew/fixture.json", import.meta.url), "utf8"));
const four = () => ({ ...structuredClone(FIXTURE.four), seq: 7, kinds: ["human", "crewmate", "crewmate", "crewmate"] });
const two = () => ({ ...structuredClone(FIXTURE.two), seq: 3, kinds: ["human", "human", "tonoja"] });

test("card ids parse, name and sort in the canonical deck order", () => {
  assert.deepEqual(parseCard("P3"), { suit: "P", rank: 3 });
  assert.deepEqual(parseCard("S4"), { suit: "S", rank: 4 });
  for (const bad of ["S5", "P0", "X1", "p3", "P10", "", null, "<img>"]) assert.equal(parseCard(bad), null, String(bad));
  assert.equal(cardName("B8"), "blue 8");
  assert.equal(cardName("S2"), "submarine 2");
  assert.equal(cardName("<b>"), "<b>"); // not a card: shown as the text it is
  assert.deepEqual(sortCards(["S2", "G1", "B8", "P7", "Y9", "P3"]), ["P3", "P7", "Y9", "B8", "G1", "S2"]);
  assert.ok(cardKey("P9") < cardKey("Y1") && cardKey("G9") < cardKey("S1"));
  const hand = four().hand;
  assert.deepEqual(sortCards(hand), ["P3", "P7", "Y9", "B2", "B8", "G1", "G6", "S2"]);
  assert.deepEqual(hand, FIXTURE.four.hand, "sortCards does not sort in place");
});

test("every suit has a name and a symbol: readable without colour", () => {
  const symbols = new Set();
  for (const s of ["P", "Y", "B", "G", "S"]) {
    assert.ok(SUITS[s].name.length > 2);
    symbols.add(SUITS[s].symbol);
  }
  assert.equal(symbols.size, 5);
  const words = Object.values(STATUS_WORDS).map((w) => w.symbol + w.word);
  assert.equal(new Set(words).size, 3);
});

test("communicated positions in words, currents hide them", () => {
  assert.equal(positionText("B8", "top", "normal"), "highest blue");
  assert.equal(positionText("G6", "middle", "normal"), "only green");
  assert.equal(positionText("B3", "bottom", "normal"), "lowest blue");
  assert.match(positionText("B8", "middle", "currents"), /highest, lowest or only blue/);
  assert.match(positionText("B8", "unknown", "currents"), /highest, lowest or only/);
});

test("action labels: accessible names and button groups", () => {
  const st = four();
  assert.deepEqual(actionLabel("play P3", st), { text: "Play P3", aria: "Play pink 3", group: "play" });
  assert.equal(actionLabel("comm B8", st).aria, "Communicate blue 8");
  assert.equal(actionLabel("comm B8 top", st).aria, "Communicate blue 8 as highest");
  assert.match(actionLabel("take 17", st).aria, /^Take task 17: Take the final trick/);
  assert.equal(actionLabel("give 2", st).aria, "Give every task to Cy");
  assert.equal(actionLabel("give P3", st).group, "distress");
  assert.equal(actionLabel("distress ccw", st).text, "Distress counterclockwise");
  assert.equal(actionLabel("no distress", st).group, "distress");
  assert.equal(actionLabel("predict 1", st).aria, "Predict 1 trick");
  assert.equal(actionLabel("predict 3", st).aria, "Predict 3 tricks");
  assert.deepEqual(parseAction("no distress"), { verb: "no distress", args: [] });
  assert.deepEqual(parseAction("propose 17:0 23:1"), { verb: "propose", args: ["17:0", "23:1"] });
});

test("keys: arrows move along the hand, Enter plays, C communicates, digits take or predict", () => {
  const hand = sortCards(four().hand);
  const legal = ["play P3", "play P7", "comm B8", "comm G6 top", "pass"];
  assert.deepEqual(keyIntent("ArrowRight", { legal, focused: null, hand }), { kind: "focus", index: 0 });
  assert.deepEqual(keyIntent("ArrowRight", { legal, focused: "P3", hand }), { kind: "focus", index: 1 });
  assert.deepEqual(keyIntent("ArrowRight", { legal, focused: "S2", hand }), { kind: "focus", index: 7 });
  assert.deepEqual(keyIntent("ArrowLeft", { legal, focused: "P3", hand }), { kind: "focus", index: 0 });
  assert.deepEqual(keyIntent("ArrowLeft", { legal, focused: null, hand }), { kind: "focus", index: 7 });
  // Home/End are the history's (js/keys.js), not the hand's
  assert.equal(keyIntent("End", { legal, focused: null, hand }), null);
  assert.equal(keyIntent("Home", { legal, focused: null, hand }), null);
  assert.deepEqual(keyIntent("Enter", { legal, focused: "P7", hand }), { kind: "intent", action: "play P7" });
  // a card that cannot go now is still asked for on one's play: Python refuses and says why
  assert.deepEqual(keyIntent("Enter", { legal, focused: "Y9", hand }), { kind: "intent", action: "play Y9" });
  assert.equal(keyIntent("Enter", { legal: ["pass"], focused: "Y9", hand }), null, "not this seat's play");
  assert.deepEqual(keyIntent("Enter", { legal: ["give Y9", "give B2"], focused: "Y9", hand }), {
    kind: "intent",
    action: "give Y9",
  });
  assert.deepEqual(keyIntent("c", { legal, focused: "B8", hand }), { kind: "intent", action: "comm B8" });
  assert.deepEqual(keyIntent("C", { legal, focused: "G6", hand }), { kind: "intent", action: "comm G6 top" });
  assert.equal(keyIntent("c", { legal, focused: "P3", hand }), null);
  assert.deepEqual(keyIntent("p", { legal, focused: null, hand }), { kind: "intent", action: "pass" });
  const assign = ["take 3", "take 17", "take 84", "pass"];
  assert.deepEqual(takeActions(assign), ["take 3", "take 17", "take 84"]);
  assert.deepEqual(keyIntent("2", { legal: assign, hand }), { kind: "intent", action: "take 17" });
  assert.equal(keyIntent("4", { legal: assign, hand }), null);
  // the digits follow the tasks as shown: #41 above #2 is key 1 (it was key 2, the legal order)
  const shown = [{ id: 41 }, { id: 2 }];
  assert.deepEqual(takeActions(["take 2", "take 41", "pass"], shown), ["take 41", "take 2"]);
  assert.deepEqual(keyIntent("1", { legal: ["take 2", "take 41"], hand, tasks: shown }), {
    kind: "intent",
    action: "take 41",
  });
  const predict = ["predict 0", "predict 1", "predict 2"];
  assert.deepEqual(keyIntent("0", { legal: predict, hand }), { kind: "intent", action: "predict 0" });
  assert.deepEqual(keyIntent("a", { legal: ["agree", "refuse"], hand }), { kind: "intent", action: "agree" });
  assert.deepEqual(keyIntent("r", { legal: ["confirm", "reject"], hand }), { kind: "intent", action: "reject" });
  assert.deepEqual(keyIntent("n", { legal: ["distress cw", "no distress"], hand }), {
    kind: "intent",
    action: "no distress",
  });
  assert.equal(keyIntent("x", { legal, focused: "P3", hand }), null);
  // the game's own keys are never common keys: P passes, K keeps the tasks, arrows move in the hand
  for (const key of ["ArrowLeft", "ArrowRight", "Enter", "c", "0", "9", "p", "a", "r", "n", "k"]) {
    assert.equal(commonAction({ key }), null, key);
  }
  for (const word of ["Enter", "C communicate", "1–9", "P pass", "K keep"]) assert.ok(HELP_TEXT.includes(word), word);
  for (const word of ["W what-if", "U undo", "Q back", "Z pause"]) assert.ok(COMMON_HELP.includes(word), word);
});

test("the captain acts for Tonoja; the live region names whose turn it is", () => {
  const t = two();
  assert.equal(actorOf(t), 1, "Tonoja's turn: the captain (Bob) acts");
  assert.equal(turnText(t), "Bob for Tonoja: choose a task");
  // the engine's shape: to_move is the captain, the trick says Tonoja's card is next
  const e = { ...two(), step: "play", to_move: 1, trick: { number: 1, leader: 1, plays: [{ seat: 1, card: "B9" }] } };
  assert.equal(seatToPlay(e), 2);
  assert.ok(forTonoja(e));
  assert.equal(turnText(e), "Bob for Tonoja: play a card");
  e.trick.plays.push({ seat: 2, card: "B3" });
  assert.equal(seatToPlay(e), 0);
  assert.ok(!forTonoja({ ...e, to_move: 0 }));
  const f = four();
  assert.equal(seatToPlay(f), 0);
  assert.ok(!forTonoja(f));
  assert.equal(actorOf(f), 0);
  assert.equal(turnText(f), "Ann: play a card");
  f.to_move = 2;
  assert.equal(turnText(f), "Cy (crewmate bot): play a card");
  f.outcome = { result: "failure", trick: 4, cause: "task 17 failed" };
  // the header says how it ended; why, and at which trick, are said once, on the board
  assert.equal(turnText(f), "Mission failed");
  assert.equal(
    outcomeText({ ...f, ending: "Mission failed at trick 4 of 10: x." }),
    "Mission failed at trick 4 of 10: x.",
  );
  assert.equal(
    outcomeText({ outcome: { result: "success", trick: 9, cause: "every task done" } }),
    "Mission accomplished after trick 9: every task done",
  );
});

test("the header's words: the turn, the past step shown, a what-if, a stuck bot, the outcome", () => {
  const f = { ...four(), mode: "real", history: { n: 5, at: null } };
  assert.equal(statusText(f), "Ann: play a card");
  // the view's words are the shell's, the same in every game (withMode)
  const head = (st) => withMode(st, statusText(st));
  assert.equal(head({ ...f, mode: "whatif" }), "What-if — Ann: play a card");
  assert.equal(head({ ...f, mode: "history", history: { n: 5, at: 2 } }), "History, step 2 of 5 — Ann: play a card");
  assert.match(statusText({ ...f, problem: { seat: 1, message: "x" } }), /^Paused: a bot could not move/);
  const done = { ...f, outcome: { result: "failure", trick: 4, cause: "task 17 failed" } };
  assert.equal(statusText(done), "Mission failed (the attempt is over)");
  assert.equal(statusText({}), "Loading…");
  assert.equal(clockText(65.7, "running"), "⏱ 1:05 left");
  assert.equal(clockText(0, "stopped"), "⏱ 0:00 left (stopped)");
  assert.equal(clockText(600, "waiting"), "⏱ 10:00 left (not started)");
  // the game's keys: none of them is a common key (those win, js/keys.js)
  for (const k of GAME_ARIA.split(" ")) {
    assert.equal(commonAction({ key: k.length === 1 ? k.toLowerCase() : k }), null, k);
  }
});

test("the what-if comparison: one column per key of the rows (the shell's), The Crew's labels", () => {
  // rows as CrewPresenter.compare_row builds them
  const rows = [
    { name: "real", trick: 2, done: 1, failed: 0, open: 1, outcome: null, tricks_won: [1, 1, 0] },
    { name: "kept 1", trick: 3, done: 1, failed: 1, open: 0, outcome: "failure", tricks_won: [2, 1, 0] },
    { name: "what-if", trick: 3, done: 2, failed: 0, open: 0, outcome: "success", tricks_won: [1, 2, 0] },
  ];
  const st = { players: ["Ann", "Bob", "Cy"] };
  const cols = compareColumns(rows, compareLabels(st));
  assert.deepEqual(
    cols.map((c) => c.key),
    ["trick", "done", "failed", "open", "outcome", "tricks_won"],
  );
  assert.equal(cols.at(-1).label, "tricks won (Ann · Bob · Cy)");
  assert.equal(compareColumns(rows)[5].label, "tricks won", "no label: the key in words");
  assert.equal(compareCell(rows[0].outcome), "—");
  assert.equal(compareCell(rows[1].tricks_won), "2 · 1 · 0");
  assert.equal(compareCell(0), "0");
  assert.equal(compareCell(true), "yes");
  // a key only a later row has still gets its column
  assert.deepEqual(
    compareColumns([
      { name: "real", a: 1 },
      { name: "what-if", b: 2 },
    ]).map((c) => c.key),
    ["a", "b"],
  );
});
