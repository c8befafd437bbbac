"""examples/play.ipynb as a newcomer runs it (issue 29): "Run all" leaves the first move to the
reader, and what the cells print reads as sentences, not bare tuples or lists."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "play.ipynb"


def test_run_all_leaves_the_first_move_to_the_reader_and_prints_words():
    cells = [c for c in json.loads(NOTEBOOK.read_text())["cells"] if c["cell_type"] == "code"]
    ns: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for cell in cells:
            exec(compile("".join(cell["source"]), str(NOTEBOOK), "exec"), ns)
    w = ns["w"]
    assert w.game.turn_number == 0 and w.game.current_player == 0 and w.game.legal_choices() == ("roll",)
    lines = [ln for ln in out.getvalue().splitlines() if ln.strip()]
    assert lines and "You to play" in lines[0]
    for ln in lines:
        assert ln.lstrip()[0] not in "([{", ln  # no bare tuple, list or dict


def test_more_opponents_lists_every_registered_bot_with_its_summary():
    """Issue 29: the list left out `planner`, the default bot; it now lists the registry as it is."""
    from dsa_widget.deep_sea.bots.registry import BOT_NAMES, BOT_SUMMARIES

    md = "\n".join(
        "".join(c["source"])
        for c in json.loads(NOTEBOOK.read_text())["cells"]
        if c["cell_type"] == "markdown"
    )
    listed = re.findall(r'^- `"(\w+)"`: (.+)$', md, re.M)
    assert listed == [(name, BOT_SUMMARIES[name]) for name in BOT_NAMES]
    assert "planner" in BOT_NAMES
