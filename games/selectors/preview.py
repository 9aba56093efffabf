"""The moderator's preview of the phase's end (issue 17): what would happen if the deadline
passed now, from the standing submissions and votes. The phase advance is applied to a copy
of the engine state (`engine.apply(..., copy=True)`): nothing is written, no event stored,
no post or email made, and the request's cached state is left as it was."""

from dataclasses import dataclass, field

from ..engine import GameRuleError, Input, apply
from ..mapping import engine_state
from ..models import Game
from ..narration import audience_label, describe_event, refusal_words
from ..narration.why import Ev, cards_of, explain
from .why import row_as_ev, with_urls


@dataclass
class PreviewLine:
    text: str
    audience: str  # who would be told, in words
    audience_kind: str  # public, dead, moderator or seats (the log's colours)
    whys: list = field(default_factory=list)


@dataclass
class PhasePreview:
    phase: str  # the phase that would end
    lines: list[PreviewLine]
    refused: str = ""  # the engine's reason, were the advance refused (never expected)


def phase_preview(game: Game, log, names) -> PhasePreview | None:
    """The events the phase's end would make now, each as the moderator's log words it and
    with its ruling; None when the game is not running. `log`: the game's stored events as
    (phase, events) pairs (the desk's), read for the rulings (the night's votes so far)."""
    if game.status != Game.Status.RUNNING:
        return None
    state = engine_state(game)
    if state.over:
        return None
    try:
        _copy, fresh = apply(state, Input("advance", word="phase"), copy=True)
    except GameRuleError as e:
        return PhasePreview(state.phase, [], refused=refusal_words(e))
    stored = [row_as_ev(row) for _phase, events in log for row in events]
    new = [Ev(e.kind, e.phase, e.data, e.to) for e in fresh]
    whys = explain(stored + new, cards_of(state.seats), game.ruleset, names, game.revision)
    lines = []
    for k, e in enumerate(fresh):
        seats = () if isinstance(e.to, str) else e.to
        audience = e.to if isinstance(e.to, str) else "seats"
        lines.append(
            PreviewLine(
                text=describe_event(e.kind, e.data, names),
                audience=audience_label(audience, e.meeting or "", seats, names),
                audience_kind=audience,
                whys=with_urls(whys.get(len(stored) + k, [])),
            )
        )
    return PhasePreview(state.phase, lines)
