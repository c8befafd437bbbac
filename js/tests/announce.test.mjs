// What a screen reader hears: js/shell.js's announcement (the board's one live region says what
// is new, once), js/keys.js's focusKey (the focus finds a redrawn control again) and the words of
// a key pressed on a control that does nothing now.

import assert from "node:assert/strict";
import { test } from "node:test";
import { focusKey, gameKeyRefusal } from "../keys.js";
import { announcement, liveRegion } from "../shell.js";

const base = {
  view: "real",
  total: 4,
  lines: ["Ann rolled a 6"],
  said: {},
  status: "Your turn.",
  curtain: "",
  problem: "",
};

test("the first draw says nothing (the page is read then); a redraw with nothing new neither", () => {
  assert.equal(announcement(null, base), "");
  assert.equal(announcement(base, { ...base }), "");
  assert.equal(announcement(base, { ...base, said: {} }), "");
});

test("new steps are told once each, then a bot's new reason, then whose turn it is now", () => {
  const now = {
    ...base,
    total: 6,
    lines: ["Ann rolled a 6", "Ann held 12", "Bot rolled a 3"],
    said: { 1: "optimal: rolls on below 20\nmore words" },
    status: "Bot's turn.",
  };
  assert.equal(announcement(base, now), "Ann held 12. Bot rolled a 3. Why: rolls on below 20. Bot's turn.");
  // drawn again (a key refused, the bots paused): the same steps and reason are not said again
  assert.equal(announcement(now, { ...now }), "");
  // the same reason after the bot's next step is not a new reason; its step is new
  assert.equal(announcement(now, { ...now, total: 7, lines: [...now.lines, "Bot held 15"] }), "Bot held 15.");
  // a step told by the next one (Pig's roll has no words of its own) adds nothing but its successor's
  assert.equal(announcement(base, { ...base, total: 6, lines: ["x", "", "Ann rolled a 2"] }), "Ann rolled a 2.");
});

test("a new view says where the board is now; a past step its own words", () => {
  const past = {
    ...base,
    view: "history 3",
    lines: ["Ann rolled a 6", "Ann held 6"],
    status: "History, step 3 of 4 — Bob's turn.",
  };
  assert.equal(announcement(base, past), "History, step 3 of 4 — Bob's turn. Ann held 6.");
  assert.equal(
    announcement(past, { ...past, view: "history 2", status: "History, step 2 of 4" }).startsWith("History, step 2"),
    true,
  );
  assert.equal(announcement(past, { ...base, view: "whatif", status: "What-if — Your turn." }), "What-if — Your turn.");
  // an undo in a what-if: fewer steps, the status again
  const wi = { ...base, view: "whatif", status: "What-if — Your turn." };
  assert.equal(announcement(wi, { ...wi, total: 3 }), "What-if — Your turn.");
});

test("the curtain: its words once, after the steps that brought it down; then the next seat's turn", () => {
  const curtain = "Pass the device to Bob, then press Show (Enter). The board stays hidden until then.";
  const down = { ...base, total: 5, lines: ["Ann rolled a 6", "Ann held 6"], status: "Bob's turn.", curtain };
  assert.equal(announcement(base, down), `Ann held 6. ${curtain}`);
  assert.equal(announcement(down, { ...down }), "");
  const up = { ...down, curtain: "", status: "Your turn." };
  assert.equal(announcement(down, up), "Your turn.");
  // a bot's reason is told behind the curtain too (the screen drawn then is public knowledge)
  assert.equal(
    announcement(up, { ...down, total: 6, lines: ["Bot held 3"], said: { 2: "Bot: enough" } }),
    `Bot held 3. Why: enough. ${curtain}`,
  );
});

test("a stuck bot's problem and the end of the game are told", () => {
  assert.equal(announcement(base, { ...base, problem: "The bot failed." }), "The bot failed.");
  const over = { ...base, total: 5, lines: ["Ann held 30"], status: "Game over: Ann wins." };
  assert.equal(announcement(base, over), "Ann held 30. Game over: Ann wins.");
});

test("focusKey names a control by its choice or action, so its redrawn copy gets the focus", () => {
  const el = (tag, attrs) => ({ tagName: tag, hasAttribute: (a) => a in attrs, getAttribute: (a) => attrs[a] });
  assert.equal(focusKey(el("BUTTON", { "data-choice": "roll" })), 'BUTTON[data-choice="roll"]');
  assert.equal(
    focusKey(el("BUTTON", { "data-action": "play", "data-card": "P3" })),
    'BUTTON[data-action="play"][data-card="P3"]',
  );
  assert.equal(focusKey(el("BUTTON", { "data-choice": 'say "hi"' })), 'BUTTON[data-choice="say \\"hi\\""]');
  assert.equal(focusKey(el("DIV", {})), null);
  assert.equal(focusKey(null), null);
});

test("Enter on a focusable control that does nothing now (aria-disabled) says why in its words", () => {
  const card = (label) => ({
    closest: () => ({ getAttribute: (a) => ({ "aria-disabled": "true", "aria-label": label })[a] }),
  });
  const mine = { mode: "real", can_act: true };
  assert.equal(
    gameKeyRefusal({ key: "Enter", target: card("pink 2, not playable now") }, "Enter", mine),
    "Enter: pink 2, not playable now",
  );
  assert.equal(gameKeyRefusal({ key: " ", target: card("Keep") }, "", mine), "Space: Keep (not now)");
  const live = { closest: () => ({ getAttribute: () => null }) };
  assert.equal(gameKeyRefusal({ key: "Enter", target: live }, "Enter", mine), null, "the browser presses it");
});

test("what one change brings is written to the live region once, all of it", () => {
  const el = { textContent: "", dataset: {} };
  const region = liveRegion(el);
  region.flush();
  assert.equal(el.textContent, "", "nothing kept: nothing written");
  assert.equal(el.dataset.told, undefined);
  // a refusal and the steps it came with: one write (a second would replace the first unread)
  region.keep("That card cannot be played now.");
  region.keep("");
  region.keep("Bot played B3.");
  assert.equal(el.textContent, "", "kept until the change is drawn");
  region.flush();
  assert.equal(el.textContent, "That card cannot be played now. Bot played B3.");
  assert.equal(el.dataset.told, "1");
  region.flush();
  assert.equal(el.dataset.told, "1", "said once: a redraw with nothing new writes nothing");
  // the same words again are a change of the text, so they are heard again
  region.keep("That card cannot be played now.");
  region.flush();
  assert.equal(el.textContent, "That card cannot be played now.\u00a0");
  assert.equal(el.dataset.told, "2");
});
