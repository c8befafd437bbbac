"""The seat server in real Chromium (issue 12): two players in two browser contexts play a
whole ``reveal="owner"`` game through real WebSockets, a spectator watches in a third, a bot
fills the last seat; every frame each socket received is checked against what that screen
may know (tests/server_helpers.py: ``leaks``, shown to catch a leaking server in
tests/test_server.py)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from dsa_widget.deep_sea.remote import DeepSeaTable
from dsa_widget.server import serve

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from ports import free_port  # noqa: E402
from server_helpers import leaks, marker_path, markers_in, simple_choice  # noqa: E402

NAMES = ["Ann <i>x</i>", "Bob", "Cy"]


def poll(page: Any, cond: Any, timeout_ms: int = 30_000) -> None:
    """Wait until ``cond()`` holds, checking every 20 ms (a condition, not a guess at a delay)."""
    for _ in range(timeout_ms // 20):
        if cond():
            return
        page.wait_for_timeout(20)
    raise AssertionError("the condition did not come true")


class Screen:
    """One browser context on one link, with every WebSocket frame it received."""

    def __init__(self, browser: Any, url: str) -> None:
        self.context = browser.new_context(viewport={"width": 1100, "height": 900})
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._on_socket)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.goto(url)

    def _on_socket(self, ws: Any) -> None:
        ws.on(
            "framereceived", lambda payload: self.frames.append(payload if isinstance(payload, str) else "")
        )

    @property
    def root(self) -> Any:
        return self.page.locator(".dsa-root")

    def last_state(self) -> dict[str, Any] | None:
        for text in reversed(self.frames):
            f = json.loads(text) if text.startswith("{") else {}
            st = f.get("data", {}).get("state") if f.get("t") == "model" else None
            if st is not None:
                return st
        return None

    def state_at(self, seq: int) -> dict[str, Any]:
        """The state numbered ``seq`` once the board has drawn it (its frame arrived first)."""
        expect(self.root).to_have_attribute("data-seq", str(seq))
        for _ in range(50):  # round trips to the browser deliver the frame events queued before
            st = self.last_state()
            if st is not None and st["seq"] >= seq:
                return st
            self.page.evaluate("1")
        raise AssertionError(f"no frame with state {seq} recorded")

    def wait_past(self, seq: int) -> None:
        self.page.wait_for_function(
            "s => Number(document.querySelector('.dsa-root')?.dataset.seq) > s", arg=seq, timeout=30_000
        )

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def table():
    srv = serve(
        players=NAMES,
        air=8,
        rounds=2,
        seed=11,
        path=marker_path(),
        options={"reveal": "owner"},
        bot_delay=0.05,
        bot_seed=5,
    )
    yield srv
    srv.stop()


def test_two_players_and_a_spectator_each_see_only_their_own_knowledge(browser, table):
    srv = table
    ann, bob = Screen(browser, srv.seat_url(0)), Screen(browser, srv.seat_url(1))
    spec = Screen(browser, srv.spectator_url)
    screens = {0: ann, 1: bob}
    try:
        for s in (ann, bob, spec):
            expect(s.page.locator("#dsa-page")).to_have_attribute("data-conn", "waiting")
            expect(s.root).to_be_visible()
        # before the host starts, no board offers a choice; each says why (they said "Your
        # turn." and showed a Roll that was refused)
        expect(ann.root.locator(".dsa-status")).to_have_text("Waiting for the host to start the game.")
        expect(ann.root.locator(".dsa-controls")).to_have_text("Waiting for the host to start the game.")
        expect(ann.root.locator("button[data-choice]")).to_have_count(0)
        expect(ann.page.locator(".dsa-page-role")).to_contain_text("only what Ann <i>x</i> may know")
        expect(spec.page.locator(".dsa-page-role")).to_contain_text("Spectator")
        # names are text: the tag in Ann's name is shown, never made
        expect(spec.root).to_contain_text("Ann <i>x</i>")
        assert spec.page.locator(".dsa-root i").count() == 0
        # the host starts; nobody holds Cy's link, so a bot takes the seat
        srv.call(lambda: srv.table.start(fill="random"))
        expect(spec.page.locator("#dsa-page")).to_have_attribute("data-conn", "open")
        assert srv.table.game.seats == ["human", "human", "random"]
        reloaded = False
        for _ in range(3000):
            seq, cur, over = srv.call(lambda: (srv.table.seq, srv.table.game.to_move, srv.table.game.is_over))
            if over:
                break
            if cur not in screens:
                spec.wait_past(seq)  # the server's bot plays
                continue
            s = screens[cur]
            st = s.state_at(seq)
            if st["step"] == "search" and not reloaded:
                # drop out mid-turn and come back with the same link: the same turn, the same dice
                reloaded = True
                before = {k: st[k] for k in ("step", "current", "divers", "path", "last_dice", "legal")}
                s.page.reload()
                expect(s.page.locator("#dsa-page")).to_have_attribute("data-conn", "open")

                # the old socket's goodbye and the new one's hello are both news to the screens
                def one_socket(seat: int = cur) -> bool:
                    return srv.call(lambda: srv.table.connected.get(seat, 0)) == 1

                poll(s.page, one_socket)
                seq = srv.call(lambda: srv.table.seq)
                st = s.state_at(seq)
                assert {k: st[k] for k in before} == before
            # Bob's screen offers no choice on Ann's turn, and vice versa
            other = screens[1 - cur]
            expect(other.page.locator("[data-waiting]")).to_be_visible()
            assert other.page.locator("button[data-choice]").count() == 0
            s.page.locator(f'button[data-choice="{simple_choice(st)}"]').click()
            s.wait_past(seq)
        else:
            pytest.fail("the game did not end")
        assert reloaded
        final = srv.call(lambda: srv.table.seq)
        for s in (ann, bob, spec):
            s.state_at(final)
            expect(s.root).to_have_attribute("data-over", "1")
        game = srv.table.game
        assert isinstance(game, DeepSeaTable)
        record = srv.call(lambda: game.game.to_record())
        assert len(record["turns"]) > 10
        for seat, s in ((0, ann), (1, bob), (None, spec)):
            assert s.frames, seat
            assert leaks(s.frames, seat, record) == [], seat
            assert not s.errors, s.errors
        # values did reach the screens: the check above had something to check
        assert markers_in("".join(ann.frames)) and markers_in("".join(spec.frames))
    finally:
        for s in (ann, bob, spec):
            s.close()


# ---------------------------------------------------------------------- in JupyterLab

LOBBY = (
    "from dsa_widget import DeepSea\n"
    "w = DeepSea(players=['Ann', 'Bob'], seed=3, options={'reveal': 'owner'}, bot_delay=0)\n"
    "srv = w.serve()\n"
    "srv.lobby"
)


def test_the_notebook_lobby_starts_a_served_game_and_a_bot_fills_the_empty_seat(lab, page, browser):
    """The notebook's widget is the lobby: links, who is connected, Start with a bot for the
    seats nobody holds; the seat's page plays, the notebook's board shows public knowledge."""
    nb = lab.open("lobby.ipynb", [LOBBY, "w"])
    nb.run_all()
    lobby = nb.output(0).locator(".dsa-lobby")
    expect(lobby).to_be_visible()
    expect(lobby.locator("tr[data-seat]")).to_have_count(3)  # two seats and the spectators
    url = lobby.locator('tr[data-seat="0"] a.dsa-lobby-link').get_attribute("href")
    assert url and "#t=" in url
    expect(lobby.locator('tr[data-seat="0"] img.dsa-lobby-qr')).to_be_visible()
    # its buttons look like buttons (they were plain words), "Spectators" is not cut in two
    start = lobby.locator('button[data-action="start"]')
    expect(start).to_have_css("border-top-style", "solid")
    lines = "td => { const r = new Range(); r.selectNodeContents(td); return r.getClientRects().length; }"
    assert lobby.locator('tr[data-seat="spectator"] td').first.evaluate(lines) == 1
    ann = Screen(browser, url)
    try:
        expect(lobby.locator('tr[data-seat="0"]')).to_have_attribute("data-connected", "1")
        expect(lobby.locator('tr[data-seat="1"]')).to_have_attribute("data-connected", "0")
        # Copy says whether the link went to the clipboard (it said nothing either way)
        copy = lobby.locator('tr[data-seat="1"] button[data-action="copy"]')
        copy.click()
        expect(copy).to_have_attribute("data-copied", re.compile("^[01]$"))
        copied = copy.get_attribute("data-copied") == "1"  # the words follow what happened
        expect(copy).to_have_text("Copied" if copied else re.compile("^Not copied"))
        lobby.locator("select.dsa-lobby-fill").select_option("random")
        lobby.locator('button[data-action="start"]').click()
        expect(lobby).to_have_attribute("data-started", "1")
        expect(lobby.locator('tr[data-seat="1"]')).to_contain_text("random bot")
        expect(ann.page.locator("#dsa-page")).to_have_attribute("data-conn", "open")
        board = nb.output(1).locator(".dsa-root")
        expect(board).to_be_visible()
        seq = ann.root.get_attribute("data-seq")
        ann.page.locator('button[data-choice="roll"]').click()
        expect(ann.root).not_to_have_attribute("data-seq", seq or "")
        expect(board).to_have_attribute("data-step", "search")  # the notebook follows the table
        assert nb.eval("w.state['viewer'] is None") == "True"  # ...from public knowledge only
        lobby.locator('button[data-action="stop"]').click()
        expect(lobby).to_have_attribute("data-closed", "1")
        expect(ann.page.locator("#dsa-page")).to_have_attribute("data-conn", "closed")
        assert not ann.errors, ann.errors
    finally:
        ann.close()


HOT_SEAT = (
    "from dsa_widget import DeepSea\n"
    "w = DeepSea(players=['Ann', 'Bob', 'Cy'], seed=2, hot_seat=True, options={'reveal': 'owner'})\n"
    "w"
)


def test_hot_seat_hides_the_board_between_seats(lab, page, console):
    nb = lab.open("hotseat.ipynb", [HOT_SEAT])
    nb.run_all()
    root = nb.output(0).locator(".dsa-root")
    expect(root).to_have_attribute("data-curtain", "0")
    curtain = root.locator(".dsa-curtain")
    expect(curtain).to_contain_text("Pass the device to Ann")
    expect(root.locator(".dsa-board-box")).to_be_hidden()  # nothing behind the curtain shows
    seq = root.get_attribute("data-seq")
    page.keyboard.press("r")  # keys do nothing behind the curtain
    curtain.locator('button[data-action="show-seat"]').click()
    expect(root).not_to_have_attribute("data-curtain", "0")
    expect(root.locator(".dsa-board-box")).to_be_visible()
    assert nb.eval("w.game.turn_number") == "0" and seq != root.get_attribute("data-seq")
    root.locator('button[data-choice="roll"]').click()
    expect(root).to_have_attribute("data-step", "search")
    root.locator('button[data-choice="take"]').click()
    expect(root).to_have_attribute("data-curtain", "1")  # Bob's turn: down again
    expect(root.locator(".dsa-curtain")).to_contain_text("Pass the device to Bob")
    assert nb.eval("w.state['viewer'] is None") == "True"
    console.assert_no_errors()


def _serve_cli(args: list[str]) -> tuple[Any, dict[str, Any]]:
    import subprocess

    root = Path(__file__).resolve().parents[2]
    p = subprocess.Popen(
        [sys.executable, "-m", "dsa_widget", "serve", "--json", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=root,
    )
    assert p.stdout is not None
    line = p.stdout.readline()
    assert line, p.stderr.read() if p.stderr else "no output"
    return p, json.loads(line)


def test_a_page_comes_back_by_itself_after_the_server_is_killed_and_resumed(browser, tmp_path):
    """Kill the server mid-turn (no goodbye, as a crash), resume it from the record on the same
    port: the open page reconnects on its own and shows the same turn, the same dice."""
    path, port = tmp_path / "crash.json", free_port()
    proc, info = _serve_cli(
        ["--players", "Ann", "Bob", "--seed", "5", "--reveal", "owner", "--start", "--port", str(port)]
        + ["--record", str(path)]
    )
    ann = Screen(browser, info["seats"][0])
    try:
        expect(ann.page.locator("#dsa-page")).to_have_attribute("data-conn", "open")
        ann.page.locator('button[data-choice="roll"]').click()
        expect(ann.root).to_have_attribute("data-step", "search")
        before = ann.last_state()
        assert before is not None and before["current"] == 0
        proc.kill()
        proc.wait(30)
        expect(ann.page.locator("#dsa-page")).to_have_attribute("data-conn", "lost")
        # a click while the socket is down says so; the page once took itself for a saved page
        # (no kernel) and disabled its controls for good, even after it reconnected
        ann.page.locator('button[data-choice="take"]').click()
        expect(ann.root.locator(".dsa-error")).to_contain_text("connection to the table is lost")
        expect(ann.root).not_to_have_attribute("data-kernel", "none")
        proc, again = _serve_cli(["--resume", str(path), "--port", str(port)])
        assert again["seats"] == info["seats"]  # the same links
        expect(ann.page.locator("#dsa-page")).to_have_attribute("data-conn", "open", timeout=30_000)
        expect(ann.root).to_have_attribute("data-step", "search")
        after = ann.last_state()
        assert after is not None
        for key in ("turn", "current", "divers", "path", "last_dice", "legal", "air"):
            assert after[key] == before[key], key
        seq = ann.root.get_attribute("data-seq")
        ann.page.locator('button[data-choice="take"]').click()
        expect(ann.root).not_to_have_attribute("data-seq", seq or "")
        expect(ann.root).to_have_attribute("data-turn", "1")
    finally:
        ann.close()
        proc.terminate()
        proc.wait(30)


def test_a_served_pages_keys_and_clicks_say_why_they_do_nothing(browser):
    """A served page has no history bar, what-if or bot controls (they are the host's board's):
    its keys line names only what works there, and W, PgUp, S, Deep Sea's H say why they do
    nothing instead of nothing; a spectator's R says a spectator does not play; once the host
    closes the table, a click says so (not that the page will reconnect)."""
    srv = serve(players=["Ann", "Bob"], seed=3, bot_delay=0)
    srv.call(lambda: srv.table.start())
    ann, spec = Screen(browser, srv.seat_url(0)), Screen(browser, srv.spectator_url)
    try:
        expect(ann.page.locator("#dsa-page")).to_have_attribute("data-conn", "open")
        keys_line = ann.root.locator(".dsa-common-keys")
        expect(keys_line).to_contain_text("Esc release keys")
        expect(keys_line).not_to_contain_text("W what-if")
        expect(ann.root.locator(".dsa-game-keys")).not_to_contain_text("H hints")
        shortcuts = (ann.root.get_attribute("aria-keyshortcuts") or "").split()
        assert "R" in shortcuts and not {"W", "D", "H"} & set(shortcuts), shortcuts
        ann.root.locator(".dsa-board-box").click()  # the board takes the keys
        seq = ann.root.get_attribute("data-seq")
        for key, words in [
            ("w", "W: no what-if at a served table"),
            ("PageUp", "PgUp: no history at a served table"),
            ("s", "S: the bots are the host's"),
            ("h", "H: no hints at a served table"),
        ]:
            ann.page.keyboard.press(key)
            expect(ann.root.locator(".dsa-error")).to_contain_text(words)
        assert ann.root.get_attribute("data-seq") == seq
        spec.root.locator(".dsa-board-box").click()
        spec.page.keyboard.press("r")
        expect(spec.root.locator(".dsa-error")).to_contain_text("R: a spectator's screen does not play")
        assert not ann.errors and not spec.errors, (ann.errors, spec.errors)
        # the host closes the table: the board offers no choice and says why (it kept its
        # buttons), and a key says so too, not that the page will reconnect
        srv.stop()
        expect(ann.page.locator("#dsa-page")).to_have_attribute("data-conn", "closed")
        expect(ann.root.locator(".dsa-status")).to_have_text("The host closed the table.")
        expect(ann.root.locator("button[data-choice]")).to_have_count(0)
        ann.page.keyboard.press("r")
        expect(ann.root.locator(".dsa-error")).to_contain_text("R: the host closed the table")
    finally:
        ann.close()
        spec.close()
        srv.stop()


def _background(page: Any) -> list[float]:
    """The board's background colour (r, g, b), 0-255."""
    css = page.locator(".dsa-root").evaluate("el => getComputedStyle(el).backgroundColor")
    return [float(x) for x in re.findall(r"[\d.]+", css)[:3]]


def test_a_served_page_follows_the_browsers_dark_preference(browser):
    """A dark browser got a dark bar over a white board: the page now marks the body as
    JupyterLab marks a dark theme and gives the boards JupyterLab Dark's colours; a light
    browser keeps the light board."""
    srv = serve(players=["Ann", "Bob"], seed=3, bot_delay=0)
    try:
        for scheme, theme_light in (("dark", "false"), ("light", "true")):
            context = browser.new_context(viewport={"width": 1100, "height": 900}, color_scheme=scheme)
            try:
                page = context.new_page()
                page.goto(srv.seat_url(0))
                expect(page.locator(".dsa-root")).to_be_visible()
                expect(page.locator("body")).to_have_attribute("data-jp-theme-light", theme_light)
                r, g, b = _background(page)
                assert (max(r, g, b) < 80) if scheme == "dark" else (min(r, g, b) > 200), (scheme, r, g, b)
            finally:
                context.close()
    finally:
        srv.stop()


def test_a_link_that_opens_no_seat_says_so_and_not_connecting(browser):
    """A wrong or cut link: the bar said "Connecting…" beside "This link opens no seat", for good."""
    srv = serve(players=["Ann", "Bob"], seed=3, bot_delay=0)
    context = browser.new_context()
    try:
        page = context.new_page()
        for url, words in (
            (srv.base_url + "play#t=nonsense", "This link opens no seat"),
            (srv.base_url + "play", "This link has no seat token"),
        ):
            page.goto(url)
            expect(page.locator("#dsa-page")).to_have_attribute("data-conn", "refused")
            expect(page.locator(".dsa-page-conn")).to_contain_text(words)
            expect(page.locator(".dsa-page-role")).to_have_text("No seat.")
    finally:
        context.close()
        srv.stop()
