"""The words The Crew's table says (CrewPresenter.prompt_words / ending_words, sent as the
screen's ``prompt`` and ``ending``): whose cards the captain plays when it is the dummy seat's
turn, the distress signal explained when it is offered, and, once, why an attempt ended and at
which trick.  Each test drives real games through the widget's message handler."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.crew.widget import Crew, ending_words


def intent(w: Crew, choice: str) -> None:
    w.handle_intent({"type": "intent", "seq": w.seq, "choice": choice})


def play_until(w: Crew, rng: random.Random, stop, pick=None, limit: int = 600) -> bool:
    """Random clicks for the screen's seat, bot steps for the bots, until ``stop(state)``."""
    for _ in range(limit):
        s = w.state
        if stop(s):
            return True
        if w.game.is_over:
            return False
        if w.is_bot_turn():
            w.handle_intent({"type": "bot_step", "seq": w.seq})
        else:
            legal = s["legal"]
            intent(w, (pick(legal) if pick else None) or rng.choice(legal))
    return False


def two_players(seed: int) -> Crew:
    return Crew(players=["Ann", "Bob"], viewer=0, seats={1: "crewmate"}, target=2, seed=seed)


def dummy_turn(s) -> bool:
    return s["step"] == "play" and s["acting_for"] not in (None, s["seat"]) and s["can_act"]


def test_the_dummy_seats_turn_points_at_the_dummys_cards_not_the_captains_hand():
    """R-4.7: "The captain decides everything Tonoja does: ... which card Tonoja plays."
    R-4.8: "Tonoja can play only its face-up cards." The prompt names Tonoja's panel; the
    legal cards are Tonoja's face-up ones, none of the captain's hand."""
    for seed in range(12):
        w = two_players(seed)
        if not play_until(w, random.Random(seed), dummy_turn):
            continue
        s = w.state
        dummy = s["players"][s["acting_for"]]
        assert dummy == "Tonoja" and s["captain"] == s["seat"] == 0
        words = s["prompt"]
        assert f"You play for {dummy}" in words and f"{dummy}'s panel" in words, words
        assert "face-up" in words and "Your own hand waits" in words
        face_up = {c["up"] for c in s["dummy_columns"] if c["up"]}
        cards = {a.split()[1] for a in s["legal"] if a.startswith("play ")}
        assert cards and cards <= face_up and not cards & set(s["hand"])
        # a card of the captain's own hand is refused in words, and nothing changes
        seq, n = w.seq, len(w.game.actions)
        intent(w, f"play {s['hand'][0]}")
        assert "Tonoja" in w.error["message"] and w.seq == seq and len(w.game.actions) == n
        # the prompt's follow-suit words agree with what is legal
        plays = s["trick"]["plays"]
        if plays and any(c[0] == plays[0]["card"][0] for c in face_up):
            assert "follow suit" in words and all(c[0] == plays[0]["card"][0] for c in cards)
        return
    pytest.fail("no dummy-seat turn found")


def test_the_distress_signal_is_explained_when_offered_and_names_the_neighbours():
    """R-9.1 "after the deal and the task assignment ... before anybody communicates and
    before the first card is played"; R-9.3 "every seat passes its card to its neighbour in the
    chosen direction"; R-9.4 "A submarine can never be passed."  The offer is explained, and the
    card to pass names the seat it goes to: the one the engine then gives it to."""
    for direction in ("cw", "ccw"):
        for seed in range(30):
            w = Crew(
                players=["Ann", "Bob", "Cy"],
                viewer=0,
                seats={1: "crewmate", 2: "crewmate"},
                target=2,
                seed=seed,
            )
            ask = f"distress {direction}"

            def pick(legal, ask=ask):
                return ask if ask in legal else None

            if not play_until(w, random.Random(seed), lambda s: "no distress" in s["legal"], pick):
                continue
            offer = w.state["prompt"]
            assert offer.startswith("Distress signal (optional)")
            assert "never a submarine" in offer and "before anyone communicates or plays" in offer
            assert "clockwise" in offer and "counterclockwise" in offer and "No distress" in offer
            intent(w, f"distress {direction}")
            if not play_until(
                w, random.Random(seed), lambda s: any(a.startswith("give ") for a in s["legal"])
            ):
                continue
            s = w.state
            to = 1 if direction == "cw" else 2
            frm = 3 - to
            assert f"pass to {s['players'][to]}" in s["prompt"] and f"from {s['players'][frm]}" in s["prompt"]
            assert all(not a.endswith(("S1", "S2", "S3", "S4")) for a in s["legal"])
            intent(w, s["legal"][0])
            play_until(w, random.Random(seed), lambda s: s["distress"]["given_to"] is not None)
            assert w.state["distress"]["given_to"] == to
            break
        else:
            pytest.fail(f"no distress ({direction}) was offered")
    # once played on, it is not offered again, nor explained
    assert "Distress signal (optional)" not in (w.state["prompt"] or "")


def test_an_early_end_says_once_why_and_at_which_trick():
    """R-10.6: "play stops as soon as the mission has succeeded or failed." The ending names
    the trick it stopped at, the task that failed, and the tricks left unplayed; nothing else
    on the screen repeats it."""
    for seed in range(20):
        w = Crew(
            players=["Ann", "Bob", "Cy", "Di"],
            viewer=0,
            seats={1: "crewmate", 2: "crewmate", 3: "crewmate"},
            target=4,
            seed=seed,
        )
        play_until(w, random.Random(seed), lambda s: s["outcome"] is not None)
        s = w.state
        out, total = s["outcome"], s["tricks_total"]
        if out["result"] != "failure" or not 0 < out["trick"] < total:
            continue
        task = out["cause"].split()[1]
        summary = next(t["summary"] for t in s["tasks"] if str(t["id"]) == task).rstrip(".")
        left = total - out["trick"]
        assert s["ending"] == (
            f"Mission failed at trick {out['trick']} of {total}: task #{task} can no longer be done "
            f"({summary}). The other {left} trick{'s are' if left > 1 else ' is'} not played."
        )
        assert s["prompt"] is None and s["trick"] is None  # no trick in progress to speak of
        return
    pytest.fail("no early failure found")


def test_the_ending_words_for_a_success_a_timeout_and_a_deadlock():
    tasks = [{"id": 7, "summary": "Capture the blue 4."}]
    ok = {
        "outcome": {"result": "success", "trick": 6, "cause": "every task done"},
        "tricks_total": 10,
        "tasks": tasks,
    }
    assert (
        ending_words(ok)
        == "Mission accomplished at trick 6 of 10: every task is done. The other 4 tricks are not played."
    )
    last = {**ok, "outcome": {"result": "success", "trick": 10, "cause": "every task done"}}
    assert ending_words(last) == "Mission accomplished at trick 10 of 10: every task is done."
    late = {**ok, "outcome": {"result": "failure", "trick": 9, "cause": "timeout"}}
    assert (
        ending_words(late)
        == "Mission failed at trick 9 of 10: the clock ran out. The last trick is not played."
    )
    dead = {**ok, "outcome": {"result": "failure", "trick": 0, "cause": "captain_comparison_deadlock"}}
    assert ending_words(dead) == "Mission failed before the first trick: captain comparison deadlock."
    assert ending_words({"outcome": None}) is None


@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([["Ann", "Bob"], ["Ann", "Bob", "Cy"]]))
def test_a_prompt_whenever_the_screens_seat_is_asked_and_never_otherwise(seed, players):
    """Every step of a random game: the screen's seat has words exactly when it has something
    to do, and an ending exactly when the attempt is over."""
    seats = {q: "random" for q in range(1, len(players))}
    w = Crew(players=players, viewer=0, seats=seats, target=2, seed=seed, bot_seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        s = w.state
        asked = s["can_act"] and any(
            a.split()[0] in ("play", "take", "comm", "distress", "give", "predict", "agree")
            for a in s["legal"]
        )
        assert (s["prompt"] is not None) == asked, (s["step"], s["legal"], s["prompt"])
        assert (s["ending"] is not None) == (s["outcome"] is not None)
        if w.game.is_over:
            return
        if w.is_bot_turn():
            w.handle_intent({"type": "bot_step", "seq": w.seq})
        else:
            intent(w, rng.choice(s["legal"]))


def test_the_history_says_passes_and_the_distress_signal_in_words():
    """The log under the table: a pass says what was not done (no task taken now, R-6; no
    communication, R-11.3), and the distress steps read as sentences (R-9.2)."""
    seen: set[str] = set()
    for seed in range(40):
        w = Crew(
            players=["Ann", "Bob", "Cy"], viewer=0, seats={1: "random", 2: "random"}, target=3, seed=seed
        )
        play_until(w, random.Random(seed), lambda s: s["outcome"] is not None)
        for line in w.session.labels():
            words = line.split(" ", 1)[1]
            assert words not in ("passed", "refuse", "agree") and not words.startswith(
                ("distress", "no distress")
            )
            assert ": " not in line, line  # no engine code after a name
            seen.add(words.split(" (")[0])
    assert {"did not communicate", "took no task this time", "did not ask for the distress signal"} <= seen, (
        seen
    )
    assert "asked for the distress signal" in seen


def test_a_what_ifs_log_hides_the_cards_other_seats_pass_in_it():
    """R-9.2: a distress pass is face down to the others.  A what-if's own steps join the log
    (Session.branch_steps): a seat reads its own pass with its card, the others' without, and a
    spectator's screen reads none of them."""
    w = Crew(
        players=["Ann", "Bob", "Cy"],
        viewer=0,
        seats={1: "random", 2: "random"},
        target=2,
        seed=3,
        options={"distress_activation": "any_human"},
    )
    play_until(w, random.Random(3), lambda s: any(a.startswith("distress") for a in s["legal"]))
    w.branch()
    w.handle_intent({"type": "intent", "seq": w.seq, "choice": "distress cw"})
    while w.state["step"].startswith("distress"):
        s = w.state
        if s["can_act"]:
            w.handle_intent({"type": "intent", "seq": w.seq, "choice": s["legal"][0]})
        else:
            w.handle_intent({"type": "bot_step", "seq": w.seq})
    gives = {q: a.split()[1] for q, a in w.session.branch_steps if str(a).startswith("give ")}
    assert set(gives) == {0, 1, 2}
    told = w.state["history"]["labels"]
    assert f"Ann passed {gives[0]} on" in told
    assert {"Bob chose a card to pass on", "Cy chose a card to pass on"} <= set(told)
    for who, hidden in ((0, [gives[1], gives[2]]), (None, list(gives.values()))):
        words = " ".join(w.session.screen(who)["history"]["labels"])
        assert not any(c in words.split() for c in hidden), (who, hidden)
