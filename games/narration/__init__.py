"""Words only: events, private results, submissions, labels and durations in words, for
the pages, the emails and any digest alike.

Every English word here goes through Django's translation functions as a whole sentence
with named placeholders. Narration imports no models and makes no queries: it reads the
engine's card tables and the data it is given.
"""

# The core's kinds of stored meaning register their words as these are imported.
from . import said, summaries
from .actions import ability_label, action_label, choice_label, withdraw_label
from .durations import countdown_words, duration_words
from .events import NARRATORS, describe_event, public_setup
from .labels import (
    Names,
    SeatCard,
    alignment_label,
    audience_label,
    card_label,
    character_label,
    display_name,
    name_list,
    phase_label,
    role_label,
    seat_cards,
    status_label,
    type_label,
    type_label_count,
    type_note,
    winner_label,
)
from .prospects import accepted_text, coming_labels, idle_text, withdrawn_text
from .refusals import refusal_words
from .results import describe_info
from .rooms import room_label
from .submissions import describe_step, standing_text

__all__ = [
    "accepted_text",
    "coming_labels",
    "idle_text",
    "withdrawn_text",
    "NARRATORS",
    "Names",
    "SeatCard",
    "ability_label",
    "alignment_label",
    "audience_label",
    "action_label",
    "card_label",
    "character_label",
    "choice_label",
    "countdown_words",
    "describe_event",
    "describe_info",
    "describe_step",
    "display_name",
    "duration_words",
    "name_list",
    "phase_label",
    "public_setup",
    "refusal_words",
    "role_label",
    "room_label",
    "seat_cards",
    "standing_text",
    "status_label",
    "type_label",
    "type_label_count",
    "type_note",
    "winner_label",
    "withdraw_label",
    "said",
    "summaries",
]
