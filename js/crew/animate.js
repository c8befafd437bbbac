// The Crew's animations: a card played flies from where it was (your hand, Tonoja's column or
// the seat's panel) to its place in the trick, and a trick taken flies to its winner's panel.
// They run on the platform's Animator (js/animate.js), as Deep Sea's swims do: skipped by a
// click or a key, a new state or an intent; none with prefers-reduced-motion, none on a board's
// first drawing (a saved page, a reload) and none while the past is shown.
import { Animator } from "../animate.js";

const FLY_MS = 420;
const STAGGER_MS = 140;
const PAUSE_MS = 350;
const TAKE_MS = 520;

/** "trick:seat:card" of every play a state shows (the trick in progress and the last one). */
export function playKeys(st) {
  const keys = new Set();
  for (const t of [st?.trick, st?.last_trick]) {
    for (const p of t?.plays || []) keys.add(`${t.number}:${p.seat}:${p.card}`);
  }
  return keys;
}

/**
 * What moves from the state drawn before (`prev`) to `st`: the plays that are new, in the order
 * played, and the trick just taken ({number, winner}) or null. Nothing when the two states are
 * not one game going on (the first drawing, another mode, the past, an older state).
 */
export function movesBetween(prev, st) {
  const none = { plays: [], taken: null };
  if (!prev || !st || st.mode === "history" || prev.mode !== st.mode || !(st.seq > prev.seq)) return none;
  const seen = playKeys(prev);
  const plays = [];
  for (const t of [st.last_trick, st.trick]) {
    for (const p of t?.plays || []) {
      if (!seen.has(`${t.number}:${p.seat}:${p.card}`)) plays.push({ ...p, trick: t.number });
    }
  }
  const last = st.last_trick;
  const taken = last && last.number !== prev.last_trick?.number ? { number: last.number, winner: last.winner } : null;
  return { plays, taken };
}

/** The reader's setting, read at each move (it may change while the board is shown). */
const reducedMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
const rectOf = (el) => el?.getBoundingClientRect?.() ?? null;
const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];

/** One board's animator: plan() before a redraw (the old board is still on screen), run() after. */
export function createTrickAnimator() {
  const animator = new Animator();
  let prev = null; // the state drawn last

  /** Where each new play comes from, read off the board still on screen: [play, rect][]. */
  function plan(st, oldRoot) {
    const moves = movesBetween(prev, st);
    prev = st;
    animator.skip();
    if (!animator.enabled || reducedMotion() || !oldRoot || (!moves.plays.length && !moves.taken)) return null;
    const from = moves.plays.map((p) => {
      const sel = `[data-card="${p.card}"]`;
      const el =
        (p.seat === st.seat && oldRoot.querySelector(`.crew-hand ${sel}`)) ||
        (p.seat === st.dummy && oldRoot.querySelector(`.crew-dummy ${sel}`)) ||
        oldRoot.querySelector(`.crew-seat[data-seat="${p.seat}"] .crew-seat-head`);
      return [p, rectOf(el)];
    });
    return { from, taken: moves.taken };
  }

  /** Start the planned animations on the new board (`root`); returns how many started. */
  function run(todo, root) {
    if (!todo || !root) return 0;
    const board = root.querySelector(".crew-board");
    let n = 0;
    todo.from.forEach(([p, r], i) => {
      const card = root.querySelector(
        `.crew-trick .crew-play[data-seat="${p.seat}"][data-card="${p.card}"] .crew-card`,
      );
      const to = rectOf(card);
      if (!card?.animate || !r || !to) return;
      const [x0, y0] = centre(r);
      const [x1, y1] = centre(to);
      const frames = [
        { transform: `translate(${x0 - x1}px, ${y0 - y1}px) scale(0.8)`, opacity: 0.6 },
        { transform: "none", opacity: 1 },
      ];
      animator.track(
        card.animate(frames, { duration: FLY_MS, delay: i * STAGGER_MS, easing: "ease-out", fill: "backwards" }),
      );
      n += 1;
    });
    const t = todo.taken;
    const seat = t && root.querySelector(`.crew-seat[data-seat="${t.winner}"]`);
    const cards = t ? [...root.querySelectorAll(".crew-last-trick .crew-play .crew-card")] : [];
    if (board && seat?.getBoundingClientRect && cards.length && cards[0].animate) {
      // copies of the trick's cards fly to the winner's panel (the trick stays shown as the last one)
      const b = board.getBoundingClientRect();
      const [sx, sy] = centre(seat.getBoundingClientRect());
      const delay = Math.max(0, todo.from.length - 1) * STAGGER_MS + (todo.from.length ? FLY_MS : 0) + PAUSE_MS;
      for (const c of cards) {
        const r = c.getBoundingClientRect();
        const ghost = c.cloneNode(true);
        ghost.classList.add("crew-ghost");
        ghost.removeAttribute("role");
        ghost.setAttribute("aria-hidden", "true");
        Object.assign(ghost.style, { left: `${r.left - b.left}px`, top: `${r.top - b.top}px` });
        board.append(ghost);
        const [cx, cy] = centre(r);
        const anim = ghost.animate(
          [
            { transform: "none", opacity: 0 },
            { transform: "none", opacity: 1, offset: 0.05 },
            { transform: `translate(${sx - cx}px, ${sy - cy}px) scale(0.4)`, opacity: 0.2 },
          ],
          { duration: TAKE_MS, delay, easing: "ease-in", fill: "both" },
        );
        const drop = () => ghost.remove();
        anim.finished.then(drop, drop);
        animator.track(anim);
      }
      n += 1;
    }
    animator.count += n;
    return n;
  }

  return {
    plan,
    run,
    skip: () => animator.skip(),
    get count() {
      return animator.count;
    },
  };
}
