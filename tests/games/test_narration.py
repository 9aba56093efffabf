"""games/narration: every event kind, private result, submission, label and duration in
words, checked directly (not through pages); and that every kind the engine can emit has
a narrator of its own."""

import ast
import random
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from games import narration
from games.engine.playout import random_game, random_setup
from games.narration import logs
from games.narration.actions import ACTIONS
from games.narration.results import RESULT_KINDS
from tests.engine_source import engine_source, event_kinds

ROOT = Path(__file__).resolve().parents[2]
ENGINE_SOURCE = engine_source()
NAMES = {"ann": "Ann", "bob": "Bob", "cat": "Cat"}

EVENTS = [
    # (kind, data, viewer, words)
    ("phase", {"phase": "day 2"}, None, "Day 2 begins."),
    ("phase", {"phase": "night 1"}, None, "Night 1 begins."),
    ("lynch", {"target": "bob"}, None, "The town lynches Bob."),
    ("lynch", {"target": None}, None, "The town lynches nobody."),
    ("death", {"player": "ann"}, None, "Ann has died."),
    ("death", {"player": "zed"}, None, "zed has died."),  # a seat with no name: as is
    ("survival", {"player": "ann"}, None, "Ann survived an attempt on their life."),
    ("replaced", {"player": "ann"}, None, "Ann now plays this seat (a replacement)."),
    ("game_over", {"winner": "village", "winners": ["ann", "bob"]}, None,
     "The game is over: the Village wins. Winners: Ann, Bob."),
    ("game_over", {"winner": "witches", "winners": ["cat"]}, None,
     "The game is over: the Witches win. Winners: Cat."),
    ("game_over", {"winner": "hamster_and_gerbil", "winners": ["ann", "cat"]}, None,
     "The game is over: the Were-Hamster and the Were-Gerbil win. Winners: Ann, Cat."),
    ("game_over", {"winner": "fool", "winners": ["bob"]}, None,
     "The game is over: the Fool wins. Winners: Bob."),
    ("game_over", {"winner": "nobody", "winners": []}, None,
     "The game is over: nobody wins. Winners: nobody."),
    ("setup", {"characters": ["priest", "wizard"], "types": {"elder_witch": 2, "village_spy": 1}},
     None, "In play: Priest, Wizard. Player types: 2 Elder Witches, 1 Village Spy."),
    ("vote", {"voter": "ann", "target": "bob"}, None, "Ann votes to lynch Bob."),
    ("vote", {"voter": "ann", "target": "bob"}, "ann", "You vote to lynch Bob."),
    ("vote", {"voter": "ann", "target": "bob"}, "bob", "Ann votes to lynch Bob."),
    ("unvote", {"voter": "ann"}, None, "Ann withdraws their vote."),
    ("unvote", {"voter": "ann"}, "ann", "You withdraw your vote."),
    ("coven_vote", {"voter": "ann", "target": "bob"}, None, "Coven: Ann votes to kill Bob."),
    ("coven_vote", {"voter": "ann", "target": "bob"}, "ann", "Coven: You vote to kill Bob."),
    ("court_vote", {"voter": "ann", "target": "bob"}, "cat", "Court: Ann votes to kill Bob."),
    ("pack_vote", {"voter": "ann", "target": "bob"}, "ann", "Pack: You vote to kill Bob."),
    ("save_vote", {"voter": "ann", "target": "bob"}, None, "Ann votes to save Bob."),
    ("save_vote", {"voter": "ann", "target": "bob"}, "ann", "You vote to save Bob."),
    ("submitted", {"actor": "ann", "action": "ability", "targets": ["bob", "cat"]}, None,
     "Ann chose: Bob, Cat."),
    ("submitted", {"actor": "ann", "action": "ability", "targets": ["bob"]}, "ann",
     "You chose: Bob."),
    ("submitted", {"actor": "ann", "targets": ["bob"], "choice": "poison"}, None,
     "Ann chose: Bob, Poison a player."),
    ("submitted", {"action": "weapon", "target": "bob"}, "ann",
     "You chose your weapon's target: Bob."),
    ("submitted", {"action": "weapon", "target": "bob"}, None, "Weapon: Bob."),
    ("withdrawn", {"what": "coven"}, "ann", "You withdrew your Coven vote."),
    ("withdrawn", {"what": "coven"}, None, "Withdrew a Coven vote."),
    ("withdrawn", {"what": "ability"}, None, "Withdrew an ability."),  # was "a ability"
    ("withdrawn", {"what": "weapon"}, "ann", "You withdrew your weapon use."),
    ("withdrawn", {"what": "ability", "choice": "heal"}, "ann",
     "You withdrew your ability: Heal the pack's victim."),
    ("withdrawn", {"what": "ability", "choice": "poison"}, None,
     "Withdrew a choice: Poison a player."),
    ("lovers_bound", {"lovers": ["ann", "bob"]}, "cat", "You bound the Lovers: Ann, Bob."),
    ("info", {"what": "priest", "result": True, "about": "bob"}, "ann",
     "Priest's check: Bob is in the Coven."),
    ("midnight", {"coven": "bob", "court": None, "vetoes": ["cat"]}, None,
     "Midnight: the Coven's target is Bob; the Court's, nobody; vetoed: Cat."),
    ("midnight", {"victim": "bob", "hexed": None}, None,
     "Midnight: the pack's victim is Bob; hexed: nobody."),
    ("court_disbanded", {"members": ["ann", "bob"]}, None, "The King's Court disbands: Ann, Bob."),
    # public announcements
    ("public", {"event": "reveal", "player": "ann", "character": "wizard"}, None,
     "Ann reveals that they are the Wizard."),
    ("public", {"event": "removed", "player": "ann"}, None,
     "Ann has been removed from the game by the moderator."),
    ("public", {"event": "gift", "player": "bob", "from": "ann"}, None,
     "Ann gives Bob an extra life."),
    ("public", {"event": "returned", "player": "ann"}, None,
     "Ann is alive after all and returns to the game."),
    ("public", {"event": "alarm"}, None, "The Alarm sounds."),
    ("public", {"event": "spies_dead"}, None, "All Village Spies are dead."),
    ("public", {"event": "halftime"}, None, "Halftime: at least half of the players are dead."),
    # WW-3's card on death, with the article a host says: one Seer, many Villagers
    ("public", {"event": "card", "player": "ann", "role": "seer"}, None, "Ann was the Seer."),
    ("public", {"event": "card", "player": "ann", "role": "villager"}, None,
     "Ann was a Villager."),
    ("public", {"event": "card", "player": "ann", "role": "werewolf"}, None,
     "Ann was a Werewolf."),
    ("public", {"event": "card", "player": "ann", "role": "fool"}, None, "Ann was the Fool."),
    # a game ended by stalemate (W-69a, W-72): the thread says why
    ("public", {"event": "stalemate", "cause": "cycles"}, None,
     "Stalemate: nobody has died for too many cycles in a row, so the Witches win."),
    ("public", {"event": "stalemate", "cause": "cycles", "cycles": 3}, None,
     "Stalemate: nobody has died for 3 cycles in a row, so the Witches win."),
    ("public", {"event": "stalemate", "cause": "moderator"}, None,
     "Stalemate: the moderator has ended the game, so the Witches win."),
    ("stalemate", {"cause": "moderator"}, None,
     "Stalemate: the moderator has ended the game, so the Witches win."),
    # the afterlife's log
    ("afterlife", {"protect": "bob", "by": "ann"}, None, "Angel Ann votes to protect Bob."),
    ("afterlife", {"veto": "bob", "by": "ann"}, None, "Demon Ann votes to veto Bob."),
    ("afterlife", {"archangel": "ann"}, None, "Ann spends an Archangel card."),
    ("afterlife", {"archdemon": "ann", "target": "bob"}, None,
     "Ann spends an Archangel card to veto Bob."),
    ("afterlife", {"give_card": "ann", "to": "bob"}, None, "Ann gives an Archangel card to Bob."),
    # the moderator's log
    ("moderator", {"attempt": "bob", "cause": "lynch", "outcome": "died"}, None,
     "Kill attempt on Bob (lynch): died."),
    ("moderator", {"attempt": "bob", "cause": "coven", "outcome": "survived"}, None,
     "Kill attempt on Bob (coven): survived."),
    ("moderator", {"attempt": "bob", "cause": "lynch", "outcome": "fake"}, None,
     "Kill attempt on Bob (lynch): died (a fake death)."),
    ("moderator", {"protected": ["ann", "bob"]}, None, "Protected tonight: Ann, Bob."),
    ("moderator", {"protected": []}, None, "Protected tonight: nobody."),
    ("moderator", {"court": ["ann", "bob", "cat"]}, None, "The King's Court forms: Ann, Bob, Cat."),
    ("moderator", {"captain": "ann", "lives": 1}, None, "The Captain Ann now has 1 extra life."),
    ("moderator", {"captain": "ann", "lives": 2}, None, "The Captain Ann now has 2 extra lives."),
    ("moderator", {"alarm": "village_spy"}, None, "The Alarm's type: Village Spy."),
    ("moderator", {"stalemate": 1}, None, "Stalemate: 1 cycle without a death."),
    ("moderator", {"stalemate": 3}, None, "Stalemate: 3 cycles without a death."),
    ("moderator", {"wizard": "ann", "target": "bob", "guess": "priest"}, None,
     "The Wizard Ann guessed that Bob is the Priest."),
    ("moderator", {"act": "remove", "player": "bob"}, None, "The moderator removes Bob."),
    ("moderator", {"act": "stalemate"}, None, "The moderator declares a stalemate."),
    # anything else: its data, key by key
    ("something_new", {"odd_key": "ann", "seats": ["bob"], "n": 3}, None,
     "odd key: Ann; seats: Bob; n: 3."),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "data", "viewer", "words"), EVENTS)
def test_describe_event_narrates_each_kind(kind, data, viewer, words):
    assert narration.describe_event(kind, data, NAMES, viewer) == words


INFOS = [
    # (what, result, about, words)
    ("allies", {"group": "elder_witch", "known": ["ann"], "mixed": ["bob", "cat"],
                "mixed_witches": 1}, None,
     "Your fellow Elder Witches: Ann. The Junior Witches and Village Spies: Bob, Cat — "
     "1 Witch among them."),
    ("allies", {"group": "junior_witch", "known": [], "mixed": ["bob", "cat"],
                "mixed_witches": 2}, None,
     "Your fellow Junior Witches: nobody. The Elder Witches and Village Spies: Bob, Cat — "
     "2 Witches among them."),
    ("allies", {"group": "elder_witch", "known": ["ann"], "mixed": [], "mixed_witches": 0}, None,
     "Your fellow Elder Witches: Ann. The Junior Witches and Village Spies: nobody."),
    ("allies", {"group": "village_spy", "known": ["ann", "bob"]}, None,
     "Your fellow Village Spies: Ann, Bob."),
    ("allies", {"group": "village_lover", "known": ["bob"]}, None, "Your Lover: Bob."),
    ("allies", {"group": "musketeers", "known": []}, None, "Your fellow Musketeers: nobody."),
    ("allies", {"group": "werewolves", "known": ["cat"], "mixed": [], "mixed_witches": 0}, None,
     "Your fellow Werewolves: Cat."),
    ("priest", True, "bob", "Priest's check: Bob is in the Coven."),
    ("priest", False, "bob", "Priest's check: Bob is not in the Coven."),
    ("inquisitor", True, "bob", "Inquisitor's check: Bob is a Holy Villager."),
    ("investigator", False, "bob", "Investigator's check: Bob is not a Village Spy."),
    ("seer", True, "bob", "Seer's check: Bob is a Werewolf."),
    ("gerbil", False, "bob", "Were-Gerbil's check: Bob is not the Were-Hamster."),
    ("acolyte", "bob", None, "The Priest is Bob."),
    ("acolyte", None, None, "There is no Priest in this game."),
    ("nun", "cat", None, "The Bishop is Cat."),
    ("nun", None, None, "There is no Bishop in this game."),
    ("oracle", {"summoner": "bob", "hunter": "ann"}, None,
     "The characters that kill at Halftime: Hunter: Ann; Summoner: Bob."),
    ("oracle", {}, None, "No character that kills at Halftime is in play."),
    ("fanatic", True, None, "The Priest checked you: you gain an extra life."),
    ("investigator_life", True, None,
     "You have checked every Village Spy: you gain an extra life."),
    ("archangel_card", 1, None, "You now hold 1 Archangel card."),
    ("archangel_card", 2, None, "You now hold 2 Archangel cards."),
    ("gravedigger", {"character": "priest", "type": "holy_villager"}, "bob",
     "Bob's cards: Priest (Holy Villager)."),
    ("templar", {"character": "twilight_pagan", "type": "elder_witch"}, "cat",
     "Cat's cards: Twilight Pagan (Elder Witch)."),
    ("undertaker", {"bob": {"character": "priest", "type": "holy_villager"},
                    "ann": {"character": "judge", "type": "basic_villager"}}, None,
     "The cards of the dead: Ann: Judge (Basic Villager); Bob: Priest (Holy Villager)."),
    ("sunlight", {}, None, "Nobody's cards to see."),
    ("bishop", ["ann", "cat"], None, "The living Coven members: Ann, Cat."),
    ("zealot", [], None, "The living Holy Villagers: nobody."),
    ("cupid", ["ann", "bob"], None, "The Village Lovers: Ann, Bob."),
    ("queen", "odd", None, "The King's Court has an odd number of Witches."),
    ("queen", "even", None, "The King's Court has an even number of Witches."),
    ("court", ["ann", "bob"], None, "The King's Court: Ann, Bob."),
    ("court_disbanded", True, None, "The King's Court has disbanded."),
    ("coven", ["ann", "cat"], None,
     "The Junior Witches have joined the Coven. The Coven: Ann, Cat."),
    ("vigilante", True, None,
     "Someone on your side died to the King's Court: you may kill tonight."),
    ("armed", True, None, "You were given a weapon: you may make one kill on a later night."),
    ("armed", False, None, "You were given a weapon, but a Holy Villager cannot use it."),
    ("harlot", True, "bob", "Bob, a Village Lover, was protected; you share the protection."),
    ("traveling_medic", True, "bob", "Bob gained an extra life from you."),
    ("traveling_medic", False, "bob", "Bob did not gain an extra life from you."),
    ("veto", ["bob"], None, "The Demons vetoed: Bob."),
    ("summoner", ["ann", "bob", "cat"], None, "The Summoner named: Ann, Bob, Cat."),
    ("assassin", ["ann", "bob"], None, "The Assassin named: Ann, Bob."),
    ("hexed", True, None, "You were hexed tonight: your actions tonight do nothing."),
    ("witch", True, "bob", "The pack's victim tonight: Bob."),
    ("lovers", "cat", None, "Your Lover: Cat."),
    ("something_new", 4, "bob", "something_new: 4 (Bob)"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "result", "about", "words"), INFOS)
def test_describe_info_narrates_each_result(what, result, about, words):
    assert narration.describe_info(what, result, about, NAMES) == words


def test_every_result_kind_has_a_row_above():
    assert RESULT_KINDS <= {row[0] for row in INFOS}


STEPS = [
    # (action, step, the step in words, the action's label)
    ("vote", {"target": "bob"}, "Bob", "Vote to lynch"),
    ("unvote", {}, "no one named", "Withdraw your vote"),
    ("coven", {"target": "bob"}, "Bob", "The Coven's kill vote"),
    ("court", {"target": "cat"}, "Cat", "The King's Court's kill vote"),
    ("protect", {"target": "ann"}, "Ann", "Protect (the Angels' vote)"),
    ("veto", {"target": "ann"}, "Ann", "Veto (the Demons' vote)"),
    ("archangel", {}, "no one named",
     "Spend an Archangel card: tonight the Angels ignore every veto"),
    ("archdemon", {"target": "bob"}, "Bob", "Spend an Archangel card on an Archdemon veto"),
    ("give_card", {"target": "cat"}, "Cat",
     "Give an Archangel card to another player in the afterlife"),
    ("save", {"target": "bob"}, "Bob", "Save vote"),
    ("weapon", {"target": "bob"}, "Bob", "Use your weapon"),
    ("pack", {"target": "bob"}, "Bob", "The pack's kill vote"),
    ("ability", {"targets": ["ann", "bob"]}, "Ann, Bob", "Use your ability"),
    ("ability", {"targets": ["bob"], "guess": "priest"}, "Bob, guess: Priest", "Use your ability"),
    ("ability", {"targets": [], "choice": "village_spy"}, "Village Spy", "Use your ability"),
    ("ability", {"targets": ["bob"], "choice": "heal"}, "Bob, Heal the pack's victim",
     "Use your ability"),
    ("ability", {"targets": []}, "no one named", "Use your ability"),
    ("withdraw", {"what": "coven"}, "no one named", "Withdraw"),
]  # fmt: skip


@pytest.mark.parametrize(("action", "step", "words", "label"), STEPS)
def test_describe_step_and_action_label_for_each_action(action, step, words, label):
    assert narration.describe_step({"action": action, **step}, NAMES) == words
    assert narration.action_label(action) == label


def test_every_action_has_a_row_above():
    assert set(ACTIONS) <= {row[0] for row in STEPS}


@pytest.mark.parametrize(
    ("what", "value", "words"),
    [
        ("vote", "bob", "Vote: Bob"),
        ("coven", "bob", "Coven vote: Bob"),
        ("court", None, "Court vote: nobody"),
        ("protect", "ann", "Protect vote: Ann"),
        ("veto", "ann", "Veto vote: Ann"),
        ("save", "cat", "Save vote: Cat"),
        ("pack", "bob", "Pack vote: Bob"),
        ("weapon", {"action": "weapon", "target": "bob"}, "Weapon use: Bob"),
        (
            "ability",
            {"targets": ["ann", "cat"], "guess": "judge"},
            "Ability: Ann, Cat, guess: Judge",
        ),
    ],
)
def test_standing_text_names_the_submission(what, value, words):
    assert narration.standing_text(what, value, NAMES) == words


@pytest.mark.parametrize(
    ("delta", "words", "countdown"),
    [
        (timedelta(0), "less than a minute", "any moment now"),
        (timedelta(seconds=-90), "less than a minute", "any moment now"),
        (timedelta(seconds=59), "less than a minute", "in less than a minute"),
        (timedelta(minutes=1), "1 min", "in 1 min"),
        (timedelta(minutes=14, seconds=59), "14 min", "in 14 min"),
        (timedelta(hours=2), "2 h", "in 2 h"),
        (timedelta(hours=2, minutes=14, seconds=30), "2 h 14 min", "in 2 h 14 min"),
        (timedelta(days=1), "1 d", "in 1 d"),
        (timedelta(days=2, hours=3, minutes=59), "2 d 3 h", "in 2 d 3 h"),  # at most two parts
        (timedelta(days=14), "14 d", "in 14 d"),
    ],
)
def test_durations_in_one_format(delta, words, countdown):
    assert narration.duration_words(delta) == words
    assert narration.countdown_words(delta) == countdown


def test_no_duration_is_no_words():
    assert narration.duration_words(None) == ""


@pytest.mark.parametrize(
    ("key", "n", "label"),
    [
        ("elder_witch", 1, "Elder Witch"),
        ("elder_witch", 2, "Elder Witches"),
        ("junior_witch", 3, "Junior Witches"),
        ("village_spy", 1, "Village Spy"),
        ("village_spy", 2, "Village Spies"),
        ("basic_villager", 0, "Basic Villagers"),
        ("holy_villager", 2, "Holy Villagers"),
        ("village_lover", 2, "Village Lovers"),
        ("not_a_type", 2, "not_a_type"),
    ],
)
def test_type_labels_in_the_plural(key, n, label):
    assert narration.type_label_count(key, n) == label


@pytest.mark.parametrize(
    ("label", "key", "words"),
    [
        (narration.character_label, "dirty_old_bastard", "Dirty Old Bastard"),
        (narration.type_label, "holy_villager", "Holy Villager"),
        (narration.role_label, "were_hamster", "Were-Hamster"),
        (narration.card_label, "seer", "Seer"),
        (narration.card_label, "unknown", "unknown"),
        (narration.status_label, "last_act", "Dead (offstage, last act unused)"),
        (narration.phase_label, "night 12", "Night 12"),
        (narration.phase_label, "day 1", "Day 1"),
        (narration.winner_label, "hamster_and_gerbil", "the Were-Hamster and the Were-Gerbil"),
        (narration.ability_label, "wizard", "Reveal and guess a player's character"),
        (narration.ability_label, "villager", "Use your ability"),
        (narration.choice_label, "poison", "Poison a player"),
        (narration.choice_label, "elder_witch", "Elder Witch"),
        (narration.withdraw_label, "weapon", "weapon use"),
        (narration.type_note, "junior_witch",
         "You join the Coven the night no Elder Witch or no Village Spy is alive (W-26)."),
        (narration.type_note, "not_a_type", ""),
    ],
)  # fmt: skip
def test_labels(label, key, words):
    assert label(key) == words


def test_seat_cards_of_a_witchhunt_seat():
    cards = narration.seat_cards(
        "witchhunt", SimpleNamespace(character="priest", type="holy_villager", role="")
    )
    assert [(c.kind, c.key, c.name, c.extra) for c in cards] == [
        ("character", "priest", "Priest", "Witchhunt Base Set"),
        ("type", "holy_villager", "Holy Villager", "village"),
    ]
    text = "Each night, you may check if a target is a Coven member."
    assert cards[0].text == cards[0].summary == text
    assert cards[1].text is None and cards[1].summary == "You play for the Village."
    witch = narration.seat_cards(
        "witchhunt", SimpleNamespace(character="judge", type="junior_witch", role="")
    )
    assert witch[1].summary == "You play for the Witches."


def test_seat_cards_of_a_werewolf_seat():
    (card,) = narration.seat_cards("werewolf", SimpleNamespace(role="seer", character="", type=""))
    kind, key, name, text, extra = card  # the role page unpacks five fields
    assert (kind, key, name, extra) == ("role", "seer", "Seer", "good")
    assert text == card.summary == "Each night, learns whether a player is a Werewolf."


@pytest.mark.parametrize(
    ("audience", "meeting", "seats", "words"),
    [
        ("public", "", [], "everyone"),
        ("dead", "", [], "the afterlife"),
        ("moderator", "", [], "the moderator"),
        ("seats", "coven", ["ann", "cat"], "Coven: Ann, Cat"),
        ("seats", "", ["bob"], "to Bob"),
    ],
)
def test_audience_label(audience, meeting, seats, words):
    assert narration.audience_label(audience, meeting, seats, NAMES) == words


# --- every kind the engine can emit has a narrator ----------------------------------------
def _static(pattern):
    return set(re.findall(pattern, ENGINE_SOURCE))


def _played_events(games=200):
    rng = random.Random(20240601)
    for i in range(games):
        setup = random_setup(rng, ("witchhunt", "werewolf")[i % 2], rng.randint(5, 16))
        game, _ = random_game(rng, setup)
        yield from game.events


def test_engine_source_is_scanned():
    assert {"phase", "vote", "info", "public", "moderator"} <= event_kinds(ENGINE_SOURCE)


def test_every_event_kind_in_the_engine_has_a_narrator():
    assert event_kinds(ENGINE_SOURCE) - set(narration.NARRATORS) == set()


def test_every_log_entry_in_the_engine_has_a_narrator():
    public = set(logs.PLAYER_ANNOUNCEMENTS) | set(logs.ANNOUNCEMENTS) | set(logs.PUBLIC)
    assert _static(r'"event":\s*"(\w+)"') - public == set()
    assert _static(r'log_mod\(\{\s*"(\w+)"') - set(logs.MODERATOR) == set()
    assert _static(r'log_dead\(\{\s*"(\w+)"') - set(logs.AFTERLIFE) == set()
    told = _static(r'tell\(\s*[^,]+?,\s*"(\w+)"')
    assert len(told) > 10 and told - RESULT_KINDS == set()


def test_random_games_emit_nothing_without_words_of_its_own():
    """Every event of 200 random games narrates without an error and without falling back
    to the event's raw data."""
    kinds, fallbacks = set(), []
    names = {f"p{i:02d}": f"Player {i}" for i in range(16)}
    for event in _played_events():
        kinds.add(event.kind)
        words = narration.describe_event(event.kind, event.data, names, "p00")
        if event.kind not in narration.NARRATORS:
            fallbacks.append(event.kind)
        elif event.kind == "info" and event.data["what"] not in RESULT_KINDS:
            fallbacks.append(words)
        elif event.kind in ("public", "moderator", "afterlife") and (
            words in (str(event.data), logs.generic(event.data, names))
        ):
            fallbacks.append(words)
    assert {"vote", "info", "public", "moderator", "afterlife", "game_over"} <= kinds
    assert fallbacks == []


# --- narration is words only --------------------------------------------------------------
def test_narration_imports_only_the_engine_tables_and_translation():
    # Words only: translation, the locale's date formats, the reader's zone (as the reader's
    # language: durations.moment_here), HTML escaping, and the standard library's plain
    # helpers (a post's stored meaning is read back with re and zoneinfo).
    allowed = ("django.utils.translation", "django.utils.formats", "django.utils.html")
    allowed += ("django.utils.timezone",)
    allowed += ("collections", "typing", "datetime", "re", "zoneinfo", "dataclasses")
    utils = {"translation", "formats", "html", "timezone"}  # `from django.utils import ...`
    # Of the engine's public surface (games.engine), its card tables and the phase value.
    engine = {"CHARACTERS", "TYPES", "HOLY", "ROLES", "REPEATABLE", "GOOD", "EVIL", "WILD"}
    engine |= {"Phase", "DAY", "NIGHT", "Refusal", "CardName"}  # and the refusals it words
    offenders = []
    paths = sorted((ROOT / "games/narration").glob("*.py"))
    # Parsed in a thread of its own: CPython 3.11's AST constructor checks the thread's
    # recursion depth, which the e2e tests' Playwright greenlets, run earlier in the same
    # process, can leave off by a few ("AST constructor recursion depth mismatch").
    with ThreadPoolExecutor(1) as pool:
        trees = list(pool.map(lambda p: ast.parse(p.read_text()), paths))
    for path, tree in zip(paths, trees, strict=True):
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "games.engine":
                names = [alias.name for alias in node.names]
                offenders += [f"{path.name}: games.engine {n}" for n in names if n not in engine]
                continue
            if isinstance(node, ast.ImportFrom) and node.module == "django.utils":
                modules = [f"django.utils.{alias.name}" for alias in node.names]
                offenders += [f"{path.name}: {m}" for m in modules if m[13:] not in utils]
                continue
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            offenders += [f"{path.name}: {m}" for m in modules if not m.startswith(allowed)]
    assert offenders == []
