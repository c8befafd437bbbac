"""Tournaments: seeded, rotated, ranked; plain data, tables, CLI (issue 4)."""

from __future__ import annotations

import json
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.cli import main
from dsa_widget.core.registry import games
from dsa_widget.core.tournament import TournamentResult, wilson_interval
from dsa_widget.core.tournament import tournament as core_tournament
from dsa_widget.deep_sea.bots import BotError, make_bot, tournament


def always_first(view, legal):
    """A module-level function bot: picklable, so it can run in worker processes."""
    return legal[0]


def test_same_seed_same_results_whatever_the_workers():
    bots = ["baseline", make_bot("mc", playouts=2), "random"]
    a = tournament(bots, games=9, seed=5, workers=1, progress=False)
    b = tournament(bots, games=9, seed=5, workers=2, progress=False)
    assert a.to_dict() == b.to_dict()
    c = tournament(bots, games=9, seed=6, workers=1, progress=False)
    assert c.to_dict()["games"] != a.to_dict()["games"]


def test_seats_rotate_over_each_deal():
    res = tournament(["baseline", "air", "take_n"], games=6, seed=1, workers=1, progress=False)
    seats = [g["seats"] for g in res.games]
    assert seats[:3] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    assert [g["deal"] for g in res.games] == [0, 0, 0, 1, 1, 1]
    assert res.games[0]["seed"] == res.games[2]["seed"] != res.games[3]["seed"]
    assert all(r["games"] == 6 for r in res.rows)


def test_table_counts_shared_wins_fractionally():
    res = tournament({"a": always_first, "b": always_first}, games=4, seed=2, workers=2, progress=False)
    total = sum(r["wins"] for r in res.rows)
    assert total == pytest.approx(4)
    for g in res.games:
        assert len(g["winners"]) >= 1
    expected = {"a": 0.0, "b": 0.0}
    for g in res.games:
        for seat, entry in enumerate(g["seats"]):
            if seat in g["winners"]:
                expected["ab"[entry]] += 1 / len(g["winners"])  # a k-way shared win: 1/k each
    assert {r["bot"]: r["wins"] for r in res.rows} == pytest.approx(expected)
    text = repr(res)
    assert "shared wins count 1/k" in text and "95% CI" in text
    html = res._repr_html_()
    assert "<table>" in html and "turn-back depth" in html


def test_rows_are_plain_data_and_ranked():
    res = tournament(["random", "baseline"], games=20, seed=3, workers=1, progress=False)
    assert [r["bot"] for r in res.rows] == ["baseline", "random"]
    json.dumps(res.to_dict())  # plain data
    row = res.row("baseline")
    lo, hi = row["win_ci"]
    assert lo <= row["win_rate"] <= hi
    assert row["mean_turn_back_depth"] > 0 and 0 <= row["bank_rate"] <= 1
    with pytest.raises(KeyError, match="no bot 'mc'"):
        res.row("mc")


def test_to_pandas_optional():
    res = tournament(["random", "baseline"], games=2, seed=3, workers=1, progress=False)
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="pandas"):
            res.to_pandas()
    else:
        df = res.to_pandas()
        assert list(df.index) == [r["bot"] for r in res.rows]


def test_duplicate_bots_get_labels_and_setups_cycle():
    res = tournament(
        ["air", "air", "baseline"],
        games=6,
        seed=1,
        workers=1,
        progress=False,
        setups=[{"air": 15}, {"rounds": 1, "options": {"reveal": "owner"}}],
    )
    assert sorted(r["bot"] for r in res.rows) == ["air", "air#2", "baseline"]
    assert [g["setup"] for g in res.games] == [0, 0, 0, 1, 1, 1]
    # the dives counted per seat are the rounds played: one round in the second setup
    assert all(den == 1 for g in res.games[3:] for _, den in g["extra"]["bank_rate"])


def test_bad_tournament_input():
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        tournament(["baseline", "nobody"], games=2, progress=False)
    with pytest.raises(ValueError, match="2 to 6"):
        tournament(["baseline"], games=2, progress=False)
    with pytest.raises(ValueError, match="games"):
        tournament(["baseline", "air"], games=0, progress=False)
    with pytest.raises(ValueError, match="air"):
        tournament(["baseline", "air"], games=2, setups=[{"air": -3}], progress=False)
    with pytest.raises(ValueError, match="players"):
        tournament(["baseline", "air"], games=2, setups=[{"players": 3}], progress=False)
    # the tournament's games keep no event log: it failed mid-run with "multiple values"
    with pytest.raises(ValueError, match="events"):
        tournament(["baseline", "air"], games=2, setups=[{"events": True}], progress=False)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_bot_stops_the_tournament_with_its_name(workers):
    with pytest.raises(BotError, match=r"bot 'grump' returned 'nope'.*turn"):
        tournament({"grump": make_grump(), "base": "baseline"}, games=4, workers=workers, progress=False)


class _Grump:
    name = "grump"

    def __call__(self, view, legal):
        return "nope"


def make_grump():
    return _Grump()


def test_lambdas_play_on_every_worker_through_cloudpickle():
    """A lambda cannot be pickled, but cloudpickle ships it: the two-process table equals the
    one-process table (and no warning says otherwise)."""
    bots = [lambda v, legal: legal[-1], "baseline"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        two = tournament(bots, games=6, seed=4, workers=2, progress=False)
    one = tournament(bots, games=6, seed=4, workers=1, progress=False)
    assert two.to_dict() == one.to_dict() and two.rows[0]["games"] == 6


def test_text_progress_bar(capsys):
    tournament(["random", "baseline"], games=3, workers=1, progress=True)
    err = capsys.readouterr().err
    assert "3 of 3 games" in err


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval(k, n):
    wins = min(k, n) + (0.5 if k < n and k % 3 == 0 else 0.0)
    lo, hi = wilson_interval(wins, n)
    assert 0 <= lo <= wins / n <= hi <= 1
    assert hi - lo <= wilson_interval(n / 2, n)[1] - wilson_interval(n / 2, n)[0] + 1e-12


def test_cli_tournament(capsys):
    assert main(["tournament", "baseline", "random", "--games", "4", "--quiet", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "baseline" in out and "95% CI" in out
    assert (
        main(
            [
                "tournament",
                "baseline",
                "air",
                "--games",
                "2",
                "--quiet",
                "--json",
                "--air",
                "18",
                "--option",
                "reveal=owner",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["settings"]["setups"] == [{"air": 18, "options": {"reveal": "owner"}}]
    assert main(["tournament", "baseline", "ghost", "--games", "2", "--quiet"]) == 2
    assert "unknown bot 'ghost'" in capsys.readouterr().err


def test_result_repr_without_games():
    r = TournamentResult([], [], {"games": 0, "seats": 2, "seed": 0}, 0.0)
    assert "0 games" in repr(r)


def test_notebook_progress_bar_in_a_kernel(monkeypatch):
    """In a running IPython kernel the bar is an ipywidgets one, not text."""
    import importlib

    import IPython.display

    tmod = importlib.import_module("dsa_widget.core.tournament")  # the module, not the function

    shown = []
    import dsa_widget.core.progress as pmod

    monkeypatch.setattr(pmod, "in_kernel", lambda: True)
    monkeypatch.setattr(IPython.display, "display", lambda w: shown.append(w))
    bar = tmod._Progress(5, True)
    for i in range(1, 6):
        bar.update(i)
    assert shown and bar.widget is not None
    assert bar.bar.value == 5 and bar.bar.max == 5 and "5 of 5" in bar.label.value


def test_no_kernel_outside_jupyter():
    from dsa_widget.core.tournament import _in_kernel

    assert _in_kernel() is False


def test_dives_banked_counts_every_banking_round():
    """A round can end after a search or a turn-back choice, not only after a roll: every
    banking counts (checked against the bank events of the same game played with the log on)."""
    from dsa_widget import Game
    from dsa_widget.core.tournament import _instantiate, play_game
    from dsa_widget.deep_sea.bots import play_bot_move
    from dsa_widget.deep_sea.bots.arena import ARENA

    for game_seed in range(12):
        specs, labels, seeds = ["baseline", "planner", "random"], ["A", "B", "C"], [1, 2, 3]
        summary = play_game(ARENA, specs, labels, {}, game_seed, seeds)
        bots = [_instantiate(s, b, Game) for s, b in zip(specs, seeds, strict=False)]
        g = Game(players=labels, seed=game_seed)
        while not g.is_over:
            if g.step == "roll":
                g.apply("roll")
            else:
                play_bot_move(g, bots[g.current_player])
        assert g.scores == tuple(summary["scores"])
        banks = [0, 0, 0]
        for e in g.events:
            if e["type"] == "bank":
                banks[e["seat"]] += 1
        assert [num for num, _ in summary["extra"]["bank_rate"]] == banks


@pytest.mark.parametrize("spec", [g for g in games() if g.arena_of() is not None], ids=lambda g: g.name)
@pytest.mark.parametrize("setup", [{"nonsense": 1}, {"seed": 3}, {"players": 3}])
def test_a_bad_setup_key_is_a_value_error_in_every_game(spec, setup):
    """A tournament's setups are data from a cell or a shell: a key the game takes no keyword for
    (or one the tournament sets itself) is refused before any game is played, by a ``ValueError``
    naming it, in every game (Submarine and Pig raised Python's ``TypeError`` mid-run)."""
    bots = ["random"] * max(2, spec.seats[0])
    key = next(iter(setup))
    with pytest.raises(ValueError, match=f"'{key}'") as err:
        core_tournament(bots, games=2, setups=[setup], workers=1, progress=False, game=spec.arena_of())
    assert not isinstance(err.value, TypeError)


def test_workers_must_be_a_count():
    with pytest.raises(ValueError, match="workers must be None"):
        tournament(["baseline", "air"], games=2, workers="2", progress=False)  # type: ignore[arg-type]
