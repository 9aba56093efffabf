"""What the German end-to-end tests read the pages with (tests/e2e/test_german.py).

- `de(msgid)`: the German words the catalog gives an English msgid, so that the tests
  look for what a German reader is shown, whatever the translator's choice of words.
- `GermanPages`: each page a German reader is shown, checked as it is visited (its
  `<html lang="de">`) and kept (its visible text) for the check that no English sentence
  of ours is left on it: `english_left`.
"""

import re
from functools import cache
from pathlib import Path

import polib
from django.conf import settings

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%%")
TAG = re.compile(r"<[^>]+>")
# Words the check spares whatever a page says: the site's name, the zone's name, the
# rulings' codes (W-12) and the rules' own texts (the spec, which stays English).
ALLOWED = ("Witchhunt", "UTC")
RULE_CODE = re.compile(r"\b(?:WW|W)-\d+\b")
SHORTEST = 4  # words of English in a msgid, outside its placeholders and tags


@cache
def catalog() -> polib.POFile:
    """The German catalog the site reads: the first of settings.LOCALE_PATHS that has one
    (the repository's; the pseudo run puts its English catalog before it)."""
    found = (Path(path) / "de" / "LC_MESSAGES" / "django.po" for path in settings.LOCALE_PATHS)
    return polib.pofile(str(next(po for po in found if po.exists())))


@cache
def _german() -> dict[tuple[str | None, str], str]:
    return {(e.msgctxt, e.msgid): e.msgstr for e in catalog() if e.msgstr and not e.obsolete}


def de(msgid: str, context: str | None = None, **args) -> str:
    """The catalog's German for `msgid` (with `args` put in), failing when it has none: a
    test that looks for German must not pass on English."""
    german = _german().get((context, msgid))
    assert german, f"the German catalog has no translation of {msgid!r}"
    return german % args if args else german


def _visible_words(text: str) -> str:
    return " ".join(text.split())


@cache
def english_patterns() -> list[tuple[str, re.Pattern]]:
    """One pattern per msgid of the catalog with at least SHORTEST English words outside
    its placeholders and tags, each placeholder standing for a short run of any words. A
    msgid the German says the same way (a name) is left out: it is not a leftover."""
    patterns = []
    for entry in catalog():
        if entry.obsolete or entry.msgstr == entry.msgid:
            continue
        for msgid in (entry.msgid, entry.msgid_plural):
            if not msgid:
                continue
            plain = _visible_words(TAG.sub("", msgid).replace("&nbsp;", " "))
            fixed = PLACEHOLDER.split(plain)[::2]  # the words between the placeholders
            if sum(len(part.split()) for part in fixed) < SHORTEST:
                continue
            regex = r".{1,80}?".join(re.escape(part) for part in fixed)
            patterns.append((msgid, re.compile(regex)))
    return patterns


def english_left(text: str, own_words=()) -> list[str]:
    """The msgids whose English is in `text` (a page's visible words), once the players'
    own words (`own_words`: names, titles, posts) and ALLOWED are taken out."""
    for words in sorted(own_words, key=len, reverse=True):
        text = text.replace(words, " ")
    for words in ALLOWED:
        text = text.replace(words, " ")
    text = _visible_words(RULE_CODE.sub(" ", text))
    return [msgid for msgid, pattern in english_patterns() if pattern.search(text)]


class GermanPages:
    """The pages a German reader saw: `see(page)` checks that the page says it is German
    and keeps its visible words, with the players' words it may show, for `leftovers`."""

    def __init__(self):
        self.seen = []  # (address, visible text)
        self.own_words = set()

    def see(self, page, lang="de"):
        page.wait_for_load_state()
        said = page.locator("html").get_attribute("lang")
        assert said == lang, f"{page.url} says lang={said!r}: {page.title()}"
        if lang == "de":
            self.seen.append((page.url, page.locator("body").inner_text()))

    def leftovers(self) -> dict[str, list[str]]:
        found = {}
        for url, text in self.seen:
            left = english_left(text, self.own_words)
            if left:
                found.setdefault(url, [])
                found[url] += [m for m in left if m not in found[url]]
        return found
