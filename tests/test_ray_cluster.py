"""Ray that behaves (issue 30, item 5), against a real head started here with ``ray start
--head`` and token authentication on: the right token joins and plays the same table as the
local pool; no token or a wrong one is one line naming the variables to set, exit 2 from the
CLI; a second address is refused naming both while the same cluster by another name is
reused; The Crew's ``success_rates`` takes ``address=``.

Every client runs in a subprocess: Ray reads the token once per process, and a process
joins one cluster.  The head is stopped by killing its own process group (never ``ray
stop``, which would stop every cluster on the machine)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest
from helpers import env_without_ray, free_port, ray_head

pytestmark = pytest.mark.slow  # a Ray head starts (about 40 s on a loaded machine)

TOKEN = "dsa0widget0test0token0000000000000001"


@pytest.fixture(scope="module")
def head() -> Iterator[str]:
    with ray_head(num_cpus=1, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=TOKEN) as address:
        yield address


def _cli(address: str, *extra: str, **env: str) -> subprocess.CompletedProcess[str]:
    args = ["tournament", "baseline", "random", "--games", "6", "--seed", "3", "--quiet", "--json"]
    return subprocess.run(
        [sys.executable, "-W", "ignore", "-m", "dsa_widget", *args, *extra, "--ray", address],
        env=env_without_ray(**env),
        capture_output=True,
        text=True,
        timeout=300,
    )


def _error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.strip()]


def test_without_the_token_the_cli_says_which_variables_to_set_in_one_line(head):
    # Ray's own failure is 20 s of retries and a 40-line traceback of its internals
    for env in ({}, {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": "not" + TOKEN[3:]}):
        run = _cli(head, **env)
        assert run.returncode == 2 and run.stdout == ""
        lines = _error_lines(run.stderr)
        assert len(lines) == 1, run.stderr
        assert lines[0].startswith(f"error: the Ray cluster at {head} requires token authentication")
        assert "RAY_AUTH_MODE=token" in lines[0] and "RAY_AUTH_TOKEN" in lines[0]


def test_with_the_token_the_cli_plays_the_same_table_as_the_local_pool(head):
    run = _cli(head, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=TOKEN)
    assert run.returncode == 0, run.stderr
    pool = subprocess.run(
        [sys.executable, "-W", "ignore", "-m", "dsa_widget", "tournament", "baseline", "random"]
        + ["--games", "6", "--seed", "3", "--quiet", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert pool.returncode == 0, pool.stderr
    assert json.loads(run.stdout) == json.loads(pool.stdout)


SCRIPT = """
import json, sys
from dsa_widget.core.executors import ExecutorError, connect_ray
from dsa_widget.crew.bots import success_rates
head, elsewhere = sys.argv[1], sys.argv[2]
port = head.rpartition(":")[2]
out = {}
ray = connect_ray(head)
try:
    connect_ray(elsewhere)
except ExecutorError as e:
    out["other"] = str(e)
out["same"] = [connect_ray(a) is ray for a in (head, "localhost:" + port, "auto", None)]
out["gcs"] = ray.get_runtime_context().gcs_address
kw = dict(seats=[3], targets=[1], games=4, seed=2, progress=False)
on_ray = success_rates(["random"], executor="ray", address=head, **kw)
out["crew"] = on_ray.to_dict() == success_rates(["random"], executor="local", **kw).to_dict()
print(json.dumps(out))
"""


def test_one_cluster_per_process_and_the_crew_takes_an_address(head):
    elsewhere = f"127.0.0.1:{free_port()}"
    run = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", textwrap.dedent(SCRIPT), head, elsewhere],
        env=env_without_ray(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=TOKEN),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    # a different address is an error naming both, not silently the first cluster
    assert out["other"].startswith(f"Ray in this process is connected to the cluster at {out['gcs']}")
    assert elsewhere in out["other"] and "ray.shutdown()" in out["other"]
    # the same cluster, by its address, by localhost, 'auto' or None: the same connection
    assert out["same"] == [True, True, True, True]
    assert out["crew"] is True
