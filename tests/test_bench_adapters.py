"""``benchmarks/bench_adapters.py --before REV``: the old tree timed is really the commit's (its
subprocess imports that tree's ``dsa_widget``), a game it cannot load reads as a reason (printed
"n/a"), the compiled rules go only where the rules file is the same, and the temporary worktree is
gone afterwards.  Speed itself is the benchmark's, not asserted here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_adapters  # noqa: E402


def _worktrees() -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "list"], check=True, capture_output=True, text=True
    ).stdout


@pytest.mark.slow
def test_the_old_tree_is_the_one_timed_and_is_removed_after() -> None:
    old = bench_adapters.OldTree("HEAD")
    try:
        assert Path(old.file).is_relative_to(old.tree.resolve()), old.file
        assert str(old.tree) in _worktrees()
        got = old.run("pig", 1, 2)  # (agent steps, CPU seconds)
        assert isinstance(got, tuple) and got[0] > 0 and got[1] > 0
        why = old.run("no-such-game", 1, 2)
        assert isinstance(why, str) and why
    finally:
        old.close()
    assert not old.tmp.exists()
    assert str(old.tree) not in _worktrees()


def test_compiled_rules_are_copied_only_beside_the_same_rules(tmp_path: Path) -> None:
    builds = sorted(ROOT.glob("dsa_widget/**/_rules_native*.so"))
    if not builds:
        pytest.skip("no compiled rules in this checkout (python -m dsa_widget compile)")
    rel = builds[0].parent.relative_to(ROOT)
    same, other = tmp_path / "same", tmp_path / "other"
    for tree in (same, other):
        (tree / rel).mkdir(parents=True)
    (same / rel / "rules.py").write_bytes((ROOT / rel / "rules.py").read_bytes())
    (other / rel / "rules.py").write_text("# another version of the rules\n")
    assert "copied in" in bench_adapters._copy_compiled(same)[0]
    assert {p.name for p in (same / rel).glob("_rules_native*.so")} == {p.name for p in builds}
    assert "plain Python" in bench_adapters._copy_compiled(other)[0]
    assert not list((other / rel).glob("*.so"))
