// The setup panel: players 2–5 with names and kinds (human or a bot), the seed, and every rule
// option of dsa_widget/submarine/options.py with its default marked.
import { h } from "../dom.js";
import { optionField } from "../shell.js";

function tableName(tables, name, value) {
  for (const [k, v] of Object.entries(tables[name] || {})) {
    if (JSON.stringify(v) === JSON.stringify(value)) return k;
  }
  return "default";
}

export function drawSetup(setup, { start, close }) {
  const names = [...(setup.players || [])];
  const kinds = [...(setup.kinds || [])];
  const bots = setup.bot_names || ["random"];
  const opts = { ...(setup.options || {}) };
  const tables = setup.tables || {};
  let count = names.length || 4;
  const form = h("form", { class: "sub-setup", "aria-label": "Setup" });
  const seatsBox = h("div", { class: "sub-setup-seats" });
  const fields = {};

  function drawSeats() {
    seatsBox.replaceChildren();
    for (let q = 0; q < count; q++) {
      if (names[q] === undefined) names[q] = q === 0 ? "You" : `Bot ${q}`;
      if (kinds[q] === undefined) kinds[q] = q === 0 ? "human" : bots[0];
      const name = h("input", {
        type: "text",
        value: names[q],
        maxlength: 40,
        "aria-label": `Player ${q + 1} name`,
        "data-field": `name-${q}`,
        oninput: (ev) => {
          names[q] = ev.target.value;
        },
      });
      const kind = h(
        "select",
        {
          "aria-label": `Player ${q + 1} kind`,
          "data-field": `kind-${q}`,
          onchange: (ev) => {
            kinds[q] = ev.target.value;
          },
        },
        ["human", ...bots].map((b) => h("option", { value: b, selected: b === kinds[q], text: b })),
      );
      seatsBox.append(h("div", { class: "sub-setup-row" }, `${q + 1}. `, name, kind));
    }
  }
  const countSel = h(
    "select",
    {
      "aria-label": "Number of players",
      "data-field": "players",
      onchange: (ev) => {
        count = Number(ev.target.value);
        drawSeats();
      },
    },
    [2, 3, 4, 5].map((n) => h("option", { value: n, selected: n === count, text: `${n} players` })),
  );
  const seed = h("input", {
    type: "number",
    min: 0,
    value: setup.seed ?? "",
    placeholder: "random",
    "aria-label": "Seed (empty: random)",
    "data-field": "seed",
  });
  const optRows = [];
  // every rule option in words (the game registry's schema: its label, its choices, its help);
  // a per-player-count table is chosen by its name
  for (const opt of setup.schema || []) {
    const now = tables[opt.key] ? tableName(tables, opt.key, opts[opt.key]) : (opts[opt.key] ?? opt.default);
    fields[opt.key] = now;
    optRows.push(
      optionField(opt, now, (v) => {
        fields[opt.key] = v;
      }),
    );
  }
  drawSeats();
  form.append(
    h("h3", { class: "sub-h", text: "New game" }),
    h("div", { class: "sub-setup-row" }, countSel, h("label", {}, " seed ", seed)),
    seatsBox,
    h("details", { class: "sub-options", open: true }, h("summary", { text: "Rule options" }), optRows),
    h(
      "div",
      { class: "sub-setup-row" },
      h("button", { type: "submit", class: "dsa-btn dsa-primary", "data-action": "new-game", text: "Start" }),
      h("button", { type: "button", class: "dsa-btn", "data-action": "close-setup", onclick: close, text: "Cancel" }),
    ),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const options = { ...fields };
    start({
      players: names.slice(0, count),
      kinds: kinds.slice(0, count),
      seed: seed.value === "" ? null : Number(seed.value),
      options,
    });
  });
  return form;
}
