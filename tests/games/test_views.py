"""The game pages with the named cast: lobby, new game, join/leave/start, the thread, the
vote, the role page, the reveal and the record, each through its view."""

import io
import json
import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import records
from games.forms import parse_cards
from games.mapping import engine_state, record_result
from games.models import Game, GameEvent, Post
from tests.factories import UserFactory
from tests.games.conftest import make_game

pytestmark = pytest.mark.django_db


def _text(response):
    """A page's visible text: tags dropped, entities and spaces normalised."""
    import html as html_lib

    body = response.content.decode()
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", body, flags=re.S)
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", body)))


def _classes(html):
    """The class attribute of every element of `html`, in order (text is not markup)."""
    from html.parser import HTMLParser

    found = []

    class Parser(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.extend(v for k, v in attrs if k == "class")

    Parser().feed(html)
    return found


def _messages(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


def url(name, game, **kwargs):
    return reverse(name, args=[game.pk], **kwargs)


@pytest.fixture
def as_user(client):
    def login(user):
        client.force_login(user)
        return client

    return login


# --- the lobby --------------------------------------------------------------------------------
def test_lobby_lists_open_running_and_finished_games(client, cast_game, moderator, cast_users):
    open_game = make_game(moderator, cast_users, start=False)
    Game.objects.filter(pk=open_game.pk).update(title="Still open")
    response = client.get(reverse("game_list"))
    html = response.content.decode()
    sections = re.split(r'<h2 id="(?:open|running|finished)-games">', html)
    assert "Still open" in sections[1] and "8 of 8 seats taken" in sections[1]
    assert "The named cast" in sections[2] and "Day 1" in sections[2]
    assert "No game has finished yet." in sections[3]
    assert "New game" not in html


def test_lobby_offers_new_game_to_hosts_only(client, host, cast_users):
    new_game = f'href="{reverse("game_new")}">New game</a>'
    client.force_login(cast_users["ann"])
    html = client.get(reverse("game_list")).content.decode()
    # A member who may not host is pointed to how to become one instead.
    assert new_game not in html
    assert f'href="{reverse("game_new")}">How to become a host</a>' in html
    client.force_login(host)
    html = client.get(reverse("game_list")).content.decode()
    assert new_game in html and "How to become a host" not in html


# --- a new game -------------------------------------------------------------------------------
def test_new_game_page_is_for_hosts_only(client, cast_users):
    response = client.get(reverse("game_new"))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    client.force_login(cast_users["ann"])
    assert client.get(reverse("game_new")).status_code == 403
    assert client.post(reverse("game_new"), {"title": "x"}).status_code == 403
    assert not Game.objects.exists()


NEW_GAME = {
    "ruleset": "witchhunt",
    "title": "Salem",
    "seats_count": 4,
    "deal_mode": "explicit",
    "shuffle": "on",
    "day_hours": 48,
    "night_hours": 12,
    "stalemate_cycles": 3,
    "public_setup": "on",
    "reminder_hours": "24, 1",
}


def test_new_game_shows_every_problem_at_once(client, host):
    client.force_login(host)
    cards = "priest basic_villager\npriest elder_witch\njudge elder_witch\nhal wizard\n"
    response = client.post(reverse("game_new"), {**NEW_GAME, "cards": cards})
    text = _text(response)
    assert response.status_code == 200
    assert "This deal cannot be played yet" in text
    assert "'hal' is not a witchhunt card" in text  # an unknown character, by line
    assert not Game.objects.exists()

    cards = "priest basic_villager\npriest elder_witch\njudge elder_witch"
    response = client.post(reverse("game_new"), {**NEW_GAME, "cards": cards})
    assert "The deal lists 3 cards for 4 seats." in _text(response)
    response = client.post(reverse("game_new"), {**NEW_GAME, "seats_count": 3, "cards": cards})
    problems = [str(p) for p in response.context["form"].non_field_errors()]
    # Every engine problem at once, named by the host's own lines (W-22, W-23).
    assert problems == [
        "Card 1: Priest is Holy and must be a Holy Villager (W-22)",
        "Priest is dealt twice (card 1 and card 2); characters are unique",
        "Card 2: Priest is Holy and must be a Holy Villager (W-22)",
        "Witches must be fewer than Villagers (2 Witches, 1 Villagers)",
    ]
    assert not Game.objects.exists()


def test_new_game_with_only_warnings_needs_a_second_deliberate_submit(client, host):
    client.force_login(host)
    cards = "gambler, basic villager\nRecluse basic_villager\njudge elder_witch\n"
    cards += "survivalist basic_villager\nwizard junior_witch"
    data = {**NEW_GAME, "seats_count": 5, "cards": cards}
    response = client.post(reverse("game_new"), data)
    text = _text(response)
    assert "Please check these warnings" in text and "two thirds" in text
    assert "Create the game despite the warnings" in text
    assert not Game.objects.exists()
    response = client.post(reverse("game_new"), {**data, "accept_warnings": "on"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == url("game_detail", game)
    assert game.deal["cards"][0] == {"character": "gambler", "type": "basic_villager"}


def test_new_game_explicit_deal_creates_the_game(client, host):
    client.force_login(host)
    cards = "Priest, Holy Villager\ndirty old bastard basic_villager\ngambler basic_villager\n"
    cards += "# the Witch\njudge elder_witch\ncupid village_lover\nharlot village_lover\n"
    response = client.post(
        reverse("game_new"),
        {
            **NEW_GAME,
            "seats_count": 6,
            "cards": cards,
            "shuffle": "",
            "archangel_cards": 2,
            "reminder_hours": "1, 12",
            "early_end": "on",
            "early_end_grace": 30,
        },
        follow=True,
    )
    game = Game.objects.get()
    assert response.redirect_chain[-1][0] == url("game_detail", game)
    assert "The game is open" in _text(response)
    assert game.host == host and game.status == Game.Status.OPEN and game.seats_count == 6
    assert game.deal["shuffle"] is False and len(game.deal["cards"]) == 6
    assert game.deal["cards"][1] == {"character": "dirty_old_bastard", "type": "basic_villager"}
    assert game.options == {"stalemate_cycles": 3, "public_setup": True, "archangel_cards": 2}
    assert game.day_length.total_seconds() == 48 * 3600
    assert game.night_length.total_seconds() == 12 * 3600
    assert game.early_end is True and game.reminder_hours == [12, 1]
    assert game.early_end_grace.total_seconds() == 30 * 60  # W-2a's grace, in minutes


def test_new_game_offers_the_early_end_grace_and_refuses_one_out_of_range(client, host):
    client.force_login(host)
    page = _text(client.get(reverse("game_new")))
    assert "Early end: grace period (minutes)" in page
    for minutes in (4, 2881):
        response = client.post(
            reverse("game_new"),
            {
                **NEW_GAME,
                "cards": "judge elder_witch",
                "early_end": "on",
                "early_end_grace": minutes,
            },
        )
        assert "Ensure this value is" in _text(response)
    assert not Game.objects.exists()
    cards = (
        "priest holy_villager\ngambler basic_villager\nrecluse basic_villager\njudge elder_witch"
    )
    response = client.post(reverse("game_new"), {**NEW_GAME, "cards": cards, "early_end": "on"})
    assert response.status_code == 302
    assert Game.objects.get().early_end_grace.total_seconds() == 3600  # one hour unless set


def test_new_game_refuses_bad_reminder_hours(client, host):
    client.force_login(host)
    for hours, error in (("soon", "Give whole numbers"), ("0", "between 1 and 168")):
        response = client.post(
            reverse("game_new"),
            {**NEW_GAME, "cards": "judge elder_witch", "reminder_hours": hours},
        )
        assert error in _text(response)
    assert not Game.objects.exists()


def test_new_game_werewolf_pool_deal(client, host):
    client.force_login(host)
    response = client.post(
        reverse("game_new"),
        {
            **NEW_GAME,
            "ruleset": "werewolf",
            "seats_count": 7,
            "deal_mode": "pool",
            "roles": ["seer", "witch", "fool"],
            "werewolves": 2,
            "specials": 2,
            "reveal_on_death": "on",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert game.deal == {"mode": "pool", "roles": ["seer", "witch", "fool"], "werewolves": 2,
                         "specials": 2}  # fmt: skip
    assert game.options == {"reveal_on_death": True}


def test_new_game_witchhunt_pool_problems_are_shown(client, host):
    client.force_login(host)
    response = client.post(
        reverse("game_new"),
        {
            **NEW_GAME,
            "seats_count": 5,
            "deal_mode": "pool",
            "characters": ["judge", "gambler", "recluse"],
            "count_basic_villager": 3,
            "count_elder_witch": 1,
        },
    )
    assert "The type counts add up to 4, not 5 seats." in _text(response)
    assert not Game.objects.exists()


def test_parse_cards_reads_keys_names_and_counts():
    cards, problems = parse_cards("2 x villager\nWere-Hamster\n\n# a comment\nseer", "werewolf")
    assert [c["role"] for c in cards] == ["villager", "villager", "were_hamster", "seer"]
    cards, problems = parse_cards(
        "dirty old bastard basic villager\nBenevolent Old Dame, Village Lover\npriest",
        "witchhunt",
    )
    assert cards == [
        {"character": "dirty_old_bastard", "type": "basic_villager"},
        {"character": "benevolent_old_dame", "type": "village_lover"},
    ]
    assert problems and problems[0].startswith("Line 3:")


# --- join, leave, start -------------------------------------------------------------------------
def test_join_leave_and_start_through_the_pages(client, moderator, cast_users):
    game = make_game(moderator, cast_users, start=False)
    ann = cast_users["ann"]
    client.force_login(ann)
    response = client.post(url("game_leave", game), follow=True)
    assert "You have left the game." in _messages(response)
    assert not game.seats.filter(user=ann).exists()
    assert "Join the game" in _text(response)
    response = client.post(url("game_join", game), follow=True)
    assert "You have joined the game." in _messages(response)
    response = client.post(url("game_join", game), follow=True)
    assert "You have already joined this game." in _messages(response)
    response = client.post(url("game_start", game), follow=True)
    assert "Only the game's moderator can start it." in _messages(response)

    client.force_login(moderator)
    assert "Start the game" in _text(client.get(url("game_detail", game)))
    response = client.post(url("game_start", game), follow=True)
    assert "The game has started: every seat has its cards." in _messages(response)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.phase == "day 1"


def test_join_a_full_game_is_refused_with_the_reason(client, moderator, cast_users):
    game = make_game(moderator, cast_users, start=False)
    client.force_login(UserFactory(player_name="Late"))
    assert "Every seat is taken." in _text(client.get(url("game_detail", game)))
    response = client.post(url("game_join", game), follow=True)
    assert "This game is full." in _messages(response)
    assert game.seats.count() == 8


def test_anonymous_visitor_reads_the_thread_but_is_asked_to_sign_in(client, cast_game):
    response = client.get(url("game_detail", cast_game))
    assert response.status_code == 200
    assert "Day 1 begins." in _text(response) and "Sign in to take part." in _text(response)
    response = client.post(url("game_vote", cast_game), {"target": "bob"})
    assert response.status_code == 302 and reverse("account_login") in response["Location"]


# --- the thread ---------------------------------------------------------------------------------
def test_post_is_markdown_sanitised_numbered_and_shown(as_user, cast_game, cast_users):
    client = as_user(cast_users["ann"])
    body = "I suspect **Bob**.\n\n<script>alert(1)</script> [x](javascript:alert(1))"
    response = client.post(url("game_post", cast_game), {"body": body})
    post = Post.objects.get(game=cast_game, kind="player")
    assert response["Location"] == f"{url('game_detail', cast_game)}?page=1#p{post.number}"
    html = client.get(response["Location"]).content.decode()
    assert f'id="p{post.number}"' in html and "<strong>Bob</strong>" in html
    assert "<script>alert" not in html and "javascript:" not in html


def test_post_refused_at_night_shows_the_reason_and_keeps_the_text(as_user, cast_game, cast_users):
    services.phase_advance(game=cast_game, by=cast_game.host)
    client = as_user(cast_users["ann"])
    page = _text(client.get(url("game_detail", cast_game)))
    assert "Nobody posts in the public thread at night." in page
    assert "Write a post" not in page
    response = client.post(
        url("game_post", cast_game), {"body": "My careful night thoughts"}, follow=True
    )
    assert response.redirect_chain == [(url("game_detail", cast_game), 302)]
    assert "Nobody posts in the public thread at night." in _text(response)
    assert "My careful night thoughts" in response.content.decode()  # nothing is lost
    assert not Post.objects.filter(kind="player").exists()


def test_post_nested_too_deep_is_refused_with_the_reason_and_keeps_the_text(
    as_user, cast_game, cast_users
):
    """Thousands of nested list markers crashed the old renderer: a 500, the post lost."""
    client = as_user(cast_users["ann"])
    for body in ("My case:\n\n" + "- " * 3000 + "Bob", "My case:\n\n" + "> " * 17 + "Bob"):
        response = client.post(url("game_post", cast_game), {"body": body}, follow=True)
        assert response.status_code == 200
        assert "A post can nest quotes and lists at most 16 deep." in _text(response)
        assert response.context["post_form"]["body"].value() == body
        assert body.replace(">", "&gt;") in response.content.decode()  # in the textarea
    assert not Post.objects.filter(kind="player").exists()


def test_dead_player_cannot_post(as_user, cast_game, cast_users):
    for voter in ("ann", "cat", "dan", "eve", "fay"):
        services.vote_cast(game=cast_game, user=cast_users[voter], target="dan")
    services.phase_advance(game=cast_game, by=cast_game.host)  # night 1 ends: day 2
    client = as_user(cast_users["dan"])
    assert "The dead never post in the public thread." in _text(
        client.get(url("game_detail", cast_game))
    )
    response = client.post(url("game_post", cast_game), {"body": "from beyond"}, follow=True)
    assert "The dead cannot post in the public thread." in _text(response)
    assert not Post.objects.filter(kind="player").exists()


def test_empty_post_is_refused_with_a_form_error(as_user, cast_game, cast_users):
    client = as_user(cast_users["ann"])
    response = client.post(url("game_post", cast_game), {"body": "   "}, follow=True)
    assert response.status_code == 200 and "This field is required." in _text(response)


def test_a_refused_post_redirects_so_a_reload_never_posts_it(as_user, cast_game, cast_users):
    """The refusal's page is the thread's own address, its text and reason kept once: a
    reload (another GET) shows the thread, and posting it needs another press."""
    services.phase_advance(game=cast_game, by=cast_game.host)  # night: nobody posts
    client = as_user(cast_users["ann"])
    response = client.post(url("game_post", cast_game), {"body": "Night thoughts", "reply_to": 1})
    assert response.status_code == 302
    assert response["Location"] == url("game_detail", cast_game)
    page = client.get(response["Location"])
    assert "Nobody posts in the public thread at night." in _text(page)
    assert page.context["post_form"]["body"].value() == "Night thoughts"
    assert page.context["post_form"]["reply_to"].value() == "1"
    again = client.get(response["Location"])  # the reload: the kept text is gone, once shown
    assert "Night thoughts" not in again.content.decode()
    assert not Post.objects.filter(kind="player").exists()


def test_reply_prefills_a_quote_and_links_to_the_source(as_user, cast_game, cast_users):
    first = services.post_create(game=cast_game, user=cast_users["bob"], body="I am innocent")
    client = as_user(cast_users["ann"])
    page = client.get(url("game_detail", cast_game) + f"?reply={first.number}")
    form = page.context["post_form"]
    assert form.initial == {
        "body": f"> **Bob** wrote in #{first.number}:\n> I am innocent\n\n",
        "reply_to": first.number,
    }
    client.post(url("game_post", cast_game), {"body": "Sure.", "reply_to": first.number})
    reply = Post.objects.get(body="Sure.")
    assert reply.reply_to == first
    html = client.get(url("game_detail", cast_game), follow=True).content.decode()
    assert f'In reply to <a href="{url("game_detail", cast_game)}?page=1#p{first.number}">' in html
    quote = client.get(url("game_detail", cast_game) + f"?quote={first.number}")
    assert quote.context["post_form"].initial["body"].startswith("> **Bob** wrote")
    assert "reply_to" not in quote.context["post_form"].initial


def test_only_filter_shows_one_players_posts(as_user, cast_game, cast_users):
    services.post_create(game=cast_game, user=cast_users["ann"], body="Ann speaks")
    services.post_create(game=cast_game, user=cast_users["bob"], body="Bob speaks")
    client = as_user(cast_users["cat"])
    text = _text(client.get(url("game_detail", cast_game) + "?only=bob"))
    assert "Bob speaks" in text and "Ann speaks" not in text and "Day 1 begins." not in text
    assert "Showing only Bob’s posts." in text
    # An unknown player filters nothing rather than hiding everything.
    assert "Ann speaks" in _text(client.get(url("game_detail", cast_game) + "?only=zed"))


def test_thread_is_paginated_fifty_posts_a_page(as_user, cast_game, cast_users):
    first = Post.objects.filter(game=cast_game).count()
    Post.objects.bulk_create(
        Post(
            game=cast_game,
            number=first + i,
            kind="player",
            seat=cast_game.seats.get(name="ann"),
            author=cast_users["ann"],
            body=f"post {i}",
            body_html=f"<p>post {i}</p>",
            phase="day 1",
        )
        for i in range(1, 61)
    )
    client = as_user(cast_users["cat"])
    page1 = client.get(url("game_detail", cast_game)).content.decode()
    page2 = client.get(url("game_detail", cast_game) + "?page=2").content.decode()
    total = first + 60
    assert page1.count('class="post post--') == 50
    assert page2.count('class="post post--') == total - 50
    assert 'href="?page=2"' in page1 and f'id="p{total}"' in page2
    assert f'id="p{first + 60}"' not in page1


def test_system_posts_are_distinct_and_cannot_be_imitated(as_user, cast_game, cast_users):
    client = as_user(cast_users["ann"])
    forged = (
        '<li class="post post--system"><p class="post__label">Announcement</p></li>\n\n'
        "Announcement: Bob has died."
    )
    client.post(url("game_post", cast_game), {"body": forged})
    post = Post.objects.get(kind="player")
    assert _classes(post.body_html) == []  # the markup came out as text
    html = client.get(url("game_detail", cast_game)).content.decode()
    system = Post.objects.filter(game=cast_game, kind="system").count()
    classes = _classes(html)
    assert system >= 1
    assert classes.count("post post--system") == system
    assert classes.count("post__label") == system
    assert classes.count("post post--player") == 1


# --- votes ------------------------------------------------------------------------------------
def test_vote_count_and_lynch_through_the_views(as_user, cast_game, cast_users):
    for voter in ("ann", "cat"):
        as_user(cast_users[voter]).post(url("game_vote", cast_game), {"target": "bob"})
    client = as_user(cast_users["dan"])
    text = _text(client.get(url("game_detail", cast_game)))
    assert "With 8 alive it takes 5 to lynch." in text
    assert "Bob (2): Ann, Cat L-3" in text
    assert "Not voting (6): Bob, Dan, Eve, Fay, Gus, Hal" in text
    for voter in ("dan", "eve"):
        as_user(cast_users[voter]).post(url("game_vote", cast_game), {"target": "bob"})
    response = as_user(cast_users["fay"]).post(
        url("game_vote", cast_game), {"target": "bob"}, follow=True
    )
    text = _text(response)
    assert "The town lynches Bob." in text and "Bob has died." in text
    assert "Night 1 begins." in text and "No day vote at night" in text
    cast_game.refresh_from_db()
    assert cast_game.phase == "night 1"
    assert "Ann votes to lynch Bob." in text  # the vote history


def test_unvote_and_a_refused_vote_show_their_outcome(as_user, cast_game, cast_users):
    client = as_user(cast_users["ann"])
    client.post(url("game_vote", cast_game), {"target": "bob"})
    assert "Withdraw my vote for Bob" in _text(client.get(url("game_detail", cast_game)))
    response = client.post(url("game_unvote", cast_game), follow=True)
    assert "Your vote is withdrawn." in _messages(response)
    assert engine_state(Game.objects.get(pk=cast_game.pk)).tally() == []
    response = client.post(url("game_unvote", cast_game), follow=True)
    assert "You have no vote to withdraw." in _messages(response)
    response = client.post(url("game_vote", cast_game), {"target": "nobody"}, follow=True)
    assert "Nobody is not a living player." in _messages(response)
    response = client.post(url("game_vote", cast_game), {}, follow=True)
    assert "Choose a player to vote for." in _messages(response)


def test_outsider_vote_is_refused(as_user, cast_game):
    client = as_user(UserFactory(player_name="Zed"))
    response = client.post(url("game_vote", cast_game), {"target": "bob"}, follow=True)
    assert "You are not playing in this game." in _messages(response)


# --- the role page and the night ---------------------------------------------------------------
def test_role_page_shows_cards_knowledge_and_no_forms_for_others(as_user, cast_game, cast_users):
    text = _text(as_user(cast_users["bob"]).get(url("game_role", cast_game)))
    assert "Judge" in text and "Elder Witch" in text
    assert "privately determine it yourself" in text  # the card's ability text
    assert "The Junior Witches and Village Spies: Cat, Hal — 1 Witch among them." in text
    assert "Name the player to lynch if the town fails" in text  # the Judge's day pick


def test_night_action_submit_withdraw_and_the_morning(as_user, cast_game, cast_users):
    services.phase_advance(game=cast_game, by=cast_game.host)
    ann = as_user(cast_users["ann"])  # the Priest
    page = _text(ann.get(url("game_role", cast_game)))
    assert "Check whether a player is in the Coven" in page
    response = ann.post(
        url("game_act", cast_game), {"action": "ability", "targets": ["bob"]}, follow=True
    )
    assert _messages(response) == ["Submitted: Check whether a player is in the Coven (Bob)."]
    text = _text(response)
    assert "Ability: Bob" in text and "Withdraw" in text
    response = ann.post(url("game_withdraw", cast_game), {"what": "ability"}, follow=True)
    assert _messages(response) == ["You withdrew your ability."]
    response = ann.post(url("game_withdraw", cast_game), {"what": "ability"}, follow=True)
    assert "You have no ability to withdraw." in _messages(response)
    ann.post(url("game_act", cast_game), {"action": "ability", "targets": ["bob"]})

    bob = as_user(cast_users["bob"])  # the Elder: the Coven's vote
    response = bob.post(
        url("game_act", cast_game), {"action": "coven", "target": "dan"}, follow=True
    )
    assert "Coven vote: Dan" in _text(response)
    response = bob.post(
        url("game_act", cast_game), {"action": "pack", "target": "dan"}, follow=True
    )
    assert "There is no pack in Witchhunt." in _messages(response)

    services.midnight_pass(game=cast_game)
    response = bob.get(url("game_role", cast_game))
    assert "locked" in _text(response)  # the Coven's target locked at midnight (W-3)
    response = bob.post(url("game_withdraw", cast_game), {"what": "coven"}, follow=True)
    assert "It was locked at midnight." in _messages(response)

    services.phase_advance(game=cast_game, by=cast_game.host)
    text = _text(as_user(cast_users["cat"]).get(url("game_detail", cast_game)))
    assert "Day 2 begins." in text and "Dan has died." in text
    text = _text(as_user(cast_users["ann"]).get(url("game_role", cast_game)))
    assert "Priest’s check: Bob is in the Coven." in text.replace("'", "’")


def test_role_page_is_the_seats_own(client, cast_game, cast_users, moderator):
    assert client.get(url("game_role", cast_game)).status_code == 404
    for user in (moderator, UserFactory(player_name="Zed")):
        client.force_login(user)
        assert client.get(url("game_role", cast_game)).status_code == 404
        response = client.post(url("game_act", cast_game), {"action": "coven", "target": "dan"})
        assert response.status_code == 404
    assert client.get(reverse("game_role", args=[999999])).status_code == 404
    client.force_login(cast_users["ann"])
    response = client.get(url("game_role", cast_game))
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"] and "private" in response["Cache-Control"]


def test_role_page_before_the_start_says_the_cards_come_later(as_user, moderator, cast_users):
    game = make_game(moderator, cast_users, start=False)
    text = _text(as_user(cast_users["ann"]).get(url("game_role", game)))
    assert "The cards are dealt when the moderator starts the game." in text


def test_bad_action_form_is_refused_without_a_step(as_user, cast_game, cast_users):
    services.phase_advance(game=cast_game, by=cast_game.host)
    client = as_user(cast_users["bob"])
    before = cast_game.inputs.count()
    response = client.post(url("game_act", cast_game), {"action": "explode"}, follow=True)
    assert "That is not a valid action." in _messages(response)
    response = client.post(url("game_act", cast_game), {"action": "coven"}, follow=True)
    assert "Choose a player." in _messages(response)
    assert cast_game.inputs.count() == before


def test_offstage_last_act_seat_is_shown_no_afterlife(as_user, moderator, cast_users):
    cast = [
        ("Ann", "priest", "holy_villager"),
        ("Bob", "judge", "elder_witch"),
        ("Cat", "dirty_old_bastard", "basic_villager"),
        ("Dan", "gravedigger", "basic_villager"),
        ("Eve", "inquisitor", "basic_villager"),
    ]
    game = make_game(moderator, cast_users, cast=cast)
    for voter in ("ann", "bob", "dan"):
        services.vote_cast(game=game, user=cast_users[voter], target="cat")
    text = _text(as_user(cast_users["cat"]).get(url("game_role", game)))
    assert "Your death has been announced. You may still use your last act" in text
    assert "Last act: kill a player (or decline)" in text
    assert "Angel" not in text and "Demon" not in text and "Protect" not in text
    # The public sees a death, never "offstage" (W-14a).
    game_page = _text(as_user(cast_users["ann"]).get(url("game_detail", game)))
    assert "offstage" not in game_page.lower() and "Cat has died." in game_page


def test_dead_villager_is_an_angel_with_the_protect_vote(as_user, cast_game, cast_users):
    for voter in ("ann", "cat", "dan", "eve", "fay"):
        services.vote_cast(game=cast_game, user=cast_users[voter], target="dan")
    text = _text(as_user(cast_users["dan"]).get(url("game_role", cast_game)))
    assert "You are dead: an Angel in the afterlife" in text
    assert "Protect (the Angels’ vote)" in text.replace("'", "’")


# --- moderator -----------------------------------------------------------------------------------
def test_advance_now_is_the_moderators(as_user, cast_game, cast_users, moderator):
    response = as_user(cast_users["ann"]).post(url("game_advance", cast_game), follow=True)
    assert "Only the game's moderator can advance the game." in _messages(response)
    assert "Advance now" not in _text(response)
    client = as_user(moderator)
    assert "Advance now" in _text(client.get(url("game_detail", cast_game)))
    # Asked first, for the phase the page showed (tests/games/test_advance_once.py).
    asked = client.post(url("game_advance", cast_game), {"phase": "day 1"})
    assert "End Day 1 now?" in _text(asked)
    response = client.post(
        url("game_advance", cast_game), {"phase": "day 1", "confirm": "yes"}, follow=True
    )
    assert "Day 1 has ended." in _messages(response)
    cast_game.refresh_from_db()
    assert cast_game.phase == "night 1"


def test_post_times_are_in_the_viewers_time_zone(client, cast_game, cast_users):
    with time_machine.travel(datetime(2030, 1, 1, 12, 0, tzinfo=UTC), tick=False):
        services.post_create(game=cast_game, user=cast_users["ann"], body="noon UTC")
    viewer = cast_users["cat"]
    viewer.time_zone = "Asia/Tokyo"
    viewer.save()
    client.force_login(viewer)
    html = client.get(url("game_detail", cast_game) + "?only=ann").content.decode()
    assert 'datetime="2030-01-01T21:00:00+09:00">Tue 1 Jan, 21:00</time>' in html


# --- the end: reveal and record ---------------------------------------------------------------
def _play_to_the_end(game, users):
    """Bob (the Elder) lynched on Day 1; Hal joins the Coven and is lynched on Day 2."""
    for voter in ("ann", "cat", "dan", "eve", "fay"):
        services.vote_cast(game=game, user=users[voter], target="bob")
    services.action_submit(game=game, user=users["ann"], action="ability", targets=["hal"])
    services.phase_advance(game=game, by=game.host)
    for voter in ("ann", "cat", "dan", "eve"):
        services.vote_cast(game=game, user=users[voter], target="hal")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "village"
    return game


def test_reveal_only_for_a_finished_game(client, cast_game, cast_users, moderator):
    client.force_login(moderator)
    assert client.get(url("game_reveal", cast_game)).status_code == 404
    game = _play_to_the_end(cast_game, cast_users)
    client.logout()
    response = client.get(url("game_reveal", game))
    text = _text(response)
    assert response.status_code == 200
    assert "The Village won on Day 2." in text
    cards = ["Priest", "Judge", "Oracle", "Gravedigger", "Inquisitor", "Cupid", "Harlot",
             "Wizard", "Elder Witch", "Junior Witch", "Village Spy", "Village Lover"]  # fmt: skip
    for card in cards:
        assert card in text
    assert response.content.decode().count("badge--win") == 6  # the six Villagers (W-70)
    # The whole log: private results and the moderator's log too (W-71).
    assert "Priest’s check: Hal is in the Coven." in text.replace("'", "’")
    assert "Kill attempt on Bob (lynch): died." in text
    assert "Your fellow Elder Witches: nobody." in text
    assert re.search(r"the moderator\s+Kill attempt", text)


def test_game_page_of_a_finished_game_links_the_reveal(client, cast_game, cast_users):
    game = _play_to_the_end(cast_game, cast_users)
    client.force_login(cast_users["ann"])
    text = _text(client.get(url("game_detail", game)))
    assert "The game is over: the Village wins." in text
    assert "See the final reveal" in text and "Write a post" in text  # talk it over


def test_record_download_replays_to_the_same_result(client, cast_game, cast_users, tmp_path):
    game = _play_to_the_end(cast_game, cast_users)
    response = client.get(url("game_record", game))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert 'attachment; filename="witchhunt-game-' in response["Content-Disposition"]
    path = tmp_path / "record.json"
    path.write_bytes(response.content)
    out = io.StringIO()
    call_command("play_record", str(path), stdout=out)
    replayed = json.loads(out.getvalue())
    expected = json.loads(records.dumps(record_result(game)))
    assert replayed == expected
    assert replayed["final"]["winner"] == "village" and replayed["refused"] == []
    assert replayed["log"][0]["lynch"] == "bob"


def test_record_of_a_running_game_is_the_moderators(client, cast_game, cast_users, moderator):
    assert client.get(url("game_record", cast_game)).status_code == 404
    client.force_login(cast_users["bob"])
    assert client.get(url("game_record", cast_game)).status_code == 404
    client.force_login(moderator)
    response = client.get(url("game_record", cast_game))
    assert response.status_code == 200 and "no-cache" in response["Cache-Control"]
    assert json.loads(response.content)["players"][1] == {
        "name": "bob",
        "character": "judge",
        "type": "elder_witch",
    }


# --- mutations are POST with CSRF ----------------------------------------------------------------
MUTATING = [
    "game_post",
    "game_join",
    "game_leave",
    "game_start",
    "game_advance",
    "game_vote",
    "game_unvote",
    "game_act",
    "game_withdraw",
]


@pytest.mark.slow
@pytest.mark.parametrize("name", MUTATING)
def test_get_on_a_mutating_url_is_refused(client, cast_game, cast_users, moderator, name):
    before = (GameEvent.objects.count(), Post.objects.count(), cast_game.seats.count())
    for user in (None, cast_users["ann"], moderator):
        if user:
            client.force_login(user)
        response = client.get(url(name, cast_game), {"target": "bob", "body": "x"})
        assert response.status_code == 405
    assert (GameEvent.objects.count(), Post.objects.count(), cast_game.seats.count()) == before


def test_csrf_is_enforced_on_mutations(cast_game, cast_users):
    client = Client(enforce_csrf_checks=True)
    client.force_login(cast_users["ann"])
    assert client.post(url("game_vote", cast_game), {"target": "bob"}).status_code == 403
    assert client.post(url("game_post", cast_game), {"body": "hi"}).status_code == 403
    assert engine_state(Game.objects.get(pk=cast_game.pk)).tally() == []
    page = client.get(url("game_detail", cast_game))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
    response = client.post(
        url("game_vote", cast_game), {"target": "bob", "csrfmiddlewaretoken": token.group(1)}
    )
    assert response.status_code == 302
    assert engine_state(Game.objects.get(pk=cast_game.pk)).tally() == [("bob", ["ann"])]


# --- Werewolf -------------------------------------------------------------------------------------
def test_werewolf_pack_vote_and_seer_through_the_role_page(as_user, moderator, cast_users):
    cast = [
        ("Ann", "seer", ""),
        ("Bob", "werewolf", ""),
        ("Cat", "villager", ""),
        ("Dan", "villager", ""),
        ("Eve", "witch", ""),
    ]
    game = make_game(moderator, cast_users, cast=cast, ruleset="werewolf")
    text = _text(as_user(cast_users["bob"]).get(url("game_role", game)))
    assert "Werewolf" in text and "Your fellow Werewolves: nobody." in text
    services.phase_advance(game=game, by=moderator)
    bob = as_user(cast_users["bob"])
    response = bob.post(url("game_act", game), {"action": "pack", "target": "bob"}, follow=True)
    assert "Bob is a Werewolf." in _messages(response)
    bob.post(url("game_act", game), {"action": "pack", "target": "dan"})
    ann = as_user(cast_users["ann"])
    ann.post(url("game_act", game), {"action": "ability", "targets": ["bob"]})
    services.phase_advance(game=game, by=moderator)
    text = _text(ann.get(url("game_role", game)))
    assert "Seer’s check: Bob is a Werewolf." in text.replace("'", "’")
    assert "Dan has died." in _text(ann.get(url("game_detail", game)))


# --- the demo ----------------------------------------------------------------------------------
def test_seed_demo_starts_one_running_game_once(client, capsys):
    from accounts.demo import DEMO_PLAYER_NAMES
    from accounts.models import User

    call_command("seed_demo")
    first = capsys.readouterr().out
    call_command("seed_demo")
    second = capsys.readouterr().out
    game = Game.objects.get(status=Game.Status.RUNNING)  # beside the open and finished demos
    assert "Demo game: Salem Village, 1692 (demo) (day 1), created" in first
    assert "already there" in second.splitlines()[-1]
    assert game.status == Game.Status.RUNNING and game.ruleset == "witchhunt"
    assert game.host.player_name == "Moderator" and game.host.has_perm("games.add_game")
    assert sorted(s.user.player_name for s in game.seats.all()) == sorted(DEMO_PLAYER_NAMES)
    assert game.lovers and len(game.lovers[0]) == 2  # the two Village Lovers, paired
    client.force_login(User.objects.get(player_name="Tituba"))
    text = _text(client.get(reverse("game_list")))
    assert "Salem Village, 1692 (demo)" in text and "You play" in text
    text = _text(client.get(url("game_detail", game)))
    assert "Someone in this village is not who they say." in text
    assert client.get(url("game_role", game)).status_code == 200


def test_werewolf_witch_heals_the_packs_victim_through_the_role_page(
    as_user, moderator, cast_users
):
    cast = [("Ann", "werewolf", ""), ("Bob", "witch", ""), ("Cat", "villager", ""),
            ("Dan", "villager", ""), ("Eve", "villager", "")]  # fmt: skip
    game = make_game(moderator, cast_users, cast=cast, ruleset="werewolf")
    services.phase_advance(game=game, by=moderator)
    services.action_submit(game=game, user=cast_users["ann"], action="pack", target="dan")
    bob = as_user(cast_users["bob"])
    response = bob.post(url("game_act", game), {"action": "ability", "choice": "heal"}, follow=True)
    assert "You can heal only after midnight." in _messages(response)
    services.midnight_pass(game=game)
    text = _text(bob.get(url("game_role", game)))
    assert "The pack’s victim tonight: Dan." in text.replace("'", "’")
    assert "Heal the pack’s victim, or poison a player" in text.replace("'", "’")
    response = bob.post(url("game_act", game), {"action": "ability", "choice": "heal"}, follow=True)
    assert _messages(response) == ["Submitted: Heal the pack's victim."]
    services.phase_advance(game=game, by=moderator)
    state = engine_state(Game.objects.get(pk=game.pk))
    assert state.seat("dan").living and state.phase == "day 2"
