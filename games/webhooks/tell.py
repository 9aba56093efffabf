"""Each event of a game as a story (story.Story), in a destination's language.

Every builder here is called by a receiver (receivers.py) inside the game write's
transaction and returns `build(language) -> Story`. What it reads it reads at the first
build, once, and only if some destination asks (a vote in a game nobody follows costs
nothing); so a destination must build in that same transaction, where the game stands as
the write left it. The words are the thread's own where the thread said it (the summary
post of an advance, the start post, the vote count) and ours behind pgettext("webhooks")
around them; names are the seats' as the thread shows them; times are in UTC, as the game
page shows them to a visitor (a chat has no reader's zone).

Public information only (public.py says where each part is read). A story names nobody
whose deadline is near, nor how many have acted: that moves with hidden inputs.
"""

from functools import cache

from django.urls import reverse
from django.utils import translation
from django.utils.translation import npgettext, pgettext

from games.mail import absolute_url, game_url
from games.narration import display_name, name_list, phase_label
from games.narration.durations import duration_words
from games.narration.summaries import count_words
from games.selectors.votes import day_final_count, vote_count

from .public import advance_said, game_seats, moment, phase_ended
from .story import Story


def _built(make):
    """`build(language)`: the story `make()` words, in `language`."""

    def build(language):
        with translation.override(language):
            return make()

    return build


def _lines(*parts) -> str:
    return "\n".join(p for p in parts if p)


def _ends(phase: str, deadline_at, paused: bool) -> str:
    """When the phase ends, as the game page says it (or that its clock is paused)."""
    if paused:
        return pgettext("webhooks", "The clock is paused.")
    if deadline_at is None:
        return ""
    # Translators: "Day 2 ends Thu 5 Mar, 18:00 UTC." in a chat message.
    return pgettext("webhooks", "%(phase)s ends %(moment)s.") % {
        "phase": phase_label(phase),
        "moment": moment(deadline_at),
    }


# --- signups_open ------------------------------------------------------------------------
def signups_open(game):
    pk, title, seats = game.pk, game.title, game.seats_count
    rules, starts = game.get_ruleset_display, game.signups_close_at

    def make():
        fields = [
            (pgettext("webhooks", "Rules"), str(rules())),
            (pgettext("webhooks", "Seats"), str(seats)),
        ]
        if starts is not None:
            fields.append((pgettext("webhooks", "Starts"), moment(starts)))
        return Story(
            event="signups_open",
            # Translators: a chat message's title; %(game)s is the title its host gave the game.
            title=pgettext("webhooks", "%(game)s is open for sign-ups") % {"game": title},
            text=npgettext(
                "webhooks",
                "A game of %(rules)s for %(count)s player.",
                "A game of %(rules)s for %(count)s players.",
                seats,
            )
            % {"rules": rules(), "count": seats},
            url=game_url(game),
            fields=tuple(fields),
            once=f"signups:{pk}",
        )

    return _built(make)


# --- game_started, phase_ended, game_ended: what the public thread announced ---------------
def game_started(game):
    pk, title, phase = game.pk, game.title, game.phase
    deadline_at, paused = game.deadline_at, game.paused_at is not None
    url = game_url(game)
    read = cache(lambda: (game_seats(game), advance_said(game, 0)))

    def make():
        seats, said = read()
        names = seats.names
        return Story(
            event="game_started",
            title=pgettext("webhooks", "%(game)s has started") % {"game": title},
            text=_lines(*(s.text(names) for s in said), _ends(phase, deadline_at, paused)),
            url=url,
            fields=((pgettext("webhooks", "Players"), name_list(names, list(names))),),
            once=f"started:{pk}",
            mentions=seats.named(names),
        )

    return _built(make)


def _announced(said) -> tuple[list, list]:
    """The lynched and the dead the posts `said` announce (seat names, in order)."""
    lynched, died = [], []
    for s in said:
        for kind, data in s.events():
            if kind == "lynch":
                lynched.append(data.get("target"))
            elif kind == "death":
                died.append(data.get("player"))
    return lynched, died


def _day_ended(said) -> bool:
    """Whether the posts close a day: its summary keeps the day's final count."""
    return any(s.words.get("args", {}).get("count") is not None for s in said)


def phase_ended_story(game, first_event: int):
    pk, title = game.pk, game.title
    url = game_url(game)
    read = cache(lambda: (game_seats(game), advance_said(game, first_event), phase_ended(game)))

    def make():
        seats, said, ended = read()
        names = seats.names
        lynched, died = _announced(said)
        fields = []
        if lynched or _day_ended(said):
            fields.append((pgettext("webhooks", "Lynched"), name_list(names, lynched)))
        if died:
            fields.append((pgettext("webhooks", "Died"), name_list(names, died)))
        return Story(
            event="phase_ended",
            title=pgettext("webhooks", "%(game)s · %(phase)s has ended")
            % {"game": title, "phase": phase_label(ended)},
            text=_lines(*(s.text(names) for s in said)),
            url=url,
            fields=tuple(fields),
            once=f"ended:{pk}:{ended}",
            mentions=seats.named([*lynched, *died]),
        )

    return _built(make)


def _winners(said) -> list:
    """The winners the game-over post names (seat names), as the reveal credits them."""
    return [w for s in said for kind, data in s.events() if kind == "game_over"
            for w in data.get("winners", [])]  # fmt: skip


def game_ended(game, first_event: int):
    pk, title = game.pk, game.title
    reveal = absolute_url(reverse("game_reveal", args=[pk]))  # the archive's page, by name
    read = cache(lambda: (game_seats(game), advance_said(game, first_event)))

    def make():
        seats, said = read()
        names = seats.names
        winners = _winners(said)
        lynched, died = _announced(said)
        fields = [(pgettext("webhooks", "Winners"), name_list(names, winners))]
        if lynched:
            fields.append((pgettext("webhooks", "Lynched"), name_list(names, lynched)))
        if died:
            fields.append((pgettext("webhooks", "Died"), name_list(names, died)))
        return Story(
            event="game_ended",
            title=pgettext("webhooks", "%(game)s is over") % {"game": title},
            text=_lines(
                *(s.text(names) for s in said),
                pgettext("webhooks", "The final reveal shows every card: %(url)s")
                % {"url": reveal},
            ),
            url=reveal,
            fields=tuple(fields),
            once=f"over:{pk}",
            mentions=seats.named(winners),
        )

    return _built(make)


# --- phase_began, deadline_near: the clock, as the game page shows it ----------------------
def phase_began(game):
    pk, title, phase = game.pk, game.title, game.phase
    deadline_at, midnight_at = game.deadline_at, game.midnight_at
    paused, night = game.paused_at is not None, game.is_night
    url = game_url(game)

    def make():
        words = (
            pgettext("webhooks", "%(game)s · %(phase)s has fallen")
            if night
            else pgettext("webhooks", "%(game)s · %(phase)s has begun")
        )
        fields = []
        if deadline_at is not None and not paused:
            fields.append((pgettext("webhooks", "Ends"), moment(deadline_at)))
            if midnight_at is not None:
                fields.append((pgettext("webhooks", "Midnight"), moment(midnight_at)))
        return Story(
            event="phase_began",
            title=words % {"game": title, "phase": phase_label(phase)},
            text=_ends(phase, deadline_at, paused),
            url=url,
            fields=tuple(fields),
            once=f"began:{pk}:{phase}",
        )

    return _built(make)


def deadline_once(game) -> str:
    """A deadline is near once per game, phase and deadline: a moved one is near again."""
    return f"deadline:{game.pk}:{game.phase}:{game.deadline_at.isoformat()}"


def deadline_near(game, now):
    title, phase, deadline_at = game.title, game.phase, game.deadline_at
    url, once = game_url(game), deadline_once(game)

    left = deadline_at - now

    def make():
        return Story(
            event="deadline_near",
            title=pgettext("webhooks", "%(game)s · %(phase)s ends in %(left)s")
            % {"game": title, "phase": phase_label(phase), "left": duration_words(left)},
            text=_ends(phase, deadline_at, False),
            url=url,
            fields=((pgettext("webhooks", "Ends"), moment(deadline_at)),),
            once=once,
        )

    return _built(make)


# --- vote_count: the game page's count, one message a day -----------------------------------
def votes_key(game, day: str) -> str:
    """The day's count stories share it: a newer one supersedes (and edits) the last."""
    return f"votes:{game.pk}:{day}"


def vote_count_story(game, day: str, state):
    """The count of `day` after a public move: the vote panel's while the day goes on
    (selectors.votes.vote_count), the summary's final count once the move ended it."""
    title = game.title
    over = game.phase != day or game.status == game.Status.FINISHED  # the move ended the day
    url = game_url(game)

    def read():
        seats = game_seats(game)
        count = day_final_count(game, day, seats.names) if over else vote_count(state)
        return seats, count

    read = cache(read)

    def make():
        seats, count = read()
        names = seats.names
        _title, lines = count_words(day, count, names)  # the summary's own lines
        rule = pgettext("webhooks", "With %(living)s alive it takes %(needed)s to lynch.") % {
            "living": count.living,
            "needed": count.needed,
        }
        words = (
            pgettext("webhooks", "%(game)s · Final vote count of %(day)s")
            if over
            else pgettext("webhooks", "%(game)s · Vote count of %(day)s")
        )
        return Story(
            event="vote_count",
            title=words % {"game": title, "day": phase_label(day)},
            text=_lines(*([] if over else [rule]), *lines),
            url=url,
            fields=tuple(
                (display_name(target, names), name_list(names, voters))
                for target, voters, *_rest in count.rows
            ),
            replaces=votes_key(game, day),
        )

    return _built(make)
