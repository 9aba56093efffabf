"""Existing site posts read back into meaning (games/narration/recover.py): each system
post's and each moderator's notice's stored English becomes its kind and arguments, and
its body is emptied, so that it is worded for each reader. A post is converted only when
its meaning, worded again in English, gives its stored text and HTML back byte for byte;
any other keeps its stored words (counted). A moderator's own announcement matches no
sentence and stays as written."""

from django.db import migrations

# The public engine events that became system posts (services/posts.py THREAD_EVENTS).
THREAD_EVENTS = ("phase", "lynch", "death", "survival", "public", "stalemate", "game_over")


def words_recover(Post, GameEvent, Seat) -> tuple[int, int]:
    """Convert every site post that can be read back; (converted, kept) of those tried."""
    from games.narration.recover import ANNOUNCEMENT, notice_words, summary_words

    converted = kept = 0
    posts = Post.objects.filter(words={}, kind__in=("system", "moderator")).exclude(body="")
    for game_id in set(posts.values_list("game_id", flat=True)):
        names = dict(Seat.objects.filter(game_id=game_id).values_list("name", "user__player_name"))
        events = list(
            GameEvent.objects.filter(
                game_id=game_id, audience="public", kind__in=THREAD_EVENTS
            ).order_by("index").values_list("id", "kind", "data")
        )
        where = {pk: i for i, (pk, _k, _d) in enumerate(events)}
        pairs = [(k, d) for _pk, k, d in events]
        for post in posts.filter(game_id=game_id).order_by("thread", "number"):
            if post.event_id is not None and post.event_id in where:
                words = summary_words(
                    post.body, post.body_html, post.phase, pairs, where[post.event_id], names
                )
            elif post.event_id is None:
                css = ANNOUNCEMENT if post.kind == "system" else ""
                words = notice_words(post.body, post.body_html, css)
            else:
                words = None
            if words is None:
                kept += post.kind == "system"  # a moderator's own words are not a failure
                continue
            Post.objects.filter(pk=post.pk).update(words=words, body="", body_html="")
            converted += 1
    return converted, kept


def forwards(apps, schema_editor):
    converted, kept = words_recover(
        apps.get_model("games", "Post"),
        apps.get_model("games", "GameEvent"),
        apps.get_model("games", "Seat"),
    )
    if converted or kept:
        print(f"\n  site posts: {converted} now kept as meaning, {kept} kept as written")


def backwards(apps, schema_editor):
    """Back to stored English: each post's meaning worded in English into its body."""
    from django.utils import translation

    from games.narration.recover import ANNOUNCEMENT
    from games.narration.said import post_words

    Post = apps.get_model("games", "Post")
    with translation.override("en"):
        for post in Post.objects.exclude(words={}).filter(body=""):
            css = ANNOUNCEMENT if post.kind == "system" else ""
            text, html = post_words(post.words, {}, css)
            Post.objects.filter(pk=post.pk).update(body=text, body_html=html, words={})


class Migration(migrations.Migration):
    dependencies = [("games", "0018_post_words")]

    operations = [migrations.RunPython(forwards, backwards)]
