"""Where long work runs (issue 11, item 4): this process, the local process pool or a Ray
cluster; the same seed gives the same results on each, and work that cannot travel says so."""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
import warnings

import pytest
from helpers import start_local_ray
from ports import free_port

from dsa_widget import Game
from dsa_widget.cli import main
from dsa_widget.core.executors import ExecutorError, chunk_sizes, connect_ray, run_chunks
from dsa_widget.deep_sea.analysis import win_chances
from dsa_widget.deep_sea.bots import tournament


def _times(k, chunk):
    return [k * i for i in chunk]


def test_run_chunks_gives_results_in_chunk_order_on_every_local_backend():
    chunks = [[1, 2], [3], [4, 5, 6], [7]]
    seen = []
    one = run_chunks(_times, 3, chunks, executor="local", on_chunk=lambda i, r: seen.append(i))
    two = run_chunks(_times, 3, chunks, executor="process", workers=2)
    assert one == two == [[3, 6], [9], [12, 15, 18], [21]]
    assert sorted(seen) == [0, 1, 2, 3]


def test_chunk_sizes_balance_and_cap():
    assert chunk_sizes(100_000, 2, largest=1000) == 1000
    assert chunk_sizes(160, 2) == 10
    assert chunk_sizes(3, 8) == 1


def test_unknown_executor_is_refused_before_anything_runs():
    with pytest.raises(ExecutorError, match="executor must be one of"):
        run_chunks(_times, 1, [[1]], executor="gpu")
    with pytest.raises(ValueError, match="executor must be one of"):
        tournament(["random", "baseline"], games=2, executor="threads", progress=False)


def test_lambda_bots_play_in_worker_processes_with_cloudpickle():
    bots = [lambda v, legal: legal[0], "baseline"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pool = tournament(bots, games=8, seed=9, workers=2, progress=False)
    assert pool.to_dict() == tournament(bots, games=8, seed=9, workers=1, progress=False).to_dict()


def test_without_cloudpickle_a_lambda_gets_a_clear_message(monkeypatch):
    monkeypatch.setitem(sys.modules, "cloudpickle", None)  # as if it were not installed
    with pytest.raises(ExecutorError, match=r"cannot be sent to worker processes.*cloudpickle.*workers=1"):
        tournament([lambda v, legal: legal[0], "baseline"], games=4, workers=2, progress=False)
    # in this process it plays
    res = tournament([lambda v, legal: legal[0], "baseline"], games=2, workers=1, progress=False)
    assert sum(r["games"] for r in res.rows) == 4


def test_a_bot_even_cloudpickle_cannot_ship_is_named():
    lock = threading.Lock()

    def locked(view, legal):
        with lock:
            return legal[0]

    with pytest.raises(ExecutorError, match="a bot of this tournament cannot be sent.*even with cloudpickle"):
        tournament([locked, "baseline"], games=4, workers=2, progress=False)


def test_win_chances_blocks_give_the_same_estimate_whatever_the_workers():
    g = Game(players=3, seed=4)
    g.roll((2, 2))
    one = win_chances(g, seat=0, playouts=1100, seed=5, workers=1)
    two = win_chances(g, seat=0, playouts=1100, seed=5, workers=2)
    assert one == two and one.playouts == 1100 and sum(one.wins) >= 1100
    other = win_chances(g, seat=0, playouts=1100, seed=6, workers=2)
    assert other.wins != one.wins  # the seed matters (these differ for this position)


def test_without_ray_the_message_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ExecutorError, match=r"pip install dsa_widget\[ray\]"):
        tournament(["random", "baseline"], games=2, executor="ray", progress=False)


# ---------------------------------------------------------------------- Ray addresses that fail (issue 30)
# (before the module's Ray cluster starts: these need Ray not yet initialised in this process;
# tests/test_ray_cluster.py checks a real head with token authentication)


def _nothing_listens() -> str:
    return f"127.0.0.1:{free_port()}"  # its socket closed again: nothing listens there


def test_an_address_where_nothing_listens_fails_in_seconds_with_one_line():
    import ray

    assert not ray.is_initialized()
    address = _nothing_listens()
    t0 = time.monotonic()
    with pytest.raises(ExecutorError) as e:
        tournament(["random", "baseline"], games=2, executor="ray", address=address, progress=False)
    assert time.monotonic() - t0 < 60  # Ray alone retried for 824 s; the probe gives up in 5
    assert str(e.value).startswith(f"no Ray cluster answers at {address} (connection refused)")
    assert "\n" not in str(e.value) and "ray start --head" in str(e.value)
    assert not ray.is_initialized()  # nothing was started or joined


def test_a_server_that_is_not_ray_is_told_apart_in_seconds():
    # Ray itself retried for minutes against an HTTP server; an HTTP/2 hello tells them apart
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        address = f"127.0.0.1:{server.getsockname()[1]}"

        def answer() -> None:
            conn, _ = server.accept()
            with conn:
                conn.recv(100)
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")

        threading.Thread(target=answer, daemon=True).start()
        t0 = time.monotonic()
        with pytest.raises(ExecutorError, match=f"something listens at {address} but it is not a Ray"):
            connect_ray(address)
        assert time.monotonic() - t0 < 60


def test_crew_success_rates_takes_the_ray_address():
    from dsa_widget.crew.bots import success_rates

    address = _nothing_listens()
    with pytest.raises(ExecutorError, match=f"no Ray cluster answers at {address}"):
        success_rates(["random"], seats=[3], targets=[1], games=2, executor="ray", address=address)


@pytest.mark.parametrize(
    "address, said",
    [
        ("ray://head:10001", "the Ray Client (ray://) is not supported"),
        ("head", "a Ray address is 'auto', 'local' or host:port"),
        ("head:port", "a Ray address is 'auto', 'local' or host:port"),
        ("head:99999", "a Ray address is 'auto', 'local' or host:port"),
    ],
)
def test_addresses_ray_cannot_use_are_refused_before_ray_is_asked(address, said):
    import ray

    with pytest.raises(ExecutorError) as e:
        connect_ray(address)
    assert str(e.value).find(said) >= 0 and "\n" not in str(e.value)
    assert "ray[client]" not in str(e.value)  # the package does not send anyone to the Ray Client
    assert not ray.is_initialized()


@pytest.mark.parametrize("address", ["nothing", "ray://head:10001", "head"])
def test_cli_ray_failures_are_one_line_on_stderr_and_exit_2(address, capsys):
    if address == "nothing":
        address = _nothing_listens()
    code = main(["tournament", "random", "baseline", "--games", "2", "--quiet", "--ray", address])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    assert address in err


# ---------------------------------------------------------------------- a real local Ray cluster


@pytest.fixture(scope="module")
def ray_cluster():
    # ray is installed by the test extra: this test never skips; patient and retried on a
    # loaded machine (helpers.start_local_ray)
    ray = start_local_ray(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


@pytest.mark.slow
def test_ray_and_local_give_identical_tournament_tables(ray_cluster, capsys):
    bots = ["baseline", "take_n:n=2", lambda v, legal: legal[-1]]
    setups = [{"air": 20}, {"options": {"reveal": "owner"}}]
    on_ray = tournament(bots, games=30, seed=11, setups=setups, executor="ray", progress=True)
    assert "30 of 30 games" in capsys.readouterr().err  # the progress bar moved to the end
    local = tournament(bots, games=30, seed=11, setups=setups, workers=1, progress=False)
    pool = tournament(bots, games=30, seed=11, setups=setups, workers=2, progress=False)
    assert on_ray.to_dict() == local.to_dict() == pool.to_dict()
    assert sum(r["games"] for r in on_ray.rows) == 90


@pytest.mark.slow  # a Ray cluster starts for these
def test_ray_and_local_give_the_same_win_chances(ray_cluster):
    g = Game(players=2, seed=3)
    g.roll((3, 1))
    a = win_chances(g, seat=1, playouts=1300, seed=2, executor="ray")
    b = win_chances(g, seat=1, playouts=1300, seed=2, executor="local")
    assert a == b and a.playouts == 1300


@pytest.mark.slow  # a Ray cluster starts for these
def test_cli_tournament_on_ray_matches_the_local_pool(ray_cluster, capsys):
    args = ["tournament", "baseline", "random", "--games", "6", "--seed", "3", "--quiet", "--json"]
    assert main([*args, "--ray", "auto"]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert on_ray == json.loads(capsys.readouterr().out)


@pytest.mark.slow  # a Ray cluster starts for these
def test_ray_reports_a_failing_bot_by_name(ray_cluster):
    from dsa_widget.deep_sea.bots import BotError

    with pytest.raises(Exception, match="grumpy") as e:
        tournament(
            {"grumpy": lambda v, legal: "nope", "base": "baseline"}, games=2, executor="ray", progress=False
        )
    # Ray re-raises the worker's error as a RayTaskError that is also a BotError
    assert isinstance(e.value, BotError)
