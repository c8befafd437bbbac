// Buttons for exactly the legal choices, with their keys (the bots' keys are the shell's).
import { h } from "./dom.js";
import { chipsOf, choiceLabel, isBot, subj } from "./model.js";

/**
 * The seat's choices as buttons (with their keys), or in words why there are none: the past
 * shown, the game over, another seat (a bot, paused or not) to play. state: the shell's state
 * (can_act, legal, mode); send(choice); extra: what the what-if adds (the dice picker).
 */
export function drawControls(state, { paused, pending, send, extra = null }) {
  const box = h("div", { class: "dsa-controls", role: "group", "aria-label": "Your choices" });
  const say = (text) => box.append(h("span", { class: "dsa-hint", "data-waiting": "1", text }));
  if (state.mode === "history") {
    say("You are looking at the past: End (or Live) comes back to the game.");
    return box;
  }
  if (state.over) {
    say(state.mode === "whatif" ? "This what-if is over." : "The game is over.");
    return box;
  }
  const who = state.players[state.current];
  if (state.waiting) {
    say(state.waiting); // a served table not started yet, or closed
    return box;
  }
  if (!state.can_act) {
    const bot = isBot(state, state.current) ? ` (${state.seats[state.current]} bot)` : "";
    if (state.mode === "whatif") say(`${who}${bot} is to play: S plays one move, O lets them play on.`);
    else if (bot && paused) say(`${subj(who, "is", "are")} paused${bot}: S plays one move, Z resumes.`);
    else if (bot) say(`${subj(who, "is", "are")} playing${bot}…`);
    else if (state.viewer === null || state.viewer === undefined) say(`You are watching: ${who} is to play.`);
    else say(`Waiting for ${who} to play…`);
    if (extra) box.append(extra);
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
  if (extra) box.append(extra);
  return box;
}
