"""Submarine at a served table (dsa_widget/submarine/remote.py) without a browser: hostile intents
change nothing, every socket's frames hold only its own hand (checked by ``sub_leaks``, shown to
catch leaking screen functions), bots fill seats, the record after every action and resuming
mid-turn, the command line and the page's bundle."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from typing import Any

import pytest
from server_helpers import (
    Client,
    check_cli_table,
    check_page,
    check_refusals,
    human_step,
    join,
    leaky_tables,
    model_states,
    play_served_to_end,
    play_through_hostile_intents,
    serve_cli_refuses,
    served_fixture,
    state_at_least,
    strings_in,
    table_facts,
    table_game,
)

from dsa_widget.server import Server, Table, sidecar_path
from dsa_widget.server.limits import Limits
from dsa_widget.submarine.remote import SubmarineTable, make_submarine_table, serve_submarine
from dsa_widget.submarine.rules import COLOURS, SubmarineGame

NAMES = ["Ann", "Bob", "Cy"]
#: a game is a few hundred actions, played here far faster than by hand: no rate limit
FAST = Limits(rate=10_000, burst=10_000)


def sub_of(srv: Server) -> SubmarineTable:
    return table_game(srv, SubmarineTable)


#: a started Submarine table (seat 2 a bot), no bot delay, served on a free loopback port
served = served_fixture(serve_submarine, seats={2: "greedy"}, seed=2, limits=FAST)


def sub_choice(state: dict[str, Any], rng: random.Random) -> str:
    """A plain policy from what a screen shows: collect when it can, else a seeded random action."""
    legal = state["legal"]
    for a in legal:
        if a.startswith("collect ") or a == "mode collect":
            return str(a)
    return str(rng.choice(legal))


def play_to_end(srv: Server, clients: dict[int, Client], watchers: Iterable[Client] = ()) -> int:
    """Each human seat plays :func:`sub_choice` from its own screen until the game ends; the
    watchers read along.  Returns the intents sent."""
    rng = random.Random(5)
    return play_served_to_end(srv, clients, watchers, lambda st: sub_choice(st, rng), most=5000, what="game")


# ---------------------------------------------------------------------- the knowledge check

#: a card (a colour) standing alone in a text: not the rim colour inside a tile name (T01K1, SHK1)
CARD = re.compile(r"(?<![A-Za-z0-9])K[1-5](?![A-Za-z0-9])")
HIDDEN_KEYS = {"hands", "piles", "pile", "undealt"}


def sub_knowledge(record: dict[str, Any]) -> tuple[list[list[list[str]]], list[int]]:
    """Replayed independently from a record: ``hands[k][q]``, seat ``q``'s hand after ``k``
    actions, and ``starts[t]``, the actions played before turn ``t``."""
    g = SubmarineGame.from_record(dict(record, turns=[]))
    hands = [[list(g.hand(q)) for q in range(g.seats)]]
    starts = [0]
    for turn in record["turns"]:
        for a in turn["actions"]:
            g.apply(a)
            hands.append([list(g.hand(q)) for q in range(g.seats)])
        starts.append(len(hands) - 1)
    return hands, starts


def sub_leaks(frames: Iterable[str], seat: int | None, record: dict[str, Any]) -> list[str]:
    """What ``frames`` (the texts one socket received, in order) show that ``seat`` (``None``: a
    spectator) may not know.  No card (a colour standing alone: ``K3``) may appear anywhere
    but in the screen's own ``hand`` (which must be this seat's hand at that moment, ``None``
    for a spectator), its own ``legal`` actions (``exchange K3`` names a card of its hand) and
    the keys of ``out_of_play`` (counts by colour); no key may name the hidden parts (hands,
    piles, undealt).  So another seat's hand, any pile (its owner's too) and a tucked card
    never reach the socket, as a list, a count by colour or inside a text."""
    hands, starts = sub_knowledge(record)
    found: list[str] = []
    k = 0
    for _, frame, state in model_states(frames):
        if state is not None:
            k = starts[min(int(state["turn_number"]), len(starts) - 1)] + len(state["current_turn"])
            if "hand" in state:
                want = None if seat is None else hands[k][seat]
                got = state["hand"]
                if (None if got is None else sorted(got)) != (None if want is None else sorted(want)):
                    found.append(f"after {k} actions: hand {got} where seat {seat} holds {want}")
        for where, s in strings_in(frame):
            last = where.rsplit(".", 1)[-1].split("[")[0]
            if last in HIDDEN_KEYS and where.endswith(last):
                found.append(f"after {k} actions: a key {last!r} at {where} of a {frame.get('t')} frame")
            if not CARD.search(s):
                continue
            own = seat is not None and (
                where.startswith(".data.state.hand[") or where.startswith(".data.state.legal[")
            )
            counts = re.fullmatch(r"\.data\.state\.out_of_play\.K[1-5]", where) is not None and s in COLOURS
            if not (own or counts):
                found.append(f"after {k} actions: {CARD.findall(s)} at {where} of a {frame.get('t')} frame")
    return found


# ---------------------------------------------------------------------- intents


def test_hostile_stale_and_foreign_seat_intents_change_nothing(served):
    srv = served()
    ann, bob, spec, cy = join(srv, 0, 1, None, 2)  # the bot's seat link: it may watch, not play
    srv.call(lambda: srv.table.run_bots())
    seq, actor = srv.call(lambda: (srv.table.seq, srv.table.game.to_move))
    assert actor in (0, 1)
    me, other = (ann, bob) if actor == 0 else (bob, ann)
    st = state_at_least(me, seq)
    assert st["legal"] and st["can_act"] and st["hand"] is not None
    theirs = state_at_least(other, seq)
    assert theirs["legal"] == [] and not theirs["can_act"]
    assert state_at_least(cy, seq)["legal"] == []
    good = st["legal"][0]
    cases: list[tuple[Client, Any, str]] = [
        (other, {"type": "intent", "seq": seq, "choice": good}, "seat"),  # not its turn
        (spec, {"type": "intent", "seq": seq, "choice": good}, "seat"),  # a spectator
        (cy, {"type": "intent", "seq": seq, "choice": good}, "seat"),  # a bot's seat, not to move
        (me, {"type": "intent", "seq": seq - 1, "choice": good}, "stale"),
        (me, {"type": "intent", "seq": seq + 5, "choice": good}, "stale"),
        (me, {"type": "intent", "seq": seq, "choice": "place 7"}, "illegal"),
        (me, {"type": "intent", "seq": seq, "choice": "sail 9"}, "illegal"),
        (me, {"type": "intent", "seq": seq, "choice": "exchange K1"}, "illegal"),
        (me, {"type": "intent", "seq": seq, "choice": "collect 1.1 T01K1 card"}, "illegal"),
        (me, {"type": "intent", "seq": seq, "choice": f"{good}; end"}, "illegal"),
        (me, {"type": "intent", "seq": seq, "choice": f" {good}"}, "illegal"),
        (me, {"type": "intent", "seq": seq, "choice": ""}, "malformed"),
        (me, {"type": "intent", "seq": seq, "choice": ["place", 1]}, "malformed"),
        (me, {"type": "intent", "seq": seq, "choice": "x" * 121}, "malformed"),
        (me, {"type": "intent", "seq": True, "choice": good}, "malformed"),
        (me, {"type": "intent", "choice": good}, "malformed"),
        # the notebook widget's messages, not the table's
        (me, {"type": "new_game", "seq": seq, "setup": {"players": ["A", "B"]}}, "malformed"),
        (me, {"type": "play_again", "seq": seq}, "malformed"),
        (me, {"type": "what_if", "seq": seq}, "malformed"),
        (me, {"type": "scrub", "seq": seq, "step": 0}, "malformed"),
        (me, {"type": "pause", "paused": True}, "malformed"),
        (me, [1, 2], "malformed"),
        (me, "{not json", "malformed"),
    ]
    check_refusals(cases, lambda: table_facts(srv, SubmarineTable, SubmarineGame.state_dict), me, seq, good)


def test_a_bot_seat_and_a_finished_game_take_no_intent():
    g = SubmarineGame(NAMES, seed=4)
    t = Table(SubmarineTable(g, ["random", "random", "greedy"], bot_seed=1), started=True)
    q = t.game.to_move
    assert q is not None
    err = t.handle(q, {"type": "intent", "seq": t.seq, "choice": g.legal_actions()[0]})
    assert err is not None and err["kind"] == "seat" and "bot" in err["message"]
    t.run_bots()
    assert g.is_over and t.game.to_move is None and t.game.is_over
    before = json.dumps(g.state_dict())
    err = t.handle(0, {"type": "intent", "seq": t.seq, "choice": "pass"})
    assert err is not None and err["kind"] == "seat" and json.dumps(g.state_dict()) == before
    with pytest.raises(ValueError, match="unknown bot"):
        t.game.set_seat(0, "nobody")
    with pytest.raises(ValueError, match="no seat"):
        t.game.set_seat(3, "random")


def test_random_hostile_choices_at_every_step_change_nothing():
    rng = random.Random(11)
    words = ["place", "sail", "mode", "collect", "move", "end", "exchange", "pass", "take"]
    args = ["", "1", "7", "end", "start", "collect", "move", "1.1", "6.4", "0.0", "T01K1", "SHK1", "K1", "K9"]
    g = SubmarineGame(["A", "B"], seed=3, options={"turn_limit": 40})

    def hostile() -> str:
        choice = " ".join(rng.choice(args) for _ in range(rng.randrange(4)))
        return f"{rng.choice(words)} {choice}".strip()

    def good(q: int) -> str:
        return str(rng.choice(g.legal_actions()))

    play_through_hostile_intents(Table(SubmarineTable(g), started=True), g, g.state_dict, 6, hostile, good)


def test_bots_fill_the_seats_nobody_holds():
    g = SubmarineGame(NAMES, seed=2)
    t = Table(SubmarineTable(g, bot_seed=1))
    t.connected[0] = 1  # Ann's link is open: only the two others get the bot
    t.start(fill="random")
    assert t.game.seats == ["human", "random", "random"]
    rng = random.Random(1)
    while not g.is_over:
        t.run_bots()
        if g.is_over:
            break
        st = t.game.screen(0, t.seq)["state"]
        assert (
            st["can_act"]
            and t.handle(0, {"type": "intent", "seq": t.seq, "choice": sub_choice(st, rng)}) is None
        )
    assert g.result is not None


def test_serving_a_submarine_widget_takes_its_game_and_its_seats():
    from dsa_widget.submarine.widget import Submarine

    w = Submarine(players=["Ann", "Bob", "Cy"], seats={2: "random"}, seed=3, options={"start_player": 0})
    srv = w.serve(bot_delay=0.0)
    try:
        table = sub_of(srv)
        # the very same game (not a copy), its seats, and the board now shows a spectator's view
        assert table.game is w.game and table.seats == ["human", "human", "random"]
        assert w.state["seat"] is None and w.state["hand"] is None
        assert not srv.table.started and srv.fill in table.bot_names
        ann = Client(srv.base_url, srv.table.keys.seat_token(0))
        st = state_at_least(ann, 1)
        assert st["hand"] == w.game.view(0).to_dict()["hand"] and st["players"] == ["Ann", "Bob", "Cy"]
        assert st["history"] == {"n": 0, "at": None, "labels": [], "first": 0}  # the page's own history
        assert ann.data["setup"] is None and st["mode"] == "real"
        srv.call(lambda: srv.table.start())
        st = state_at_least(ann, srv.call(lambda: srv.table.seq))
        seq = w.seq
        ann.send({"type": "intent", "seq": st["seq"], "choice": st["legal"][0]})
        assert ann.until(lambda f: f["t"] in ("applied", "error"))["t"] == "applied"
        assert srv.call(lambda: w.seq) > seq and w.state["history"]["n"] == 1  # the board follows
    finally:
        srv.stop()


# ---------------------------------------------------------------------- knowledge


def test_a_full_game_sends_each_socket_only_its_own_hand(served):
    srv = served()
    ann, bob, spec, cy = join(srv, 0, 1, None, 2)  # the bot's seat: its own hand only, too
    sent = play_to_end(srv, {0: ann, 1: bob}, [spec, cy])
    g = sub_of(srv).game
    record = srv.call(lambda: g.to_record())
    assert sent >= 10 and srv.call(lambda: g.result) is not None
    for seat, c in ((0, ann), (1, bob), (2, cy), (None, spec)):
        assert sub_leaks(c.frames, seat, record) == [], seat
        assert c.state is not None and c.state["over"] and c.state["seq"] == srv.call(lambda: srv.table.seq)
    # the check had something to check: each seat's hand reached its own screen, changing
    for seat, c in ((0, ann), (1, bob)):
        seen = {json.dumps(json.loads(t)["data"]["state"]["hand"]) for t in c.frames if '"hand"' in t}
        assert len(seen) > 3, seat
    assert spec.state is not None and spec.state["hand"] is None
    # the bot's seat was played by the server, and humans exchanged at least once (a tucked card)
    seats = [t["seat"] for t in record["turns"]]
    assert 2 in seats and 0 in seats and 1 in seats
    assert any(a.startswith("exchange ") for t in record["turns"] for a in t["actions"])


#: broken servers: every screen carries the next seat's hand in a debug text; the spectator is
#: sent seat 1's screen
_LeakyDebugTable, _LeakySeatTable = leaky_tables(SubmarineTable)


class _LeakyPileTable(SubmarineTable):
    """A third: each seat is shown its own pile (hidden from its owner too), as counts by colour."""

    def screen(self, viewer: int | None, seq: int) -> dict[str, Any]:
        out = super().screen(viewer, seq)
        if viewer is not None:
            pile = self.game.pile(viewer)
            out["state"]["deck_left"] = {c: pile.count(c) for c in COLOURS}
        return out


@pytest.mark.parametrize("leaky", [_LeakyDebugTable, _LeakySeatTable, _LeakyPileTable])
def test_the_knowledge_check_catches_a_leaking_screen_function(leaky):
    g = SubmarineGame(NAMES, seed=2, options={"turn_limit": 30})
    table = Table(
        leaky(g, ["human", "human", "greedy"], bot_seed=3), bot_delay=0.0, started=True, limits=FAST
    )
    with Server(table) as srv:
        ann, bob, spec = join(srv, 0, 1, None)
        play_to_end(srv, {0: ann, 1: bob}, [spec])
        record = srv.call(lambda: g.to_record())
    if leaky is _LeakyPileTable:
        found = sub_leaks(ann.frames, 0, record)
        assert found and ".data.state.deck_left" in found[0], found[:1]
        assert sub_leaks(spec.frames, None, record) == []
        return
    found = sub_leaks(spec.frames, None, record)
    assert found, "the check missed a leak"
    assert found[0].startswith("after ")
    if leaky is _LeakyDebugTable:
        assert ".data.state.debug" in sub_leaks(ann.frames, 0, record)[0]
    else:
        assert "hand" in found[0]
        assert sub_leaks(ann.frames, 0, record) == []


def test_no_screen_holds_a_tucked_card_or_another_seats_hand():
    """Screen by screen, without sockets, after every action of a bots' game (exchanges included)."""
    g = SubmarineGame(["A", "B", "C", "D"], seed=6, options={"exchange_on_arrival": True})
    t = SubmarineTable(g, ["random", "greedy", "random", "greedy"], bot_seed=2)
    frames: dict[int | None, list[str]] = {q: [] for q in (None, 0, 1, 2, 3)}
    while not g.is_over:
        for q, out in frames.items():
            out.append(json.dumps({"t": "model", "seq": 1, "data": t.screen(q, 1)}))
        t.bot_step()
    record = g.to_record()
    assert any(a.startswith("exchange ") for turn in record["turns"] for a in turn["actions"])
    for q, out in frames.items():
        assert sub_leaks(out, q, record) == [], q


# ---------------------------------------------------------------------- record, resume, page


def test_the_record_after_every_action_and_resume_mid_turn_keeps_seats_and_links(tmp_path, served):
    path = tmp_path / "sub.json"
    srv = served(record=path)
    ann, bob = join(srv, 0, 1)
    rng = random.Random(2)
    g = sub_of(srv).game
    mid_turn = False
    for _ in range(400):
        f = human_step(srv, {0: ann, 1: bob}, lambda st: sub_choice(st, rng))
        if f is None:
            continue
        assert f["t"] == "applied"
        # after every action: the record holds every finished turn, the sidecar the turn under way
        written, side, done, cur = srv.call(
            lambda: (
                json.loads(path.read_text()),
                json.loads(sidecar_path(path).read_text()),
                [{"seat": s, "actions": a} for s, a in g.history][: g.turn_number],
                [] if g.at_turn_boundary else g.history[-1][1],
            )
        )
        assert written["turns"] == done and side["pending"] == cur and side["turns"] == len(done)
        if cur and g.phase == "step" and g.to_move in (0, 1):
            mid_turn = True
            break
    assert mid_turn, "no human turn was left half-played"
    side = json.loads(sidecar_path(path).read_text())
    assert (
        side["seats"] == ["human", "human", "greedy"] and oct(sidecar_path(path).stat().st_mode)[-3:] == "600"
    )
    links = srv.seat_urls
    before = srv.call(lambda: [sub_of(srv).game.view(q).to_dict() for q in (None, 0, 1, 2)])
    truth = srv.call(lambda: sub_of(srv).game.state_dict())
    srv.stop()
    table = make_submarine_table(resume=path)
    again = Server(table).start()
    try:
        assert isinstance(table.game, SubmarineTable) and table.game.seats == ["human", "human", "greedy"]
        assert table.started
        assert [u.split("#")[1] for u in again.seat_urls] == [u.split("#")[1] for u in links]
        assert again.call(lambda: [table.game.game.view(q).to_dict() for q in (None, 0, 1, 2)]) == before
        assert again.call(lambda: table.game.game.state_dict()) == truth
        # and the seat to move goes on playing through its old link
        q = again.call(lambda: table.game.to_move)
        c = Client(again.base_url, links[q].split("#t=")[1])
        st = state_at_least(c, 1)
        c.send({"type": "intent", "seq": st["seq"], "choice": st["legal"][0]})
        assert c.until(lambda f: f["t"] in ("applied", "error"))["t"] == "applied"
    finally:
        again.stop()


def test_resuming_refuses_a_turn_under_way_that_does_not_fit(tmp_path):
    path = tmp_path / "sub.json"
    g = SubmarineGame(NAMES, seed=1)
    t = Table(SubmarineTable(g), record=path, started=True)
    q = t.game.to_move
    assert t.handle(q, {"type": "intent", "seq": t.seq, "choice": "place 1"}) is None
    side = json.loads(sidecar_path(path).read_text())
    side["pending"] = ["exchange K1"]
    sidecar_path(path).write_text(json.dumps(side))
    with pytest.raises(ValueError, match="does not fit"):
        make_submarine_table(resume=path)


def test_the_page_of_a_submarine_table_loads_the_submarine_bundle(served):
    check_page(served(), "Submarine", "submarine")


def test_the_lobby_offers_submarines_bots(served):
    srv = served(started=False)
    assert srv.fill == "greedy" and srv.fill in sub_of(srv).bot_names
    info = srv.lobby.info
    assert {"random", "greedy", "mc"} <= set(info["bot_names"]) and "planner" not in info["bot_names"]
    srv.lobby._on_msg(None, {"type": "start", "fill": "random"})
    assert srv.call(lambda: srv.table.started) and sub_of(srv).seats == ["random", "random", "greedy"]


def test_the_command_line_serves_a_submarine_game(tmp_path):
    path = tmp_path / "cli.json"
    args = [
        "--game",
        "submarine",
        "--players",
        "Ann",
        "Bob",
        "Cy",
        "--seed",
        "3",
        "--option",
        "turn_limit=50",
    ]
    st = check_cli_table(
        [*args, "--seat", "2=greedy", "--start", "--record", str(path)],
        "<title>Submarine</title>",
        ["human", "human", "greedy"],
    )
    assert st["options"]["turn_limit"] == 50
    assert json.loads(path.read_text())["format"] == SubmarineGame(2, seed=1).to_record()["format"]
    serve_cli_refuses(["--game", "submarine", "--target", "5"], "--target is not a setting of Submarine")
