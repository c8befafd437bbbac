// The platform's front-end shell: everything a board on the platform's session shares, written
// once. A game gives only a renderer: draw(state, act) returning its board's elements, and its
// own keys. The shell owns the transport (every intent carries the state number; one in flight
// at a time, with a watchdog), the bot clock, the focus rule and common keys (js/keys.js), the
// header with the status and the keys badge, the refusal line (Python's words, as text), the
// curtain, the history and what-if bar (with the what-if's comparison table and Keep), the help
// line, the setup form generated from the game's option schema, the board's one live region
// (what a screen reader hears: each new step, a bot's reason, a refusal, the curtain, the end,
// once each) and the static-export rule (no kernel: the controls that need Python are disabled
// and a note says why).
import { curtainText, drawCurtain } from "./curtain.js";
import { h, replaceChildren } from "./dom.js";
import {
  attachKeys,
  COMMON_ARIA,
  COMMON_HELP,
  gameKeyRefusal,
  keyLabel,
  keyRefusal,
  SERVED_HELP,
  servedKeyRefusal,
} from "./keys.js";
import { gameOverText } from "./model.js";

const ANSWER_TIMEOUT_MS = 15000;
/** The refusal line's words for a click or a key that needs Python on a page with none. */
const NO_KERNEL = "Not sent: no kernel is running this board (a saved page replays its history only).";
/** How many of the last steps the log under the board tells. */
const LOG_LINES = 6;

/** H alone (no Ctrl, Alt or ⌘): the hints key. */
const isHintsKey = (ev) => ev.key?.toLowerCase() === "h" && !ev.ctrlKey && !ev.metaKey && !ev.altKey;

/** The first line of a bot's words on its last choice, without its name: "why: ..." on screen. */
const reasonOf = (text) =>
  String(text)
    .split("\n")[0]
    .replace(/^[^:]*: /, "");

/**
 * What the board's live region says after a redraw: only what is new since the redraw before
 * (`prev`, null for the first: a screen reader reads the page then), so a redraw that changes
 * nothing says nothing. `now` = {view ("real", "whatif" or "history 3"), total (steps told so
 * far), lines (the last steps' words), said ({seat: a bot's words}), status (the header's
 * words), curtain (its words, or ""), problem}. A new view says its status (and a past step
 * its words); new steps say their words, a bot's new reason follows ("Why: ..."), then the
 * status if it changed (whose turn, or how the game ended), or the curtain's words when it
 * came down. Every word of it is from the screen drawn now (behind a curtain: nobody's hand).
 *
 *   const was = { view: "real", total: 4, lines: [], said: {}, status: "Your turn.", curtain: "", problem: "" };
 *   announcement(was, { ...was, total: 5, lines: ["Bot held 12"], status: "Your turn." })  // "Bot held 12."
 */
export function announcement(prev, now) {
  if (!prev) return "";
  const out = [];
  if (now.view !== prev.view && !now.curtain) {
    out.push(now.status);
    if (now.view.startsWith("history") && now.lines.length) out.push(now.lines[now.lines.length - 1]);
  } else {
    const k = now.total - prev.total;
    if (k > 0) out.push(...now.lines.slice(-Math.min(k, LOG_LINES)));
    for (const [q, text] of Object.entries(now.said || {}))
      if (text && text !== prev.said?.[q]) out.push(`Why: ${reasonOf(text)}`);
    // behind the curtain (the board hidden until the next player shows it): its words instead
    if (now.curtain) {
      if (now.curtain !== prev.curtain) out.push(now.curtain);
    } else if (now.status !== prev.status || k < 0 || prev.curtain) out.push(now.status);
  }
  if (now.problem && now.problem !== prev.problem) out.push(now.problem);
  return out
    .filter((t) => t && String(t).trim())
    .map((t) => (/[.!?…]$/.test(String(t).trim()) ? String(t).trim() : `${String(t).trim()}.`))
    .join(" ");
}

/** The header's words with the view they are about: the history step shown or a what-if, in
 * one wording for every game (the game's own words say whose turn and what to do). */
export function withMode(st, words) {
  const tail = words ? ` — ${words}` : "";
  if (st.mode === "history") return `History, step ${st.history?.at} of ${st.history?.n}${tail}`;
  return st.mode === "whatif" ? `What-if${tail}` : words;
}

/** "Your turn" for the viewer's seat (or whoever may act here), else "Ann's turn"; "" when
 * nobody is to act. Games that draw the turn themselves use these words too. */
export function whoseTurn(st, actor = st.actor) {
  const who = st.players?.[actor];
  if (who === undefined || st.waiting) return ""; // a served table not started, or closed
  return actor === st.seat || st.can_act ? "Your turn" : `${who}'s turn`;
}

/** The status line: whose turn it is, in words, or how the game ended (before withMode). */
export function statusText(st) {
  if (!st.players) return "Loading…";
  if (st.over) return gameOverText(st);
  // a stuck bot is the live game's problem, not the past step's shown
  if (st.problem && st.mode !== "history") return "Paused: a bot could not move.";
  const turn = whoseTurn(st);
  return turn ? `${turn}.` : "";
}

/** One labelled input of the generated setup form, for an option of the schema ({key, label,
 * default, help, choices: [{value, label}] or min/max}); `onChange(value)` gets the value. */
export function optionField(opt, value, onChange) {
  const id = `dsa-opt-${opt.key}`;
  let input;
  if (opt.choices) {
    input = h(
      "select",
      {
        id,
        "data-field": opt.key,
        "data-option": opt.key,
        onchange: (ev) => onChange(opt.choices[Number(ev.target.value)].value),
      },
      opt.choices.map((c, i) =>
        h("option", {
          value: String(i),
          selected: JSON.stringify(c.value) === JSON.stringify(value),
          text: `${c.label}${JSON.stringify(c.value) === JSON.stringify(opt.default) ? " (usual)" : ""}`,
        }),
      ),
    );
  } else {
    input = h("input", {
      id,
      type: "number",
      "data-field": opt.key,
      "data-option": opt.key,
      min: opt.min ?? undefined,
      max: opt.max ?? undefined,
      value: value ?? "",
      oninput: (ev) => onChange(ev.target.value === "" ? null : Number(ev.target.value)),
    });
  }
  return h(
    "div",
    { class: "dsa-field" },
    h("label", { for: id, text: opt.label }),
    input,
    opt.help ? h("small", { text: opt.help }) : null,
  );
}

/** The setup form, generated from the `setup` trait (players, seats' kinds, seed, schema). */
export function drawSetupForm(setup, start) {
  const names = [...(setup.players || [])];
  const kinds = [...(setup.kinds || [])];
  const [lo, hi] = setup.seats || [2, 6];
  const bots = setup.bot_names || [];
  // the form starts from the game now (its own fields and rule options as it was made), so
  // "Start" with nothing changed makes the same kind of game, as "Play again" does
  const values = { ...(setup.values || {}) };
  const options = { ...(setup.options || {}) };
  let count = names.length;
  const rows = h("div", { class: "dsa-seat-rows" });
  const drawRows = () => {
    rows.replaceChildren();
    for (let q = 0; q < count; q++) {
      names[q] ??= q === 0 ? "You" : `Bot ${q}`;
      kinds[q] ??= q === 0 ? "human" : bots[bots.length - 1];
      rows.append(
        h(
          "div",
          { class: "dsa-seat-row" },
          h("input", {
            type: "text",
            maxlength: 40,
            value: names[q],
            "data-field": `name-${q}`,
            "aria-label": `Player ${q + 1} name`,
            oninput: (ev) => {
              names[q] = ev.target.value;
            },
          }),
          h(
            "select",
            {
              "aria-label": `Player ${q + 1}: a person or a bot`,
              "data-field": `kind-${q}`,
              onchange: (ev) => {
                kinds[q] = ev.target.value;
              },
            },
            ["human", ...bots].map((b) =>
              h("option", { value: b, selected: b === kinds[q], text: b === "human" ? "a person" : `bot: ${b}` }),
            ),
          ),
        ),
      );
    }
  };
  drawRows();
  const countField = h(
    "select",
    {
      "aria-label": "Number of players",
      "data-field": "players",
      onchange: (ev) => {
        count = Number(ev.target.value);
        drawRows();
      },
    },
    Array.from({ length: hi - lo + 1 }, (_, i) => lo + i).map((n) =>
      h("option", { value: n, selected: n === count, text: `${n} players` }),
    ),
  );
  const seed = h("input", {
    type: "number",
    min: 0,
    value: setup.seed ?? "",
    placeholder: "a new shuffle",
    "aria-label": "Seed",
    "data-field": "seed",
  });
  const form = h(
    "form",
    {
      class: "dsa-setup-form",
      "aria-label": "New game",
      onsubmit: (ev) => {
        ev.preventDefault();
        const out = { players: names.slice(0, count), kinds: kinds.slice(0, count), ...values };
        if (seed.value !== "") out.seed = Number(seed.value);
        if (Object.keys(options).length) out.options = options;
        start(out);
      },
    },
    h("div", { class: "dsa-field" }, h("label", { text: "Players" }), countField),
    rows,
    (setup.setup_schema || []).map((o) =>
      optionField(o, values[o.key] ?? o.default, (v) => {
        values[o.key] = v;
      }),
    ),
    // the rule options (where the game's sources differ) fold away: the usual game needs none
    setup.schema?.length
      ? h(
          "details",
          { class: "dsa-rule-options" },
          h("summary", { text: `Rule options (${setup.schema.length}), as this game has them` }),
          setup.schema.map((o) =>
            optionField(o, options[o.key] ?? o.default, (v) => {
              options[o.key] = v;
            }),
          ),
        )
      : null,
    h("div", { class: "dsa-field" }, h("label", { text: "Seed (the same seed, the same game)" }), seed),
    h("button", { type: "submit", class: "dsa-btn dsa-primary", "data-action": "new-game", text: "Start" }),
  );
  return h("details", { class: "dsa-setup" }, h("summary", { text: "New game…" }), form);
}

/** A compare cell's words: a list joined, nothing as a dash, a number or a word as it is. */
export function compareCell(v) {
  if (v === null || v === undefined || v === "") return "—";
  if (Array.isArray(v)) return v.map(compareCell).join(" · ");
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** The columns of the what-if's comparison: every key of the rows but `name`, in the order
 * they first appear, each with its label (`labels[key]`, else the key in words). */
export function compareColumns(rows, labels = {}) {
  const keys = [];
  for (const r of rows || []) for (const k of Object.keys(r)) if (k !== "name" && !keys.includes(k)) keys.push(k);
  return keys.map((key) => ({ key, label: labels[key] ?? key.replaceAll("_", " ") }));
}

/** The comparison's fold-out box around its table. */
function compareBox(table) {
  return h(
    "details",
    { class: "dsa-compare-box", open: true },
    h("summary", { text: "Compare: the real game, the kept states and the what-if" }),
    table,
  );
}

/** The what-if's comparison (whatif.compare: the real game, the kept states and the what-if,
 * one row each, as the screen's seat may know them), generic: a column per key of the rows. */
export function drawCompare(rows, labels = {}) {
  const cols = compareColumns(rows, labels);
  return compareBox(
    h(
      "table",
      { class: "dsa-compare", "aria-label": "The real game and the what-if side by side" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col", text: labels.name ?? "" }),
          cols.map((c) => h("th", { scope: "col", "data-col": c.key, text: c.label })),
        ),
      ),
      h(
        "tbody",
        {},
        (rows || []).map((r) =>
          h(
            "tr",
            { "data-row": r.name },
            h("th", { scope: "row", text: compareCell(r.name) }),
            cols.map((c) => h("td", { "data-col": c.key, text: compareCell(r[c.key]) })),
          ),
        ),
      ),
    ),
  );
}

/**
 * The "Chances" panel under the board, for a game whose screens carry `chances` (its presenter's
 * figures, computed in Python from the screen's seat's view only): null while the hints are off,
 * else a list of {label, text, kind, kind_words}. Each figure says what it is in words ("exact",
 * "solved, if both play the optimal policy", "estimate 41–47%, 95%, n = 400"); every text is set
 * as text, never as HTML. A past step shows its own figures (a saved page's synced history keeps
 * them per step too); its title names the step. A game without chances (undefined): no panel.
 */
export function drawChances(st, { remote = false } = {}) {
  const on = Array.isArray(st.chances);
  // a served page shows the figures its seat was sent, else nothing (the host decides)
  if (st.chances === undefined || (remote && !on)) return null;
  const where =
    st.mode === "history" ? `step ${st.history?.at} of ${st.history?.n}` : st.mode === "whatif" ? "the what-if" : "";
  let body;
  if (!on) body = h("p", { class: "dsa-chances-note", text: "Hidden: H shows them." });
  else if (!st.chances.length) body = h("p", { class: "dsa-chances-note", text: "No figure for this position." });
  else
    body = h(
      "ul",
      { class: "dsa-chances-list" },
      st.chances.map((f) =>
        h(
          "li",
          { "data-kind": f.kind },
          h("span", { class: "dsa-chance-label", text: f.label }),
          h("span", { class: "dsa-chance-value", text: f.text }),
          h("span", { class: "dsa-chance-kind", text: f.kind_words }),
        ),
      ),
    );
  return h(
    "section",
    { class: "dsa-chances", "aria-label": "Chances", "data-hints": on ? "on" : "off" },
    h("h4", { class: "dsa-chances-title", text: where ? `Chances (${where})` : "Chances" }),
    body,
  );
}

/** Set a synced trait of the board's own (the hints switch) and send it to Python. */
export function saveTrait(model, name, value) {
  model.set(name, value);
  try {
    model.save_changes();
  } catch {
    /* no kernel: the page keeps it on its own */
  }
}

/** A button of the shell's bars: its key in a <kbd>, its action in data-action. */
function tool(text, action, key, enabled, onclick) {
  return h(
    "button",
    { class: "dsa-btn", "data-action": action, disabled: !enabled, onclick },
    text,
    key ? h("kbd", { text: key }) : null,
  );
}

/**
 * Mount a game's board on the shell. game = {title, cls, draw(st, act, {pending, remote,
 * model}) -> elements, onKey(ev, st, act) -> bool, help, aria, status(st) -> words, and
 * optionally compareLabels (the what-if comparison's column labels by key, or a function of the
 * state giving them), drawCompare(rows, st) -> element (the game's own drawing of the
 * comparison's rows, instead of the generic table) and banner: false (the board draws its own
 * game-over words)}. `act(msg)`
 * sends an intent ({type, ...}) with the state's seq added: true when it went out (not while
 * another is in flight, nor with no kernel).
 * Opt-outs for a game that keeps a part of its own (all on by default): bars: false (no history
 * and what-if bar; the game's onKey then gets every key, common ones too, as onKey(ev, st, act,
 * action), with a saved page too), log: false, setup: false, playAgain: false, curtain: false
 * (the board draws its own curtain), botClock: false (the game moves its bots itself) or a
 * function botClock(st) -> bool (is a bot's step due?); onEscape(ev) -> bool (Escape used).
 * told(st) -> {total, lines}: the steps told so far and the last ones' words, for the live
 * region (default: the history's labels; a game with a log of its own gives it).
 * draw's third argument also has root, redraw(), focus() (give the board the keys), say(words)
 * (the game's own words on the refusal line, until the next change) and kernel (false on a saved
 * page, where no bot will move: nothing may say one is thinking).
 */
/**
 * Whether a board key kept while the last intent was being answered may still be handled once
 * the answer is in. Never with the hot seat's curtain down or for another screen seat. A game
 * key (a move, `tool` false) also needs the same moment of play: the same mode and seat to act,
 * the game not over, so that a key meant for one player's turn never acts for the next one. A
 * board tool (history, what-if, pause: `tool` true) may follow the answer into another mode
 * (Q then PageUp: back to the game, then a step back). `was` is what the board showed when the
 * key was pressed, `now` what it shows now.
 */
export function keyStillMeant(was, now, tool = false) {
  if (!was || !now?.players || now.curtain || now.seat !== was.seat) return false;
  return tool || (!now.over && now.mode === was.mode && now.actor === was.actor);
}

/**
 * The words a change brings, for a live region `el`: `keep(words)` as the change is drawn,
 * `flush()` once it is drawn, which writes them all at once (a second write in the same change
 * would replace the first before a screen reader reads it). The same words twice are said twice
 * (every other write ends with a no-break space, so the text changes); nothing kept, nothing
 * written.
 *
 *   const r = liveRegion(el); r.keep("Ann rolled 4."); r.keep("Bob's turn."); r.flush();
 *   el.textContent  // "Ann rolled 4. Bob's turn."
 */
export function liveRegion(el) {
  let kept = [];
  let told = 0;
  return {
    keep(words) {
      if (words) kept.push(words);
    },
    flush() {
      if (!kept.length) return;
      const words = kept.join(" ");
      kept = [];
      told += 1;
      el.textContent = told % 2 ? words : `${words}\u00a0`;
      el.dataset.told = String(told);
    },
  };
}

export function mountShell({ model, el }, game) {
  const root = h("div", {
    class: `dsa-root dsa-shell ${game.cls || ""}`,
    role: "group",
    "aria-label": `${game.title} game`,
    // a served page has none of the common keys but Escape (they are the host's board's)
    "aria-keyshortcuts": `${game.aria || ""} ${model.get("remote") ? "Escape" : COMMON_ARIA}`.trim(),
  });
  // the setup form keeps its own element across redraws (what is typed in it, and whether it
  // is open, survive a bot's move); the rest of the board is drawn anew at each change
  const view = h("div", { class: "dsa-shell-view" });
  const setupBox = h("div", { class: "dsa-shell-setup" });
  const tail = h("div", { class: "dsa-shell-tail" });
  // the one live region of the board: kept across redraws (a region drawn anew each time is
  // read again, or not at all), it says each new step, a bot's reason, a refusal and the end
  // once (announcement); out of sight, the screen shows the same words
  const announcer = h("div", {
    class: "dsa-announce dsa-sr-only",
    role: "status",
    "aria-live": "polite",
    "aria-atomic": "true",
  });
  root.append(announcer, view, setupBox, tail);
  let heard = null; // what the live region knew at the last redraw (announcement's `prev`)
  let heardError = "";
  const { keep: announce, flush: sayKept } = liveRegion(announcer);
  let setupKey = null;
  el.append(root);
  let pending = false;
  let watchdog = null;
  let botTimer = null;
  // with no kernel (a saved page), the bars scrub the synced past on their own: `localAt` is the
  // step shown (null: the game as it was saved)
  let localAt = null;
  let said = ""; // the game's own words on the refusal line (say), until the next change
  const noKernel = () => root.dataset.kernel === "none";
  const remote = () => !!model.get("remote");
  /** The screen after `k` steps, rebuilt from the synced changes (history_chunks, history_tail). */
  function frameAt(k) {
    const diffs = [...(model.get("history_chunks") || []).flat(), ...(model.get("history_tail") || [])];
    return Object.assign({}, ...diffs.slice(0, k + 1));
  }
  const saved = () => model.get("state") || {};
  const live = () => {
    const st = saved();
    if (localAt === null || !st.players) return st;
    return {
      ...st,
      ...frameAt(localAt),
      mode: "history",
      over: false, // a step before the last (the last is the saved game itself)
      can_act: false,
      legal: [],
      chance: null,
      history: { ...st.history, at: localAt },
    };
  };
  const scrubLocally = (k) => {
    localAt = k;
    draw();
    return true;
  };

  function act(msg) {
    const st = live();
    if (noKernel()) {
      say(NO_KERNEL); // a saved page: a click or a key that needs Python says why nothing happens
      return false;
    }
    if (pending) return false;
    pending = true;
    root.dataset.pending = "1";
    try {
      model.send({ ...msg, seq: st.seq });
    } catch (e) {
      pending = false;
      delete root.dataset.pending;
      // a served page whose socket is down says why (lost and coming back, or closed by the
      // host) and stays playable (marking it kernel-less disabled its controls for good, even
      // once the socket was back)
      if (remote()) say(e instanceof Error ? e.message : String(e));
      else {
        root.dataset.kernel = "none";
        draw();
      }
      return false;
    }
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      queued = null;
      pending = false;
      delete root.dataset.pending;
      draw();
    }, ANSWER_TIMEOUT_MS);
    draw();
    return true;
  }
  const offline = {
    prev: (st) => st.history.n > 0 && scrubLocally(Math.max(0, (st.history.at ?? st.history.n) - 1)),
    next: (st) => st.mode === "history" && scrubLocally(st.history.at + 1 >= st.history.n ? null : st.history.at + 1),
    first: (st) => st.history.n > 0 && scrubLocally(0),
    live: (st) => st.mode === "history" && scrubLocally(null),
  };
  const tools = {
    prev: (st) =>
      st.mode !== "whatif" &&
      st.history.n > 0 &&
      act({ type: "scrub", step: Math.max(0, (st.history.at ?? st.history.n) - 1) }),
    next: (st) =>
      st.mode === "history" &&
      act({ type: "scrub", step: st.history.at + 1 >= st.history.n ? null : st.history.at + 1 }),
    first: (st) => st.mode !== "whatif" && st.history.n > 0 && act({ type: "scrub", step: 0 }),
    live: (st) => st.mode === "history" && act({ type: "scrub", step: null }),
    whatIf: (st) => st.mode !== "whatif" && !st.curtain && st.can_branch !== false && act({ type: "what_if" }),
    undo: (st) => st.whatif?.can_undo && act({ type: "undo" }),
    redo: (st) => st.whatif?.can_redo && act({ type: "redo" }),
    keep: (st) => st.mode === "whatif" && st.whatif?.can_keep && st.whatif?.can_undo && act({ type: "keep" }),
    playOut: (st) => st.mode === "whatif" && !st.over && !st.can_act && act({ type: "play_out" }),
    back: (st) => st.mode === "whatif" && act({ type: "back_to_real" }),
    // S: a (paused) bot's step in the real game; in a what-if, the step of the seat to act
    // when it is not yours (its bot's, or a random one for a person's seat)
    botMove: (st) =>
      !st.over &&
      ((st.mode === "real" && st.kinds?.[st.actor] !== "human") || (st.mode === "whatif" && !st.can_act)) &&
      act({ type: "bot_step" }),
    pause: () => act({ type: "pause", paused: !model.get("paused") }),
  };
  // a board key pressed while the last intent is still being answered: kept (the last such
  // key only) and handled once the answer is in, instead of being lost without a word
  let queued = null;
  const isBoardKey = (ev, action) =>
    !!action ||
    (!(ev.ctrlKey || ev.metaKey || ev.altKey) &&
      !((ev.key === "Enter" || ev.key === " ") && ev.target?.closest?.("button")) &&
      String(game.aria || "")
        .split(" ")
        .includes(ev.key === " " ? "Space" : ev.key.length === 1 ? ev.key.toUpperCase() : ev.key));
  function onBoardKey(ev, action) {
    const st = live();
    if (game.bars === false) return st.players ? game.onKey(ev, st, act, action) : !!action;
    if (pending && st.players && isBoardKey(ev, action)) {
      // the event itself is spent by then (its currentTarget gone): what a key handler reads
      const { key, ctrlKey, metaKey, altKey, shiftKey, target } = ev;
      const noop = () => {};
      queued = [
        {
          replayed: true, // never the curtain's Enter (see below)
          key,
          ctrlKey,
          metaKey,
          altKey,
          shiftKey,
          target,
          currentTarget: root,
          preventDefault: noop,
          stopPropagation: noop,
        },
        action,
        { mode: st.mode, actor: st.actor, seat: st.seat, curtain: !!st.curtain },
      ];
      return true;
    }
    if (!st.players || pending) return !!action;
    if (action && noKernel()) {
      if (offline[action]) offline[action](st);
      else say(NO_KERNEL);
      return true;
    }
    if (action && remote()) {
      say(servedKeyRefusal(action)); // a served page has no history, what-if or bot keys
      return true;
    }
    if (action && tools[action]) {
      if (!tools[action](st)) say(keyRefusal(action, st)); // a refused key says why
      return true;
    }
    // the curtain is down: Enter (or Space) on the board presses its Show button
    const plain = !(ev.replayed || ev.ctrlKey || ev.metaKey || ev.altKey || ev.target?.closest?.("button"));
    if (st.curtain && game.curtain !== false && plain && (ev.key === "Enter" || ev.key === " ")) {
      act({ type: "show_seat" });
      return true;
    }
    // H: the chances panel on or off, the one key for hints in every game (Deep Sea
    // Adventure's board, which draws its own hints, handles its H itself)
    if (st.chances !== undefined && isHintsKey(ev)) {
      if (remote()) say("H: the host's board shows the chances or not");
      else if (noKernel()) say(NO_KERNEL);
      else saveTrait(model, "hints", !model.get("hints"));
      return true;
    }
    const used = game.onKey ? game.onKey(ev, st, act) : false;
    const spectator = remote() && model.get("remote").seat == null;
    const why = used ? null : gameKeyRefusal(ev, game.aria, st, { spectator });
    if (why) say(why); // one of the game's keys that did nothing says why
    return used || !!why;
  }
  const keys = attachKeys(root, { onEscape: game.onEscape, onKey: onBoardKey });

  function scheduleBot(st) {
    clearTimeout(botTimer);
    if (game.botClock === false) return;
    if (noKernel() || !st.players || st.over || st.mode !== "real" || st.curtain || model.get("paused") || remote())
      return;
    if (typeof game.botClock === "function" ? !game.botClock(st) : (st.kinds?.[st.actor] ?? "human") === "human")
      return;
    const seq = st.seq;
    botTimer = setTimeout(
      () => {
        if (live().seq === seq && !model.get("paused")) {
          try {
            model.send({ type: "bot_step", seq });
          } catch (_e) {
            root.dataset.kernel = "none";
          }
        }
      },
      Math.max(0, Number(model.get("bot_delay")) || 0),
    );
  }

  function bars(st) {
    if (remote() || game.bars === false) return null;
    const use = (name) => () => (noKernel() ? offline[name]?.(st) : tools[name](st));
    const hist = st.history || { n: 0, at: null };
    const wi = st.mode === "whatif";
    const row = wi
      ? [
          h("span", {
            class: "dsa-mode-note",
            text: st.whatif?.sampled ? "What-if (what you cannot see is drawn again)" : "What-if",
          }),
          tool("Undo", "undo", keyLabel("undo"), st.whatif?.can_undo, () => tools.undo(st)),
          tool("Redo", "redo", keyLabel("redo"), st.whatif?.can_redo, () => tools.redo(st)),
          // Keep once something was tried; the bots play on while it is not your turn
          tool("Keep for comparison", "keep", keyLabel("keep"), st.whatif?.can_keep && st.whatif?.can_undo, () =>
            tools.keep(st),
          ),
          tool("Bots play on", "play-out", keyLabel("playOut"), !st.over && !st.can_act, () => tools.playOut(st)),
          tool("Back to the real game", "back", keyLabel("back"), true, () => tools.back(st)),
        ]
      : [
          tool("◀ Step back", "prev", keyLabel("prev"), hist.n > 0, use("prev")),
          tool("Step on ▶", "next", keyLabel("next"), st.mode === "history", use("next")),
          tool("Live", "live", keyLabel("live"), st.mode === "history", use("live")),
          tool("What-if…", "what-if", keyLabel("whatIf"), !st.curtain && st.can_branch !== false, () =>
            tools.whatIf(st),
          ),
          // only where a bot plays a seat
          st.bot_seats?.length
            ? tool(model.get("paused") ? "Resume bots" : "Pause bots", "pause", keyLabel("pause"), true, () =>
                tools.pause(),
              )
            : null,
        ];
    const bar = h(
      "div",
      { class: `dsa-toolbar dsa-mode-${st.mode}`, role: "toolbar", "aria-label": "History and what-if" },
      row,
    );
    const rows = wi ? st.whatif?.compare || [] : [];
    if (!rows.length) return bar;
    if (game.drawCompare) return [bar, compareBox(game.drawCompare(rows, st))];
    const labels = typeof game.compareLabels === "function" ? game.compareLabels(st) : game.compareLabels;
    return [bar, drawCompare(rows, labels || {})];
  }

  /** Redraw the board from the model, then say in the live region what the change brought. */
  function draw() {
    try {
      drawBoard();
    } finally {
      sayKept(); // what was kept is said now, even if the drawing failed (not at a later change)
    }
  }

  function drawBoard() {
    const st = live();
    if (noKernel()) root.dataset.scrub = localAt === null ? "" : String(localAt);
    const err = model.get("error") || {};
    root.dataset.seq = String(st.seq ?? -1);
    root.dataset.mode = st.mode || "";
    root.dataset.historyAt = st.mode === "history" ? String(st.history.at) : "";
    // the board's frame says which game it shows: the real one, the past, or a what-if
    root.classList.toggle("dsa-mode-whatif", st.mode === "whatif");
    root.classList.toggle("dsa-mode-past", st.mode === "history");
    root.dataset.over = st.over ? "1" : "";
    if (game.curtain !== false) {
      if (st.curtain) root.dataset.curtain = String(st.curtain.seat);
      else delete root.dataset.curtain;
    }
    if (err.kind) root.dataset.error = err.kind;
    else delete root.dataset.error;
    // a served table not started yet, or closed: its words, whatever the game would say
    const headWords = st.waiting && !st.over ? st.waiting : (game.status || statusText)(st);
    const status = st.players ? withMode(st, headWords) : "Loading…";
    const header = h(
      "div",
      { class: "dsa-header" },
      // the outcome is told once, in the banner under the board (where Play again is): the
      // header then only says the game is over
      // (not a live region: the board's one live region says what changed, once)
      h("span", {
        class: "dsa-status",
        text: st.over && game.banner !== false && st.mode === "real" ? "Game over" : status,
      }),
      keys.badge,
    );
    const words = err.message || said;
    const refusal = h("p", { class: "dsa-error", hidden: !words, text: words || "" });
    const parts = [header, refusal];
    if (st.problem) parts.push(h("p", { class: "dsa-error", text: st.problem.message }));
    if ((err.message || "") !== heardError) {
      heardError = err.message || "";
      announce(heardError);
    }
    if (!st.players) {
      replaceChildren(view, parts);
      return;
    }
    const curtain = game.curtain !== false && st.curtain;
    if (curtain) parts.push(drawCurtain(st.curtain, { pending, show: () => act({ type: "show_seat" }) }));
    else
      parts.push(
        game.draw(st, act, {
          pending,
          remote: remote(),
          kernel: !noKernel(),
          model,
          root,
          redraw: draw,
          focus: keys.focus,
          say,
        }),
      );
    // the game's chances, under the board (not behind a curtain)
    if (!curtain) parts.push(drawChances(st, { remote: remote() }));
    if (st.chances !== undefined && !/(^| )H( |$)/.test(root.getAttribute("aria-keyshortcuts")))
      root.setAttribute("aria-keyshortcuts", `${root.getAttribute("aria-keyshortcuts")} H`);
    // how the game ended, and Play again, right under the board
    if (st.over && game.banner !== false)
      parts.push(h("p", { class: "dsa-banner dsa-over", "data-action": "game-over", text: status }));
    if (st.over && st.mode === "real" && !remote() && game.playAgain !== false)
      parts.push(
        h("button", {
          class: "dsa-btn dsa-primary",
          "data-action": "play-again",
          onclick: () => act({ type: "play_again" }),
          text: "Play again",
        }),
      );
    parts.push(bars(st));
    // the last few steps in words: up to the step shown when the board shows the past
    const labels = st.history?.labels || [];
    const first = st.history?.first || 0;
    const upto = st.mode === "history" ? Math.max(0, (st.history.at ?? 0) - first) : labels.length;
    // a step whose label is empty is told by the next one (Pig's roll, told with its die)
    const told =
      game.log === false
        ? []
        : labels
            .slice(0, upto)
            .map((t, i) => [first + i + 1, t])
            .filter(([, t]) => t)
            .slice(-LOG_LINES);
    if (told.length) {
      parts.push(
        h(
          "ol",
          { class: "dsa-log dsa-shell-log", "aria-label": "What happened" },
          told.map(([n, t]) => h("li", { value: n, text: t })),
        ),
      );
    }
    const hadKeys = keys.owning();
    replaceChildren(view, parts);
    // the curtain came down while the board had the keys: the focus goes to its Show button
    // (the button the next player presses), not back to the board's frame
    const a = root.ownerDocument.activeElement;
    if (curtain && !heard?.curtain && hadKeys && (!a || a === root || a === root.ownerDocument.body))
      view.querySelector("[data-action='show-seat']")?.focus({ preventScroll: true });
    // the live region: what is new since the last redraw (the steps' words, a bot's reason,
    // whose turn or the end), from what this screen may know
    const steps = game.told
      ? game.told(st)
      : { total: (st.history?.first || 0) + labels.length, lines: labels.slice(-LOG_LINES) };
    const now = {
      view: st.mode === "history" ? `history ${st.history.at}` : st.mode || "real",
      total: steps.total,
      lines: steps.lines,
      said: st.bot_said || {},
      status,
      curtain: curtain ? curtainText(st.curtain) : "",
      problem: st.problem?.message || "",
    };
    announce(announcement(heard, now));
    heard = now;
    const setup = model.get("setup") || {};
    const key = !remote() && game.setup !== false ? JSON.stringify(setup) : "";
    if (key !== setupKey) {
      setupKey = key;
      replaceChildren(setupBox, key ? drawSetupForm(setup, (s) => act({ type: "new_game", setup: s })) : null);
    }
    const notes = [];
    if (noKernel()) {
      notes.push(
        h("p", {
          class: "dsa-note dsa-static-note",
          role: "note",
          text: "No Python is running this board (a saved page, or a busy kernel): it cannot play now. The history buttons still replay the game.",
        }),
      );
    }
    notes.push(
      h("p", {
        class: "dsa-keys dsa-game-keys",
        text: st.chances !== undefined ? `${game.help} · H chances on/off` : game.help,
      }),
      h("p", { class: "dsa-keys dsa-common-keys", text: remote() ? SERVED_HELP : COMMON_HELP }),
    );
    replaceChildren(tail, notes);
    scheduleBot(st);
  }

  function say(words) {
    said = words || "";
    announce(said);
    draw();
  }
  const onChange = () => {
    said = "";
    pending = false;
    delete root.dataset.pending;
    clearTimeout(watchdog);
    draw();
    if (queued && root.isConnected) {
      const [ev, action, was] = queued;
      queued = null;
      // a key pressed for one moment of play is dropped at another (another seat to act, the
      // curtain down, the game over): see keyStillMeant
      if (!was.curtain && keyStillMeant(was, live(), !!action)) onBoardKey(ev, action);
    }
  };
  for (const name of ["state", "error", "paused", "setup"]) model.on(`change:${name}`, onChange);
  draw();
  // is a kernel there? A saved page (static HTML export) has none: the controls that need Python
  // are disabled, with a note, and the history bar scrubs on its own (Python answers a view's
  // hello by setting `hello` to its number; no answer in 2 s: none)
  const helloN = Math.floor(Math.random() * 2 ** 31);
  const onHello = () => {
    if (model.get("hello") !== helloN) return;
    clearTimeout(helloTimer);
    delete root.dataset.kernel;
    localAt = null;
    draw();
  };
  model.on("change:hello", onHello);
  const helloTimer = remote()
    ? null
    : setTimeout(() => {
        root.dataset.kernel = "none";
        draw();
      }, 2000);
  if (!remote()) {
    try {
      model.send({ type: "hello", n: helloN });
    } catch {
      /* the timer says it */
    }
  }
  return () => {
    clearTimeout(watchdog);
    clearTimeout(botTimer);
    clearTimeout(helloTimer);
    model.off("change:hello", onHello);
    keys.dispose();
    for (const name of ["state", "error", "paused", "setup"]) model.off(`change:${name}`, onChange);
  };
}
