"""The project's judge of rules cases (tests/engine/conformance.py) on hand-made results:
what it accepts and what it must refuse, whether or not ../shared is there."""

import pytest

from tests.engine.conformance import matches, problems, same

RESULT = {
    "log": [
        {"phase": "day 1", "lynch": "bob", "deaths": [], "survivals": ["bob"], "public": []},
        {
            "phase": "night 1",
            "lynch": None,
            "deaths": ["cat"],
            "survivals": [],
            "public": [{"event": "spies_dead"}],
        },
    ],
    "info": [
        {"phase": "night 1", "to": "ann", "what": "priest", "about": "bob", "result": True},
        {"phase": "night 1", "to": "ann", "what": "archangel_card", "result": 1},
    ],
    "refused": [{"step": 6, "reason": "cat is not a living player"}],
    "final": {
        "phase": "day 2",
        "alive": ["ann", "bob", "dan"],
        "dead": ["cat"],
        "extra_lives": {"ann": 0, "bob": 0, "cat": 0, "dan": 1},
        "winner": None,
        "winners": [],
    },
}


def test_what_the_result_shows_passes():
    expect = {
        "note": "anything",
        "log": [
            {"phase": "day 1", "lynch": "bob", "survivals": ["bob"], "public_lacks": []},
            {
                "phase": "night 1",
                "deaths": ["cat"],
                "lynch": None,
                "public_contains": [{"event": "spies_dead"}],
                "public_lacks": [{"event": "halftime"}],
            },
        ],
        "info_contains": [{"what": "priest", "about": "bob", "result": True}, {"result": 1}],
        "refused_steps": [6],
        "final": {"alive": ["ann", "bob", "dan"], "winner": None, "extra_lives": {"dan": 1}},
    }
    assert problems(expect, RESULT) == []
    assert problems({}, RESULT) == []


@pytest.mark.parametrize(
    "expect, problem",
    [
        ({"log": [{"phase": "day 3"}]}, "no log entry for day 3"),
        ({"log": [{"phase": "day 1", "lynch": None}]}, "day 1 lynch"),
        ({"log": [{"phase": "day 1", "deaths": ["bob"]}]}, "day 1 deaths"),
        ({"log": [{"phase": "day 1", "survivals": []}]}, "day 1 survivals"),
        ({"log": [{"phase": "night 1", "deaths": []}]}, "night 1 deaths"),
        # Lists compare whole and in order.
        ({"final": {"alive": ["ann", "bob"]}}, "final alive"),
        ({"final": {"alive": ["bob", "ann", "dan"]}}, "final alive"),
        (
            {"log": [{"phase": "night 1", "public_contains": [{"event": "halftime"}]}]},
            "night 1 public lacks",
        ),
        (
            {"log": [{"phase": "night 1", "public_lacks": [{"event": "spies_dead"}]}]},
            "night 1 public has",
        ),
        # "lacks" matches on the keys it gives: any spies_dead event is one too many.
        ({"log": [{"phase": "night 1", "public_lacks": [{}]}]}, "night 1 public has"),
        ({"info_contains": [{"what": "priest", "result": False}]}, "info lacks"),
        ({"info_contains": [{"what": "priest", "result": True, "x": 1}]}, "info lacks"),
        ({"refused_steps": []}, "refused steps"),
        ({"refused_steps": [6, 6]}, "refused steps"),
        ({"refused_steps": [5]}, "refused steps"),
        ({"final": {"winner": "village"}}, "final winner"),
        ({"final": {"extra_lives": {"dan": 0}}}, "final extra_lives[dan]"),
        # Stricter than a plain ==: true is not 1, and absent is not null nor 0 lives.
        ({"info_contains": [{"what": "priest", "result": 1}]}, "info lacks"),
        ({"info_contains": [{"what": "archangel_card", "result": True}]}, "info lacks"),
        ({"final": {"extra_lives": {"dan": True}}}, "final extra_lives[dan]"),
        ({"final": {"extra_lives": {"eve": 0}}}, "final extra_lives[eve]"),
        ({"final": {"ended": None}}, "final ended"),
        ({"info_contains": [{"what": "priest", "missing": None}]}, "info lacks"),
        # An expectation the format does not describe is a problem, not "nothing to check".
        ({"finals": {"winner": None}}, "unknown keys ['finals']"),
        ({"log": [{"phase": "day 1", "death": ["bob"]}]}, "unknown keys ['death']"),
        ({"log": [{"lynch": "bob"}]}, "not an object with a phase"),
        ({"log": [{"phase": "day 1", "public_lacks": "spies_dead"}]}, "not a list of objects"),
        ({"info_contains": {"what": "priest"}}, "not a list of objects"),
        ({"refused_steps": [True]}, "not a list of step indexes"),
        ({"final": {"extra_lives": 1}}, "extra_lives is not an object"),
    ],
)
def test_what_the_result_does_not_show_is_a_problem(expect, problem):
    found = problems(expect, RESULT)
    assert len(found) == 1 and problem in found[0], found


def test_a_phase_logged_twice_is_a_problem():
    doubled = {**RESULT, "log": [*RESULT["log"], RESULT["log"][0]]}
    assert problems({"log": [{"phase": "day 1"}]}, doubled) == ["2 log entries for day 1"]


def test_same_and_matches():
    assert same({"a": [1, None]}, {"a": [1, None]})
    assert not same({"a": 1}, {"a": 1, "b": 2})
    assert not same([1], [True]) and not same(0, False) and not same(None, [])
    assert matches({}, {"event": "alarm"}) and not matches({}, "alarm")
    assert matches({"event": "gift"}, {"event": "gift", "player": "ann", "from": "bob"})
    assert not matches({"player": None}, {"event": "gift"})
