"""Issue 31: in an anonymous game no page or email a player can reach names another member
who plays, at sign-up, by day, after a replacement, by night; after the end the reveal
shows both, alias and member."""

import re

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.selectors import room_ref
from tests.games.noninterference import T0, Reader, emails_to, tasks_in_process

from .story import ALIASES, NAMES, NEWBIE, anon_users, story

pytestmark = pytest.mark.django_db

PLAYERS = [n.lower() for n in NAMES] + [NEWBIE.lower()]


def _rooms(game):
    return [reverse("game_room", args=[game.pk, room_ref(game, r)]) for r in ("coven", "afterlife")]


def _walk(game, user):
    """Every page `user` reaches from the game's (Reader's crawl), and the emails to them."""
    pk = game.pk
    extra = [
        reverse("game_votes_day", args=[pk, 1]),
        reverse("game_fair_deal", args=[pk]),
        reverse("player_profile", args=[user.player_key]),
        *_rooms(game),
    ]
    reader = Reader(user.player_name, user, {})
    reader.read(game, extra)
    pages = {url: body for url, (_, _, body) in reader.seen.items()}
    for subject, _, headers, parts in emails_to(user):
        pages[f"email {subject}"] = "\n".join([subject, *map(str, headers.values()), *parts])
    return pages


def _others_named(pages, user) -> list[str]:
    """Where another playing member's name shows ("url: name")."""
    others = [n for n in PLAYERS if n != user.player_key]
    found = []
    for url, body in pages.items():
        # What a player typed is theirs: "@Bobqx" unlinked (a link would tie it to a seat).
        low = body.lower().replace("and @bobqx?", "")
        for n in others:
            at = low.find(n)
            if at >= 0:
                found.append(f"{url}: {n} in …{body[max(at - 120, 0) : at + 40]!r}")
    return found


def test_no_page_or_email_names_another_member_until_the_reveal(
    moderator, django_capture_on_commit_callbacks
):
    users = anon_users()
    seen = emails = 0
    with time_machine.travel(T0, tick=False), tasks_in_process():
        mail.outbox.clear()
        steps = story(moderator, users)
        while True:
            with django_capture_on_commit_callbacks(execute=True):
                step = next(steps, None)
            if step is None:
                break
            checkpoint, game = step
            if checkpoint == "end":
                break
            for key in PLAYERS:
                user = users.get(key)
                if user is None:
                    continue
                pages = _walk(game, user)
                seen += len(pages)
                emails += sum(1 for url in pages if url.startswith("email "))
                named = _others_named(pages, user)
                assert not named, f"{checkpoint} as {key}:\n" + "\n".join(named[:8])
                if checkpoint != "signup":  # the aliases are what the game shows
                    assert "Fern" in pages[reverse("game_detail", args=[game.pk]) + "?page=1"]
    assert seen > 200 and emails > 8  # the cards, the mention, the phases' emails
    # The reveal: every alias beside its member.
    client = Client()
    client.force_login(users["catqx"])
    reveal = client.get(reverse("game_reveal", args=[game.pk])).content.decode()
    for alias, name in zip(ALIASES, NAMES, strict=True):
        assert re.search(rf"{alias}\s*—\s*{name}", reveal), alias
    assert re.search(rf"Yew\s*—\s*Eveqx, then {NEWBIE}", reveal)
