"""*The Crew: Mission Deep Sea*'s entry in the game registry (:mod:`dsa_widget.core.registry`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.registry import GameSpec, Option

ORDER = 2

SETUP = (
    Option(
        "target",
        "Mission difficulty",
        3,
        help="the tasks drawn add up to this difficulty (CREW.md 6.1)",
        minimum=0,
        maximum=60,
    ),
)

GAME = GameSpec(
    name="crew",
    title="The Crew: Mission Deep Sea",
    folder="crew",
    summary="a cooperative trick-taking game: secret hands, shared tasks, little talk",
    state="dsa_widget.crew.rules:CrewGame",
    view="dsa_widget.crew.view:CrewView",
    record_format="the-crew-deep-sea/record@1",
    load_record="dsa_widget.crew.record:load_record",
    show_record="dsa_widget.crew.record:state_dict",
    bots="dsa_widget.crew.bots.registry:BOTS",
    seats=(2, 5),
    default_players=3,
    default_bot="crewmate",
    setup="dsa_widget.crew.registration:SETUP",
    options="dsa_widget.crew.options:SCHEMA",
    table="dsa_widget.crew.remote:CrewTable",
    widget="dsa_widget.crew.widget:Crew",
    bundle="crew",
    aliases=("the-crew",),
)

if TYPE_CHECKING:  # mypy --strict checks, by assignment, that the game speaks the protocol
    from ..core.protocol import GameState, GameView
    from .rules import CrewGame
    from .view import CrewView

    def _speaks_the_protocol(state: CrewGame, view: CrewView) -> tuple[GameState, GameView]:
        return state, view
