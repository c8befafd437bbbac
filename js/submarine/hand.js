// The own hand (colour cards, with letters and symbols) and the pile size.
import { h } from "../dom.js";
import { COLOURS, colourMark } from "./tiles.js";

export function drawHand(st) {
  const seat = st.seat;
  if (seat === null || seat === undefined || !Array.isArray(st.hand)) {
    return h("div", { class: "sub-hand-box" }, h("p", { class: "sub-hint", text: "No hand shown (public view)." }));
  }
  const counts = {};
  for (const c of st.hand) counts[c] = (counts[c] || 0) + 1;
  return h(
    "div",
    { class: "sub-hand-box", "aria-label": "Your hand" },
    h("h3", {
      class: "sub-h",
      text: `Your hand: ${st.hand.length} card${st.hand.length === 1 ? "" : "s"} · ${st.pile_sizes?.[seat] ?? 0} face down in your pile`,
    }),
    h(
      "ul",
      { class: "sub-hand" },
      st.hand.map((c) =>
        h(
          "li",
          {
            class: `sub-card sub-col-${c}`,
            "data-card": c,
            title: COLOURS[c]?.name ?? c,
            "aria-label": `${COLOURS[c]?.name ?? c} card`,
          },
          colourMark(c),
        ),
      ),
    ),
    h(
      "p",
      { class: "sub-hint" },
      Object.entries(counts)
        .sort()
        .map(([c, n]) => `${n}× ${COLOURS[c]?.name ?? c}`)
        .join(", "),
    ),
  );
}
