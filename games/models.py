"""Game rows and their constraints. Every write goes through games/services.py.

A game's engine inputs (GameInput) are append-only and are the source of truth: the
game's state is their replay from the setup (the seats and their assignments), so every
game is its own game record. Votes and night actions are views of those inputs.
"""

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Case, Q, When
from django.db.models.functions import Coalesce, Greatest, Least
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from games.engine import CURRENT_REVISION, REVISION_ANCHOR, REVISIONS, Phase

# W-2a: the early end's grace period, one hour unless the game sets it.
DEFAULT_EARLY_END_GRACE = timedelta(hours=1)
MIN_EARLY_END_GRACE = timedelta(minutes=5)
MAX_EARLY_END_GRACE = timedelta(days=2)

# Reminders 24 h and 1 h before each deadline unless the game says otherwise (issue 6).
DEFAULT_REMINDER_HOURS = (24, 1)
MAX_REMINDER_HOURS = 24 * 7


def default_reminder_hours():
    return list(DEFAULT_REMINDER_HOURS)


def earliest(*fields):
    """The earliest of these nullable datetimes, NULL only when all are: PostgreSQL's
    LEAST skips NULLs but SQLite's MIN returns NULL for any, so each argument is first
    COALESCEd with the others (each value still appears, and none is NULL)."""
    return Least(*(Coalesce(f, *(g for g in fields if g != f)) for f in fields))


def next_due(running):
    """When the clock's sweep must next look at a game (services/sweep.py): its deadline,
    midnight checkpoint (W-3) or next reminder, whichever comes first, but never before a
    failed resolution's retry time; NULL for a paused game or one that is not `running`."""
    times = ("deadline_at", "midnight_at", "next_reminder_at")
    first = earliest(*times)
    return Case(
        When(
            Q(status=running, paused_at__isnull=True)
            & Q(*(Q(**{f"{t}__isnull": False}) for t in times), _connector=Q.OR),
            then=Greatest(first, Coalesce("clock_retry_at", first)),
        ),
        default=None,
    )


def validate_reminder_hours(value):
    # Worded when raised: a form validates with its reader's language active.
    if not isinstance(value, list) or len(value) > 6:
        raise ValidationError(
            gettext("Give at most six reminder times, in hours before the deadline.")
        )
    for hours in value:
        if isinstance(hours, bool) or not isinstance(hours, int):
            raise ValidationError(gettext("Reminder times are whole numbers of hours."))
        if not 1 <= hours <= MAX_REMINDER_HOURS:
            raise ValidationError(
                ngettext(
                    "Reminder times are between 1 and %(count)s hour.",
                    "Reminder times are between 1 and %(count)s hours.",
                    MAX_REMINDER_HOURS,
                )
                % {"count": MAX_REMINDER_HOURS}
            )
    if len(set(value)) != len(value):
        raise ValidationError(gettext("Each reminder time can be given once."))


# Issue 25: a new game's seed is drawn from `secrets` with this many random bits. The deal
# is a pure function of the seed, and the public tie-break orders (the SHA-256 of
# "<seed>:<phase>:<name>", W-5a, W-13) are oracles on it: with 63 bits a search could
# recover the seed, and so every card, from what the thread shows.
SEED_BITS = 128
# A seed's decimal digits at most: room for any 256-bit seed (a record's seed may be any
# non-negative integer, FORMAT; the site never draws more than SEED_BITS).
SEED_DIGITS_MAX = 80


def validate_seed(value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValidationError(gettext("A seed is a non-negative whole number."))
    if len(str(value)) > SEED_DIGITS_MAX:
        raise ValidationError(
            ngettext(
                "A seed has at most %(count)s digit.",
                "A seed has at most %(count)s digits.",
                SEED_DIGITS_MAX,
            )
            % {"count": SEED_DIGITS_MAX}
        )


class SeedField(models.Field):
    """A non-negative integer of any size up to SEED_DIGITS_MAX digits, kept exactly as its
    decimal digits in a text column: a BigIntegerField holds 63 bits, and SQLite turns a
    NUMERIC beyond 64 bits into a float. Python sees an int (so the seed's text in cache
    keys, room ids, records and the fair deal's text is what it always was); the column
    is `varchar` on PostgreSQL and `text` affinity on SQLite, never compared as a number.
    """

    description = "A non-negative integer of any size, stored as its decimal digits"
    default_validators = [validate_seed]

    def __init__(self, *args, **kwargs):
        kwargs["max_length"] = SEED_DIGITS_MAX
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        kwargs.pop("max_length", None)
        return name, path, args, kwargs

    def get_internal_type(self):
        return "CharField"  # varchar(max_length): the database types of a CharField

    def to_python(self, value):
        if value is None or (isinstance(value, int) and not isinstance(value, bool)):
            return value
        text = str(value).strip()
        if not text.isascii() or not text.isdigit():
            raise ValidationError(gettext("A seed is a non-negative whole number."), code="invalid")
        return int(text)

    def from_db_value(self, value, expression, connection):
        return None if value is None else int(value)

    def get_prep_value(self, value):
        value = super().get_prep_value(value)
        return None if value is None else str(self.to_python(value))

    def formfield(self, **kwargs):
        from django import forms

        return super().formfield(**{"form_class": forms.IntegerField, "min_value": 0, **kwargs})


class Game(models.Model):
    class Ruleset(models.TextChoices):
        WITCHHUNT = "witchhunt", "Witchhunt 9.0"
        WEREWOLF = "werewolf", pgettext_lazy("ruleset", "Werewolf")  # "Werwolf" in German

    class Status(models.TextChoices):
        # Shown on pages (the replacement list's games, the admin's notes): translated.
        OPEN = "open", gettext_lazy("Open for sign-ups")
        RUNNING = "running", pgettext_lazy("games", "Running")
        FINISHED = "finished", pgettext_lazy("games", "Finished")

    ruleset = models.CharField(max_length=16, choices=Ruleset.choices)
    title = models.CharField(max_length=120)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_games"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    # W-76: the rulings revision the game is played under to its end, whatever the site
    # runs later: the engine's current one when it is dealt (services/games.py game_deal),
    # "2b" for every game from before revision 3 (migration 0015). Its replay, record and
    # pages all read it from here.
    revision = models.CharField(
        "rulings revision",
        max_length=8,
        choices=[(r, f"Rulings revision {r}") for r in REVISIONS],
        default=CURRENT_REVISION,
        editable=False,
    )
    seats_count = models.PositiveSmallIntegerField()
    seed = SeedField()  # SEED_BITS random bits for a new game (services/games.py)
    options = models.JSONField(default=dict, blank=True)
    # The deal: {"mode": "explicit", "cards": [...]} or {"mode": "pool", ...} (deal.py).
    deal = models.JSONField()
    lovers = models.JSONField(default=list, blank=True)  # seat-name pairs, fixed at the start
    day_length = models.DurationField(default=timedelta(hours=72))
    night_length = models.DurationField(default=timedelta(hours=24))
    phase = models.CharField(max_length=16, blank=True)  # "day 1", "night 1", …
    phase_started_at = models.DateTimeField(null=True, blank=True)
    deadline_at = models.DateTimeField(null=True, blank=True)  # UTC, like every *_at
    midnight_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    # The clock's last restart after a pause: the prod rule counts no silence before it.
    clock_resumed_at = models.DateTimeField(null=True, blank=True)
    winner = models.CharField(max_length=24, blank=True)
    inputs_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    # --- the clock (services/clock.py, services/sweep.py, games/deadlines.py) ----------
    # W-2a: once every living seat has said it is done (games/turns.py), the deadline
    # moves up to the grace period from then; the clock ends the phase there.
    early_end = models.BooleanField(
        "end a phase early when everyone is done",
        default=False,
        help_text="Once every living player has said they are done, the deadline moves up "
        "to the grace period from then; never a night before its midnight (W-2a).",
    )
    early_end_grace = models.DurationField(
        "early end: grace period",
        default=DEFAULT_EARLY_END_GRACE,
        validators=[
            MinValueValidator(MIN_EARLY_END_GRACE, "The grace period is at least 5 minutes."),
            MaxValueValidator(MAX_EARLY_END_GRACE, "The grace period is at most 2 days."),
        ],
        help_text="How long after every living player is done the phase ends (W-2a).",
    )
    # The phase in which every living seat was done and the grace began: once a phase,
    # so a later input never moves the deadline again (nor undoes the moderator's).
    early_end_phase = models.CharField(max_length=16, blank=True, editable=False)
    reminder_hours = models.JSONField(
        default=default_reminder_hours,
        blank=True,
        validators=[validate_reminder_hours],
        help_text="Hours before each deadline at which players who still have to act are "
        "reminded by email.",
    )
    # Reminder times (hours) already handled in the current phase; reset by a new phase.
    reminders_sent = models.JSONField(default=list, blank=True)
    next_reminder_at = models.DateTimeField(null=True, blank=True)
    # A resolution that raised: how often in a row, the last error, and when to try again
    # (exponential backoff, so a broken game never spins the sweep).
    clock_failures = models.PositiveIntegerField(default=0)
    clock_error = models.TextField(blank=True)
    clock_retry_at = models.DateTimeField(null=True, blank=True)
    # Sign-ups (issue 16): the game should start by `signups_close_at`; a member needs
    # `min_finished_games` finished games to sign up; with `start_when_full` the site deals
    # and starts the moment the last seat is taken. `signups_lapsed_at`: when the host was
    # told the game did not fill (the sweep does it once).
    signups_close_at = models.DateTimeField(null=True, blank=True)
    min_finished_games = models.PositiveSmallIntegerField(default=0)
    start_when_full = models.BooleanField(default=False)
    signups_lapsed_at = models.DateTimeField(null=True, blank=True)
    # The prod rule: a living player with no post for `prod_after` of a day phase is prodded;
    # the second prod marks the seat for replacement. `prods_due_at`: when the sweep next
    # looks at this game's seats (early is harmless: it finds nobody and sets the next).
    prod_after = models.DurationField(null=True, blank=True)
    prods_due_at = models.DateTimeField(null=True, blank=True)
    # The provably fair deal (issue 17): SHA-256 of the deal and a secret salt, published in
    # the first post; the salt is published with the deal at the final reveal.
    deal_salt = models.CharField(max_length=64, blank=True, editable=False)
    deal_commitment = models.CharField(max_length=64, blank=True, editable=False)
    # How often a moderator hid or showed again a post (services/moderation.py): the one
    # change to a thread that adds no post, so the cached pages of posts are keyed by it.
    posts_hidden = models.PositiveIntegerField(default=0, editable=False)
    # Issue 31: how often a public post was edited (services/post_edits.py): the cached
    # pages of posts are keyed by it too.
    posts_edited = models.PositiveIntegerField(default=0, editable=False)
    # How often something every viewer of the game page sees changed without a new public
    # post: a public event stored (a vote moved, a death), a public post hidden or shown
    # again. The live refresh's version counts this and never `inputs_count`, which counts
    # the night's and the rooms' hidden inputs too (issue 25).
    public_changes = models.PositiveIntegerField(default=0, editable=False)
    # Derived by the database on every write, QuerySet.update included, so it cannot go
    # stale; the sweep's due query is `status = running AND next_due_at <= now` on its index.
    next_due_at = models.GeneratedField(
        expression=next_due(Status.RUNNING.value),
        output_field=models.DateTimeField(null=True),
        db_persist=True,
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The clock's sweep: `next_due_at <= now`, the earliest first.
            models.Index(fields=["next_due_at"], name="game_next_due_idx"),
            # The sweep's sign-up deadlines and prods: each a small partial index.
            models.Index(
                fields=["signups_close_at"],
                name="game_signups_close_idx",
                condition=Q(status="open", signups_lapsed_at__isnull=True),
            ),
            models.Index(
                fields=["prods_due_at"],
                name="game_prods_due_idx",
                condition=Q(status="running", prods_due_at__isnull=False),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(seats_count__gte=3) & Q(seats_count__lte=48), name="game_seats_3_to_48"
            ),
        ]
        # games.moderate_any_game: the moderator's desk, cards and acts of every game, granted
        # in the admin (games/permissions.py); the host moderates their own game without it.
        permissions = [("moderate_any_game", "Can moderate every game")]

    def __str__(self):
        return self.title

    @property
    def is_night(self):
        phase = Phase.parse(self.phase)  # none before the deal
        return phase is not None and phase.is_night

    @property
    def revision_anchor(self):
        """Where the rules page says what the revision means (W-76, WW-19)."""
        return REVISION_ANCHOR[self.ruleset]


class Seat(models.Model):
    """A place in a game. The seat, not the user, holds the cards: a replacement takes the
    seat with its cards, rooms and history (W-72)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    # The seat's name in the game record: the first occupant's player key, or in an
    # anonymous game its alias's key (so the record carries no member's name).
    name = models.CharField(max_length=32)
    # The seat's name for this game (an anonymous game's, games/anonymous): shown wherever
    # the game names the seat instead of its occupant's player name; blank otherwise.
    alias = models.CharField(max_length=32, blank=True, default="")
    position = models.PositiveSmallIntegerField(null=True, blank=True)  # set at the start
    joined_at = models.DateTimeField(auto_now_add=True)
    # Kept by the post service, for the desk's activity and the prod rule.
    last_post_at = models.DateTimeField(null=True, blank=True)
    # Issue 31: the occupant's posts in the public thread, the whole game's and those of
    # the day `posts_day` names (its phase, "day 2"): the player list's counts, kept by
    # the post service, so the list never counts the thread; a replacement starts at 0.
    posts_count = models.PositiveIntegerField(default=0, editable=False)
    posts_day_count = models.PositiveIntegerField(default=0, editable=False)
    posts_day = models.CharField(max_length=16, blank=True, editable=False)
    # Marked for replacement (issue 16): the player asked to leave, the moderator marked
    # it, or a second prod did; cleared when somebody takes the seat.
    replacement_wanted_at = models.DateTimeField(null=True, blank=True)
    replacement_reason = models.CharField(
        max_length=12,
        blank=True,
        choices=[
            ("asked", "asked to leave"),
            ("moderator", "moderator"),
            ("prods", "prodded twice"),
        ],
    )

    class Meta:
        ordering = ["position", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_user"),
            models.UniqueConstraint(fields=["game", "name"], name="seat_name_unique"),
            models.UniqueConstraint(
                fields=["game", "position"],
                name="seat_position_unique",
                condition=Q(position__isnull=False),
            ),
        ]

    def __str__(self):
        return f"{self.name} in {self.game_id}"

    @property
    def shown_name(self) -> str:
        """What the game calls this seat: its alias, or its occupant's player name."""
        return self.alias or self.user.player_name


class Assignment(models.Model):
    """A seat's cards: a Witchhunt character and type, or a Werewolf role."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="assignment")
    character = models.CharField(max_length=32, blank=True)
    type = models.CharField(max_length=24, blank=True)
    role = models.CharField(max_length=24, blank=True)

    def __str__(self):
        return self.role or f"{self.character} ({self.type})"


class GameInput(models.Model):
    """One engine input (a record step), in order. Append-only: never updated or deleted."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="inputs")
    index = models.PositiveIntegerField()
    step = models.JSONField()
    phase = models.CharField(max_length=16)  # the phase it was applied in
    seat = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.PROTECT, related_name="inputs"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="input_order")]

    def __str__(self):
        return f"#{self.index} {self.step}"


# The actions of a day vote (an input's step, and the event it causes).
DAY_VOTES = ("vote", "unvote")


class VoteManager(models.Manager):
    def get_queryset(self):
        return super().get_queryset().filter(step__action__in=DAY_VOTES)


class NightActionManager(models.Manager):
    def get_queryset(self):
        return super().get_queryset().filter(seat__isnull=False).exclude(step__action__in=DAY_VOTES)


class Vote(GameInput):
    """Day votes and withdrawals: the inputs whose action is vote or unvote."""

    objects = VoteManager()

    class Meta:
        proxy = True


class NightAction(GameInput):
    """Every other seat's input: night votes, abilities, weapons, cards, withdrawals."""

    objects = NightActionManager()

    class Meta:
        proxy = True


class GameEvent(models.Model):
    """What the engine said, with who may see it (engine/events.py): everyone, the
    afterlife, the moderator, or the seats listed in `recipients`."""

    class Audience(models.TextChoices):
        PUBLIC = "public"
        DEAD = "dead"
        MODERATOR = "moderator"
        SEATS = "seats"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    index = models.PositiveIntegerField()
    kind = models.CharField(max_length=24)
    phase = models.CharField(max_length=16)
    audience = models.CharField(max_length=12, choices=Audience.choices)
    recipients = models.ManyToManyField(Seat, blank=True, related_name="events")
    meeting = models.CharField(max_length=24, blank=True)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="event_order")]

    def __str__(self):
        return f"{self.phase} {self.kind}"


class Post(models.Model):
    """A numbered post in a game thread. System posts carry the engine's public
    announcements; they have no author and cannot be written by a player."""

    class Kind(models.TextChoices):
        PLAYER = "player"
        SYSTEM = "system"
        MODERATOR = "moderator"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="posts")
    thread = models.CharField(max_length=24, default="public")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    seat = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.PROTECT, related_name="posts"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="posts",
    )
    event = models.ForeignKey(
        GameEvent, null=True, blank=True, on_delete=models.CASCADE, related_name="posts"
    )
    body = models.TextField(blank=True)
    body_html = models.TextField(blank=True)  # sanitised by nh3; the only field marked safe
    # The site's words in a post (a system post, the notice of a moderator's act) as
    # meaning: {"kind": …, "args": {…}}, worded when read in the reader's language
    # (games/narration/said.py). Empty for what a person wrote, which body keeps as written.
    words = models.JSONField(default=dict, blank=True)
    reply_to = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replies"
    )
    phase = models.CharField(max_length=16)
    created_at = models.DateTimeField(auto_now_add=True)
    # A player's post the moderator hid (services/moderation.post_hide): every thread shows
    # the reason in its place and searches and quotes pass it by; the text stays, for the
    # moderator's desk and the admin, until it is shown again.
    hidden_at = models.DateTimeField(null=True, blank=True, editable=False)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        editable=False,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    hidden_reason = models.CharField(max_length=200, blank=True, editable=False)
    # Issue 31: when its author last edited it (services/post_edits.py); each earlier text
    # is a PostVersion.
    edited_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["game", "thread", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "thread", "number"], name="post_number")
        ]

    def __str__(self):
        return f"#{self.number} in {self.thread}"


class PostModeration(models.Model):
    """A moderator hid a post, or showed it again (services/moderation.py): the history the
    final reveal's moderator's log shows. The post's `hidden_*` fields are its state now."""

    class Act(models.TextChoices):
        HIDE = "hide"
        SHOW = "show"

    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="moderations")
    act = models.CharField(max_length=8, choices=Act.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=200, blank=True)
    phase = models.CharField(max_length=16)  # the game's, when it was done
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.act} {self.post}"


class PhaseLockIn(models.Model):
    """A seat's "I'm done for this phase" (W-2a's early end, games/turns.py): final, a
    living seat's only."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="lock_ins")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="lock_ins")
    phase = models.CharField(max_length=16)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seat", "phase"], name="lock_in_once_a_phase")
        ]

    def __str__(self):
        return f"{self.seat.name} done in {self.phase}"


class EmailSent(models.Model):
    """One email to a seat's player, recorded when it is written to the outbox (GameEmail,
    whose row says whether the server accepted it): the unique constraint makes each
    reminder, phase-change and role email go out at most once, even when two workers or a
    retried task reach it together (games/services/emails.py)."""

    class Kind(models.TextChoices):
        ROLE = "role"
        PHASE = "phase"
        END = "end"
        REMINDER = "reminder"
        RESULT = "result"  # a night's result waits on the role page (the link, not the result)

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="emails_sent")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="emails_sent")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    phase = models.CharField(max_length=16)
    hours = models.PositiveSmallIntegerField(default=0)  # a reminder's hours before the deadline
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["seat", "kind", "phase", "hours"], name="email_sent_once"
            )
        ]

    def __str__(self):
        return f"{self.kind} {self.phase} to {self.seat.name}"


class GameEmail(models.Model):
    """The outbox: one game email to one member (rendered in the member's zone), written in
    the transaction that claims it (games/mail.py), sent after the commit by the `email` queue
    (games/services/outbox.py), one at a time. Pending until the mail server accepts it
    (sent) or refuses its address outright (refused); a transient failure pushes
    `next_try_at` back by a growing gap. `next_try_at` is also a claim: a sender moves it
    past the send before it sends, so a rival sender (a duplicate task, the sweep) skips
    the row."""

    class Status(models.TextChoices):
        PENDING = "pending"
        SENT = "sent"
        REFUSED = "refused"  # the server refused the address (5xx), or it was held
        FAILED = "failed"  # refused for good otherwise, or given up after EMAIL_GIVE_UP
        EXPIRED = "expired"  # its moment passed unsent (a reminder after the deadline)

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_emails"
    )
    # None for a digest, and once a cancelled game is deleted.
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="emails"
    )
    template = models.CharField(max_length=32)  # templates/email/<template>.txt: role, phase…
    message = models.JSONField()  # accounts.mail.message_to_data; emptied once sent
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    tries = models.PositiveSmallIntegerField(default=0)
    next_try_at = models.DateTimeField()
    # Not sent after this: what it says would no longer be true ("Day 2 ends in 1 hour").
    expires_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The email sweep's query: the pending rows due, oldest first.
            models.Index(
                fields=["next_try_at"],
                name="game_email_due_idx",
                condition=models.Q(status="pending"),
            ),
        ]

    def __str__(self):
        return f"{self.template} to {self.user_id} ({self.status})"


# --- coming back each day: read state, visits, notifications, private notes ----------------
class ReadMark(models.Model):
    """The last post a member has seen in one thread of one game (the day thread, a room,
    the afterlife, the desk): one row per member and thread, moved forward only."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="read_marks"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="read_marks")
    thread = models.CharField(max_length=24)  # a Post.thread
    last_number = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "thread"], name="read_mark_once")
        ]

    def __str__(self):
        return f"{self.user_id} read {self.thread} of {self.game_id} to #{self.last_number}"


class GameVisit(models.Model):
    """Where a member's last look at a game ended: the last event it showed them, so
    "since you last read" starts after it (and the digest after what it sent)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_visits"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="visits")
    event_index = models.IntegerField(default=-1)  # the last GameEvent.index seen
    # Where the visit before the game page's last one ended: its "since you last read" link
    # starts there. Kept here, never printed: an event index counts hidden events too.
    previous_index = models.IntegerField(default=-1)
    visited_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="game_visit_once")]

    def __str__(self):
        return f"{self.user_id} saw {self.game_id} to event {self.event_index}"


class Notification(models.Model):
    """Something for one member, in-site (and by email when they opted in): a mention, a
    quote of their post, a wagon one vote from a lynch, a vote landing on them. `key`
    makes one alert of a kind once (e.g. one wagon alert per target and day)."""

    class Kind(models.TextChoices):
        MENTION = "mention"
        QUOTE = "quote"
        WAGON = "wagon"
        VOTED = "voted"
        SIGNUP = "signup"  # a game filled, started, or did not fill
        REPLACEMENT = "replacement"  # a seat offered to a volunteer; a replacement wanted
        PROD = "prod"  # a prod, to the player and to the moderator
        WEBHOOK = "webhook"  # a chat destination turned off (games/webhooks), to the moderator
        REPORT = "report"  # a report's outcome, to its reporter (games/reports)

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    # None: the game is gone, its news stays (a game cancelled before its start, issue 31).
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    post = models.ForeignKey(
        Post, null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    key = models.CharField(max_length=80, blank=True)
    # What it says, as meaning (games/narration/said.py): worded when read, in its reader's
    # language. `text` is its English, kept for a kind no installed app words any more
    # and for a row written before (migration 0021) that could not be read back.
    words = models.JSONField(default=dict, blank=True)
    text = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_unread_idx")]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "kind", "key"],
                condition=~Q(key=""),
                name="notification_once",
            )
        ]

    def __str__(self):
        return f"{self.kind} for {self.user_id}: {self.text}"


class PlayerNote(models.Model):
    """A member's private note on another seat of a game: a read and a text, shown to the
    author alone (beside that seat's posts and in the player list), kept after the game,
    in the reveal only if the author shares it."""

    class Read(models.TextChoices):
        NONE = "", "no read"
        TOWN = "town", "town read"
        SCUM = "scum", "scum read"
        UNSURE = "unsure", "unsure"

    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_notes"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="player_notes")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="notes_about")
    read = models.CharField(max_length=8, choices=Read.choices, blank=True)
    text = models.TextField(blank=True, max_length=2000)
    shared = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["author", "seat"], name="player_note_once")]

    def __str__(self):
        return f"{self.author_id} on {self.seat_id}: {self.read or 'no read'}"


# --- a community of games: sign-ups, replacements, prods, absences (issue 16) -------------
class SeatTenure(models.Model):
    """Who held a seat when: one row per occupant, opened when they took it (dealt in or
    replacing) and closed when they left it. Profiles read replacements taken and
    reliability (finished vs replaced out) from these."""

    class Left(models.TextChoices):
        STAYED = "", "still there"
        REPLACED = "replaced", "replaced out"

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="tenures")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tenures"
    )
    replacing = models.BooleanField(default=False)  # took the seat as a replacement
    began_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    left = models.CharField(max_length=12, choices=Left.choices, blank=True)

    class Meta:
        ordering = ["began_at", "pk"]
        indexes = [models.Index(fields=["user", "began_at"], name="tenure_user_idx")]

    def __str__(self):
        return f"{self.user_id} in seat {self.seat_id} from {self.began_at:%Y-%m-%d}"


class ReplacementVolunteer(models.Model):
    """A member on the replacement list: for any game (`game` empty) or one game, with the
    hours a week they can give."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="volunteering"
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="volunteers"
    )
    hours_per_week = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(1), MaxValueValidator(168)]
    )
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game"],
                name="volunteer_once_per_game",
                condition=Q(game__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["user"], name="volunteer_once_any_game", condition=Q(game__isnull=True)
            ),
        ]

    def __str__(self):
        return f"{self.user_id} volunteers for {self.game_id or 'any game'}"


class ReplacementOffer(models.Model):
    """A seat marked for replacement, offered to one volunteer; the first to accept takes
    it, and the other open offers for that seat close."""

    class Status(models.TextChoices):
        # The desk lists a seat's offers with their status.
        OPEN = "open", pgettext_lazy("replacement offer", "Open")
        ACCEPTED = "accepted", pgettext_lazy("replacement offer", "Accepted")
        DECLINED = "declined", pgettext_lazy("replacement offer", "Declined")
        # Somebody else took the seat, or it is no longer wanted.
        CLOSED = "closed", pgettext_lazy("replacement offer", "Closed")

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="offers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="replacement_offers"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["seat", "user"], name="offer_once_open", condition=Q(status="open")
            )
        ]

    def __str__(self):
        return f"seat {self.seat_id} offered to {self.user_id}: {self.status}"


class Prod(models.Model):
    """A prod sent to a seat's current player (number 1 or 2); unique, so two concurrent
    sweeps send each prod once. The second marks the seat for replacement."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="prods")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="prods"
    )
    number = models.PositiveSmallIntegerField()
    phase = models.CharField(max_length=16)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["seat", "user", "number"], name="prod_once")]

    def __str__(self):
        return f"prod {self.number} to {self.user_id} in seat {self.seat_id}"


class Absence(models.Model):
    """A member's declared absence (their own dates, kept as moments in UTC): shown to
    moderators and in player lists; prods wait until it ends."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="absences"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        indexes = [models.Index(fields=["user", "ends_at"], name="absence_user_idx")]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")), name="absence_ends_after_start"
            )
        ]

    def __str__(self):
        return f"{self.user_id} away {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"


class ClockHeartbeat(models.Model):
    """One row (id 1): when the clock's sweep last ran, written by each beat's sweep
    (services/sweep.py, one UPDATE), read by the health endpoint, the desk and the admin.

    `stale_alerted_at` is the stale episode the site's admins were told of: set by the one
    web process that claims it (services/clock_watch.py), cleared by the one that tells them
    the clock is back. It lives here, in PostgreSQL, because Redis may be what is down."""

    SINGLETON = 1

    beat_at = models.DateTimeField(null=True, blank=True)
    stale_alerted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(pk=1), name="clock_heartbeat_single")]

    def __str__(self):
        if self.beat_at is None:
            return "the clock has not run"
        return f"the clock last ran at {self.beat_at:%Y-%m-%d %H:%M:%S} UTC"


class HeldJob(models.Model):
    """A job the broker would not take when its write committed (Redis down): kept here,
    in the database that did commit, and queued again by the beat's `held_jobs_sweep`
    once the broker answers (games/services/held_jobs.py). A job queued normally leaves
    no row."""

    name = models.CharField(max_length=64)  # a named job (games/queue.py: connect_job)
    args = models.JSONField(default=list)  # its arguments, as Celery would carry them
    tries = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self):
        return f"{self.name}{tuple(self.args)!r}"


# --- issue 30: following a game from anywhere (each capability's tables under its own mark) ---
# The webhooks' destinations and deliveries (games/webhooks).


class WebhookEndpoint(models.Model):
    """A place a game's story is posted (games/webhooks): a Discord or Slack incoming
    webhook, a Matrix room, or a generic HTTPS endpoint signed as Standard Webhooks sign.
    `game` null: a site-wide destination (the admin's). The address and the secret (a
    Matrix access token, a generic endpoint's `whsec_` key, a Discord or Slack webhook's
    address, which is its own secret) are stored encrypted (webhooks/secrets.py); only the
    host is kept in clear, for the desk to say where it posts."""

    class Kind(models.TextChoices):
        DISCORD = "discord", gettext_lazy("Discord")
        SLACK = "slack", gettext_lazy("Slack")
        MATRIX = "matrix", gettext_lazy("Matrix")
        GENERIC = "generic", gettext_lazy("Signed HTTPS endpoint")

    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    host = models.CharField(max_length=255)  # where it posts, shown; never the path or token
    address_sealed = models.TextField()  # Fernet: the URL (Matrix: the homeserver's)
    room = models.CharField(max_length=255, blank=True)  # Matrix: the room id
    secret_sealed = models.TextField(blank=True)  # Fernet: Matrix token, generic whsec_
    events = models.JSONField(default=list)  # webhooks.story.EVENTS chosen
    mentions = models.BooleanField(default=False)  # may it ping members (off by default)
    language = models.CharField(max_length=16, blank=True)  # blank: settings.LANGUAGE_CODE
    enabled = models.BooleanField(default=True)
    disabled_reason = models.CharField(max_length=300, blank=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveIntegerField(default=0)  # consecutive failed deliveries
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self):
        return f"{self.get_kind_display()} at {self.host}"


class WebhookDelivery(models.Model):
    """One story for one destination: written pending in the game write's transaction
    (webhooks/services/deliveries.py), its payload built then; sent by the `webhooks`
    queue (services/send.py), retried, given up. `message_id` is fixed at creation: the
    Standard Webhooks `webhook-id` and the Matrix transaction id, so a retry never posts
    twice."""

    class Status(models.TextChoices):
        PENDING = "pending", gettext_lazy("waiting")
        SENT = "sent", gettext_lazy("sent")
        FAILED = "failed", gettext_lazy("failed")
        GAVE_UP = "gave_up", gettext_lazy("given up")

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    event = models.CharField(max_length=20)
    payload = models.JSONField(default=dict)
    once = models.CharField(max_length=120, blank=True)
    replaces = models.CharField(max_length=120, blank=True)
    message_id = models.CharField(max_length=40, unique=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_try_at = models.DateTimeField()
    # A sender's claim (services/send.py): no rival sends it, and a debounced story does
    # not change the payload under a send, until then.
    claimed_until = models.DateTimeField(null=True, blank=True)
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        indexes = [
            # The sweep's "pending and due", oldest first.
            models.Index(
                fields=["next_try_at"], condition=Q(status="pending"), name="webhook_due_idx"
            )
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["endpoint", "once"], condition=~Q(once=""), name="webhook_once"
            )
        ]

    def __str__(self):
        return f"{self.event} to {self.endpoint_id}: {self.status}"


class WebhookMessage(models.Model):
    """A Discord message edited in place: the one posted for a `replaces` key (the vote
    count) on one destination; its next story PATCHes it rather than posting anew."""

    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="+")
    replaces = models.CharField(max_length=120)
    message_id = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["endpoint", "replaces"], name="webhook_message_key")
        ]

    def __str__(self):
        return f"{self.replaces} on {self.endpoint_id}: message {self.message_id}"


# ---------------------------------------------------------------------------------------------
# Web push: subscriptions and each member's push choices (games/push).
class PushSubscription(models.Model):
    """One browser a member turned notifications on in: where its push service takes
    messages for it (`endpoint`) and the keys the messages are encrypted with (RFC 8291).
    A push service that says the subscription is gone (404, 410) removes the row."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)  # the browser's public key, base64url
    auth = models.CharField(max_length=100)  # the shared authentication secret, base64url
    label = models.CharField(max_length=100, blank=True)  # "Chrome on Android", to tell apart
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveSmallIntegerField(default=0)  # in a row; a success clears them

    class Meta:
        ordering = ["user", "created_at", "pk"]

    def __str__(self):
        return f"{self.user_id}: {self.label or self.endpoint[:40]}"


class PushChoice(models.Model):
    """A member's word on one kind of news by push (queue.TOLD_KINDS): none said means
    yes, once they have turned notifications on in a browser."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_choices"
    )
    kind = models.CharField(max_length=16)
    push = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="push_choice_once"),
        ]

    def __str__(self):
        return f"{self.user_id} {self.kind}: {self.push}"


# ---------------------------------------------------------------------------------------------
# The deadlines' calendar feeds (games/calendar).
class CalendarFeed(models.Model):
    """A member's private calendar address (`/calendar/<token>.ics`): their games'
    deadlines. The token is derived from `nonce` with the site's secret key
    (games/calendar/tokens.py), so the profile can show the address again while a copy of
    the database alone gives no working address; the feed is found by the token's hash.
    Revoking draws a new nonce: the old address is a 404 from then on."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    nonce = models.CharField(max_length=64, editable=False)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)  # SHA-256, hex
    created_at = models.DateTimeField()
    # When a calendar app last read it (written at most once an hour: see games/calendar).
    fetched_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"calendar feed of {self.user_id}"


# --- issue 31: anonymous games ---
class AnonymousGame(models.Model):
    """A game whose seats carry aliases (games/anonymous): the host's choice, before the
    start. `theme` names a built-in list; `names` is the host's own (one per line) when
    theme is "own". The seats' aliases themselves are on Seat.alias."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="anonymity")
    theme = models.CharField(max_length=16)
    names = models.TextField(blank=True)

    def __str__(self):
        return f"anonymous game {self.game_id} ({self.theme})"


# --- issue 31: spectators ---------------------------------------------------------------------
# Followers of a game who hold no seat (games/spectators): the host's choices, who follows,
# their own thread, and the members' recent sign-in addresses (keyed hashes) for the desk.
class SpectatorSettings(models.Model):
    """The host's choices for spectators in one game (none: spectators are not allowed)."""

    class Delay(models.TextChoices):
        NONE = "none", pgettext_lazy("spectator delay", "None: as it happens")
        PHASE = "phase", pgettext_lazy("spectator delay", "One phase behind")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="spectating")
    allowed = models.BooleanField(default=False)
    delay = models.CharField(max_length=8, choices=Delay.choices, default=Delay.NONE)
    # Werewolf only: the dead players see the spectators' page (WW-17 gives them no more
    # than the living otherwise).
    dead_see = models.BooleanField(default=False)

    def __str__(self):
        return f"spectators of {self.game_id}: {self.allowed}"


class Spectator(models.Model):
    """A member following a game as a spectator. Leaving before the deal deletes the row
    (nothing was seen); leaving after it keeps the row with `left_at`: they have seen the
    cards, so they still may not take a seat."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="spectators")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="spectating"
    )
    joined_at = models.DateTimeField()
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="spectator_once_a_game")
        ]

    def __str__(self):
        return f"{self.user_id} spectates {self.game_id}"


class SpectatorPost(models.Model):
    """A post in a game's spectators' thread: its own table, so that no listing of the core's
    threads (searches, read marks, exports, the reveal) can ever reach it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="spectator_posts")
    number = models.PositiveIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    body = models.TextField()
    body_html = models.TextField()  # sanitised by games.markup; the only field marked safe
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="spectator_post_number")
        ]

    def __str__(self):
        return f"spectators' #{self.number} in {self.game_id}"


class SignInAddress(models.Model):
    """A member signed in from an address: its keyed hash only (never the address), kept
    30 days, so that the desk can flag a spectator who shares one with a player."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_in_addresses"
    )
    digest = models.CharField(max_length=64)  # HMAC-SHA-256 of the address, hex
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "digest"], name="sign_in_address_once")
        ]
        indexes = [models.Index(fields=["digest", "seen_at"], name="sign_in_digest_idx")]

    def __str__(self):
        return f"{self.user_id} signed in at {self.seen_at:%Y-%m-%d}"


# --- issue 31: reports and ignore (games/reports) ---
class PostReport(models.Model):
    """A player's post reported to the game's moderator (games/reports): a reason from a
    short list and a note. Only the moderator's desk and the reporter see it; the reported
    player is never told who reported. One per post and reporter."""

    class Reason(models.TextChoices):
        ABUSE = "abuse"  # abuse or harassment
        OUTSIDE = "outside"  # outside information: a role page shared, a screenshot
        SPAM = "spam"
        AFTERLIFE = "afterlife"  # spoilers from the afterlife (W-17)
        OTHER = "other"

    class State(models.TextChoices):
        OPEN = "open"
        HIDDEN = "hidden"  # the moderator hid the post (services/moderation.post_hide)
        DISMISSED = "dismissed"
        HANDLED = "handled"  # dealt with otherwise, with a word to the reporter

    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="reports")
    # The post's game, kept for the desk's list (game, state).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="post_reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="post_reports"
    )
    reason = models.CharField(max_length=12, choices=Reason.choices)
    note = models.CharField(max_length=500, blank=True)
    state = models.CharField(max_length=12, choices=State.choices, default=State.OPEN)
    answer = models.CharField(max_length=300, blank=True)  # the moderator's word to the reporter
    created_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["game", "state"], name="post_report_desk_idx")]
        constraints = [
            models.UniqueConstraint(fields=["post", "reporter"], name="post_report_once"),
        ]

    def __str__(self):
        return f"report of {self.post_id} by {self.reporter_id}: {self.state}"


class Ignore(models.Model):
    """A member's choice not to read another's posts (games/reports): collapsed to one line
    wherever posts show, never in the vote count. Either a member everywhere (`member`), or,
    in an anonymous game, one seat of that game (`seat`), so that the ignore never ties the
    seat's alias to the member behind it. The ignored member is never told."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ignores"
    )
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    seat = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "member"],
                condition=Q(member__isnull=False),
                name="ignore_member_once",
            ),
            models.UniqueConstraint(
                fields=["owner", "seat"], condition=Q(seat__isnull=False), name="ignore_seat_once"
            ),
            models.CheckConstraint(
                condition=(Q(member__isnull=False) & Q(seat__isnull=True))
                | (Q(member__isnull=True) & Q(seat__isnull=False)),
                name="ignore_one_target",
            ),
        ]

    def __str__(self):
        return f"{self.owner_id} ignores {self.member_id or f'seat {self.seat_id}'}"


# --- issue 31: the forum conventions ---
class PostVersion(models.Model):
    """A post's text as it was before one of its author's edits (services/post_edits.py):
    kept for the moderator and, after the end, for everyone who may read its thread; the
    post itself holds the latest text."""

    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="versions")
    body = models.TextField()
    body_html = models.TextField()  # sanitised by nh3, as Post.body_html
    written_at = models.DateTimeField()  # when this text was posted, or put by an edit

    class Meta:
        ordering = ["post", "written_at", "pk"]

    def __str__(self):
        return f"{self.post} as of {self.written_at:%Y-%m-%d %H:%M}"
