"""Forms of the game pages. They check shape only; the rules are the engine's to judge
(services raise GameRuleError with the reason shown to the player)."""

import re
from datetime import datetime, timedelta

from django import forms
from django.forms.utils import flatatt
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy

from games.engine import CHARACTERS, HOLY, ROLES, TYPES, WITHDRAWABLE, GameRuleError

from .markup import MAX_LENGTH
from .models import (
    DEFAULT_EARLY_END_GRACE,
    DEFAULT_REMINDER_HOURS,
    MAX_EARLY_END_GRACE,
    MIN_EARLY_END_GRACE,
    Game,
    validate_reminder_hours,
)
from .narration import refusal_words, type_label_count
from .narration.labels import character_label, role_label
from .signup_rules import MIN_GAMES_MAX, signups_start_checked
from .wall_time import zoned_moment

SUBMITTABLE = (
    "coven",
    "court",
    "protect",
    "veto",
    "archangel",
    "archdemon",
    "give_card",
    "save",
    "weapon",
    "pack",
    "ability",
)
WW_SPECIALS = [r for r in ROLES if r not in ("villager", "werewolf")]
# The largest game, for both rulesets (Game's check constraint game_seats_3_to_48): no
# card list or count in the new-game form may go beyond it.
MAX_SEATS = 48
# A full list of cards, one a line, with room for comments: far below what would be slow.
CARDS_MAX_LENGTH = 5000


# The post box is on every read of the game page and its rooms: its two widgets write their
# HTML in Python, as Django's templates for them do (its form renderer's templates cost a
# millisecond a page).
class PostTextarea(forms.Textarea):
    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        return format_html(
            '<textarea name="{}"{}>\n{}</textarea>', name, flatatt(widget["attrs"]),
            widget["value"] or "",
        )  # fmt: skip


class PostHiddenInput(forms.HiddenInput):
    def render(self, name, value, attrs=None, renderer=None):
        widget = self.get_context(name, value, attrs)["widget"]
        given = widget["value"]
        shown = format_html(' value="{}"', given) if given is not None else ""
        attrs = flatatt(widget["attrs"])
        return format_html('<input type="hidden" name="{}"{}{}>', name, shown, attrs)


class PostForm(forms.Form):
    body = forms.CharField(
        label=gettext_lazy("Your post"),
        max_length=MAX_LENGTH,
        widget=PostTextarea(attrs={"rows": 6}),
        help_text=gettext_lazy("Markdown: **bold**, *italics*, > quotes, lists, links."),
    )
    reply_to = forms.IntegerField(required=False, min_value=1, widget=PostHiddenInput)


class NamesField(forms.MultipleChoiceField):
    """Several targets from several selects named alike; blanks are dropped, order kept."""

    def to_python(self, value):
        return [v for v in super().to_python(value) if v]


class ActionForm(forms.Form):
    action = forms.ChoiceField(choices=[(a, a) for a in SUBMITTABLE])
    target = forms.ChoiceField(required=False)
    targets = NamesField(required=False)
    guess = forms.ChoiceField(required=False, choices=[("", "")] + [(c, c) for c in CHARACTERS])
    choice = forms.ChoiceField(
        required=False,
        choices=[("", "")] + [(t, t) for t in TYPES] + [("heal", "heal"), ("poison", "poison")],
    )

    def __init__(self, *args, names=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = [("", "")] + [(n, n) for n in names]
        self.fields["targets"].choices = [(n, n) for n in names]


class WithdrawForm(forms.Form):
    what = forms.ChoiceField(choices=[(w, w) for w in WITHDRAWABLE])


# --- sign-ups (issue 16): on the new-game form and the moderator's form before the start ---
def _said(error) -> str:
    """A service's refusal ("choose a start date …") as a field's error sentence."""
    text = refusal_words(error)
    return f"{text[:1].upper()}{text[1:]}."


class ZonedDateTimeField(forms.DateTimeField):
    """A date and time typed in the member's own zone (the middleware's), as the clock's
    deadline form takes it: a wall time the clocks skip or pass twice is refused in words
    (games/wall_time.py), not guessed."""

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, datetime):
            return value
        try:
            wall = datetime.fromisoformat(str(value).strip())
        except ValueError:
            raise forms.ValidationError(gettext("Give a date and a time.")) from None
        try:
            return zoned_moment(
                wall, timezone.get_current_timezone(), timezone.get_current_timezone_name()
            )
        except GameRuleError as e:
            raise forms.ValidationError(_said(e)) from None


def signup_fields() -> dict:
    """The sign-up settings' fields, fresh for each form."""
    return {
        "signups_close_at": ZonedDateTimeField(
            label=gettext_lazy("Start date and time (your time zone)"),
            required=False,
            help_text=gettext_lazy(
                "When the game should start: at least an hour from now, at most 90 days. If it "
                "has not filled by then, you are told and can move the date, make the game "
                "smaller or cancel it. Blank: no date."
            ),
        ),
        "min_finished_games": forms.IntegerField(
            label=gettext_lazy("Finished games a player needs to sign up"),
            required=False,
            min_value=0,
            max_value=MIN_GAMES_MAX,
            initial=0,
            help_text=gettext_lazy(
                "Games played to the end (not replaced out). 0 or blank: anyone may sign up."
            ),
        ),
        "start_when_full": forms.BooleanField(
            label=gettext_lazy("Deal and start the game as soon as the last seat is taken"),
            required=False,
            help_text=gettext_lazy("Off: you are told when it is full and start it yourself."),
        ),
        "prod_hours": forms.IntegerField(
            label=gettext_lazy("Prod a living player silent for this many hours of a day"),
            required=False,
            min_value=1,
            max_value=720,
            help_text=gettext_lazy("A second prod asks for a replacement. Blank: no prods."),
        ),
    }


def signup_values(form) -> dict:
    """The sign-up settings of a valid form, as the services take them. The start date
    is checked here too, to show its refusal beside the field."""
    data = form.cleaned_data
    at = data.get("signups_close_at")
    if at is not None:
        try:
            signups_start_checked(at, timezone.now())
        except GameRuleError as e:
            form.add_error("signups_close_at", _said(e))
    hours = data.get("prod_hours")
    return {
        "signups_close_at": at,
        "min_finished_games": data.get("min_finished_games") or 0,
        "start_when_full": bool(data.get("start_when_full")),
        "prod_after": timedelta(hours=hours) if hours else None,
    }


class SignupSettingsForm(forms.Form):
    """The moderator's sign-up settings of an open game (the game page and the desk)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields.update(signup_fields())

    def clean(self):
        data = super().clean()
        if not self.errors:
            data.update(signup_values(self))
        return data


class ResizeForm(forms.Form):
    seats_count = forms.IntegerField(label=gettext_lazy("Seats"), min_value=3, max_value=MAX_SEATS)


# --- a new game ------------------------------------------------------------------------------
def card_key(text):
    """ "Dirty Old Bastard" / "dirty-old-bastard" / "dirty_old_bastard" -> the record's key."""
    return re.sub(r"[\s\-']+", "_", text.strip().lower()).strip("_")


COUNT_RE = re.compile(r"^(\d+)\s*[x×*]\s*(.+)$", re.I)


def parse_cards(text, ruleset):
    """The explicit deal's lines as card dicts, and the lines that could not be read.

    One card a line: `character type` (Witchhunt) or `role` (Werewolf); `2 x villager`
    repeats a line; blank lines and lines starting with # are skipped. The list stops at
    MAX_SEATS cards: one more is a problem, so no text builds a list larger than a game."""
    cards, problems = [], []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        times = 1
        m = COUNT_RE.match(line)
        if m:
            digits, line = m.group(1), m.group(2)
            # int() of thousands of digits is slow, then refused: any count of more than
            # three digits is over the limit anyway.
            times = int(digits) if len(digits) <= 3 else MAX_SEATS + 1
        if ruleset == "werewolf":
            card = {"role": card_key(line)}
        else:
            card = _witchhunt_card(line)
            if card is None:
                problems.append(
                    gettext(
                        "Line %(number)s: write a character and a player type, "
                        "e.g. “priest holy_villager” (read “%(line)s”)."
                    )
                    % {"number": number, "line": raw.strip()}
                )
                continue
        if len(cards) + times > MAX_SEATS:
            problems.append(
                gettext(
                    "Line %(number)s: a game has at most %(most)s seats, so at most %(most)s cards."
                )
                % {"number": number, "most": MAX_SEATS}
            )
            break
        cards.extend(dict(card) for _ in range(times))
    return cards, problems


def _witchhunt_card(line):
    if "," in line:
        char, _, typ = line.partition(",")
        return {"character": card_key(char), "type": card_key(typ)}
    words = line.split()
    for i in range(1, len(words)):  # names of several words: find where the type starts
        char, typ = card_key(" ".join(words[:i])), card_key(" ".join(words[i:]))
        if char in CHARACTERS and typ in TYPES:
            return {"character": char, "type": typ}
    if len(words) == 2:  # unknown names: the deal's checks name them
        return {"character": card_key(words[0]), "type": card_key(words[1])}
    return None


def _character_choices():
    """The characters by expansion, named in the reader's language (called each time the
    choices are shown)."""
    by_set = {}
    for key, (_, _name, expansion, _text) in sorted(CHARACTERS.items(), key=lambda i: i[1][0]):
        name = character_label(key)
        if key in HOLY:
            name = gettext("%(character)s (Holy)") % {"character": name}
        by_set.setdefault(expansion, []).append((key, name))
    # An expansion's name is the product's, kept in English: marked so for a reader of
    # another language (WCAG 3.1.2); the widget shows a group's name as given.
    return [
        (format_html('<span lang="en">{}</span>', name), cards) for name, cards in by_set.items()
    ]


def _role_choices():
    return [(r, role_label(r)) for r in WW_SPECIALS]


# The deal's fields in page order, and the whole setup (what the lab estimates).
DEAL_FIELDS = (
    "deal_mode",
    "cards",
    "shuffle",
    "characters",
    *(f"count_{k}" for k in TYPES),
    "roles",
    "werewolves",
    "specials",
)
SETUP_FIELDS = (
    "ruleset",
    "seats_count",
    *DEAL_FIELDS,
    "archangel_cards",
    "stalemate_cycles",
    "public_setup",
    "reveal_on_death",
)


class NewGameForm(forms.Form):
    ruleset = forms.ChoiceField(
        label=gettext_lazy("Ruleset"),
        choices=Game.Ruleset.choices,
        initial="witchhunt",
        widget=forms.RadioSelect,
    )
    title = forms.CharField(label=gettext_lazy("Title"), max_length=120)
    seats_count = forms.IntegerField(
        label=gettext_lazy("Seats"), min_value=3, max_value=MAX_SEATS, initial=12
    )
    deal_mode = forms.ChoiceField(
        label=gettext_lazy("The deal"),
        choices=[
            ("explicit", gettext_lazy("A list of cards")),
            ("pool", gettext_lazy("Cards drawn from a pool")),
        ],
        initial="explicit",
        widget=forms.RadioSelect,
    )
    cards = forms.CharField(
        label=gettext_lazy("Cards"),
        required=False,
        max_length=CARDS_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        help_text=gettext_lazy(
            "One card a line. Witchhunt: a character and a player type, e.g. "
            "“priest holy_villager” or “Dirty Old Bastard, Basic Villager”. Werewolf: a "
            "role, e.g. “seer”; “3 x villager” repeats a card. Village Lovers are paired in "
            "seat order."
        ),
    )
    shuffle = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Shuffle the cards"),
        help_text=gettext_lazy("Off: the cards go to the seats in the order the players joined."),
    )
    characters = forms.MultipleChoiceField(
        label=gettext_lazy("Witchhunt: characters in the pool"),
        required=False,
        choices=_character_choices,
        widget=forms.CheckboxSelectMultiple,
        help_text=gettext_lazy(
            "Holy characters go to the Holy Villagers (W-22); pick at least as many."
        ),
    )
    roles = forms.MultipleChoiceField(
        label=gettext_lazy("Werewolf: special roles in the pool"),
        required=False,
        choices=_role_choices,
        widget=forms.CheckboxSelectMultiple,
    )
    werewolves = forms.IntegerField(
        label=gettext_lazy("Werewolf: Werewolves"),
        required=False,
        min_value=1,
        max_value=MAX_SEATS - 1,
        initial=2,
    )
    specials = forms.IntegerField(
        label=gettext_lazy("Werewolf: special roles to draw"),
        required=False,
        min_value=0,
        max_value=len(WW_SPECIALS),
        help_text=gettext_lazy(
            "Blank: every special role picked above. The other seats are Villagers."
        ),
    )
    day_hours = forms.IntegerField(
        label=gettext_lazy("Day length (hours)"), min_value=1, max_value=720, initial=72
    )
    night_hours = forms.IntegerField(
        label=gettext_lazy("Night length (hours)"), min_value=1, max_value=720, initial=24
    )
    early_end = forms.BooleanField(
        label=gettext_lazy("End a phase early once every living player is done"),
        required=False,
        help_text=gettext_lazy(
            "Each living player may say “I'm done” (for good); once all have, the "
            "phase ends after the grace period below. The dead are never waited for, and a "
            "night never ends before its midnight (W-2a)."
        ),
    )
    early_end_grace = forms.IntegerField(
        label=gettext_lazy("Early end: grace period (minutes)"),
        required=False,
        min_value=int(MIN_EARLY_END_GRACE.total_seconds() // 60),
        max_value=int(MAX_EARLY_END_GRACE.total_seconds() // 60),
        initial=int(DEFAULT_EARLY_END_GRACE.total_seconds() // 60),
        help_text=gettext_lazy(
            "How long the phase goes on once every living player is done (never "
            "past its deadline): from 5 minutes to 2 days (2880); 60 is one hour."
        ),
    )
    reminder_hours = forms.CharField(
        label=gettext_lazy("Email reminders (hours before each deadline)"),
        required=False,
        max_length=100,
        initial=", ".join(str(h) for h in DEFAULT_REMINDER_HOURS),
        help_text=gettext_lazy("Comma-separated, e.g. “24, 1”; blank for none."),
    )
    archangel_cards = forms.IntegerField(
        label=gettext_lazy("Witchhunt: Archangel cards"),
        required=False,
        min_value=0,
        max_value=MAX_SEATS,
        help_text=gettext_lazy("Blank: one per ten seats (W-19)."),
    )
    stalemate_cycles = forms.IntegerField(
        label=gettext_lazy("Witchhunt: stalemate after cycles without a death"),
        required=False,
        min_value=0,
        max_value=99,
        initial=3,
        help_text=gettext_lazy("0: never (W-69a)."),
    )
    public_setup = forms.BooleanField(
        label=gettext_lazy(
            "Witchhunt: the characters in play and the count of each type are public"
        ),
        required=False,
        initial=True,
    )
    reveal_on_death = forms.BooleanField(
        label=gettext_lazy("Werewolf: a player's card is shown when they die"), required=False
    )
    # Shown with the warnings only: a deal with warnings alone is created on a second,
    # deliberate submit.
    accept_warnings = forms.BooleanField(
        label=gettext_lazy("Create the game despite the warnings"), required=False
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields.update(signup_fields())
        # Each type's count for a Witchhunt pool, right after the characters, named in the
        # plural ("Village Spies", "Elder Witches").
        for key in TYPES:
            self.fields[f"count_{key}"] = forms.IntegerField(
                label=gettext("Witchhunt: %(type)s") % {"type": type_label_count(key, 2)},
                required=False,
                min_value=0,
                max_value=MAX_SEATS,
            )
        self.order_fields(["ruleset", "title", "seats_count", *DEAL_FIELDS])

    def clean_characters(self):
        # Each choice once: a list of a thousand repeats is the same pool.
        return list(dict.fromkeys(self.cleaned_data["characters"]))

    def clean_roles(self):
        return list(dict.fromkeys(self.cleaned_data["roles"]))

    def clean_reminder_hours(self):
        text = self.cleaned_data["reminder_hours"].strip()
        try:
            hours = [int(h) for h in text.replace(";", ",").split(",") if h.strip()]
        except ValueError:
            raise forms.ValidationError(
                gettext("Give whole numbers of hours, e.g. “24, 1”.")
            ) from None
        validate_reminder_hours(hours)
        return hours

    def type_fields(self):
        return [self[f"count_{k}"] for k in TYPES]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        self.setup_clean(data)
        data["day_length"] = timedelta(hours=data["day_hours"])
        data["night_length"] = timedelta(hours=data["night_hours"])
        grace = data.get("early_end_grace")
        data["early_end_grace"] = (
            DEFAULT_EARLY_END_GRACE if grace is None else timedelta(minutes=grace)
        )
        data.update(signup_values(self))
        return data

    def setup_clean(self, data):
        """The deal and the options (Game.deal's and Game.options's shapes) from the
        setup's fields, into `data`; the setup lab's form (games/lab/forms.py) shares it."""
        ruleset = data["ruleset"]
        if data["deal_mode"] == "explicit":
            cards, problems = parse_cards(data.get("cards") or "", ruleset)
            for p in problems:
                self.add_error("cards", p)
            if not cards and not problems:
                self.add_error("cards", gettext("List the cards, one a line."))
            data["deal"] = {"mode": "explicit", "cards": cards, "shuffle": data["shuffle"]}
        elif ruleset == "witchhunt":
            types = {k: data.get(f"count_{k}") or 0 for k in TYPES}
            data["deal"] = {
                "mode": "pool",
                "characters": data["characters"],
                "types": {k: n for k, n in types.items() if n},
            }
        else:
            deal = {"mode": "pool", "roles": data["roles"], "werewolves": data["werewolves"] or 0}
            if data.get("specials") is not None:
                deal["specials"] = data["specials"]
            data["deal"] = deal
        if ruleset == "witchhunt":
            cycles = data.get("stalemate_cycles")
            options = {
                "stalemate_cycles": 3 if cycles is None else cycles,  # W-69a's default
                "public_setup": data["public_setup"],
            }
            if data.get("archangel_cards") is not None:
                options["archangel_cards"] = data["archangel_cards"]
        else:
            options = {"reveal_on_death": data["reveal_on_death"]}
        data["options"] = options


def signup_settings_form(game: Game, data=None) -> SignupSettingsForm:
    """The moderator's form of an open game's sign-up settings, filled with the game's."""
    prod = game.prod_after
    return SignupSettingsForm(
        data,
        initial={
            "signups_close_at": game.signups_close_at,
            "min_finished_games": game.min_finished_games,
            "start_when_full": game.start_when_full,
            "prod_hours": int(prod.total_seconds() // 3600) if prod else None,
        },
    )


class AbsenceForm(forms.Form):
    first_day = forms.DateField(
        label=gettext_lazy("First day away"), widget=forms.DateInput(attrs={"type": "date"})
    )
    last_day = forms.DateField(
        label=gettext_lazy("Last day away"), widget=forms.DateInput(attrs={"type": "date"})
    )
    note = forms.CharField(
        label=gettext_lazy("Note for moderators (optional)"),
        required=False,
        max_length=200,
        help_text=gettext_lazy(
            "Only the moderators of your games see it; other players see the dates."
        ),
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
