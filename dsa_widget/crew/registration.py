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
        minimum=1,
        maximum=20,
    ),
    Option(
        "communication",
        "How the crew may talk",
        "normal",
        choices=(
            ("normal", "each once, with a token"),
            ("currents", "currents: the token always goes in the middle"),
            ("rapture", "rapture of the deep: a shared pool of tokens"),
            ("terrain", "unknown terrain: a card drawn sets the mode"),
            ("none", "no communication at all"),
        ),
        help="CREW.md section 11 (R-11.8 to R-11.14)",
    ),
    Option(
        "allocation",
        "How tasks are shared out",
        "normal",
        choices=(
            ("normal", "in turn, from the captain"),
            ("free", "the crew proposes, all confirm"),
        ),
        help="CREW.md section 7",
    ),
    Option(
        "timer_seconds",
        "Real-time clock (seconds)",
        None,
        help="empty: no clock; else 10 to 3600 seconds, then the mission fails",
        minimum=10,
        maximum=3600,
    ),
    Option(
        "campaign",
        "Campaign mission",
        None,
        help="empty: the settings above; else a mission of the campaign by its number (1 to 99)",
        minimum=1,
        maximum=99,
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
    encoding="dsa_widget.crew.encoding:CrewEncoding",
    openspiel="dsa_widget.crew.openspiel:RULES",
    options="dsa_widget.crew.options:SCHEMA",
    presenter="dsa_widget.crew.widget:CrewPresenter",
    widget="dsa_widget.crew.widget:Crew",
    factory="dsa_widget.crew.mission:new_mission_game",
    bundle="crew",
    aliases=("the-crew",),
    warm="dsa_widget.crew.kernel:warm_up",
    words="dsa_widget.crew.words:choice_words",
)

if TYPE_CHECKING:  # mypy --strict checks that the game speaks the protocol
    from ..core.protocol import speaks_the_protocol
    from .rules import CrewGame
    from .view import CrewView

    speaks_the_protocol(CrewGame, CrewView)
