"""*Pig*'s entry in the game registry (:mod:`dsa_widget.core.registry`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.registry import GameSpec, Option
from .rules import MAX_GOAL

ORDER = 4

SETUP = (
    Option(
        "goal", "Points to win", 100, help="the first to bank this many wins", minimum=1, maximum=MAX_GOAL
    ),
)

GAME = GameSpec(
    name="pig",
    title="Pig",
    folder="pig",
    summary="a push-your-luck dice game: roll for points, hold to bank them, a 1 loses the turn",
    state="dsa_widget.pig.rules:PigGame",
    view="dsa_widget.pig.view:PigView",
    record_format="pig/record@1",
    load_record="dsa_widget.pig.record:load_record",
    show_record="dsa_widget.pig.record:replay_state",
    bots="dsa_widget.pig.bots:BOTS",
    seats=(2, 6),
    default_players=2,
    default_bot="optimal",
    setup="dsa_widget.pig.registration:SETUP",
    arena="dsa_widget.pig.bots:ARENA",
    encoding="dsa_widget.pig.encoding:PigEncoding",
    openspiel="dsa_widget.pig.openspiel:RULES",
    presenter="dsa_widget.pig.widget:PigPresenter",
    widget="dsa_widget.pig.widget:Pig",
    bundle="pig",
    words="dsa_widget.pig.view:action_words",
)

if TYPE_CHECKING:  # mypy --strict checks that the game speaks the protocol
    from ..core.protocol import speaks_the_protocol
    from .rules import PigGame
    from .view import PigView

    speaks_the_protocol(PigGame, PigView)
