// Chances in words: exact fractions and percentages that never round to 0% or 100% wrongly
// (the hints overlay and the lessons' figures).

/** Denominators up to this are shown beside their percentage ("33% (1/3)"); a longer fraction is
 * not read at a glance, so it goes to the tooltip (fracTitle) and the board shows the percentage. */
const READABLE_DEN = 1000;

/** True when [num, den] is too long to read as a fraction (Python sends big numbers as strings). */
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

/** A percentage as a person reads it on the board: whole percents, and near 0% and 100% one
 * significant digit of the distance to the edge, down to 0.01% ("0.5%", "99.95%", ">99.99%").
 * Never rounds a chance to 0% or 100% that is not; ``rest`` is 100 minus it, exactly. */
export function friendlyPct(p, rest = 100 - p) {
  if (p <= 0) return "0%";
  if (rest <= 0) return "100%";
  if (p < 0.01) return "<0.01%";
  if (rest < 0.01) return ">99.99%";
  const edge = Math.min(p, rest);
  if (edge >= 1) return `${Math.round(p)}%`;
  const r = Number(edge.toPrecision(1));
  const dec = Math.max(0, -Math.floor(Math.log10(r)));
  return `${(p < 50 ? r : 100 - r).toFixed(dec)}%`;
}

/** A percentage with enough decimals to tell it from 0% and 100% (two significant digits there);
 * ``rest`` is 100 minus it, exactly (for numbers very close to 100%).  For tooltips and lessons,
 * where the digits are the point; the board itself shows friendlyPct. */
export function precisePct(p, rest = 100 - p) {
  if (p <= 0) return "0%";
  if (rest <= 0) return "100%";
  const edge = Math.min(p, rest);
  if (edge < 1e-12) return p < 50 ? "<0.000000000001%" : ">99.999999999999%";
  const dec = edge >= 0.1 ? 1 : Math.ceil(-Math.log10(edge)) + 1;
  return `${p < 50 ? p.toFixed(dec) : (100 - rest).toFixed(dec)}%`;
}

/** "33% (1/3)" for [num, den]; a long fraction reads "98%" and its exact value is in fracTitle. */
export function fracText(num, den) {
  const pct = friendlyPct(...bigPct(num, den));
  // one style for every chance: the percentage, then the fraction when it is short and not whole
  return bigFrac(num, den) || Number(den) === 1 || Number(num) === 0 ? pct : `${pct} (${num}/${den})`;
}

/** The exact fraction and a precise percentage, for a tooltip when fracText left them out. */
export function fracTitle(num, den) {
  return bigFrac(num, den) ? `exactly ${num}/${den} (${precisePct(...bigPct(num, den))})` : null;
}
