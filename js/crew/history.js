// History (scrub back through the actions; Python sends the view of the step shown) and the
// what-if bar: undo/redo, keep for comparison, back to the real game, and the compare table.
import { h } from "../dom.js";
import { ariaKey, keyLabel } from "../keys.js";

/** key: the common action of js/keys.js the button's key does ("undo"). */
function btn(action, text, aria, key, disabled, fn, extra = "") {
  const label = key ? `${aria} (${keyLabel(key)})` : aria;
  return h(
    "button",
    {
      class: `dsa-btn dsa-btn-small ${extra}`,
      type: "button",
      "data-action": action,
      "aria-label": label,
      "aria-keyshortcuts": key ? ariaKey(key) : null,
      title: label,
      disabled,
      onclick: fn,
    },
    text,
  );
}

/**
 * The history bar. hist = state.history = {n, at (null: live), labels}; on.seek(k | null), on.whatIf().
 */
export function drawHistoryBar(state, { pending, on }) {
  const hist = state.history || { n: 0, at: null, labels: [] };
  const n = hist.n;
  const bar = h("div", { class: "dsa-timebar crew-timebar", role: "group", "aria-label": "Mission history" });
  const at = hist.at === null || hist.at === undefined ? n : hist.at;
  const live = hist.at === null || hist.at === undefined;
  const slider = h("input", {
    type: "range",
    min: 0,
    max: Math.max(0, n),
    step: 1,
    class: "dsa-slider",
    "data-action": "hist-slider",
    "aria-label": "Action shown from the history",
    "aria-valuetext": `after action ${at} of ${n}`,
  });
  slider.value = String(at);
  slider.disabled = n === 0 || pending;
  slider.addEventListener("change", () => {
    const k = Number(slider.value);
    on.seek(k >= n ? null : k);
  });
  const label = h("span", { class: "dsa-hist-label", "aria-live": "polite" });
  if (live) label.append(h("strong", { text: "Live: " }), `after ${n} action${n === 1 ? "" : "s"}`);
  else {
    const what = at === 0 ? "the start" : hist.labels?.[at - 1] || "";
    label.append(h("strong", { text: `Step ${at} of ${n}: ` }), what);
  }
  bar.append(
    btn("hist-first", "|◀", "First step", "first", at === 0 || pending, () => on.seek(0)),
    btn("hist-prev", "◀", "Previous step", "prev", at === 0 || pending, () => on.seek(Math.max(0, at - 1))),
    slider,
    btn("hist-next", "▶", "Next step", "next", live || pending, () => on.seek(at + 1 >= n ? null : at + 1)),
    btn("hist-live", "Live", "Back to the live game", "live", live || pending, () => on.seek(null)),
    label,
  );
  if (!state.whatif) {
    bar.append(
      btn(
        "whatif",
        live ? "What-if…" : "What-if from here",
        live ? "What-if: try another move in a branch" : `What-if from step ${at}`,
        "whatIf",
        pending || state.can_branch === false,
        on.whatIf,
        "dsa-whatif-btn",
      ),
    );
  }
  return bar;
}

/** The compare table: real game, kept states and the what-if. */
export function drawCompare(state) {
  const rows = state.whatif?.compare || [];
  const table = h("table", { class: "dsa-compare", "aria-label": "Real game and what-if side by side" });
  const head = h(
    "tr",
    {},
    h("th", { scope: "col", text: "" }),
    h("th", { scope: "col", text: "trick" }),
    h("th", { scope: "col", text: "tasks ✓ / ✗ / ○" }),
    h("th", { scope: "col", text: "outcome" }),
  );
  for (const name of state.players || []) head.append(h("th", { scope: "col", text: `${name}: tricks` }));
  table.append(h("thead", {}, head));
  const body = h("tbody");
  for (const r of rows) {
    const tr = h(
      "tr",
      { "data-row": r.name },
      h("th", { scope: "row", text: r.name }),
      h("td", { text: String(r.trick) }),
      h("td", { text: `${r.done} / ${r.failed} / ${r.open}` }),
      h("td", { text: r.outcome || "open" }),
    );
    for (const k of r.tricks_won || []) tr.append(h("td", { text: String(k) }));
    body.append(tr);
  }
  table.append(body);
  return table;
}

/** The what-if bar. on.undo(), on.redo(), on.keep(), on.back(), on.botMove(), on.playOut(). */
export function drawWhatIf(state, { pending, on, botTurn }) {
  const w = state.whatif || {};
  const box = h("div", { class: "dsa-whatif-bar" });
  box.append(
    h(
      "div",
      { class: "dsa-banner", role: "note" },
      h("strong", { text: "What-if" }),
      ` — the real game is untouched (branched from ${w.from_step === null || w.from_step === undefined ? "now" : `step ${w.from_step}`}). `,
      w.sampled ? "The cards you cannot see were dealt again at random (consistent with what you know)." : "",
    ),
  );
  const row = h("div", { class: "dsa-controls dsa-whatif-controls", role: "group", "aria-label": "What-if tools" });
  row.append(
    btn("undo", "Undo", "Undo the last action in the what-if", "undo", !w.can_undo || pending, on.undo),
    btn("redo", "Redo", "Redo in the what-if", "redo", !w.can_redo || pending, on.redo),
  );
  if (botTurn && !state.outcome) {
    row.append(btn("bot-move", "Bot moves", "Let a bot choose for the seat to move", "botMove", pending, on.botMove));
  }
  if (!state.outcome) {
    row.append(
      btn(
        "play-out",
        "Bots play on",
        "Let bots play every other seat until you are to move",
        "playOut",
        pending,
        on.playOut,
      ),
    );
  }
  row.append(
    btn(
      "keep",
      "Keep for comparison",
      "Keep this what-if state as a row of the comparison",
      "keep",
      w.can_keep === false || pending,
      on.keep,
    ),
    btn(
      "back-to-real",
      "Back to the real game",
      "Leave the what-if: back to the real game",
      "back",
      pending,
      on.back,
      "dsa-back",
    ),
  );
  box.append(row);
  box.append(
    h(
      "details",
      { class: "dsa-compare-box", open: true },
      h("summary", { text: "Compare: real vs what-if" }),
      drawCompare(state),
    ),
  );
  return box;
}
