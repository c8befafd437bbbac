"""*Submarine*'s entry in the game registry (:mod:`dsa_widget.core.registry`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.registry import GameSpec

ORDER = 3

GAME = GameSpec(
    name="submarine",
    title="Submarine",
    folder="submarine",
    summary="bathyscaphes collect treasure below a sailing mother ship, paid for with cards",
    state="dsa_widget.submarine.rules:SubmarineGame",
    view="dsa_widget.submarine.view:SubmarineView",
    record_format="submarine/record@1",
    load_record="dsa_widget.submarine.record:load_record",
    show_record="dsa_widget.submarine.record:replay_state",
    bots="dsa_widget.submarine.bots.registry:BOTS",
    seats=(2, 5),
    default_players=3,
    default_bot="greedy",
    options="dsa_widget.submarine.options:SCHEMA",
    arena="dsa_widget.submarine.bots.arena:ARENA",
    encoding="dsa_widget.submarine.encoding:SubmarineEncoding",
    openspiel="dsa_widget.submarine.openspiel:RULES",
    presenter="dsa_widget.submarine.widget:SubmarinePresenter",
    widget="dsa_widget.submarine.widget:Submarine",
    bundle="submarine",
    warm="dsa_widget.submarine.kernel:warm_up",
    words="dsa_widget.submarine.words:choice_words",
)

if TYPE_CHECKING:  # mypy --strict checks that the game speaks the protocol
    from ..core.protocol import speaks_the_protocol
    from .rules import SubmarineGame
    from .view import SubmarineView

    speaks_the_protocol(SubmarineGame, SubmarineView)
