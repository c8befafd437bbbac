// The lobby of a served table (the notebook's side): seat links and QR codes, who is
// connected, bots for empty seats, start, pause and stop. Python keeps the table; this draws it.
import { h, replaceChildren } from "./dom.js";
import { letter } from "./model.js";

/**
 * Copy a link and say on the button whether it went: a browser without the clipboard (a page
 * not served over https, or a refused permission) used to do nothing, silently.
 */
function copyLink(button, url) {
  const said = (words) => {
    button.textContent = words;
    button.dataset.copied = words === "Copied" ? "1" : "0";
  };
  const clip = globalThis.navigator?.clipboard;
  if (!clip?.writeText) {
    said("Not copied: select the link");
    return;
  }
  clip.writeText(url).then(
    () => said("Copied"),
    () => said("Not copied: select the link"),
  );
}

function seatRow(s, info) {
  const link = h("a", {
    class: "dsa-lobby-link",
    href: s.url,
    target: "_blank",
    rel: "noopener noreferrer",
    text: s.url,
  });
  const copy = h("button", {
    class: "dsa-btn",
    "data-action": "copy",
    onclick: () => copyLink(copy, s.url),
    text: "Copy",
  });
  const who = s.seat === null ? "Spectators" : `${letter(s.seat)} · ${s.name}`;
  const kind = s.seat === null ? `${info.spectators} watching` : s.kind === "human" ? "human" : `${s.kind} bot`;
  const here = s.seat === null ? info.spectators > 0 : s.connected;
  return h(
    "tr",
    { "data-seat": s.seat === null ? "spectator" : String(s.seat), "data-connected": here ? "1" : "0" },
    h("td", { text: who }),
    h("td", { text: kind }),
    h("td", { class: "dsa-lobby-here", text: here ? "● connected" : "○ not connected" }),
    h("td", {}, link, " ", copy),
    h(
      "td",
      {},
      s.qr ? h("img", { class: "dsa-lobby-qr", src: s.qr, alt: `QR code of ${who}'s link`, width: 96 }) : null,
    ),
  );
}

function drawLobby(model, el) {
  const info = model.get("info") || {};
  const send = (msg) => model.send(msg);
  const rows = [...(info.seats || []), ...(info.spectator ? [info.spectator] : [])].map((s) => seatRow(s, info));
  const fill = h(
    "select",
    { class: "dsa-lobby-fill", "aria-label": "Bot for seats nobody holds" },
    h("option", { value: "", text: "leave empty seats empty" }),
    ...(info.bot_names || []).map((b) =>
      h("option", { value: b, text: `a ${b} bot fills empty seats`, selected: b === info.fill }),
    ),
  );
  const buttons = [];
  if (!info.started && !info.closed)
    buttons.push(
      h("button", {
        class: "dsa-btn dsa-primary",
        "data-action": "start",
        onclick: () => send({ type: "start", fill: fill.value || null }),
        text: "Start",
      }),
      fill,
    );
  if (info.started && !info.closed && !info.over)
    buttons.push(
      h("button", {
        class: "dsa-btn",
        "data-action": "pause",
        onclick: () => send({ type: "pause", paused: !info.paused }),
        text: info.paused ? "Resume bots" : "Pause bots",
      }),
    );
  if (!info.closed)
    buttons.push(
      h("button", { class: "dsa-btn", "data-action": "stop", onclick: () => send({ type: "stop" }), text: "Stop" }),
    );
  const state = info.closed
    ? "Stopped: the links no longer work."
    : !info.started
      ? "Waiting: send each player their own link, then press Start."
      : info.over
        ? "The game is over."
        : `Playing: turn ${info.turn + 1}.`;
  replaceChildren(
    el,
    h(
      "div",
      { class: "dsa-lobby", "data-started": info.started ? "1" : "0", "data-closed": info.closed ? "1" : "0" },
      h("p", { class: "dsa-lobby-state", role: "status", text: state }),
      h("table", { class: "dsa-lobby-seats" }, h("tbody", {}, rows)),
      h("div", { class: "dsa-lobby-buttons" }, buttons),
      h("p", { class: "dsa-lobby-note", text: info.note || "" }),
    ),
  );
}

export default {
  render({ model, el }) {
    const draw = () => drawLobby(model, el);
    model.on("change:info", draw);
    draw();
    return () => model.off("change:info", draw);
  },
};
