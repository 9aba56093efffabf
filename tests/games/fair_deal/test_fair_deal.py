"""The provably fair deal (issue 17, docs/fair-deal.md): the start seals the deal, the
first post publishes the fingerprint, the reveal opens the seal and checks it; the salt
and the deal stay out of every page, poll, email and download before the finish."""

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core import mail
from django.urls import reverse

from games import services
from games.fair_deal import fairness
from games.fair_deal.selectors import fair_deal
from games.models import Assignment, Game, Post
from games.selectors.rooms import room_ref
from tests.factories import UserFactory
from tests.games import said
from tests.games.conftest import CAST, make_game
from witchhunt.celery import app as celery_app

pytestmark = pytest.mark.django_db
SALT = "0f" * 32
# The named cast's deal (conftest, seed 7, in seat order) as its canonical text.
CAST_TEXT = (
    '{"lovers":[["fay","gus"]],"salt":"' + SALT + '","seats":[["ann","priest","holy_villager"],'
    '["bob","judge","elder_witch"],["cat","oracle","village_spy"],'
    '["dan","gravedigger","basic_villager"],["eve","inquisitor","basic_villager"],'
    '["fay","cupid","village_lover"],["gus","harlot","village_lover"],'
    '["hal","wizard","junior_witch"]],"seed":7}'
)


# The docs' Python form (docs/fair-deal.md, "Checking by hand"), word for word.
PYTHON_CHECK = (
    'python3 -c "import hashlib,sys; print(hashlib.sha256(sys.stdin.read().strip().encode())'
    '.hexdigest())" < deal.txt'
)
DOCS = Path(__file__).resolve().parents[3] / "docs" / "fair-deal.md"


def _cast_text(salt=SALT, **changes):
    players = [{"name": n.lower(), "character": c, "type": t} for n, c, t in CAST]
    for name, character in changes.items():
        next(p for p in players if p["name"] == name)["character"] = character
    return fairness.deal_text(
        ruleset="witchhunt", players=players, lovers=[["fay", "gus"]], seed=7, salt=salt
    )


@pytest.fixture
def eager_tasks():
    """Tasks queued on commit run at once, in this process (as test_emails.py does)."""
    celery_app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    celery_app.conf.update(task_always_eager=False, task_eager_propagates=False)


def _finish(game, moderator):
    services.stalemate_declare(game=game, by=moderator)  # W-72: the game ends at once
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


# --- the scheme, pure -----------------------------------------------------------------------
def test_the_deal_text_is_canonical_and_its_commitment_is_its_sha256():
    text = _cast_text()
    assert text == CAST_TEXT  # the documented layout, byte for byte
    assert json.loads(text)["seats"][0] == ["ann", "priest", "holy_villager"]
    assert fairness.commitment(text) == hashlib.sha256(text.encode()).hexdigest()
    assert fairness.verify(text, fairness.commitment(text)) == (True, "")
    # A paste's surrounding whitespace and an upper-case fingerprint are the same check.
    assert fairness.verify(f"\n{text}\n", fairness.commitment(text).upper()).matches


def test_a_werewolf_deal_names_each_seats_role():
    text = fairness.deal_text(
        ruleset="werewolf",
        players=[{"name": "ann", "role": "seer"}, {"name": "bob", "role": "werewolf"}],
        lovers=[],
        seed=3,
        salt=SALT,
    )
    assert (
        text
        == '{"lovers":[],"salt":"'
        + SALT
        + '","seats":[["ann","seer"],["bob","werewolf"]],"seed":3}'
    )


def test_a_changed_card_lover_seed_or_salt_is_detected():
    sealed = fairness.commitment(_cast_text())
    changed = [
        _cast_text(dan="priest"),  # one card
        _cast_text(salt="1f" * 32),
        _cast_text().replace('"seed":7', '"seed":8'),
        _cast_text().replace('[["fay","gus"]]', '[["ann","gus"]]'),
    ]
    for text in changed:
        assert fairness.verify(text, sealed) == (False, "mismatch"), text


def test_a_reformatted_text_or_a_malformed_fingerprint_is_told_apart():
    text = _cast_text()
    sealed = fairness.commitment(text)
    pretty = json.dumps(json.loads(text), indent=2)
    assert fairness.verify(pretty, sealed) == (False, "not_canonical")
    assert fairness.verify("not json", sealed) == (False, "not_canonical")
    assert fairness.verify(text.replace('"', "\u201d"), sealed) == (False, "not_ascii")
    assert fairness.verify(text, sealed[:-1]) == (False, "bad_commitment")
    assert fairness.verify(text, "z" * 64) == (False, "bad_commitment")


def test_the_salt_has_256_bits_and_is_fresh():
    salts = {fairness.new_salt() for _ in range(20)}
    assert len(salts) == 20
    assert all(re.fullmatch(r"[0-9a-f]{64}", s) for s in salts)


@pytest.mark.skipif(not shutil.which("sha256sum"), reason="no sha256sum")
def test_the_documented_command_prints_the_commitment(tmp_path):
    docs = DOCS.read_text()
    assert "printf '%s' '<deal text>' | sha256sum" in docs
    assert "printf '%s' \"$(cat deal.txt)\" | sha256sum" in docs
    assert PYTHON_CHECK in docs
    text = _cast_text(salt=fairness.new_salt())
    line = fairness.command(text)
    assert line == f"printf '%s' '{text}' | sha256sum"
    out = subprocess.run(["sh", "-c", line], capture_output=True, text=True, check=True)
    assert out.stdout.split()[0] == fairness.commitment(text)
    # The docs' form for a saved file: an editor's final newline is no part of the text.
    (tmp_path / "deal.txt").write_text(text + "\n")
    out = subprocess.run(
        ["sh", "-c", "printf '%s' \"$(cat deal.txt)\" | sha256sum"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split()[0] == fairness.commitment(text)
    out = subprocess.run(["sh", "-c", PYTHON_CHECK], cwd=tmp_path, capture_output=True,
                         text=True, check=True)  # fmt: skip
    assert out.stdout.strip() == fairness.commitment(text)
    # And the result is not a tautology: a changed card prints another hash.
    other = fairness.command(_cast_text(salt=json.loads(text)["salt"], dan="priest"))
    out = subprocess.run(["sh", "-c", other], capture_output=True, text=True, check=True)
    assert out.stdout.split()[0] != fairness.commitment(text)


# --- the start seals, the first post publishes ----------------------------------------------
def test_the_start_seals_the_deal_it_dealt(cast_game):
    game = Game.objects.get(pk=cast_game.pk)  # as stored
    assert re.fullmatch(r"[0-9a-f]{64}", game.deal_salt)
    assert game.deal_commitment == fairness.commitment(_cast_text(salt=game.deal_salt))
    first = Post.objects.get(game=game, thread="public", number=1)
    assert first.kind == Post.Kind.SYSTEM and first.event.kind == "phase"
    assert game.deal_commitment in said.text(first) and game.deal_commitment in said.html(first)
    assert game.deal_salt not in said.text(first) + said.html(first)


def test_a_shuffled_werewolf_deal_is_sealed_as_dealt(moderator, cast_users):
    roles = ["seer", "werewolf", "villager", "villager", "villager"]
    game = services.game_create(
        host=moderator, ruleset="werewolf", title="Shuffled", seats_count=5,
        deal={"mode": "explicit", "cards": [{"role": r} for r in roles]},
    )  # fmt: skip
    for user in list(cast_users.values())[:5]:
        services.game_join(game=game, user=user)
    game = services.game_start(game=game, by=moderator)
    seats = game.seats.select_related("assignment").order_by("position")
    players = [{"name": s.name, "role": s.assignment.role} for s in seats]
    text = fairness.deal_text(
        ruleset="werewolf", players=players, lovers=[], seed=game.seed, salt=game.deal_salt
    )
    assert fairness.commitment(text) == game.deal_commitment
    assert game.deal_commitment in said.text(Post.objects.get(game=game, number=1))


def test_the_first_post_shows_the_fingerprint_and_links_its_page(client, cast_game):
    html = client.get(reverse("game_detail", args=[cast_game.pk]) + "?page=1").content.decode()
    first = html[html.index('id="p1"') :]
    first = first[: first.index("</li>")]
    assert cast_game.deal_commitment in first
    assert "Day 1" in first  # the start's own words are kept beside the seal
    assert reverse("game_fair_deal", args=[cast_game.pk]) in first


def test_only_the_start_post_carries_the_seal(cast_game, moderator):
    services.phase_advance(game=cast_game, by=moderator)
    later = Post.objects.filter(game=cast_game, kind=Post.Kind.SYSTEM, number__gt=1)
    assert later.exists()
    assert not any(cast_game.deal_commitment in said.html(p) for p in later)


# --- replacements and removals ---------------------------------------------------------------
def test_a_replacement_and_a_removal_leave_the_seal_unchanged(cast_game, moderator):
    sealed, salt = cast_game.deal_commitment, cast_game.deal_salt
    services.player_replace(
        game=cast_game, seat_name="bob", new_user=UserFactory(player_name="Zed"), by=moderator
    )
    services.player_remove(game=cast_game, seat_name="dan", by=moderator)
    game = _finish(Game.objects.get(pk=cast_game.pk), moderator)
    assert (game.deal_commitment, game.deal_salt) == (sealed, salt)
    deal = fair_deal(game)
    assert deal.matches is True
    assert '["bob","judge","elder_witch"]' in deal.text  # the seat, not Zed


# --- the reveal opens the seal ---------------------------------------------------------------
def test_the_reveal_publishes_the_deal_and_its_check(client, cast_game, moderator):
    game = _finish(cast_game, moderator)
    html = client.get(reverse("game_reveal", args=[game.pk])).content.decode()
    text = _cast_text(salt=game.deal_salt)
    assert game.deal_commitment in html
    assert text.replace('"', "&quot;") in html  # in the <pre>, escaped as HTML
    assert "The deal matches its fingerprint" in html
    assert f"printf &#x27;%s&#x27; &#x27;{text}".replace('"', "&quot;") in html


def test_a_changed_card_shows_as_a_mismatch(client, cast_game, moderator):
    game = _finish(cast_game, moderator)
    Assignment.objects.filter(seat__game=game, seat__name="dan").update(character="priest")
    for url in (reverse("game_reveal", args=[game.pk]), reverse("game_fair_deal", args=[game.pk])):
        html = client.get(url).content.decode()
        assert "The deal does not match its fingerprint" in html, url
        assert "The deal matches" not in html
        assert "fair-deal__verdict--mismatch" in html


def test_a_changed_lover_pair_shows_as_a_mismatch(cast_game, moderator):
    game = _finish(cast_game, moderator)
    Game.objects.filter(pk=game.pk).update(lovers=[["fay", "hal"]])
    assert fair_deal(Game.objects.get(pk=game.pk)).matches is False


def test_a_game_started_before_the_seal_says_so(client, cast_game, moderator):
    Game.objects.filter(pk=cast_game.pk).update(deal_salt="", deal_commitment="")
    game = _finish(Game.objects.get(pk=cast_game.pk), moderator)
    for url in (reverse("game_reveal", args=[game.pk]), reverse("game_fair_deal", args=[game.pk])):
        response = client.get(url)
        assert response.status_code == 200
        assert "started before deals were sealed" in response.content.decode()


def test_an_open_game_has_nothing_sealed_yet(client, moderator, cast_users):
    game = make_game(moderator, cast_users, start=False)
    assert game.deal_salt == game.deal_commitment == ""
    html = client.get(reverse("game_fair_deal", args=[game.pk])).content.decode()
    assert "sealed, when the game starts" in html


# --- the generic check -----------------------------------------------------------------------
def test_the_check_page_says_match_or_no_match(client):
    text = _cast_text()
    sealed = fairness.commitment(text)
    url = reverse("fair_deal_check")
    assert "Result" not in client.get(url).content.decode()
    html = client.post(url, {"text": text, "commitment": sealed}).content.decode()
    assert "The deal matches its fingerprint" in html
    changed = {"text": _cast_text(dan="priest"), "commitment": sealed}
    html = client.post(url, changed).content.decode()
    assert "The deal does not match its fingerprint" in html
    html = client.post(url, {"text": text, "commitment": "abc"}).content.decode()
    assert "64 hexadecimal digits" in html
    # The largest game's text: too long for a URL's request line, hence the POST.
    seats = [{"name": f"player_{i:02}_with_a_long_name", "role": "villager"} for i in range(48)]
    big = fairness.deal_text(ruleset="werewolf", players=seats, lovers=[], seed=2**62, salt=SALT)
    assert len(big) > 2000
    html = client.post(url, {"text": big, "commitment": fairness.commitment(big)}).content.decode()
    assert "The deal matches its fingerprint" in html


# --- nobody sees the salt or the deal before the finish --------------------------------------
def _pages(game):
    pk = game.pk
    names = ["game_detail", "game_role", "game_desk", "game_since", "game_fair_deal", "game_notes",
             "game_afterlife", "game_votes_day", "game_record", "game_live"]  # fmt: skip
    urls = []
    for name in names:
        args = [pk, 1] if name == "game_votes_day" else [pk]
        urls.append(reverse(name, args=args))
    urls.append(reverse("game_detail", args=[pk]) + "?page=1")
    for key in ("lovers-1", "coven", "spies", "juniors"):
        urls.append(reverse("game_room", args=[pk, room_ref(game, key)]))
        urls.append(reverse("game_desk_room", args=[pk, key]))
    urls.append(reverse("game_list"))
    return urls


@pytest.mark.slow
def test_the_salt_and_the_deal_text_are_secret_until_the_finish(
    client, cast_game, moderator, cast_users, eager_tasks, django_capture_on_commit_callbacks
):
    game = Game.objects.get(pk=cast_game.pk)
    text = _cast_text(salt=game.deal_salt)
    secrets_ = (game.deal_salt, text, text.replace('"', "&quot;"))
    viewers = [None, UserFactory(player_name="Outsider"), moderator, *cast_users.values()]
    seen = 0
    for viewer in viewers:
        client.logout()
        if viewer:
            client.force_login(viewer)
        for url in _pages(game):
            response = client.get(url)
            if response.status_code != 200:
                continue
            seen += 1
            body = b"".join(response) if response.streaming else response.content
            body = body.decode()
            assert not [s for s in secrets_ if s in body], (viewer, url)
    assert seen > 40  # the pages were read, not all refused
    # The moderator's record download (running games: theirs alone) has no salt.
    client.force_login(moderator)
    record = client.get(reverse("game_record", args=[game.pk]))
    assert record.status_code == 200 and game.deal_salt not in record.content.decode()
    # Emails: the role emails of a start, and a phase's.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        users = {k: UserFactory(player_name=k.title() + "2") for k in cast_users}
        other = make_game(moderator, users, start=False)
        services.game_start(game=other, by=moderator)
    other.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        services.phase_advance(game=other, by=moderator)
    assert mail.outbox
    for message in mail.outbox:
        bodies = [message.body, *(a[0] for a in message.alternatives)]
        assert not [b for b in bodies if other.deal_salt in b], message.subject


def test_the_salt_is_out_of_the_admin(admin_client, cast_game):
    response = admin_client.get(reverse("admin:games_game_change", args=[cast_game.pk]))
    assert response.status_code == 200
    html = response.content
    assert cast_game.deal_salt.encode() not in html
