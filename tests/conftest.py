import itertools
import re
import sys
from pathlib import Path

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
