"""The seat server (issue 12) over real WebSockets on loopback: who may send what, limits,
per-seat knowledge, reconnecting, the record after every turn and resuming from it."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, ShowsTheSpectatorASeat, leaks, marker_path, markers_in, simple_choice
from websockets.exceptions import ConnectionClosed, InvalidStatus

from dsa_widget import Game
from dsa_widget.deep_sea.remote import DeepSeaTable
from dsa_widget.server import Limits, SeatKeys, Server, Table, make_table, serve, sidecar_path

ROOT = Path(__file__).resolve().parents[1]


def owner_setup(**kw: Any) -> dict[str, Any]:
    s: dict[str, Any] = {
        "players": ["Ann", "Bob", "Cy"],
        "air": 8,
        "rounds": 2,
        "seed": 11,
        "path": marker_path(),
        "options": {"reveal": "owner"},
    }
    s.update(kw)
    return s


@pytest.fixture
def served():
    """A started 3-seat table (Cy a bot, no delay), served on a free loopback port."""
    servers: list[Server] = []

    def make(**kw: Any) -> Server:
        opts: dict[str, Any] = {"seats": {2: "random"}, "bot_delay": 0.0, "started": True, "bot_seed": 5}
        opts.update(kw)
        setup = {
            k: opts.pop(k) for k in list(opts) if k in ("players", "air", "rounds", "seed", "path", "options")
        }
        srv = serve(**owner_setup(**setup), **opts)
        servers.append(srv)
        return srv

    yield make
    for s in servers:
        s.stop()


def game_of(srv: Server) -> Game:
    g = srv.table.game
    assert isinstance(g, DeepSeaTable)
    return g.game


def snapshot(srv: Server) -> dict[str, Any]:
    return srv.call(lambda: game_of(srv).state_dict())


def play_to_end(srv: Server, clients: dict[int, Client], watchers: list[Client] = ()) -> None:
    """Each human seat plays :func:`simple_choice` from its own screen until the game is over."""
    anyone = next(iter(clients.values()))
    anyone.state_at_least(1)
    for _ in range(2000):
        st = anyone.state
        assert st is not None
        if st["over"]:
            break
        q = st["current"]
        if q in clients:
            c = clients[q]
            mine = c.state_at_least(st["seq"])
            if mine["seq"] == st["seq"]:
                c.send({"type": "intent", "seq": mine["seq"], "choice": simple_choice(mine)})
        anyone.state_at_least(st["seq"] + 1)
    else:
        pytest.fail("the game did not end")
    final = srv.table.seq
    for c in [*clients.values(), *watchers]:
        c.state_at_least(final)


# ---------------------------------------------------------------------- keys


def test_seat_tokens_are_long_distinct_and_open_only_their_seat():
    keys = SeatKeys(6)
    tokens = [keys.seat_token(q) for q in range(6)] + [keys.spectator_token]
    assert len(set(tokens)) == 7 and all(len(t) >= 43 for t in tokens)  # 32 random bytes each
    assert [keys.role(t) for t in tokens] == [0, 1, 2, 3, 4, 5, None]
    for bad in ["", "x" * 200, tokens[0][:-1], tokens[0] + "A", None, 7, ["a"], tokens[0].upper()]:
        assert keys.role(bad) == -1
    assert SeatKeys(6).seat_token(0) != keys.seat_token(0)  # fresh from secrets every time


def test_importing_the_package_does_not_import_starlette():
    code = "import sys, dsa_widget, dsa_widget.deep_sea.widget; print('starlette' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_server_binds_to_loopback_by_default(served):
    srv = served()
    assert srv.host == "127.0.0.1" and srv.base_url.startswith("http://127.0.0.1:")
    assert srv.seat_url(0).split("#t=")[1] == srv.table.keys.seat_token(0)
    assert "#t=" in srv.spectator_url  # the token is in the fragment: never in a request line


# ---------------------------------------------------------------------- refused frames


def test_a_wrong_token_is_refused_and_closed(served):
    srv = served()
    before = snapshot(srv)
    c = Client(srv.base_url, "not-a-token-" + "x" * 40)
    assert c.welcome == {"t": "error", "kind": "token", "message": "this link opens no seat"}
    with pytest.raises(ConnectionClosed) as e:
        c.recv(5)
    assert e.value.rcvd is not None and e.value.rcvd.code == 1008
    c2 = Client(srv.base_url, "", join=False)
    c2.send("not json at all")
    assert json.loads(c2.ws.recv(timeout=5))["kind"] == "token"
    assert snapshot(srv) == before and srv.table.connected.get(0, 0) == 0


def test_a_foreign_origin_is_refused_at_the_handshake(served):
    srv = served()
    with pytest.raises(InvalidStatus) as e:
        Client(srv.base_url, srv.table.keys.seat_token(0), origin="http://evil.example")
    assert e.value.response.status_code == 403
    ok = Client(srv.base_url, srv.table.keys.seat_token(0), origin=srv.base_url.rstrip("/"))
    assert ok.welcome is not None and ok.welcome["seat"] == 0


def test_stale_foreign_seat_and_spectator_intents_change_nothing(served):
    srv = served()
    ann = Client(srv.base_url, srv.table.keys.seat_token(0))
    bob = Client(srv.base_url, srv.table.keys.seat_token(1))
    spec = Client(srv.base_url, srv.table.keys.spectator_token)
    st = ann.state_at_least(srv.table.seq)
    assert st["current"] == 0 and st["legal"] == ["roll"]
    before = snapshot(srv)
    seq = srv.table.seq
    bob.state_at_least(seq)
    spec.state_at_least(seq)
    # Bob clicks for Ann's turn (the right seq, the wrong seat)
    bob.send({"type": "intent", "seq": seq, "choice": "roll"})
    assert bob.until(lambda f: f["t"] == "error")["kind"] == "seat"
    spec.send({"type": "intent", "seq": seq, "choice": "roll"})
    assert spec.until(lambda f: f["t"] == "error")["kind"] == "seat"
    ann.send({"type": "intent", "seq": seq - 1, "choice": "roll"})  # stale
    assert ann.until(lambda f: f["t"] == "error")["kind"] == "stale"
    ann.send({"type": "intent", "seq": seq, "choice": "take"})  # illegal now
    assert ann.until(lambda f: f["t"] == "error")["kind"] == "illegal"
    assert snapshot(srv) == before and srv.table.seq == seq


@pytest.mark.parametrize(
    ("frame", "kind"),
    [
        ("{not json", "malformed"),
        ("[1, 2, 3]", "malformed"),
        ('{"type": "what_if", "seq": 1}', "malformed"),
        ('{"type": "intent", "seq": "3", "choice": "roll"}', "malformed"),
        ('{"type": "intent", "seq": 1, "choice": ["roll"]}', None),  # stale or malformed: refused
        (json.dumps({"type": "intent", "seq": 1, "choice": "x" * 5000}), "too_big"),
        (b"\x00\x01binary", "malformed"),
    ],
)
def test_malformed_and_oversized_frames_get_an_error_frame_and_change_nothing(served, frame, kind):
    srv = served()
    ann = Client(srv.base_url, srv.table.keys.seat_token(0))
    ann.state_at_least(srv.table.seq)
    before, seq = snapshot(srv), srv.table.seq
    ann.send(frame)
    err = ann.until(lambda f: f["t"] == "error")
    assert err["kind"] == kind if kind else err["kind"] in ("stale", "malformed")
    # the connection still works: a good intent is applied
    ann.send({"type": "intent", "seq": seq, "choice": "roll"})
    assert ann.state_at_least(seq + 1)["step"] != "roll" or game_of(srv).turn_number > 0
    assert snapshot(srv) != before


def test_a_frame_over_the_transport_cap_closes_the_connection(served):
    srv = served(limits=Limits(transport_max_bytes=8192))
    ann = Client(srv.base_url, srv.table.keys.seat_token(0))
    before = snapshot(srv)
    ann.send("x" * 20000)
    with pytest.raises(ConnectionClosed) as e:
        while True:
            ann.recv(10)
    assert e.value.rcvd is not None and e.value.rcvd.code == 1009
    assert snapshot(srv) == before


def test_a_flood_is_bounded_then_cut_off(served):
    srv = served(limits=Limits(rate=5, burst=5, max_dropped=60))
    ann = Client(srv.base_url, srv.table.keys.seat_token(0))
    ann.state_at_least(srv.table.seq)
    before, seq = snapshot(srv), srv.table.seq
    stale = json.dumps({"type": "intent", "seq": seq + 1000, "choice": "roll"})
    with contextlib.suppress(ConnectionClosed):  # the server may cut it off before the end
        for _ in range(400):  # bounded: far more than the burst, on loopback only
            ann.send(stale)
    kinds = []
    with pytest.raises(ConnectionClosed) as e:
        while True:
            f = ann.recv(10)
            kinds.append(f.get("kind"))
    assert e.value.rcvd is not None and e.value.rcvd.code == 1008
    assert "rate" in kinds and kinds.count("stale") <= 5 + 5 * 10  # the burst, plus what refilled
    assert snapshot(srv) == before and srv.table.seq == seq  # a disconnect is no game state


# ---------------------------------------------------------------------- knowledge


def test_a_full_owner_game_sends_each_screen_only_what_it_may_know(served):
    srv = served()
    keys = srv.table.keys
    ann, bob = Client(srv.base_url, keys.seat_token(0)), Client(srv.base_url, keys.seat_token(1))
    spec = Client(srv.base_url, keys.spectator_token)
    play_to_end(srv, {0: ann, 1: bob}, [spec])
    record = srv.call(lambda: game_of(srv).to_record())
    assert game_of(srv).is_over and len(record["turns"]) > 10
    for seat, c in [(0, ann), (1, bob), (None, spec)]:
        assert leaks(c.frames, seat, record) == [], seat
    # the check can fail: values did reach the screens (at the end every banked one)
    assert markers_in("".join(ann.frames)) and markers_in("".join(spec.frames))
    assert spec.state is not None and spec.state["over"] and None not in spec.state["scores"]
    # and the bot seat was played by the server (no socket holds its token)
    assert any(e["type"] == "turn" and e["seat"] == 2 for e in game_of(srv).events)


class _LeakyTable(ShowsTheSpectatorASeat, DeepSeaTable):
    """A broken server: spectators are sent seat 0's screen."""

    SEAT = 0


def test_the_knowledge_check_catches_a_server_that_leaks():
    g = Game(**owner_setup())
    table = Table(_LeakyTable(g, ["human", "human", "random"], bot_seed=5), bot_delay=0.0, started=True)
    with Server(table) as srv:
        keys = table.keys
        ann, bob = Client(srv.base_url, keys.seat_token(0)), Client(srv.base_url, keys.seat_token(1))
        spec = Client(srv.base_url, keys.spectator_token)
        play_to_end(srv, {0: ann, 1: bob}, [spec])
        record = srv.call(lambda: g.to_record())
    assert leaks(ann.frames, 0, record) == []
    found = leaks(spec.frames, None, record)
    assert any("values" in x for x in found) and any("score of seat 0" in x for x in found)


def test_names_travel_as_data(served):
    srv = served(players=["<img src=x onerror=alert(1)>", "Bob", "Cy"])
    c = Client(srv.base_url, srv.table.keys.seat_token(0))
    assert c.welcome is not None and c.welcome["name"] == "<img src=x onerror=alert(1)>"
    assert c.state_at_least(1)["players"][0] == "<img src=x onerror=alert(1)>"


# ---------------------------------------------------------------------- not losing anything


def test_reconnecting_mid_turn_restores_the_same_state(served):
    srv = served()
    ann = Client(srv.base_url, srv.table.keys.seat_token(0))
    seq = ann.state_at_least(srv.table.seq)["seq"]
    ann.send({"type": "intent", "seq": seq, "choice": "roll"})
    mid = ann.state_at_least(seq + 1)
    assert mid["step"] == "search" and mid["current"] == 0  # mid-turn: rolled, not yet searched
    ann.close()
    again = Client(srv.base_url, srv.table.keys.seat_token(0))
    st = again.state_at_least(srv.table.seq)
    for key in ("step", "current", "divers", "path", "air", "last_dice", "legal", "turn"):
        assert st[key] == mid[key], key
    again.send({"type": "intent", "seq": st["seq"], "choice": "take"})
    assert again.state_at_least(st["seq"] + 1)["turn"] == 1


def test_the_record_is_written_after_every_turn_and_resume_loses_nothing(tmp_path, served):
    path = tmp_path / "game.json"
    srv = served(record=path)
    keys = srv.table.keys.to_dict()
    ann = Client(srv.base_url, srv.table.keys.seat_token(0))
    bob = Client(srv.base_url, srv.table.keys.seat_token(1))
    for seat, c in [(0, ann), (1, bob)]:
        st = c.state_at_least(srv.table.seq)
        while st["current"] != seat:
            st = c.state_at_least(st["seq"] + 1)
        c.send({"type": "intent", "seq": st["seq"], "choice": "roll"})
        st = c.state_at_least(st["seq"] + 1)
        if st["current"] == seat and st["step"] == "search":
            c.send(
                {"type": "intent", "seq": st["seq"], "choice": "take" if "take" in st["legal"] else "none"}
            )
            c.state_at_least(st["seq"] + 1)
        # read on the server's loop, so that the bot seat cannot play between the two reads
        on_disk, turns = srv.call(lambda: (json.loads(path.read_text()), game_of(srv).turn_number))
        assert len(on_disk["turns"]) == turns  # after every turn
    # a roll of the turn under way: not yet in the record, kept in the sidecar
    st = ann.state_at_least(srv.table.seq)
    while st["current"] != 0:
        st = ann.state_at_least(st["seq"] + 1)
    legal = st["legal"]
    ann.send({"type": "intent", "seq": st["seq"], "choice": "continue" if "continue" in legal else "roll"})
    st = ann.state_at_least(st["seq"] + 1)
    if st["step"] == "roll":
        ann.send({"type": "intent", "seq": st["seq"], "choice": "roll"})
        st = ann.state_at_least(st["seq"] + 1)
    assert st["step"] == "search" and st["current"] == 0
    before = snapshot(srv)
    assert oct(sidecar_path(path).stat().st_mode & 0o777) == "0o600"  # the links are secrets
    srv.stop()
    table = make_table(resume=path)
    assert table.keys.to_dict() == keys  # the same links
    assert table.game.seats == ["human", "human", "random"]
    resumed = table.game
    assert isinstance(resumed, DeepSeaTable)
    assert resumed.game.state_dict() == before  # the roll under way too, with its dice


def test_the_command_line_serves_and_resumes(tmp_path):
    path = tmp_path / "cli.json"
    cmd = [sys.executable, "-m", "dsa_widget", "serve", "--players", "Ann", "Bob", "--seat", "1=random"]
    cmd += ["--seed", "3", "--record", str(path), "--json", "--start", "--bot-delay", "0"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        assert p.stdout is not None
        info = json.loads(p.stdout.readline())
        ann = Client(info["base_url"], info["seats"][0].split("#t=")[1])
        st = ann.state_at_least(1)
        ann.send({"type": "intent", "seq": st["seq"], "choice": "roll"})
        st = ann.state_at_least(st["seq"] + 1)
        ann.send({"type": "intent", "seq": st["seq"], "choice": st["legal"][-1]})
        st = ann.state_at_least(st["seq"] + 1)
        while st["current"] != 0:
            st = ann.state_at_least(st["seq"] + 1)
        turns = st["turn"]
    finally:
        p.kill()  # no goodbye: as a crash would
        p.wait(30)
    assert len(json.loads(path.read_text())["turns"]) == turns >= 2
    p = subprocess.Popen(
        [sys.executable, "-m", "dsa_widget", "serve", "--resume", str(path), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    try:
        assert p.stdout is not None
        again = json.loads(p.stdout.readline())
        assert [u.split("#t=")[1] for u in again["seats"]] == [u.split("#t=")[1] for u in info["seats"]]
        ann = Client(again["base_url"], again["seats"][0].split("#t=")[1])
        st2 = ann.state_at_least(1)
        assert st2["turn"] == turns and st2["divers"] == st["divers"] and st2["current"] == 0
    finally:
        p.terminate()
        p.wait(30)


# ---------------------------------------------------------------------- the page


def test_the_page_loads_the_widgets_own_bundle_under_a_strict_policy(served):
    import urllib.error
    import urllib.request

    srv = served()
    with urllib.request.urlopen(srv.base_url + "play") as r:
        html = r.read().decode()
        csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "connect-src 'self'" in csp and "default-src 'none'" in csp
    assert 'src="static/page.js"' in html and "#t=" not in html  # relative: works behind a proxy prefix
    with urllib.request.urlopen(srv.base_url + "static/page.js") as r:
        page_js = r.read().decode()
    with urllib.request.urlopen(srv.base_url + "static/widget.js") as r:
        assert r.read() == (ROOT / "dsa_widget" / "static" / "widget.js").read_bytes()  # the same bundle
    assert 'from"./widget.js"' in page_js.replace(" ", "")  # the page imports it, not a copy
    for name in ("page.js", "lobby.js"):
        text = (ROOT / "dsa_widget" / "static" / name).read_text()
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text and "outerHTML" not in text
    for bad in ("static/../table.py", "static/secret.json", "static/%2e%2e%2fapp.py"):
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(srv.base_url + bad)
        assert e.value.code == 404
    with urllib.request.urlopen(srv.base_url) as r:
        index = r.read().decode()
    assert all(srv.table.keys.seat_token(q) not in index for q in range(3))


def test_a_running_loop_that_is_not_a_kernels_is_not_borrowed(served):
    """Outside a Jupyter kernel the server runs in a thread of its own, even when this thread
    has a running loop (an asyncio program, or Playwright's sync API in a test session): a
    loop this thread blocks would never answer."""
    import asyncio

    async def main() -> None:
        srv = served()
        assert srv.loop is not asyncio.get_running_loop()
        c = Client(srv.base_url, "not-a-token-" + "x" * 40)  # blocks this loop: the server answers
        assert c.welcome["kind"] == "token"

    # asyncio.run in a thread of its own: this thread may already have a running loop (the
    # browser tests' Playwright), which is the very case under test
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result()


@pytest.mark.parametrize("game", ["deep-sea", "crew", "submarine", "pig"])
def test_no_screen_offers_a_choice_before_the_start_or_after_the_close(game):
    # Every seat's page showed "Your turn." and its buttons before the host started the game,
    # and each click was refused; the screens now offer nothing and say why, in every game.
    from dsa_widget.core import registry
    from dsa_widget.server.session_table import SessionTable

    g = registry.game(game).new_game()
    n = len(g.players)
    table = Table(SessionTable(g, seats=["human"] * n, bot_seed=1), bot_delay=0.0)

    def states():
        return [json.loads(table.screen(q).parts["state"]) for q in range(n)]

    assert all(st["legal"] == [] and not st["can_act"] for st in states())
    assert {st["waiting"] for st in states()} == {"Waiting for the host to start the game."}
    table.start()
    now = states()
    assert not any("waiting" in st for st in now) and any(st["legal"] for st in now)
    table.close()
    assert all(st["legal"] == [] and st["waiting"] == "The host closed the table." for st in states())
