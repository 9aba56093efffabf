"""The pseudo-locale: every translatable word accented and bracketed ("Vote for %(name)s"
becomes "[Ṽöţé ƒöŕ %(name)s]"), placeholders and HTML tags kept, so that a page shown in
it tells at a glance which of its words are still English, hence not translatable.

`manage.py pseudo_locale` writes the catalog (under the code "de", in var/pseudo-locale/,
git-ignored) from the project's catalog and the English catalogs of Django and the
installed apps (their words are on our pages too); `witchhunt.settings.pseudo` reads it
instead of the German one. `english_left` lists what a page still says in English.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.utils import translation

LANGUAGE = "de"  # the code the pseudo catalog stands in for
DOMAINS = ("django", "djangojs")
# The end-to-end run's marks: every word wrapped in two invisible characters, so that the
# pages read (and are found by the tests' English locators, which ignore both) as in
# English, yet tell which words went through a catalog. A zero-width space opens, a soft
# hyphen closes: distinct, so a card name inside a sentence nests.
OPEN, CLOSE = "\u200b", "\u00ad"

_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
# What must reach the page as it is: printf and format placeholders, tags, entities.
_KEEP = re.compile(r"%\([^)]+\)[-#0 +]*\d*(?:\.\d+)?[sdifrx]|%[sdifr%]|\{[^{}]*\}|<[^<>]+>|&#?\w+;")


def pseudo(text: str) -> str:
    """`text` accented and bracketed, its placeholders, tags and entities untouched."""
    if not text:
        return text
    out, at = [], 0
    for match in _KEEP.finditer(text):
        out.append(text[at : match.start()].translate(_ACCENTS))
        out.append(match.group())
        at = match.end()
    out.append(text[at:].translate(_ACCENTS))
    return "[" + "".join(out) + "]"


def marked(text: str) -> str:
    """`text` wrapped in the invisible marks, unchanged inside (placeholders included)."""
    return OPEN + text + CLOSE if text else text


def unmarked(text: str) -> str:
    """`text` without the invisible marks: what the reader sees."""
    return text.replace(OPEN, "").replace(CLOSE, "")


def pseudo_dir() -> Path:
    return Path(settings.VAR_DIR) / "pseudo-locale"


def _sources(domain: str) -> list[Path]:
    """The catalogs whose msgids the pseudo catalog covers: the project's, Django's
    English and each installed app's English."""
    import django

    found = [Path(settings.LOCALE_PATHS[0]) / "de" / "LC_MESSAGES" / f"{domain}.po"]
    found.append(Path(django.__file__).parent / "conf" / "locale" / "en" / "LC_MESSAGES")
    found.extend(Path(app.path) / "locale" / "en" / "LC_MESSAGES" for app in apps.get_app_configs())
    found = [p if p.suffix == ".po" else p / f"{domain}.po" for p in found]
    return [p for p in found if p.exists()]


def write_catalog(out: Path | None = None, *, language: str = LANGUAGE, word=pseudo) -> Path:
    """The pseudo catalog, .po and compiled .mo (by polib: no gettext needed), under
    `out`/`language`/LC_MESSAGES, each msgid worded by `word` (accented and bracketed, or
    `marked`); returns `out`, the folder to name in LOCALE_PATHS."""
    import polib

    out = Path(out or pseudo_dir())
    folder = out / language / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    for domain in DOMAINS:
        catalog = polib.POFile()
        catalog.metadata = {
            "Content-Type": "text/plain; charset=UTF-8",
            "Language": language,
            "Plural-Forms": "nplurals=2; plural=(n != 1);",
        }
        seen = set()
        for source in _sources(domain):
            for e in polib.pofile(str(source)):
                key = (e.msgctxt, e.msgid, e.msgid_plural)
                if e.obsolete or not e.msgid or key in seen:
                    continue
                seen.add(key)
                entry = polib.POEntry(msgctxt=e.msgctxt, msgid=e.msgid)
                if e.msgid_plural:
                    entry.msgid_plural = e.msgid_plural
                    entry.msgstr_plural = {0: word(e.msgid), 1: word(e.msgid_plural)}
                else:
                    entry.msgstr = word(e.msgid)
                catalog.append(entry)
        catalog.save(str(folder / f"{domain}.po"))
        catalog.save_as_mofile(str(folder / f"{domain}.mo"))
    return out


# --- what a page still says in English -------------------------------------------------
_BRACKETED = {  # what a catalog worded, innermost first: between its brackets, or marks
    "[]": re.compile(r"\[[^\[\]]*\]"),
    OPEN + CLOSE: re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}"),
}
_ENGLISH = re.compile(r"[A-Za-z]{2,}")
# The attributes a reader meets: read aloud, shown on hover, in an empty field.
_READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
_SKIPPED_TAGS = ("script", "style", "template")


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in _SKIPPED_TAGS:
            self._skipping += 1
        attrs = dict(attrs)
        self.chunks.extend(attrs[a] for a in _READ_ATTRIBUTES if attrs.get(a))
        if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
            self.chunks.append(attrs["value"])

    def handle_endtag(self, tag):
        if tag in _SKIPPED_TAGS and self._skipping:
            self._skipping -= 1

    def handle_data(self, data):
        if not self._skipping and data.strip():
            self.chunks.append(data)


def english_left(html: str, allowed=(), brackets: str = "[]") -> list[str]:
    """The visible texts of `html` (and the attributes read to a reader) that say
    something outside the pseudo-locale's brackets (or `marked`'s marks, with
    brackets=OPEN + CLOSE): English nobody marked. `allowed`: words that are nobody's to
    translate (players' names and posts, the site's name)."""
    bracketed = _BRACKETED[brackets]
    parser = _Text()
    parser.feed(html)
    # The site's name, and each language named in itself (the switcher's).
    own = [translation.get_language_info(code)["name_local"] for code, _ in settings.LANGUAGES]
    allowed = sorted({"Witchhunt", *own, *allowed}, key=len, reverse=True)
    chunks = parser.chunks
    if brackets == OPEN + CLOSE:
        # The marks are invisible, not accents: a sentence with a link or <strong> in
        # it is marked across its texts, so they are read as one, in the page's order.
        chunks = ["\n".join(chunks)]
    left = []
    for chunk in chunks:
        text = chunk
        while bracketed.search(text):  # innermost first: a name inside a sentence
            text = bracketed.sub(" ", text)
        for word in allowed:  # whole words: a player named Eve spares no "every"
            text = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", " ", text)
        if brackets == OPEN + CLOSE:
            lines = unmarked(text).split("\n")
            left.extend(" ".join(line.split()) for line in lines if _ENGLISH.search(line))
        elif _ENGLISH.search(text):
            left.append(" ".join(chunk.split()))
    return left
