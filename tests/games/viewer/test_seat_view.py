"""A seat's view of the viewer ("as seat X saw it") shows nothing the seat's live pages had
not shown by then (issue 31).

The afterlife cast (tests/games/afterlife_cast.py) is played through the services one act a
minute. After each act, each watched seat's live pages are read as its player then read
them: the role page, each room it could open, the afterlife (and, in it, every room: W-17),
the game page and, once the game is over, the reveal (W-71); and what those pages'
selectors showed of the events. Then every step of the seat's view in the finished game is
compared with what had been shown live by the end of its moment's act: no room message,
no card and no event before it was shown live; and every room message the seat could read
as it was posted is a step of its view at that moment.
"""

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from games import services
from games.archive.selectors import reveal_page
from games.engine import CHARACTERS
from games.mapping import engine_state
from games.models import Game, Seat
from games.narration import character_label
from games.permissions import rooms_for
from games.selectors import afterlife_state_for, role_page, room_page
from games.selectors.rooms import afterlife_page, room_ref
from games.viewer.narration import view_labels
from games.viewer.selectors import viewer_page
from tests.factories import UserFactory
from tests.games.afterlife_cast import AFTERLIFE_CAST, afterlife_users, page_text
from tests.games.conftest import T0, make_game

WATCHED = ("bob", "cat", "gus", "hal")
MARK = re.compile(r"M\d+-[a-z]+")


def act_at(k):
    return T0 + timedelta(minutes=k)


class Story:
    """The game played one act a minute, each watched seat's live pages read after each."""

    def __init__(self, moderator, users):
        self.moderator, self.users = moderator, users
        self.k = 0
        self.text = {s: {} for s in WATCHED}  # seat -> act -> live text then
        self.events = {s: {} for s in WATCHED}  # seat -> act -> event indexes shown then
        self.game = None
        self.posted = {}  # room message mark -> the act that posted it

    def act(self, fn):
        self.k += 1
        with time_machine.travel(act_at(self.k), tick=False):
            fn()
            self.game.refresh_from_db()
            self._read()

    def _read(self):
        game = self.game
        for name in WATCHED:
            seat = Seat.objects.select_related("game", "user").get(game=game, name=name)
            client = Client()
            client.force_login(seat.user)
            urls = [reverse("game_detail", args=[game.pk]), reverse("game_role", args=[game.pk])]
            urls += [reverse("game_room", args=[game.pk, room_ref(game, k)])
                     for k in rooms_for(game, seat) if k != "afterlife"]  # fmt: skip
            seen = set(e.index for _p, evs in role_page(game, seat).knowledge for e in evs)
            state = engine_state(game)
            for key in rooms_for(game, seat, state):
                if key != "afterlife":
                    page = room_page(game, key, seat=seat, state=state)
                    seen |= {e.index for _p, evs in page.events for e in evs}
            if afterlife_state_for(seat) is not None:
                urls.append(reverse("game_afterlife", args=[game.pk]))
                page = afterlife_page(game, seat, state)
                seen |= {e.index for _p, evs in page.log for e in evs}
            if game.status == Game.Status.FINISHED:  # the reveal, open to everyone (W-71)
                urls.append(reverse("game_reveal", args=[game.pk]))
                seen |= {e.index for _p, evs in reveal_page(game).log for e in evs}
            texts = []
            for url in urls:
                body = client.get(url, follow=True).content.decode()
                texts.append(page_text(body))
                for link in re.findall(r'href="(/games/\d+/afterlife/rooms/[^"]+)"', body):
                    texts.append(page_text(client.get(link, follow=True).content.decode()))
            self.text[name][self.k] = " ".join(texts)
            self.events[name][self.k] = seen

    def shown_by(self, name, k):
        """(the live text, the event indexes) seat `name` had been shown by the end of act k."""
        text = " ".join(t for j, t in self.text[name].items() if j <= k)
        events = set().union(*(e for j, e in self.events[name].items() if j <= k))
        return text, events


def play(moderator, users) -> Story:
    story = Story(moderator, users)
    u = users
    with time_machine.travel(act_at(0), tick=False):
        story.game = make_game(moderator, u, cast=AFTERLIFE_CAST, options={"public_setup": False})
        story._read()
    game = story.game

    def room(user, key, body):
        story.posted[MARK.match(body).group()] = story.k + 1
        return lambda: services.room_post(game=game, user=u[user], room=key, body=body)

    def vote(user, target):
        return lambda: services.vote_cast(game=game, user=u[user], target=target)

    def act(user, action, target):
        return lambda: services.action_submit(game=game, user=u[user], action=action, target=target)

    def advance():
        services.phase_advance(game=game, by=moderator)

    def lynch(target):
        for voter in [s.name for s in engine_state(game).seats if s.living and s.name != target]:
            game.refresh_from_db()
            if game.is_night:
                break
            story.act(vote(voter, target))

    story.act(room("bob", "coven", "M1-coven: Ann tonight."))
    story.act(room("cat", "spies", "M2-spies: watch Bob."))
    story.act(room("fay", "lovers-1", "M3-lovers: stay close."))
    story.act(lambda: services.post_create(game=game, user=u["dan"], body="M4-public hello"))
    lynch("bob")  # Night 1: Bob, an Elder, is dead (a Demon in the afterlife, W-17)
    story.act(room("bob", "afterlife", "M5-afterlife: a Demon arrives."))
    story.act(act("bob", "veto", "cat"))
    story.act(act("hal", "coven", "ann"))
    story.act(room("hal", "coven", "M6-coven: alone now."))
    story.act(advance)  # Day 2: Ann is dead
    story.act(room("ann", "afterlife", "M7-afterlife: an Angel arrives."))
    lynch("eve")  # Night 2: Eve's death is fake (W-41)
    story.act(act("ann", "protect", "cat"))
    story.act(act("hal", "coven", "dan"))
    story.act(advance)  # Day 3

    def replace():
        services.player_replace(game=game, seat_name="gus", new_user=u["newcomer"], by=moderator)

    story.act(replace)
    story.act(room("newcomer", "lovers-1", "M8-lovers: the new Gus."))
    story.act(room("fay", "lovers-1", "M9-lovers: welcome."))
    story.act(vote("cat", "hal"))
    story.act(lambda: services.stalemate_declare(game=game, by=moderator))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return story


@pytest.fixture
def story(moderator):
    users = afterlife_users()
    users["newcomer"] = UserFactory(player_name="Newcomer")
    return play(moderator, users)


def _card_labels():
    return {character_label(c) for c in CHARACTERS}


def _step_text(client, game, view, n):
    return page_text(client.get(reverse("viewer_step", args=[game.pk, view, n])).content.decode())


@pytest.mark.django_db
def test_a_seat_view_shows_nothing_before_the_seat_was_shown_it_live(story):
    game, client, labels = story.game, Client(), view_labels()
    cards = _card_labels()
    for name in WATCHED:
        view = f"seat-{name}"
        page = viewer_page(game, view, 1, labels)
        shown_marks = set()
        for n in range(1, page.steps + 1):
            page = viewer_page(game, view, n, labels)
            current = page.shown[-1]
            k = round((current.at - T0) / timedelta(minutes=1))
            live, live_events = story.shown_by(name, k)
            text = _step_text(client, game, view, n)
            # No room message before it was shown live.
            for mark in MARK.findall(text):
                assert mark in live, (name, n, k, mark)
                shown_marks.add((mark, k))
            # No card before it was shown live.
            for label in cards:
                if label in text:
                    assert label in live, (name, n, k, label)
            # No event (a result, a room's vote) before it was shown live.
            hidden = {e.index for item in page.shown for e in item.events
                      if e.audience != "public"}  # fmt: skip
            if page.role:
                hidden |= {e.index for _p, evs in page.role["knowledge"] for e in evs}
            assert hidden <= live_events, (name, n, k, hidden - live_events)
        # And every room message the seat could read as it was posted is a step of its view
        # at that moment. (A history it gained later, joining the afterlife, is not replayed
        # as steps: it shows at its own moments in the views of those who read it then.)
        for mark, k in story.posted.items():
            if mark in story.text[name][k]:
                assert (mark, k) in shown_marks, (name, k, mark)
