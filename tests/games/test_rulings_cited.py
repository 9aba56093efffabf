"""Why it ended as it did (issue 17): every resolution names the ruling that decided it, in
the moderator's desk log and the final reveal, never in the afterlife or a player's page.

The reasons are read back from the stored events (games/narration/why.py); here they are
checked against the engine's own decisions over random games, and every ruling cited
against the published rulings."""

import random
import re

import pytest
from django.urls import reverse

from games import rulebook, services
from games.engine import apply, new_game
from games.engine.playout import random_game, random_setup
from games.engine.rulesets.witchhunt import night as wh_night
from games.engine.rulesets.witchhunt.game import WitchhuntGame
from games.models import Game
from games.narration.rulings import REASONS, RESULTS, WEREWOLF_RESULTS, cited
from games.narration.why import NOT_RESOLUTIONS, RESOLUTIONS, Ev, cards_of, explain
from games.narration.why_night import NightReader
from tests.engine_source import ENGINE, engine_source, event_kinds
from tests.games.afterlife_cast import page_text, play_to_day_3
from tests.games.conftest import make_game

RULESETS = ENGINE / "rulesets"
FIVE = [  # a Witch, an Angel-to-be and three villagers without protection of their own
    {"name": "ann", "character": "priest", "type": "holy_villager"},
    {"name": "bob", "character": "judge", "type": "elder_witch"},
    {"name": "cat", "character": "oracle", "type": "basic_villager"},
    {"name": "dan", "character": "gravedigger", "type": "basic_villager"},
    {"name": "eve", "character": "inquisitor", "type": "basic_villager"},
]


def _play(players, steps):
    game, _ = new_game({"ruleset": "witchhunt", "seed": 7, "players": players, "lovers": []})
    for step in steps:
        apply(game, step)
    return game


def _explained(game):
    events = [Ev(e.kind, e.phase, e.data, e.to) for e in game.events]
    return events, explain(events, cards_of(game.seats), game.RULESET, {}, game.revision)


def _whys_of(game, kind, **data):
    events, whys = _explained(game)
    return [
        w
        for i, e in enumerate(events)
        if e.kind == kind and all(e.data.get(k) == v for k, v in data.items())
        for w in whys.get(i, [])
    ]


# --- the two examples of the issue ------------------------------------------------------------
def test_a_night_the_angels_protect_says_w10():
    game = _play(
        FIVE,
        [
            *({"actor": v, "action": "vote", "target": "ann"} for v in ("bob", "cat", "dan")),
            {"actor": "ann", "action": "protect", "target": "cat"},  # Ann is an Angel now
            {"actor": "bob", "action": "coven", "target": "cat"},
            {"advance": "phase"},
        ],
    )
    [why] = _whys_of(game, "survival", player="cat")
    assert (why.ruling, why.text) == ("W-10", "cat survived: protected by the Angels.")
    [lynch] = _whys_of(game, "lynch")
    assert (lynch.ruling, lynch.text) == ("W-4", "ann is lynched: 3 of 5 votes is a majority.")


def test_a_tied_day_is_no_lynch_by_w4():
    six = [*FIVE, {"name": "fay", "character": "acolyte", "type": "holy_villager"}]
    six[0] = {"name": "ann", "character": "bishop", "type": "holy_villager"}
    game = _play(
        six,
        [
            *({"actor": v, "action": "vote", "target": "ann"} for v in ("bob", "cat", "dan")),
            *({"actor": v, "action": "vote", "target": "bob"} for v in ("ann", "eve", "fay")),
            {"advance": "phase"},
        ],
    )
    [why] = _whys_of(game, "phase", phase="night 1")
    assert why.ruling == "W-4"
    assert why.text == (
        "No lynch on Day 1: the most votes anyone held, 3 of 6, is not a majority "
        "(a lynch needs 4)."
    )


def test_a_kill_without_protection_cites_the_coven_and_the_end_w69():
    game = _play(
        FIVE,
        [
            *({"actor": v, "action": "vote", "target": "cat"} for v in ("bob", "ann", "dan")),
            {"actor": "bob", "action": "coven", "target": "dan"},
            {"advance": "phase"},  # Day 2: Ann, Bob and Eve live; Bob is one Witch of three
            *({"actor": v, "action": "vote", "target": "eve"} for v in ("bob", "ann")),
        ],
    )
    assert [w.ruling for w in _whys_of(game, "death", player="dan")] == ["W-9"]
    assert [w.ruling for w in _whys_of(game, "death", player="eve")] == ["W-12"]
    assert [w.ruling for w in _whys_of(game, "game_over")] == ["W-69", "W-70"]


def test_a_werewolf_night_names_the_heal_the_poison_and_the_devil():
    roles = ("werewolf", "witch", "villager", "villager", "devil", "villager")
    players = [{"name": n, "role": r} for n, r in zip(("ann", "bob", "cat", "dan", "eve", "fay"),
                                                      roles, strict=True)]  # fmt: skip
    game, _ = new_game({"ruleset": "werewolf", "seed": 7, "players": players})
    for step in (
        {"advance": "phase"},
        {"actor": "ann", "action": "pack", "target": "cat"},
        {"advance": "midnight"},
        {"actor": "bob", "action": "ability", "choice": "heal", "targets": []},
        {"actor": "bob", "action": "ability", "choice": "poison", "targets": ["dan"]},
        {"actor": "eve", "action": "ability", "targets": ["fay"]},
        {"advance": "phase"},
    ):
        apply(game, step)
    [healed] = _whys_of(game, "phase", phase="day 2")
    assert (healed.ruling, healed.text) == (
        "WW-7",
        "cat survived the pack's attack: the Witch healed it.",
    )
    assert [w.ruling for w in _whys_of(game, "death", player="dan")] == ["WW-7"]
    assert [w.ruling for w in _whys_of(game, "death", player="fay")] == ["WW-8"]
    assert [w.ruling for w in _whys_of(game, "midnight")] == ["WW-5"]


def test_what_a_removal_at_night_makes_lapse_is_named_w8a():
    six = [*FIVE, {"name": "fay", "character": "acolyte", "type": "holy_villager"}]
    game = _play(
        six,
        [
            {"advance": "phase"},
            {"actor": "bob", "action": "coven", "target": "cat"},
            {"actor": "ann", "action": "ability", "targets": ["dan"]},
            {"actor": "eve", "action": "ability", "targets": ["ann"]},
            {"advance": "midnight"},
            {"moderator": "remove", "player": "cat"},
            {"moderator": "remove", "player": "dan"},
            {"advance": "phase"},
        ],
    )
    assert [(w.ruling, w.text) for w in _whys_of(game, "phase", phase="day 2")] == [
        ("W-8a", "The Coven's kill lapsed: cat was no longer living."),
        ("W-8a", "ann's ability lapsed, nothing spent: dan was no longer living."),
    ]
    assert [w.ruling for w in _whys_of(game, "public", event="removed")] == ["W-72", "W-72"]


# --- every resolution is covered ------------------------------------------------------------
def _source():
    return engine_source(RULESETS)


def test_every_event_kind_the_rulesets_emit_is_classified():
    """A new kind of event fails here until it is a resolution with its ruling, or not one."""
    source = _source()
    kinds = event_kinds(source)
    kinds |= {"public"} if "announce(" in source else set()
    kinds |= {"moderator"} if "log_mod(" in source else set()
    kinds |= {"afterlife"} if "log_dead(" in source else set()
    assert {"lynch", "death", "survival", "game_over", "midnight", "info"} <= kinds  # it reads
    assert kinds <= RESOLUTIONS | NOT_RESOLUTIONS, kinds - RESOLUTIONS - NOT_RESOLUTIONS
    assert not RESOLUTIONS & NOT_RESOLUTIONS


def test_every_kill_attempt_cause_has_its_ruling():
    source = _source()
    causes = set(re.findall(r"attempt\(\s*[\w.]+,\s*\"(\w+)\"", source))
    causes |= set(re.findall(r"yield [^\n]+?, \"(\w+)\", ", source))  # the night's, W-11
    assert {"coven", "lynch", "lover", "weapon", "last_act", "twilight"} <= causes
    assert {c for c in causes if f"died_{c}" not in REASONS} == set()


def test_every_cited_ruling_is_published_and_linked():
    published = {r.number: r.url for rs in rulebook.rulesets() for r in rs.rulings.all}
    assert cited() - published.keys() == set()
    assert published["W-10"].endswith("/rules/witchhunt/#W-10")


def _random_games(n, seed=17, rulesets=("witchhunt", "werewolf")):
    rng = random.Random(seed)
    for k in range(n):
        ruleset = rulesets[k % len(rulesets)]
        yield random_game(rng, random_setup(rng, ruleset, rng.randint(5, 18)))[0]


@pytest.fixture
def engine_decisions(monkeypatch):
    """Each kill attempt's W-9 case as the engine decided it, and each night's Angels' pick."""
    attempts, picks = [], {}
    attempt_case = WitchhuntGame._attempt_case

    def spy_attempt(self, p, cause, lynch, protected, mercenary, killed):
        lives, court = p.lives, list(self.court)
        outcome = attempt_case(self, p, cause, lynch, protected, mercenary, killed)
        if outcome != "survived":
            case = "a" if cause == "twilight" else "g"
        elif p.lives < lives:
            case = "f"
        elif p.name in self.court and p.name not in court:
            case = "e"
        elif lynch:
            case = "b"
        elif mercenary is not None and p.type == mercenary:
            case = "c"
        else:
            assert p.name in protected
            case = "d"
        attempts.append((p.name, cause, case))
        return outcome

    protections = wh_night.NightMixin.protections

    def spy_protections(self):
        pick = self.angels.plurality()
        moonlight = self.sub_of("moonlight_pagan") is not None  # W-65: no Angels tonight
        if pick is not None and not moonlight and (pick not in self.vetoes or self.archangel_spent):
            picks[self.phase] = pick
        return protections(self)

    monkeypatch.setattr(WitchhuntGame, "_attempt_case", spy_attempt)
    monkeypatch.setattr(WitchhuntGame, "protections", spy_protections)
    return attempts, picks


OWN_SOURCES = {"protected_gambler", "protected_recluse", "protected_hunter", "protected_cupid"}
CASES = {"deacon": "b", "mercenary_type": "c", "pauper": "e", "fake": "g"}


def _case(reason):
    if reason in CASES:
        return CASES[reason]
    if reason.startswith("protected"):
        return "d"
    if reason.startswith("extra_life"):
        return "f"
    return "a" if reason == "died_twilight" else "g"


@pytest.mark.slow
def test_the_reasons_read_back_are_the_engines_decisions(engine_decisions):
    attempts, picks = engine_decisions
    seen, done = set(), 0
    for game in _random_games(300, rulesets=("witchhunt",)):  # played as the loop asks
        engine, done = attempts[done:], len(attempts)
        events = [Ev(e.kind, e.phase, e.data, e.to) for e in game.events]
        reader = NightReader(events, cards_of(game.seats), game.RULESET, {}, game.revision)
        reader.read()
        assert [(n, c) for n, c, _ in engine] == [(n, c) for n, c, _ in reader.attempts]
        for (name, cause, case), (_, _, reason), phase in zip(
            engine, reader.attempts, _attempt_phases(events), strict=True
        ):
            assert _case(reason) == case, (name, cause, reason, case)
            if reason == "protected_angels":
                assert picks.get(phase) == name
            elif case == "d" and picks.get(phase) == name:  # another source came first
                assert reason in OWN_SOURCES, (name, reason)
            seen.add(reason)
    assert {  # the reading was put to the test
        *("protected_angels", "protected_gambler", "protected_recluse", "protected_lover"),
        *("extra_life", "deacon", "fake", "died_coven", "died_lover"),
    } <= seen, seen


def _attempt_phases(events):
    return [e.phase for e in events if e.kind == "moderator" and "attempt" in e.data]


def test_every_resolution_in_random_games_names_a_published_ruling():
    published = {r.number for rs in rulebook.rulesets() for r in rs.rulings.all}
    whats = set()
    for game in _random_games(200, seed=5):
        events, whys = _explained(game)
        for i, e in enumerate(events):
            if e.kind == "info":
                whats.add((game.RULESET, e.data["what"]))
            got = whys.get(i, [])
            if e.kind not in RESOLUTIONS or _explained_elsewhere(events, i):
                continue
            assert got, (game.RULESET, i, e)
            for w in got:
                assert w.ruling in published or (w.ruling is None and e.data["what"] == "seer")
    for ruleset, what in whats:
        assert what in (WEREWOLF_RESULTS if ruleset == "werewolf" else RESULTS), what


def _explained_elsewhere(events, i):
    """A kill attempt's ruling is at its announcement; a moderator's act and a removal's
    death at the announcement of the act."""
    e = events[i]
    if e.kind == "moderator" and ("attempt" in e.data or "act" in e.data):
        return True
    before = events[i - 1]
    return e.kind == "death" and before.data.get("event") == "removed"


# --- on the pages ----------------------------------------------------------------------------
@pytest.mark.django_db
def test_desk_log_and_reveal_cite_rulings_with_links(client, moderator, cast_users):
    game = make_game(moderator, cast_users)
    for voter in ("ann", "bob", "cat", "dan", "eve"):
        services.vote_cast(game=game, user=cast_users[voter], target="hal")
    client.force_login(moderator)
    desk = client.get(reverse("game_desk", args=[game.pk])).content.decode()
    assert "Hal is lynched: 5 of 8 votes is a majority." in page_text(desk)
    assert '<a href="/rules/witchhunt/#W-4" translate="no">W-4</a>' in desk
    services.stalemate_declare(game=game, by=moderator)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    reveal = client.get(reverse("game_reveal", args=[game.pk])).content.decode()
    text = page_text(reveal)
    assert "Hal is lynched: 5 of 8 votes is a majority. ( W-4 )" in text
    assert "The moderator's stalemate ends the game: the Witches win. ( W-72b )" in text


@pytest.mark.django_db
def test_the_afterlife_and_the_players_pages_cite_nothing(client, moderator):
    from tests.games.afterlife_cast import afterlife_users

    users = afterlife_users()
    game, _ = play_to_day_3(moderator, users, replace=False)
    client.force_login(users["bob"])  # a Demon: the afterlife sees every event (W-17)
    for url in (
        reverse("game_afterlife", args=[game.pk]),
        reverse("game_detail", args=[game.pk]),
        reverse("game_role", args=[game.pk]),
    ):
        body = client.get(url).content.decode()
        assert "log__why" not in body and "/rules/witchhunt/#W-" not in body, url
    client.force_login(moderator)
    desk = client.get(reverse("game_desk", args=[game.pk])).content.decode()
    assert "log__why" in desk


# --- W-8a's lapses by the game's revision (W-76) ---------------------------------------------
def _replayed(case_name, revision):
    from games.engine import records
    from tests.engine.cases import RECORDS, load_case

    case, _ = load_case(RECORDS / f"{case_name}.json")
    _ruleset, game, _refused, _warnings = records.replay({**case, "revision": revision})
    return game


@pytest.mark.parametrize(
    "case, revision, words",
    [
        (
            "w8a_r3_blacksmith_pair_each_name_alone",
            "3",
            "smi's ability lapsed for y, no longer living; its other names went on.",
        ),
        (
            "w8a_r3_blacksmith_pair_each_name_alone",
            "2b",
            "smi's ability lapsed, nothing spent: y was no longer living.",
        ),
        (
            "w8a_r3_anarchist_first_removed_second_still_attacked",
            "3",
            "ana's ability lapsed for qin, no longer living; its other names went on.",
        ),
        (
            "w8a_r3_anarchist_first_removed_second_still_attacked",
            "2b",
            "ana's ability lapsed, nothing spent: qin was no longer living.",
        ),
        (
            "w8a_r3_traveler_two_targets_with_minstrel_each_alone",
            "3",
            "mer's ability lapsed for t2, no longer living; its other names went on.",
        ),
        (  # the first alone counted, and lapsed: the submission lapsed as a whole
            "w8a_r3_anarchist_non_member_first_removed_second_not_counted",
            "3",
            "ana's ability lapsed, nothing spent: x was no longer living.",
        ),
    ],
)
def test_a_lapse_is_read_by_the_games_revision_w8a(case, revision, words):
    """Revision 3 lets each name of the Blacksmith's, a Traveler's (with the Minstrel) and
    the Anarchist's lapse alone and the others go on; revision 2b let the whole lapse."""
    game = _replayed(case, revision)
    events = [Ev(e.kind, e.phase, e.data, e.to) for e in game.events]
    whys = explain(events, cards_of(game.seats), game.RULESET, {}, game.revision)
    lapses = [
        w.text
        for i, e in enumerate(events)
        if e.kind == "phase"
        for w in whys.get(i, [])
        if w.ruling == "W-8a"
    ]
    assert lapses == [words]
