"""Game records (../shared/conformance/FORMAT.md): read one, replay it, print the result."""

import json

from .collector import collector_paused
from .errors import RecordError
from .inputs import parse_step
from .revisions import REVISIONS, UNNAMED
from .rulesets import get_ruleset
from .rulesets.base import ALIVE

RECORD_KEYS = {"ruleset", "revision", "seed", "options", "players", "lovers", "steps"}
RESULT_KINDS = frozenset({"info", "phase", "death", "survival", "lynch", "public"})


def load(text):
    """Parse a record's JSON text. Raises RecordError."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"bad JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    return record


def parse_revision(record):
    """The rulings revision a record's game is played under (W-76, FORMAT): "3" or "2b";
    a record without one is "2b" (written before revision 3). Raises RecordError for
    anything else (null, a number, an unknown name): a game must never be played under
    rulings other than the ones it started with."""
    if "revision" not in record:
        return UNNAMED
    revision = record["revision"]
    if not isinstance(revision, str) or revision not in REVISIONS:
        expected = " or ".join(repr(r) for r in reversed(REVISIONS))
        raise RecordError(f"revision: unknown revision {revision!r} (expected {expected})")
    return revision


def begin(record):
    """(ruleset, game, warnings): a record's game at Day 1, under the record's revision
    (W-76). Raises RecordError for a setup that cannot be played."""
    ruleset = get_ruleset(record.get("ruleset"))
    revision = parse_revision(record)
    if ruleset.name != "witchhunt" and record.get("lovers"):
        raise RecordError("lovers: only Witchhunt records name Lover pairs")
    game, warnings = ruleset.new_game(record)
    game.revision = revision
    return ruleset, game, warnings


def start(record):
    """(ruleset, game, parsed steps, warnings) for a record; raises RecordError."""
    ruleset, game, warnings = begin(record)
    steps = record.get("steps", [])
    if not isinstance(steps, list):
        raise RecordError("steps: must be a list")
    try:
        inputs = [parse_step(s, None, ruleset) for s in steps]
    except RecordError:  # parsed again for the message, which names the step
        inputs = [parse_step(s, f"steps[{i}]", ruleset) for i, s in enumerate(steps)]
    return ruleset, game, inputs, warnings


def replay(record):
    """Replay a parsed record; returns (ruleset, game, refused, warnings)."""
    with collector_paused():
        ruleset, game, inputs, warnings = start(record)
        refused = []
        try_apply = game.try_apply  # the refusal returned, not raised: apply's cost without it
        for i, inp in enumerate(inputs):
            why = try_apply(inp)
            if why is not None:  # a refusal without arguments is its sentence (words.py)
                reason = why.msgid if why.args is None else str(why)
                refused.append({"step": i, "reason": reason})
        # Freed before the collector resumes, so that its first pass does not walk them:
        # the inputs the game keeps (its submissions) live on in the game.
        inputs = inp = None
    return ruleset, game, refused, warnings


def result(ruleset, game, refused):
    """The result object of FORMAT.md, built from the game's events alone."""
    log = []
    entries = {}
    info = []
    told = info.append
    for ev in game.events:
        kind = ev.kind
        if kind not in RESULT_KINDS:  # most events (votes, submissions, logs) are not
            continue
        if kind == "info":  # each item made whole, its keys in FORMAT's order
            d = ev.data
            if "about" in d:
                told(
                    {
                        "phase": ev.phase,
                        "to": ev.to[0],
                        "what": d["what"],
                        "about": d["about"],
                        "result": d["result"],
                    }
                )
            else:
                told({"phase": ev.phase, "to": ev.to[0], "what": d["what"], "result": d["result"]})
        elif kind == "phase":
            entry = {"phase": ev.phase, "lynch": None, "deaths": [], "survivals": [], "public": []}
            entries[ev.phase] = entry
            log.append(entry)
        elif kind == "death":
            entries[ev.phase]["deaths"].append(ev.data["player"])
        elif kind == "survival":
            entries[ev.phase]["survivals"].append(ev.data["player"])
        elif kind == "lynch":
            entries[ev.phase]["lynch"] = ev.data["target"]
        elif kind == "public":
            entries[ev.phase]["public"].append(ev.data)
    for entry in log:
        entry["deaths"].sort()
        entry["survivals"].sort()
    alive = sorted(p.name for p in game.seats if p.status == ALIVE)
    final = {
        "phase": game.phase,
        "alive": alive,
        "dead": sorted(p.name for p in game.seats if p.status != ALIVE),
    }
    final.update(ruleset.final(game))
    final["winner"] = game.winner
    final["winners"] = sorted(game.winners)
    return {"log": log, "info": info, "refused": refused, "final": final}


def play(text):
    """The `play_record` command's work: record text in, (result, warnings) out."""
    record = load(text)
    ruleset, game, refused, warnings = replay(record)
    return result(ruleset, game, refused), warnings


def dumps(result_obj):
    return json.dumps(result_obj, sort_keys=False, ensure_ascii=False)
