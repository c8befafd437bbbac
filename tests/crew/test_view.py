"""Tests of dsa_widget.crew.view.CrewView: who sees what (CREW.md section 15), the knowledge
constraints and sampling."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from dsa_widget.crew.cards import DECK, SUIT_MASK, card, mask_of
from dsa_widget.crew.knowledge import Knowledge
from dsa_widget.crew.rules import CrewGame
from dsa_widget.crew.view import CrewView, sample_hands

from .test_rules import fill, game4, no_distress, play, to_play, tonoja_deal

CONTRACT_KEYS = {
    "format",
    "seat",
    "players",
    "humans",
    "dummy",
    "seats",
    "tricks_total",
    "captain",
    "step",
    "to_move",
    "legal",
    "hand",
    "hand_counts",
    "dummy_columns",
    "tasks",
    "tokens",
    "shared_tokens",
    "communication",
    "terrain",
    "communicated",
    "trick",
    "last_trick",
    "tricks",
    "tricks_won",
    "voids",
    "distress",
    "timer",
    "outcome",
    "attempt",
    "mission",
    "options",
}


def random_state(seed: int, **kw: Any) -> CrewGame:
    """A game some random legal actions in (never over: the state before the last action)."""
    rng = random.Random(seed)
    players = kw.pop("players", rng.choice([2, 3, 4, 5]))
    g = CrewGame(players, seed=rng.randrange(10**6), **kw)
    for _ in range(rng.randrange(5, 60)):
        prev = g.clone()
        if g.step == "play" and g.options["communication_window"] == "free" and rng.random() < 0.3:
            s = rng.randrange(g.seats)  # another seat communicates in the free window
            comms = [a for a in g.legal_actions_for(s) if a.startswith("comm")]
            if comms:
                g.apply(rng.choice(comms), seat=s)
                continue
        g.apply(rng.choice(g.legal_actions()))
        if g.is_over:
            return prev
    return g


def shuffled_hidden(g: CrewGame, seat: int | None, rng: random.Random) -> CrewGame:
    """A copy where every card ``seat`` may not know is dealt again among the other hands (hand
    sizes kept; Tonoja's face-down cards included)."""
    k = g.view(seat).knowledge()
    twin = g.clone()
    hidden: list[int] = []
    counts = []
    for s in range(g.seats):
        if s == g.dummy:
            downs = [i for i, c in enumerate(twin._down) if c >= 0]
            hidden += [twin._down[i] for i in downs]
            counts.append(("down", downs))
        else:
            cs = [c for c in range(40) if twin._hands[s] >> c & 1 and k.pool >> c & 1]
            hidden += cs
            counts.append(("hand", len(cs)))
    rng.shuffle(hidden)
    for s, (kind, what) in enumerate(counts):
        if kind == "down":
            for i in what:  # type: ignore[union-attr]
                twin._down[i] = hidden.pop()
        else:
            keep = twin._hands[s] & ~k.pool
            for _ in range(what):  # type: ignore[arg-type]
                keep |= 1 << hidden.pop()
            twin._hands[s] = keep
    assert not hidden
    return twin


# ---------------------------------------------------------------------------------------------


def test_to_dict_has_every_contract_key_and_is_json():
    for seed in range(20):
        g = random_state(seed)
        for s in [None, *range(g.seats)]:
            d = g.view(s).to_dict()
            assert set(d) >= CONTRACT_KEYS, CONTRACT_KEYS - set(d)
            assert d["format"] == "the-crew-deep-sea/view@1"
            json.dumps(d)


def test_spectator_view():
    """Section 15: a spectator (seat None) sees public information only."""
    g = random_state(3, players=4)
    d = g.view(None).to_dict()
    assert d["seat"] is None and d["hand"] is None and d["legal"] == []


def test_own_hand_and_hand_counts():
    """Section 15: own hand yes; other hands no; every hand's size yes."""
    g = CrewGame(4, seed=2)
    for s in range(4):
        d = g.view(s).to_dict()
        assert d["hand"] == g.hand(s) and d["hand_counts"] == [10] * 4
        text = json.dumps({k: v for k, v in d.items() if k not in ("hand", "legal")})
        others = {c for o in range(4) if o != s for c in g.hand(o)}
        # no other seat's card appears anywhere (task texts name cards but never as a "card" entry)
        assert not any(f'"card": "{c}"' in text for c in others)


def test_R_15_1_statuses_public():
    """R-15.1: task statuses (and owners) are the same in every view."""
    for seed in range(10):
        g = random_state(seed)
        views = [g.view(s).to_dict() for s in [None, *range(g.seats)]]
        for v in views:
            assert [(t["id"], t["owner"], t["status"]) for t in v["tasks"]] == [
                (t["id"], t["owner"], t["status"]) for t in views[0]["tasks"]
            ]


@pytest.mark.parametrize("seed", range(60))
def test_R_15_2_view_never_holds_a_hidden_card(seed):
    """R-15.2: shuffling every card a seat may not know among the other hands leaves its view
    (and its knowledge) unchanged."""
    rng = random.Random(seed)
    opts = {
        "communication_window": rng.choice(["round", "free"]),
        "trick_history_visibility": rng.choice(["last_trick", "all"]),
    }
    mission = {"target": rng.randrange(6), "communication": rng.choice(["normal", "currents", "rapture"])}
    g = random_state(seed, options=opts, mission=mission)
    for seat in [None, *range(g.seats)]:
        before = g.view(seat)
        for k in range(3):
            twin = shuffled_hidden(g, seat, random.Random(seed * 10 + k))
            assert twin.view(seat).to_dict() == before.to_dict()
            assert twin.view(seat).knowledge() == before.knowledge()


def test_tonoja_face_down_cards_hidden_from_everyone():
    """Section 15: Tonoja's face-down cards: nobody (not even the captain)."""
    g = CrewGame(2, seed=4, tasks=[1], assignment={1: 0})
    downs = {d for _, d in g.dummy_columns}
    for s in (None, 0, 1, 2):
        d = g.view(s).to_dict()
        assert all(c["down"] == 1 for c in d["dummy_columns"])
        assert [c["up"] for c in d["dummy_columns"]] == [u for u, _ in g.dummy_columns]
        text = json.dumps({k: v for k, v in d.items() if k != "tasks"})
        assert not any(f'"{c}"' in text for c in downs)


def test_currents_true_position_only_for_the_seat():
    """R-11.9 / section 15: true declaration under currents: the communicating seat only."""
    g = game4([73], [0], {1: ["S4", "B3", "B4", "B8"]}, mission={"target": 0, "communication": "currents"})
    no_distress(g)
    g.apply("comm B3")
    assert g.view(1).communicated[0].position == "bottom"
    assert {g.view(s).communicated[0].position for s in (None, 0, 2, 3)} == {"unknown"}


def test_distress_cards_only_for_the_seat_concerned():
    """Section 15: cards chosen for distress: own card given and card received only."""
    g = game4([1], [1], {}, options={"distress_activation": "any_human"})
    g.apply("distress cw")
    while g.step == "distress_give":
        g.apply(g.legal_actions()[0])
    for s in range(4):
        d = g.view(s).to_dict()["distress"]
        gave, got = g.distress_cards(s)
        assert d["given"] == gave and d["received"] == got and d["given_to"] == (s + 1) % 4
    d = g.view(None).to_dict()["distress"]
    assert d["given"] is None and d["received"] is None and d["direction"] == "cw" and d["active"]
    for s in range(4):
        hist = g.view(s).public_history
        assert all(a == "give ?" for t, a in hist if a.startswith("give") and t != s)


def test_trick_history_visibility():
    """Section 15: cards of completed tricks: the last one only (default) or all."""
    for vis, n_shown in (("last_trick", 0), ("all", 2)):
        g = game4(
            [73],
            [0],
            {},
            mission={"target": 0, "communication": "none"},
            options={"trick_history_visibility": vis},
        )
        no_distress(g)
        for _ in range(8):
            g.apply(g.legal_actions()[0])
        d = g.view(1).to_dict()
        assert len(d["tricks"]) == n_shown and d["last_trick"]["number"] == 2
        assert d["tricks_won"] == list(g.tricks_won)


def test_show_task_progress():
    """Section 15: cards that count towards a task, shown per show_task_progress."""
    for opt, want in (("on", ["P3"]), ("off", None)):
        g = game4(
            [1],
            [0],
            {0: ["S4", "P9"], 1: ["P3"]},
            mission={"target": 0, "communication": "none"},
            options={"show_task_progress": opt},
        )
        no_distress(g)
        play(g, "P9", "P3")
        while len(g.tricks) < 1:
            g.apply(g.legal_actions()[0])
        assert g.view(2).to_dict()["tasks"][0]["progress"] == want


def test_revealed_voids():
    """Section 15 / 10: a seat that did not follow suit is void in that suit (public)."""
    fixed = {0: ["S4", "P1"], 1: ["G1", "G2"], 2: ["P2", "P3", "P4", "P5"], 3: ["P6", "P7", "P8", "P9"]}
    g = game4([73], [0], fixed, mission={"target": 0, "communication": "none"})
    no_distress(g)
    play(g, "P1", "G1")
    assert g.view(3).to_dict()["voids"][1] == ["P"]
    k = g.view(3).knowledge()
    assert k.allowed[1] & SUIT_MASK["P"] == 0


def test_unplayed_three_seat_card_revealed_at_the_end():
    """Section 15: the unplayed three-seat card: its holder only, until the end."""
    g = CrewGame(3, seed=5, tasks=[73], assignment={73: 0}, mission={"target": 0, "communication": "none"})
    rng = random.Random(1)
    while not g.is_over:
        assert g.view(0).to_dict()["unplayed"] == []
        g.apply(rng.choice(g.legal_actions()))
    ((s, c),) = g.view(None).unplayed
    assert g.hand(s) == [c]


# ---------------------------------------------------------------------------------------------
# knowledge


def test_knowledge_basic_counts():
    g = CrewGame(4, seed=3, tasks=[70], assignment={70: 1})
    k = g.view(0).knowledge()
    assert isinstance(k, Knowledge) and k.viewer == 0
    assert k.known[0] == mask_of(g.hand(0)) and k.known[1] == mask_of(["S4"])
    assert k.slots == (0, 9, 10, 10) and bin(k.pool).count("1") == 29
    ks = g.view(None).knowledge()
    assert ks.slots == (10, 9, 10, 10) and bin(ks.pool).count("1") == 39


def test_knowledge_from_normal_communication():
    """Normal communication: top => no unknown higher card of the colour in that hand; bottom =>
    no lower; middle => no other."""
    g = game4([73], [0], {1: ["S4", "B3", "B8", "G6"]})
    no_distress(g)
    g.apply("comm B8")
    k = g.view(0).knowledge()
    assert k.known[1] & mask_of(["B8"]) and k.allowed[1] & mask_of(["B9"]) == 0
    assert k.allowed[1] & mask_of(["B1", "B2"]) == mask_of(["B1", "B2"]) & k.pool
    while g.step == "communicate":
        g.apply("pass") if g.to_move != 2 else g.apply(
            "comm " + next(a.split()[1] for a in g.legal_actions() if a.startswith("comm"))
        )
    c2 = [c for c in g.communications if c.seat == 2]
    if c2:
        cm = c2[0]
        colour = SUIT_MASK[DECK[cm.card][0]]
        k = g.view(0).knowledge()
        if cm.declared == "middle":
            assert k.allowed[2] & colour == 0


def test_knowledge_forced_top_requires_a_lower_card():
    """R-11.5 (forced): *top* is not *only*, so the seat held a lower card of the colour; until it
    plays one, one of the unknown lower cards is in its hand."""
    g = game4([73], [0], {1: ["S4", "B3", "B8"]})
    no_distress(g)
    g.apply("comm B8")
    k = g.view(0).knowledge()
    assert k.requires == ((1, mask_of([f"B{r}" for r in range(1, 8)]) & k.pool),)
    assert g.view(1).knowledge().requires == ()  # the seat itself knows its hand
    g2 = game4([73], [0], {1: ["S4", "B3", "B8"]}, options={"token_position": "any_true"})
    no_distress(g2)
    g2.apply("comm B8 top")
    assert g2.view(0).knowledge().requires == ()  # any_true: a lone card may be called top


def test_knowledge_currents_alternatives():
    """Currents: the others know the card is highest, lowest or only: an alternative."""
    g = game4([73], [0], {1: ["S4", "B3", "B5"]}, mission={"target": 0, "communication": "currents"})
    no_distress(g)
    g.apply("comm B5")
    k = g.view(0).knowledge()
    alts = [a for a in k.alternatives if a[0] == 1]
    assert len(alts) == 1
    above, below = alts[0][1]
    assert (
        above == mask_of(["B6", "B7", "B8", "B9"]) & k.pool
        and below == mask_of(["B1", "B2", "B3", "B4"]) & k.pool
    )


def test_fallback_sampler_respects_constraints():
    rng = random.Random(0)
    for seed in range(30):
        g = random_state(
            seed, mission={"target": 3, "communication": random.Random(seed).choice(["normal", "currents"])}
        )
        for s in [None, *range(g.seats)]:
            k = g.view(s).knowledge()
            deal = sample_hands(k, rng)
            assert sum(bin(m).count("1") for m in deal) == bin(k.pool).count("1")
            acc = 0
            for seat, m in enumerate(deal):
                assert m & ~k.allowed[seat] == 0 and bin(m).count("1") == k.slots[seat]
                assert acc & m == 0
                acc |= m
            assert acc == k.pool
            for seat, masks in k.alternatives:
                assert any(not (deal[seat] & mm) for mm in masks)
            for seat, mm in k.requires:
                assert deal[seat] & mm


# ---------------------------------------------------------------------------------------------
# sampling


@pytest.mark.parametrize("seed", range(25))
def test_sample_is_consistent_with_the_view(seed):
    """view.sample(rng): a full game whose view from the same seat is the same, own hand kept."""
    rng = random.Random(seed)
    g = random_state(
        seed,
        options={"communication_window": rng.choice(["round", "free"])},
        mission={
            "target": rng.randrange(6),
            "communication": rng.choice(["normal", "currents", "rapture", "none"]),
        },
    )
    for s in [None, *range(g.seats)]:
        v = g.view(s)
        sg = v.sample(random.Random(seed))
        assert isinstance(sg, CrewGame)
        assert sg.view(s).to_dict() == v.to_dict()
        if s is not None and s != g.dummy:
            assert sg.hand(s) == g.hand(s)
        # the sample may go on with legal play
        la = sg.legal_actions()
        if la:
            sg.apply(la[0])


def test_sample_depends_on_the_view_only():
    """Two games that differ only in cards hidden from a seat give the same samples."""
    for seed in range(10):
        g = random_state(seed, players=4)
        twin = shuffled_hidden(g, 1, random.Random(seed))
        a = g.view(1).sample(random.Random(5))
        b = twin.view(1).sample(random.Random(5))
        assert [a.hand(s) for s in range(4)] == [b.hand(s) for s in range(4)]


def test_sample_after_distress_and_with_tonoja():
    g = CrewGame(
        2,
        seed=3,
        options={"two_player_distress": "humans_swap", "distress_activation": "any_human"},
        tasks=[85],
        assignment={85: 1},
    )
    g.apply("distress cw")
    g.apply(g.legal_actions()[0])
    g.apply(g.legal_actions()[0])
    g.apply("predict 4")
    to_play(g)
    rng = random.Random(0)
    for _ in range(9):
        g.apply(rng.choice(g.legal_actions()))
    for s in (None, 0, 1):
        v = g.view(s)
        sg = v.sample(random.Random(2))
        assert sg.view(s).to_dict() == v.to_dict()
        # Tonoja's face-up cards and the known cards are where they are
        assert [u for u, _ in sg.dummy_columns] == [u for u, _ in g.dummy_columns]


def test_sample_before_the_deal():
    """R-12.3 / R-6.11: before the timed/untimed choice nothing is dealt; a sample is the same setup."""
    g = CrewGame(4, seed=16, campaign=14)
    assert g.step == "timing"
    for seat in (None, 0, 1):
        k = g.view(seat).knowledge()
        assert k.pool == 0 and k.slots == (0, 0, 0, 0)
        s = g.view(seat).sample(random.Random(0))
        assert s.view(seat) == g.view(seat)
        s.apply("timed")
        assert s.step != "timing"


def test_view_is_frozen():
    v = CrewGame(4, seed=1).view(0)
    assert isinstance(v, CrewView)
    with pytest.raises(AttributeError):
        v.seat = 2  # type: ignore[misc]
    assert card(v.hand[0]) >= 0 and fill(4, {})  # helpers importable
    assert tonoja_deal()


@pytest.mark.parametrize("seat", [-1, 4, "0", True, False, 1.0, 10**50])
def test_R_15_2_a_view_is_of_a_seat_or_none(seat: Any) -> None:
    """§15, R-15.2: ``view(-1)`` must not be seat N-1's hand (Python indexing): a view is of
    ``None`` or an int seat 0..N-1 that is not a bool; anything else is refused."""
    from dsa_widget.crew.errors import IllegalActionError

    g = CrewGame(4, seed=3, tasks=[70], assignment={70: 1})
    with pytest.raises(IllegalActionError):
        g.view(seat)
    assert g.view(3).hand is not None and g.view(None).hand is None


def test_pending_proposal_and_timer_start_in_the_view() -> None:
    """The view shows the proposal waiting for confirmations (R-7.6) and when the clock started
    (R-12.1), so that a screen need not rebuild them from the history."""
    g = CrewGame(4, seed=3, tasks=[1, 2], mission={"target": 0, "allocation": "free", "timer_seconds": 60})
    cap = g.captain
    assert g.view(0).to_dict()["pending_proposal"] is None
    g.apply(f"propose 1:{cap} 2:{(cap + 1) % 4}")
    d = g.view(0).to_dict()
    assert d["pending_proposal"] == {"1": cap, "2": (cap + 1) % 4}
    assert d["timer"] == {"seconds": 60, "started": False, "started_at_action": None, "timed": True}
    json.dumps(d)
    for _ in range(3):
        g.apply("confirm")
    assert g.view(None).to_dict()["pending_proposal"] is None
    while g.step == "distress":
        g.apply("no distress")
    started = g.turn_number
    assert g.timer_started and g.view(None).to_dict()["timer"]["started_at_action"] == started
    assert g.actions[started - 1][1] == "no distress"  # the last distress answer started it
