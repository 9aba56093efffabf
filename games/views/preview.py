"""A post's preview (issue 31): the post box's "Preview" button posts the form with
PREVIEW; the view shows the post as it would be stored, through the same rules, sanitiser
and mentions as posting it (services.post_preview), writes nothing, and gives the form
back with its text. A post that could not be posted is refused here in the same words."""

from django.utils.safestring import mark_safe

from games.engine import GameRuleError

from .feedback import sentence

PREVIEW = "preview"  # the name of the post box's preview button


def preview(form, make) -> None:
    """Give the valid bound `form` its `preview_html` (the sanitised HTML `make(body,
    reply_to)` returns) or the refusal as its error."""
    try:
        body = make(form.cleaned_data["body"], form.cleaned_data.get("reply_to"))
    except GameRuleError as e:
        form.add_error(None, sentence(e))
    else:
        form.preview_html = mark_safe(body.html)  # noqa: S308 - nh3's output (games/markup.py)
