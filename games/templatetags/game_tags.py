"""Template filters and tags over games.narration: events, private results, submissions
and labels in words, one line each (the words themselves live in games/narration/)."""

from html import escape

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext, pgettext_lazy

from games import narration
from games.engine import Phase

register = template.Library()

# --- labels ---------------------------------------------------------------------------
register.filter("character_label", narration.character_label)
register.filter("type_label", narration.type_label)
register.filter("type_label_count", narration.type_label_count)
register.filter("type_note", narration.type_note)
register.filter("role_label", narration.role_label)
register.filter("alignment_label", narration.alignment_label)
register.filter("status_label", narration.status_label)
register.filter("phase_label", narration.phase_label)
register.filter("winner_label", narration.winner_label)
register.filter("display_name", narration.display_name)
register.filter("action_label", narration.action_label)
register.filter("ability_label", narration.ability_label)
register.filter("choice_label", narration.choice_label)
register.filter("withdraw_label", narration.withdraw_label)


# A seat's public status as a lowercase word inside a sentence or a badge ("you are dead");
# narration's status_label is the capitalised table cell.
STATUS_WORDS = {
    "alive": pgettext_lazy("seat status", "alive"),
    "dead": pgettext_lazy("seat status", "dead"),
    "removed": pgettext_lazy("seat status", "removed"),
}


@register.filter
def status_word(status):
    return str(STATUS_WORDS.get(status, status))


@register.filter
def phase_word(phase):
    """ "day 2" as it reads inside a sentence ("you are done for day 2"); phase_label is the
    capitalised heading."""
    parsed = Phase.parse(phase)
    if parsed is None:
        return phase
    if parsed.kind == "night":
        return pgettext("phase inside a sentence", "night %(number)s") % {"number": parsed.number}
    return pgettext("phase inside a sentence", "day %(number)s") % {"number": parsed.number}


@register.filter
def get_item(mapping, key):
    return mapping.get(key)


# --- events and submissions -----------------------------------------------------------
@register.simple_tag
def standing_text(what, value, names):
    """{% standing_text what value names %}: one standing submission."""
    return narration.standing_text(what, value, names)


@register.simple_tag
def audience_text(event, names):
    """Who could see a GameEvent of selectors' events_all while the game ran (the final
    reveal shows them all)."""
    return narration.audience_label(event.audience, event.meeting, event.seat_names, names)


@register.simple_tag
def event_text(event, names, viewer=None):
    """{% event_text event names viewer %}: a GameEvent, or a dict with kind and data."""
    if isinstance(event, dict):
        return narration.describe_event(event["kind"], event["data"], names, viewer)
    return narration.describe_event(event.kind, event.data, names, viewer)


# --- the thread's filter --------------------------------------------------------------
# "Showing only A’s and B’s posts of Day 2 containing “x”.": one whole sentence for each
# combination of the three parts, so that a translation may order them as it needs.
FILTER_NOTES = {
    (False, False, False): gettext_lazy("Showing only posts."),
    (False, False, True): gettext_lazy("Showing only posts containing “%(q)s”."),
    (False, True, False): gettext_lazy("Showing only posts of Day %(day)s."),
    (False, True, True): gettext_lazy("Showing only posts of Day %(day)s containing “%(q)s”."),
    (True, False, False): gettext_lazy("Showing only %(players)s posts."),
    (True, False, True): gettext_lazy("Showing only %(players)s posts containing “%(q)s”."),
    (True, True, False): gettext_lazy("Showing only %(players)s posts of Day %(day)s."),
    (True, True, True): gettext_lazy(
        "Showing only %(players)s posts of Day %(day)s containing “%(q)s”."
    ),
}


def _players_posts(seats, names):
    """ "A’s", "A’s and B’s", "A’s, B’s and C’s": each name in its possessive."""
    owners = [
        pgettext("possessive, before “posts”", "%(name)s’s")
        % {"name": narration.display_name(seat, names)}
        for seat in seats
    ]
    if len(owners) == 1:
        return owners[0]
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(owners[:-1]), "last": owners[-1]}


@register.simple_tag
def filter_note(only, names):
    """{% filter_note page.only page.names %}: what the thread's filter shows (escaped)."""
    seats = list(only.seats or ())
    key = (bool(seats), bool(only.day), bool(only.q))
    values = {"day": only.day, "q": only.q}
    if seats:
        values["players"] = _players_posts(seats, names)
    return FILTER_NOTES[key] % values


@register.simple_tag
def or_list(names):
    """{% or_list names as who %}: "<strong>A</strong>, <strong>B</strong> or <strong>C</strong>",
    safe HTML with each name escaped."""
    strong = [format_html("<strong>{}</strong>", name) for name in names]
    if len(strong) == 1:
        return strong[0]
    return format_html(
        gettext("{names} or {last}"), names=mark_safe(", ".join(strong[:-1])), last=strong[-1]
    )


@register.simple_tag
def choice_options(choices, chosen=None):
    """The <option>s of (value, label) pairs, `chosen` selected: one string made in Python,
    as a 48-seat game's vote list is on every read of its page (format_html a line was
    ten times slower). The standard library's escape: the same five characters as
    Django's, without its lazy-string wrapping."""
    return mark_safe(  # noqa: S308 - every value and label escaped here
        "".join(
            f'<option value="{escape(v)}"{" selected" if v == chosen else ""}>{escape(str(label))}'
            "</option>"
            for v, label in choices
        )
    )


# --- the vote markers between posts (selectors/forum.vote_markers) ---------------------------
EARLIER_MARKER = (
    '<li class="vote-marker vote-marker--earlier" id="p{}-e{}">{} <a href="{}">{}</a></li>'
)


@register.simple_tag
def vote_markers(row, game_id):
    """A thread row's vote markers: the moves of its run left out, counted by day with a
    link to that day's votes, then the last few, each line an <li> with an id of its own
    (p7-e1…, p7-m1…: a run is whole once the next post exists) so that the live refresh
    (static/js/live.js) appends each once."""
    number = row["number"]
    lines = []
    for i, fold in enumerate(row.get("markers_earlier") or (), 1):
        n, phase = fold["count"], fold["phase"]
        left_out = ngettext(
            "%(n)s earlier vote move left out.", "%(n)s earlier vote moves left out.", n
        )
        lines.append(
            format_html(
                EARLIER_MARKER,
                number,
                i,
                left_out % {"n": n},
                reverse("game_votes_day", args=[game_id, Phase.parse(phase).number]),
                gettext("Every vote of %(day)s, in order") % {"day": narration.phase_label(phase)},
            )
        )
    lines += [
        format_html('<li class="vote-marker" id="p{}-m{}">{}</li>', number, i, words)
        for i, words in enumerate(row.get("markers") or (), 1)
    ]
    return mark_safe("".join(lines))
