// The game's history: compact frames synced by Python (traits `history` + `history_tail`),
// decoded here into board states. Works with no kernel (a static HTML page).
// Same decoding as dsa_widget.sync.expand_frames (a test checks they agree).

/** The chunks of frames: the completed rounds', then the current round's (if any). */
const chunksOf = (history, tail) => [...(history?.chunks || []), ...(tail?.frames ? [tail] : [])];

/** How many frames expandFrames(history, tail) gives, without decoding them. */
export function frameCount(history, tail) {
  let n = 0;
  for (const ch of chunksOf(history, tail)) n += (ch.frames || []).length;
  return n;
}

/** Frames as board states: {turn, round, air, current, step, over, winners, path, divers, banked, scores, last_turn}. */
export function expandFrames(history, tail) {
  const out = [];
  for (const ch of chunksOf(history, tail)) {
    let path = [];
    let divers = [];
    let bank = [[], []];
    for (const f of ch.frames || []) {
      if (f.P) path = f.P.slice();
      for (const [i, x] of f.pd || []) path[i] = x;
      if (f.D) divers = f.D.slice();
      for (const [q, d] of f.dd || []) divers[q] = d;
      if (f.B) bank = f.B;
      out.push({
        turn: f.k,
        round: f.r,
        air: f.a,
        current: f.c,
        step: f.s,
        over: !!f.o,
        winners: f.w || [],
        path: path.slice(),
        divers: divers.map((d) => ({ pos: d[0], up: !!d[1], home: !!d[2], items: d[3] })),
        banked: bank[0],
        scores: bank[1],
        last_turn: f.t || null,
      });
    }
  }
  return out;
}

/** A frame as a full state the board and player cards can draw (names etc. from the live state). */
export function frameState(frame, live) {
  return {
    ...live,
    ...frame,
    legal: [],
    must_turn_back: false,
    events: [],
    log: [],
    log_total: 0,
    mode: "history",
    seq: live.seq,
  };
}

const SEARCH_WORDS = { none: "did nothing", take: "took the treasure" };

/** "Ann kept diving, rolled 2+3, took the treasure" for a frame's last turn. */
export function turnText(frame, players) {
  const t = frame.last_turn;
  if (!t) return "the start of the game";
  const [seat, back, dice, search] = t;
  const who = players[seat] ?? `Player ${seat + 1}`;
  const m = /^drop (\d+)$/.exec(search);
  const what = m ? `put down item ${Number(m[1]) + 1}` : SEARCH_WORDS[search] || search;
  const parts = [back ? "turned back" : null, dice.length ? `rolled ${dice.join("+")}` : null, what].filter(Boolean);
  return `${who} ${parts.join(", ")}`;
}

/** Denominators up to this are shown as fractions; beyond it, as a precise percentage (see fracTitle). */
const READABLE_DEN = 10_000_000;

/** True when [num, den] is too long to read as a fraction (Python sends such numbers as strings). */
export function bigFrac(num, den) {
  return typeof num !== "number" || typeof den !== "number" || den > READABLE_DEN;
}

/** num/den as a percentage from exact integers (strings or numbers), and 100 minus it, each to
 * full float precision even when tiny. */
function bigPct(num, den) {
  const n = BigInt(num),
    d = BigInt(den);
  const pct = (x) => {
    if (x <= 0n) return 0;
    const q = (x * 10n ** 16n) / d; // the percentage in units of 1e-14 %
    return q === 0n ? 1e-15 : Number(q) / 1e14; // below that (never shown): tiny, but not 0
  };
  return [pct(n), pct(d - n)];
}

/** A percentage with enough decimals to tell it from 0% and 100% (two significant digits there);
 * ``rest`` is 100 minus it, exactly (for numbers very close to 100%). */
export function precisePct(p, rest = 100 - p) {
  if (p <= 0) return "0%";
  if (rest <= 0) return "100%";
  const edge = Math.min(p, rest);
  if (edge < 1e-12) return p < 50 ? "<0.000000000001%" : ">99.999999999999%";
  const dec = edge >= 0.1 ? 1 : Math.ceil(-Math.log10(edge)) + 1;
  return `${p < 50 ? p.toFixed(dec) : (100 - rest).toFixed(dec)}%`;
}

/** "1/3 · 33%" for [num, den]; a long fraction reads "≈ 99.99931%" (its exact value: fracTitle). */
export function fracText(num, den) {
  if (bigFrac(num, den)) return `≈ ${precisePct(...bigPct(num, den))}`;
  const pct = (100 * num) / den;
  const p = pct > 0 && pct < 1 ? "<1%" : pct < 100 && pct > 99 ? ">99%" : `${Math.round(pct)}%`;
  // one style for every chance: the percentage, then the exact fraction when it is not whole
  return den === 1 || Number(num) === 0 ? p : `${p} (${num}/${den})`;
}

/** The exact fraction, for a tooltip when fracText had to round it. */
export function fracTitle(num, den) {
  return bigFrac(num, den) ? `exactly ${num}/${den}` : null;
}
