// The Crew: pure helpers on cards, actions and keys (no DOM), shared by the drawing modules and
// unit-tested under node (js/tests/crew-cards.test.mjs).

/** Suit letter -> its name and a symbol, so a card reads without colour: "P3 ●". */
export const SUITS = {
  P: { name: "pink", symbol: "●" },
  Y: { name: "yellow", symbol: "▲" },
  B: { name: "blue", symbol: "■" },
  G: { name: "green", symbol: "◆" },
  S: { name: "submarine", symbol: "⚓" },
};
export const SUIT_ORDER = ["P", "Y", "B", "G", "S"];

/** "P3" -> {suit: "P", rank: 3}, or null for anything that is not a card id. */
export function parseCard(id) {
  const m = /^([PYBGS])([1-9])$/.exec(String(id));
  if (!m) return null;
  const rank = Number(m[2]);
  if (m[1] === "S" && rank > 4) return null;
  return { suit: m[1], rank };
}

/** "pink 3", "submarine 4" (the words a screen reader says). */
export function cardName(id) {
  const c = parseCard(id);
  return c ? `${SUITS[c.suit].name} ${c.rank}` : String(id);
}

/** The canonical deck order (P1..P9 Y1..Y9 B1..B9 G1..G9 S1..S4) as a sort key. */
export function cardKey(id) {
  const c = parseCard(id);
  return c ? SUIT_ORDER.indexOf(c.suit) * 10 + c.rank : 999;
}

/** A hand sorted by suit, then rank (a new array). */
export function sortCards(cards) {
  return [...(cards || [])].sort((a, b) => cardKey(a) - cardKey(b));
}

/** Communication token positions and what they say. */
export const POSITION_WORDS = {
  top: "highest",
  middle: "only",
  bottom: "lowest",
};

/** "its highest pink" for a communicated card; under currents (middle, not known) the hint. */
export function positionText(card, position, communication) {
  const c = parseCard(card);
  const suit = c ? SUITS[c.suit].name : "";
  if (position === "unknown" || (communication === "currents" && (position === "middle" || !position))) {
    return `highest, lowest or only ${suit} (currents)`;
  }
  const w = POSITION_WORDS[position];
  return w ? `${w} ${suit}` : "position hidden";
}

/** "seat 2: take task 17" -> {verb, args}; parse an action string of the engine. */
export function parseAction(action) {
  const parts = String(action).trim().split(/\s+/);
  const verb = parts[0] || "";
  if (verb === "no" && parts[1] === "distress") return { verb: "no distress", args: [] };
  return { verb, args: parts.slice(1) };
}

const DIRECTION_WORDS = { cw: "clockwise", ccw: "counterclockwise" };

/** The seat's name in a state (players by seat). */
export function seatName(state, seat) {
  return state?.players?.[seat] ?? `seat ${seat}`;
}

/** Task summary by id, from the state's task list. */
function taskWords(state, id) {
  const t = (state?.tasks || []).find((x) => String(x.id) === String(id));
  return t ? `task ${id}: ${t.summary}` : `task ${id}`;
}

/**
 * Button words for one legal action: {text, aria, group}. `group` sorts the buttons into
 * the panels (play, comm, assign, distress, predict, other).
 */
export function actionLabel(action, state) {
  const { verb, args } = parseAction(action);
  const a0 = args[0];
  switch (verb) {
    case "play":
      return { text: `Play ${a0}`, aria: `Play ${cardName(a0)}`, group: "play" };
    case "comm": {
      const pos = args[1] ? ` as ${POSITION_WORDS[args[1]] || args[1]}` : "";
      return {
        text: `Communicate ${a0}${args[1] ? ` (${POSITION_WORDS[args[1]] || args[1]})` : ""}`,
        aria: `Communicate ${cardName(a0)}${pos}`,
        group: "comm",
      };
    }
    case "take":
      return { text: `Take task ${a0}`, aria: `Take ${taskWords(state, a0)}`, group: "assign" };
    case "pass":
      return { text: "Pass", aria: "Pass (take no task now, or do not communicate)", group: "other" };
    case "propose":
      return { text: "Propose", aria: "Propose this task distribution", group: "assign" };
    case "confirm":
      return { text: "Confirm", aria: "Confirm the proposed task distribution", group: "assign" };
    case "reject":
      return { text: "Reject", aria: "Reject the proposed task distribution", group: "assign" };
    case "keep":
      return { text: "Keep all tasks", aria: "Captain keeps every task", group: "assign" };
    case "give":
      if (/^\d+$/.test(a0 || "")) {
        return {
          text: `Give tasks to ${seatName(state, Number(a0))}`,
          aria: `Give every task to ${seatName(state, Number(a0))}`,
          group: "assign",
        };
      }
      return { text: `Pass on ${a0}`, aria: `Pass ${cardName(a0)} to your neighbour (distress)`, group: "distress" };
    case "accept":
      return { text: "Accept", aria: "Accept the tasks", group: "assign" };
    case "decline":
      return { text: "Decline", aria: "Decline the tasks", group: "assign" };
    case "yes":
      return { text: "Volunteer", aria: "Yes: volunteer for the tasks", group: "assign" };
    case "no":
      return { text: "Do not volunteer", aria: "No: do not volunteer", group: "assign" };
    case "distress":
      return {
        text: `Distress ${DIRECTION_WORDS[a0] || a0}`,
        aria: `Send the distress signal: pass one card ${DIRECTION_WORDS[a0] || a0}`,
        group: "distress",
      };
    case "no distress":
      return { text: "No distress", aria: "Do not send the distress signal", group: "distress" };
    case "agree":
      return { text: "Agree", aria: "Agree to the distress signal", group: "distress" };
    case "refuse":
      return { text: "Refuse", aria: "Refuse the distress signal", group: "distress" };
    case "predict":
      return { text: `Predict ${a0}`, aria: `Predict ${a0} trick${a0 === "1" ? "" : "s"}`, group: "predict" };
    case "untimed":
      return { text: "Play untimed", aria: "Play this mission without the clock", group: "other" };
    case "timed":
      return { text: "Play timed", aria: "Play this mission against the clock", group: "other" };
    case "timeout":
      return { text: "Time is up", aria: "The clock ran out", group: "hidden" };
    default:
      return { text: String(action), aria: String(action), group: "other" };
  }
}

/** Verbs that a single letter key stands for (when legal). */
const LETTER_KEYS = {
  p: ["pass"],
  a: ["agree", "accept", "confirm", "yes"],
  r: ["refuse", "reject", "decline", "no"],
  n: ["no distress"],
  k: ["keep"],
};

/**
 * The legal "take N" actions, in the order of `tasks` (the state's, as the board shows them)
 * when given: digit k takes the k-th of them, the k-th Take button on the screen.
 *
 *   takeActions(["take 2", "take 41"], [{ id: 41 }, { id: 2 }])  // ["take 41", "take 2"]
 */
export function takeActions(legal, tasks = null) {
  const takes = (legal || []).filter((a) => a.startsWith("take "));
  if (!tasks) return takes;
  // in the order the tasks are shown, so that the n-th Take button on the screen is key n
  // (the legal actions come by task number: #2 was key 1 though #41 was shown above it)
  const at = new Map(tasks.map((t, i) => [`take ${t.id}`, i]));
  const place = (a) => at.get(a) ?? tasks.length;
  return takes.slice().sort((a, b) => place(a) - place(b));
}

/** The legal "predict N" actions, by N. */
export function predictActions(legal) {
  return (legal || []).filter((a) => a.startsWith("predict "));
}

/**
 * What a key means now. ctx = {legal, focused (card id or null), hand (sorted ids), tasks (as
 * shown: the digits take them in that order)}.
 * Returns {kind: "intent", action} | {kind: "focus", index} | null.
 * - ArrowLeft/ArrowRight (also Up/Down): move along the hand (Home/End are the history's, js/keys.js);
 * - Enter: play the focused card (or pass it on, distress); C: communicate it (first legal position);
 * - digits 1-9: take the k-th task offered, or predict that number (0 too);
 * - P pass, A agree/accept/confirm/volunteer, R refuse/reject/decline/no, N no distress, K keep.
 */
export function keyIntent(key, ctx) {
  const legal = ctx.legal || [];
  const hand = ctx.hand || [];
  const i = ctx.focused === null || ctx.focused === undefined ? -1 : hand.indexOf(ctx.focused);
  if (hand.length && (key === "ArrowRight" || key === "ArrowDown")) {
    return { kind: "focus", index: i < 0 ? 0 : Math.min(hand.length - 1, i + 1) };
  }
  if (hand.length && (key === "ArrowLeft" || key === "ArrowUp")) {
    return { kind: "focus", index: i < 0 ? hand.length - 1 : Math.max(0, i - 1) };
  }
  if (key === "Enter" && ctx.focused) {
    const a = [`play ${ctx.focused}`, `give ${ctx.focused}`].find((x) => legal.includes(x));
    if (a) return { kind: "intent", action: a };
    // not playable: still asked for when it is this seat's play, so that Python says why
    const verb = legal.find((x) => x.startsWith("play ") || x.startsWith("give "))?.split(" ")[0];
    return verb ? { kind: "intent", action: `${verb} ${ctx.focused}` } : null;
  }
  const k = key.length === 1 ? key.toLowerCase() : key;
  if (k === "c" && ctx.focused) {
    const a = legal.find((x) => x === `comm ${ctx.focused}` || x.startsWith(`comm ${ctx.focused} `));
    return a ? { kind: "intent", action: a } : null;
  }
  if (/^[0-9]$/.test(k)) {
    const n = Number(k);
    const pred = `predict ${n}`;
    if (legal.includes(pred)) return { kind: "intent", action: pred };
    const takes = takeActions(legal, ctx.tasks);
    if (n >= 1 && n <= takes.length) return { kind: "intent", action: takes[n - 1] };
    return null;
  }
  for (const verb of LETTER_KEYS[k] || []) {
    if (legal.includes(verb)) return { kind: "intent", action: verb };
  }
  return null;
}

/** The seat whose card goes on the trick next (the engine's to_move is the captain for Tonoja). */
export function seatToPlay(state) {
  if (state?.step !== "play" || !state.trick || state.outcome) return null;
  const leader = state.trick.leader;
  if (leader === null || leader === undefined) return null;
  return (leader + (state.trick.plays || []).length) % state.seats;
}

/** True when the captain is choosing Tonoja's card (or Tonoja's task, in the fixture's shape). */
export function forTonoja(state) {
  const d = state?.dummy;
  if (d === null || d === undefined) return false;
  return state.to_move === d || seatToPlay(state) === d;
}

/** True when the screen's seat (the captain) is to play the dummy seat's card, not its own. */
export function forDummy(state) {
  const a = state?.acting_for;
  return a !== null && a !== undefined && a !== state.seat && (state.legal || []).some((x) => x.startsWith("play "));
}

/** Who acts for the seat to move: the captain plays for Tonoja (R-4.7). */
export function actorOf(state) {
  if (!state || state.to_move === null || state.to_move === undefined) return null;
  if (state.dummy !== null && state.dummy !== undefined && state.to_move === state.dummy) return state.captain;
  return state.to_move;
}

/** The task words of a status, readable without colour: symbol and word. */
export const STATUS_WORDS = {
  open: { symbol: "○", word: "open" },
  done: { symbol: "✓", word: "done" },
  failed: { symbol: "✗", word: "failed" },
};

/** "Ann to play", "Bob (crewmate bot) to take a task"... the live region's words. */
export function turnText(state) {
  if (!state?.players) return "";
  if (state.outcome) return outcomeHead(state);
  const actor = actorOf(state);
  if (actor === null) return "";
  const who = seatName(state, actor);
  const kind = state.kinds?.[actor];
  const bot = kind && kind !== "human" && kind !== "tonoja" ? ` (${kind} bot)` : "";
  const forT = forTonoja(state) ? " for Tonoja" : "";
  const step = STEP_WORDS[state.step] || state.step || "";
  return `${who}${bot}${forT}: ${step}`;
}

export const STEP_WORDS = {
  timing: "timed or untimed?",
  assign: "choose a task",
  assignment: "choose a task",
  propose: "propose who takes which task",
  confirm: "confirm the proposal",
  decide: "keep the tasks or give them to a player",
  accept: "accept or decline the tasks",
  volunteer: "volunteer for the tasks?",
  distress: "distress signal?",
  distress_vote: "agree to the distress signal?",
  distress_give: "choose a card to pass",
  predict: "predict a number of tricks",
  prediction: "predict a number of tricks",
  communicate: "communicate a card, or pass",
  comm: "communicate a card, or pass",
  play: "play a card",
  failure_vote: "was the failure unavoidable?",
  over: "the attempt is over",
};

/** How the mission ended: the headline (the header's words). */
export function outcomeHead(state) {
  const o = state?.outcome;
  if (!o) return "";
  return o.result === "success" ? "Mission accomplished" : "Mission failed";
}

/** The outcome line, said once on the board: Python's words (CrewPresenter's ending_words:
 * why, and at which trick), or built from the outcome. */
export function outcomeText(state) {
  const o = state.outcome;
  if (!o) return "";
  if (state.ending) return state.ending;
  const res = o.result === "success" ? "Mission accomplished" : "Mission failed";
  const at = o.trick ? ` after trick ${o.trick}` : "";
  const cause = o.cause ? `: ${o.cause}` : "";
  return `${res}${at}${cause}`;
}
