"""Setups: stable keys, legal suggestions, scaling to other sizes."""

import pytest

from games.deal import deal_problems
from games.engine.rulesets.witchhunt.cards import HOLY
from games.lab.simulation.scaling import scaled
from games.lab.simulation.setups import SIZES, SUGGESTED, Setup, find_suggested, problems, suggested


def werewolf_8():
    deal = {"mode": "pool", "roles": ["seer", "witch"], "werewolves": 2, "specials": 2}
    return Setup("werewolf", 8, deal, {"reveal_on_death": False})


def test_key_is_a_stable_hash_of_what_decides_the_games():
    setup = werewolf_8()
    # The cache's key must not change between processes or releases of Python.
    assert setup.key() == "5a3dd049fb23b797b35962b1ea621973"
    reordered = Setup(
        "werewolf",
        8,
        {"specials": 2, "werewolves": 2, "roles": ["seer", "witch"], "mode": "pool"},
        {"reveal_on_death": False},
        name="another name",
    )
    assert reordered.key() == setup.key()


@pytest.mark.parametrize(
    "change",
    [
        {"seats": 9},
        {"deal": {"mode": "pool", "roles": ["seer"], "werewolves": 2, "specials": 1}},
        {"options": {"reveal_on_death": True}},
    ],
)
def test_key_changes_with_the_setup(change):
    setup = werewolf_8()
    fields = {**setup.as_dict(), **change}
    assert Setup.from_dict(fields).key() != setup.key()


def test_from_game_fields_copies_what_it_is_given():
    deal = {"mode": "pool", "roles": ["seer"], "werewolves": 1, "specials": 1}
    setup = Setup.from_game_fields("werewolf", "6", deal, None)
    deal["roles"].append("witch")
    assert setup.deal["roles"] == ["seer"] and setup.seats == 6 and setup.options == {}
    assert Setup.from_dict(setup.as_dict()) == setup


@pytest.mark.parametrize("ruleset", ["witchhunt", "werewolf"])
def test_suggested_setups_are_legal_at_every_size(ruleset):
    setups = SUGGESTED[ruleset]
    assert [s.seats for s in setups] == list(SIZES)
    for s in setups:
        assert problems(s) == []
        assert deal_problems(s.ruleset, s.deal, s.seats, seed=11) == []  # no warning either
        assert s.label() == f"{ruleset.capitalize()} {s.seats} (suggested)"
        assert find_suggested(s.slug()) is s and find_suggested(s.label()) is s


def test_suggested_witchhunt_keeps_two_thirds_villagers():
    for s in SUGGESTED["witchhunt"]:
        types = s.deal["types"]
        witches = types.get("elder_witch", 0) + types.get("junior_witch", 0)
        assert 0 < witches and 3 * witches <= s.seats  # "two-thirds or more" Villagers
        assert sum(types.values()) == s.seats


def test_an_unknown_setup_name_finds_nothing():
    assert find_suggested("witchhunt-13") is None
    assert suggested("werewolf", 13) is None


def test_a_witchhunt_pool_scales_in_proportion():
    base = suggested("witchhunt", 24)
    types = base.deal["types"]
    share = (types["elder_witch"] + types["junior_witch"]) / 24
    for n in (10, 20, 36, 48):
        s = scaled(base, n)
        types = s.deal["types"]
        assert s.seats == n and sum(types.values()) == n
        assert problems(s) == []
        witches = types.get("elder_witch", 0) + types.get("junior_witch", 0)
        assert abs(witches / n - share) < 0.1
        assert types.get("village_lover", 0) % 2 == 0
        assert types.get("holy_villager", 0) <= len(HOLY)
    assert scaled(base, 24) is base


def test_a_werewolf_pool_scales_its_werewolves():
    s = scaled(suggested("werewolf", 16), 32)
    assert s.deal["werewolves"] == 6 and problems(s) == []
    assert scaled(suggested("werewolf", 16), 5).deal["werewolves"] == 1


def test_an_explicit_list_scales_its_plain_cards():
    cards = [
        {"character": "priest", "type": "holy_villager"},
        {"character": "judge", "type": "elder_witch"},
        {"character": "gambler", "type": "basic_villager"},
        {"character": "recluse", "type": "basic_villager"},
        {"character": "survivalist", "type": "basic_villager"},
    ]
    base = Setup("witchhunt", 5, {"mode": "explicit", "cards": cards}, {})
    bigger = scaled(base, 8)
    kinds = [c["type"] for c in bigger.deal["cards"]]
    assert kinds.count("basic_villager") == 6 and kinds.count("elder_witch") == 1
    assert len({c["character"] for c in bigger.deal["cards"]}) == 8
    assert problems(bigger) == []
    smaller = scaled(base, 3)
    assert [c["type"] for c in smaller.deal["cards"]].count("basic_villager") == 1
    with pytest.raises(ValueError):
        scaled(base, 1)  # below its Holy Villager and its Witch
    wolves = Setup(
        "werewolf",
        4,
        {"mode": "explicit", "cards": [{"role": "werewolf"}] + [{"role": "villager"}] * 3},
        {},
    )
    assert [c["role"] for c in scaled(wolves, 6).deal["cards"]].count("villager") == 5
