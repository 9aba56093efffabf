"""options_for: what a seat may do now, as the engine's own check decides it."""

from games.engine import apply, new_game
from games.engine.options import coming_options, options_for


def _werewolf(*roles):
    players = [{"name": f"p{i}", "role": r} for i, r in enumerate(roles)]
    game, _ = new_game({"ruleset": "werewolf", "seed": 1, "players": players})
    return game


def _actions(game, name):
    return {o.action: o for o in options_for(game, name)}


def test_witch_without_a_victim_may_still_poison():
    game = _werewolf("werewolf", "witch", "villager", "villager")
    apply(game, {"advance": "phase"})
    apply(game, {"advance": "midnight"})
    option = _actions(game, "p1")["ability"]
    # Only the legal choices: no heal without the pack's victim.
    assert option.choices == ["poison"] and option.hi == 1


def test_witch_with_a_victim_may_heal_or_poison():
    game = _werewolf("werewolf", "witch", "villager", "villager")
    apply(game, {"advance": "phase"})
    apply(game, {"actor": "p0", "action": "pack", "target": "p2"})
    apply(game, {"advance": "midnight"})
    assert _actions(game, "p1")["ability"].choices == ["heal", "poison"]


def test_day_vote_targets_are_exactly_the_living():
    game = _werewolf("werewolf", "seer", "villager", "villager", "villager")
    for voter in ("p1", "p2", "p3"):
        apply(game, {"actor": voter, "action": "vote", "target": "p4"})
    apply(game, {"advance": "phase"})  # night 1, then morning
    vote = _actions(game, "p0")["vote"]
    assert vote.targets == ["p0", "p1", "p2", "p3"]
    assert _actions(game, "p4") == {}  # the dead do nothing in Werewolf


def test_pack_may_not_target_a_werewolf_and_villager_has_nothing_at_night():
    game = _werewolf("werewolf", "werewolf", "villager", "villager", "villager", "seer")
    apply(game, {"advance": "phase"})
    assert _actions(game, "p0")["pack"].targets == ["p2", "p3", "p4", "p5"]
    assert _actions(game, "p2") == {}


def test_an_angel_may_protect_at_night():
    players = [{"name": "w", "character": "judge", "type": "elder_witch"}] + [
        {"name": n, "character": c, "type": "basic_villager"}
        for n, c in (("a", "oracle"), ("b", "zealot"), ("c", "templar"), ("d", "cupid"))
    ]
    game, _ = new_game({"ruleset": "witchhunt", "seed": 1, "players": players})
    for voter in ("b", "c", "d"):
        apply(game, {"actor": voter, "action": "vote", "target": "a"})
    assert game.night
    assert _actions(game, "a")["protect"].targets == ["w", "b", "c", "d"]
    assert "protect" not in _actions(game, "b")


# --- only legal choices; what opens later ------------------------------------------------
COURT = [
    ("kim", "king", "holy_villager"),
    ("qin", "queen", "basic_villager"),
    ("pal", "paladin", "basic_villager"),
    ("w1", "judge", "elder_witch"),
    ("a", "oracle", "basic_villager"),
    ("b", "innkeeper", "basic_villager"),
    ("c", "zealot", "basic_villager"),
]


def _witchhunt(cast, steps=()):
    players = [{"name": n, "character": c, "type": t} for n, c, t in cast]
    game, _ = new_game({"ruleset": "witchhunt", "seed": 1, "players": players, "lovers": []})
    for step in steps:
        apply(game, step)
    return game


def test_the_paladins_form_lists_court_members_only():
    # W-51: the Paladin gives an extra life to a member of the Court (on an even night).
    game = _witchhunt(
        COURT,
        [
            {"advance": "phase"},
            {"actor": "kim", "action": "ability", "targets": []},
            {"advance": "phase"},
            {"advance": "phase"},
        ],
    )
    assert game.night
    court = set(game.court_living())
    option = _actions(game, "pal")["ability"]
    assert option.targets and set(option.targets) <= court
    assert "a" not in option.targets and "w1" not in option.targets


def test_every_offered_target_and_choice_is_accepted_by_the_engine():
    """The forms come from the engine's own check: whatever they offer, it accepts."""
    import pickle
    import random

    from games.engine import parse_input
    from games.engine.playout import random_game, random_setup

    rng = random.Random(7)
    for ruleset in ("witchhunt", "werewolf"):
        for _ in range(12):
            setup = random_setup(rng, ruleset, 12)
            game, steps = random_game(rng, setup, max_steps=rng.randint(0, 60))
            if game.over:
                continue
            for seat in game.seats:
                for o in options_for(game, seat.name):
                    if o.action != "ability":
                        continue
                    for choice in o.choices or [None]:
                        for t in o.targets[:3]:
                            copy = pickle.loads(pickle.dumps(game))
                            step = {"actor": seat.name, "action": "ability", "targets": [t]}
                            step["targets"] += [
                                n for n in copy.living_names if n not in (t, seat.name)
                            ][: o.lo - 1]
                            if o.guesses:
                                step["guess"] = o.guesses[0]
                            if choice:
                                step["choice"] = choice
                            why = copy.refusal(parse_input(copy, step))
                            if why is not None and choice != "heal":  # a heal names no one
                                raise AssertionError((ruleset, seat.name, step, why))


def test_the_werewolf_witch_is_told_before_midnight_what_opens_after_it():
    game = _werewolf("werewolf", "witch", "villager", "villager", "villager")
    # By day: tonight, but only after its midnight (WW-5), not from nightfall.
    assert coming_options(game, "p1") == ("night_midnight", ["ability"])
    apply(game, {"advance": "phase"})
    assert "ability" not in _actions(game, "p1")
    assert coming_options(game, "p1") == ("midnight", ["ability"])
    apply(game, {"advance": "midnight"})
    assert coming_options(game, "p1") == ("", [])  # it is open now
    assert coming_options(game, "p2") == ("", [])  # a Villager has nothing coming


def test_the_preview_never_tells_whether_the_pack_has_chosen():
    """What the Witch is told before midnight is the same whether or not the pack has a
    victim yet: the preview names kinds of action, never their choices or targets."""
    quiet = _werewolf("werewolf", "witch", "villager", "villager", "villager")
    chosen = _werewolf("werewolf", "witch", "villager", "villager", "villager")
    for game in (quiet, chosen):
        apply(game, {"advance": "phase"})
    apply(chosen, {"actor": "p0", "action": "pack", "target": "p2"})
    assert coming_options(quiet, "p1") == coming_options(chosen, "p1")


def test_the_preview_of_tonight_never_runs_the_days_end():
    """By day, the preview begins the night without ending the day: a Judge's hidden pick
    (W-30) that would lynch someone changes nothing the preview says."""
    cast = [
        ("j", "judge", "elder_witch"),
        ("p", "priest", "holy_villager"),
        ("a", "oracle", "basic_villager"),
        ("b", "innkeeper", "basic_villager"),
        ("c", "zealot", "basic_villager"),
        ("d", "cupid", "basic_villager"),
        ("e", "templar", "basic_villager"),
    ]
    plain = _witchhunt(cast)
    picked = _witchhunt(cast)
    apply(picked, {"actor": "j", "action": "ability", "targets": ["p"]})
    assert coming_options(plain, "p") == coming_options(picked, "p")
    assert coming_options(plain, "p") == ("night", ["ability"])  # the Priest's check
    before = len(picked.events)
    coming_options(picked, "p")
    assert len(picked.events) == before and not picked.night  # the game itself is untouched


def test_the_seer_is_told_by_day_that_her_check_opens_at_nightfall():
    game = _werewolf("seer", "werewolf", "villager", "villager", "villager")
    assert coming_options(game, "p0") == ("night", ["ability"])  # p0: the Seer
    assert coming_options(game, "p1") == ("night", ["pack"])  # the pack meets at nightfall
