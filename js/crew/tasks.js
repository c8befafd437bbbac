// The tasks: owner, status (symbol and word, never colour alone), prediction, progress cards,
// and a Take button (digit key) during assignment.
import { h } from "../dom.js";
import { STATUS_WORDS, seatName, takeActions } from "./cards.js";
import { cardFace } from "./hand.js";

/** opts: {pending, onIntent(action)}. Rows: li.crew-task[data-task][data-status]. */
export function drawTasks(state, opts = {}) {
  const { pending = false, onIntent } = opts;
  const tasks = state.tasks || [];
  const box = h("section", { class: "crew-tasks-box", "aria-label": "Tasks" });
  const done = tasks.filter((t) => t.status === "done").length;
  const failed = tasks.filter((t) => t.status === "failed").length;
  box.append(
    h("h3", {
      class: "crew-h",
      text: tasks.length
        ? `Tasks: ${done} done, ${failed} failed, ${tasks.length - done - failed} open`
        : "No tasks in this mission",
    }),
  );
  const takes = takeActions(state.legal, tasks);
  const list = h("ul", { class: "crew-tasks", role: "list" });
  for (const t of tasks) {
    const st = STATUS_WORDS[t.status] || { symbol: "?", word: String(t.status) };
    const owner = t.owner === null || t.owner === undefined ? "not taken yet" : seatName(state, t.owner);
    const li = h(
      "li",
      { class: `crew-task crew-status-${t.status}`, "data-task": t.id, "data-status": t.status },
      h("span", {
        class: "crew-task-status",
        "aria-label": `status: ${st.word}`,
        title: st.word,
        text: `${st.symbol} ${st.word}`,
      }),
      h("span", { class: "crew-task-id", text: `#${t.id}` }),
      h("span", { class: "crew-task-summary", text: t.summary || "" }),
      h("span", { class: "crew-task-meta", text: `difficulty ${t.difficulty ?? "?"} · ${owner}` }),
    );
    if (t.prediction !== null && t.prediction !== undefined) {
      li.append(h("span", { class: "crew-task-pred", text: `prediction: ${t.prediction}` }));
    }
    if ((t.progress || []).length) {
      const prog = h("span", { class: "crew-task-progress", "aria-label": "cards counting towards the task" });
      prog.append(h("span", { class: "crew-hint", text: "progress: " }));
      for (const c of t.progress) prog.append(cardFace(c, { class: "crew-mini" }));
      li.append(prog);
    }
    const take = `take ${t.id}`;
    const k = takes.indexOf(take);
    if (k >= 0) {
      const key = k < 9 ? String(k + 1) : "";
      li.append(
        h(
          "button",
          {
            class: "dsa-btn dsa-btn-small crew-take",
            type: "button",
            "data-action": "take",
            "data-choice": take,
            "data-task": t.id,
            "aria-label": `Take task ${t.id}: ${t.summary || ""}${key ? ` (${key})` : ""}`,
            "aria-keyshortcuts": key || null,
            disabled: pending,
            onclick: () => onIntent?.(take),
          },
          "Take",
          key ? h("kbd", { text: key }) : null,
        ),
      );
    }
    list.append(li);
  }
  box.append(list);
  return box;
}
