// The board's keys, one set of rules for the three games (Deep Sea Adventure, The Crew, Submarine).
//
// ONE key map for the actions the games share (a game without the action ignores its key):
//   PageUp / PageDown  history: one step back / one forward (forward from the last step: live)
//   Home / End         history: the first step / back to the live game
//   W  what-if from the step shown        Q  back to the real game
//   U  undo (what-if)                     Y  redo (what-if)
//   M  keep for comparison (what-if)      O  bots play on (what-if)
//   S  bot move (a paused bot's step, or the what-if's bot)
//   Z  pause / resume the bots            Esc  release the keys (back to the notebook)
// Each game's own action keys stay in its file and use none of these: Deep Sea Adventure
// R/Space T N B C L 1–9 D H; The Crew ←/→ (↑/↓) Enter C 0–9 P A R N K; Submarine 1–9 Enter;
// Pig R B 1–6. H is the hints key of every board: the shell's (js/shell.js) toggles the
// "Chances" panel of a game that has one, Deep Sea Adventure's its own overlay.
//
// ONE focus rule: the board's root is focusable (tabindex 0); it takes the focus when it appears
// (unless the user is typing somewhere) and after every click inside it, and keeps it when a
// redraw removes the element that had it (on that control's new copy once there is one, named by
// focusKey; else on the root).  While the board has the focus its keys are live: the
// header badge says "keys on" and the root carries data-keys="on" (else "off"), and no key
// reaches JupyterLab's shortcuts (which edit the notebook in command mode: X cuts the cell, R
// makes it raw...): the root carries `data-lm-suppress-shortcuts` (Lumino matches no shortcut
// for an event whose target is inside such an element) and the root stops every keydown's
// propagation (JupyterLab listens on the document in the bubbling phase; this also covers a
// focused button inside, which Lumino's ":focus" selectors could otherwise match).  Ctrl/⌘+S
// alone still goes through: it saves the notebook.  Escape releases the keys: the board gives
// the focus back to its notebook cell, so command mode works again (a game may first use Escape
// to close something of its own, then the next Escape releases).

/** The common actions and their keys (KeyboardEvent.key, letters in lower case). */
export const KEYS = Object.freeze({
  prev: "PageUp",
  next: "PageDown",
  first: "Home",
  live: "End",
  whatIf: "w",
  undo: "u",
  redo: "y",
  keep: "m",
  playOut: "o",
  back: "q",
  botMove: "s",
  pause: "z",
  release: "Escape",
});

const ACTION_OF = Object.fromEntries(Object.entries(KEYS).map(([a, k]) => [k, a]));
const SHORT = { PageUp: "PgUp", PageDown: "PgDn", Escape: "Esc" };

/** The key of a common action as the board writes it on a button: "W", "PgUp", "End". */
export function keyLabel(action) {
  const k = KEYS[action];
  return SHORT[k] || (k.length === 1 ? k.toUpperCase() : k);
}

/** The key of a common action for aria-keyshortcuts: "W", "PageUp". */
export function ariaKey(action) {
  const k = KEYS[action];
  return k.length === 1 ? k.toUpperCase() : k;
}

/** aria-keyshortcuts of the common keys (a game appends its own). */
export const COMMON_ARIA = Object.keys(KEYS).map(ariaKey).join(" ");

/** The help line every board shows (with its game's own line). */
export const COMMON_HELP =
  "Keys: PgUp/PgDn history · Home first step · End live · W what-if · U undo · Y redo · " +
  "M keep for comparison · O bots play on · Q back to the real game · S bot move · Z pause bots · " +
  "Esc release keys";

/**
 * The keys line of a served page (a seat's or a spectator's screen at a table): the history,
 * what-if and bot keys are the host's board's, so the line names only the release key.
 */
export const SERVED_HELP = "Keys: Esc release keys · history, what-if and the bots are on the host's board, not here";

/**
 * Why a common key does nothing on a served page, in words: the page has no history bar, no
 * what-if and no bot controls (they are the host's), so each says so instead of nothing.
 *
 *   servedKeyRefusal("whatIf")  // "W: no what-if at a served table (the host's board has it)"
 */
export function servedKeyRefusal(action) {
  const key = keyLabel(action);
  switch (action) {
    case "prev":
    case "next":
    case "first":
    case "live":
      return `${key}: no history at a served table (the turn log shows the last steps)`;
    case "botMove":
    case "playOut":
    case "pause":
      return `${key}: the bots are the host's at a served table`;
    default:
      return `${key}: no what-if at a served table (the host's board has it)`;
  }
}

/** The common action a key stands for ("undo", "prev"...), or null (modifier keys: never). */
export function commonAction(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || typeof ev.key !== "string") return null;
  const k = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  return (k !== "Escape" && ACTION_OF[k]) || null;
}

/** A key refused behind the hot seat's curtain: why, and the key that lifts it. */
const CURTAIN_DOWN = "not while the curtain is down (Enter shows the board)";

/**
 * Why a common key does nothing now, in words ("U: nothing to undo"), for the board's refusal
 * line: a key whose button would be disabled says so instead of nothing.  `st` is the screen
 * (mode, history, whatif, curtain, over, can_act, can_branch).
 *
 *   keyRefusal("undo", { mode: "real" })  // "U: undo is for a what-if (W opens one)"
 */
export function keyRefusal(action, st) {
  const key = keyLabel(action);
  const wi = st.mode === "whatif";
  const inWhatIf = (what) => `${key}: ${what} is for a what-if (W opens one)`;
  switch (action) {
    case "prev":
    case "first":
      return wi ? `${key}: the history is the real game's (Q leaves the what-if)` : `${key}: no step yet to go back to`;
    case "next":
    case "live":
      return wi ? `${key}: the history is the real game's (Q leaves the what-if)` : `${key}: this is the live game`;
    case "whatIf":
      if (wi) return `${key}: already in a what-if (Q goes back to the real game)`;
      return st.curtain ? `${key}: ${CURTAIN_DOWN}` : `${key}: no what-if in this game`;
    case "undo":
      return wi ? `${key}: nothing to undo` : inWhatIf("undo");
    case "redo":
      return wi ? `${key}: nothing to redo` : inWhatIf("redo");
    case "keep":
      if (!wi) return inWhatIf("keeping an outcome");
      return st.whatif?.can_keep === false
        ? `${key}: as many outcomes are kept as the comparison holds`
        : `${key}: try something first, then keep its outcome`;
    case "playOut":
      if (!wi) return inWhatIf("bots playing on");
      return st.over ? `${key}: the game is over` : `${key}: it is your turn`;
    case "back":
      return `${key}: this is the real game`;
    case "botMove":
      if (st.over) return `${key}: the game is over`;
      return st.mode === "history" ? `${key}: bots move in the live game (End)` : `${key}: it is not a bot's turn`;
    default:
      return `${key}: not now`;
  }
}

/**
 * Why one of the game's own keys (listed in `aria`, its aria-keyshortcuts) did nothing, in words
 * ("T: not a choice now"), or null for any other key, a key with Ctrl/⌘/Alt, and Space or Enter
 * on a focused button (the browser presses the button; on one marked aria-disabled, which does
 * nothing, its label says why: "Enter: pink 2, not playable now").  `st` is the screen; `spectator`: a
 * served table's spectator page, which never plays.
 *
 *   gameKeyRefusal({ key: "t" }, "R T", { mode: "real", can_act: true })  // "T: not a choice now"
 */
export function gameKeyRefusal(ev, aria, st, { spectator = false } = {}) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || typeof ev.key !== "string") return null;
  const name = ev.key === " " ? "Space" : ev.key.length === 1 ? ev.key.toUpperCase() : ev.key;
  const button = ev.target?.closest?.("button");
  if ((ev.key === " " || ev.key === "Enter") && button) {
    // a button that stays focusable but does nothing now (aria-disabled: a card of the hand
    // that cannot go) says so, in its own words; any other button the browser presses
    if (button.getAttribute?.("aria-disabled") !== "true") return null;
    const label = String(button.getAttribute("aria-label") || button.textContent || "").trim();
    return `${name}: ${label}${/\bnow$/.test(label) ? "" : " (not now)"}`;
  }
  if (
    !String(aria || "")
      .split(" ")
      .includes(name)
  )
    return null;
  if (st.over && st.mode !== "history") return `${name}: the game is over`;
  if (st.mode === "history") return `${name}: this is the past (End goes back to the live game)`;
  if (st.curtain) return `${name}: ${CURTAIN_DOWN}`;
  if (spectator) return `${name}: a spectator's screen does not play`;
  if (st.waiting) return `${name}: ${st.waiting.replace(/\.$/, "").replace(/^./, (c) => c.toLowerCase())}`;
  if (!st.can_act) return `${name}: it is not your turn`;
  return `${name}: not a choice now`;
}

/** A key typed into a form field of the board (a name, a seed, the setup): not a board key. */
export function inField(ev) {
  return !!ev.target?.closest?.("input, select, textarea, [contenteditable], summary, form");
}

/** Ctrl/⌘+S: the one key that still reaches JupyterLab (it saves the notebook). */
export function isSaveKey(ev) {
  return (ev.ctrlKey || ev.metaKey) && !ev.altKey && !ev.shiftKey && String(ev.key).toLowerCase() === "s";
}

/** The attributes that name a control of the board across redraws (its choice, its action, its
 * card...): a redraw makes a new element with the same ones. */
const NAMING = ["data-action", "data-choice", "data-face", "data-card", "data-task", "data-die", "data-ov-choice"];

/**
 * What names a focused control of the board across redraws ("BUTTON[data-choice=\"roll\"]"),
 * as a selector, or null for an element no attribute names (the root, a text field).
 *
 *   focusKey(<button data-choice="roll">)  // 'BUTTON[data-choice="roll"]'
 */
export function focusKey(el) {
  const parts = NAMING.filter((a) => el?.hasAttribute?.(a)).map(
    (a) => `[${a}="${String(el.getAttribute(a)).replace(/["\\]/g, "\\$&")}"]`,
  );
  return parts.length ? `${el.tagName}${parts.join("")}` : null;
}

const SUPPRESS = "data-lm-suppress-shortcuts";
const TYPING = "input, select, textarea, [contenteditable], .cm-editor";
const ON_TEXT = "⌨ keys on";
const OFF_TEXT = "keys off: click the board";

/**
 * Give `root` the board's focus rule and key handling.
 * opts.onKey(ev, action): a keydown of the board (not in a form field, not Escape); `action` is
 *   the common action of the key or null.  Return true when the board used the key (its default
 *   is then prevented; a common key's always is).  Whatever it returns, JupyterLab never sees it.
 * opts.onEscape(ev): optional; return true when the game used Escape (the keys stay).
 * Returns {badge (the "keys on/off" element for the header), focus(), release(), owning(),
 * dispose()}.
 */
export function attachKeys(root, { onKey, onEscape } = {}) {
  const doc = root.ownerDocument || document;
  const badge = doc.createElement("span");
  badge.className = "dsa-keys-state";
  badge.title = "While the board has the keys, the notebook's shortcuts wait: Esc gives them back";
  root.setAttribute("tabindex", "0");
  root.setAttribute(SUPPRESS, "true");
  // the board had the focus and the user did not take it elsewhere (a redraw may have removed it)
  let owns = false;
  // the control of the board that had the focus last (focusKey), and that control while a
  // redraw has taken it away (the root holds the focus meanwhile, and gives it back to the
  // control's new copy once there is one that takes the focus: Enter on Roll, then Enter again;
  // also when that is at the seat's next turn, the bots having played meanwhile: a keyboard
  // player finds the focus where it was, and a screen reader names the control as the turn
  // comes back. A click or Tab elsewhere, or Escape, ends the wait)
  let lastKey = null;
  let wanted = null;
  let restoreSuppress = null;

  const has = () => root.contains(doc.activeElement);
  function show(on) {
    root.dataset.keys = on ? "on" : "off";
    badge.textContent = on ? ON_TEXT : OFF_TEXT;
  }
  function focus() {
    if (root.isConnected && !has()) root.focus({ preventScroll: true });
  }
  /** Escape: the focus goes back to the board's notebook cell (command mode), or nowhere. */
  /** Give the focus back to the control `wanted` names, if the board has an enabled one now. */
  function refocus() {
    if (!wanted) return false;
    const el = [...root.querySelectorAll(wanted)].find((e) => !e.disabled && e.getClientRects().length);
    if (!el) return false;
    wanted = null;
    el.focus({ preventScroll: true });
    return doc.activeElement === el;
  }
  function release() {
    owns = false;
    wanted = null;
    if (has() && doc.activeElement !== root) doc.activeElement.blur?.();
    const cell = root.closest(".jp-Cell");
    const target = [cell, root.closest(".jp-Notebook")].find((n) => n?.hasAttribute("tabindex"));
    if (target) target.focus({ preventScroll: true });
    else root.blur();
    if (!has()) show(false);
  }

  const onKeydown = (ev) => {
    if (isSaveKey(ev)) {
      // let JupyterLab save: lift the opt-out for this one event (Lumino reads it on the document)
      root.removeAttribute(SUPPRESS);
      clearTimeout(restoreSuppress);
      restoreSuppress = setTimeout(() => root.setAttribute(SUPPRESS, "true"), 0);
      return;
    }
    ev.stopPropagation(); // whatever the key, the notebook's shortcuts never see it
    if (ev.key === "Tab") forget();
    if (ev.key === "Escape" && !(ev.ctrlKey || ev.metaKey || ev.altKey)) {
      ev.preventDefault();
      if (!onEscape?.(ev)) release();
      return;
    }
    if (inField(ev)) return;
    const action = commonAction(ev);
    const used = onKey ? onKey(ev, action) : false;
    // a board key's default (PageUp scrolls the notebook, Space too) is not wanted either
    if (used || action || (ev.key === " " && !ev.target?.closest?.("button"))) ev.preventDefault();
  };
  const onFocusIn = (ev) => {
    owns = true;
    show(true);
    if (ev.target !== root) {
      lastKey = focusKey(ev.target);
      wanted = null;
    }
  };
  const onFocusOut = (ev) => {
    if (!root.contains(ev.relatedTarget)) show(false);
  };
  // after a click inside, the board has the keys (a button the click redrew away had them)
  const onClick = () => {
    owns = true;
    focus();
  };
  // a pointer moves the focus on purpose (Tab too): no control is waited for any more
  const forget = () => {
    wanted = null;
  };
  // the user gave the focus to something else: the board leaves it there
  const onDocFocusIn = (ev) => {
    if (!root.contains(ev.target)) owns = false;
  };
  const onDocPointer = (ev) => {
    if (!root.contains(ev.target)) owns = false;
  };
  // a redraw removed (or disabled) the element that had the focus: the board takes it back, on
  // the new copy of that control when there is one (else on the root, until there is one)
  const observer =
    typeof MutationObserver === "function"
      ? new MutationObserver(() => {
          const a = doc.activeElement;
          if (!owns || !root.isConnected) return;
          if (!a || a === doc.body) {
            wanted = lastKey;
            if (!refocus()) focus();
          } else if (a === root) refocus();
        })
      : null;
  observer?.observe(root, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ["disabled", "hidden"],
  });
  root.addEventListener("keydown", onKeydown);
  root.addEventListener("focusin", onFocusIn);
  root.addEventListener("focusout", onFocusOut);
  root.addEventListener("click", onClick);
  root.addEventListener("pointerdown", forget);
  doc.addEventListener("focusin", onDocFocusIn, true);
  doc.addEventListener("pointerdown", onDocPointer, true);
  show(has());
  // the board takes the focus when it appears (unless the user is typing somewhere), so its
  // keys work at once after Shift+Enter
  const raf = typeof requestAnimationFrame === "function" ? requestAnimationFrame : (f) => setTimeout(f, 0);
  raf(() => {
    const a = doc.activeElement;
    if (!(a && !root.contains(a) && a.closest?.(TYPING))) focus();
  });

  return {
    badge,
    focus,
    release,
    /** Has the board the keys (the focus was in it and the user did not take it elsewhere)? */
    owning: () => owns,
    dispose() {
      observer?.disconnect();
      clearTimeout(restoreSuppress);
      root.removeEventListener("keydown", onKeydown);
      root.removeEventListener("focusin", onFocusIn);
      root.removeEventListener("focusout", onFocusOut);
      root.removeEventListener("click", onClick);
      root.removeEventListener("pointerdown", forget);
      doc.removeEventListener("focusin", onDocFocusIn, true);
      doc.removeEventListener("pointerdown", onDocPointer, true);
    },
  };
}
