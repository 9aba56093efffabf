"""The clock's heartbeat (docs/operations.md, "Watch it"): one row, created here with the
moment of the migration, so a fresh site is given CLOCK_STALE_SECONDS for its first beat
before it counts as stopped."""

from django.db import migrations, models
from django.utils import timezone


def create_row(apps, schema_editor):
    apps.get_model("games", "ClockHeartbeat").objects.get_or_create(
        pk=1, defaults={"beat_at": timezone.now()}
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_rulings_revision"),
    ]

    operations = [
        migrations.CreateModel(
            name="ClockHeartbeat",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("beat_at", models.DateTimeField(blank=True, null=True)),
                ("stale_alerted_at", models.DateTimeField(blank=True, null=True)),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(condition=models.Q(("pk", 1)), name="clock_heartbeat_single")
                ],
            },
        ),
        migrations.RunPython(create_row, migrations.RunPython.noop),
    ]
