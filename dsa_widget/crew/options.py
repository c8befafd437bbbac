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
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import short_repr
from .errors import SetupError

__all__ = ["OPTIONS", "DEFAULTS", "resolve_options"]

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
