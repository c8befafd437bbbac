// The model shim of a served page: what anywidget's model offers the board (get, set, on, off,
// send, save_changes), fed by the table's WebSocket instead of a kernel. No DOM here.

/**
 * A model whose values come from the server's frames. `send(msg)` is called for the board's
 * messages; `set` is local (the view's own settings, such as the history turn it shows).
 */
export function createRemoteModel({ send }) {
  const values = new Map();
  const handlers = new Map();
  const emit = (event) => {
    for (const fn of [...(handlers.get(event) || [])]) fn();
  };
  return {
    get: (key) => values.get(key),
    set(key, value) {
      values.set(key, value);
      emit(`change:${key}`);
    },
    on(event, fn) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event).add(fn);
    },
    off(event, fn) {
      if (!event) handlers.clear();
      else if (!fn) handlers.delete(event);
      else handlers.get(event)?.delete(fn);
    },
    send(msg) {
      send(msg);
    },
    save_changes() {},
    /** A frame's data: every key is set first, then each key's change event, `state` last. */
    update(data) {
      const keys = Object.keys(data);
      for (const k of keys) values.set(k, data[k]);
      for (const k of keys) if (k !== "state") emit(`change:${k}`);
      if (keys.includes("state")) emit("change:state");
    },
  };
}

/** The messages a seat's page may send the table (everything else stays in the page). */
export const SENT_TYPES = new Set(["intent"]);

/**
 * Why a move was not sent (the socket is not open), for the board's refusal line: the table
 * closed by the host stays closed; a lost connection comes back by itself.
 *
 *   notSentText({ closed: true })  // "Not sent: the host closed the table."
 */
export function notSentText(table) {
  return table?.closed
    ? "Not sent: the host closed the table."
    : "Not sent: the connection to the table is lost; the page reconnects by itself, then play on.";
}

/** The seat token in a link's fragment (`…/play#t=TOKEN`), or null. */
export function tokenFromHash(hash) {
  const params = new URLSearchParams(String(hash || "").replace(/^#/, ""));
  const t = params.get("t");
  return t && t.length <= 128 ? t : null;
}

/** The WebSocket URL beside the page (`http://h/p/play` -> `ws://h/p/ws`). */
export function socketUrl(href) {
  const u = new URL("ws", href);
  u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
  u.hash = "";
  u.search = "";
  return u.href;
}

/** Wait before reconnecting: 0.5 s, 1 s, 2 s, ... at most 8 s. */
export const backoffMs = (attempt) => Math.min(8000, 500 * 2 ** Math.min(attempt, 4));

/** The page's header line for a welcome frame's role. */
export function roleText(welcome) {
  if (!welcome) return "Connecting…";
  if (welcome.seat === null || welcome.seat === undefined) return "Spectator: you see what every player knows.";
  return `${welcome.name}'s screen: you see only what ${welcome.name} may know.`;
}
