// Names on the Submarine board: colours K1..K5, tiles T01K1..T12K5, shells SHK1..SHK5.
// A colour is always shown with a letter and a symbol too, never by colour alone.

export const COLOURS = {
  K1: { name: "red", letter: "R", symbol: "●" },
  K2: { name: "yellow", letter: "Y", symbol: "▲" },
  K3: { name: "green", letter: "G", symbol: "■" },
  K4: { name: "blue", letter: "B", symbol: "◆" },
  K5: { name: "purple", letter: "P", symbol: "★" },
};

/** {kind: "treasure"|"shell", type, colour} for a tile name. */
export function parseTile(name) {
  const n = String(name);
  if (n.startsWith("SH")) return { kind: "shell", type: null, colour: n.slice(2) };
  return { kind: "treasure", type: Number(n.slice(1, 3)), colour: n.slice(3) };
}

/** A short text for a colour: "R●". */
export function colourMark(c) {
  const k = COLOURS[c];
  return k ? `${k.letter}${k.symbol}` : String(c);
}

/** The words for a tile, as dsa_widget/submarine/words.py says them: "yellow treasure 6". */
export function tileWords(name) {
  const t = parseTile(name);
  const col = COLOURS[t.colour]?.name ?? "unknown";
  return t.kind === "shell" ? `${col} shell` : `${col} treasure ${t.type}`;
}

/** The short label on a tile: "6 Y▲" or "S Y▲". */
export function tileLabel(name) {
  const t = parseTile(name);
  return `${t.kind === "shell" ? "S" : t.type} ${colourMark(t.colour)}`;
}
