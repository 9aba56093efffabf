"""The project's own judge of a rules case: does the engine's result show what the case's
`expect` names?

A case is a game record (the format games/engine/records.py reads, described in
../shared/conformance/FORMAT.md) with one more key, `expect`:

  log             a list of phases; for each: `lynch`, `deaths`, `survivals` equal to that
                  phase's entry when given; `public_contains` / `public_lacks`: events
                  present in / absent from its `public` list
  info_contains   entries that must appear in `info`
  refused_steps   exactly these step indexes refused (in any order, repeats counted)
  final           each given key equal; `extra_lives` compares only the names it gives
  note            free text for the reader, not compared

An expected event or info entry *matches* an actual one when every key it gives is there
with an equal value; keys it leaves out are not compared.

This is at least as strict as the shared checker (tests/engine/test_records.py checks the
two agree wherever ../shared is present), and stricter where that one is lenient:
  - values are compared as JSON: `true` is not `1`, `false` is not `0`;
  - a compared key must be present in the result (a missing key is not `null`, a name
    missing from `extra_lives` is not 0 lives);
  - a phase named by `expect` must have exactly one log entry;
  - an `expect` the format does not describe (an unknown key, a log entry without
    `phase`, an event that is not an object) is itself a problem, so a typo cannot make a
    case pass by comparing nothing.
"""

EXPECT_KEYS = {"log", "info_contains", "refused_steps", "final", "note"}
LOG_KEYS = {"phase", "lynch", "deaths", "survivals", "public_contains", "public_lacks"}
LOG_VALUES = ("lynch", "deaths", "survivals")
_MISSING = object()


def same(want, got):
    """Equal as JSON values: like ==, but a boolean equals only a boolean."""
    if isinstance(want, bool) or isinstance(got, bool):
        return type(want) is type(got) and want == got
    if isinstance(want, dict):
        return (
            isinstance(got, dict)
            and want.keys() == got.keys()
            and all(same(v, got[k]) for k, v in want.items())
        )
    if isinstance(want, list):
        return (
            isinstance(got, list)
            and len(want) == len(got)
            and all(same(w, g) for w, g in zip(want, got, strict=True))
        )
    if isinstance(got, dict | list):
        return False
    return want == got


def matches(want, got):
    """`got` (an event or info entry) has every key of `want`, with an equal value."""
    return isinstance(got, dict) and all(k in got and same(v, got[k]) for k, v in want.items())


def _shape(expect):
    """What is malformed in `expect` itself: a problem there must never pass as 'nothing
    to compare'."""
    out = []
    if not isinstance(expect, dict):
        return [f"expect is not an object: {expect!r}"]
    if unknown := sorted(set(expect) - EXPECT_KEYS):
        out.append(f"expect: unknown keys {unknown}")
    if not isinstance(expect.get("log", []), list):
        out.append("expect log is not a list")
    else:
        for i, want in enumerate(expect.get("log", [])):
            if not isinstance(want, dict) or "phase" not in want:
                out.append(f"expect log[{i}] is not an object with a phase: {want!r}")
                continue
            if unknown := sorted(set(want) - LOG_KEYS):
                out.append(f"expect log[{i}] ({want['phase']}): unknown keys {unknown}")
            for key in ("public_contains", "public_lacks"):
                events = want.get(key, [])
                if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
                    out.append(f"expect log[{i}] {key} is not a list of objects")
    entries = expect.get("info_contains", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        out.append("expect info_contains is not a list of objects")
    steps = expect.get("refused_steps", [])
    if not isinstance(steps, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in steps
    ):
        out.append("expect refused_steps is not a list of step indexes")
    final = expect.get("final", {})
    if not isinstance(final, dict):
        out.append("expect final is not an object")
    elif not isinstance(final.get("extra_lives", {}), dict):
        out.append("expect final extra_lives is not an object")
    return out


def problems(expect, result):
    """Everything in `result` that differs from `expect`, one line each; [] when the
    result shows all that `expect` names."""
    out = _shape(expect)
    if out:
        return out
    log = result.get("log", [])
    for want in expect.get("log", []):
        phase = want["phase"]
        entries = [e for e in log if isinstance(e, dict) and e.get("phase") == phase]
        if len(entries) != 1:
            out.append(
                f"no log entry for {phase}"
                if not entries
                else f"{len(entries)} log entries for {phase}"
            )
            continue
        got = entries[0]
        for key in LOG_VALUES:
            if key in want and not same(want[key], got.get(key, _MISSING)):
                out.append(f"{phase} {key}: want {want[key]}, got {got.get(key, 'nothing')}")
        public = got.get("public", [])
        for event in want.get("public_contains", []):
            if not any(matches(event, e) for e in public):
                out.append(f"{phase} public lacks {event}")
        for event in want.get("public_lacks", []):
            if any(matches(event, e) for e in public):
                out.append(f"{phase} public has {event}")
    info = result.get("info", [])
    for want in expect.get("info_contains", []):
        if not any(matches(want, e) for e in info):
            out.append(f"info lacks {want}")
    if "refused_steps" in expect:
        got = sorted(r.get("step") for r in result.get("refused", []))
        want = sorted(expect["refused_steps"])
        if not same(want, got):
            out.append(f"refused steps: want {want}, got {got}")
    final = result.get("final", {})
    for key, value in expect.get("final", {}).items():
        if key == "extra_lives":
            lives = final.get("extra_lives", {})
            for name, n in value.items():
                if not same(n, lives.get(name, _MISSING)):
                    out.append(
                        f"final extra_lives[{name}]: want {n}, got {lives.get(name, 'nothing')}"
                    )
        elif not same(value, final.get(key, _MISSING)):
            out.append(f"final {key}: want {value}, got {final.get(key, 'nothing')}")
    return out
