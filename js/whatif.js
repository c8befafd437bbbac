// What-if mode: the banner, undo/redo, chosen dice, "back to the real game" and the compare panel.
import { h } from "./dom.js";
import { ariaKey, keyLabel } from "./keys.js";
import { color, isBot, letter } from "./model.js";

function posText(d) {
  if (d.home) return "back";
  if (d.pos === 0) return "sub";
  return `sp ${d.pos}${d.up ? "↑" : "↓"}`;
}

/** The compare table: real, kept states and the what-if (hidden scores as "?"). */
export function drawCompare(st) {
  const rows = st.whatif?.compare || [];
  const table = h("table", { class: "dsa-compare", "aria-label": "Real game and what-if side by side" });
  const head = h(
    "tr",
    {},
    h("th", { scope: "col", text: "" }),
    h("th", { scope: "col", text: "round" }),
    h("th", { scope: "col", text: "air" }),
  );
  st.players.forEach((name, q) => {
    head.append(
      h(
        "th",
        { scope: "col", class: "dsa-compare-player" },
        h("span", { class: "dsa-swatch", style: { background: color(q) }, "aria-hidden": "true", text: letter(q) }),
        h("span", { class: "dsa-compare-name", text: name }),
      ),
    );
  });
  table.append(h("thead", {}, head));
  const body = h("tbody");
  for (const r of rows) {
    const tr = h("tr", { "data-row": r.name });
    tr.append(
      h("th", { scope: "row", text: r.name }),
      h("td", { text: r.over ? "over" : String(r.round) }),
      h("td", { text: String(r.air) }),
    );
    r.divers.forEach((d, q) => {
      const sc = r.scores[q];
      // score, position and load on three short lines, so six players fit across
      tr.append(
        h(
          "td",
          {
            "data-seat": q,
            "data-pos": d.pos,
            "data-score": sc === null ? "?" : sc,
            title: sc === null ? "score hidden: chips banked here keep their values secret" : null,
            "aria-label": `${sc === null ? "?" : sc} points, ${posText(d)}, ${d.items} item${d.items === 1 ? "" : "s"}`,
          },
          h("span", { class: "dsa-cmp-score", text: `${sc === null ? "?" : sc} pt` }),
          h("span", { class: "dsa-cmp-pos", text: posText(d) }),
          h("span", { class: "dsa-cmp-load", text: `${d.items} item${d.items === 1 ? "" : "s"}` }),
        ),
      );
    });
    body.append(tr);
  }
  table.append(body);
  return table;
}

/**
 * The what-if bar. on.undo(), on.redo(), on.keep(), on.back(), on.rollDice([d1, d2]), on.botMove(); pending: waiting for Python.
 */
export function drawWhatIf(st, { pending, on, dice }) {
  const w = st.whatif || {};
  const box = h("div", { class: "dsa-whatif-bar" });
  const from = w.from_turn === null || w.from_turn === undefined ? "now" : `turn ${w.from_turn}`;
  box.append(
    h(
      "div",
      { class: "dsa-banner", role: "note" },
      h("strong", { text: "What-if" }),
      ` — the real game is untouched (branched from ${from}).`,
    ),
  );
  const row = h("div", { class: "dsa-controls dsa-whatif-controls", role: "group", "aria-label": "What-if tools" });
  // key: a common action of js/keys.js ("undo"), or this game's own key ("D")
  const btn = (action, text, aria, key, disabled, fn, extra = "") => {
    const [label, aKey] = key.length > 1 ? [keyLabel(key), ariaKey(key)] : [key, key];
    return h(
      "button",
      {
        class: `dsa-btn ${extra}`,
        "data-action": action,
        "aria-label": `${aria} (${label})`,
        "aria-keyshortcuts": aKey,
        disabled: disabled || pending,
        onclick: fn,
      },
      text,
      h("kbd", { text: label }),
    );
  };
  row.append(
    btn("undo", "Undo", "Undo the last choice or roll in the what-if", "undo", !w.can_undo, on.undo),
    btn("redo", "Redo", "Redo in the what-if", "redo", !w.can_redo, on.redo),
  );
  if (!st.over && st.legal.includes("roll")) {
    const pick = (i) => {
      const sel = h("select", { class: "dsa-die-pick", "aria-label": `Die ${i + 1} (1 to 3)`, "data-die": i });
      for (const v of [1, 2, 3])
        sel.append(h("option", { value: String(v), text: String(v), selected: v === dice[i] }));
      sel.addEventListener("change", () => {
        dice[i] = Number(sel.value);
      });
      return sel;
    };
    row.append(
      h(
        "span",
        { class: "dsa-dice-pick", role: "group", "aria-label": "Choose the dice" },
        h("span", { class: "dsa-hint", text: "Dice:" }),
        pick(0),
        pick(1),
        btn(
          "roll-dice",
          "Roll these",
          "Roll the chosen dice",
          "D",
          false,
          () => on.rollDice(dice.slice()),
          "dsa-primary",
        ),
      ),
    );
  }
  if (!st.over && isBot({ seats: st.seats }, st.current)) {
    row.append(
      btn(
        "bot-move",
        `${st.seats[st.current]} bot moves`,
        `Let the ${st.seats[st.current]} bot choose for ${st.players[st.current]}`,
        "botMove",
        false,
        on.botMove,
      ),
    );
  }
  row.append(
    btn(
      "keep",
      "Keep for comparison",
      "Keep this what-if state as a row of the comparison, then try something else",
      "keep",
      w.can_keep === false,
      on.keep,
    ),
  );
  row.append(
    btn(
      "back-to-real",
      "Back to the real game",
      "Leave the what-if: back to the real game",
      "back",
      false,
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
      drawCompare(st),
    ),
  );
  return box;
}
