// Pig's renderer on the platform's shell (js/shell.js): the scores on the way to the goal, this
// turn's rolls, Roll and Hold. Everything else (transport, keys, history, what-if, setup, the
// Chances panel) is the shell's.
import { h } from "../dom.js";
import { botSaid } from "../said.js";
import { mountShell, whoseTurn } from "../shell.js";

const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

function draw(st, act, { pending }) {
  const rows = st.players.map((name, q) =>
    h(
      "div",
      { class: `pig-row${q === st.current && !st.over ? " pig-now" : ""}`, "data-seat": q },
      h("span", { class: "pig-who" }, h("span", { class: "pig-name" }, name), botSaid(st, q)),
      h(
        "span",
        { class: "pig-track", role: "img", "aria-label": `${name}: ${st.scores[q]} of ${st.goal}` },
        h("span", { class: "pig-bank", style: { width: `${(100 * st.scores[q]) / st.goal}%` } }),
        q === st.current && !st.over
          ? h("span", {
              class: "pig-turn",
              style: { width: `${(100 * Math.min(st.turn_total, st.goal - st.scores[q])) / st.goal}%` },
            })
          : null,
      ),
      h("span", { class: "pig-score", text: `${st.scores[q]}` }),
    ),
  );
  const rolls = st.moves.filter((m) => typeof m === "number");
  const whose = whoseTurn(st, st.current);
  const turn = h(
    "p",
    { class: "pig-turn-line" },
    whose ? `${whose}: ` : "",
    rolls.length
      ? // a die face is a glyph: a screen reader gets its number
        rolls.map((f) =>
          h("span", { class: "pig-die", role: "img", "aria-label": String(f), title: `rolled ${f}`, text: FACES[f] }),
        )
      : "no roll yet",
    ` — ${st.turn_total} on the turn`,
  );
  const button = (choice, text, key) =>
    h(
      "button",
      {
        class: `dsa-btn${choice === "roll" ? " dsa-primary" : ""}`,
        "data-choice": choice,
        disabled: pending || !st.legal.includes(choice),
        onclick: () => act({ type: "intent", choice }),
      },
      text,
      h("kbd", { text: key }),
    );
  // in a what-if, the die can be made to show a chosen face (as Deep Sea's chosen dice)
  const faces =
    st.mode === "whatif" && st.can_act && st.legal.includes("roll")
      ? h(
          "div",
          { class: "pig-faces", role: "group", "aria-label": "Roll a chosen face (what-if)" },
          h("span", { class: "pig-faces-label", text: "Roll a chosen face:" }),
          [1, 2, 3, 4, 5, 6].map((f) =>
            h(
              "button",
              {
                class: "dsa-btn",
                "data-face": f,
                title: `roll, and the die shows ${f}`,
                "aria-label": `Roll, and the die shows ${f} (${f})`,
                disabled: pending,
                onclick: () => act({ type: "roll_face", face: f }),
              },
              FACES[f],
              h("kbd", { text: String(f) }),
            ),
          ),
        )
      : null;
  return h(
    "div",
    { class: "pig-board" },
    h("p", { class: "pig-goal", text: `First to bank ${st.goal} wins. A 1 loses the turn's points.` }),
    rows,
    st.over ? null : turn,
    st.can_act
      ? h("div", { class: "pig-actions" }, button("roll", "Roll", "R"), button("hold", `Hold ${st.turn_total}`, "B"))
      : null,
    faces,
  );
}

function onKey(ev, st, act) {
  if (/^[1-6]$/.test(ev.key) && st.mode === "whatif" && st.legal.includes("roll")) {
    act({ type: "roll_face", face: Number(ev.key) });
    return true;
  }
  // B banks the turn (hold): H is the chances' key, as on every board
  const choice = { r: "roll", b: "hold" }[ev.key.toLowerCase()];
  if (!choice || !st.legal.includes(choice)) return false;
  act({ type: "intent", choice });
  return true;
}

export default () => ({
  render: (ctx) =>
    mountShell(ctx, {
      title: "Pig",
      cls: "pig-root",
      draw,
      onKey,
      help: "Game keys: R roll · B hold (bank the turn) · 1–6 roll that face (what-if)",
      aria: "R B 1 2 3 4 5 6",
    }),
});
