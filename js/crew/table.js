// The table: one card per seat (name, bot, captain marker, cards left, tricks won, sonar token,
// communicated cards with their token position, known voids), Tonoja's columns, the distress
// token, shared tokens (rapture), terrain. Names are always text, never HTML.
import { h } from "../dom.js";
import { botSaid } from "../said.js";
import { cardName, forDummy, forTonoja, positionText, SUITS, seatToPlay, sortCards } from "./cards.js";
import { cardFace } from "./hand.js";

const TOKEN_WORDS = { available: "◉ sonar token available", used: "◎ sonar token used" };

/** Tonoja's seven columns: the face-up card (playable by the captain when legal) over the face-down count. */
export function drawDummyColumns(state, { pending = false, onIntent } = {}) {
  const cols = state.dummy_columns || [];
  const legal = state.legal || [];
  const active = forDummy(state);
  const box = h("div", {
    class: `crew-dummy${active ? " crew-dummy-active" : ""}`,
    role: "list",
    "aria-label": active ? "Tonoja's columns: play one of the highlighted cards now" : "Tonoja's columns",
  });
  cols.forEach((col, i) => {
    const item = h("div", { class: "crew-dummy-col", role: "listitem", "data-column": i });
    if (col.up) {
      const play = `play ${col.up}`;
      if (legal.includes(play)) {
        item.append(
          h(
            "button",
            {
              class: "crew-card-btn crew-legal",
              type: "button",
              "data-card": col.up,
              "data-action": "play",
              "aria-label": `Play ${cardName(col.up)} for Tonoja`,
              disabled: pending,
              onclick: () => onIntent?.(play),
            },
            cardFace(col.up),
          ),
        );
      } else item.append(cardFace(col.up));
    } else item.append(h("span", { class: "crew-card crew-empty", text: "—", "aria-label": "no face-up card" }));
    item.append(
      h("span", {
        class: "crew-dummy-down",
        text: col.down ? `${col.down} face down` : "none below",
      }),
    );
    box.append(item);
  });
  return box;
}

/** The seats panel. opts: {pending, onIntent, help (bot name -> line)}. */
export function drawTable(state, opts = {}) {
  const { help = {} } = opts;
  const list = h("ul", { class: "crew-seats", "aria-label": "Seats" });
  for (let q = 0; q < (state.players || []).length; q++) {
    const name = state.players[q];
    const kind = state.kinds?.[q] ?? (q === state.dummy ? "tonoja" : "human");
    const toMove = !state.outcome && state.to_move === q;
    const li = h("li", {
      class: `crew-seat${toMove ? " crew-to-move" : ""}${q === state.seat ? " crew-you" : ""}`,
      "data-seat": q,
      "data-kind": kind,
    });
    const head = h("div", { class: "crew-seat-head" }, h("span", { class: "crew-seat-name", text: name }));
    if (q === state.captain)
      head.append(h("span", { class: "crew-captain", title: "Captain (holds S4)", text: "★ Captain" }));
    if (kind !== "human" && kind !== "tonoja") {
      head.append(h("span", { class: "crew-seat-kind", title: help[kind] || null, text: `${kind} bot` }));
    }
    if (q === state.dummy)
      head.append(h("span", { class: "crew-seat-kind", text: "dummy seat, played by the captain" }));
    if (q === state.seat) head.append(h("span", { class: "crew-seat-kind", text: "(you)" }));
    const next = seatToPlay(state);
    if (q === state.dummy && next === q) {
      head.append(h("span", { class: "crew-move-mark", text: "▶ plays next (the captain chooses)" }));
    } else if (toMove) {
      head.append(
        h("span", {
          class: "crew-move-mark",
          text: forTonoja(state) ? "▶ to move (for Tonoja)" : "▶ to move",
        }),
      );
    }
    li.append(head);
    const facts = [
      `${state.hand_counts?.[q] ?? "?"} card${state.hand_counts?.[q] === 1 ? "" : "s"}`,
      `${state.tricks_won?.[q] ?? 0} trick${state.tricks_won?.[q] === 1 ? "" : "s"} won`,
    ];
    const tok = state.tokens?.[q];
    if (tok) facts.push(TOKEN_WORDS[tok] || `token ${tok}`);
    li.append(h("div", { class: "crew-seat-facts", "data-token": tok ?? "none", text: facts.join(" · ") }));
    const voids = state.voids?.[q] || [];
    if (voids.length) {
      li.append(
        h("div", {
          class: "crew-seat-voids",
          text: `known void in: ${voids.map((s) => `${SUITS[s]?.name ?? s} (${s})`).join(", ")}`,
        }),
      );
    }
    const comms = (state.communicated || []).filter((c) => c.seat === q);
    if (comms.length) {
      const cbox = h("div", { class: "crew-comms", "aria-label": `${name}'s communicated cards` });
      for (const c of comms) {
        const words = positionText(c.card, c.position, state.communication);
        cbox.append(
          h(
            "span",
            {
              class: `crew-comm${c.played ? " crew-comm-played" : ""}`,
              "data-card": c.card,
              "data-position": c.position ?? "",
            },
            cardFace(c.card, { class: "crew-mini", label: `${cardName(c.card)}: ${words}` }),
            h("span", {
              class: `crew-token crew-token-${c.position || "hidden"}`,
              text: `${{ top: "▲ top", middle: "● middle", bottom: "▼ bottom" }[c.position] || "?"}: ${words}${c.trick ? `, before trick ${c.trick}` : ""}${c.played ? " (played)" : ""}`,
            }),
          ),
        );
      }
      li.append(cbox);
    }
    const seen = state.reveal_hands?.[String(q)];
    if (seen && q !== state.seat) {
      const rbox = h("div", { class: "crew-revealed", "aria-label": `${name}'s hand (teaching mode)` });
      rbox.append(h("span", { class: "crew-hint", text: "hand (teaching): " }));
      for (const c of sortCards(seen)) rbox.append(cardFace(c, { class: "crew-mini" }));
      li.append(rbox);
    }
    if (q === state.dummy && state.dummy_columns) li.append(drawDummyColumns(state, opts));
    const said = botSaid(state, q);
    if (said) li.append(said);
    list.append(li);
  }
  return list;
}

/** Distress token, shared tokens, communication mode and terrain: one line each. */
export function drawTableFacts(state) {
  const box = h("div", { class: "crew-facts" });
  const d = state.distress;
  if (d) {
    let text = d.used ? "Distress token: used" : "Distress token: unused";
    if (d.direction) text += ` (${d.direction === "cw" ? "clockwise" : "counterclockwise"})`;
    if (d.given) text += ` · you passed ${cardName(d.given)}`;
    if (d.received) text += ` · you received ${cardName(d.received)}`;
    if (!d.available && !d.used) text = "Distress signal: not available";
    box.append(h("p", { class: "crew-distress", "data-used": d.used ? "1" : "0", text }));
  }
  const mode = state.communication || "normal";
  const modeWords = {
    normal: "normal",
    currents: "currents (every token in the middle)",
    rapture: "rapture of the deep (shared tokens)",
    terrain: "unknown terrain",
    none: "no communication",
  };
  let comm = `Communication: ${modeWords[mode] || mode}`;
  if (state.shared_tokens !== null && state.shared_tokens !== undefined)
    comm += ` · shared tokens left: ${state.shared_tokens}`;
  box.append(h("p", { class: "crew-comm-mode", text: comm }));
  if (state.terrain) {
    const t = typeof state.terrain === "object" ? state.terrain : { card: state.terrain };
    box.append(
      h("p", {
        class: "crew-terrain",
        text: `Terrain card: ${t.card ? cardName(t.card) : "?"}${t.mode ? ` → ${t.mode}` : ""}`,
      }),
    );
  }
  if (state.attempt) box.append(h("p", { class: "crew-attempt", text: `Attempt ${state.attempt}` }));
  return box;
}
