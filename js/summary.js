// Round and game summaries: what was banked and revealed, who drowned, what sank into which
// stacks; at the end the score table by round, the winner and the tie-break, and Play again.
// Python builds them from what the viewer may know (dsa_widget/deep_sea/summary.py).
import { h } from "./dom.js";
import { color, letter, subj } from "./model.js";

const levelsText = (lv) => (lv.length === 1 ? `level ${lv[0]}` : `levels ${lv.join("+")}`);

/** The summary panel; on.close(), on.playAgain(). Lines appear one after another (CSS). */
export function drawSummary(st, sum, on) {
  const who = (q) => st.players[q];
  const box = h("section", {
    class: `dsa-summary${sum.over ? " dsa-summary-game" : ""}`,
    role: "dialog",
    "aria-label": sum.over ? "Game summary" : `Round ${sum.round} summary`,
    "data-summary": sum.id,
  });
  const lines = [];
  const line = (text, cls = "") => {
    const p = h("p", { class: `dsa-summary-line ${cls}`, text });
    p.style.animationDelay = `${lines.length * 160}ms`;
    lines.push(p);
  };
  box.append(h("h3", { text: `Round ${sum.round} is over: ${sum.why}` }));
  // a game that ends before its last round says why (RULES.md: the path is empty)
  if (sum.ended) box.append(h("p", { class: "dsa-summary-ended", text: sum.ended }));
  for (const b of sum.banked) {
    const vals = b.chips.map((c) => (c.length > 1 ? c[1] : "?"));
    const tail = b.points === null ? " (values hidden)" : `: ${vals.join(" + ")} = ${b.points} points`;
    line(
      `${subj(who(b.seat), "banks", "bank")} ${b.chips.length} chip${b.chips.length === 1 ? "" : "s"}${tail}`,
      "dsa-sum-bank",
    );
  }
  if (!sum.banked.length) line("Nobody banked anything.");
  for (const d of sum.drowned)
    line(`${subj(who(d.seat), "drowns", "drown")}: ${levelsText(d.levels)} sank to the bottom`, "dsa-sum-drown");
  if (sum.stacks.length)
    line(
      `At the bottom now: ${sum.stacks.map((s) => `space ${s.space}, a stack of ${levelsText(s.levels)}`).join("; ")}`,
      "dsa-sum-stacks",
    );
  box.append(...lines);
  if (sum.over && sum.rows) {
    const table = h("table", { class: "dsa-summary-table", "aria-label": "Scores by round" });
    table.append(
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col", class: "dsa-sc dsa-sc-name", text: "player" }),
          ...sum.rounds.map((r) => h("th", { scope: "col", class: "dsa-sc", text: `round ${r}` })),
          h("th", { scope: "col", class: "dsa-sc", text: "total" }),
        ),
      ),
    );
    const body = h("tbody");
    sum.rows.forEach((row, q) => {
      const won = sum.winners.includes(q);
      body.append(
        h(
          "tr",
          { "data-seat": q, class: won ? "dsa-sum-won" : "" },
          h(
            "th",
            { scope: "row", class: "dsa-sc dsa-sc-name" },
            h("span", { class: "dsa-swatch", style: { background: color(q) }, "aria-hidden": "true", text: letter(q) }),
            ` ${who(q)}${won ? " ★" : ""}`,
          ),
          ...row.map((p) => h("td", { class: "dsa-sc", text: p === null ? "?" : String(p) })),
          h("td", { class: "dsa-sc dsa-sum-total", text: sum.totals[q] === null ? "?" : String(sum.totals[q]) }),
        ),
      );
    });
    table.append(body);
    box.append(table, h("p", { class: "dsa-summary-winner", text: sum.why_winner }));
  }
  const buttons = h("div", { class: "dsa-summary-buttons" });
  if (sum.over && on.playAgain)
    buttons.append(
      h("button", {
        class: "dsa-btn dsa-primary",
        "data-action": "play-again",
        onclick: on.playAgain,
        text: "Play again",
      }),
    );
  buttons.append(
    h("button", {
      class: "dsa-btn",
      "data-action": "close-summary",
      onclick: on.close,
      text: sum.over ? "Close" : "Continue",
      title: "Escape closes it too",
    }),
  );
  box.append(buttons);
  return box;
}
