// The "new game" form: players (names, human or bot), air, rounds, path order, rule options.
import { h } from "./dom.js";

const OPTIONS = {
  drop_order: [
    ["nearest_first", "nearest diver first"],
    ["farthest_first", "farthest diver first"],
  ],
  tiebreak: [
    ["level4", "most level-4 chips"],
    ["levels_desc", "level-4, then 3, 2, 1 counts"],
  ],
  reveal: [
    ["public", "banked chips shown to all"],
    ["owner", "only to their owner"],
  ],
};

let uid = 0;

function field(label, input, hint) {
  const id = `dsa-f${++uid}`;
  input.id = id;
  return h(
    "div",
    { class: "dsa-field" },
    h("label", { for: id, text: label }),
    input,
    hint ? h("small", { text: hint }) : null,
  );
}

function select(pairs, value, aria) {
  const sel = h("select", { "aria-label": aria });
  for (const [v, text] of pairs) sel.append(h("option", { value: v, text, selected: v === value }));
  return sel;
}

/** Parse "1:0 1:3 2:5" or "[[1,0],[1,3]]" into [[level, value], ...]. */
export function parsePath(text) {
  const t = text.trim();
  if (!t) return null;
  if (t.startsWith("[")) return JSON.parse(t);
  return t
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((tok) => {
      const m = /^(\d+):(\d+)$/.exec(tok);
      if (!m) throw new Error(`"${tok}" is not level:value`);
      return [Number(m[1]), Number(m[2])];
    });
}

/** Build the panel; `start(setup)` is called with the new game's setup. */
export function createSetupPanel({ getState, getBotNames, getBotHelp = () => ({}), start }) {
  const details = h("details", { class: "dsa-setup" });
  const summary = h("summary", { text: "New game…", "aria-label": "New game settings" });
  const form = h("form", { class: "dsa-setup-form", "aria-label": "New game" });
  details.append(summary, form);
  const msg = h("p", { class: "dsa-setup-msg", role: "status" });

  function build() {
    const st = getState();
    const su = st.setup;
    const bots = getBotNames();
    const help = getBotHelp();
    form.replaceChildren();
    const count = select(
      [2, 3, 4, 5, 6].map((n) => [String(n), `${n} players`]),
      String(su.players.length),
      "Number of players",
    );
    const rowsBox = h("div", { class: "dsa-seat-rows" });
    const rows = [];
    const drawRows = () => {
      const n = Number(count.value);
      while (rows.length < n) {
        const q = rows.length;
        const name = h("input", { type: "text", maxlength: 64, required: true, "aria-label": `Player ${q + 1} name` });
        name.value = su.players[q] ?? `Player ${q + 1}`;
        const kind = select(
          [["human", "human"], ...bots.map((b) => [b, `bot: ${b}`])],
          st.seats[q] ?? (q ? bots[0] : "human"),
          `Player ${q + 1} is played by`,
        );
        // each bot's one-line description, beside the menu and on each of its options
        for (const o of kind.options) if (help[o.value]) o.title = help[o.value];
        const about = h("span", { class: "dsa-bot-about", text: help[kind.value] || "" });
        kind.addEventListener("change", () => {
          about.textContent = help[kind.value] || "";
        });
        rows.push({
          name,
          kind,
          row: h(
            "div",
            { class: "dsa-seat-row" },
            h("span", { class: "dsa-seat-no", text: `${q + 1}.` }),
            name,
            kind,
            about,
          ),
        });
      }
      rowsBox.replaceChildren(...rows.slice(0, n).map((r) => r.row));
    };
    count.addEventListener("change", drawRows);
    drawRows();
    const air = h("input", { type: "number", min: 1, max: 99, value: su.air });
    const rounds = h("input", { type: "number", min: 1, max: 9, value: su.rounds });
    const seed = h("input", { type: "number", placeholder: "random", value: "" });
    const path = h("textarea", {
      rows: 2,
      placeholder: "shuffled standard chips; or level:value list e.g. 1:0 1:3 2:5 4:15",
    });
    const first = h("input", { type: "number", min: 1, max: 6, value: su.first_player + 1 });
    const requires = h("input", { type: "checkbox", checked: su.options.turn_back_requires_treasure });
    const opts = {};
    const names = { drop_order: "Sinking order", tiebreak: "Tie-break", reveal: "Banked chips" };
    for (const [k, pairs] of Object.entries(OPTIONS)) opts[k] = select(pairs, su.options[k], names[k]);
    const go = h("button", {
      type: "submit",
      class: "dsa-btn dsa-primary",
      "aria-label": "Start the new game",
      text: "Start new game",
    });
    form.append(
      h("fieldset", {}, h("legend", { text: "Players" }), field("How many", count), rowsBox),
      h(
        "fieldset",
        { class: "dsa-grid" },
        h("legend", { text: "Game" }),
        field("Air", air),
        field("Rounds", rounds),
        field("First player (seat)", first),
        field(
          "Seed",
          seed,
          su.seed === null || su.seed === undefined ? "empty: a fresh shuffle" : `this game's: ${su.seed}`,
        ),
      ),
      h(
        "fieldset",
        {},
        h("legend", { text: "Path order" }),
        field("Custom path", path, "empty: each level shuffled (by the seed)"),
      ),
      h(
        "fieldset",
        {},
        h("legend", { text: "Rule options" }),
        h("div", { class: "dsa-field dsa-check" }, h("label", {}, requires, " turning back needs a treasure")),
        field("Sinking order", opts.drop_order),
        field("Tie-break", opts.tiebreak),
        field("Banked chips", opts.reveal),
      ),
      go,
      msg,
    );
    form.onsubmit = (ev) => {
      ev.preventDefault();
      const n = Number(count.value);
      let customPath = null;
      try {
        customPath = parsePath(path.value);
      } catch (e) {
        msg.textContent = `Custom path: ${e.message}`;
        return;
      }
      const setup = {
        players: rows.slice(0, n).map((r) => r.name.value),
        seats: rows.slice(0, n).map((r) => r.kind.value),
        air: Number(air.value),
        rounds: Number(rounds.value),
        first_player: Number(first.value) - 1,
        seed: seed.value === "" ? null : Number(seed.value),
        options: {
          turn_back_requires_treasure: requires.checked,
          drop_order: opts.drop_order.value,
          tiebreak: opts.tiebreak.value,
          reveal: opts.reveal.value,
        },
      };
      if (customPath) setup.path = customPath;
      msg.textContent = "Starting…";
      start(setup);
    };
  }
  details.addEventListener("toggle", () => {
    if (details.open) build();
  });
  return {
    el: details,
    /** called when Python rejects the setup, or a new game started */
    showError(text) {
      msg.textContent = text;
    },
    started() {
      msg.textContent = "";
      details.open = false;
    },
  };
}
