"""Deep Sea Adventure's entry in the game registry (:mod:`dsa_widget.core.registry`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.registry import GameSpec, Option
from .setup import MAX_AIR, MAX_ROUNDS

#: first in every list of games
ORDER = 1

SETUP = (
    Option(
        "air", "Air per round", 25, help="the shared air tank's spaces each round", minimum=1, maximum=MAX_AIR
    ),
    Option("rounds", "Rounds", 3, help="how many dives the game has", minimum=1, maximum=MAX_ROUNDS),
)

OPTIONS = (
    Option(
        "turn_back_requires_treasure",
        "Turning back needs a treasure",
        True,
        choices=((True, "only a diver carrying a chip may turn back"), (False, "any diver may turn back")),
        help="whether a diver with empty hands may head back to the submarine",
    ),
    Option(
        "drop_order",
        "Order chips sink at a round's end",
        "nearest_first",
        choices=(
            ("nearest_first", "the drowned diver nearest the sub first"),
            ("farthest_first", "the farthest first"),
        ),
        help="which drowned diver's chips reach the bottom first",
    ),
    Option(
        "tiebreak",
        "Breaking a tie on points",
        "level4",
        choices=(("level4", "most level-4 chips"), ("levels_desc", "level-4 chips, then 3, 2, 1")),
        help="who wins when two players have the same score",
    ),
    Option(
        "reveal",
        "Who sees banked treasure",
        "public",
        choices=(("public", "everyone sees every banked value"), ("owner", "only the player who banked it")),
        help="with 'owner', play from a seat server so nobody sees the others' values",
    ),
    Option(
        "sink_order",
        "Order a drowned diver's chips sink in",
        "chosen",
        choices=(("chosen", "the diver's player chooses"), ("pickup", "the order they were picked up")),
        help="how the chips of a diver who drowned are laid at the bottom",
    ),
)

GAME = GameSpec(
    name="deep-sea",
    title="Deep Sea Adventure",
    folder="deep_sea",
    summary="divers share one air tank, dive for treasure and must get back before it runs out",
    state="dsa_widget.deep_sea.rules:Game",
    view="dsa_widget.deep_sea.view:View",
    record_format="deep-sea-adventure/record@1",
    load_record="dsa_widget.deep_sea.record:for_replay",
    show_record="dsa_widget.deep_sea.record:replay_state",
    bots="dsa_widget.deep_sea.bots.registry:BOTS",
    seats=(2, 6),
    default_players=2,
    default_bot="planner",
    setup="dsa_widget.deep_sea.registration:SETUP",
    options="dsa_widget.deep_sea.registration:OPTIONS",
    arena="dsa_widget.deep_sea.bots.arena:ARENA",
    encoding="dsa_widget.deep_sea.encoding:Encoding",
    openspiel="dsa_widget.deep_sea.openspiel:RULES",
    presenter="dsa_widget.deep_sea.presenter:DeepSeaPresenter",
    widget="dsa_widget.deep_sea.widget:DeepSea",
    bundle="widget",
    aliases=("deep_sea", "dsa", "deep-sea-adventure"),
    warm="dsa_widget.deep_sea.warm:warm",
    words="dsa_widget.deep_sea.bots.heuristics:choice_words",
)

if TYPE_CHECKING:  # mypy --strict checks that the game speaks the protocol
    from ..core.protocol import speaks_the_protocol
    from .rules import Game
    from .view import View

    speaks_the_protocol(Game, View)
