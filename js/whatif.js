// Deep Sea Adventure's parts of a what-if (the bar, undo, redo, keep and the way back are the
// shell's): its comparison of the real game, the kept states and the what-if, and the chosen dice.
import { h } from "./dom.js";
import { color, letter } from "./model.js";

function posText(d) {
  if (d.home) return "back";
  if (d.pos === 0) return "sub";
  return `sp ${d.pos}${d.up ? "↑" : "↓"}`;
}

/** The compare table: real, kept states and the what-if (hidden scores as "?"), one column a seat. */
export function drawCompare(rows, st) {
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
 * The what-if's dice: two pickers (1 to 3) and "Roll these" (key D). `dice` is the view's
 * picked pair (kept between draws); roll(dice) sends them.
 */
export function drawDicePicker(dice, { pending, roll }) {
  const pick = (i) => {
    const sel = h("select", { class: "dsa-die-pick", "aria-label": `Die ${i + 1} (1 to 3)`, "data-die": i });
    for (const v of [1, 2, 3]) sel.append(h("option", { value: String(v), text: String(v), selected: v === dice[i] }));
    sel.addEventListener("change", () => {
      dice[i] = Number(sel.value);
    });
    return sel;
  };
  return h(
    "span",
    { class: "dsa-dice-pick", role: "group", "aria-label": "Choose the dice" },
    h("span", { class: "dsa-hint", text: "Dice:" }),
    pick(0),
    pick(1),
    h(
      "button",
      {
        class: "dsa-btn dsa-primary",
        "data-action": "roll-dice",
        "aria-label": "Roll the chosen dice (D)",
        "aria-keyshortcuts": "D",
        disabled: pending,
        onclick: () => roll(dice.slice()),
      },
      "Roll these",
      h("kbd", { text: "D" }),
    ),
  );
}
