"""Fail when a module reads another object's private fields (``obj._name`` with ``obj`` not
``self`` or ``cls``).

Each game's state is owned by its rules module: only there may a game touch another game
object's private fields (copying, restoring, building from a view).  Everything else goes
through public, typed interfaces.  Run: ``python scripts/check_privates.py`` (exit 1 on a
finding, with ``file:line`` for each).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the rules modules: each owns its game's state (The Crew's task tracker is part of its rules: the
#: compiled task tests in status.py read the tracker's own fields)
OWNERS = {
    "dsa_widget/deep_sea/rules.py",
    "dsa_widget/crew/rules.py",
    "dsa_widget/crew/status.py",
    "dsa_widget/submarine/rules.py",
    "dsa_widget/pig/rules.py",
}


def findings(path: Path) -> list[str]:
    rel = path.relative_to(ROOT).as_posix()
    if rel in OWNERS:
        return []
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=rel)):
        if not isinstance(node, ast.Attribute):
            continue
        name = node.attr
        if not name.startswith("_") or (name.startswith("__") and name.endswith("__")):
            continue
        if name.startswith("_repr_"):  # IPython's display protocol is public
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
            continue
        out.append(f"{rel}:{node.lineno}: reads {ast.unparse(owner)}.{name}")
    return out


def main() -> int:
    found = [f for p in sorted((ROOT / "dsa_widget").rglob("*.py")) for f in findings(p)]
    for f in found:
        print(f)
    if found:
        print(f"{len(found)} private-field reads outside the rules modules", file=sys.stderr)
        return 1
    print("no private-field reads outside the rules modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
