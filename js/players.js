// Per-player cards: colour, name (as text), seat kind, score, banked and carried chips.

import { chipShape } from "./board.js";
import { h, s } from "./dom.js";
import { color, diverStatus, itemText, letter } from "./model.js";
import { botSaid } from "./said.js";

function chipIcon(c) {
  const svg = s("svg", {
    viewBox: "0 0 24 24",
    class: "dsa-chip-icon",
    role: "img",
    "aria-label": c.length > 1 ? `level ${c[0]}, ${c[1]} points` : `level ${c[0]}, value hidden`,
  });
  svg.append(chipShape(c, 12, 13, 10));
  return svg;
}

/** The player cards; `help` maps a bot name to its one-line description. */
export function drawPlayers(state, help = {}) {
  const list = h("ul", { class: "dsa-players", "aria-label": "Players" });
  state.players.forEach((name, q) => {
    const d = state.divers[q];
    const score = state.scores[q];
    const current = state.current === q && !state.over;
    const winner = state.over && state.winners.includes(q);
    const li = h("li", {
      class: `dsa-player${current ? " dsa-player-current" : ""}${winner ? " dsa-winner" : ""}`,
      "data-seat": q,
      "data-score": score === null ? "?" : score,
      "data-banked": state.banked[q].length,
      "aria-current": current ? "true" : null,
    });
    li.append(
      h("span", { class: "dsa-swatch", style: { background: color(q) }, "aria-hidden": "true", text: letter(q) }),
      h("span", { class: "dsa-player-name", text: name }),
      h("span", {
        class: "dsa-seat-kind",
        title: help[state.seats[q]] || "",
        text: state.seats[q] === "human" ? "" : `bot: ${state.seats[q]}`,
      }),
      h("span", {
        class: "dsa-score",
        "aria-label": `score ${score === null ? "hidden" : score}`,
        text: `${score === null ? "?" : score} pt${winner ? " ★ winner" : ""}`,
      }),
    );
    const chips = h("span", { class: "dsa-banked", "aria-label": `${state.banked[q].length} chips banked` });
    for (const c of state.banked[q]) chips.append(chipIcon(c));
    const carry = d.items.length
      ? h("span", { class: "dsa-carrying", text: `carrying ${d.items.map(itemText).join(", ")}` })
      : null;
    li.append(h("span", { class: "dsa-player-status", text: diverStatus(state, q) }), chips);
    if (carry) li.append(carry);
    // why the seat's bot made its last choice (Python says only what every seat may know)
    const said = botSaid(state, q);
    if (said) li.append(said);
    list.append(li);
  });
  return list;
}
