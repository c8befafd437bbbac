// Your hand (only yours: Python sends no other), legal cards highlighted, playable by click and
// by keyboard (the widget moves the focus with the arrow keys; Enter plays, C communicates).
import { h } from "../dom.js";
import { cardName, forDummy, parseCard, positionText, SUITS, seatName, sortCards } from "./cards.js";

/** A communication token's place as a mark (its words are in the title and the seat's panel). */
const POSITION_MARKS = { top: "▲", middle: "●", bottom: "▼" };

/** A card face (not a button): suit letter, symbol and rank, readable without colour. */
export function cardFace(id, extra = {}) {
  const c = parseCard(id);
  const suit = c ? c.suit : "X";
  return h(
    "span",
    {
      class: `crew-card crew-suit-${suit}${extra.class ? ` ${extra.class}` : ""}`,
      "data-card": id,
      role: "img",
      "aria-label": extra.label || cardName(id),
      title: extra.title || cardName(id),
    },
    h("span", { class: "crew-card-rank", "aria-hidden": "true", text: c ? String(c.rank) : "?" }),
    h("span", { class: "crew-card-suit", "aria-hidden": "true", text: c ? `${c.suit}${SUITS[c.suit].symbol}` : "" }),
  );
}

/** The communications of one seat, by card. */
function shownBy(state, seat) {
  const out = new Map();
  for (const c of state.communicated || []) if (c.seat === seat && !c.played) out.set(c.card, c);
  return out;
}

/**
 * The hand panel. opts: {focused, pending, onPlay(card), onComm(action), onFocus(card)}.
 * Card buttons: class crew-card-btn, data-card="P3", data-action="play" (aria-label "Play pink 3",
 * or "pink 3, not playable now") or, when a distress card is chosen, data-action="give" ("Pass on
 * pink 3 (distress)"); communicate buttons: data-action="comm".
 */
export function drawHand(state, opts = {}) {
  const { focused = null, pending = false, onPlay, onComm, onFocus } = opts;
  const legal = state.legal || [];
  const hand = sortCards(state.hand || []);
  const shown = shownBy(state, state.seat);
  const box = h("div", { class: "crew-hand-box" });
  // the captain plays the dummy seat's card now (R-4.7): this hand waits, and says so
  const waiting = forDummy(state);
  if (waiting) box.dataset.waiting = "dummy";
  const title =
    state.seat === null || state.seat === undefined
      ? "No hand shown"
      : `Your hand (${hand.length})${waiting ? ` — waiting: now play ${seatName(state, state.acting_for)}'s card` : ""}`;
  box.append(h("h3", { class: "crew-h", text: title }));
  if (!hand.length) {
    if (state.seat === null || state.seat === undefined) {
      box.append(h("p", { class: "crew-hint", text: "This screen shows public knowledge only." }));
    }
    return box;
  }
  const list = h("ul", { class: "crew-hand", role: "list", "aria-label": "Your hand" });
  const focusAt =
    focused !== null && hand.includes(focused)
      ? focused
      : (hand.find((c) => legal.includes(`play ${c}`) || legal.includes(`give ${c}`)) ?? hand[0]);
  // is it this seat's play (or its card to pass on)? Then every card may be asked for
  const asking = legal.find((a) => a.startsWith("play ") || a.startsWith("give "))?.split(" ")[0];
  for (const card of hand) {
    // the card's action: play it, or (distress) pass it on to the neighbour
    const give = `give ${card}`;
    const giving = legal.includes(give);
    const play = giving ? give : `play ${card}`;
    const playable = legal.includes(play);
    const comms = legal.filter((a) => a === `comm ${card}` || a.startsWith(`comm ${card} `));
    const com = shown.get(card);
    const label = playable
      ? `${giving ? "Pass on" : "Play"} ${cardName(card)}${giving ? " (distress)" : ""}`
      : `${cardName(card)}${com ? ", communicated" : ""}, not playable now`;
    const btn = h(
      "button",
      {
        class: `crew-card-btn${playable ? " crew-legal" : ""}${com ? " crew-shown" : ""}`,
        type: "button",
        "data-card": card,
        "data-action": giving ? "give" : "play",
        "aria-label": label,
        "aria-disabled": playable && !pending ? null : "true",
        tabindex: card === focusAt ? "0" : "-1",
        onclick: () => {
          onFocus?.(card);
          // a card that cannot go now is still asked for when it is your play: Python says why
          if (!pending && (playable || asking)) onPlay?.(playable ? play : `${asking} ${card}`);
        },
        onfocus: () => onFocus?.(card, true),
      },
      cardFace(card, { label: cardName(card) }),
    );
    const li = h("li", { class: "crew-hand-item" }, btn);
    if (com) {
      li.append(
        h("span", {
          class: "crew-shown-note",
          title: `shown: ${positionText(card, com.position, state.communication)}`,
          text: `${POSITION_MARKS[com.position] ?? "?"} shown`,
        }),
      );
    }
    for (const a of comms) {
      const pos = a.split(" ")[2];
      li.append(
        h("button", {
          class: "dsa-btn dsa-btn-small crew-comm-btn",
          type: "button",
          "data-action": "comm",
          "data-card": card,
          "data-choice": a,
          "aria-label": `Communicate ${cardName(card)}${pos ? ` as ${positionText(card, pos, "normal")}` : ""}`,
          title: `Communicate ${cardName(card)} (C)`,
          disabled: pending,
          onclick: () => onComm?.(a),
          text: pos ? `Show ${POSITION_MARKS[pos] ?? pos}` : "Show",
        }),
      );
    }
    list.append(li);
  }
  box.append(list);
  return box;
}

/** The card the focus should sit on after a redraw: the same card if still there, else a neighbour. */
export function keepFocus(hand, focused, oldIndex) {
  const sorted = sortCards(hand);
  if (focused && sorted.includes(focused)) return focused;
  if (!sorted.length) return null;
  return sorted[Math.min(Math.max(0, oldIndex ?? 0), sorted.length - 1)];
}
