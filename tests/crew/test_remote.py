"""The Crew at a served table (dsa_widget/crew/remote.py) without a browser: hostile intents
change nothing, every socket's screens hold only its own hand (checked by ``crew_leaks``, shown
to catch a leaking screen function), bots fill seats, Tonoja, the record and resuming, the
command line and the page's bundle."""

from __future__ import annotations

import json
import types
from typing import Any

import pytest
from server_helpers import (
    Client,
    check_cli_table,
    check_page,
    check_refusals,
    crew_choice,
    crew_knowledge,
    crew_leaks,
    human_step,
    join,
    leaky_tables,
    play_served_to_end,
    play_through_hostile_intents,
    serve_cli_refuses,
    served_fixture,
    state_at_least,
    table_facts,
    table_game,
)

from dsa_widget.crew.remote import CrewTable, make_crew_table, serve_crew
from dsa_widget.crew.rules import CrewGame
from dsa_widget.server import Server, Table, sidecar_path

NAMES = ["Ann", "Bob", "Cy"]


def crew_of(srv: Server) -> CrewTable:
    return table_game(srv, CrewTable)


#: a started Crew table, no bot delay, served on a free loopback port
served = served_fixture(serve_crew, seats={2: "random"}, target=2, seed=7)


def play_to_end(srv: Server, clients: dict[int, Client], watchers: list[Client] = ()) -> int:
    """Each human seat plays :func:`crew_choice` from its own screen until the attempt ends;
    the watchers read along.  Returns the intents sent."""
    return play_served_to_end(srv, clients, watchers, crew_choice, most=500, what="attempt")


def own_cards_seen(frames: list[str], seat: int, record: dict[str, Any]) -> bool:
    hand = crew_knowledge(record)[0]["hands"][seat]
    text = "".join(frames)
    return all(f'"{c}"' in text for c in hand)


# ---------------------------------------------------------------------- intents


def test_hostile_stale_and_foreign_seat_intents_change_nothing(served):
    srv = served()
    ann, bob, spec = join(srv, 0, 1, None)
    seq = srv.call(lambda: srv.table.seq)
    actor = srv.call(lambda: srv.table.game.to_move)
    if actor == 2:
        srv.call(lambda: srv.table.run_bots())
    seq, actor = srv.call(lambda: (srv.table.seq, srv.table.game.to_move))
    assert actor in (0, 1)
    me, other = (ann, bob) if actor == 0 else (bob, ann)
    st = state_at_least(me, seq)
    assert st["legal"] and st["can_act"]
    theirs = state_at_least(other, seq)
    assert theirs["legal"] == [] and not theirs["can_act"]
    good = st["legal"][0]
    other_hand = srv.call(lambda: crew_of(srv).game.hand(1 - actor))
    cases: list[tuple[Client, Any, str | None]] = [
        (other, {"type": "intent", "seq": seq, "choice": theirs_choice(other_hand)}, "seat"),  # not its turn
        (spec, {"type": "intent", "seq": seq, "choice": good}, "seat"),  # a spectator
        (me, {"type": "intent", "seq": seq - 1, "choice": good}, "stale"),
        (me, {"type": "intent", "seq": seq + 5, "choice": good}, "stale"),
        (me, {"type": "intent", "seq": seq, "choice": f"play {other_hand[0]}"}, "illegal"),  # another's card
        (me, {"type": "intent", "seq": seq, "choice": "take 999"}, "illegal"),
        (me, {"type": "intent", "seq": seq, "choice": "pass; drop table"}, "illegal"),
        (me, {"type": "intent", "seq": seq, "choice": ""}, "malformed"),
        (me, {"type": "intent", "seq": seq, "choice": ["take", 1]}, "malformed"),
        (me, {"type": "intent", "seq": seq, "choice": "x" * 121}, "malformed"),
        (me, {"type": "intent", "seq": True, "choice": good}, "malformed"),
        (me, {"type": "intent", "choice": good}, "malformed"),
        (me, {"type": "new_game", "seq": seq, "setup": {}}, "malformed"),  # the widget's, not the table's
        (me, {"type": "show_seat", "seq": seq}, "malformed"),
        (me, [1, 2], "malformed"),
        (me, "{not json", "malformed"),
    ]
    check_refusals(cases, lambda: table_facts(srv, CrewTable, CrewGame.to_record), me, seq, good)


def theirs_choice(hand: list[str]) -> str:
    return f"play {hand[0]}"


def test_a_bot_seat_and_a_finished_attempt_take_no_intent():
    g = CrewGame(NAMES, target=1, seed=2)
    t = Table(CrewTable(g, ["random", "random", "random"], bot_seed=1), started=True)
    q = t.game.to_move
    assert q is not None
    legal = list(g.legal_actions())
    err = t.handle(q, {"type": "intent", "seq": t.seq, "choice": legal[0]})
    assert err is not None and err["kind"] == "seat" and "bot" in err["message"]
    t.run_bots()
    assert g.is_over and t.game.to_move is None
    err = t.handle(0, {"type": "intent", "seq": t.seq, "choice": "pass"})
    assert err is not None and err["kind"] == "seat"
    with pytest.raises(ValueError, match="unknown bot"):
        t.game.set_seat(0, "nobody")


def test_forced_passes_are_made_at_once_and_bots_fill_the_seats_nobody_holds():
    g = CrewGame(NAMES, target=2, seed=7)
    t = Table(CrewTable(g, bot_seed=1))
    t.connected[0] = 1  # Ann's link is open: only the two others get the bot
    t.start(fill="random")
    assert t.game.seats == ["human", "random", "random"]
    while not g.is_over:
        t.run_bots()
        if g.is_over:
            break
        # a seat is never left with "pass" as its only choice: the table passed for it
        assert tuple(g.legal_actions()) != ("pass",)
        st = t.game.screen(0, t.seq)["state"]
        assert (
            st["can_act"] and t.handle(0, {"type": "intent", "seq": t.seq, "choice": crew_choice(st)}) is None
        )
    assert g.outcome is not None


WORDS = ["propose", "take", "play", "comm", "give", "predict", "distress", "pass", "confirm", "keep", "yes"]
ARGS = ["", "1", "99", "-1", "P3", "S4", "Z9", "17:0", "17:9 1:1", "x" * 50, "P3 top", "1e9", "\u0000", "🙂"]


@pytest.mark.parametrize("allocation", ["normal", "free", "captain_decides", "volunteers"])
def test_random_hostile_choices_at_every_step_change_nothing(allocation):
    import random

    from dsa_widget.crew.mission import Mission

    rng = random.Random(allocation)
    for players in (["A", "B", "C"], ["A", "B"], ["A", "B", "C", "D"]):
        g = CrewGame(players, seed=len(players), mission=Mission(target=2, allocation=allocation))

        def hostile() -> str:
            return f"{rng.choice(WORDS)} {rng.choice(ARGS)} {rng.choice(ARGS)}".strip()

        def good(q: int, g: CrewGame = g) -> str:
            legal = [a for a in g.legal_actions_for(q) if not a.startswith("comm ")]
            return (legal or list(g.legal_actions_for(q)))[0]

        play_through_hostile_intents(Table(CrewTable(g), started=True), g, g.to_record, 8, hostile, good)


def test_serving_a_crew_widget_takes_its_game_and_its_seats():
    from dsa_widget.crew.widget import Crew

    w = Crew(players=["Ann", "Bob", "Cy"], seats={2: "random"}, target=1, seed=3)
    srv = serve_crew(w, bot_delay=0.0)
    try:
        table = crew_of(srv)
        assert table.game is w.game and table.seats == ["human", "human", "random"]
        assert not srv.table.started and srv.fill in table.bot_names
        ann = Client(srv.base_url, srv.table.keys.seat_token(0))
        st = state_at_least(ann, 1)
        assert st["hand"] == w.game.view(0).to_dict()["hand"] and st["players"] == ["Ann", "Bob", "Cy"]
    finally:
        srv.stop()


# ---------------------------------------------------------------------- knowledge


def test_a_full_attempt_sends_each_socket_only_its_own_hand(served):
    srv = served()
    ann, bob, spec = join(srv, 0, 1, None)
    sent = play_to_end(srv, {0: ann, 1: bob}, [spec])
    record = srv.call(lambda: crew_of(srv).game.to_record())
    assert sent >= 2 and srv.call(lambda: crew_of(srv).game.outcome) is not None
    for seat, c in ((0, ann), (1, bob), (None, spec)):
        assert crew_leaks(c.frames, seat, record) == [], seat
    # the check had something to check: each seat's dealt hand reached its own screen
    assert own_cards_seen(ann.frames, 0, record) and own_cards_seen(bob.frames, 1, record)
    assert not own_cards_seen(spec.frames, 0, record)
    # the bot's seat was played by the server
    assert any(s == 2 for s, _ in crew_of(srv).game.actions)


def test_two_players_the_captain_plays_for_tonoja_and_tonojas_link_sees_public_knowledge(served):
    srv = served(players=["Ann", "Bob"], seats=None, seed=5)
    g = crew_of(srv).game
    assert crew_of(srv).seats == ["human", "human", "tonoja"] and g.dummy == 2
    ann, bob, tonoja = join(srv, 0, 1, 2)
    play_to_end(srv, {0: ann, 1: bob}, [tonoja])
    record = srv.call(lambda: g.to_record())
    assert any(s == 2 or a.startswith("play") for s, a in g.actions)
    for seat, c in ((0, ann), (1, bob), (2, tonoja)):
        assert crew_leaks(c.frames, seat, record) == [], seat
    assert tonoja.state is not None and tonoja.state["hand"] is None and tonoja.state["legal"] == []


#: broken servers: every screen carries the next seat's hand in a debug text; the spectator is
#: sent seat 1's screen
_LeakyCrewTable, _LeakyHandTable = leaky_tables(CrewTable)


@pytest.mark.parametrize("leaky", [_LeakyCrewTable, _LeakyHandTable])
def test_the_crew_knowledge_check_catches_a_leaking_screen_function(leaky):
    g = CrewGame(NAMES, target=2, seed=7)
    table = Table(leaky(g, ["human", "human", "random"], bot_seed=3), bot_delay=0.0, started=True)
    with Server(table) as srv:
        ann, bob, spec = join(srv, 0, 1, None)
        play_to_end(srv, {0: ann, 1: bob}, [spec])
        record = srv.call(lambda: g.to_record())
    found = crew_leaks(spec.frames, None, record)
    assert found, "the check missed a leak"
    assert found[0].startswith("after ") and "a model frame" in found[0]
    if leaky is _LeakyCrewTable:
        assert (
            crew_leaks(ann.frames, 0, record) and ".data.state.debug" in crew_leaks(ann.frames, 0, record)[0]
        )
    else:
        assert crew_leaks(ann.frames, 0, record) == []


def test_the_check_allows_what_became_public_and_nothing_else():
    g = CrewGame(NAMES, target=1, seed=4)
    t = CrewTable(g, ["random", "random", "random"], bot_seed=2)
    frames: list[str] = []
    while not g.is_over:
        frames.append(json.dumps({"t": "model", "seq": 1, "data": t.screen(0, 1)}))
        t.bot_step()
    record = g.to_record()
    assert crew_leaks(frames, 0, record) == []
    know = crew_knowledge(record)
    played = [a.split()[1] for q, a in g.actions if a.startswith("play ") and q != 0 and a != "play S4"]
    card = played[-1]  # a card of another seat's, played as late as any (S4 is the captain's: public)
    k = next(i for i, kn in enumerate(know) if card in kn["public"])
    assert k > 0

    def note(turn: int) -> str:
        return json.dumps({"t": "model", "data": {"state": {"turn_number": turn, "note": f"x {card}"}}})

    assert crew_leaks([note(k - 1)], 0, record)  # still in its owner's hand: a leak
    assert crew_leaks([note(k)], 0, record) == []  # played: public


# ---------------------------------------------------------------------- record, resume, page


def test_the_record_is_written_after_every_action_and_resume_keeps_seats_and_links(tmp_path, served):
    path = tmp_path / "crew.json"
    srv = served(record=path)
    ann, bob = join(srv, 0, 1)
    for _ in range(3):
        if human_step(srv, {0: ann, 1: bob}, crew_choice) is None:
            continue
        written, played = srv.call(
            lambda: (len(json.loads(path.read_text())["turns"]), crew_of(srv).game.turn_number)
        )
        assert written == played
    side = json.loads(sidecar_path(path).read_text())
    assert (
        side["seats"] == ["human", "human", "random"] and oct(sidecar_path(path).stat().st_mode)[-3:] == "600"
    )
    links = srv.seat_urls
    before = srv.call(lambda: crew_of(srv).game.view(0).to_dict())
    srv.stop()
    table = make_crew_table(resume=path)
    again = Server(table).start()
    try:
        assert isinstance(table.game, CrewTable) and table.game.seats == ["human", "human", "random"]
        assert [u.split("#")[1] for u in again.seat_urls] == [u.split("#")[1] for u in links]
        assert again.call(lambda: table.game.game.view(0).to_dict()) == before
    finally:
        again.stop()


def test_the_page_of_a_crew_table_loads_the_crew_bundle(served):
    check_page(served(), "The Crew: Mission Deep Sea", "crew")


def test_the_lobby_offers_the_crews_bots(served):
    srv = served(started=False)
    assert srv.fill in crew_of(srv).bot_names
    info = srv.lobby.info
    # the Crew's own bots (its planner included), not Deep Sea's (mc)
    assert "random" in info["bot_names"] and "planner" in info["bot_names"] and "mc" not in info["bot_names"]
    srv.lobby._on_msg(None, {"type": "start", "fill": "random"})
    assert srv.call(lambda: srv.table.started) and crew_of(srv).seats == ["random", "random", "random"]


def test_the_command_line_serves_a_crew_game(tmp_path):
    path = tmp_path / "cli.json"
    args = ["--game", "crew", "--players", "Ann", "Bob", "Cy", "--target", "2", "--seed", "3"]
    st = check_cli_table(
        [*args, "--seat", "2=random", "--start", "--record", str(path)],
        "The Crew",
        ["human", "human", "random"],
    )
    assert st["mission"]["target"] == 2
    assert json.loads(path.read_text())["format"] == "the-crew-deep-sea/record@1"
    serve_cli_refuses(["--game", "crew", "--air", "5"], "--air is not a setting of The Crew")
    serve_cli_refuses(["--target", "5"], "--target is not a setting of Deep Sea Adventure")


def test_in_a_free_window_a_seat_communicates_off_its_turn_and_does_nothing_else():
    g = CrewGame(NAMES, target=1, seed=2, options={"communication_window": "free"})
    t = Table(CrewTable(g), started=True)
    while g.step != "play":  # assignment, distress...: the seat to act takes its first choice
        q = t.game.to_move
        assert q is not None
        assert t.handle(q, {"type": "intent", "seq": t.seq, "choice": g.legal_actions_for(q)[0]}) is None
    leader = t.game.to_move
    others = [q for q in range(3) if q != leader and g.legal_actions_for(q)]
    assert others, "nobody may communicate in the free window"
    q = others[0]
    comm = next(a for a in g.legal_actions_for(q) if a.startswith("comm "))
    mine = [c for c in g.hand(q) if f"play {c}" not in g.legal_actions_for(q)]
    err = t.handle(q, {"type": "intent", "seq": t.seq, "choice": f"play {mine[0]}"})
    assert err is not None and err["kind"] == "illegal"  # it is not its turn to play
    screen = t.game.screen(q, t.seq)["state"]
    assert comm in screen["legal"] and screen["can_act"]
    assert t.handle(q, {"type": "intent", "seq": t.seq, "choice": comm}) is None
    assert g.actions[-1] == (q, comm)
    # now it has no token left: off its turn it may send nothing
    err = t.handle(q, {"type": "intent", "seq": t.seq, "choice": comm})
    assert err is not None and err["kind"] == "seat"


class _Timers:
    """A loop that only records the table's timers (``call_later``): the test runs them."""

    def __init__(self) -> None:
        self.calls: list[tuple[float, Any]] = []

    def call_later(self, delay: float, fn: Any, *args: Any) -> Any:
        self.calls.append((delay, lambda: fn(*args)))
        return types.SimpleNamespace(cancel=lambda: None)


def test_a_served_timed_mission_ends_when_its_clock_runs_out() -> None:
    """R-12 at a served table: the pages send their seats' moves only, so the table's own timer
    sends the timeout when the mission's clock runs out (before, the mission never ended)."""
    from dsa_widget.crew.widget import Crew
    from dsa_widget.server import make_table
    from dsa_widget.server.table import DEADLINE_SLACK

    w = Crew(
        players=["Ann", "Bob", "Cy"],
        viewer=0,
        seats={1: "random", 2: "random"},
        seed=3,
        mission={"target": 2, "timer_seconds": 60},
    )
    while not w.game.timer_started:
        w.bot_move() if w.is_bot_turn() else w.apply(w.state["legal"][0])
    table = make_table(w)
    timers = _Timers()
    table.started = True
    table.attach_loop(timers)
    delay, fire = timers.calls[-1]
    assert DEADLINE_SLACK < delay <= 60 + DEADLINE_SLACK  # the time the clock has left, and a little
    fire()  # early by Python's clock: nothing changes, and the table asks again
    assert not w.game.is_over and len(timers.calls) == 2
    w.session.presenter._clock_start -= 61  # the clock ran out
    timers.calls[-1][1]()
    assert w.game.outcome is not None and w.game.outcome.result == "failure"
    assert table.game.deadline() is None  # nothing more is due


def test_the_command_lines_setup_flags_take_the_words_the_setup_form_offers():
    # found serving a Crew mission from a shell as the README shows: `serve --game crew
    # --communication currents` stopped with "argument --communication: invalid int value:
    # 'currents'", every game's setup flag being read as a number
    import argparse

    from dsa_widget import cli
    from dsa_widget.core.registry import game

    p = argparse.ArgumentParser()
    cli._add_setup_flags(p)
    spec = game("crew")
    args = p.parse_args(["--communication", "currents", "--allocation", "free", "--target", "4"])
    assert cli._setup(spec, args, players=False) == {
        "communication": "currents",
        "allocation": "free",
        "target": 4,
    }
    with pytest.raises(ValueError, match="--communication: one of normal, currents, rapture, terrain, none"):
        cli._setup(spec, p.parse_args(["--communication", "loud"]), players=False)
    with pytest.raises(ValueError, match="--target: a whole number, got 'four'"):
        cli._setup(spec, p.parse_args(["--target", "four"]), players=False)
    # the second command's --help (serve after tournament) said each default twice
    again = argparse.ArgumentParser()
    cli._add_setup_flags(again)
    assert again._option_string_actions["--target"].help == "crew: mission difficulty (default 3)"
