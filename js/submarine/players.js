// Every player: kind, ship, hand and pile counts only (never cards), held jokers, and the
// collection board of 12 slots.
import { h } from "../dom.js";
import { botSaid } from "../said.js";
import { seatMark, tileEl } from "./board.js";

function where(pos) {
  if (pos === "start" || pos === "end") return `the ${pos}`;
  return pos ? `column ${pos}` : "?";
}

export function drawPlayers(st) {
  const players = st.players || [];
  return h(
    "div",
    { class: "sub-players" },
    players.map((name, q) => {
      const slots = st.slots?.[q] || [];
      const cells = [];
      for (let i = 0; i < 12; i++) {
        cells.push(
          slots[i]
            ? h("span", { class: "sub-slot sub-filled" }, tileEl(slots[i]))
            : h("span", { class: "sub-slot", role: "img", "aria-label": "empty slot", text: "·" }),
        );
      }
      const kind = st.kinds?.[q] ?? "human";
      const mark = [];
      if (q === st.actor) mark.push("to move");
      if (q === st.seat) mark.push("you");
      return h(
        "section",
        {
          class: `sub-player sub-seat-${q}${q === st.actor ? " sub-active" : ""}`,
          "data-seat": q,
          "aria-label": `${name}`,
        },
        h("h3", { class: "sub-h" }, `${seatMark(q)} · ${name} (${kind})${mark.length ? ` — ${mark.join(", ")}` : ""}`),
        h(
          "p",
          { class: "sub-counts" },
          `submarine at ${where(st.ships?.[q])} · ${st.hand_counts?.[q] ?? 0} in hand · ${st.pile_sizes?.[q] ?? 0} in pile`,
          ` · score ${st.scores?.[q] ?? 0}`,
        ),
        h(
          "div",
          { class: "sub-jokers-held" },
          "Jokers held: ",
          (st.held_jokers?.[q] || []).length ? st.held_jokers[q].map(tileEl) : "none",
        ),
        botSaid(st, q),
        h("div", { class: "sub-slots-title", text: `Collection: ${slots.length} of 12 treasure types` }),
        h(
          "div",
          {
            class: "sub-slots",
            role: "group",
            "aria-label": `${name}'s collection: ${slots.length} of 12 treasure types`,
          },
          cells,
        ),
      );
    }),
  );
}
