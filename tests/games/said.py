"""A post's words as a reader reads them (selectors.threads.post_said): the site's words
are stored as meaning and worded when read, in the active language."""

from games.selectors.threads import post_said


def text(post, names=None) -> str:
    return post_said(post, names)[0]


def html(post, names=None) -> str:
    return post_said(post, names)[1]
