// Chances in words: exact fractions and percentages that never round to 0% or 100% wrongly
// (the hints overlay and the lessons' figures).

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
