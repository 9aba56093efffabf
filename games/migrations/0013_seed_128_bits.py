"""Issue 25: a game's seed is kept as its decimal digits (games.models.SeedField), so a new
game's 128-bit seed is stored exactly on PostgreSQL and SQLite. Existing games keep their
seeds: each 63-bit integer becomes its own digits (PostgreSQL casts the column; SQLite
copies the table, and the text affinity writes the same digits), and reads back as the
same int, so cache keys, room ids, records and sealed deal texts are unchanged."""

from django.db import migrations

import games.models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_email_delivery"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="seed",
            field=games.models.SeedField(),
        ),
    ]
