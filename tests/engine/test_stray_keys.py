"""FORMAT (revision 3): a step with a key its actor's card cannot use is refused, with its
reason, and changes nothing; never acted on with the key ignored, never filed as something
else (a Seer's "poison" kept as a potion). The cases in tests/engine/records/format_r3_*
replay whole games; here, the words a player reads and the state left as it was."""

import copy

import pytest

from games.engine import GameRuleError, apply, new_game

WEREWOLF = {
    "ruleset": "werewolf",
    "seed": 1,
    "options": {},
    "players": [
        {"name": "wol", "role": "werewolf"},
        {"name": "see", "role": "seer"},
        {"name": "ge", "role": "were_gerbil"},
        {"name": "wi", "role": "witch"},
        {"name": "mm", "role": "matchmaker"},
        {"name": "v1", "role": "villager"},
        {"name": "v2", "role": "villager"},
    ],
}
WITCHHUNT = {
    "ruleset": "witchhunt",
    "seed": 3,
    "options": {},
    "players": [
        {"name": "loo", "character": "lookout", "type": "basic_villager"},
        {"name": "jud", "character": "judge", "type": "elder_witch"},
        {"name": "inq", "character": "inquisitor", "type": "basic_villager"},
        {"name": "wiz", "character": "wizard", "type": "basic_villager"},
        {"name": "a", "character": "innkeeper", "type": "basic_villager"},
        {"name": "b", "character": "zealot", "type": "basic_villager"},
        {"name": "c", "character": "templar", "type": "basic_villager"},
    ],
    "lovers": [],
}


def _game(record, *steps):
    game, _ = new_game(copy.deepcopy(record))
    for step in steps:
        game, _ = apply(game, step)
    return game


def _standing(game):
    """The standing submissions as their steps, the events and the input counter."""
    return ({k: v.to_step() for k, v in game.subs.items()}, len(game.events), game.seq)


def _refused(game, step, words):
    before = _standing(game)
    with pytest.raises(GameRuleError) as refusal:
        apply(game, step)
    assert str(refusal.value) == words
    assert _standing(game) == before


NIGHT = {"advance": "phase"}


@pytest.mark.parametrize(
    ("steps", "step", "words"),
    [
        ([NIGHT], {"actor": "see", "action": "ability", "targets": ["v1"], "choice": "poison"},
         "your ability takes no choice"),
        ([NIGHT], {"actor": "ge", "action": "ability", "targets": ["v1"], "choice": "heal"},
         "your ability takes no choice"),
        ([], {"actor": "mm", "action": "ability", "targets": ["v1", "v2"], "choice": "heal"},
         "your ability takes no choice"),
        ([NIGHT, {"actor": "wol", "action": "pack", "target": "v1"}],
         {"actor": "wol", "action": "withdraw", "what": "pack", "choice": "heal"},
         "a pack vote is withdrawn without a choice"),
        ([NIGHT, {"actor": "see", "action": "ability", "targets": ["v1"]}],
         {"actor": "see", "action": "withdraw", "what": "ability", "choice": "poison"},
         "your ability has no poison to withdraw"),
    ],
)  # fmt: skip
def test_a_werewolf_step_with_a_key_its_card_cannot_use_is_refused(steps, step, words):
    _refused(_game(WEREWOLF, *steps), step, words)


def test_the_witchs_potions_still_take_their_choice():
    game = _game(WEREWOLF, NIGHT, {"actor": "wol", "action": "pack", "target": "v1"})
    game, _ = apply(game, {"advance": "midnight"})
    game, _ = apply(game, {"actor": "wi", "action": "ability", "targets": [], "choice": "heal"})
    game, _ = apply(
        game, {"actor": "wi", "action": "withdraw", "what": "ability", "choice": "heal"}
    )
    assert ("wi", "heal") not in game.subs


@pytest.mark.parametrize(
    ("steps", "step", "words"),
    [
        ([], {"actor": "jud", "action": "ability", "targets": ["a"], "choice": "basic_villager"},
         "your ability takes no choice"),
        ([], {"actor": "jud", "action": "ability", "targets": ["a"], "guess": "innkeeper"},
         "your ability takes no guess"),
        ([], {"actor": "loo", "action": "ability", "targets": [], "choice": "elder_witch",
              "guess": "judge"},
         "your ability takes no guess"),
        ([], {"actor": "wiz", "action": "ability", "targets": ["a"], "guess": "innkeeper",
              "choice": "elder_witch"},
         "your ability takes no choice"),
        ([NIGHT], {"actor": "inq", "action": "ability", "targets": ["a"], "choice": "elder_witch"},
         "your ability takes no choice"),
    ],
)  # fmt: skip
def test_a_witchhunt_choice_is_the_lookouts_and_a_guess_the_wizards(steps, step, words):
    _refused(_game(WITCHHUNT, *steps), step, words)
