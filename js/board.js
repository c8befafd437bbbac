// The board as SVG, drawn from the synced state only.
import { s } from "./dom.js";
import { color, itemText, letter, subj } from "./model.js";

// Spaces per row: 8 (a level per row on the standard path); fewer in a narrow cell.
export const COLS = 8;
export const CELL = 46;
export const MARGIN = 10;
export const SUB_W = 74;
export const TOP = 40;
/** How far right of its space's centre a diver stands (clear of the space's number). */
const DIVER_DX = 5;

/** Centre of path space i (1-based), snaking in rows of 8 like the real board. */
export function spaceXY(i, cols = COLS) {
  const k = i - 1;
  const row = Math.floor(k / cols);
  let col = k % cols;
  if (row % 2) col = cols - 1 - col;
  return [MARGIN + SUB_W + col * CELL + CELL / 2, TOP + row * CELL + CELL / 2];
}

/** Where diver `seat` stands when at position `pos` (0 = submarine). */
export function diverXY(pos, seat, cols = COLS) {
  if (pos === 0) {
    const cols = 3;
    return [MARGIN + 12 + (seat % cols) * 17, TOP + 44 + Math.floor(seat / cols) * 14];
  }
  // a little right of the space's centre, so the space's number (top left) stays readable
  const [x, y] = spaceXY(pos, cols);
  return [x + DIVER_DX, y - 13];
}

export function polygonPoints(level, cx, cy, r) {
  const n = level + 2;
  const start = -Math.PI / 2 - (n % 2 === 0 ? Math.PI / n : 0);
  const pts = [];
  for (let k = 0; k < n; k++) {
    const a = start + (2 * Math.PI * k) / n;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

/** One chip: shape by level, 1–4 dots, or its value when known. */
export function chipShape(c, cx, cy, r) {
  const level = c[0];
  const g = s("g", { class: `dsa-chip dsa-l${level}`, "data-level": level });
  g.append(s("polygon", { points: polygonPoints(level, cx, cy, r), class: "dsa-chip-face" }));
  if (c.length > 1) {
    g.append(s("text", { x: cx, y: cy + 4, class: "dsa-chip-value", "text-anchor": "middle", text: c[1] }));
  } else {
    const dy = level === 1 ? 2.5 : 0;
    for (let k = 0; k < level; k++) {
      const dx = (k - (level - 1) / 2) * (r / 2.6);
      g.append(s("circle", { cx: cx + dx, cy: cy + dy, r: Math.max(1.4, r / 8), class: "dsa-dot" }));
    }
  }
  return g;
}

export function itemShape(item, cx, cy, r) {
  if (item.length === 1) return chipShape(item[0], cx, cy, r);
  const g = s("g", { class: "dsa-stack" });
  const shown = item.slice(0, 3);
  shown.forEach((c, k) => {
    const off = (k - (shown.length - 1) / 2) * 4;
    g.append(chipShape(c, cx + off, cy - off, r * 0.8));
  });
  g.append(
    s("text", {
      x: cx + r + 2,
      y: cy + r + 1,
      class: "dsa-stack-count",
      "text-anchor": "end",
      text: `×${item.length}`,
    }),
  );
  return g;
}

function airGauge(state, width) {
  const w = 150,
    x = width - MARGIN - w,
    y = 10,
    hgt = 16;
  // The figure is the game's air (what `w.game.air` and the what-if table say). A turn starts
  // with the diver's breath (RULES.md, step 1): while it is still to come, the slice it will
  // take is drawn hatched at the end of the bar and named, rather than subtracted in advance.
  const air = Math.max(0, state.air);
  const breath = Math.min(air, state.breath || 0);
  const who = state.current === null || state.current === undefined ? "" : state.players[state.current];
  const scale = w / Math.max(1, state.start_air);
  const after = air - breath;
  const low = after <= Math.max(3, state.start_air / 5);
  const g = s("g", {
    class: `dsa-air${low ? " dsa-air-low" : ""}`,
    role: "img",
    "aria-label": breath
      ? `Air ${air} of ${state.start_air}; ${subj(who, "breathes", "breathe")} ${breath} this turn, leaving ${after}`
      : `Air ${air} of ${state.start_air}`,
    "data-air": air,
    "data-breath": breath,
  });
  g.append(
    s("rect", { x, y, width: w, height: hgt, rx: 8, class: "dsa-air-track" }),
    s("rect", { x, y, width: Math.min(w, after * scale).toFixed(1), height: hgt, rx: 8, class: "dsa-air-fill" }),
  );
  if (breath)
    g.append(
      s("rect", {
        x: (x + after * scale).toFixed(1),
        y,
        width: Math.min(w, breath * scale).toFixed(1),
        height: hgt,
        class: "dsa-air-breath",
      }),
    );
  g.append(
    s("text", {
      x: x + w / 2,
      y: y + 12,
      "text-anchor": "middle",
      class: "dsa-air-text",
      text: breath ? `air ${air} / ${state.start_air} (−${breath})` : `air ${air} / ${state.start_air}`,
    }),
  );
  if (breath)
    g.append(s("title", { text: `${subj(who, "breathes", "breathe")} ${breath} this turn, leaving ${after}` }));
  return g;
}

/** Draw the whole board; returns the <svg>. */
/**
 * The path in words, for a screen reader (the board's picture is one image to it): runs of
 * spaces that hold the same, then who is where. Only what the board draws (its titles' words).
 *
 *   pathWords({ path: [[[1]], [[1]], 0], divers: [{ pos: 2, up: false }], players: ["Ann"] })
 *   // ["Spaces 1 to 2: level-1 chip", "Space 3: blank", "Ann (A): space 2, heading down"]
 */
export function pathWords(state) {
  const out = [];
  let from = 1;
  const words = (i) => {
    const space = state.path[i - 1];
    return space === 0 ? "blank" : itemText(space);
  };
  for (let i = 1; i <= state.path.length; i++) {
    if (i < state.path.length && words(i + 1) === words(i)) continue;
    out.push(`${from === i ? `Space ${i}` : `Spaces ${from} to ${i}`}: ${words(i)}`);
    from = i + 1;
  }
  for (const [q, d] of (state.divers || []).entries()) {
    const where = d.pos ? `space ${d.pos}, heading ${d.up ? "up" : "down"}` : "in the submarine";
    out.push(`${state.players[q]} (${letter(q)}): ${where}${d.items?.length ? `, carrying ${d.items.length}` : ""}`);
  }
  return out;
}

export function drawBoard(state, cols = COLS) {
  const nSpaces = state.path.length;
  const rows = Math.max(1, Math.ceil(nSpaces / cols));
  const width = MARGIN * 2 + SUB_W + cols * CELL;
  // at least the submarine's height (and its six divers), however short a custom path is
  const height = TOP + Math.max(rows * CELL, 70) + MARGIN;
  const svg = s("svg", {
    class: "dsa-board",
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-label": `Board: round ${state.round} of ${state.rounds}, air ${state.air}, ${nSpaces} spaces`,
    "data-spaces": nSpaces,
    "data-cols": cols,
  });
  svg.append(s("rect", { x: 0, y: 0, width, height, rx: 10, class: "dsa-sea" }));
  // depth bands per row
  for (let r = 0; r < rows; r++) {
    svg.append(
      s("rect", {
        x: MARGIN + SUB_W - 4,
        y: TOP + r * CELL + 2,
        width: cols * CELL + 8,
        height: CELL - 4,
        rx: 8,
        class: "dsa-band",
        style: { opacity: String(0.25 + 0.18 * Math.min(r, 4)) },
      }),
    );
  }
  // round label
  svg.append(
    s("text", {
      x: MARGIN,
      y: 23,
      class: "dsa-round-text",
      text: state.over ? "Final" : `Round ${state.round}/${state.rounds}`,
    }),
  );
  svg.append(airGauge(state, width));
  // the submarine
  const sub = s("g", { class: "dsa-sub", "data-space": 0 });
  sub.append(
    s("rect", { x: MARGIN, y: TOP + 14, width: SUB_W - 14, height: 48, rx: 20, class: "dsa-sub-hull" }),
    s("rect", { x: MARGIN + 18, y: TOP + 4, width: 18, height: 12, rx: 3, class: "dsa-sub-hull" }),
    s("circle", { cx: MARGIN + 16, cy: TOP + 26, r: 4, class: "dsa-porthole" }),
    s("circle", { cx: MARGIN + 30, cy: TOP + 26, r: 4, class: "dsa-porthole" }),
    s("circle", { cx: MARGIN + 44, cy: TOP + 26, r: 4, class: "dsa-porthole" }),
    s("title", { text: "The submarine" }),
  );
  svg.append(sub);
  // the path line
  const pts = [];
  for (let i = 1; i <= nSpaces; i++) pts.push(spaceXY(i, cols).join(","));
  if (nSpaces)
    svg.append(s("polyline", { points: `${MARGIN + SUB_W - 14},${TOP + 38} ${pts.join(" ")}`, class: "dsa-line" }));
  // spaces
  state.path.forEach((space, k) => {
    const i = k + 1;
    const [x, y] = spaceXY(i, cols);
    const kind = space === 0 ? "blank" : space.length === 1 ? "chip" : "stack";
    const g = s("g", {
      class: `dsa-space dsa-${kind}`,
      "data-space": i,
      "data-kind": kind,
      "data-levels": space === 0 ? "" : space.map((c) => c[0]).join(","),
    });
    g.append(s("circle", { cx: x, cy: y, r: 19, class: "dsa-space-bg" }));
    if (space === 0) g.append(s("circle", { cx: x, cy: y, r: 7, class: "dsa-blank" }));
    else g.append(itemShape(space, x, y + 3, 12));
    // the space's number: hints and the log speak of "space 8"
    g.append(s("text", { x: x - 18, y: y - 12, class: "dsa-space-num", "aria-hidden": "true", text: i }));
    g.append(s("title", { text: `Space ${i}: ${space === 0 ? "blank" : itemText(space)}` }));
    svg.append(g);
  });
  // divers (last so they are on top); the current one highlighted
  state.divers.forEach((d, q) => {
    const [x, y] = diverXY(d.pos, q, cols);
    const current = state.current === q && !state.over;
    const g = s("g", {
      class: `dsa-diver${current ? " dsa-current" : ""}${d.home ? " dsa-home" : ""}`,
      "data-seat": q,
      "data-pos": d.pos,
      "data-heading": d.up ? "up" : "down",
      "data-items": d.items.length,
      style: { transform: `translate(${x}px, ${y}px)` },
    });
    const r = d.pos === 0 ? 7 : 9;
    if (current) g.append(s("circle", { cx: 0, cy: 0, r: r + 4, class: "dsa-halo" }));
    g.append(s("circle", { cx: 0, cy: 0, r, fill: color(q), class: "dsa-diver-body" }));
    // the seat's letter (identity not by colour alone), and the heading as a chevron outside
    g.append(s("text", { x: 0, y: r * 0.42, "text-anchor": "middle", class: "dsa-diver-letter", text: letter(q) }));
    if (d.pos) {
      const e = r + 1;
      const a = d.up ? `-3.5,${-e} 0,${-e - 4} 3.5,${-e}` : `-3.5,${e} 0,${e + 4} 3.5,${e}`;
      g.append(s("polyline", { points: a, class: "dsa-heading" }));
    }
    if (d.items.length && d.pos) {
      g.append(s("circle", { cx: r + 2, cy: -r + 1, r: 6, class: "dsa-carry-badge" }));
      g.append(
        s("text", { x: r + 2, y: -r + 4, "text-anchor": "middle", class: "dsa-carry-text", text: d.items.length }),
      );
    }
    const name = state.players[q];
    g.append(
      s("title", {
        text: `${letter(q)} ${name}: ${d.pos ? `space ${d.pos}` : "submarine"}, heading ${d.up ? "up" : "down"}, carrying ${d.items.length}`,
      }),
    );
    svg.append(g);
  });
  return svg;
}
