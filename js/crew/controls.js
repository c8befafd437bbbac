// Buttons for the legal actions that are not a card of the hand or a task's Take button:
// pass, distress, predictions, the free-selection proposal, timed/untimed; what a bot is doing;
// after a failed attempt, the next attempt (the shell's bar pauses the bots and plays again).
import { h } from "../dom.js";
import { actionLabel, actorOf, parseAction, seatName } from "./cards.js";

const KEYS = {
  pass: "P",
  agree: "A",
  accept: "A",
  confirm: "A",
  yes: "A",
  refuse: "R",
  reject: "R",
  decline: "R",
  no: "R",
  "no distress": "N",
  keep: "K",
};

function actionButton(action, state, { pending, onIntent }) {
  const lab = actionLabel(action, state);
  const { verb, args } = parseAction(action);
  let key = KEYS[verb] || "";
  if (verb === "predict" && /^[0-9]$/.test(args[0] || "")) key = args[0];
  return h(
    "button",
    {
      class: `dsa-btn crew-action${verb === "play" ? " dsa-primary" : ""}`,
      type: "button",
      "data-action": verb.replace(" ", "-"),
      "data-choice": action,
      "aria-label": key ? `${lab.aria} (${key})` : lab.aria,
      "aria-keyshortcuts": key || null,
      disabled: pending,
      onclick: () => onIntent(action),
    },
    lab.text,
    key ? h("kbd", { text: key }) : null,
  );
}

/** The free-selection proposal form: one owner menu per task, then "Propose". */
function drawProposal(state, { pending, onIntent }) {
  const box = h("div", { class: "crew-proposal", role: "group", "aria-label": "Propose who takes which task" });
  const selects = [];
  for (const t of state.tasks || []) {
    const sel = h("select", { "aria-label": `Owner of task ${t.id}`, "data-task": t.id });
    (state.players || []).forEach((name, q) => {
      sel.append(h("option", { value: String(q), text: name, selected: t.owner === q }));
    });
    selects.push([t.id, sel]);
    box.append(h("label", { class: "crew-proposal-row" }, h("span", { text: `#${t.id} ${t.summary || ""}` }), sel));
  }
  box.append(
    h("button", {
      class: "dsa-btn dsa-primary",
      type: "button",
      "data-action": "propose",
      "aria-label": "Propose this task distribution",
      disabled: pending,
      onclick: () => onIntent(`propose ${selects.map(([id, sel]) => `${id}:${sel.value}`).join(" ")}`),
      text: "Propose",
    }),
  );
  return box;
}

/**
 * The controls row. opts: {pending, paused, onIntent(action), onRetry("same" | "new"), botTurn,
 * canAct, served}. Card plays and task takes have their own buttons (hand, Tonoja, tasks).
 */
export function drawControls(state, opts) {
  const { pending, paused, canAct, botTurn } = opts;
  const box = h("div", { class: "dsa-controls crew-controls", role: "group", "aria-label": "Your choices" });
  if (state.outcome) {
    // the board's outcome line says, once, why the attempt ended and at which trick
    // a served page (opts.served) only plays: new attempts are the host's to start
    if (state.mode !== "real" || opts.served) return box;
    const retry = state.retry || [];
    const words = {
      same: ["Try again: same tasks", "Deal again and keep the same tasks"],
      new: ["Try again: new tasks", "Deal again and draw new tasks"],
    };
    for (const t of retry) {
      box.append(
        h("button", {
          class: "dsa-btn dsa-primary",
          type: "button",
          "data-action": `retry-${t}`,
          "aria-label": words[t]?.[1] ?? t,
          disabled: pending,
          onclick: () => opts.onRetry?.(t),
          text: words[t]?.[0] ?? t,
        }),
      );
    }
    return box;
  }
  if (state.waiting) {
    // a served table not started yet, or closed
    box.append(h("span", { class: "crew-hint", "data-waiting": "1", text: state.waiting }));
    return box;
  }
  const actor = actorOf(state);
  if (botTurn) {
    const kind = state.kinds?.[actor] ?? "bot";
    box.append(
      h("span", {
        class: "crew-hint",
        text: `${seatName(state, actor)} (${kind} bot) ${paused ? "is paused" : "is thinking…"}`,
      }),
    );
    // a free communication window: the seat may still communicate while the bot thinks
    if (!canAct) return box;
  } else if (!canAct) {
    const who = actor === null ? "" : seatName(state, actor);
    box.append(
      h("span", {
        class: "crew-hint",
        "data-waiting": "1",
        text: who ? `Waiting for ${who}.` : "Waiting.",
      }),
    );
    return box;
  }
  if (state.proposal) {
    const p = state.proposal;
    const parts = Object.entries(p.owners || {}).map(([t, q]) => `#${t} → ${seatName(state, q)}`);
    box.append(
      h("span", {
        class: "crew-proposal-text",
        "data-proposal": "1",
        text: `${seatName(state, p.seat)} proposes: ${parts.join(", ")}`,
      }),
    );
  }
  const legal = state.legal || [];
  const hand = state.hand || [];
  const other = legal.filter((a) => {
    const { verb, args } = parseAction(a);
    if (verb === "give" && hand.includes(args[0])) return false; // the hand's card buttons pass it on
    return !["play", "comm", "take", "timeout", "propose"].includes(verb);
  });
  // what is asked, in Python's words (CrewPresenter.prompt_words): whose cards, the distress
  // signal explained, a communication, a task
  if (state.prompt) box.append(h("p", { class: "crew-prompt", text: state.prompt }));
  for (const a of other) box.append(actionButton(a, state, opts));
  if (legal.includes("propose") || legal.some((a) => a.startsWith("propose "))) box.append(drawProposal(state, opts));
  return box;
}
