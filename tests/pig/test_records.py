"""Pig records (``pig/record@1``): what the package writes it reads back, through the registry and
``python -m dsa_widget replay`` too; a hostile record is refused with one RecordError naming the
setup key or the turn, never a crash."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import replay_cli

from dsa_widget.core.bots import play_until
from dsa_widget.core.records import replay
from dsa_widget.pig import PigGame, RecordError
from dsa_widget.pig.record import load_record


def finished(seed: int = 4) -> PigGame:
    g = PigGame(["Ann", "Bob", "Cy"], goal=40, seed=seed)
    play_until(g, ["hold_at_20", "optimal", "random"], until="game")
    return g


def test_save_load_and_replay(tmp_path: Path) -> None:
    g = finished()
    path = tmp_path / "pig.json"
    g.save(path)
    doc = json.loads(path.read_text())
    assert doc["format"] == "pig/record@1" and set(doc) == {"format", "setup", "turns"}
    assert doc["setup"] == {"players": ["Ann", "Bob", "Cy"], "goal": 40, "first_player": 0, "seed": 4}
    assert all(t["moves"][-1] in ("hold", 1) for t in doc["turns"])
    assert PigGame.from_record(path).to_record() == doc == load_record(path.read_text()).to_record()
    assert replay(doc) == g.state_dict()
    out = replay_cli(str(path))
    assert out.returncode == 0 and json.loads(out.stdout) == g.state_dict()


def good() -> dict[str, Any]:
    return {
        "format": "pig/record@1",
        "setup": {"players": ["A", "B"], "goal": 20, "seed": 1},
        "turns": [{"seat": 0, "moves": [4, 6, "hold"]}, {"seat": 1, "moves": [5, 1]}],
    }


def hostile(change: Any) -> dict[str, Any]:
    doc = good()
    change(doc)
    return doc


@pytest.mark.parametrize(
    ("doc", "key", "turn", "words"),
    [
        ('{"format": "pig/record@1", "turns": [', "turns", 1, "^turn 1: not valid JSON"),
        ('{"format": "pig/record@1", "setup": {"goal": NaN}}', "setup.goal", None, "^setup key 'goal': NaN"),
        (
            '{"format": "pig/record@1", "format": "pig/record@1"}',
            "format",
            None,
            "^key 'format': appears twice",
        ),
        (hostile(lambda d: d.update(format="pig/record@2")), "format", None, "expected 'pig/record@1'"),
        (hostile(lambda d: d.update(extra=1)), "extra", None, "unknown key"),
        (hostile(lambda d: d.update(setup=[])), "setup", None, "expected an object"),
        (hostile(lambda d: d["setup"].update(air=3)), "setup.air", None, "^setup key 'air': unknown key"),
        (
            hostile(lambda d: d["setup"].update(goal=True)),
            "setup.goal",
            None,
            "^setup key 'goal': goal must be an int",
        ),
        (
            hostile(lambda d: d["setup"].update(players=["A", "\ud800"])),
            "setup.players",
            None,
            "lone surrogate",
        ),
        (
            hostile(lambda d: d["setup"].update(players=["A", "B\n"])),
            "setup.players",
            None,
            "control character",
        ),
        (hostile(lambda d: d["setup"].update(goal=10**400)), "setup.goal", None, "goal must be an int"),
        (hostile(lambda d: d["setup"].update(seed=2**70)), "setup.seed", None, "seed must be an int"),
        (hostile(lambda d: d["setup"].update(players=["A"] * 2)), "setup.players", None, "distinct"),
        (hostile(lambda d: d["setup"].update(players={"A": 1})), "setup.players", None, "players"),
        (hostile(lambda d: d["setup"].update(first_player=-1)), "setup.first_player", None, "first_player"),
        (hostile(lambda d: d.update(turns={})), "turns", None, "expected a list"),
        (hostile(lambda d: d["turns"].append("hold")), "turns", 3, "a turn is"),
        (hostile(lambda d: d["turns"][0].update(seat=1)), "turns", 1, "seat 1 may not start"),
        (hostile(lambda d: d["turns"][0].update(seat=False)), "turns", 1, "seat False"),
        (hostile(lambda d: d["turns"][0].update(moves=[])), "turns", 1, "1 to 502 moves"),
        (hostile(lambda d: d["turns"][0].update(moves=[4] * 10**5)), "turns", 1, "1 to 502 moves"),
        (
            hostile(lambda d: d["turns"][0].update(moves=["hold"])),
            "turns",
            1,
            "move 1 .'hold'.: 'hold' needs",
        ),
        (hostile(lambda d: d["turns"][0].update(moves=[4, 7])), "turns", 1, "move 2 .7.: a die shows 1 to 6"),
        (hostile(lambda d: d["turns"][0].update(moves=[4, True])), "turns", 1, "move 2 .True."),
        (hostile(lambda d: d["turns"][0].update(moves=[4, 2.5])), "turns", 1, "a die shows"),
        (hostile(lambda d: d["turns"][0].update(moves=[[4]])), "turns", 1, "a die shows"),
        (hostile(lambda d: d["turns"][1].update(moves=[1, 3])), "turns", 2, "move 2 .3.: the turn had ended"),
        (hostile(lambda d: d["turns"][0].update(moves=[4, 6])), "turns", 1, "turn 1: the turn did not end"),
        (hostile(lambda d: d["turns"][0].update(moves=[4, "roll", 2])), "turns", 1, "the die is rolling"),
        (
            hostile(lambda d: d["turns"][0].update(moves=[6, 6, 6, 6, 6])),
            "turns",
            1,
            "move 5 .6.: 24 reaches the goal .20.: hold to win",
        ),
        (hostile(lambda d: d["turns"][0].update(moves=[6, 6, 6, 2, "hold"])), "turns", 2, "already over"),
    ],
)
def test_a_hostile_record_is_refused_with_one_clear_error(
    doc: Any, key: str | None, turn: int | None, words: str
) -> None:
    with pytest.raises(RecordError, match=words) as e:
        load_record(doc)
    assert e.value.key == key and e.value.turn == turn


def test_a_game_in_progress_records_its_turn_so_far() -> None:
    g = PigGame(2, goal=30, seed=9)
    for m in ("roll", 3, "roll"):
        g.apply(m) if isinstance(m, str) else g.apply_chance(m)
    assert g.to_record()["turns"] == [{"seat": 0, "moves": [3, "roll"]}]
    again = load_record(g.to_record())
    assert again.view(1) == g.view(1) and again.chance_outcomes() == g.chance_outcomes()
