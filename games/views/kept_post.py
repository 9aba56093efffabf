"""A refused or previewed post's text (its reason, its preview), kept for the page the
form redirects to.

A refusal answered with the page itself left the address at the form's (`/games/N/post/`):
a reload sent the post again. So a refused post redirects too, like a successful one, and
its text and the reason wait in the session for the thread's next page, once: the thread
shows the form as it was sent, with the reason beside it, and a reload shows the thread.
A preview (views/preview.py) comes back the same way, its HTML (nh3's) kept server-side.
"""

from django.shortcuts import redirect
from django.utils.safestring import mark_safe

from games.forms import PostForm

SESSION_KEY = "refused_post"
FIELDS = ("body", "reply_to")


def refused_post_redirect(request, form, thread_path: str):
    """Keep `form`'s text and its own reasons (the engine's, added to it) for `thread_path`,
    and go there. No #post-form: static/js/form-feedback.js focuses the reason, which
    brings the form into view (a fragment would take the focus back to the page)."""
    request.session[SESSION_KEY] = {
        "path": thread_path,
        "data": {name: form.data.get(name, "") for name in FIELDS},
        "reasons": [str(e) for e in form.non_field_errors()],
        "preview": str(getattr(form, "preview_html", "")),
    }
    return redirect(thread_path)


def refused_post_taken(request) -> PostForm | None:
    """The refused post kept for this page (its path), bound and with its reasons, or None;
    it is forgotten once taken."""
    kept = request.session.get(SESSION_KEY)
    if not kept or kept.get("path") != request.path:
        return None
    del request.session[SESSION_KEY]
    form = PostForm(kept["data"])
    form.is_valid()  # the field's own refusals again ("This field is required.")
    for reason in kept["reasons"]:
        if reason not in form.non_field_errors():
            form.add_error(None, reason)
    if kept.get("preview"):  # the session is the server's (cached_db): nh3's HTML as made
        form.preview_html = mark_safe(kept["preview"])  # noqa: S308
    return form
