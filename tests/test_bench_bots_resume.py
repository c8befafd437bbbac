"""``benchmarks/bench_bots.py --resume FILE``: a long match's finished chunks are logged with the
hashes of the sources they ran on, read back by a later run, and dropped as stale once any of
those sources changed (so a resumed tally never mixes games of two versions of the bots)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_bots  # noqa: E402


def test_a_logged_chunk_is_read_back_while_its_sources_are_unchanged(tmp_path: Path) -> None:
    path = str(tmp_path / "chunks.jsonl")
    log = bench_bots.ChunkLog(path, "submarine")
    assert log.get("m", 0) is None
    log.add("m", 0, {"wins": 31.5, "games": 40, "wall": 12.0})
    again = bench_bots.ChunkLog(path, "submarine")
    rec = again.get("m", 0)
    assert rec is not None and (rec["wins"], rec["games"]) == (31.5, 40)
    assert again.get("m", 1) is None and again.get("other", 0) is None and again.stale == 0
    assert rec["sources"] and all(n.startswith("dsa_widget") for n in rec["sources"]), rec["sources"]


def test_a_chunk_whose_sources_changed_is_stale(tmp_path: Path) -> None:
    path = tmp_path / "chunks.jsonl"
    bench_bots.ChunkLog(str(path), "submarine").add("m", 0, {"wins": 1, "games": 40, "wall": 1.0})
    rec = json.loads(path.read_text())
    name = next(iter(rec["sources"]))
    rec["sources"][name] = "0" * 12  # as if that module had been edited since
    rec["chunk"] = 1
    with path.open("a") as f:
        f.write(json.dumps(rec) + "\n")
    log = bench_bots.ChunkLog(str(path), "submarine")
    assert log.get("m", 0) is not None
    assert log.get("m", 1) is None and log.stale == 1


def test_a_module_that_is_gone_makes_its_chunk_stale() -> None:
    assert not bench_bots.sources_unchanged({"dsa_widget.no_such_module": "0" * 12})
    assert bench_bots.sources_unchanged(bench_bots.code_sources("crew"))


def _crew_args(path: str) -> object:
    import argparse

    return argparse.Namespace(
        search="planner",
        games=3,
        seats="3,4",
        targets="2",
        seed=7,
        node_limit=100,
        workers=1,
        only=None,
        json=None,
        resume=path,
    )


def test_a_crew_table_resumes_from_its_logged_attempts(tmp_path: Path, monkeypatch: object) -> None:
    """The Crew's table over two runs: the second plays nothing the first logged, and prints
    the same table; once a source the attempts ran on changes, they are played again."""
    played: list[tuple] = []

    def fake_attempt(payload: tuple, jobs: list) -> list:
        played.extend(jobs)
        return [(job, job[3] % 2 == 0, True, 0.5) for job in jobs]

    monkeypatch.setattr(bench_bots, "crew_attempt", fake_attempt)  # type: ignore[attr-defined]
    path = tmp_path / "crew.jsonl"
    first = bench_bots.bench_crew(_crew_args(str(path)))
    assert len(played) == 2 * 2 * 3  # two bots, two seat counts, three deals
    assert len(path.read_text().splitlines()) == len(played)
    played.clear()
    again = bench_bots.bench_crew(_crew_args(str(path)))
    assert played == [] and again["rows"] == first["rows"]
    assert [r["successes"] for r in first["rows"]] == [2, 2, 2, 2]  # deals 0 and 2 of 3

    lines = [json.loads(x) for x in path.read_text().splitlines()]
    name = next(iter(lines[0]["sources"]))
    lines[0]["sources"][name] = "0" * 12  # as if that module had been edited since
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    bench_bots.bench_crew(_crew_args(str(path)))
    assert len(played) == 1 and played[0][3] == lines[0]["chunk"]


def test_alone_plays_only_the_first_bot(tmp_path: Path, monkeypatch: object) -> None:
    played: list[tuple] = []

    def fake_attempt(payload: tuple, jobs: list) -> list:
        played.extend(jobs)
        return [(job, True, True, 0.1) for job in jobs]

    monkeypatch.setattr(bench_bots, "crew_attempt", fake_attempt)  # type: ignore[attr-defined]
    args = _crew_args(str(tmp_path / "alone.jsonl"))
    args.alone = True  # type: ignore[attr-defined]
    out = bench_bots.bench_crew(args)  # type: ignore[arg-type]
    assert {job[0] for job in played} == {"planner"} and len(played) == 2 * 3
    assert [r["bot"] for r in out["rows"]] == ["planner", "planner"]


def test_the_code_digest_ignores_words_but_not_code() -> None:
    """An edit to a docstring or a comment keeps the logged games valid; one to the code not."""
    base = b'"""A module."""\n\ndef f(x):\n    """Doubles."""\n    return 2 * x  # twice\n'
    words = b'"""A module, said again."""\n\n\ndef f(x):\n    """Twice x."""\n    return 2 * x\n'
    code = b'"""A module."""\n\ndef f(x):\n    """Doubles."""\n    return 3 * x  # twice\n'
    digest = bench_bots.code_digest
    assert digest(base) == digest(words)
    assert digest(base) != digest(code)
    assert digest(b'def f():\n    """Only words."""\n') != digest(b"def f():\n    return 1\n")


def test_the_hashes_cover_the_whole_game_and_are_taken_once(tmp_path: Path) -> None:
    """The Crew's bots import their kernel only on first use: the log must hash it anyway; and
    every record of a run carries the hashes taken when the run started."""
    log = bench_bots.ChunkLog(str(tmp_path / "c.jsonl"), "crew")
    assert {"dsa_widget.crew.kernel", "dsa_widget.crew.playouts", "dsa_widget.crew.bots.planner"} <= set(
        log.sources
    )
    assert "dsa_widget.core.bots" in log.sources
    log.add("m", 0, {"x": 1})
    log.add("m", 1, {"x": 2})
    recs = [json.loads(x) for x in (tmp_path / "c.jsonl").read_text().splitlines()]
    assert recs[0]["sources"] == recs[1]["sources"] == log.sources


def test_a_crew_spec_with_knobs_resumes(tmp_path: Path, monkeypatch: object) -> None:
    monkeypatch.setattr(  # type: ignore[attr-defined]
        bench_bots, "crew_attempt", lambda payload, jobs: [(job, True, True, 0.1) for job in jobs]
    )
    args = _crew_args(str(tmp_path / "knobs.jsonl"))
    args.search = "planner:policy=greedy"  # type: ignore[attr-defined]
    out = bench_bots.bench_crew(args)  # type: ignore[arg-type]
    assert {r["bot"] for r in out["rows"]} == {"planner:policy=greedy", "search"}


def test_a_compressed_log_is_read_and_appended(tmp_path: Path) -> None:
    """A table's log committed gzip-compressed (``.jsonl.gz``) resumes like a plain one: its
    chunks are read back and a later run appends to it."""
    import gzip

    path = tmp_path / "crew.jsonl.gz"
    bench_bots.ChunkLog(str(path), "crew").add("m", 0, {"success": True})
    bench_bots.ChunkLog(str(path), "crew").add("m", 1, {"success": False})
    with gzip.open(path, "rt") as f:
        assert [json.loads(x)["chunk"] for x in f] == [0, 1]
    log = bench_bots.ChunkLog(str(path), "crew")
    assert log.get("m", 0) is not None and log.get("m", 1) is not None and log.stale == 0
