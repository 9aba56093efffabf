"""Every rules case replayed through the engine: the team's own (tests/engine/records),
always, judged by the project's comparison (tests/engine/conformance.py); the shared
examples, where ../shared is beside the checkout, judged by the shared checker and by ours,
and the two checkers checked against each other."""

import json
import re
import subprocess
import sys

import pytest

from games.engine import records
from games.engine.errors import RecordError
from tests.engine import conformance
from tests.engine.cases import (
    INVALID,
    RECORDS,
    ROOT,
    case_files,
    case_id,
    load_case,
    shared_checker,
    shared_examples,
)


def _play(case):
    result, _ = records.play(json.dumps(case))
    again, _ = records.play(json.dumps(case))
    assert records.dumps(again) == records.dumps(result)  # the same record, the same bytes
    return result


@pytest.mark.parametrize("path", case_files(RECORDS), ids=case_id)
def test_team_record_passes(path):
    case, expect = load_case(path)
    assert conformance.problems(expect, _play(case)) == []


@pytest.mark.parametrize("path", shared_examples(), ids=case_id)
def test_conformance_example_passes(path):
    """A shared example passes the shared checker, as in CI, and ours."""
    check = shared_checker()
    assert path is not None, "the shared folder holds no conformance examples"
    case, expect = load_case(path)
    result = _play(case)
    assert check.problems(expect, result) == []
    assert conformance.problems(expect, result) == []


def _other(value):
    """A value that no expectation met by `value` accepts."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, list):
        return [*value, "zz"]
    if isinstance(value, dict):
        return {**value, "zz": 0}
    return "zz" if value is None else None


def _wrong_results(expect, result):
    """Copies of `result`, each wrong in one place that `expect` names (or wholly empty)."""

    def copy():
        return json.loads(json.dumps(result))

    for key, empty in (("log", []), ("info", []), ("refused", []), ("final", {})):
        yield {**copy(), key: empty}
    for want in expect.get("log", []):
        for i, entry in enumerate(result["log"]):
            if entry.get("phase") != want.get("phase"):
                continue
            wrong = copy()
            del wrong["log"][i]
            yield wrong
            for key in conformance.LOG_VALUES:
                wrong = copy()
                wrong["log"][i][key] = _other(entry.get(key))
                yield wrong
            for event in want.get("public_contains", []):
                wrong = copy()
                public = entry.get("public", [])
                wrong["log"][i]["public"] = [e for e in public if not conformance.matches(event, e)]
                yield wrong
            for event in want.get("public_lacks", []):
                wrong = copy()
                wrong["log"][i].setdefault("public", []).append({**event, "extra": 1})
                yield wrong
    for want in expect.get("info_contains", []):
        wrong = copy()
        wrong["info"] = [e for e in result["info"] if not conformance.matches(want, e)]
        yield wrong
        for key in want:
            wrong = copy()
            wrong["info"] = [
                {**e, key: _other(e[key])} if conformance.matches(want, e) else e
                for e in result["info"]
            ]
            yield wrong
    if "refused_steps" in expect:
        wrong = copy()
        wrong["refused"].append({"step": 10**6, "reason": "wrong"})
        yield wrong
        for i in range(len(result["refused"])):
            wrong = copy()
            del wrong["refused"][i]
            yield wrong
    for key, value in expect.get("final", {}).items():
        wrong = copy()
        wrong["final"][key] = _other(result["final"].get(key))
        yield wrong
        if key == "extra_lives":
            for name in value:
                wrong = copy()
                wrong["final"]["extra_lives"][name] = _other(wrong["final"][key].get(name, 0))
                yield wrong
                wrong = copy()
                wrong["final"]["extra_lives"].pop(name, None)
                yield wrong


def _disagreements(check, path):
    """Where the shared checker finds a problem that ours does not, for this case's result
    and for every wrong copy of it; and whether they differ on the result itself."""
    case, expect = load_case(path)
    try:
        result, _ = records.play(json.dumps(case))
    except RecordError:  # nothing to judge: the case's own test reports it
        return []
    out = []
    if bool(check.problems(expect, result)) != bool(conformance.problems(expect, result)):
        out.append(
            f"{path.stem}: shared {check.problems(expect, result)}, "
            f"ours {conformance.problems(expect, result)}"
        )
    for wrong in _wrong_results(expect, result):
        if check.problems(expect, wrong) and not conformance.problems(expect, wrong):
            out.append(f"{path.stem}: ours passes what the shared checker fails: {wrong}")
    return out


@pytest.mark.parametrize("path", shared_examples(), ids=case_id)
def test_checkers_agree_on_example(path):
    """Ours is at least as strict as the shared checker: on each shared example's result
    they agree, and ours fails every wrong copy of it that the shared one fails."""
    check = shared_checker()
    assert path is not None, "the shared folder holds no conformance examples"
    assert _disagreements(check, path) == []


@pytest.mark.slow
def test_checkers_agree_on_the_team_records():
    """The same for the team's records, which name more kinds of expectation (one test:
    the records themselves run through test_team_record_passes everywhere)."""
    check = shared_checker()
    assert [d for path in case_files(RECORDS) for d in _disagreements(check, path)] == []


@pytest.mark.parametrize("path", case_files(INVALID), ids=lambda p: p.stem)
def test_invalid_setup_is_unreadable(path):
    with pytest.raises(RecordError, match="setup"):
        records.play(path.read_text())


def test_every_ruling_has_a_case():
    """At least one case per ruling: W-1..W-76 (W-9a.. count for W-9), WW-1..WW-19, and
    each lettered ruling the engine implements (W-2a is the clock's, not the engine's)."""
    covered = {
        m.groups() for p in case_files(RECORDS) if (m := re.match(r"(ww?)(\d+)[a-z]?_", p.stem))
    }
    assert [n for n in range(1, 77) if ("w", str(n)) not in covered] == []
    assert [n for n in range(1, 20) if ("ww", str(n)) not in covered] == []
    lettered = {m.group(1) for p in case_files(RECORDS) if (m := re.match(r"(w\d+[a-z])_", p.stem))}
    assert {"w5a", "w8a", "w11a", "w11b", "w14a", "w69a", "w72a", "w72b"} - lettered == set()


def _play_record(text, *args):
    return subprocess.run(
        [sys.executable, "manage.py", "play_record", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


@pytest.mark.slow
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
        # W-76, FORMAT: a record names revision "3" or "2b" (or none: "2b"); anything else
        # exits 2, before any step is played under rulings the game never had
        ('{"ruleset": "witchhunt", "revision": "4", "players": []}', "unknown revision '4'"),
        ('{"ruleset": "werewolf", "revision": "2a", "players": []}', "unknown revision '2a'"),
        ('{"ruleset": "witchhunt", "revision": 3, "players": []}', "unknown revision 3"),
        ('{"ruleset": "witchhunt", "revision": null, "players": []}', "unknown revision None"),
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


@pytest.mark.slow
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


def _record(revision=None, **extra):
    players = [
        {"name": "ann", "character": "priest", "type": "holy_villager"},
        {"name": "bob", "character": "survivalist", "type": "elder_witch"},
        {"name": "cat", "character": "gambler", "type": "basic_villager"},
        {"name": "dan", "character": "recluse", "type": "basic_villager"},
    ]
    record = {"ruleset": "witchhunt", "seed": 7, "players": players, "steps": [], **extra}
    if revision is not None:
        record["revision"] = revision
    return record


@pytest.mark.parametrize("revision, played", [(None, "2b"), ("2b", "2b"), ("3", "3")])
def test_a_game_is_played_under_its_records_revision(revision, played):
    """W-76: the game carries the revision its record names, "2b" when it names none, on
    both ways in (a record replayed, and the API's new_game, which the site calls)."""
    from games.engine import new_game

    _ruleset, game, _steps, _warnings = records.start(_record(revision))
    assert game.revision == played
    assert new_game(_record(revision))[0].revision == played


def test_an_unknown_revision_is_refused_by_the_api_too():
    from games.engine import new_game

    with pytest.raises(RecordError, match="revision: unknown revision '9'"):
        new_game(_record("9"))


def test_a_record_without_a_revision_plays_as_revision_2b():
    """FORMAT: absent means "2b". The shared example of revision 3's per-name lapse, without
    its revision, gives the bytes the same record gives under "2b", and not those of "3"."""
    path = RECORDS / "w8a_r3_summoner_unsaved_names_lapse_one_by_one.json"
    case, _expect = load_case(path)
    played = {
        revision: records.dumps(records.play(json.dumps({**case, "revision": revision}))[0])
        for revision in ("2b", "3")
    }
    del case["revision"]
    unnamed = records.dumps(records.play(json.dumps(case))[0])
    assert unnamed == played["2b"] != played["3"]


@pytest.mark.slow
def test_the_play_record_command_replays_a_record_under_the_revision_it_names():
    """W-76, FORMAT: `manage.py play_record` (what the shared checker runs) prints, for a
    record naming "3", revision 3's result; for "2b" or no revision, 2b's."""
    path = RECORDS / "w8a_r3_summoner_unsaved_names_lapse_one_by_one.json"
    case, _expect = load_case(path)
    printed = {}
    for revision in ("3", "2b", None):
        record = (
            {**case, "revision": revision}
            if revision
            else {k: v for k, v in case.items() if k != "revision"}
        )
        run = _play_record(json.dumps(record), "-")
        assert run.returncode == 0, run.stderr
        printed[revision] = run.stdout
    assert printed[None] == printed["2b"] != printed["3"]
    assert printed["3"].strip() == records.dumps(records.play(json.dumps(case))[0])
