"""German, end to end (issue 28): members choose German (on the profile, with the footer's
switcher, on the sign-up form) and play a whole Witchhunt game and a whole Werewolf game in
the browser. Every page they are shown says `<html lang="de">` and passes axe (conftest's
hook); the game page, the role page, the vote, a night action, the afterlife, the
moderator's desk and the final reveal read in German, and so does a post written before
narration was kept as meaning (a row as the data migration leaves it). Their emails arrive
in German, the others' in English; switching back to English shows the same posts in
English. Last, no English sentence of the catalog is left on any German page they saw.

The German words looked for are the catalog's own (`german.de`), so the tests follow the
translator's choices. Screenshots: docs/screenshots/de-game.png, de-role-night.png."""

import importlib
import re

import pytest
from django.core import mail
from django.utils import translation
from playwright.sync_api import expect

from games import queue, services, tasks
from games.models import Game, GameEvent, Post, Seat
from games.narration.said import post_words
from games.services.posts import post_number_next
from tests.e2e.conftest import sign_in, signed_in_page
from tests.e2e.german import GermanPages, de
from tests.factories import UserFactory
from tests.games.conftest import CAST, make_game, users_for

recover = importlib.import_module("games.migrations.0019_post_words_data").words_recover

PAGES = GermanPages()  # every German page of this file's games, for the last test

PASSWORD = "a-long-and-unusual-passphrase"


@pytest.fixture
def workers_in_process(monkeypatch):
    """The game emails' jobs and the account emails' task run their bodies at once in this
    process, as a worker would (the outbox's sending already does: tests/conftest.py), so
    the emails reach the outbox."""
    from accounts.tasks import send_account_email

    monkeypatch.setattr(
        send_account_email, "apply_async", lambda args, **_: send_account_email.run(*args)
    )
    queue.connect_job("game_role_emails", tasks.game_role_emails.run)
    queue.connect_job("game_phase_emails", tasks.game_phase_emails.run)
    yield
    queue.connect_job("game_role_emails", tasks.game_role_emails.delay)
    queue.connect_job("game_phase_emails", tasks.game_phase_emails.delay)


def _choose_german_on_the_profile(page, base):
    page.goto(f"{base}/accounts/profile/")
    page.locator("#id_language").select_option("de")
    page.locator("#profile-form button[type=submit]").click()
    PAGES.see(page)
    expect(page.get_by_role("heading", level=1)).to_have_text(de("Profile"))
    expect(page.locator(".message--success")).to_have_text(de("Your profile is saved."))


def _switch_language(page, code):
    """The footer's switcher: back to the same page, in `code`."""
    page.locator("#language-select").select_option(code)
    page.locator("footer form.language-form button[type=submit]").click()
    page.wait_for_load_state()


def _fieldset(page, legend):
    return page.locator("fieldset", has=page.locator("legend", has_text=legend))


def _post(page, text):
    PAGES.own_words.add(text)
    page.locator("#id_body").fill(text)  # its label is not marked yet: games/forms.py
    page.get_by_role("button", name=de("Post", "verb"), exact=True).click()
    expect(page.locator(".post").last).to_contain_text(text)


def _vote(page, seat):
    page.get_by_label(de("Your vote")).select_option(seat)
    page.get_by_role("button", name=de("Vote", "verb"), exact=True).click()
    PAGES.see(page)


def _old_style_post(game, name) -> Post:
    """A system post as the code before meaning stored it (its English in the body), then
    read back into meaning as the data migration does (migrations/0019)."""
    with translation.override("en"):
        text, html = post_words(
            {"kind": "replacement_wanted", "args": {"name": name}}, {}, "post__announcement"
        )
    post = Post.objects.create(
        game=game,
        number=post_number_next(game),
        kind="system",
        phase=game.phase,
        body=text,
        body_html=html,
    )
    assert recover(Post, GameEvent, Seat)[0] >= 1
    post.refresh_from_db()
    assert post.body == "" and post.words, "the migration read the old post back"
    return post


def _emails_to(user):
    return [m for m in mail.outbox if user.email in m.to]


# --- Witchhunt ----------------------------------------------------------------------------
@pytest.fixture
def village(db):
    """The named cast (Ann the Priest; Bob the Elder Witch, Hal the Junior), not started."""
    users = users_for(CAST)
    host = UserFactory(player_name="Host")
    game = make_game(host, users, CAST, start=False, title="Dorf am See", seed=5)
    PAGES.own_words.update({"Dorf am See", "Host", *(n for n, _, _ in CAST)})
    return game, users, host


@pytest.mark.django_db(transaction=True)
def test_a_whole_witchhunt_game_in_german(browser, live_server, village, workers_in_process,
                                          shot):  # fmt: skip
    game, users, host = village
    base = live_server.url
    url = f"{base}/games/{game.pk}/"

    # Ann and the moderator choose German on their profiles; Bob with the footer's switcher.
    ann = signed_in_page(browser, base, users["ann"])
    _choose_german_on_the_profile(ann, base)
    mod = signed_in_page(browser, base, host)
    _choose_german_on_the_profile(mod, base)
    bob = signed_in_page(browser, base, users["bob"])
    bob.goto(f"{base}/games/")
    _switch_language(bob, "de")
    PAGES.see(bob)
    users["bob"].refresh_from_db()
    assert users["bob"].language == "de"  # a member's switch is their choice

    # The start: each player's cards by email, in their own language.
    game = services.game_start(game=game, by=host)
    (ann_cards,) = _emails_to(users["ann"])
    assert ann_cards.subject.endswith(de("%(title)s has started: your cards", title=game.title))
    assert de("Priest", "card") in ann_cards.body
    (cat_cards,) = _emails_to(users["cat"])
    assert cat_cards.subject.endswith(f"{game.title} has started: your cards")

    # A post written before narration was kept as meaning, and one of this game.
    old = _old_style_post(game, "Dan")
    german_old = de("A replacement is wanted for %(name)s.", name="Dan")
    german_lynch = de("The town lynches %(player)s.", player="Bob")

    # Day 1: the game page, a post and a vote, in German.
    ann.goto(url)
    PAGES.see(ann)
    expect(ann.locator(f"#p{old.number}")).to_contain_text(german_old)
    _post(ann, "Bob ist mir zu still.")
    _vote(ann, "bob")
    expect(ann.locator(".vote-count li", has_text="Bob")).to_contain_text("Ann")
    shot(ann, "de-game")
    for voter in ("cat", "dan", "eve", "fay"):
        services.vote_cast(game=game, user=users[voter], target="bob")
    game.refresh_from_db()
    assert game.phase == "night 1"
    ann.goto(url)
    PAGES.see(ann)
    expect(ann.locator(".post--system").filter(has_text=german_lynch)).to_have_count(1)

    # Night 1: the Priest checks Hal on her role page.
    ann.goto(f"{url}role/")
    PAGES.see(ann)
    expect(ann.locator(".role-cards")).to_contain_text(de("Priest", "card"))
    form = _fieldset(ann, de("Check whether a player is in the Coven"))
    form.get_by_label(de("Player")).select_option("hal")
    form.locator("xpath=..").get_by_role("button", name=de("Submit")).click()
    PAGES.see(ann)
    expect(ann.get_by_role("button", name=re.compile(de("Withdraw")))).to_be_visible()
    shot(ann, "de-role-night")

    # Bob, lynched, reads the afterlife in German: every card, named in German.
    bob.goto(url)
    PAGES.see(bob)
    bob.get_by_role("link", name=de("The afterlife")).first.click()
    PAGES.see(bob)
    expect(bob.get_by_role("heading", name=de("The afterlife"), level=1)).to_be_visible()
    cards = bob.locator(".card-table")
    expect(cards.get_by_role("row", name=re.compile("Ann"))).to_contain_text(de("Priest", "card"))
    _post(bob, "Von hier sieht man alles.")

    # The moderator ends the night from the desk, in German.
    mod.goto(url)
    PAGES.see(mod)
    mod.get_by_role("link", name=de("The moderator’s desk")).click()
    PAGES.see(mod)
    expect(mod.get_by_role("heading", name=de("The moderator’s desk"))).to_be_visible()
    mod.get_by_role("button", name=de("Advance now")).click()
    PAGES.see(mod)
    night = de("night %(number)s", "in a sentence", number=1)
    expect(mod.get_by_role("heading", name=de("End %(phase)s now?", phase=night))).to_be_visible()
    mod.get_by_role("button", name=de("End %(phase)s now", phase=night)).click()
    PAGES.see(mod)
    game.refresh_from_db()
    assert game.phase == "day 2"

    # Day 2: Ann learnt that Hal is in the Coven; she, Cat, Dan and Eve lynch him, the
    # last Witch: the Village wins (W-70).
    ann.goto(url)
    PAGES.see(ann)
    _vote(ann, "hal")
    for voter in ("cat", "dan", "eve"):
        services.vote_cast(game=game, user=users[voter], target="hal")
    game.refresh_from_db()
    ann.goto(url)
    assert game.status == Game.Status.FINISHED and game.winner == "village"

    # The final reveal, in German, every card named in German.
    ann.goto(f"{url}reveal/")
    PAGES.see(ann)
    expect(ann.get_by_role("heading", level=1)).to_have_text(de("The final reveal"))
    expect(ann.get_by_role("row", name=re.compile(r"^Bob\b"))).to_contain_text(de("Judge", "card"))

    # The phases' emails came in German to Ann, in English to Cat.
    ann_news = [m for m in _emails_to(users["ann"]) if m is not ann_cards]
    cat_news = [m for m in _emails_to(users["cat"]) if m is not cat_cards]
    assert ann_news and len(ann_news) == len(cat_news)
    for german, english in zip(ann_news, cat_news, strict=True):
        assert german.subject != english.subject, german.subject
    assert any(de("Day %(number)s", number=2) in m.subject + m.body for m in ann_news)

    # Back to English with the switcher: the same posts, in English.
    ann.goto(f"{url}?page=1")
    _switch_language(ann, "en")
    PAGES.see(ann, lang="en")
    expect(ann.locator(f"#p{old.number}")).to_contain_text("A replacement is wanted for Dan.")
    expect(ann.locator(".post--system").filter(has_text="The town lynches Bob.")).to_have_count(1)
    expect(ann.get_by_text(german_old)).to_have_count(0)


# --- Werewolf -----------------------------------------------------------------------------
WOLVES = [("Ada", "seer", ""), ("Bob", "werewolf", ""), ("Martha", "villager", ""),
          ("Dan", "villager", "")]  # fmt: skip


def _sign_up_in_german(browser, base):
    """A visitor whose browser speaks English chooses German on the sign-up form."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB").new_page()
    page.goto(f"{base}/accounts/signup/")
    page.locator("#id_email").fill("ada@example.com")
    page.locator("#id_player_name").fill("Ada")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("#id_language").select_option("de")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    # (The page asking to confirm the address follows the browser still: the visitor is
    # not signed in until they confirm, and the choice is theirs only once they are.)
    return page


@pytest.mark.django_db(transaction=True)
def test_a_whole_werewolf_game_in_german(browser, live_server, workers_in_process):
    from allauth.account.models import EmailAddress

    from accounts.models import User

    base = live_server.url
    ada_page = _sign_up_in_german(browser, base)
    ada = User.objects.get(player_name="Ada")
    assert ada.language == "de"
    (confirm,) = _emails_to(ada)  # the address's confirmation, in German
    assert de(
        "If you did not sign up for %(site_name)s, ignore this email: nobody can sign in "
        "with this address until it is confirmed.",
        site_name="Witchhunt",
    ).split(":")[0] in " ".join(confirm.body.split())
    EmailAddress.objects.filter(user=ada).update(verified=True)
    ada_page.context.close()

    users = {"ada": ada} | {n.lower(): UserFactory(player_name=n) for n, _, _ in WOLVES[1:]}
    host = UserFactory(player_name="Host", language="de")
    PAGES.own_words.update({"Mondsee", "Host", *(n for n, _, _ in WOLVES)})
    game = make_game(host, users, WOLVES, ruleset="werewolf", title="Mondsee",
                     options={"reveal_on_death": True})  # fmt: skip
    url = f"{base}/games/{game.pk}/"
    (cards,) = _emails_to(ada)[1:]
    assert cards.subject.endswith(de("%(title)s has started: your cards", title="Mondsee"))
    assert de("Seer", "werewolf role") in cards.body

    # Day 1 ends without a lynch from the desk; on Night 1 the Seer looks at Bob.
    mod = signed_in_page(browser, base, host)
    mod.goto(f"{url}desk/")
    PAGES.see(mod)
    mod.get_by_role("button", name=de("Advance now")).click()
    PAGES.see(mod)
    day = de("day %(number)s", "in a sentence", number=1)
    mod.get_by_role("button", name=de("End %(phase)s now", phase=day)).click()
    PAGES.see(mod)

    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    sign_in(page, base, ada.email, PASSWORD)  # her browser speaks English; she chose German
    PAGES.see(page)
    page.goto(f"{url}role/")
    PAGES.see(page)
    expect(page.locator(".role-cards")).to_contain_text(de("Seer", "werewolf role"))
    form = page.locator("fieldset").first
    form.get_by_label(de("Player")).select_option("bob")
    form.locator("xpath=..").get_by_role("button", name=de("Submit")).click()
    PAGES.see(page)
    expect(page.get_by_role("button", name=re.compile(de("Withdraw")))).to_be_visible()
    services.action_submit(game=game, user=users["bob"], action="pack", target="martha")
    services.phase_advance(game=game, by=host)

    # Day 2: Martha's card is shown in German; Ada and Dan lynch Bob, and the village wins.
    page.goto(url)
    PAGES.see(page)
    expect(page.locator(".post--system").filter(has_text="Martha").last).to_contain_text(
        de("Villager", "werewolf role")
    )
    _vote(page, "bob")
    services.vote_cast(game=game, user=users["dan"], target="bob")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "village"
    page.goto(f"{url}reveal/")
    PAGES.see(page)
    expect(page.get_by_role("heading", level=1)).to_have_text(de("The final reveal"))
    expect(page.get_by_role("row", name=re.compile(r"^Bob\b"))).to_contain_text(
        de("Werewolf", "werewolf role")
    )
    assert all("Mondsee" in m.subject for m in _emails_to(ada)[1:])


# --- nothing English left -----------------------------------------------------------------
def test_no_english_sentence_of_ours_is_left_on_the_german_pages():
    """Run after the two games above (it reads the pages they saw): of each German page's
    visible words, less the players' own, no msgid of the catalog (four words or more)."""
    assert PAGES.seen, "run with the whole-game tests above: they collect the pages"
    left = PAGES.leftovers()
    lines = [f"{url}: {msgid!r}" for url, msgids in left.items() for msgid in msgids]
    assert not left, f"{len(lines)} English sentences left:\n" + "\n".join(lines)
