"""Game.next_due_at: when the clock's sweep must next look at a running game, derived by
the database (a stored generated column) from the deadline, the midnight checkpoint, the
next reminder, the retry time, the status and the pause; one index on it replaces the
three the sweep's OR query could not use together. Existing games get theirs when the
column is added (PostgreSQL computes a stored column for every row; SQLite rebuilds the
table). The expression is frozen here, as models.next_due built it."""

from django.db import migrations, models
from django.db.models import Case, Q, When
from django.db.models.functions import Coalesce, Greatest, Least

TIMES = ("deadline_at", "midnight_at", "next_reminder_at")
FIRST = Least(*(Coalesce(f, *(g for g in TIMES if g != f)) for f in TIMES))
NEXT_DUE = Case(
    When(
        Q(status="running", paused_at__isnull=True)
        & Q(*(Q(**{f"{t}__isnull": False}) for t in TIMES), _connector=Q.OR),
        then=Greatest(FIRST, Coalesce("clock_retry_at", FIRST)),
    ),
    default=None,
)


class Migration(migrations.Migration):
    dependencies = [("games", "0005_moderate_any_game")]

    operations = [
        migrations.RemoveIndex(model_name="game", name="game_due_idx"),
        migrations.RemoveIndex(model_name="game", name="game_midnight_idx"),
        migrations.RemoveIndex(model_name="game", name="game_reminder_idx"),
        migrations.AddField(
            model_name="game",
            name="next_due_at",
            field=models.GeneratedField(
                expression=NEXT_DUE,
                output_field=models.DateTimeField(null=True),
                db_persist=True,
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["next_due_at"], name="game_next_due_idx"),
        ),
    ]
