"""Inputs: the steps of a game record (FORMAT.md), parsed once and checked for shape.

A step that is not well formed is a RecordError (the record cannot be read); whether a
well-formed step is *allowed* is the ruleset's question (GameRuleError).
"""

from .errors import RecordError

# action -> (required keys, optional keys), besides "actor" and "action"
ACTION_KEYS = {
    "vote": ({"target"}, set()),
    "unvote": (set(), set()),
    "coven": ({"target"}, set()),
    "court": ({"target"}, set()),
    "protect": ({"target"}, set()),
    "veto": ({"target"}, set()),
    "archangel": (set(), set()),
    "archdemon": ({"target"}, set()),
    "give_card": ({"target"}, set()),
    "save": ({"target"}, set()),
    "ability": (set(), {"targets", "guess", "choice"}),
    "weapon": ({"target"}, set()),
    "pack": ({"target"}, set()),
    "withdraw": ({"what"}, {"choice"}),  # WW-7: the Witch may withdraw one potion
}
# action -> every key its step may have, and the keys of its usual step (no optional one)
ALLOWED_KEYS = {
    action: frozenset({"actor", "action"} | required | optional)
    for action, (required, optional) in ACTION_KEYS.items()
}
USUAL_KEYS = {
    action: frozenset({"actor", "action"} | required)
    for action, (required, optional) in ACTION_KEYS.items()
}
# action -> (its usual step's number of keys, its one key besides "action": "actor" when it
# has no other): the usual ability step names its targets and no guess nor choice
USUAL_SHAPE = {
    action: (len(keys), next(iter(keys - {"actor", "action"}), "actor"))
    for action, keys in {**USUAL_KEYS, "ability": {"actor", "action", "targets"}}.items()
}
USUAL_SHAPE[None] = (0, None)  # a step without an action (an advance): found, never usual
WITHDRAWABLE = ("coven", "court", "protect", "veto", "save", "ability", "weapon", "pack")
MODERATOR_WORDS = {"remove": {"player"}, "replace": {"player"}, "stalemate": set()}
ADVANCES = ("phase", "midnight")


class Input:
    """One step. `kind` is "action", "moderator" or "advance".

    The fields may be given by position, in the order of __slots__: the parser and the
    random inputs make one for every step, and a call with keywords costs twice as much."""

    __slots__ = (
        "kind",
        "actor",
        "action",
        "target",
        "targets",
        "guess",
        "choice",
        "what",
        "word",
        "player",
    )

    def __init__(
        self,
        kind,
        actor=None,
        action=None,
        target=None,
        targets=(),
        guess=None,
        choice=None,
        what=None,
        word=None,
        player=None,
    ):
        self.kind = kind
        self.actor = actor
        self.action = action
        self.target = target
        self.targets = targets if type(targets) is tuple else tuple(targets)
        self.guess = guess
        self.choice = choice
        self.what = what
        self.word = word
        self.player = player

    def to_step(self) -> dict:
        """The record form of this input (the inverse of `parse_step`)."""
        if self.kind == "advance":
            return {"advance": self.word}
        if self.kind == "moderator":
            step = {"moderator": self.word}
            if self.player is not None:
                step["player"] = self.player
            return step
        step = {"actor": self.actor, "action": self.action}
        required, _ = ACTION_KEYS[self.action]
        if "target" in required:
            step["target"] = self.target
        if self.action == "withdraw":
            step["what"] = self.what
            if self.choice is not None:
                step["choice"] = self.choice
        if self.action == "ability":
            step["targets"] = list(self.targets)
            if self.guess is not None:
                step["guess"] = self.guess
            if self.choice is not None:
                step["choice"] = self.choice
        return step

    def __repr__(self):
        return f"Input({self.to_step()!r})"


_new = object.__new__  # an Input without its __init__ call (new_input)


def new_input(
    kind,
    actor=None,
    action=None,
    target=None,
    targets=(),
    guess=None,
    choice=None,
    what=None,
    word=None,
    player=None,
):
    """`Input(...)` for the engine's own hot paths (the record parser, the random
    proposer), `targets` already a tuple: a class call with a Python __init__ costs a frame
    of its own in CPython 3.11, about a quarter of an input's making."""
    inp = _new(Input)
    inp.kind = kind
    inp.actor = actor
    inp.action = action
    inp.target = target
    inp.targets = targets
    inp.guess = guess
    inp.choice = choice
    inp.what = what
    inp.word = word
    inp.player = player
    return inp


def _name(value, where, key):
    if not isinstance(value, str) or not value:
        raise RecordError(f"{where}: '{key}' must be a player name")
    return value


def parse_step(step, where, ruleset) -> Input:
    """Parse one record step; `ruleset` supplies the guesses and choices it knows. Actions
    are the format's whole vocabulary: one a ruleset has no use for is refused, not unread."""
    if type(step) is dict:
        # The usual step (nearly every step of a record), inline: an action step with
        # exactly its action's usual keys, made with the same checks in the same order as
        # `_action_step`. Its keys are tested by count and membership: comparing
        # `step.keys()` with a set costs about three times as much.
        action = step.get("action")
        try:
            size, extra = USUAL_SHAPE[action]
        except (KeyError, TypeError):  # not an action's name (the slow path says why)
            size = extra = None
        if len(step) == size and "actor" in step and extra in step:
            actor = step["actor"]
            if type(actor) is not str or not actor:  # a plain name passes without the call
                actor = _name(actor, where, "actor")
            if extra == "target":
                target = step["target"]
                if type(target) is not str or not target:
                    target = _name(target, where, "target")
                return new_input("action", actor, action, target)
            if extra == "targets":  # the usual ability step: no guess nor choice
                targets = _targets(step["targets"], where)
                return new_input("action", actor, action, None, targets)
            if extra == "what":
                what = _withdrawn(step["what"], where)
                return new_input("action", actor, action, None, (), None, None, what)
            return new_input("action", actor, action)
    elif not isinstance(step, dict):
        raise RecordError(f"{where}: a step must be an object")
    if "advance" in step:
        return _advance_step(step, where)
    if "moderator" in step:
        return _moderator_step(step, where)
    return _action_step(step, where, ruleset)


def _advance_step(step, where):
    if len(step) != 1:
        raise RecordError(f"{where}: unexpected keys {sorted(step.keys() - {'advance'})}")
    if step["advance"] not in ADVANCES:
        raise RecordError(f"{where}: unknown advance {step['advance']!r}")
    return Input("advance", word=step["advance"])


def _moderator_step(step, where):
    word = step["moderator"]
    if word not in MODERATOR_WORDS:
        raise RecordError(f"{where}: unknown moderator word {word!r}")
    expected = {"moderator"} | MODERATOR_WORDS[word]
    if step.keys() != expected:
        raise RecordError(f"{where}: a '{word}' step takes exactly the keys {sorted(expected)}")
    player = _name(step["player"], where, "player") if "player" in step else None
    return Input("moderator", word=word, player=player)


def _action_step(step, where, ruleset):
    """Any action step: its keys checked against its action's, then each value."""
    if "actor" not in step or "action" not in step:
        raise RecordError(f"{where}: a step needs 'actor' and 'action', 'advance' or 'moderator'")
    action = step["action"]
    if action not in ACTION_KEYS:
        raise RecordError(f"{where}: unknown action {action!r}")
    _check_keys(step.keys(), action, where)
    actor = step["actor"]
    if type(actor) is not str or not actor:
        actor = _name(actor, where, "actor")
    inp = Input("action", actor, action)
    if "target" in step:
        target = step["target"]
        inp.target = target if type(target) is str and target else _name(target, where, "target")
    if action == "withdraw":
        inp.what = _withdrawn(step["what"], where)
    if ACTION_KEYS[action][1]:  # only an action with optional keys may have those below
        _optional_keys(inp, step, where, ruleset)
    return inp


def _check_keys(keys, action, where):
    """`keys` (a set-like view: no set is built unless they are wrong) are `action`'s:
    none unknown, none missing."""
    if keys == USUAL_KEYS[action]:  # one test for the usual step; else which keys are wrong
        return
    required, optional = ACTION_KEYS[action]
    if not keys <= ALLOWED_KEYS[action]:
        extra = keys - {"actor", "action"} - required - optional
        raise RecordError(f"{where}: unexpected keys {sorted(extra)} for '{action}'")
    if not required <= keys:
        raise RecordError(f"{where}: missing keys {sorted(required - keys)} for '{action}'")


def _optional_keys(inp, step, where, ruleset):
    """An ability's targets, guess and choice, a withdrawal's choice, onto `inp`."""
    if "targets" in step:
        inp.targets = _targets(step["targets"], where)
    if "guess" in step:
        if step["guess"] not in ruleset.GUESSES:
            raise RecordError(f"{where}: {step['guess']!r} is not a character")
        inp.guess = step["guess"]
    if "choice" in step:
        if step["choice"] not in ruleset.CHOICES:
            raise RecordError(f"{where}: {step['choice']!r} is not a valid choice")
        inp.choice = step["choice"]


def _targets(value, where):
    if not isinstance(value, list):
        raise RecordError(f"{where}: 'targets' must be a list of names")
    targets = tuple(value)
    for t in targets:  # a plain name passes without the call, which raises for others
        if type(t) is not str or not t:
            _name(t, where, "targets")
    return targets


def _withdrawn(what, where):
    if what not in WITHDRAWABLE:
        raise RecordError(f"{where}: cannot withdraw {what!r}")
    return what
