"""*The Crew: Mission Deep Sea* — the package's second game: a cooperative trick-taking game
with secret hands, 96 tasks and tight communication rules (``../shared/crew/CREW.md``).

The rules live in :mod:`dsa_widget.crew.rules` (no widget code is imported by them); the
layout of the game's modules is in ``docs/CREW_ENGINE.md``, its records in
``docs/CREW_RECORD.md``.

>>> from dsa_widget.crew import CrewGame
>>> g = CrewGame(4, seed=3, tasks=[70], assignment={70: 1})   # task 70: "take trick 1", seat 1
>>> g.captain, g.step, g.tasks[0].status
(1, 'distress', 'open')

The widget, ``dsa_widget.crew.Crew``, is imported on first use, so that the engine alone
never loads ipywidgets.
"""

from __future__ import annotations

from typing import Any

from .errors import CrewError, IllegalActionError, RecordError, SetupError
from .mission import CAMPAIGN, Mission, campaign_mission
from .options import DEFAULTS, OPTIONS
from .rules import TONOJA, CrewGame, Outcome, TaskState
from .tasks import TASKS, Task
from .view import CrewView

#: the names every game's package exports: its ``Game``, its ``View`` (and its widget class)
Game = CrewGame
View = CrewView

__all__ = [
    "CAMPAIGN",
    "DEFAULTS",
    "OPTIONS",
    "TASKS",
    "TONOJA",
    "CrewError",
    "CrewGame",
    "CrewView",
    "Game",
    "View",
    "IllegalActionError",
    "Mission",
    "Crew",
    "Outcome",
    "RecordError",
    "SetupError",
    "Task",
    "TaskState",
    "campaign_mission",
]


def __getattr__(name: str) -> Any:
    # The widget is loaded lazily: the rules engine never imports ipywidgets/anywidget.
    if name == "Crew":
        from .widget import Crew

        return Crew
    raise AttributeError(f"module 'dsa_widget.crew' has no attribute {name!r}")
