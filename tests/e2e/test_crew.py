"""The Crew in real Chromium, its renderer on the platform's shell (js/shell.js, js/crew/):
(a) a whole hot-seat mission played by clicks in JupyterLab (the curtain's Show, the tasks' Take
buttons, the legal cards by data-card / aria-label) until the outcome shows; (b) one board played
by a click and by the game's keys, a refusal shown in Python's words, the history scrubbed, a
what-if kept for the comparison table, and the setup form starting a new mission; (c) a failed
attempt's next attempt, and a timed mission's clock running out; (d) a served game, two seats in
two browser contexts and a spectator in a third over real WebSockets, a bot in the last seat,
played to the end by clicks; every frame each socket received is checked for a card of another
seat's hand that was not public then (tests/server_helpers.py ``crew_leaks``, shown to catch a
leaking screen in tests/crew/test_remote.py); (e) a table served from the notebook's kernel,
through its lobby.  A saved page's replay without a kernel: tests/e2e/test_static_export_shell.py.
"""

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
  || root.dataset.over === '1'"""

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
        if root.get_attribute("data-over"):
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


def wait_eval(nb, expr: str, want: str, timeout: float = 30.0) -> None:
    """Wait until the kernel's ``repr(expr)`` is ``want``."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if nb.eval(expr) == want:
            return
        time.sleep(0.1)
    raise AssertionError(f"{expr} is {nb.eval(expr)}, not {want}")


def py_json(nb, expr: str) -> Any:
    return json.loads(nb.execute(f"import json; print(json.dumps({expr}))").stdout)


BOARD = (
    "from dsa_widget.crew.widget import Crew\n"
    "w = Crew(players=['Ann', 'Bob', 'Cy'], seats={1: 'random', 2: 'random'}, seed=3, target=1,"
    " bot_seed=1, bot_delay=60)\n"
    "w"
)

#: Ann's turn, as Python sees it, once no bot is to move: [seq, legal, sorted hand] (or null)
ANN_TURN = (
    "[w.seq, w.state['legal'], sorted(w.game.hand(0), key=lambda c: ('PYBGS'.index(c[0]), int(c[1:])))]"
    " if not w.game.is_over and not w.is_bot_turn() and w.state['can_act'] else None"
)


def ann_turn(nb, timeout: float = 30.0) -> Any:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        turn = py_json(nb, ANN_TURN)
        if turn is not None or nb.eval("w.game.is_over") == "True":
            return turn
        time.sleep(0.1)
    raise AssertionError("Ann was never asked")


def test_the_board_plays_by_click_and_key_refuses_scrubs_compares_and_starts_anew(lab, page, console):
    nb = lab.open("crew_board.ipynb", [BOARD])
    nb.run_all()
    root = nb.output(0).locator(".crew-root")
    expect(root).to_be_visible()
    expect(root).to_have_attribute("data-mode", "real")
    hand = py_json(nb, "sorted(w.game.hand(0))")
    expect(root.locator(".crew-hand button.crew-card-btn")).to_have_count(len(hand))
    expect(root.locator(".dsa-game-keys")).to_contain_text("Enter play the focused card")
    # the Chances panel (issue ux6): task 77 needs no card captured, so no figure yet
    chances = root.locator(".dsa-chances")
    expect(chances).to_have_attribute("data-hints", "on")
    expect(chances).to_contain_text("No figure for this position.")

    # a click: Ann takes the task offered (the only one of a target-1 mission)
    assert py_json(nb, "w.state['legal']") == ["take 77", "pass"]
    root.locator('button.crew-take[data-choice="take 77"]').click()
    wait_eval(nb, "w.actions[:1]", "[(0, 'take 77')]")
    expect(root.locator('li.crew-task[data-task="77"]')).to_contain_text("Ann")

    # the game's keys: ←/→ move along the hand and Enter plays the focused card (or passes it on,
    # in a distress signal); N says no distress, A agrees, P passes
    plays = 0
    for _ in range(16):
        turn = ann_turn(nb)
        if turn is None or plays == 2:
            break
        seq, legal, cards = turn
        page.wait_for_function("([r, s]) => Number(r.dataset.seq) >= s", arg=[root.element_handle(), seq])
        n = len(py_json(nb, "w.actions"))
        chosen = [f"{v} {c}" for c in cards for v in ("play", "give") if f"{v} {c}" in legal]
        if chosen:
            card = chosen[0].split()[1]
            for _ in cards:  # to the first card, whichever had the focus
                page.keyboard.press("ArrowLeft")
            for _ in range(cards.index(card)):
                page.keyboard.press("ArrowRight")
            assert page.evaluate("() => document.activeElement?.dataset?.card ?? null") == card
            page.keyboard.press("Enter")
            plays += chosen[0].startswith("play")
        else:
            letters = (("n", "no distress"), ("a", "agree"), ("p", "pass"))
            key, choice = next((k, a) for k, a in letters if a in legal)
            chosen = [choice]
            page.keyboard.press(key)
        # a slice, not an index: the kernel may not have the action yet when first asked
        wait_eval(nb, f"w.actions[{n}:{n + 1}]", f"[(0, {chosen[0]!r})]")
    assert plays >= 1

    # a refusal: Python's words on the board, as text
    nb.execute("w.paused = True")
    nb.execute("w.handle_intent({'type': 'intent', 'seq': w.seq, 'choice': 'play <b>S9</b>'})")
    message = py_json(nb, "w.error['message']")
    kind = py_json(nb, "w.error['kind']")
    expect(root.locator(".dsa-error").first).to_have_text(message)
    expect(root).to_have_attribute("data-error", kind)
    assert root.locator(".dsa-error b").count() == 0

    # the history: PageUp one step back, Home the start (every card in hand, the task not taken)
    n = int(nb.eval("len(w.actions)"))
    root.locator(".dsa-status").click()  # the board has the keys
    page.keyboard.press("PageUp")
    expect(root).to_have_attribute("data-mode", "history")
    expect(root.locator(".dsa-status")).to_contain_text(f"History, step {n - 1} of {n}")
    before = int(nb.eval(f"len(w.game_after({n - 1}).hand(0))"))
    expect(root.locator(".crew-hand button.crew-card-btn")).to_have_count(before)
    page.keyboard.press("Home")
    expect(root.locator(".dsa-status")).to_contain_text(f"History, step 0 of {n}")
    expect(root.locator(".crew-hand button.crew-card-btn")).to_have_count(len(hand))
    expect(root.locator('li.crew-task[data-task="77"]')).to_contain_text("not taken yet")
    root.locator('button[data-action="live"]').click()
    expect(root).to_have_attribute("data-mode", "real")
    expect(root.locator(".crew-hand button.crew-card-btn")).to_have_count(len(py_json(nb, "w.game.hand(0)")))

    # a what-if: a step in it, kept for the comparison (the Keep button, then M), then back
    real = nb.eval("w.actions")
    root.locator('button[data-action="what-if"]').click()
    expect(root).to_have_attribute("data-mode", "whatif")
    table = root.locator("table.dsa-compare")
    expect(table.locator('tr[data-row="real"]')).to_have_count(1)
    expect(table.locator('tr[data-row="what-if"]')).to_have_count(1)
    expect(table.locator("thead")).to_contain_text("tricks won (Ann · Bob · Cy)")
    seq = int(root.get_attribute("data-seq"))
    if page.evaluate(CLICK_JS, root.element_handle()) is None:  # Ann's choice in the what-if
        root.locator('button[data-action="play-out"]').click()
    page.wait_for_function("([r, s]) => Number(r.dataset.seq) > s", arg=[root.element_handle(), seq])
    expect(root.locator('button[data-action="undo"]')).to_be_enabled()
    root.locator('button[data-action="keep"]').click()
    expect(table.locator('tr[data-row="kept 1"]')).to_have_count(1)
    page.keyboard.press("m")
    expect(table.locator('tr[data-row="kept 2"]')).to_have_count(1)
    assert nb.eval("len(w.session.kept)") == "2"
    row = table.locator('tr[data-row="real"] td[data-col="tricks_won"]')
    expect(row).to_have_text(" · ".join(str(k) for k in py_json(nb, "list(w.game.tricks_won)")))
    page.keyboard.press("q")
    expect(root).to_have_attribute("data-mode", "real")
    expect(root.locator("table.dsa-compare")).to_have_count(0)
    assert nb.eval("w.actions") == real, "the real game is untouched"

    # the setup form (generated from the setup trait) starts a new mission
    root.locator("details.dsa-setup > summary").click()
    form = root.locator("form.dsa-setup-form")
    form.locator('[data-field="players"]').select_option("4")
    form.locator('[data-field="name-3"]').fill("Di")
    form.locator('[data-field="kind-3"]').select_option("random")
    form.locator('[data-field="target"]').fill("2")
    form.locator('[data-field="seed"]').fill("24")  # tasks 1 and 2: capture P3, capture Y1
    form.locator('button[data-action="new-game"]').click()
    wait_eval(nb, "list(w.game.players)", "['Ann', 'Bob', 'Cy', 'Di']")
    assert nb.eval("w.seats") == "['human', 'random', 'random', 'random']"
    assert nb.eval("w.state['mission']['target']") == "2"
    expect(root.locator("li.crew-seat")).to_have_count(4)
    expect(root.locator("li.crew-seat").nth(3)).to_contain_text("Di")
    expect(root.locator(".crew-hand button.crew-card-btn")).to_have_count(len(py_json(nb, "w.game.hand(0)")))
    # Ann holds neither P3 nor Y1: the panel says who holds them, exact under the stated model
    expect(chances.locator("li").first).to_contain_text("Task ")
    expect(chances.locator(".dsa-chance-kind").first).to_have_text(
        "exact, if every deal that fits what you know is equally likely"
    )
    console.assert_no_errors()


NEXT_ATTEMPT = (
    "from dsa_widget.crew.widget import Crew\n"
    "w = Crew(players=['Ann', 'Bob', 'Cy'], seats={1: 'random', 2: 'random'}, seed=1, target=6, bot_seed=1)\n"
    "while not w.game.is_over:\n"
    "    w.bot_move() if w.is_bot_turn() else w.apply(w.game.legal_actions()[0])\n"
    "w"
)

TIMED = (
    "from dsa_widget.crew.widget import Crew\n"
    "t = Crew(players=['Ann', 'Bob', 'Cy'], seats={1: 'random', 2: 'random'}, seed=3, bot_seed=1,\n"
    "         mission={'target': 2, 'timer_seconds': 10})\n"
    "while not t.game.timer_started:\n"
    "    t.bot_move() if t.is_bot_turn() else t.apply(t.game.legal_actions()[0])\n"
    "t"
)


def test_a_failed_attempt_offers_the_next_and_a_timed_mission_runs_out_of_time(lab, page, console):
    nb = lab.open("crew_attempts.ipynb", [NEXT_ATTEMPT, TIMED])
    nb.run_all()
    root = nb.output(0).locator(".crew-root")
    expect(root).to_have_attribute("data-over", "1")
    assert nb.eval("w.game.outcome.result") == "'failure'"
    expect(root.locator(".crew-outcome")).to_have_attribute("data-result", "failure")
    expect(root.locator(".crew-outcome")).to_contain_text("Mission failed")
    # the shell's Play again, and The Crew's two kinds of next attempt
    expect(root.locator('button[data-action="play-again"]')).to_have_count(1)
    expect(root.locator('button[data-action="retry-new"]')).to_be_visible()
    tasks = nb.eval("sorted(x.id for x in w.game.tasks)")
    root.locator('button[data-action="retry-same"]').click()
    wait_eval(nb, "w.state['attempt']", "2")
    expect(root).to_have_attribute("data-over", "")
    expect(root.locator(".crew-outcome")).to_have_count(0)
    assert nb.eval("sorted(x.id for x in w.game.tasks)") == tasks
    expect(root.locator(".crew-attempt")).to_have_text("Attempt 2")

    # the clock: it counts down on the board, which tells Python once it has run out
    clock_root = nb.output(1).locator(".crew-root")
    clock = clock_root.locator(".crew-clock")
    expect(clock).to_contain_text(" left")
    expect(clock).not_to_contain_text("not started")
    assert nb.eval("t.is_bot_turn()") == "False"  # Ann is asked: nothing else moves
    expect(clock_root).to_have_attribute("data-over", "1", timeout=30_000)
    assert nb.eval("t.game.outcome.cause") == "'timeout'"
    expect(clock_root.locator(".crew-outcome")).to_contain_text("the clock ran out")
    expect(clock_root.locator(".crew-clock")).to_have_text("⏱ 0:00 left (stopped)")
    assert nb.eval("t.error") == "{}"
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
CAN_CLICK_JS = """r => r.dataset.over === '1' || (!r.dataset.pending && !!r.querySelector(
  'button.crew-take, .crew-hand button.crew-legal[data-card], .crew-dummy button.crew-legal, '
  + '.crew-controls button.crew-action[data-choice]'))"""

#: what a board shows, for a failure's message
DEBUG_JS = """r => ({data: {...r.dataset}, controls: r.querySelector('.crew-controls')?.outerHTML,
  hand: r.querySelector('.crew-hand-box')?.outerHTML?.slice(0, 1500),
  status: r.querySelector('.dsa-status')?.textContent})"""


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
            if ann.root.get_attribute("data-over") or played == 3:
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
