// Live probability overlays for the player to move: where each choice lands, the chance of
// getting home, the air forecast. Numbers come from Python (exact fractions); drawn here.

import { MARGIN, spaceXY, TOP } from "./board.js";
import { h, s } from "./dom.js";
import { fracText, fracTitle, friendlyPct, precisePct } from "./fractions.js";
import { obj, poss, subj } from "./model.js";

const CHOICE_WORDS = { back: "turn back", continue: "keep diving", roll: "roll", take: "take", none: "do nothing" };
export const choiceWords = (c) =>
  CHOICE_WORDS[c] || (/^drop (\d+)$/.test(c) ? `put down item ${Number(c.slice(5)) + 1}` : c);

/** Shade the spaces where `choice` may land, with a % label on each; returns an SVG group. */
export function drawLanding(ov, choice, cols) {
  const g = s("g", { class: "dsa-ov-landing", "data-choice": choice, "aria-hidden": "true" });
  const dist = ov.landing?.[choice] || [];
  for (const [pos, num, den] of dist) {
    const p = num / den;
    const pct = `${Math.round(100 * p)}%`;
    if (pos === 0) {
      g.append(
        s("text", {
          x: MARGIN + 30,
          y: TOP + 76,
          class: "dsa-ov-label",
          "text-anchor": "middle",
          "data-pos": 0,
          text: `home ${pct}`,
        }),
      );
      continue;
    }
    const [x, y] = spaceXY(pos, cols);
    g.append(
      s("circle", {
        cx: x,
        cy: y,
        r: 21,
        class: "dsa-ov-shade",
        "data-pos": pos,
        style: { fillOpacity: String(0.15 + 0.6 * p) },
      }),
      s("text", { x, y: y + 21, class: "dsa-ov-label", "text-anchor": "middle", "data-pos": pos, text: pct }),
    );
  }
  return g;
}

/**
 * The hints panel: a switch, a choice picker for the landing shading and the numbers.
 * hints: on/off; ov: the overlay for this state (or null); onHints(bool), onPick(choice).
 */
/** "≈ 98%" for a figure summed in floating point; "<0.01%" and ">99.99%" already say they are bounds. */
const approx = (pct) => (/^[<>]/.test(pct) ? pct : `≈ ${pct}`);

export function drawHints(st, ov, { hints, picked, folded = false, onHints, onPick, onFold = () => {} }) {
  const box = h("div", { class: "dsa-hints", role: "region", "aria-label": "Probability hints" });
  const toggle = h("input", { type: "checkbox", class: "dsa-hints-toggle", checked: hints, "aria-keyshortcuts": "H" });
  toggle.addEventListener("change", () => onHints(toggle.checked));
  box.append(
    h(
      "label",
      { class: "dsa-hints-switch", title: "Show or hide the probability hints (H)" },
      toggle,
      " Hints ",
      h("kbd", { text: "H" }),
    ),
  );
  if (!hints) return box;
  // the panel folds to this line and unfolds again (the board's shading stays)
  box.append(
    h("button", {
      class: "dsa-btn dsa-btn-small dsa-hints-fold",
      "data-action": "fold-hints",
      "aria-expanded": folded ? "false" : "true",
      title: folded ? "Show the hints' figures" : "Fold the hints panel",
      // a screen reader says the words, not the arrow glyph
      "aria-label": folded ? "Show the hints' figures" : "Fold the hints panel",
      onclick: () => onFold(!folded),
      text: folded ? "▸ show" : "▾ fold",
    }),
  );
  if (folded) return box;
  if (!ov || ov.seq !== st.seq) {
    box.append(h("span", { class: "dsa-hint dsa-hint-computing", text: st.over ? "" : "computing…" }));
    return box;
  }
  if (ov.warming) {
    // the first figures in a fresh Python compile first: said, not waited on in silence
    box.append(h("span", { class: "dsa-hint dsa-hint-computing dsa-hint-warming", text: ov.warming }));
    return box;
  }
  if (ov.seat === null || ov.seat === undefined) {
    box.append(h("span", { class: "dsa-hint dsa-hint-computing" })); // the panel keeps its height
    return box;
  }
  const who = st.players[ov.seat];
  const list = h("dl", { class: "dsa-hint-list" });
  // the figures first (getting home, then where the dice land, the air, the load), each
  // assumption right under its figure: the panel has a fixed height and scrolls
  const landingPart = [];
  const landing = ov.landing || {};
  const choices = Object.keys(landing);
  if (choices.length) {
    const picker = h("span", { class: "dsa-ov-pick", role: "radiogroup", "aria-label": "Shade the landing spaces of" });
    for (const c of choices) {
      picker.append(
        h("button", {
          class: `dsa-btn dsa-btn-small${c === picked ? " dsa-on" : ""}`,
          role: "radio",
          "aria-checked": c === picked ? "true" : "false",
          "data-ov-choice": c,
          onclick: () => onPick(c),
          text: choiceWords(c),
        }),
      );
    }
    landingPart.push(h("dt", { text: `Where ${subj(who, "lands", "land")}` }), h("dd", {}, picker));
    for (const c of choices) {
      const dd = h("dd", { class: "dsa-ov-dist", "data-ov-landing": c });
      dd.append(h("span", { class: "dsa-ov-choice", text: `${choiceWords(c)}: ` }));
      landing[c].forEach(([pos, num, den], i) => {
        dd.append(
          h("span", {
            class: "dsa-ov-cell",
            "data-pos": pos,
            "data-num": num,
            "data-den": den,
            title: fracTitle(num, den),
            text: `${i ? " · " : ""}${pos === 0 ? "submarine" : `space ${pos}`}: ${fracText(num, den)}`,
          }),
        );
      });
      landingPart.push(dd);
    }
  }
  const home = ov.home;
  list.append(h("dt", {}, `${subj(who, "gets", "get")} back to the submarine`));
  if (home) {
    const dd = h("dd", { class: "dsa-ov-home", title: ov.home_assumption || "" });
    Object.entries(home).forEach(([c, v], i) => {
      const sep = i ? " · " : "";
      if (!v) {
        const fl = ov.home_float?.[c];
        if (fl) {
          // the exact DP summed in floating point: [chance, 1 - chance] (1 - chance kept apart
          // so that a figure near 100% shows its digits)
          dd.append(
            h("span", {
              class: "dsa-ov-cell dsa-ov-float",
              "data-home": c,
              "data-float": fl[0],
              title: `≈ ${precisePct(100 * fl[0], 100 * fl[1])}${ov.home_float_note ? `: ${ov.home_float_note}` : ""}`,
              text: `${sep}${choiceWords(c)}: ${approx(friendlyPct(100 * fl[0], 100 * fl[1]))}`,
            }),
          );
          return;
        }
        const est = ov.home_est?.[c];
        if (est) {
          const pct = (x) => `${Math.round(100 * x)}%`;
          dd.append(
            h("span", {
              class: "dsa-ov-cell dsa-ov-est",
              "data-home": c,
              "data-est": est[0],
              text:
                `${sep}${choiceWords(c)}: ≈ ${pct(est[0])} (estimate from ${Number(est[3]).toLocaleString("en-US")} playouts; ` +
                `95% interval ${pct(est[1])}–${pct(est[2])})`,
            }),
          );
          return;
        }
        dd.append(h("span", { class: "dsa-ov-cell dsa-ov-none", "data-home": c, text: `${sep}${choiceWords(c)}: —` }));
        return;
      }
      const [num, den] = v;
      // an exact figure that replaced an estimate once computed beside the kernel: marked
      const later = (ov.home_later || []).includes(c);
      dd.append(
        h("span", {
          class: `dsa-ov-cell${later ? " dsa-ov-later" : ""}`,
          "data-home": c,
          "data-num": num,
          "data-den": den,
          "data-later": later ? "1" : null,
          title: later
            ? `exact, computed after the estimate${fracTitle(num, den) ? `: ${fracTitle(num, den)}` : ""}`
            : fracTitle(num, den),
          text: `${sep}${choiceWords(c)}: ${fracText(num, den)}`,
        }),
      );
    });
    list.append(dd);
    if (ov.home_float && ov.home_float_note)
      list.append(h("dd", { class: "dsa-hint dsa-ov-float-note", text: `≈ ${ov.home_float_note}` }));
    if (ov.home_note) list.append(h("dd", { class: "dsa-hint", text: ov.home_note }));
    if (ov.refining)
      list.append(
        h("dd", { class: "dsa-hint dsa-ov-refining", text: "the exact figure is being computed and will replace it" }),
      );
    else if (ov.home_later?.length)
      list.append(h("dd", { class: "dsa-hint dsa-ov-later-note", text: "exact now (computed after the estimate)" }));
  } else {
    list.append(h("dd", { class: "dsa-hint", text: ov.home_note || "not available" }));
  }
  // the assumption is part of the figure: said in the visible text, not only in a tooltip
  if (ov.home_assumption) list.append(h("dd", { class: "dsa-hint dsa-ov-assume", text: ov.home_assumption }));
  list.append(...landingPart);
  const a = ov.air;
  if (a) {
    const plural = (k, w) => `${k} ${w}${k === 1 ? "" : "s"}`;
    // a turn starts with the diver's breath (RULES.md): the figures are after it
    const after = a.after ?? a.now;
    const cur = after !== a.now ? `${after} after ${poss(who)} breath of ${a.mine}` : `${after} now`;
    let txt;
    if (a.turns_left === 0) txt = `${cur}: this is ${poss(who)} last turn of the round`;
    else if (!a.per_round) txt = `${cur}; nobody in the water carries anything: it stays`;
    else
      txt =
        `${cur}; the others breathe ${a.others} before ${poss(who)} next turn → ${a.next} as it starts; ` +
        `${plural(a.turns_left, "more turn")} for ${obj(who)} after this one`;
    list.append(
      h("dt", {}, "Air forecast"),
      h("dd", { class: "dsa-hint dsa-ov-assume", text: a.note }),
      h("dd", {
        class: "dsa-ov-air",
        "data-next": a.next ?? "",
        "data-turns": a.turns_left ?? "",
        title: a.note,
        text: txt,
      }),
    );
  }
  if (ov.carry) {
    const [num, den] = ov.carry;
    list.append(
      h("dt", { text: `${subj(who, "carries", "carry")}, on average` }),
      h("dd", {
        class: "dsa-ov-carry",
        "data-num": num,
        "data-den": den,
        title: fracTitle(num, den),
        // points as points, in the hints' one style: the decimal, then the exact fraction
        text: fracTitle(num, den)
          ? `≈ ${(Number((BigInt(num) * 200n + BigInt(den)) / (2n * BigInt(den))) / 100).toFixed(2)} points`
          : den === 1
            ? `${num} point${Number(num) === 1 ? "" : "s"}`
            : `≈ ${(num / den).toFixed(2)} points (${num}/${den})`,
      }),
    );
  }
  box.append(list);
  return box;
}
