"""The notebook's side of issue 12: ``DeepSea.serve`` (the board shows public knowledge, the
seats play from their links, cells still drive the game), the lobby, and hot-seat mode (the
state sent to the browser is only ever the seat to move's, behind a curtain between seats)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_helpers import Client, leaks, marker_path, markers_in, simple_choice

from dsa_widget import Game
from dsa_widget.deep_sea.widget import DeepSea
from dsa_widget.server.lobby import Lobby

OWNER = {"air": 8, "rounds": 2, "seed": 11, "path": marker_path(), "options": {"reveal": "owner"}}


def traits(w: DeepSea) -> dict[str, Any]:
    """What the browser holds now: the state, the history's screens and the overlay."""
    return {
        "state": w.state,
        "history_chunks": w.history_chunks,
        "history_tail": w.history_tail,
        "overlay": w.overlay,
    }


# ---------------------------------------------------------------------- hot-seat


def test_hot_seat_sends_only_the_view_of_the_seat_to_move_and_hides_it_between_seats():
    """Issue 12, item 5: between two seats a curtain; the board holds public knowledge until
    the next player presses Show, then that seat's knowledge and no other's."""
    w = DeepSea(players=["Ann", "Bob", "Cy"], seats={2: "random"}, hot_seat=True, bot_seed=3, **OWNER)
    assert w.state["curtain"] == {"seat": 0, "name": "Ann"} and w.state["viewer"] is None
    states = [(traits(w), None)]  # and who holds the device (the last seat shown)
    shows = 0
    holder = None
    for _ in range(1000):
        g = w.game
        if g.is_over:
            break
        if w.is_bot_turn():
            w.bot_move()
            states.append((traits(w), holder))
            continue
        q = g.current_player
        if w.state["curtain"] is not None:
            assert w.state["viewer"] is None and w.state["curtain"]["seat"] == q
            w.handle_intent({"type": "show_seat", "seq": w.seq})
            holder = q
            states.append((traits(w), holder))
            shows += 1
        assert w.state["viewer"] == q and w.state["curtain"] is None
        w.handle_intent({"type": "intent", "seq": w.seq, "choice": simple_choice(w.state)})
        assert not w.error, w.error
        states.append((traits(w), holder))
    assert w.game.is_over and w.state["curtain"] is None and shows > 4
    record = w.game.to_record()
    by_viewer: dict[int | None, list[str]] = {}
    for m, held in states:
        st = m["state"]
        # behind the curtain nobody's knowledge; else only the seat that pressed Show last
        assert st["viewer"] is None or (st["curtain"] is None and st["viewer"] == held)
        by_viewer.setdefault(st["viewer"], []).append(json.dumps({"t": "model", "data": m}))
    for viewer, frames in by_viewer.items():
        assert leaks(frames, viewer, record) == [], viewer
    assert markers_in("".join(by_viewer[0])) or markers_in("".join(by_viewer[1]))  # values were there


def test_the_curtain_lifts_only_for_a_human_seat_to_move():
    w = DeepSea(players=["Ann", "Bob"], seats={1: "random"}, hot_seat=True, seed=2)
    w.handle_intent({"type": "show_seat", "seq": w.seq - 1})
    assert w.error["kind"] == "stale" and w.state["curtain"] is not None
    w.show_seat()
    w.apply("roll")
    w.apply("take")
    assert w.is_bot_turn() and w.state["curtain"] is None  # a bot plays in the open
    with pytest.raises(ValueError, match="no curtain"):
        w.show_seat()
    w.handle_intent({"type": "show_seat", "seq": w.seq})
    assert w.error["kind"] == "curtain"
    w.play_bots()
    # nobody else held the device since Ann: her board stays shown
    assert w.state["curtain"] is None and w.viewer == 0
    three = DeepSea(players=["Ann", "Bob", "Cy"], hot_seat=True, seed=2)
    three.show_seat()
    three.apply("roll")
    three.apply("take")
    # Bob's turn: down again, and the board holds public knowledge only
    assert three.state["curtain"] == {"seat": 1, "name": "Bob"} and three.viewer is None
    plain = DeepSea(players=["Ann", "Bob"], seed=2)
    assert plain.state["curtain"] is None and not plain.hot_seat


# ---------------------------------------------------------------------- serving from the widget


def test_a_served_board_shows_public_knowledge_and_the_seats_play_from_their_links():
    w = DeepSea(players=["Ann", "Bob", "Cy"], seats={2: "random"}, bot_seed=1, bot_delay=0, **OWNER)
    srv = w.serve()
    try:
        assert w.serving and w.viewer is None and w.state["viewer"] is None
        lobby = srv.lobby
        assert isinstance(lobby, Lobby)
        info = lobby.info
        assert [s["url"] for s in info["seats"]] == srv.seat_urls and info["spectator"][
            "url"
        ] == srv.spectator_url
        assert info["seats"][0]["qr"].startswith("data:image/svg+xml") and not info["started"]
        ann = Client(srv.base_url, srv.table.keys.seat_token(0))
        # the notebook's board does not play a seat while served, nor moves the server's bots
        w.handle_intent({"type": "intent", "seq": w.seq, "choice": "roll"})
        assert w.error["kind"] == "not_your_turn" and "served" in w.error["message"]
        lobby._on_msg(lobby, {"type": "start", "fill": "random"})
        assert srv.table.started and srv.table.game.seats == ["human", "random", "random"]
        assert w.seats == ["human", "random", "random"]  # Bob's empty seat got a bot
        st = ann.play(0, "roll")
        assert st["step"] == "search"
        # the notebook sees the move at once (its board follows the table)...
        assert srv.call(lambda: w.game.step) == "search" and w.state["step"] == "search"
        # ...and a cell still drives the game: the seat's screen follows
        seq = srv.call(lambda: srv.table.seq)
        srv.call(lambda: w.apply("take"))
        after = ann.state_at_least(seq + 1)
        assert after["turn"] == 1 and after["divers"][0]["items"]
        lobby._on_msg(lobby, {"type": "stop"})
        assert srv.table.closed and lobby.info["closed"] and not w.serving
        assert w.state["viewer"] == 0  # the board is the notebook's again (Ann's, the only human)
    finally:
        srv.stop()


def test_a_new_game_in_the_notebook_goes_to_the_served_table():
    w = DeepSea(players=["Ann", "Bob"], seed=3, bot_delay=0)
    srv = w.serve()
    try:
        spec = Client(srv.base_url, srv.table.keys.spectator_token)
        seq = spec.state_at_least(1)["seq"]
        srv.call(lambda: w.new_game(players=["Ann", "Bob"], air=12, seed=9))
        st = spec.state_at_least(seq + 1)
        assert st["air"] == 12 and st["viewer"] is None
        assert srv.call(lambda: srv.table.game.game) is w.game
    finally:
        srv.stop()


def test_the_lobby_ignores_unknown_bots_and_messages():
    g = Game(players=["Ann", "Bob"], seed=1)
    w = DeepSea(g)
    srv = w.serve()
    try:
        lobby = srv.lobby
        lobby._on_msg(lobby, {"type": "start", "fill": "no-such-bot"})
        assert srv.table.started and srv.table.game.seats == ["human", "human"]
        lobby._on_msg(lobby, "nonsense")
        lobby._on_msg(lobby, {"type": "pause", "paused": "yes"})
        assert not srv.table.paused
        lobby._on_msg(lobby, {"type": "pause", "paused": True})
        assert srv.table.paused and lobby.info["paused"]
        with pytest.raises(RuntimeError):
            w.serve()
    finally:
        srv.stop()


def test_the_hints_overlay_is_off_while_served_so_nothing_heavy_runs_on_the_servers_loop(monkeypatch):
    """Issue 32, item 3: a served board's overlay would be computed on the server's loop after
    every seat's move (seconds with cold compile caches).  While served it is off; it comes
    back when the table closes."""
    import dsa_widget.deep_sea.widget as widget_module

    calls: list[int] = []
    real = widget_module.overlay_for

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(widget_module, "overlay_for", counting)
    w = DeepSea(players=["Ann", "Bob"], seats={1: "random"}, bot_seed=3, **OWNER)
    w.hints = True
    assert w.overlay and calls
    srv = w.serve(bot_delay=0.0)
    try:
        calls.clear()
        assert w.overlay == {}
        table = srv.table
        srv.call(lambda: table.start())
        ann = Client(srv.base_url, table.keys.seat_token(0))
        for choice in ("roll", "take"):  # a seat's moves, applied on the server's loop
            st = ann.state_at_least(srv.table.seq)
            while st["current"] != 0:
                st = ann.state_at_least(st["seq"] + 1)
            ann.send(
                {
                    "type": "intent",
                    "seq": st["seq"],
                    "choice": choice if choice in st["legal"] else simple_choice(st),
                }
            )
            ann.until(lambda f: f["t"] in ("applied", "error"))
        assert srv.call(lambda: table.game.turn_number) >= 1
        assert calls == [] and w.overlay == {}
    finally:
        srv.stop()
    assert not w.serving and w.overlay and calls  # the board is the notebook's again, hints too
