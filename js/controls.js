// Buttons for exactly the legal choices (plus bot pause/step), with shortcuts.
import { h } from "./dom.js";
import { ariaKey, keyLabel } from "./keys.js";
import { chipsOf, choiceLabel, isBot, subj } from "./model.js";

/**
 * state, paused: what to show; send(choice) / onPause(bool) / onStep() callbacks.
 * Returns the controls element.
 */
export function drawControls(state, { paused, pending, send, onPause, onStep }) {
  const box = h("div", { class: "dsa-controls", role: "group", "aria-label": "Your choices" });
  if (state.over) {
    box.append(h("span", { class: "dsa-hint", text: "The game is over. Start a new one below." }));
    return box;
  }
  if (isBot(state, state.current)) {
    const who = state.players[state.current];
    box.append(
      h("span", {
        class: "dsa-hint",
        text: paused
          ? `${subj(who, "is", "are")} paused (${state.seats[state.current]} bot).`
          : `${subj(who, "is", "are")} playing (${state.seats[state.current]} bot)…`,
      }),
      h("button", {
        class: "dsa-btn",
        "data-action": "pause",
        "aria-label": `${paused ? "Resume" : "Pause"} bots (${keyLabel("pause")})`,
        "aria-keyshortcuts": ariaKey("pause"),
        onclick: () => onPause(!paused),
        text: `${paused ? "Resume" : "Pause"} (${keyLabel("pause")})`,
      }),
      h("button", {
        class: "dsa-btn",
        "data-action": "step",
        "aria-label": `Let the bot make one move (${keyLabel("botMove")})`,
        "aria-keyshortcuts": ariaKey("botMove"),
        onclick: onStep,
        disabled: !paused || pending,
        text: `Step (${keyLabel("botMove")})`,
      }),
    );
    return box;
  }
  if (state.step === "sink") {
    const chips = chipsOf(state, state.current);
    const laid = (state.laying || []).map((i) => `level ${chips[i]?.[0] ?? "?"}`);
    box.append(
      h("span", {
        class: "dsa-hint",
        text: laid.length
          ? `Laid so far: ${laid.join(", ")}. Choose the next chip, or keep the order you picked them up.`
          : "Your chips sink past the end of the path in stacks of 3: choose which goes first.",
      }),
    );
  }
  for (const choice of state.legal) {
    const lab = choiceLabel(choice, state);
    const b = h("button", {
      class: `dsa-btn dsa-choice${choice === "roll" || choice === "take" ? " dsa-primary" : ""}`,
      "data-choice": choice,
      "aria-label": lab.key ? `${lab.aria} (${lab.key === " " ? "Space" : lab.key})` : lab.aria,
      "aria-keyshortcuts": lab.key === "R" ? "R Space" : lab.key || null,
      disabled: pending,
      onclick: () => send(choice),
    });
    b.append(lab.text, lab.key ? h("kbd", { text: lab.key }) : null);
    box.append(b);
  }
  return box;
}

/**
 * What a served screen shows when it is not its seat's turn (or it only watches):
 * `remote` is {seat, name}, seat null for a spectator.
 */
export function drawWaiting(state, remote) {
  const box = h("div", { class: "dsa-controls", role: "group", "aria-label": "Waiting" });
  let text;
  if (state.over) text = "The game is over.";
  else {
    const who = state.players[state.current];
    const bot = isBot(state, state.current) ? ` (${state.seats[state.current]} bot)` : "";
    text =
      remote.seat === null || remote.seat === undefined
        ? `You are watching: ${who}${bot} is to play.`
        : `Waiting for ${who}${bot} to play…`;
  }
  box.append(h("span", { class: "dsa-hint", "data-waiting": "1", text }));
  return box;
}
