// Pure helpers on the synced state (no DOM): names, colours, words.

export const PLAYER_COLORS = ["#e0523f", "#3f7fd9", "#2fa86b", "#e6a000", "#9b59b6", "#16a5a5"];
export const LEVEL_NAMES = { 1: "level-1", 2: "level-2", 3: "level-3", 4: "level-4" };
export const SHAPES = { 1: "triangle", 2: "square", 3: "pentagon", 4: "hexagon" };

export const color = (seat) => PLAYER_COLORS[seat % PLAYER_COLORS.length];
/** A player named "You" (the example notebooks' human seat) reads in the second person. */
export const isYou = (name) => String(name).trim().toLowerCase() === "you";
/** "Ann gets" / "You get": the name and the verb that agrees with it. */
export const subj = (name, third, base) => `${name} ${isYou(name) ? base : third}`;
/** "Ann's" / "your". */
export const poss = (name) => (isYou(name) ? "your" : `${name}'s`);
/** "Ann" / "you" (as an object). */
export const obj = (name) => (isYou(name) ? "you" : name);

/** How a game ended, one wording for every game: "Game over: Ann wins.", "Game over: You win.",
 * "Game over: Ann and Bob win.", or "Game over." when nobody won. */
export function gameOverText(st) {
  const w = (st.winners || []).map((q) => st.players[q]);
  if (!w.length) return "Game over.";
  return `Game over: ${w.join(" and ")} ${w.length > 1 || isYou(w[0]) ? "win" : "wins"}.`;
}

/** Each seat's letter, drawn on its diver and its card: identity not by colour alone. */
export const letter = (seat) => "ABCDEF"[seat % 6];

/** A chip is [level] (value hidden) or [level, value]. */
export const chipText = (c) => (c.length > 1 ? `${LEVEL_NAMES[c[0]]} chip worth ${c[1]}` : `${LEVEL_NAMES[c[0]]} chip`);

export function itemText(item) {
  if (item.length === 1) return chipText(item[0]);
  return `stack of ${item.length} (levels ${item.map((c) => c[0]).join("+")})`;
}

export function isBot(state, seat) {
  return seat !== null && seat !== undefined && state.seats[seat] !== "human";
}

export const STEP_WORDS = {
  turn_back: "turn back or keep diving?",
  roll: "roll the dice",
  search: "search the space",
  sink: "drowning — choose the order your chips sink in",
  over: "game over",
};

/** The current diver's chips in pickup order, stacks broken into their chips (the sink step's numbering). */
export function chipsOf(state, q) {
  const d = state.divers[q];
  return d ? d.items.flat() : [];
}

export function choiceLabel(choice, state) {
  if (choice === "back") return { text: "Turn back", key: "B", aria: "Turn back toward the submarine" };
  if (choice === "continue") return { text: "Keep diving", key: "C", aria: "Keep diving down" };
  if (choice === "roll") {
    const aria = state.must_turn_back ? "Roll the dice (you must turn back)" : "Roll the dice and swim";
    return { text: "Roll", key: "R", aria };
  }
  if (choice === "take") {
    const d = state.divers[state.current];
    const space = d ? state.path[d.pos - 1] : null;
    const what = space ? itemText(space) : "the treasure";
    return { text: "Take", key: "T", aria: `Take the ${what}` };
  }
  if (choice === "none") return { text: "Do nothing", key: "N", aria: "Do nothing this turn" };
  const m = /^drop (\d+)$/.exec(choice);
  if (m) {
    const i = Number(m[1]);
    const d = state.divers[state.current];
    const item = d?.items[i];
    const what = item ? itemText(item) : `item ${i + 1}`;
    // which chip: its level (a stack's levels) and its place in the load
    const short = item ? (item.length === 1 ? `level ${item[0][0]}` : `stack ${item.map((c) => c[0]).join("+")}`) : "";
    return {
      text: `Put down ${i + 1}${short ? `: ${short}` : ""}`,
      key: i < 9 ? String(i + 1) : "",
      aria: `Put down item ${i + 1}: the ${what}`,
    };
  }
  if (choice === "lay all") {
    return { text: "Keep this order", key: "L", aria: "Lay the remaining chips in the order you picked them up" };
  }
  const lay = /^lay (\d+)$/.exec(choice);
  if (lay) {
    const i = Number(lay[1]);
    const chip = chipsOf(state, state.current)[i];
    const what = chip ? chipText(chip) : `chip ${i + 1}`;
    return {
      text: `Lay ${i + 1}: level ${chip ? chip[0] : "?"}`,
      key: i < 9 ? String(i + 1) : "",
      aria: `Lay chip ${i + 1} next: the ${what}`,
    };
  }
  return { text: choice, key: "", aria: choice };
}

/** Deep Sea Adventure's own keys (the common ones, history, what-if, bots, are js/keys.js's). */
const CHOICE_HELP =
  "Game keys: R/Space roll · T take · N do nothing · B turn back · C keep diving · 1–9 put down (or lay) · " +
  "L keep the order";
export const GAME_HELP = `${CHOICE_HELP} · D roll the chosen dice (what-if) · H hints`;
/** At a served table: no what-if and no hints there, so only the choices' keys. */
export const SERVED_GAME_HELP = CHOICE_HELP;
export const SERVED_GAME_ARIA = "R Space T N B C L 1 2 3 4 5 6 7 8 9";
export const GAME_ARIA = `${SERVED_GAME_ARIA} D H`;

/** The choice a key stands for, if legal. */
export function choiceForKey(key, legal) {
  const k = key.toLowerCase();
  const map = { b: "back", c: "continue", r: "roll", " ": "roll", t: "take", n: "none", l: "lay all" };
  if (/^[1-9]$/.test(k)) {
    const i = Number(k) - 1;
    return [`drop ${i}`, `lay ${i}`].find((c) => legal.includes(c)) ?? null;
  }
  const choice = map[k];
  return choice && legal.includes(choice) ? choice : null;
}

export function statusText(state) {
  const p = state.players;
  if (state.over) {
    // Deep Sea alone can end with its winner unknown to this seat (the scores hidden)
    if (!state.winners.length) return "Game over: the winner depends on values still hidden.";
    return gameOverText(state);
  }
  const who = p[state.current];
  const bot = isBot(state, state.current) ? ` (${state.seats[state.current]} bot)` : "";
  return `${who}${bot}: ${STEP_WORDS[state.step] || state.step}`;
}

export function diverStatus(state, q) {
  const d = state.divers[q];
  if (state.over) return "";
  if (d.home) return "back in the submarine";
  if (d.pos === 0) return "in the submarine";
  return `space ${d.pos}, heading ${d.up ? "up" : "down"}`;
}
