"""The reports' and the ignores' own words: the reasons, the states, and the reporter's
notifications (Notification.words, worded when read in the reader's language)."""

from django.utils.translation import gettext_lazy, pgettext_lazy

from games.models import PostReport
from games.narration.said import meaning, sentence

Reason, State = PostReport.Reason, PostReport.State

REASONS = {
    Reason.ABUSE: gettext_lazy("Abuse or harassment"),
    Reason.OUTSIDE: gettext_lazy("Outside information (a role page shared, a screenshot)"),
    Reason.SPAM: gettext_lazy("Spam"),
    Reason.AFTERLIFE: gettext_lazy("Spoilers from the afterlife"),
    Reason.OTHER: gettext_lazy("Something else"),
}

STATES = {
    State.OPEN: pgettext_lazy("a report", "Waiting for the moderator"),
    State.HIDDEN: pgettext_lazy("a report", "The moderator hid the post"),
    State.DISMISSED: pgettext_lazy("a report", "The moderator left the post as it is"),
    State.HANDLED: pgettext_lazy("a report", "Handled by the moderator"),
}

# Where a post is, as a reporter's notification says it (never which room: "a room").
WHERE = {
    "public": gettext_lazy("the game's thread"),
    "afterlife": gettext_lazy("the afterlife"),
    "room": gettext_lazy("a room"),
}


def reason_label(reason: str) -> str:
    return str(REASONS.get(reason, reason))


def state_label(state: str) -> str:
    return str(STATES.get(state, state))


def _where(value) -> str:
    return str(WHERE.get(value, WHERE["room"]))


# The reporter's notification of the outcome (Notification kind "report").
HIDDEN = "note_report_hidden"
DISMISSED = "note_report_dismissed"
HANDLED = "note_report_handled"
sentence(
    HIDDEN,
    gettext_lazy(
        "Your report of post #%(number)s in %(where)s of %(title)s: the moderator hid the post."
    ),
    where=_where,
)
sentence(
    DISMISSED,
    gettext_lazy(
        "Your report of post #%(number)s in %(where)s of %(title)s: the moderator read it "
        "and left the post as it is."
    ),
    where=_where,
)
sentence(
    HANDLED,
    gettext_lazy(
        "Your report of post #%(number)s in %(where)s of %(title)s was handled. The "
        "moderator says: %(answer)s"
    ),
    where=_where,
)
OUTCOME_WORDS = {State.HIDDEN: HIDDEN, State.DISMISSED: DISMISSED, State.HANDLED: HANDLED}


def outcome_words(report: PostReport, where: str) -> dict:
    """The reporter's notification for `report`'s outcome, as meaning; `where` is "public",
    "afterlife" or "room" (never the room's name: the row outlives the reporter's access)."""
    args = {"number": report.post.number, "where": where, "title": report.game.title}
    if report.state == State.HANDLED:
        args["answer"] = report.answer
    return meaning(OUTCOME_WORDS[report.state], **args)
