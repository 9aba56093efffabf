"""Issue 25: a game's seed is kept as its decimal digits (games.models.SeedField), so a new
game's 128-bit seed is stored exactly on PostgreSQL and SQLite. Existing games keep their
seeds: each 63-bit integer becomes its own digits (PostgreSQL casts the column; SQLite
copies the table, and the text affinity writes the same digits), and reads back as the
same int, so cache keys, room ids, records and sealed deal texts are unchanged."""

from django.db import migrations

import games.models


class Migration(migrations.Migration):

    # As released (before the outbox's 0012 existed): a site that ran that release has
    # this migration applied without 0012, so it may never depend on it (0014 joins both).
    dependencies = [
        ("games", "0011_post_hidden"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="seed",
            field=games.models.SeedField(),
        ),
    ]
