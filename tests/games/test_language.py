"""A game in two languages: the game page's cached parts are kept apart per language
(games/views/fragments.py), and each game email is written in its recipient's language,
from the worker too (games/mail.py, accounts/language.py)."""

import pytest
from django.core import mail
from django.test import override_settings

from games import services
from tests.games.conftest import make_game
from witchhunt.celery import app as celery_app
from witchhunt.pseudo import pseudo, write_catalog


@pytest.fixture(scope="module")
def pseudo_locale(tmp_path_factory):
    """The pseudo catalog (witchhunt/pseudo.py) stands in for German."""
    return str(write_catalog(tmp_path_factory.mktemp("pseudo")))


def test_a_cached_part_of_the_game_page_is_never_served_in_the_other_language(
    game, client, pseudo_locale
):
    with override_settings(LOCALE_PATHS=[pseudo_locale]):
        # English first: the setup's part (its card names) is cached in English...
        english = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "Holy Villager" in english and pseudo("Holy Villager") not in english
        # ...and a German reader then gets theirs, not the English one...
        german = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
        assert pseudo("Holy Villager") in german and "Holy Villager" not in german
        # ...and the other way round, both now cached.
        english = client.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "Holy Villager" in english and pseudo("Holy Villager") not in english


@pytest.fixture
def eager_tasks():
    celery_app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    celery_app.conf.update(task_always_eager=False, task_eager_propagates=False)


def test_each_role_email_is_in_its_recipients_language(
    moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    """The committed German catalog translates the player types' lines; the worker (eager
    here, in no request) writes Ann's in German and Bob's in English."""
    cast_users["ann"].language = "de"
    cast_users["ann"].save()
    with django_capture_on_commit_callbacks(execute=True):
        make_game(moderator, cast_users)
    sent = {m.to[0].split("@")[0]: m for m in mail.outbox}
    ann, bob = sent["ann"], sent["bob"]
    assert "Du spielst für das Dorf." in ann.body
    assert "You play for the Village." not in ann.body
    assert '<html lang="de">' in ann.alternatives[0][0]
    assert "You play for the Witches." in bob.body
    assert '<html lang="en">' in bob.alternatives[0][0]


def test_a_phase_emails_announcements_are_worded_for_each_recipient(
    game, cast_users, eager_tasks, pseudo_locale, django_capture_on_commit_callbacks
):
    """The announcements are decided once for all the recipients (services/emails.py),
    then worded in each one's language when their email is rendered."""
    cast_users["ann"].language = "de"
    cast_users["ann"].save()
    with override_settings(LOCALE_PATHS=[pseudo_locale]):
        with django_capture_on_commit_callbacks(execute=True):
            for voter in ("ann", "cat", "dan", "eve", "fay"):
                services.vote_cast(game=game, user=cast_users[voter], target="hal")
    sent = {m.to[0].split("@")[0]: m for m in mail.outbox}
    assert "Hal has died." in sent["bob"].body
    assert "Hal has died." not in sent["ann"].body
    assert pseudo("{player} has died.").format(player="Hal") in sent["ann"].body


def test_a_deadline_on_the_game_page_reads_in_its_readers_language(game, client):
    """The named formats (witchhunt/formats): German order and German day and month names
    for a German reader, the site's English for an English one, on the same page."""
    url = f"/games/{game.pk}/"
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    deadline = game.deadline_at
    assert deadline.strftime("%a %-d %b, %H:%M UTC") in english
    assert "Do., 5. März, 18:00 UTC" in german
    assert deadline.strftime("%a %-d %b") not in german
