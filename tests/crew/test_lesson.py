"""The Crew's probability lesson (examples/crew.ipynb) runs top to bottom in a real kernel and shows
what makes it a lesson: exact chances as fractions and percentages, simulations that agree with them
inside their 95% Wilson intervals, chances re-computed after every trick, the solver's verdict with a
winning line, the live table, the feasibility estimate and a small, labelled bot table.  Then the
feasibility tools themselves: intervals, unsettled positions, the trivial and the impossible mission,
determinism under the seed."""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from helpers import run_notebook

from dsa_widget.crew.analysis import Estimate, feasibility, feasibility_of
from dsa_widget.crew.analysis.feasibility import _reachable
from dsa_widget.crew.errors import CrewError
from dsa_widget.crew.rules import CrewGame

#: whole notebooks: the slow tier
pytestmark = pytest.mark.slow

LESSON = Path(__file__).resolve().parent.parent.parent / "examples" / "crew.ipynb"


@pytest.fixture(scope="module")
def lesson() -> tuple[Any, str, float]:
    t0 = time.perf_counter()
    nb, text = run_notebook(LESSON)
    return nb, text, time.perf_counter() - t0


def _outputs(nb: Any) -> list[dict[str, Any]]:
    return [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]


def _html(nb: Any) -> list[str]:
    out = []
    for o in _outputs(nb):
        h = o.get("data", {}).get("text/html", "")
        out.append("".join(h) if isinstance(h, list) else h)
    return [h for h in out if h]


# ---------------------------------------------------------------- the lesson


def test_lesson_runs_and_shows_exact_chances(lesson):
    nb, text, _ = lesson
    md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "### Learning goals" in md and "## Teacher's key" in md
    # Bob's chance of the blue 4, exact and as a percentage, and the counting argument's assert ran
    assert "Bob holds B4: exact 10/29 ≈ 34.5%" in text
    assert "Di holds B4: exact 9/29 ≈ 31.0%" in text
    # every Predict is answered in the folded key
    asked = sorted(set(re.findall(r"\*\*Predict (\d+)\.\*\*", md)))
    answered = sorted(set(re.findall(r"<summary><b>Predict (\d+)</b>", md)))
    assert len(asked) >= 4 and asked == answered
    # a published lesson shows no warning: its live table was made with the old seat= keyword,
    # and the reader saw "DeprecationWarning: seat= is now viewer=" under it
    assert "Warning" not in text


def test_simulations_agree_with_the_exact_chances(lesson):
    _, text, _ = lesson
    pairs = re.findall(r"exact (\d+)/(\d+) ≈ [\d.]+%;\s+simulated ([\d.]+)% \[([\d.]+)%, ([\d.]+)%\]", text)
    assert len(pairs) >= 2
    for num, den, est, lo, hi in pairs:
        exact = 100 * int(num) / int(den)
        half = (float(hi) - float(lo)) / 2
        assert float(lo) <= float(est) <= float(hi)
        assert abs(exact - float(est)) <= 2 * half + 0.05, (num, den, est, lo, hi)
    assert "estimate, 95% Wilson interval, n = 4,000" in text


def test_communication_and_voids_change_the_chances(lesson):
    _, text, _ = lesson
    row = re.search(r"^Bob holds B1\s+(\S+) \(.*?\)\s+(\S+) \(", text, re.M)
    assert row and row.group(1) == "10/29" and row.group(2) == "0"  # "B4 lowest": no lower blue
    assert re.search(r"^Cy holds Y2 .* 0 \( 0\.0%\)$", text, re.M)  # "Y6 only": no other yellow
    rows = re.findall(r"^\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+.*?([\d.]+) ms$", text, re.M)
    assert [int(r[0]) for r in rows] == list(range(10))  # re-run after every trick
    di = [r[3] for r in rows]
    assert di[0] == "2584/154077" and di[-1] == "1"  # Di fails to follow blue in trick 6
    assert di[6] == "1" and di[5] != "1"


def test_the_chance_tables_are_aligned_columns(lesson):
    """Issue 29: the tables ran their columns together ("0 ( 0.0%)34155/103676"); every row of
    each table now has the header's width, and its columns are at least two spaces apart."""
    _, text, _ = lesson
    lines = text.splitlines()
    for head in ("exact chances  ", "tricks  "):
        at = next(i for i, line in enumerate(lines) if line.startswith(head))
        n = 5 if head.startswith("exact") else 11
        table = lines[at : at + n]
        assert len({len(line) for line in table}) == 1, table
        assert not any(re.search(r"%\)\S|\d\S*/\d+\S*/", line) for line in table), table
    shown = lines[next(i for i, line in enumerate(lines) if line.startswith("exact chances  ")) + 1 :][:4]
    assert re.search(r"0 \( 0\.0%\)  +34155/103676 \(32\.9%\)", shown[0]), shown[0]


def test_the_picture_is_svg(lesson):
    nb, _, _ = lesson
    svgs = [ET.fromstring(h) for h in _html(nb) if h.lstrip().startswith("<svg")]
    assert len(svgs) == 1
    svg = svgs[0]
    assert len(list(svg.iter("{http://www.w3.org/2000/svg}polyline"))) == 3
    assert svg.get("fill") == "currentColor"


def test_solver_verdict_line_widget_and_estimate(lesson):
    nb, text, _ = lesson
    assert "Verdict('yes', exact solver answer" in text and "winning line 3:B2 0:S2 1:B4" in text
    verdicts = re.findall(r"after (\d+) tricks: (yes|no|unknown)", text)
    assert len(verdicts) == 10 and verdicts[0][1] == "yes" and verdicts[-1][1] == "no"
    widgets = [o for o in _outputs(nb) if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(widgets) >= 1  # the table with every hand shown (no bot loop: the cell returns)
    html = "\n".join(_html(nb))
    assert "estimate, 95% Wilson interval, n = " in html
    assert "unsettled" in html
    assert "A SMALL SAMPLE" in text and "95% CI" in text and "search (4 samples)" in text


def test_lesson_is_quick(lesson):
    *_, seconds = lesson
    assert seconds < 120, f"the lesson took {seconds:.0f} s (budget about 60 s)"


# ---------------------------------------------------------------- feasibility


def test_wilson_bounds_contain_the_point():
    e = feasibility(4, target=2, deals=6, seed=3, progress=False)
    assert isinstance(e, Estimate)
    assert e.deals == 6 == e.wins + e.losses + e.unsettled
    assert 0.0 <= e.low <= e.rate <= e.high <= 1.0
    a, b = e.bounds
    assert a <= e.wins / e.deals <= b
    assert "estimate, 95% Wilson interval, n = " in e._repr_html_()
    assert f"n = {e.settled}" in repr(e)


def test_unsettled_positions_are_counted_apart():
    e = feasibility(4, target=5, deals=4, seed=1, node_limit=1, progress=False)
    assert e.unsettled >= 1
    assert e.wins + e.losses + e.unsettled == e.deals == 4
    assert sum(r.winnable is None for r in e.results) == e.unsettled
    assert e.rate == (e.wins / e.settled if e.settled else 0.0)
    lo, hi = e.bounds
    assert hi - lo == pytest.approx(e.unsettled / e.deals)
    assert "unsettled" in repr(e) and "unsettled" in e._repr_html_()


def test_a_mission_without_tasks_is_winnable():
    for assign in ("best", "crewmate"):
        e = feasibility(4, target=0, deals=3, seed=5, assign=assign, progress=False)
        assert (e.wins, e.losses, e.unsettled) == (3, 0, 0)
        assert all(r.tasks == () for r in e.results)
    g = CrewGame(4, target=0, seed=2)
    assert feasibility_of(g).verdict == "yes"


def test_a_statically_impossible_task_set_is_never_winnable():
    # tasks 70 ("take trick 1") and 75 ("take trick 1 and no other") go to two different seats
    # (two tasks, four seats: one each), and both cannot take trick 1 (CREW.md A-7)
    for assign in ("best", "crewmate"):
        e = feasibility(4, mission={"fixed_tasks": [70, 75]}, deals=4, seed=2, assign=assign, progress=False)
        assert (e.wins, e.unsettled) == (0, 0) and e.losses == 4
        assert e.target is None and e.mission == {"fixed_tasks": [70, 75]}


def test_determinism_under_the_seed():
    a = feasibility(4, target=3, deals=4, seed=11, progress=False)
    b = feasibility(4, target=3, deals=4, seed=11, progress=False)
    c = feasibility(4, target=3, deals=4, seed=12, progress=False)
    assert a == b and a.results == b.results
    assert [r.seed for r in a.results] != [r.seed for r in c.results]


def test_feasibility_of_one_game():
    g = CrewGame(4, seed=3, tasks=[70, 4], assignment={70: 1, 4: 2})
    v = feasibility_of(g)
    assert v.verdict == "yes" and v.winnable is True and v.line
    assert v.assignment == {70: 1, 4: 2}
    # replaying the winning line wins the mission
    h = g.clone()
    while h.step != "play":
        h.apply("no distress" if h.step == "distress" else "pass")
    for _seat, action in v.line:
        while h.step == "communicate":
            h.apply("pass")
        h.apply(action)
    assert h.outcome is not None and h.outcome.result == "success"
    assert feasibility_of(g, node_limit=1).verdict in ("yes", "unknown")
    lost = feasibility_of(CrewGame(4, seed=3, tasks=[80], assignment={80: 1}))
    assert lost.verdict == "no" and lost.line == ()
    # before the assignment: the best reachable one is searched
    fresh = CrewGame(4, seed=3, tasks=[70, 4])
    best = feasibility_of(fresh)
    assert best.verdict == "yes" and set(best.assignment) == {70, 4}
    assert fresh.step == "assign"  # not changed
    fresh.apply(fresh.legal_actions()[0])
    with pytest.raises(CrewError):
        feasibility_of(fresh)  # half assigned


def test_reachable_assignments():
    assert len(list(_reachable(CrewGame(4, seed=1, tasks=[1, 2, 3, 4, 5])))) == 60  # 5! / 2!
    assert len(list(_reachable(CrewGame(4, seed=1, tasks=[1, 2])))) == 12  # one task per seat
    one = CrewGame(4, seed=1, tasks=[1, 94], mission={"target": 0, "allocation": "one_owner"})
    owners = [set(a.values()) for a in _reachable(one)]
    assert len(owners) == 3 and {one.captain} not in owners  # 94 never on the captain


def test_bad_arguments():
    with pytest.raises(ValueError):
        feasibility(4, target=2, deals=0)
    with pytest.raises(ValueError):
        feasibility(4, target=2, assign="worst")
    with pytest.raises(ValueError):
        feasibility(4, target=None)


def test_every_figure_of_the_teachers_key_is_one_the_lesson_computed(lesson):
    """The key quotes the tables: every fraction it gives was printed by a cell (issue 29: the
    key once gave 9/25 and 9/28 where the table showed 253/645 and 34155/103676)."""
    nb, text, _ = lesson
    md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    key = md[md.index("## Teacher's key") :]
    quoted = set(re.findall(r"\b\d+/\d+\b", key))
    assert {"253/645", "34155/103676", "1497/147730", "9/25", "9/28"} <= quoted
    printed = set(re.findall(r"\b\d+/\d+\b", text))
    assert quoted <= printed, quoted - printed


def test_the_statements_the_lesson_checks(lesson):
    """Each fact the lesson states is followed by a cell that asserts it (a failed assert stops
    the notebook); here, that those cells ran and said what the text says."""
    _, text, _ = lesson
    assert re.search(r"^led B: .*Ann S\d, Bob B4", text, re.M)  # trumping a blue lead
    assert re.search(r"^led S: .*Bob B4", text, re.M)  # a discard onto Ann's winning card
    assert "one line: C(20, 9) / C(29, 9) = 2584/154077" in text
    assert "after B4 lowest exact 253/645 ≈ 39.2%; fewer cards alone exact 9/25 ≈ 36.0%" in text
    assert "Di's blue void is revealed after trick 6" in text
    assert re.search(
        r"^\s+9\s+159/159 \[97\.6%, 100\.0%\]\s+159/200 = 79\.5% \[73\.4%, 84\.5%\]$", text, re.M
    )
