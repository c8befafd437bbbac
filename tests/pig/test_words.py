"""Pig's log in words (issue 29, item 5): one line per roll, and a seat named "You" is spoken to
in the second person."""

from __future__ import annotations

from dsa_widget.pig import widget as pig_widget


def _played(seed: int) -> list[str]:
    w = pig_widget.Pig(players=["You", "Bot"], seats={}, goal=20, seed=seed)
    for _ in range(40):
        if w.state["over"]:
            break
        legal = w.state["legal"]
        w.apply("hold" if "roll" not in legal or (w.state["turn_total"] >= 8 and "hold" in legal) else "roll")
    labels: list[str] = w.state["history"]["labels"]
    return labels


def test_every_roll_is_one_line_of_the_log_and_never_says_you_rolls() -> None:
    for seed in range(6):
        labels = _played(seed)
        told = [t for t in labels if t]  # the shell's log leaves out an empty label
        rolls = [t for t in told if "rolled" in t]
        # each roll is a choice to roll (no words of its own) followed by its die's line
        assert len(rolls) == labels.count(""), labels
        assert not any(t.endswith("rolls") for t in told), told
        assert not any("You rolls" in t or "You holds" in t for t in told), told
