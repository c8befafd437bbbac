// What a seat's bot said of its last choice, drawn the same way in every game: "why: ..." with
// the first line of its explanation, the whole of it as the tooltip. Python decides what a screen
// may carry (state.bot_said): the reasons only where every seat knows what the bot knew.
import { h } from "./dom.js";

/** The "why" line of seat q's bot, or null when it has said nothing yet. */
export function botSaid(state, q) {
  const said = state.bot_said?.[String(q)];
  if (!said) return null;
  const [first] = said.split("\n");
  return h("span", { class: "dsa-bot-said", title: said, text: `why: ${first.replace(/^[^:]*: /, "")}` });
}
