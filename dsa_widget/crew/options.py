"""The rule options of CREW.md section 16: where the sources disagree or are silent.

Every option has a fixed set of values and a default; :func:`resolve_options` checks a
user's mapping and fills in the defaults, so a game always carries the complete set (and a
record saves it).

>>> o = resolve_options({"token_position": "any_true"})
>>> o["token_position"], o["trick_history_visibility"]
('any_true', 'last_trick')
>>> resolve_options({"token_position": "sideways"})
Traceback (most recent call last):
...
dsa_widget.crew.errors.SetupError: option 'token_position' must be one of 'forced', 'any_true', not 'sideways'

:data:`SCHEMA` describes the same options for a setup form, in the same order:

>>> [o.key for o in SCHEMA] == list(OPTIONS)
True
>>> o = SCHEMA[list(OPTIONS).index("token_position")]
>>> o.label, o.describe("any_true")
('Showing your only card of a colour', 'you may also call it your highest or your lowest')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import short_repr
from ..core.registry import Option
from .errors import SetupError

__all__ = ["OPTIONS", "DEFAULTS", "SCHEMA", "resolve_options"]

#: option -> its values, the default first
OPTIONS: dict[str, tuple[Any, ...]] = {
    "extra_card_seat": ("random", "seat0"),
    "tonoja_seat_order": ("H0-H1-T", "H0-T-H1"),
    "two_player_rapture_tokens": ("count_tonoja", "humans_only"),
    "two_player_distress": ("off", "humans_swap"),
    #: used_pile: CrewGame.next_attempt(tasks="new") draws without the tasks drawn before until the
    #: deck runs low (less than twice the target left), then shuffles all 96 back (R-6.2, D-13)
    "task_deck_between_missions": ("fresh_shuffle", "used_pile"),
    "replacement_rule": ("same_difficulty", "resume_draw"),
    "impossible_draw_check": ("static", "off"),
    "captain_comparison_deadlock": ("prevent", "fail", "skip_turn"),
    "retry_tasks": ("ask", "same", "new"),
    "prediction_timing": ("before_play", "on_take"),
    "distress_activation": ("unanimous", "any_human"),
    "distress_persistence": ("mission", "attempt"),
    "communication_window": ("round", "free"),
    "token_position": ("forced", "any_true"),
    "timer_start": ("play_phase", "after_assignment"),
    "parity_with_submarines": ("disqualify", "face_value"),
    "sum_with_submarines": ("disqualify", "face_value"),
    "exact_run_meaning": ("total_and_consecutive", "one_run_of_exactly_n"),
    "task13_cards": ("Y9+B7", "Y7+B7"),
    "task11_difficulty": ((2, 2, 3), (2, 3, 3)),
    "trick_history_visibility": ("last_trick", "all"),
    "show_task_progress": ("on", "off"),
    "mission_lead_ban": ("legal_but_fails", "illegal"),
    #: on: after a failure the step "failure_vote" asks the humans "unavoidable" / "avoidable";
    #: a unanimous "unavoidable" is not counted in reported_attempts (R-14.3)
    "unavoidable_failure_vote": ("off", "on"),
    #: diagnostic (R-13.1 MAY) is refused by CrewGame (SetupError): it is for solvers only, a
    #: table always evaluates the statuses from public information
    "failure_evaluation": ("public", "diagnostic"),
}
DEFAULTS: dict[str, Any] = {k: v[0] for k, v in OPTIONS.items()}


def resolve_options(options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every option, the given ones checked (unknown names and values raise :class:`SetupError`)."""
    out = dict(DEFAULTS)
    if options is None:
        return out
    if not isinstance(options, Mapping):
        raise SetupError(
            f"options must be a mapping of option names to values, not {short_repr(options)}", "options"
        )
    for key, value in options.items():
        if key not in OPTIONS:
            raise SetupError(f"unknown option {short_repr(key)}; known: {', '.join(OPTIONS)}", str(key))
        allowed = OPTIONS[key]
        v = tuple(value) if isinstance(value, list) else value
        if v not in allowed:
            shown = ", ".join(repr(a if not isinstance(a, tuple) else list(a)) for a in allowed)
            raise SetupError(f"option {key!r} must be one of {shown}, not {short_repr(value)}", key)
        out[key] = v
    return out


#: the options as a setup form shows them (:class:`~dsa_widget.core.registry.Option`), in the
#: order of :data:`OPTIONS`, each with its current default and every value a game takes
#: (``failure_evaluation="diagnostic"``, which :class:`CrewGame` refuses, is not offered)
SCHEMA: tuple[Option, ...] = (
    Option(
        "extra_card_seat",
        "Who gets the 14th card with three players",
        "random",
        choices=(("random", "a player picked at random"), ("seat0", "always the first seat")),
        help="with three seats one hand holds a card more, which is never played (CREW.md 4.1)",
    ),
    Option(
        "tonoja_seat_order",
        "Where Tonoja sits with two players",
        "H0-H1-T",
        choices=(
            ("H0-H1-T", "after both players: player 1, player 2, Tonoja"),
            ("H0-T-H1", "between the players: player 1, Tonoja, player 2"),
        ),
        help="the clockwise seating of the two players and the dummy hand Tonoja (CREW.md 4.2)",
    ),
    Option(
        "two_player_rapture_tokens",
        "Shared sonar tokens with two players",
        "count_tonoja",
        choices=(
            ("count_tonoja", "one token: Tonoja counts as a seat"),
            ("humans_only", "none: nobody can communicate"),
        ),
        help="how many shared tokens the two players get in a 'rapture of the deep' mission (CREW.md 11.2)",
    ),
    Option(
        "two_player_distress",
        "Distress signal with two players",
        "off",
        choices=(
            ("off", "not available"),
            ("humans_swap", "the two players swap one card (not a submarine)"),
        ),
        help="whether the two players may use the distress signal when Tonoja is at the table (CREW.md 9)",
    ),
    Option(
        "task_deck_between_missions",
        "Task cards for a new draw",
        "fresh_shuffle",
        choices=(
            ("fresh_shuffle", "all 96 tasks are shuffled for every draw"),
            ("used_pile", "tasks drawn before are set aside until the deck runs low"),
        ),
        help="whether drawing new tasks can bring back tasks the crew has already had (CREW.md 6.2)",
    ),
    Option(
        "replacement_rule",
        "Replacing a task that cannot be done",
        "same_difficulty",
        choices=(
            ("same_difficulty", "the next task of the same difficulty"),
            ("resume_draw", "the draw goes on for the same difficulty (maybe several tasks)"),
        ),
        help="what takes the place of a drawn task that makes the mission impossible (CREW.md 6.3)",
    ),
    Option(
        "impossible_draw_check",
        "Check the drawn tasks",
        "static",
        choices=(
            ("static", "tasks that can never all be done together are replaced"),
            ("off", "the tasks are played as drawn"),
        ),
        help="whether the draw swaps out tasks that no deal and no play could ever complete (CREW.md 6.3)",
    ),
    Option(
        "captain_comparison_deadlock",
        "Captain left with tasks it may not take",
        "prevent",
        choices=(
            ("prevent", "nobody may pick a task that would leave the captain stuck"),
            ("fail", "the attempt fails"),
            ("skip_turn", "the captain's turn passes to the next player"),
        ),
        help="the captain never takes a task that compares tricks with the captain's (CREW.md 7.1)",
    ),
    Option(
        "retry_tasks",
        "Tasks after a failed attempt",
        "ask",
        choices=(
            ("ask", "the crew chooses each time"),
            ("same", "the same tasks again"),
            ("new", "new tasks"),
        ),
        help="whether a mission's next attempt redeals the same tasks or draws new ones (CREW.md 6.3)",
    ),
    Option(
        "prediction_timing",
        "When a trick count is predicted",
        "before_play",
        choices=(
            ("before_play", "after the distress signal, before play starts"),
            ("on_take", "as soon as the task is taken"),
        ),
        help="when the owner of a 'predict your tricks' task names the number (CREW.md 8)",
    ),
    Option(
        "distress_activation",
        "Who sends the distress signal",
        "unanimous",
        choices=(
            ("unanimous", "one player proposes it and everyone agrees"),
            ("any_human", "any player alone"),
        ),
        help="how the crew decides to pass one card each to a neighbour (CREW.md 9)",
    ),
    Option(
        "distress_persistence",
        "Distress signal in later attempts",
        "mission",
        choices=(
            ("mission", "stays on for the rest of the mission and costs one attempt in all"),
            ("attempt", "every use costs one more attempt"),
        ),
        help="how often using the distress signal adds to the mission's count of attempts (CREW.md 9)",
    ),
    Option(
        "communication_window",
        "Taking turns to communicate",
        "round",
        choices=(
            ("round", "each player in turn, starting with the next trick's leader"),
            ("free", "anyone, first come first served, until the leader plays"),
        ),
        help="how the moment before each trick is shared by players who want to show a card (CREW.md 11.1)",
    ),
    Option(
        "token_position",
        "Showing your only card of a colour",
        "forced",
        choices=(
            ("forced", "the token goes in the middle: it is your only one"),
            ("any_true", "you may also call it your highest or your lowest"),
        ),
        help="what a player may say about a shown card that is their only one of its colour (CREW.md 11.1)",
    ),
    Option(
        "timer_start",
        "When the clock starts in a timed mission",
        "play_phase",
        choices=(
            ("play_phase", "when play begins, after the distress signal and predictions"),
            ("after_assignment", "as soon as the tasks are assigned"),
        ),
        help="nobody may play or communicate before the clock starts (CREW.md 12)",
    ),
    Option(
        "parity_with_submarines",
        "Submarines in an all-even or all-odd trick",
        "disqualify",
        choices=(
            ("disqualify", "a trick with a submarine never counts"),
            ("face_value", "a submarine counts by its number"),
        ),
        help="for the tasks 'win a trick of only even cards' and 'of only odd cards' (CREW.md 13.3)",
    ),
    Option(
        "sum_with_submarines",
        "Submarines in a trick worth 22 or 23",
        "disqualify",
        choices=(
            ("disqualify", "a trick with a submarine never counts"),
            ("face_value", "a submarine counts by its number"),
        ),
        help="for the task 'win a trick whose cards add up to 22 or 23' (CREW.md 13.3)",
    ),
    Option(
        "exact_run_meaning",
        "Exactly two or three tricks in a row",
        "total_and_consecutive",
        choices=(
            ("total_and_consecutive", "exactly that many tricks in all, one straight run"),
            ("one_run_of_exactly_n", "a run of exactly that length; other tricks are fine"),
        ),
        help="how the tasks 'exactly two tricks in a row' and 'exactly three' are read (CREW.md 13.3)",
    ),
    Option(
        "task13_cards",
        "Cards of task 13",
        "Y9+B7",
        choices=(("Y9+B7", "yellow 9 and blue 7"), ("Y7+B7", "yellow 7 and blue 7")),
        help="the two cards task 13 asks its owner to win; the sources disagree (CREW.md 16)",
    ),
    Option(
        "task11_difficulty",
        "Difficulty of task 11",
        (2, 2, 3),
        choices=(
            ((2, 2, 3), "2 with two to four players, 3 with five"),
            ((2, 3, 3), "2 with two or three players, 3 with four or five"),
        ),
        help="what task 11 (win pink 9 and yellow 8) counts towards a mission's difficulty (CREW.md 16)",
    ),
    Option(
        "trick_history_visibility",
        "Looking back at tricks",
        "last_trick",
        choices=(("last_trick", "only the last finished trick"), ("all", "every finished trick")),
        help="which finished tricks a player may look at again (CREW.md 15)",
    ),
    Option(
        "show_task_progress",
        "Show progress beside each task",
        "on",
        choices=(("on", "the cards won for a task lie beside it"), ("off", "the tasks show no cards")),
        help="whether each task shows the cards that count towards it so far (CREW.md 15)",
    ),
    Option(
        "mission_lead_ban",
        "Leading a banned colour",
        "legal_but_fails",
        choices=(
            ("legal_but_fails", "allowed, but the mission fails"),
            ("illegal", "not allowed, unless the leader has nothing else (then the mission fails)"),
        ),
        help="for logbook missions that forbid leading some colours (CREW.md 14)",
    ),
    Option(
        "unavoidable_failure_vote",
        "Vote a failure unavoidable",
        "off",
        choices=(
            ("off", "every failed attempt counts"),
            ("on", "if all players agree a failure was unavoidable, it does not count"),
        ),
        help="whether a failed attempt can be left out of the mission's count of attempts (CREW.md 14)",
    ),
    Option(
        "failure_evaluation",
        "How a failed task is spotted",
        "public",
        # "diagnostic" (also from the hidden hands) is for solvers only: CrewGame refuses it, so
        # the form does not offer a choice that can only be refused
        choices=(("public", "from what everyone has seen"),),
        help="a game at the table always judges from what everyone has seen; judging from the "
        "hidden hands too is for solvers only (CREW.md 13.1)",
    ),
)
