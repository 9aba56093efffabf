"""The engine's refusals are marked for translation (games/engine/words.py): each is made
by `refusal`/`refusal_n` from a literal sentence with named placeholders, which
makemessages extracts, and every refusal a game meets is one of them."""

import ast
import json
import random
import re
from pathlib import Path

import pytest

from games.engine import Refusal, new_game, records
from games.engine.playout import random_game, random_setup
from games.engine.rulesets.base import Game

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
RECORDS = Path(__file__).resolve().parent / "records"
# A printf directive: %% or %(name)s are allowed; anything else (%s, %d, %r) is positional.
DIRECTIVE = re.compile(r"%(?:%|\((\w+)\)[sd]|.)")


def placeholders(msgid):
    """The names of `msgid`'s placeholders; AssertionError on a positional one."""
    names = set()
    for m in DIRECTIVE.finditer(msgid):
        if m.group(0) == "%%":
            continue
        assert m.group(1), f"{msgid!r}: {m.group(0)!r} is positional, name it: %(name)s"
        names.add(m.group(1))
    return names


def marked():
    """Every msgid the engine's `refusal(...)` and `refusal_n(...)` calls give, read from
    the source as makemessages reads it; each call checked as it goes."""
    found = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            name = node.func.id
            if name not in ("refusal", "refusal_n"):
                continue
            where = f"{path.relative_to(ENGINE)}:{node.lineno}"
            texts = node.args[: 2 if name == "refusal_n" else 1]
            assert all(isinstance(t, ast.Constant) and isinstance(t.value, str) for t in texts), (
                f"{where}: a refusal's words must be a literal, or makemessages misses them"
            )
            named = [placeholders(t.value) for t in texts]
            assert all(n == named[0] for n in named), f"{where}: singular and plural differ"
            given = node.args[3 if name == "refusal_n" else 1 :]
            want = named[0] - ({"count"} if name == "refusal_n" else set())
            if given and isinstance(given[0], ast.Dict):
                keys = {k.value for k in given[0].keys}
                assert keys == want, f"{where}: arguments {keys} for placeholders {want}"
            else:
                assert not want, f"{where}: placeholders {want} and no arguments"
            found.add(texts[0].value)
    return found


def test_every_refusal_call_is_a_literal_with_named_placeholders():
    assert len(marked()) > 80


@pytest.fixture
def refusals_met(monkeypatch):
    """Every refusal `try_apply` returns while the test runs."""
    met = []
    try_apply = Game.try_apply

    def kept(self, inp):
        why = try_apply(self, inp)
        if why is not None:
            met.append(why)
        return why

    monkeypatch.setattr(Game, "try_apply", kept)
    return met


def test_every_refusal_a_game_meets_is_marked_and_reads_as_its_english(refusals_met):
    """Random games of both rulesets and the record cases: each refusal is a Refusal made
    from a marked sentence, and its English is that sentence with its arguments."""
    for ruleset in ("witchhunt", "werewolf"):
        rng = random.Random(28)
        for _ in range(40):
            random_game(rng, random_setup(rng, ruleset, rng.randint(8, 24)))
    for path in sorted(RECORDS.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        try:
            records.replay(record)
        except Exception:  # noqa: BLE001 a record case of a setup the engine refuses
            continue
    sentences = marked()
    seen = set()
    for why in refusals_met:
        assert isinstance(why, Refusal), f"{why!r} is not a Refusal: not translatable"
        assert why.msgid in sentences, f"{why.msgid!r} is not marked"
        english = (why.plural if why.plural and why.args["count"] > 1 else why.msgid) % (
            why.args or {}
        )
        assert str(why) == why == english
        seen.add(why.msgid)
    assert len(seen) > 40, sorted(seen)  # the games met most of them


def test_a_refusal_keeps_the_english_the_records_have_always_given():
    game, _ = new_game(
        {
            "ruleset": "werewolf",
            "seed": 1,
            "players": [{"name": n, "role": "villager"} for n in ("ann", "bob", "cat")]
            + [{"name": "dan", "role": "werewolf"}],
        }
    )
    from games.engine import Input

    why = game.try_apply(Input("action", "ann", "vote", "zed"))
    assert why == "zed is not a living player" and why.args == {"target": "zed"}
    assert why.msgid == "%(target)s is not a living player"
    few = game.targets_refusal([], 0, 0)
    assert few is None
    assert str(game.targets_refusal(["ann"], 0, 0)) == "choose exactly 0 player"
    assert str(game.targets_refusal([], 2, 2)) == "choose exactly 2 players"
    assert str(game.targets_refusal([], 1, 3)) == "choose between 1 and 3 players"
