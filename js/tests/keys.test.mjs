// js/keys.js: the common key map and the focus rule, with a small fake DOM (no browser).

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ariaKey,
  attachKeys,
  COMMON_ARIA,
  COMMON_HELP,
  commonAction,
  gameKeyRefusal,
  inField,
  isSaveKey,
  KEYS,
  keyLabel,
  keyRefusal,
  SERVED_HELP,
  servedKeyRefusal,
} from "../keys.js";
import { GAME_HELP as DEEP_SEA_HELP, GAME_ARIA as DEEP_SEA_KEYS, SERVED_GAME_HELP } from "../model.js";
import { GAME_ARIA as SUBMARINE_KEYS } from "../submarine/controls.js";

test("one key per common action, each documented in the help line", () => {
  const keys = Object.values(KEYS);
  assert.equal(new Set(keys).size, keys.length, "no key does two common actions");
  assert.equal(commonAction({ key: "z" }), "pause");
  assert.equal(commonAction({ key: "Z" }), "pause");
  assert.equal(commonAction({ key: "y" }), "redo");
  assert.equal(commonAction({ key: "q" }), "back");
  assert.equal(commonAction({ key: "s" }), "botMove");
  assert.equal(commonAction({ key: "PageUp" }), "prev");
  assert.equal(commonAction({ key: "End" }), "live");
  assert.equal(commonAction({ key: "Escape" }), null, "Escape is the focus rule's, not an action");
  assert.equal(commonAction({ key: "z", ctrlKey: true }), null, "Ctrl+Z is not Z");
  assert.equal(commonAction({ key: "x" }), null);
  for (const action of Object.keys(KEYS)) {
    assert.ok(COMMON_HELP.includes(keyLabel(action)), action);
    assert.ok(COMMON_ARIA.split(" ").includes(ariaKey(action)), action);
  }
  assert.equal(keyLabel("prev"), "PgUp");
  assert.equal(keyLabel("whatIf"), "W");
  assert.equal(ariaKey("next"), "PageDown");
  // no game's own key is a common one (The Crew's: js/tests/crew-cards.test.mjs)
  for (const k of [...DEEP_SEA_KEYS.split(" "), ...SUBMARINE_KEYS.split(" ")]) {
    const key = k === "Space" ? " " : k.length === 1 ? k.toLowerCase() : k;
    assert.equal(commonAction({ key }), null, k);
  }
  assert.ok(isSaveKey({ key: "s", ctrlKey: true }) && isSaveKey({ key: "S", metaKey: true }));
  assert.ok(!isSaveKey({ key: "s" }) && !isSaveKey({ key: "s", ctrlKey: true, shiftKey: true }));
});

/** Just enough of the DOM for attachKeys: elements with listeners, attributes and focus. */
function fakeDom() {
  const doc = { listeners: {}, activeElement: null };
  const el = (name, parent = null) => {
    const e = {
      name,
      parent,
      attrs: {},
      dataset: {},
      listeners: {},
      ownerDocument: doc,
      isConnected: true,
      textContent: "",
      setAttribute: (k, v) => {
        e.attrs[k] = String(v);
      },
      getAttribute: (k) => e.attrs[k] ?? null,
      hasAttribute: (k) => k in e.attrs,
      removeAttribute: (k) => {
        delete e.attrs[k];
      },
      addEventListener: (t, f) => {
        e.listeners[t] = f;
      },
      removeEventListener: (t) => {
        delete e.listeners[t];
      },
      contains: (o) => {
        for (let x = o; x; x = x.parent) if (x === e) return true;
        return false;
      },
      closest: (sel) => {
        for (let x = e; x; x = x.parent) if (x.name === sel) return x;
        return null;
      },
      focus: () => {
        const old = doc.activeElement;
        doc.activeElement = e;
        old?.listeners.focusout?.({ target: old, relatedTarget: e });
        for (let x = e; x; x = x.parent) x.listeners.focusin?.({ target: e });
        doc.listeners.focusin?.({ target: e });
      },
      blur: () => {
        if (doc.activeElement === e) doc.activeElement = doc.body;
        for (let x = e; x; x = x.parent) x.listeners.focusout?.({ target: e, relatedTarget: null });
      },
    };
    return e;
  };
  doc.body = el("body");
  doc.activeElement = doc.body;
  doc.createElement = (name) => el(name);
  doc.addEventListener = (t, f) => {
    doc.listeners[t] = f;
  };
  doc.removeEventListener = (t) => {
    delete doc.listeners[t];
  };
  const cell = el(".jp-Cell", doc.body);
  cell.setAttribute("tabindex", "0");
  const root = el("div", cell);
  const button = el("button", root);
  return { doc, cell, root, button };
}

function keydown(target, key, extra = {}) {
  const ev = {
    key,
    target,
    ...extra,
    stopped: false,
    prevented: false,
    stopPropagation() {
      ev.stopped = true;
    },
    preventDefault() {
      ev.prevented = true;
    },
  };
  for (let x = target; x && !ev.stopped; x = x.parent) x.listeners.keydown?.(ev);
  return ev;
}

test("the focus rule: focusable root, keys on/off, no key reaches the notebook, Escape releases", async () => {
  const { doc, cell, root, button } = fakeDom();
  const seen = [];
  let escapes = 0;
  const keys = attachKeys(root, {
    onKey: (ev, action) => {
      seen.push([ev.key, action]);
      return ev.key === "r";
    },
    onEscape: () => ++escapes === 1, // the first Escape is the game's (it closes something)
  });
  assert.equal(root.getAttribute("tabindex"), "0");
  assert.ok(root.hasAttribute("data-lm-suppress-shortcuts"));
  assert.equal(root.dataset.keys, "off");
  await new Promise((r) => setTimeout(r, 5)); // it takes the focus when it appears
  assert.equal(doc.activeElement, root);
  assert.equal(root.dataset.keys, "on");
  assert.equal(keys.badge.textContent, "⌨ keys on");

  // every key stops at the board; a used or common key's default is prevented, others' not
  const r = keydown(root, "r");
  assert.ok(r.stopped && r.prevented);
  const x = keydown(root, "x");
  assert.ok(x.stopped && !x.prevented);
  const z = keydown(button, "z");
  assert.ok(z.stopped && z.prevented);
  const tab = keydown(root, "Tab");
  assert.ok(tab.stopped && !tab.prevented, "Tab still moves the focus");
  assert.deepEqual(seen, [
    ["r", null],
    ["x", null],
    ["z", "pause"],
    ["Tab", null],
  ]);
  // a key typed in a field of the board is the field's (still not the notebook's)
  const typed = keydown({ parent: root, listeners: {}, closest: () => ({}) }, "w");
  assert.ok(typed.stopped && !typed.prevented);
  assert.equal(seen.length, 4);
  assert.ok(inField(typed));
  // Ctrl+S goes on to JupyterLab (save), with the opt-out lifted for that event only
  const save = keydown(root, "s", { ctrlKey: true });
  assert.ok(!save.stopped && !root.hasAttribute("data-lm-suppress-shortcuts"));
  await new Promise((r) => setTimeout(r, 5));
  assert.ok(root.hasAttribute("data-lm-suppress-shortcuts"));

  // a click inside gives the board the keys back (the clicked button was redrawn away)
  doc.activeElement = doc.body;
  root.listeners.click({ target: button });
  assert.equal(doc.activeElement, root);

  // Escape: first the game's, then it releases the keys to the notebook cell
  const e1 = keydown(root, "Escape");
  assert.ok(e1.stopped && doc.activeElement === root);
  const e2 = keydown(root, "Escape");
  assert.ok(e2.stopped && e2.prevented);
  assert.equal(doc.activeElement, cell);
  assert.equal(root.dataset.keys, "off");
  assert.equal(keys.badge.textContent, "keys off: click the board");

  keys.dispose();
  assert.equal(root.listeners.keydown, undefined);
  assert.equal(doc.listeners.focusin, undefined);
});

test("a common key that does nothing now says why, naming its key", () => {
  const real = { mode: "real", history: { n: 0, at: null } };
  const whatif = { mode: "whatif", whatif: { can_undo: false } };
  assert.equal(keyRefusal("undo", real), "U: undo is for a what-if (W opens one)");
  assert.equal(keyRefusal("undo", whatif), "U: nothing to undo");
  assert.equal(keyRefusal("redo", whatif), "Y: nothing to redo");
  assert.equal(keyRefusal("prev", real), "PgUp: no step yet to go back to");
  assert.equal(keyRefusal("live", real), "End: this is the live game");
  assert.equal(keyRefusal("back", real), "Q: this is the real game");
  assert.equal(keyRefusal("whatIf", whatif), "W: already in a what-if (Q goes back to the real game)");
  assert.equal(
    keyRefusal("whatIf", { ...real, curtain: {} }),
    "W: not while the curtain is down (Enter shows the board)",
  );
  assert.equal(keyRefusal("botMove", real), "S: it is not a bot's turn");
  assert.equal(keyRefusal("botMove", { ...real, over: true }), "S: the game is over");
  assert.equal(keyRefusal("playOut", { ...whatif, can_act: true }), "O: it is your turn");
  // keep: nothing tried yet, or the comparison full (the session keeps 4)
  assert.equal(keyRefusal("keep", whatif), "M: try something first, then keep its outcome");
  const full = { mode: "whatif", whatif: { can_undo: true, can_keep: false } };
  assert.equal(keyRefusal("keep", full), "M: as many outcomes are kept as the comparison holds");
  // every common action but pause (always possible) and release (the focus rule's) has words
  for (const action of Object.keys(KEYS)) {
    if (action === "pause" || action === "release") continue;
    for (const st of [real, whatif]) assert.ok(!keyRefusal(action, st).endsWith("not now"), action);
  }
});

test("one of the game's own keys that does nothing says why; other keys say nothing", () => {
  const aria = "R Space T 1 2 Enter";
  const mine = { mode: "real", can_act: true };
  assert.equal(gameKeyRefusal({ key: "t" }, aria, mine), "T: not a choice now");
  assert.equal(gameKeyRefusal({ key: " " }, aria, mine), "Space: not a choice now");
  assert.equal(gameKeyRefusal({ key: "2" }, aria, { ...mine, can_act: false }), "2: it is not your turn");
  assert.equal(gameKeyRefusal({ key: "r" }, aria, { ...mine, over: true }), "R: the game is over");
  // a served table before its start or after its close: the table's words, not "not your turn"
  const held = { ...mine, can_act: false, waiting: "Waiting for the host to start the game." };
  assert.equal(gameKeyRefusal({ key: "r" }, aria, held), "R: waiting for the host to start the game");
  assert.equal(
    gameKeyRefusal({ key: "r" }, aria, { ...mine, mode: "history" }),
    "R: this is the past (End goes back to the live game)",
  );
  assert.equal(gameKeyRefusal({ key: "x" }, aria, mine), null, "not one of the game's keys");
  assert.equal(gameKeyRefusal({ key: "t", ctrlKey: true }, aria, mine), null);
  const onButton = { closest: (sel) => (sel === "button" ? {} : null) };
  assert.equal(gameKeyRefusal({ key: "Enter", target: onButton }, aria, mine), null, "the button's own Enter");
});

test("a served page's keys: its line names only Esc, each common key says why it does nothing", () => {
  // a seat's page had the notebook's line (W what-if, U undo, S bot move...), and those keys
  // did nothing there, silently
  assert.ok(SERVED_HELP.includes("Esc"));
  for (const action of Object.keys(KEYS)) {
    if (action === "release") continue;
    assert.ok(!SERVED_HELP.includes(`${keyLabel(action)} `), action);
    const why = servedKeyRefusal(action);
    assert.ok(why.startsWith(`${keyLabel(action)}: `) && why.includes("served table"), action);
  }
  assert.equal(servedKeyRefusal("whatIf"), "W: no what-if at a served table (the host's board has it)");
  assert.equal(servedKeyRefusal("pause"), "Z: the bots are the host's at a served table");
  // Deep Sea's served line keeps its choices' keys, without the what-if's D and the hints' H
  assert.ok(DEEP_SEA_HELP.startsWith(SERVED_GAME_HELP));
  assert.ok(!SERVED_GAME_HELP.includes("H hints") && !SERVED_GAME_HELP.includes("D roll"));
});

test("a spectator's game key says a spectator does not play, not that it is not their turn", () => {
  const st = { mode: "real", can_act: false };
  assert.equal(gameKeyRefusal({ key: "r" }, "R", st), "R: it is not your turn");
  assert.equal(gameKeyRefusal({ key: "r" }, "R", st, { spectator: true }), "R: a spectator's screen does not play");
  assert.equal(gameKeyRefusal({ key: "r" }, "R", { ...st, over: true }, { spectator: true }), "R: the game is over");
});
