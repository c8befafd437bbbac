import itertools
import re
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))


def _selects_no_e2e_test(markexpr: str) -> bool:
    """Whether ``-m markexpr`` deselects every test marked ``e2e``, whatever other markers it has.

    Only plain expressions (marker names, ``and``, ``or``, ``not``, parentheses) are read; for
    anything else (keyword arguments, say) the answer is False and nothing changes."""
    if not re.fullmatch(r"[\w\s()]*", markexpr):
        return False
    names = set(re.findall(r"\w+", markexpr)) - {"and", "or", "not"}
    if "e2e" not in names or any(n[0].isdigit() or n in ("True", "False", "None") for n in names):
        return False
    others = sorted(names - {"e2e"})
    for values in itertools.product((False, True), repeat=len(others)):
        on = {"e2e", *(n for n, v in zip(others, values, strict=True) if v)}
        try:
            if eval(_as_python(markexpr, on), {"__builtins__": {}}):  # an e2e test so marked would run
                return False
        except SyntaxError:  # pytest reports a malformed -m itself
            return False
    return True


def _as_python(markexpr: str, on: set[str]) -> str:
    """``markexpr`` with each marker name replaced by True (in ``on``) or False."""
    return re.sub(r"\w+", lambda m: m[0] if m[0] in ("and", "or", "not") else str(m[0] in on), markexpr)


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    """The fast tier (``-m "not slow and not e2e"``) does not even import ``tests/e2e``: every
    test there is marked ``e2e`` (its conftest.py), and importing it (nbformat, jsonschema,
    playwright) costs seconds of every quick run.  Any other selection collects it as before."""
    if collection_path == HERE / "e2e" and _selects_no_e2e_test(config.getoption("markexpr") or ""):
        return True
    return None


#: session fixtures costly enough that their users share one xdist worker, so that each is built
#: once as in a run without workers: one JupyterLab, one JupyterLite site build, and Ray's
#: clusters (a local one, tests/test_executors.py, and a head started with ``ray start``,
#: tests/test_ray_cluster.py: ``ray.init()`` may join a cluster it finds on the machine).
#: Other wide fixtures of the suite (Chromium, say) are started by each worker that needs them.
#: A test that starts Ray without one of these fixtures (the AI notebook's) is marked
#: ``xdist_group("ray")`` itself.
_SHARED_GROUPS = {
    "jupyter_server": "jupyterlab",
    "lite_site": "jupyterlite",
    "ray_cluster": "ray",
    "head": "ray",
}


def _xdist_group(item: pytest.Item) -> str | None:
    """The group of tests ``item`` must run with on one worker, or None (any worker): the group
    of a fixture of ``_SHARED_GROUPS`` it uses, else its module's when it uses one of the
    suite's module fixtures (an executed lesson, say), so that the fixture is built once."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    module = False
    for name, defs in info.name2fixturedefs.items():
        if name in _SHARED_GROUPS:
            return _SHARED_GROUPS[name]
        module = module or any(d.baseid and d.scope in ("module", "class") for d in defs)
    return item.nodeid.split("::")[0] if module else None


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With pytest-xdist's ``--dist loadgroup`` (scripts/test.sh), mark each test that shares a
    costly fixture with the group of its fixture (see :func:`_xdist_group`)."""
    # a worker's options say loadgroup (pytest-xdist sets its dist to "no"), the controller's dist
    if not getattr(config.option, "loadgroup", False) and getattr(config.option, "dist", "no") != "loadgroup":
        return
    for item in items:
        group = _xdist_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


def pytest_configure(config: pytest.Config) -> None:
    """Refuse ``--dist loadgroup`` under a pytest that loses the groups: pytest-xdist tells its
    controller a test's group by appending ``@group`` to the test's node id, and pytest 9.2's
    node ids cannot be changed that way (pytest-dev/pytest-xdist#1386), so the tests of one
    JupyterLab or one Ray cluster would run on two workers at once and fail in ways that hide
    the cause (the test extra pins pytest below 9.2 for this)."""
    if getattr(config.option, "dist", "no") == "loadgroup" and pytest.version_tuple[:2] >= (9, 2):
        raise pytest.UsageError(
            f"pytest {pytest.__version__} drops pytest-xdist's test groups (pytest-dev/pytest-xdist#1386): "
            "install the pytest the test extra pins (pip install -e '.[test]'), or run in one process"
        )
