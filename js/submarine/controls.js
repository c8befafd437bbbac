// The status line, the legal actions that are not drawn on the board, the rules primer and the
// score breakdown at the end (the platform's shell, js/shell.js, draws the history and what-if
// bar, the log and the help lines). Every word shown comes from the screen's `words`
// (dsa_widget/submarine/words.py): the engine's codes never reach the page.
import { h } from "../dom.js";

/** Submarine's own keys (the common ones, history, what-if, bots, are js/keys.js's). */
export const KEYS_HELP = "Game keys: 1–9 pick the n-th highlighted action · Enter the first";
export const GAME_ARIA = "1 2 3 4 5 6 7 8 9 Enter";

/** {say, short, group} for a legal action, from the screen's words (one per legal action, in
 * the same order). */
export function describe(st, a) {
  const w = st.words?.legal?.[(st.legal || []).indexOf(a)];
  return w || { say: a, short: a, group: "" };
}

const ON_BOARD = (a) => a.startsWith("place ") || a.startsWith("sail ");

export function statusText(st) {
  if (st.over) return st.words?.ending || "Game over.";
  // the turn as a player counts it (the placement is not a turn of play): Python's words
  const turn = st.words?.turn ? ` (${st.words.turn})` : "";
  return `${st.words?.prompt || ""}${turn}`;
}

/** The legal actions that are not drawn on the board, under headings in words. */
export function drawControls(st, { act, canAct, pending }) {
  const legal = canAct ? st.legal || [] : [];
  const extra = legal.filter((a) => !ON_BOARD(a));
  const groups = new Map();
  for (const a of extra) {
    const w = describe(st, a);
    if (!groups.has(w.group)) groups.set(w.group, []);
    groups.get(w.group).push([a, w]);
  }
  const actions = h(
    "div",
    { class: "sub-actions", "aria-label": "Your legal actions" },
    [...groups.entries()].map(([title, list]) =>
      h(
        "div",
        { class: "sub-group", role: "group", "aria-label": title, "data-group": list[0][0].split(" ")[0] },
        title ? h("span", { class: "sub-group-title", text: title }) : null,
        list.map(([a, w]) =>
          h("button", {
            class: "dsa-btn sub-legal sub-act",
            "data-action": a.split(" ")[0],
            "data-choice": a,
            "aria-label": w.say,
            title: w.say,
            disabled: pending,
            onclick: () => act(a),
            text: w.short,
          }),
        ),
      ),
    ),
    legal.length && !extra.length
      ? h("p", { class: "sub-hint", text: "Choose on the board: the highlighted buttons." })
      : null,
  );
  return h("div", { class: "sub-controls" }, actions);
}

/** The rules on one screen, folded (it stays open or shut across redraws: `root.dataset`). */
export function drawPrimer(st, root) {
  const items = st.words?.primer || [];
  if (!items.length) return null;
  const open = root?.dataset.primer === "open";
  return h(
    "details",
    {
      class: "sub-primer",
      open,
      ontoggle: (ev) => {
        if (root) root.dataset.primer = ev.currentTarget.open ? "open" : "";
      },
    },
    h("summary", { text: "How to play (the rules in one screen)" }),
    h(
      "dl",
      { class: "sub-primer-list" },
      items.map(([head, text]) => [h("dt", { text: head }), h("dd", { text })]),
    ),
  );
}

/** At the end: what scored how much, per player. */
export function drawScores(st) {
  const rows = st.words?.scores;
  if (!st.over || !rows) return null;
  return h(
    "section",
    { class: "sub-scores", "aria-label": "Final scores" },
    h("h3", { class: "sub-h", text: "Final scores: one point per different treasure type" }),
    h(
      "ul",
      { class: "sub-score-list" },
      rows.map((r) =>
        h(
          "li",
          { class: `sub-score${r.winner ? " sub-winner" : ""}`, "data-seat": r.seat },
          h("strong", { text: `${r.name}: ${r.score} point${r.score === 1 ? "" : "s"}${r.winner ? " (winner)" : ""}` }),
          r.lines.length
            ? h("span", { class: "sub-score-lines", text: ` — ${r.lines.join(" · ")}` })
            : " — nothing collected",
        ),
      ),
    ),
  );
}
