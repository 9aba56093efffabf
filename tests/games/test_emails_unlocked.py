"""Game emails are rendered without the game row's lock, which every vote and post waits
on (services/emails.py, reading/services/notifications.py): decided under the lock,
rendered with no transaction open, then claimed and written to the outbox together. What
changed while they rendered is settled by the claim: a rival's claim drops the email, a
moved deadline drops the reminder, an alert another task wrote drops its email."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.signals import template_rendered

from games import services, tasks
from games.models import EmailSent, Game, GameEmail, GameEvent, Notification
from games.reading.services.notifications import vote_alerts_send
from games.services import sweep
from tests.games.conftest import CAST, T0, row_lock_free

DAY = timedelta(hours=72)
NAMES = [name.lower() for name, _, _ in CAST]


class Rendering:
    """While connected, calls `during(template)` as each email's subject renders (once an
    email: every game email has one)."""

    def __init__(self, during):
        self.during = during

    def _rendered(self, sender, template, **kwargs):
        if (template.name or "").endswith("_subject.txt"):
            self.during(template)

    def __enter__(self):
        template_rendered.connect(self._rendered, weak=False)
        return self

    def __exit__(self, *exc):
        template_rendered.disconnect(self._rendered)


def _phase_emails(game, cast_users, traveller=None):
    services.phase_advance(game=game, by=game.host)
    first = GameEvent.objects.get(game=game, kind="phase", data__phase="night 1").index
    return tasks.game_phase_emails(game.pk, "phase", "night 1", first)


def _role_emails(game, cast_users, traveller=None):
    return tasks.game_role_emails(game.pk)  # the start's own task went to the broker


def _reminders(game, cast_users, traveller):
    traveller.move_to(T0 + DAY - timedelta(hours=24))
    assert sweep.reminder_tick() == sweep.REMINDED
    return GameEmail.objects.filter(game=game, template="reminder").count()


def _wagon_alerts(game, cast_users, traveller=None):
    for user in cast_users.values():
        user.wagon_alerts = True
        user.save(update_fields=["wagon_alerts"])
    return vote_alerts_send(
        game_id=game.pk, phase="day 1", votes=[(99, "ann", "bob")], wagons=["bob"], living=NAMES
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "send", [_phase_emails, _role_emails, _reminders, _wagon_alerts], ids=lambda f: f.__name__
)
def test_no_game_email_is_rendered_under_the_game_row_lock(send, game, cast_users, traveller):
    """While each email renders, no transaction is open on the sender's connection and
    (PostgreSQL) another connection locks the game row at once, NOWAIT."""
    postgres = connection.vendor == "postgresql"
    seen = []

    def probe(template):
        seen.append((connection.in_atomic_block, row_lock_free(game.pk) if postgres else None))

    with Rendering(probe):
        sent = send(game, cast_users, traveller)
    assert sent >= len(CAST)  # the wagon alerts: one more, the vote on Bob
    assert seen == [(False, True if postgres else None)] * sent


@pytest.mark.django_db
def test_an_email_a_rival_claimed_while_it_rendered_is_dropped(game, cast_users):
    """Another worker's task claimed the night's emails while this one rendered them: the
    claim's unique constraint drops this one's, and no outbox row is written for them."""

    def rival(template):
        if not EmailSent.objects.filter(kind="phase").exists():
            for seat in game.seats.all():
                EmailSent.objects.create(game=game, seat=seat, kind="phase", phase="night 1")

    with Rendering(rival):
        assert _phase_emails(game, cast_users) == 0
    assert not GameEmail.objects.filter(template="phase").exists()
    assert EmailSent.objects.filter(kind="phase").count() == len(CAST)


@pytest.mark.django_db
def test_a_reminder_rendered_while_the_deadline_moved_is_not_sent(game, traveller, moderator):
    """The reminder sweep holds the game back from the other sweeps while its reminder
    renders; a deadline moved meanwhile makes the rendered reminder untrue, so nothing is
    written and the reminder comes when it is due for the new deadline."""
    traveller.move_to(T0 + DAY - timedelta(hours=24))
    meanwhile = []

    def elsewhere(template):
        if not meanwhile:
            meanwhile.append(sweep.reminder_tick())  # another worker's sweep
            services.clock_extend(game=game, by=moderator, delta=timedelta(hours=24))

    with Rendering(elsewhere):
        assert sweep.reminder_tick() == sweep.REMINDED
    assert meanwhile == [None]  # the game was not due to the other sweep
    assert not EmailSent.objects.filter(kind="reminder").exists()
    assert not GameEmail.objects.filter(template="reminder").exists()
    game = Game.objects.get(pk=game.pk)
    assert game.reminders_sent == [] and game.next_reminder_at == T0 + DAY
    traveller.move_to(T0 + DAY)
    assert sweep.reminder_tick() == sweep.REMINDED
    assert GameEmail.objects.filter(template="reminder").count() == len(CAST)


@pytest.mark.django_db
def test_an_alert_another_votes_task_wrote_while_it_rendered_is_emailed_once(game, cast_users):
    """Two votes' tasks alert the same wagon: the one that writes second finds the alerts
    written (their keys) and drops its emails."""
    other = []

    def second_task(template):
        if not other:
            other.append(None)  # its own renders come back here
            other[0] = _wagon_alerts(game, cast_users)

    with Rendering(second_task):
        assert _wagon_alerts(game, cast_users) == 0
    wagons = Notification.objects.filter(game=game, kind=Notification.Kind.WAGON)
    assert other == [len(CAST) + 1] and wagons.count() == len(CAST)
    assert GameEmail.objects.filter(template="notification").count() == len(CAST) + 1
