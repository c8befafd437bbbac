"""The Crew in real Chromium: (a) a whole hot-seat mission played by clicks in JupyterLab (the
curtain's Show, the tasks' Take buttons, the legal cards by data-card / aria-label) until the
outcome banner shows; (b) a served game, two seats in two browser contexts and a spectator in
a third over real WebSockets, a bot in the last seat, played to the end by clicks; every frame
each socket received is checked for a card of another seat's hand that was not public then
(tests/server_helpers.py ``crew_leaks``, shown to catch a leaking screen in
tests/crew/test_remote.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from dsa_widget.crew.remote import CrewTable, serve_crew

from .conftest import record_timing

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from server_helpers import crew_knowledge, crew_leaks  # noqa: E402

#: what to click on a Crew board, found from the DOM alone (the order a simple player would:
#: the curtain, a task, the first legal card of the hand -- to play, or to pass on in a distress
#: signal -- or of Tonoja's, else "no distress", else the first other choice such as "pass").
#: Returns a description of the click, or null.
CLICK_JS = """(root) => {
  const show = root.querySelector('.dsa-curtain button[data-action="show-seat"]');
  if (show && !show.disabled) { show.click(); return {kind: 'show'}; }
  if (root.dataset.pending) return null;
  const take = root.querySelector('button.crew-take[data-choice]:not([disabled])');
  if (take) { take.click(); return {kind: 'take', choice: take.dataset.choice}; }
  const legal = ':is([data-action="play"], [data-action="give"]):not([aria-disabled="true"]):not([disabled])';
  const card = root.querySelector(`.crew-hand button.crew-card-btn.crew-legal[data-card]${legal}`)
    || root.querySelector(`.crew-dummy button.crew-legal[data-card]${legal}`);
  if (card) {
    card.click();
    return {kind: 'card', choice: `${card.dataset.action} ${card.dataset.card}`, label: card.ariaLabel};
  }
  const buttons = '.crew-controls button.crew-action[data-choice]:not([disabled])';
  const other = root.querySelector(`${buttons}[data-choice="no distress"]`) || root.querySelector(buttons);
  if (other) { other.click(); return {kind: 'other', choice: other.dataset.choice}; }
  return null;
}"""

#: true when the board drew a newer state than ``seq`` (or shows an error, or the end)
MOVED_JS = """([root, seq]) => Number(root.dataset.seq) > seq || !!root.dataset.error
  || root.dataset.outcome !== ''"""

HOT_SEAT = (
    "from dsa_widget.crew.widget import Crew\n"
    "w = Crew(players=['Ann', 'Bob', 'Cy'], hot_seat=True, seed=12, target=1)\n"
    "w"
)


def test_a_hot_seat_mission_is_played_by_clicks_to_its_outcome(lab, page, console):
    import time

    nb = lab.open("crew_hotseat.ipynb", [HOT_SEAT])
    nb.run_all()
    root = nb.output(0).locator(".crew-root")
    expect(root).to_be_visible()
    expect(root.locator(".dsa-curtain")).to_be_visible()
    t0 = time.monotonic()
    clicks = {"show": 0, "take": 0, "card": 0, "other": 0}
    for _ in range(400):
        if root.get_attribute("data-outcome"):
            break
        handle = root.element_handle()
        seq = int(root.get_attribute("data-seq") or -1)
        if root.get_attribute("data-curtain"):
            # behind the curtain: public knowledge only, no hand on the board
            curtain_seat = int(root.get_attribute("data-curtain") or -1)
            name = ["Ann", "Bob", "Cy"][curtain_seat]
            expect(root.locator(".dsa-curtain")).to_contain_text(f"Pass the device to {name}")
            assert root.locator(".crew-hand button[data-card]").count() == 0
        did = page.evaluate(CLICK_JS, handle)
        if did is None:  # an answer is on its way (pending): wait for it
            page.wait_for_function("r => !r.dataset.pending", arg=handle, timeout=60_000)
            continue
        clicks[did["kind"]] += 1
        page.wait_for_function(MOVED_JS, arg=[handle, seq], timeout=60_000)
        assert not root.get_attribute("data-error"), root.locator(".dsa-error").text_content()
    else:
        pytest.fail(f"the mission did not end: {clicks}")
    record_timing("crew hot-seat mission", time.monotonic() - t0)
    outcome = json.loads(nb.execute("import json; print(json.dumps(w.game.outcome.as_dict()))").stdout)
    assert outcome is not None and outcome["result"] in ("success", "failure")
    banner = root.locator(".crew-outcome")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-result", outcome["result"])
    expect(banner).to_contain_text(
        "Mission accomplished" if outcome["result"] == "success" else "Mission failed"
    )
    # the curtain was lifted for every seat in turn, and the play went through the cards
    assert clicks["show"] >= 3 and clicks["card"] >= 3 and clicks["take"] >= 1, clicks
    assert nb.eval("w.game.is_over") == "True"
    print(f"\n[crew e2e] hot-seat mission: {clicks}, {outcome}")
    console.assert_no_errors()


# ---------------------------------------------------------------------- served, per seat


class Screen:
    """One browser context on one link, with every WebSocket frame it received."""

    def __init__(self, browser: Any, url: str) -> None:
        self.context = browser.new_context(viewport={"width": 1100, "height": 900})
        self.context.set_default_timeout(30_000)
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._on_socket)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.goto(url)

    def _on_socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda p: self.frames.append(p if isinstance(p, str) else ""))

    @property
    def root(self) -> Any:
        return self.page.locator(".crew-root")

    def last_state(self) -> dict[str, Any] | None:
        for text in reversed(self.frames):
            f = json.loads(text) if text.startswith("{") else {}
            st = f.get("data", {}).get("state") if f.get("t") == "model" else None
            if st is not None:
                return st
        return None

    def drawn(self, seq: int) -> None:
        """Wait until the board has drawn state ``seq`` (or a later one)."""
        self.page.wait_for_function(
            "s => Number(document.querySelector('.crew-root')?.dataset.seq) >= s", arg=seq, timeout=60_000
        )

    def close(self) -> None:
        self.context.close()


def test_a_served_game_sends_each_seat_only_its_own_hand(browser):
    import time

    srv = serve_crew(
        players=["Ann", "Bob", "Cy"], target=2, seed=7, bot_delay=0.05, bot_seed=3, fill="random"
    )
    ann, bob = Screen(browser, srv.seat_url(0)), Screen(browser, srv.seat_url(1))
    spec = Screen(browser, srv.spectator_url)
    screens = {0: ann, 1: bob}
    try:
        for s in (ann, bob, spec):
            expect(s.page.locator("#dsa-page")).to_have_attribute("data-conn", "waiting")
            expect(s.root).to_be_visible()
        assert ann.page.title() == "The Crew: Mission Deep Sea"
        expect(ann.page.locator(".dsa-page-role")).to_contain_text("only what Ann may know")
        expect(spec.page.locator(".dsa-page-role")).to_contain_text("Spectator")
        # each seat's board shows its own hand, the spectator's none
        for q, s in screens.items():
            hand = srv.call(lambda q=q: sorted(srv.table.game.game.hand(q)))
            expect(s.root.locator(".crew-hand button[data-card]")).to_have_count(len(hand))
            shown = s.root.locator(".crew-hand button[data-card]").evaluate_all(
                "els => els.map(e => e.dataset.card)"
            )
            assert sorted(shown) == hand
        assert spec.root.locator(".crew-hand button[data-card]").count() == 0
        # the host starts; nobody holds Cy's link, so a bot takes the seat
        srv.call(lambda: srv.table.start(fill="random"))
        expect(spec.page.locator("#dsa-page")).to_have_attribute("data-conn", "open")
        assert srv.table.game.seats == ["human", "human", "random"]
        t0 = time.monotonic()
        clicks = 0
        for _ in range(1000):
            seq, actor, over = srv.call(
                lambda: (srv.table.seq, srv.table.game.to_move, srv.table.game.is_over)
            )
            if over:
                break
            if actor not in screens:  # the server's bot plays
                spec.drawn(seq + 1)
                continue
            s, other = screens[actor], screens[1 - actor]
            s.drawn(seq)
            if int(s.root.get_attribute("data-seq") or -1) != seq:
                continue  # the table moved on meanwhile
            # the other seat's board offers nothing to click on this turn
            other.drawn(seq)
            assert other.root.locator(".crew-card-btn.crew-legal, button.crew-take").count() == 0
            did = s.page.evaluate(CLICK_JS, s.root.element_handle())
            assert did is not None and did["kind"] != "show", did
            clicks += 1
            s.page.wait_for_function(MOVED_JS, arg=[s.root.element_handle(), seq], timeout=60_000)
            err = s.root.get_attribute("data-error")
            assert not err or err == "stale", s.root.locator(".dsa-error").text_content()
        else:
            pytest.fail("the game did not end")
        record_timing("crew served game", time.monotonic() - t0)
        final = srv.call(lambda: srv.table.seq)
        game = srv.table.game
        assert isinstance(game, CrewTable)
        record = srv.call(lambda: game.game.to_record())
        result = srv.call(lambda: game.game.outcome.result)
        for s in (ann, bob, spec):
            s.drawn(final)
            expect(s.root.locator(".crew-outcome")).to_have_attribute("data-result", result)
        assert clicks >= 2 and any(q == 2 for q, _ in game.game.actions)
        for seat, s in ((0, ann), (1, bob), (None, spec)):
            assert s.frames, seat
            assert crew_leaks(s.frames, seat, record) == [], seat
            assert not s.errors, s.errors
        # cards did reach the screens: the check above had something to check
        dealt = crew_knowledge(record)[0]["hands"]
        for q, s in screens.items():
            assert all(f'"{c}"' in "".join(s.frames) for c in dealt[q])
        print(f"\n[crew e2e] served game: {clicks} clicks, {len(record['turns'])} actions, {result}")
    finally:
        for s in (ann, bob, spec):
            s.close()
        srv.stop()


LOBBY = (
    "from dsa_widget.crew.widget import Crew\n"
    "w = Crew(players=['Ann', 'Bob', 'Cy'], seed=7, target=2)\n"
    "srv = w.serve(bot_delay=0.05)\n"
    "srv.lobby"
)

#: something the seat may click now (or the end)
CAN_CLICK_JS = """r => !!r.dataset.outcome || (!r.dataset.pending && !!r.querySelector(
  'button.crew-take, .crew-hand button.crew-legal[data-card], .crew-dummy button.crew-legal, '
  + '.crew-controls button.crew-action[data-choice]'))"""

#: what a board shows, for a failure's message
DEBUG_JS = """r => ({data: {...r.dataset}, controls: r.querySelector('.crew-controls')?.outerHTML,
  hand: r.querySelector('.crew-hand-box')?.outerHTML?.slice(0, 1500),
  status: r.querySelector('.crew-status')?.textContent})"""


def test_a_crew_table_served_from_the_notebook_kernel_plays_through_its_lobby(lab, page, browser):
    """serve_crew(w) in a notebook: the table runs on the kernel's loop, the lobby starts it
    with a bot in the seats nobody holds, the seat's page plays, Stop closes the page."""
    nb = lab.open("crew_lobby.ipynb", [LOBBY])
    nb.run_all()
    lobby = nb.output(0).locator(".dsa-lobby")
    expect(lobby).to_be_visible()
    expect(lobby.locator("tr[data-seat]")).to_have_count(4)  # three seats and the spectators
    url = lobby.locator('tr[data-seat="0"] a.dsa-lobby-link').get_attribute("href")
    assert url and "#t=" in url
    ann = Screen(browser, url)
    try:
        expect(lobby.locator('tr[data-seat="0"]')).to_have_attribute("data-connected", "1")
        expect(ann.root).to_be_visible()
        lobby.locator("select.dsa-lobby-fill").select_option("random")
        lobby.locator('button[data-action="start"]').click()
        expect(lobby).to_have_attribute("data-started", "1")
        expect(lobby.locator('tr[data-seat="1"]')).to_contain_text("random bot")
        expect(ann.page.locator("#dsa-page")).to_have_attribute("data-conn", "open")
        played = 0
        missed: list[Any] = []
        for _ in range(30):  # three of Ann's choices (or the end)
            handle = ann.root.element_handle()
            ann.page.wait_for_function(CAN_CLICK_JS, arg=handle, timeout=60_000)
            if ann.root.get_attribute("data-outcome") or played == 3:
                break
            seq = int(ann.root.get_attribute("data-seq") or -1)
            did = ann.page.evaluate(CLICK_JS, handle)
            if did is None:  # the board changed in between: look again
                missed.append(ann.page.evaluate(DEBUG_JS, handle))
                continue
            assert did["kind"] != "show", did
            ann.page.wait_for_function(MOVED_JS, arg=[handle, seq], timeout=60_000)
            assert not ann.root.get_attribute("data-error"), ann.root.locator(".dsa-error").text_content()
            played += 1
        assert played >= 1, missed
        if missed:
            print(f"\n[crew e2e] lobby: {len(missed)} looks found nothing to click: {missed[0]}")
        turns = int(nb.eval("srv.table.game.turn_number") or 0)
        assert turns >= played
        assert nb.eval("srv.table.game.seats") == "['human', 'random', 'random']"
        lobby.locator('button[data-action="stop"]').click()
        expect(lobby).to_have_attribute("data-closed", "1")
        expect(ann.page.locator("#dsa-page")).to_have_attribute("data-conn", "closed")
        assert not ann.errors, ann.errors
    finally:
        ann.close()
