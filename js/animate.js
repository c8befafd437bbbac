// Short, skippable animations driven by the engine's event log.

import { diverXY } from "./board.js";
import { h } from "./dom.js";

const reduced = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

export class Animator {
  constructor() {
    this.running = new Set();
    this.enabled = !reduced();
    this.count = 0; // moves animated so far (tests read it from data-animations)
  }
  skip() {
    for (const a of this.running) {
      try {
        a.finish();
      } catch {
        /* already done */
      }
    }
    this.running.clear();
  }
  track(anim) {
    this.running.add(anim);
    anim.finished.then(
      () => this.running.delete(anim),
      () => this.running.delete(anim),
    );
  }
  /** Animate each diver's last move of `events` along the spaces he swam through. */
  moves(svg, events, cols) {
    if (!this.enabled || !events.length || !svg.animate) return;
    const last = new Map();
    for (const e of events) if (e.type === "move" && e.from !== e.to) last.set(e.seat, e);
    for (const [seat, e] of last) {
      const g = svg.querySelector(`.dsa-diver[data-seat="${seat}"]`);
      if (!g?.animate) continue;
      const stops = [e.from, ...e.spaces];
      // the diver's pos on the board may already be later (round end): only animate if it matches
      if (Number(g.dataset.pos) !== e.to && !(e.home && Number(g.dataset.pos) === 0)) continue;
      const frames = stops.map((p) => {
        const [x, y] = diverXY(p, seat, cols);
        return { transform: `translate(${x}px, ${y}px)` };
      });
      const duration = Math.min(700, 110 * (stops.length - 1) + 60);
      this.track(g.animate(frames, { duration, easing: "ease-in-out" }));
      this.count += 1;
    }
  }
}

const PIPS = {
  1: [[12, 12]],
  2: [
    [7, 7],
    [17, 17],
  ],
  3: [
    [6, 6],
    [12, 12],
    [18, 18],
  ],
};

/** Two dice showing the last roll of `events` (or nothing). */
export function drawDice(events, animator) {
  const roll = [...events].reverse().find((e) => e.type === "roll");
  if (!roll) return null;
  const box = h("span", {
    class: "dsa-dice",
    role: "img",
    "aria-label":
      roll.steps === undefined
        ? `Dice: ${roll.dice[0]} and ${roll.dice[1]}`
        : `Dice: ${roll.dice[0]} and ${roll.dice[1]}, ${roll.steps} spaces`,
    "data-dice": roll.dice.join(","),
  });
  for (const d of roll.dice) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("class", "dsa-die");
    const r = document.createElementNS(svg.namespaceURI, "rect");
    for (const [k, v] of Object.entries({ x: 1, y: 1, width: 22, height: 22, rx: 5, class: "dsa-die-face" }))
      r.setAttribute(k, v);
    svg.append(r);
    for (const [cx, cy] of PIPS[d] || []) {
      const c = document.createElementNS(svg.namespaceURI, "circle");
      c.setAttribute("cx", cx);
      c.setAttribute("cy", cy);
      c.setAttribute("r", 2.4);
      c.setAttribute("class", "dsa-pip");
      svg.append(c);
    }
    if (animator?.enabled && svg.animate) {
      animator.track(
        svg.animate(
          [
            { transform: "rotate(-40deg) scale(0.6)" },
            { transform: "rotate(15deg) scale(1.1)" },
            { transform: "none" },
          ],
          { duration: 260, easing: "ease-out" },
        ),
      );
    }
    box.append(svg);
  }
  box.append(h("span", { class: "dsa-dice-sum", text: `= ${roll.dice[0] + roll.dice[1]}` }));
  return box;
}
