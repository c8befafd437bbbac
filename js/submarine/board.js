// The 6 × 5 board: a surface lane (start, columns 1..6, end) with the ships, then depths 1..4
// of each column with their tiles and bathyscaphes. Legal actions that name a column or a
// space are buttons in place (data-choice), highlighted.
import { h } from "../dom.js";
import { letter } from "../model.js";
import { describe } from "./controls.js";
import { COLOURS, parseTile, tileLabel, tileWords } from "./tiles.js";

function tileEl(name) {
  const t = parseTile(name);
  return h(
    "span",
    {
      class: `sub-tile sub-col-${t.colour}${t.kind === "shell" ? " sub-shell" : ""}`,
      // an image with its words: a screen reader says "yellow treasure 6", not "6 Y▲"
      role: "img",
      title: tileWords(name),
      "aria-label": tileWords(name),
      "data-tile": name,
    },
    tileLabel(name),
  );
}

/** A seat's mark on the board: its letter, as Deep Sea's divers carry theirs (A, B, C...; a
 * number would clash with names such as "Bot 1"); the legend and the players' panels name it. */
export function seatMark(q) {
  return letter(q);
}

/** The legend: each letter with its player's name, then how the board draws things. */
export function legendText(players) {
  const who = players.map((name, q) => `${seatMark(q)} ${name}`).join(" · ");
  return `Players: ${who}. sub A: A's submarine · ◒A×2: two bathyscaphes of A · 7 G■: the green treasure 7 · S with a dashed rim: a shell (a joker)`;
}

/** Legal actions that name column c: place c, sail c. */
function columnActions(legal, c) {
  return legal.filter((a) => a === `place ${c}` || a === `sail ${c}`);
}

export function drawBoard(st, { act, canAct }) {
  const legal = canAct ? st.legal || [] : [];
  const ships = st.ships || [];
  const players = st.players || [];
  const lane = ["start", "1", "2", "3", "4", "5", "6", "end"];
  const surface = h(
    "div",
    { class: "sub-surface", role: "row" },
    lane.map((pos) => {
      const here = ships.map((p, q) => (p === pos ? q : -1)).filter((q) => q >= 0);
      const acts = pos === "end" ? legal.filter((a) => a === "sail end") : columnActions(legal, pos);
      return h(
        "div",
        {
          class: `sub-lane-cell${acts.length ? " sub-target" : ""}`,
          "data-pos": pos,
          role: "cell",
          "aria-label": pos === "start" || pos === "end" ? `the ${pos}` : `column ${pos}`,
        },
        h("span", {
          class: "sub-lane-name",
          title: pos === "start" || pos === "end" ? `the ${pos}` : `column ${pos}`,
          text: pos,
        }),
        h(
          "span",
          { class: "sub-ships" },
          here.map((q) =>
            h(
              "span",
              {
                class: `sub-ship sub-seat-${q}`,
                title: `${players[q]}'s submarine`,
                "aria-label": `${players[q]}'s submarine`,
              },
              `sub ${seatMark(q)}`,
            ),
          ),
        ),
        acts.map((a) =>
          h("button", {
            class: "dsa-btn sub-legal sub-act",
            "data-action": a.split(" ")[0],
            "data-choice": a,
            "aria-label": describe(st, a).say,
            title: describe(st, a).say,
            onclick: () => act(a),
            text: a.startsWith("place") ? "Place" : "Sail",
          }),
        ),
      );
    }),
  );
  const baths = st.bathyscaphes || [];
  const rows = [1, 2, 3, 4].map((d) =>
    h(
      "div",
      { class: "sub-row", role: "row" },
      h("span", { class: "sub-depth", text: `depth ${d}` }),
      [1, 2, 3, 4, 5, 6].map((c) => {
        const sp = `${c}.${d}`;
        const tiles = st.tiles?.[sp] || [];
        const here = [];
        baths.forEach((list, q) => {
          const n = (list || []).filter((x) => x === sp).length;
          if (n) here.push({ q, n });
        });
        const touched = legal.some((a) => {
          const p = a.split(" ");
          return (p[0] === "collect" || p[0] === "move") && (p[1] === sp || p[2] === sp);
        });
        return h(
          "div",
          {
            class: `sub-space${touched ? " sub-target" : ""}`,
            "data-space": sp,
            role: "cell",
            "aria-label": `column ${c}, depth ${d}: ${tiles.length} tile${tiles.length === 1 ? "" : "s"}`,
          },
          h("span", { class: "sub-tiles" }, tiles.map(tileEl)),
          h(
            "span",
            { class: "sub-baths" },
            here.map(({ q, n }) =>
              h(
                "span",
                {
                  class: `sub-bath sub-seat-${q}`,
                  title: `${players[q]}: ${n} bathyscaphe${n > 1 ? "s" : ""}`,
                  "aria-label": `${players[q]}: ${n} bathyscaphe${n > 1 ? "s" : ""}`,
                },
                `◒${seatMark(q)}${n > 1 ? `×${n}` : ""}`,
              ),
            ),
          ),
        );
      }),
      h("span", { class: "sub-row-end", "aria-hidden": "true" }),
    ),
  );
  const jokers = st.board_jokers || [];
  return h(
    "div",
    { class: "sub-board", role: "table", "aria-label": "The sea: 6 columns, 4 depths under the surface" },
    surface,
    rows,
    jokers.length ? h("div", { class: "sub-jokers" }, "Spent jokers on the board: ", jokers.map(tileEl)) : null,
    h("p", {
      class: "sub-hint sub-legend",
      text: legendText(players),
    }),
  );
}

export { COLOURS, tileEl };
