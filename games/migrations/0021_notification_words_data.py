"""Existing notifications read back into meaning (games/narration/recover.py): each one's
stored English becomes its kind and arguments, so that it is worded for its reader, in
their language. A row is converted only when its meaning, worded again in English, gives
its stored text back exactly; any other keeps its stored English (counted), which the
list and the emails show as before."""

import importlib

from django.db import migrations

# The sentences each kind of notification may be, most particular first. Their words are
# registered by the capabilities that write them (the reading and the community).
KINDS = {
    "mention": ["note_mention"],
    "quote": ["note_quote"],
    "wagon": ["note_wagon_you", "note_wagon"],
    "voted": ["note_voted"],
    "signup": [
        "note_signup_full", "note_signup_started", "site_started",
        "note_signup_lapsed", "note_signup_waiting",
    ],
    "replacement": ["note_offer", "note_leave_asked_why", "note_leave_asked", "note_member_left"],
    "prod": ["note_prodded_you", "note_prodded_you_again", "note_prodded", "note_prodded_again"],
}  # fmt: skip
WORDING = ("games.reading.narration.notifications", "games.community.narration")


def words_recover(Notification) -> tuple[int, int]:
    """Convert every notification that can be read back; (converted, kept)."""
    from games.narration.recover import notification_words

    for module in WORDING:  # registers their kinds; a removed capability's stay as written
        try:
            importlib.import_module(module)
        except ImportError:
            pass
    converted = kept = 0
    rows = Notification.objects.filter(words={}).select_related("game", "post")
    for n in rows.iterator():
        known = {}
        if n.post is not None:
            known["where"] = {"thread": n.post.thread, "ruleset": n.game.ruleset}
        words = notification_words(n.text, KINDS.get(n.kind, ()), known)
        if words is None:
            kept += 1
            continue
        Notification.objects.filter(pk=n.pk).update(words=words)
        converted += 1
    return converted, kept


def forwards(apps, schema_editor):
    converted, kept = words_recover(apps.get_model("games", "Notification"))
    if converted or kept:
        print(f"\n  notifications: {converted} now kept as meaning, {kept} kept as written")


def backwards(apps, schema_editor):
    """Their English is still in `text`: the meaning is dropped."""
    apps.get_model("games", "Notification").objects.exclude(words={}).update(words={})


class Migration(migrations.Migration):
    dependencies = [("games", "0020_notification_words")]

    operations = [migrations.RunPython(forwards, backwards)]
