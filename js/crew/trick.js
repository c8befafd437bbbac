// The trick in progress, the last completed trick (and every trick with trick_history_visibility "all").
import { h } from "../dom.js";
import { cardName, parseCard, SUITS, seatName } from "./cards.js";
import { cardFace } from "./hand.js";

function playsList(state, trick, current) {
  const ol = h("ol", { class: "crew-plays" });
  for (const p of trick.plays || []) {
    const win = !current && trick.winner === p.seat;
    ol.append(
      h(
        "li",
        { class: `crew-play${win ? " crew-winner" : ""}`, "data-seat": p.seat, "data-card": p.card },
        h("span", { class: "crew-play-who", text: seatName(state, p.seat) }),
        cardFace(p.card, { label: `${seatName(state, p.seat)}: ${cardName(p.card)}${win ? ", won the trick" : ""}` }),
        win ? h("span", { class: "crew-win-mark", text: "★ won" }) : null,
      ),
    );
  }
  return ol;
}

/** The table's middle: the trick being played and the last one. */
export function drawTricks(state) {
  const box = h("div", { class: "crew-tricks" });
  const t = state.trick;
  const cur = h("section", { class: "crew-trick", "aria-label": "Trick in progress" });
  if (t && (t.plays || []).length) {
    const led = parseCard(t.plays[0].card);
    cur.append(
      h("h3", {
        class: "crew-h",
        text: `Trick ${t.number} of ${state.tricks_total}, led by ${seatName(state, t.leader)}`,
      }),
      led
        ? h("p", {
            class: "crew-led",
            "data-suit": led.suit,
            text: `Led: ${SUITS[led.suit].name} ${SUITS[led.suit].symbol} (follow suit if you can)`,
          })
        : null,
      playsList(state, t, true),
    );
  } else if (!state.outcome) {
    // the same three lines as a trick with cards (its place kept: the hand below does not move)
    const n = t?.number ?? (state.last_trick ? state.last_trick.number + 1 : 1);
    cur.append(
      h("h3", { class: "crew-h", text: `Trick ${Math.min(n, state.tricks_total)} of ${state.tricks_total}` }),
      h("p", { class: "crew-led", text: "No card played yet." }),
      h("ol", { class: "crew-plays" }),
    );
  }
  // an attempt that is over has no trick in progress (the outcome line says at which it ended)
  if (cur.childElementCount) box.append(cur);
  const last = state.last_trick;
  if (last) {
    box.append(
      h(
        "section",
        { class: "crew-trick crew-last-trick", "aria-label": "Last trick" },
        h("h3", { class: "crew-h", text: `Last trick (${last.number}): ${seatName(state, last.winner)} won` }),
        playsList(state, last, false),
      ),
    );
  }
  const all = (state.tricks || []).filter((x) => !last || x.number !== last.number);
  if (all.length) {
    const d = h("details", { class: "crew-all-tricks" }, h("summary", { text: `Earlier tricks (${all.length})` }));
    for (const x of all) {
      d.append(
        h(
          "div",
          { class: "crew-trick-row", "data-trick": x.number },
          h("span", { text: `${x.number}. ${seatName(state, x.winner)} won: ` }),
          playsList(state, x, false),
        ),
      );
    }
    box.append(d);
  }
  return box;
}
