// The page of a served table: one screen (a seat's, or a spectator's) drawn by the same bundled
// board as the notebook widget (`./widget.js`, loaded beside this file), through a model shim
// fed by the table's WebSocket. The server sends this screen only its own view.

import {
  backoffMs,
  createRemoteModel,
  notSentText,
  roleText,
  SENT_TYPES,
  socketUrl,
  tokenFromHash,
} from "./remote-model.js";
import widget from "./widget.js";

// the browser's dark or light preference, marked as JupyterLab marks its theme: the boards'
// dark colours key on it (page.css holds JupyterLab Dark's variables), and it follows a change
const dark = globalThis.matchMedia?.("(prefers-color-scheme: dark)");
const markTheme = () => {
  document.body.dataset.jpThemeLight = dark?.matches ? "false" : "true";
};
markTheme();
dark?.addEventListener?.("change", markTheme);

const page = document.getElementById("dsa-page");
const bar = document.createElement("header");
bar.className = "dsa-page-bar";
const role = document.createElement("span");
role.className = "dsa-page-role";
const conn = document.createElement("span");
conn.className = "dsa-page-conn";
conn.setAttribute("role", "status");
bar.append(role, conn);
const boardEl = document.createElement("div");
boardEl.className = "dsa-page-board";
page.replaceChildren(bar, boardEl);

const token = tokenFromHash(location.hash);
const NO_SEAT = "No seat.";
let ws = null;
let attempt = 0;
let welcome = null;
let rendered = false;
let errorN = 0;
let errorShownSeq = null;
let stopped = false;

function setConn(kind, text) {
  page.dataset.conn = kind;
  conn.textContent = text;
}

function showTable(model) {
  const t = model.get("table");
  if (!t) return;
  page.dataset.started = t.started ? "1" : "0";
  if (t.closed) setConn("closed", "The host closed the table.");
  else if (!t.started) setConn("waiting", "Connected. Waiting for the host to start the game…");
  else if (t.problem)
    setConn("paused", t.problem); // a bot failed: the table waits for the host
  else setConn("open", "Connected.");
}

const model = createRemoteModel({
  send(msg) {
    if (msg?.type === "hello") {
      // the board asks whether something runs it: the table does, while the socket is open
      if (ws?.readyState === WebSocket.OPEN) setTimeout(() => model.update({ hello: msg.n }), 0);
      return;
    }
    if (!SENT_TYPES.has(msg?.type)) return;
    // the board says the error's words on its refusal line
    if (ws?.readyState !== WebSocket.OPEN) throw new Error(notSentText(model.get("table")));
    ws.send(JSON.stringify(msg));
  },
});

function onFrame(text) {
  let f;
  try {
    f = JSON.parse(text);
  } catch {
    return;
  }
  if (f.t === "welcome") {
    welcome = f;
    attempt = 0;
    page.dataset.seat = f.seat === null ? "spectator" : String(f.seat);
    role.textContent = roleText(f);
    model.set("remote", { seat: f.seat, name: f.name });
  } else if (f.t === "model") {
    const data = { ...f.data };
    // an error stays on the board until the next state
    if (errorShownSeq !== null && data.state && data.state.seq !== errorShownSeq) {
      data.error = {};
      errorShownSeq = null;
    }
    model.update(data);
    showTable(model);
    if (!rendered && model.get("state")) {
      rendered = true;
      widget().render({ model, el: boardEl });
    }
  } else if (f.t === "error") {
    errorN += 1;
    errorShownSeq = f.seq;
    page.dataset.lastError = f.kind;
    if (f.kind === "token") {
      stopped = true;
      role.textContent = NO_SEAT; // it said "Connecting…" beside the refusal, for good
      setConn("refused", "This link opens no seat (ask the host for yours).");
      return;
    }
    model.update({ error: { kind: f.kind, message: f.message, seq: f.seq, n: errorN } });
  }
}

function connect() {
  if (!token) {
    role.textContent = NO_SEAT;
    setConn("refused", "This link has no seat token: open the full link the host gave you.");
    return;
  }
  setConn("connecting", attempt ? "Reconnecting…" : "Connecting…");
  ws = new WebSocket(socketUrl(location.href));
  ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "join", token })));
  ws.addEventListener("message", (ev) => {
    if (typeof ev.data === "string") onFrame(ev.data);
  });
  ws.addEventListener("close", () => {
    if (stopped || model.get("table")?.closed) return;
    setConn("lost", "Connection lost: reconnecting…");
    const wait = backoffMs(attempt);
    attempt += 1;
    setTimeout(connect, wait);
  });
}

role.textContent = roleText(welcome);
connect();
