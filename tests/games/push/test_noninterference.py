"""Non-interference for web push (issue 25's twins, tests/games/noninterference.py): the
same story played twice, with and without one hidden input, and the notifications each
player the input is hidden from receives, decrypted by the stand-in push service, are
the same bytes in both. The ciphertexts differ anyway (each message has its own salt and
key); what a player and their push service can read is the plaintext."""

from unittest import mock

import pytest
import time_machine
from django.db import transaction

from tests.games import test_noninterference as twins_of
from tests.games.noninterference import (
    SALT,
    T0,
    _steps,
    clear_caches,
    reset_sequences,
    tasks_in_process,
)

from .conftest import push_jobs_in_process, subscribe

pytestmark = pytest.mark.django_db


def pushes(service, story, viewers):
    """[{viewer: [plaintext, …]} for the twin without the hidden input, … with it]."""
    served = []
    for hidden in (False, True):
        reset_sequences()
        clear_caches()
        service.received.clear()
        browsers = {}
        make_users = twins_of._users

        def users_subscribed(cast, make_users=make_users, browsers=browsers):
            users = make_users(cast)
            for name, user in users.items():
                browsers[name] = subscribe(service, user)
            return users

        with (
            transaction.atomic(),
            mock.patch(SALT, lambda: "5a" * 32),
            mock.patch.object(twins_of, "_users", users_subscribed),
            tasks_in_process(),
            push_jobs_in_process(),
            time_machine.travel(T0, tick=False),
        ):
            for _ in _steps(story(hidden)):
                pass
            got = {
                v: [
                    r.plaintext
                    for r in service.received
                    if browsers[v]["endpoint"].endswith(r.path)
                ]
                for v in viewers
            }
            transaction.set_rollback(True)
        reset_sequences()
        served.append(got)
    clear_caches()
    return served


@pytest.mark.slow
@pytest.mark.parametrize("name", list(twins_of.HIDDEN))
def test_a_hidden_witchhunt_input_changes_no_push_its_outsiders_get(push_service, name):
    first, second = pushes(push_service, twins_of._witchhunt(name), ("dan", "gus"))
    assert first["dan"], "nothing was pushed"
    assert first == second


@pytest.mark.slow
@pytest.mark.parametrize("name", list(twins_of.WOLF_HIDDEN))
def test_a_hidden_werewolf_input_changes_no_push_its_outsiders_get(push_service, name):
    story = twins_of._wolf_story(twins_of.WOLF_HIDDEN[name])
    first, second = pushes(push_service, story, ("eve", "dan"))
    assert first["eve"], "nothing was pushed"
    assert first == second


@pytest.mark.slow
def test_the_push_twins_do_tell_a_difference_apart(push_service):
    """The harness can fail: a mention of Dan in one twin only reaches his browser."""

    public = twins_of.Hidden("day 1", twins_of._mention_dan)
    with mock.patch.dict(twins_of.HIDDEN, {"a public mention": public}):
        story = twins_of._witchhunt("a public mention")
        first, second = pushes(push_service, story, ("dan", "gus"))
    assert first["gus"] == second["gus"]
    assert len(second["dan"]) == len(first["dan"]) + 1
