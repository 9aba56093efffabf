"""Every rules case, the shared examples and the team's own (tests/engine/records), replayed
through the engine and judged by the shared conformance checker."""

import json
import re
import subprocess
import sys

import pytest

from games.engine import records
from games.engine.errors import RecordError
from tests.engine.cases import (
    EXAMPLES,
    INVALID,
    RECORDS,
    ROOT,
    case_files,
    load_case,
    shared_checker,
)

CHECK = shared_checker()
needs_shared = pytest.mark.skipif(
    CHECK is None, reason="../shared/conformance is not beside the checkout"
)


def _judge(path):
    case, expect = load_case(path)
    result, _ = records.play(json.dumps(case))
    assert CHECK.problems(expect, result) == []
    again, _ = records.play(json.dumps(case))
    assert records.dumps(again) == records.dumps(result)  # the same record, the same bytes


@needs_shared
@pytest.mark.parametrize("path", case_files(EXAMPLES), ids=lambda p: p.stem)
def test_conformance_example_passes(path):
    _judge(path)


@needs_shared
@pytest.mark.parametrize("path", case_files(RECORDS), ids=lambda p: p.stem)
def test_team_record_passes(path):
    _judge(path)


@pytest.mark.parametrize("path", case_files(INVALID), ids=lambda p: p.stem)
def test_invalid_setup_is_unreadable(path):
    with pytest.raises(RecordError, match="setup"):
        records.play(path.read_text())


def test_every_ruling_has_a_case():
    """At least one case per ruling: W-1..W-72 (W-9a.. count for W-9), WW-1..WW-16."""
    covered = {
        m.groups() for p in case_files(RECORDS) if (m := re.match(r"(ww?)(\d+)[a-z]?_", p.stem))
    }
    assert [n for n in range(1, 73) if ("w", str(n)) not in covered] == []
    assert [n for n in range(1, 17) if ("ww", str(n)) not in covered] == []


def _play_record(text, *args):
    return subprocess.run(
        [sys.executable, "manage.py", "play_record", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "bad JSON at line 1"),
        ('{"ruleset": "chess", "players": []}', "unknown ruleset 'chess'"),
        (
            '{"ruleset": "witchhunt", "players": [{"name": "a", "character": "pirate", '
            '"type": "basic_villager"}]}',
            "unknown character 'pirate'",
        ),
        (
            '{"ruleset": "witchhunt", "options": {"speed": 1}, "players": []}',
            "unknown option 'speed'",
        ),
    ],
)
def test_play_record_unreadable_exits_2_with_one_line(text, message):
    run = _play_record(text, "-")
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]


def _game(steps, players=None, **extra):
    players = players or [
        {"name": "ann", "character": "priest", "type": "holy_villager"},
        {"name": "bob", "character": "survivalist", "type": "elder_witch"},
        {"name": "cat", "character": "gambler", "type": "basic_villager"},
        {"name": "dan", "character": "recluse", "type": "basic_villager"},
    ]
    return json.dumps(
        {"ruleset": "witchhunt", "seed": 7, "players": players, "steps": steps, **extra}
    )


@pytest.mark.parametrize(
    "step, message",
    [
        ({"actor": "ann", "action": "dance"}, "unknown action 'dance'"),
        ({"advance": "week"}, "unknown advance 'week'"),
        ({"moderator": "ban", "player": "ann"}, "unknown moderator word 'ban'"),
        ({"actor": "ann", "action": "vote"}, "missing keys ['target']"),
        ({"actor": "ann", "action": "vote", "target": "bob", "why": "x"}, "unexpected keys"),
        (
            {"actor": "ann", "action": "ability", "targets": ["bob"], "guess": "pirate"},
            "'pirate' is not a character",
        ),
        (
            {"actor": "ann", "action": "ability", "targets": [], "choice": "red"},
            "'red' is not a valid choice",
        ),
        ({"actor": "ann", "action": "withdraw", "what": "vote"}, "cannot withdraw 'vote'"),
    ],
)
def test_malformed_step_is_unreadable(step, message):
    with pytest.raises(RecordError, match="steps\\[0\\]") as err:
        records.play(_game([step]))
    assert message in str(err.value)


def test_setup_checks_name_the_problem():
    players = [
        {"name": "ann", "character": "priest", "type": "basic_villager"},
        {"name": "bob", "character": "judge", "type": "elder_witch"},
        {"name": "cat", "character": "oracle", "type": "basic_villager"},
    ]
    with pytest.raises(RecordError, match="Priest is Holy"):
        records.play(_game([], players))
    with pytest.raises(RecordError, match="duplicate name 'ann'"):
        records.play(_game([], [players[1], players[0], players[0]]))


def test_format_example_plays_as_documented():
    """The record in FORMAT.md: Bob survives the lynch on his extra life, Cat dies at night."""
    steps = [
        {"actor": "ann", "action": "vote", "target": "bob"},
        {"actor": "cat", "action": "vote", "target": "bob"},
        {"actor": "dan", "action": "vote", "target": "bob"},
        {"actor": "bob", "action": "coven", "target": "cat"},
        {"actor": "ann", "action": "ability", "targets": ["bob"]},
        {"advance": "phase"},
        {"actor": "cat", "action": "vote", "target": "bob"},
    ]
    result, _ = records.play(_game(steps, options={"archangel_cards": 0}))
    assert result["log"][0] == {
        "phase": "day 1",
        "lynch": "bob",
        "deaths": [],
        "survivals": ["bob"],
        "public": [],
    }
    assert result["log"][1]["deaths"] == ["cat"]
    assert {
        "phase": "night 1",
        "to": "ann",
        "what": "priest",
        "about": "bob",
        "result": True,
    } in result["info"]
    assert [r["step"] for r in result["refused"]] == [6]
    assert result["refused"][0]["reason"] == "you are not a living player"
    assert result["final"]["alive"] == ["ann", "bob", "dan"]
    assert result["final"]["extra_lives"] == {"ann": 0, "bob": 0, "cat": 0, "dan": 0}


def test_two_thirds_warning_goes_to_stderr_only():
    players = [
        {"name": "a", "character": "judge", "type": "elder_witch"},
        {"name": "b", "character": "oracle", "type": "junior_witch"},
        {"name": "c", "character": "gambler", "type": "basic_villager"},
        {"name": "d", "character": "recluse", "type": "basic_villager"},
        {"name": "e", "character": "cupid", "type": "basic_villager"},
    ]
    run = _play_record(_game([], players), "-")
    assert run.returncode == 0
    assert "two thirds" in run.stderr
    assert json.loads(run.stdout)["final"]["winner"] is None
