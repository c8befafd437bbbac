// The "new mission" form: humans 2-5 (names, human or bot), difficulty target with the draw rule,
// communication modifier, free selection, timer, campaign mission, and every rule option.
import { h } from "../dom.js";
import { optionField } from "../shell.js";

let uid = 0;

function field(label, input, hint) {
  const id = `crew-f${++uid}`;
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
  for (const [v, text] of pairs)
    sel.append(h("option", { value: String(v), text, selected: String(v) === String(value) }));
  return sel;
}

const COMM_WORDS = {
  normal: "normal",
  currents: "currents (token always in the middle)",
  rapture: "rapture of the deep (shared tokens)",
  terrain: "unknown terrain (drawn per attempt)",
  none: "none (no communication)",
};

/**
 * Build the panel. getSetup() -> the `setup` trait; getBotNames(); start(setup) sends new_game.
 * Returns {el, showError(text), started()}.
 */
export function createCrewSetup({ getSetup, getBotNames, getBotHelp = () => ({}), start }) {
  const details = h("details", { class: "dsa-setup crew-setup" });
  const summary = h("summary", { text: "New mission…", "aria-label": "New mission settings" });
  const form = h("form", { class: "dsa-setup-form", "aria-label": "New mission" });
  details.append(summary, form);
  const msg = h("p", { class: "dsa-setup-msg", role: "status" });

  function build() {
    const su = getSetup() || {};
    const bots = getBotNames();
    const help = getBotHelp();
    form.replaceChildren();
    const players = su.players || ["You", "Bot 1", "Bot 2", "Bot 3"];
    const defBot = bots.includes("crewmate") ? "crewmate" : bots[0];
    const kinds = su.kinds || players.map((_, q) => (q ? defBot : "human"));
    const count = select(
      [2, 3, 4, 5].map((n) => [n, `${n} players${n === 2 ? " (+ Tonoja)" : ""}`]),
      players.length,
      "Number of players",
    );
    const rowsBox = h("div", { class: "dsa-seat-rows" });
    const rows = [];
    const drawRows = () => {
      const n = Number(count.value);
      while (rows.length < n) {
        const q = rows.length;
        const name = h("input", { type: "text", maxlength: 40, required: true, "aria-label": `Player ${q + 1} name` });
        name.value = players[q] ?? `Player ${q + 1}`;
        const kind = select(
          [["human", "human"], ...bots.map((b) => [b, `bot: ${b}`])],
          kinds[q] ?? (q ? defBot : "human"),
          `Player ${q + 1} is played by`,
        );
        for (const o of kind.options) if (help[o.value]) o.title = help[o.value];
        rows.push({
          name,
          kind,
          row: h("div", { class: "dsa-seat-row" }, h("span", { class: "dsa-seat-no", text: `${q + 1}.` }), name, kind),
        });
      }
      rowsBox.replaceChildren(...rows.slice(0, n).map((r) => r.row));
    };
    count.addEventListener("change", drawRows);
    drawRows();
    const maxT = su.max_target ?? 20;
    const target = select(
      Array.from({ length: maxT }, (_, i) => [i + 1, String(i + 1)]),
      su.target ?? 3,
      "Difficulty target",
    );
    const comm = select(
      (su.communications || Object.keys(COMM_WORDS)).map((c) => [c, COMM_WORDS[c] || c]),
      su.communication ?? "normal",
      "Communication",
    );
    const free = h("input", { type: "checkbox", checked: su.allocation === "free" });
    const timer = h("input", { type: "number", min: 0, max: 3600, placeholder: "none", value: su.timer_seconds ?? "" });
    const campaign = h("input", { type: "number", min: 1, max: 50, placeholder: "none", value: su.campaign ?? "" });
    const seed = h("input", { type: "number", placeholder: "random", value: "" });
    // every rule option in words (the game registry's schema: its label, its choices, its help)
    const options = {};
    const optBox = h("div", { class: "crew-options" });
    for (const opt of su.schema || []) {
      const now = su.options?.[opt.key] ?? opt.default;
      options[opt.key] = now;
      optBox.append(
        optionField(opt, now, (v) => {
          options[opt.key] = v;
        }),
      );
    }
    const go = h("button", {
      type: "submit",
      class: "dsa-btn dsa-primary",
      "data-action": "start",
      "aria-label": "Start the new mission",
      text: "Start mission",
    });
    form.append(
      h("fieldset", {}, h("legend", { text: "Crew" }), field("How many", count), rowsBox),
      h(
        "fieldset",
        { class: "dsa-grid" },
        h("legend", { text: "Mission" }),
        field(
          "Difficulty target",
          target,
          su.draw_rule ||
            "Tasks are drawn from the shuffled deck, each taken only if its difficulty still fits, until the difficulties add up exactly to the target.",
        ),
        field("Communication", comm),
        h("div", { class: "dsa-field dsa-check" }, h("label", {}, free, " free selection of tasks")),
        field("Timer (seconds)", timer, "empty: untimed"),
        field("Campaign mission", campaign, "empty: a random mission with the target above"),
        field("Seed", seed, "empty: a fresh shuffle"),
      ),
      h("fieldset", {}, h("legend", { text: "Rule options" }), optBox),
      go,
      msg,
    );
    form.onsubmit = (ev) => {
      ev.preventDefault();
      const n = Number(count.value);
      const setup = {
        players: rows.slice(0, n).map((r) => r.name.value),
        kinds: rows.slice(0, n).map((r) => r.kind.value),
        target: Number(target.value),
        communication: comm.value,
        allocation: free.checked ? "free" : "normal",
        timer_seconds: timer.value === "" ? null : Number(timer.value),
        campaign: campaign.value === "" ? null : Number(campaign.value),
        seed: seed.value === "" ? null : Number(seed.value),
        options: { ...options },
      };
      msg.textContent = "Starting…";
      start(setup);
    };
  }
  details.addEventListener("toggle", () => {
    if (details.open) build();
  });
  return {
    el: details,
    showError(text) {
      msg.textContent = text;
    },
    started() {
      msg.textContent = "";
      details.open = false;
    },
  };
}
