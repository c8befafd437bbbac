// The served page's model shim and its helpers (no DOM): run with `node --test js/tests/`.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  backoffMs,
  createRemoteModel,
  notSentText,
  roleText,
  SENT_TYPES,
  socketUrl,
  tokenFromHash,
} from "../remote-model.js";

test("a frame's keys are all set before any change event, state last", () => {
  const sent = [];
  const m = createRemoteModel({ send: (msg) => sent.push(msg) });
  const seen = [];
  m.on("change:state", () => seen.push(["state", m.get("state").seq, m.get("history").n]));
  m.on("change:history", () => seen.push(["history", m.get("state").seq]));
  m.update({ state: { seq: 3 }, history: { n: 2 } });
  assert.deepEqual(seen, [
    ["history", 3],
    ["state", 3, 2],
  ]);
  m.send({ type: "intent", seq: 3, choice: "roll" });
  assert.deepEqual(sent, [{ type: "intent", seq: 3, choice: "roll" }]);
});

test("set is local and off removes a listener", () => {
  const m = createRemoteModel({ send: () => assert.fail("set never sends") });
  let n = 0;
  const fn = () => {
    n += 1;
  };
  m.on("change:scrub", fn);
  m.set("scrub", 4);
  m.save_changes();
  m.off("change:scrub", fn);
  m.set("scrub", 5);
  assert.equal(n, 1);
  assert.equal(m.get("scrub"), 5);
});

test("the page sends intents only", () => {
  assert.ok(SENT_TYPES.has("intent"));
  for (const t of ["what_if", "new_game", "pause", "bot_step", "undo", "join"]) assert.ok(!SENT_TYPES.has(t));
});

test("the token comes from the fragment, the socket sits beside the page", () => {
  assert.equal(tokenFromHash("#t=abc-DEF_1"), "abc-DEF_1");
  assert.equal(tokenFromHash(""), null);
  assert.equal(tokenFromHash(`#t=${"x".repeat(200)}`), null);
  assert.equal(socketUrl("http://127.0.0.1:8765/play#t=abc"), "ws://127.0.0.1:8765/ws");
  assert.equal(
    socketUrl("https://hub.example/user/ann/proxy/8765/play?x=1#t=abc"),
    "wss://hub.example/user/ann/proxy/8765/ws",
  );
});

test("reconnecting backs off to 8 s at most", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 9].map(backoffMs), [500, 1000, 2000, 4000, 8000, 8000]);
});

test("the header says whose knowledge the screen holds", () => {
  assert.match(roleText({ seat: 0, name: "<b>Ann</b>" }), /only what <b>Ann<\/b> may know/);
  assert.match(roleText({ seat: null, name: null }), /Spectator/);
  assert.equal(roleText(null), "Connecting…");
});

test("a move not sent says why: a closed table stays closed, a lost connection comes back", () => {
  assert.equal(notSentText({ closed: true, started: true }), "Not sent: the host closed the table.");
  for (const table of [undefined, { started: true, closed: false }]) {
    assert.match(notSentText(table), /connection to the table is lost; the page reconnects by itself/);
  }
});
