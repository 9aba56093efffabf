"""The end-to-end run under the pseudo-locale (`make test-pseudo`, WITCHHUNT_PSEUDO_LOCALE=1):
every page a test loads is checked for English that no catalog worded.

The catalog is English with every msgid wrapped in two invisible characters
(`witchhunt.pseudo.marked`), so the pages read as in English and the tests' English
locators and assertions hold unchanged (Playwright's text matching ignores both
characters; the raw strings a test reads, `inner_text()` and the like, are handed back
without them). Words outside the marks came from no catalog: a template, a form, a
script or a message nobody marked. Players' words are spared: the names, titles,
addresses and notes in the database, whatever a test typed, the posts' bodies (and a
post's first line elsewhere, `.players-words`), the time zones' places and
abbreviations, the rules pages' spec texts (SPEC_TEXTS), any element with its own `lang`
or `translate="no"`, code, and the contents of text fields.

A page with English left does not stop its test: the test fails at its end listing
each page and the words, and the run's summary lists them all.
"""

from __future__ import annotations

import functools
import os
import re
import time
from collections import defaultdict
from datetime import datetime
from urllib.parse import urlsplit

import pytest
from playwright._impl._sync_base import mapping
from playwright.sync_api import (
    Browser,
    ElementHandle,
    Error,
    Keyboard,
    Locator,
    LocatorAssertions,
    Page,
)

from witchhunt.pseudo import CLOSE, OPEN, english_left, unmarked

REAL_EVALUATE = Page.evaluate  # before patch_playwright: the check sees the marks
ENABLED = os.environ.get("WITCHHUNT_PSEUDO_LOCALE", "") not in ("", "0")
LANGUAGE = "en"  # the marked catalog's code: the pages keep English formats and `lang`
BROWSER_LOCALE = "en-US"  # every context's Accept-Language asks for it

# The page as the check reads it: without what is nobody's to translate. <noscript>'s
# contents are raw text while scripts run: parsed, so its words are checked as markup.
# The rules pages' spec texts (the seeds' rules text, the rulings) stay English; an element
# that says its own language (`lang`), or is not to be translated (`translate="no"`), too.
SPEC_TEXTS = (
    ".source-text, .rules-prose, .ruling__text, .ruling__number, .card-face, blockquote[cite]"
)
SPARED = (
    f"{SPEC_TEXTS}, body [lang], [translate='no'], .post__body, .players-words, textarea,"
    " [contenteditable],"
    " code, pre, script, style"
)
PAGE_TEXT = """(spared) => {
  const root = document.documentElement.cloneNode(true);
  root.querySelectorAll(spared).forEach((el) => el.remove());
  root.querySelectorAll("noscript").forEach((el) => {
    const box = document.createElement("div");
    box.innerHTML = el.textContent;
    el.replaceWith(box);
  });
  return {lang: document.documentElement.lang, html: root.outerHTML};
}"""


class EnglishWatch:
    """What the run found: {page path: {words}} for the summary, and this test's."""

    found: dict[str, set[str]] = defaultdict(set)
    checked = 0
    typed: set[str] = set()  # what the tests typed: players' words

    def __init__(self):
        self.this_test: dict[str, set[str]] = defaultdict(set)
        self.seen: set[int] = set()

    def check(self, page):
        """English left on `page` as it is now (read with Playwright's own evaluate: the
        reads a test makes are handed back unmarked, this one must see the marks)."""
        shown = REAL_EVALUATE(page, PAGE_TEXT, SPARED)
        if not shown["lang"].startswith(LANGUAGE):
            return  # a language a test chose: its words are a real catalog's
        key = hash(shown["html"])
        if key in self.seen:
            return
        self.seen.add(key)
        EnglishWatch.checked += 1
        left = english_left(shown["html"], allowed=players_words(), brackets=OPEN + CLOSE)
        if left:
            path = urlsplit(page.url).path
            self.this_test[path].update(left)
            EnglishWatch.found[path].update(left)

    def report(self) -> str:
        return report(self.this_test)


def report(found) -> str:
    return "\n".join(
        f"  {path}: " + " | ".join(sorted(words)) for path, words in sorted(found.items())
    )


def players_words() -> list[str]:
    """Words nobody translates: members' and seats' names, addresses, game titles, the
    notes members left (a volunteer's hours, an absence), what a test typed, the time
    zones' places and abbreviations."""
    from django.db import DatabaseError

    from accounts.models import User
    from games.models import Absence, Game, ReplacementVolunteer, Seat

    words = {*zone_words(), *EnglishWatch.typed}
    try:
        for name, key, email in User.objects.values_list("player_name", "player_key", "email"):
            words.update((name, key, email))
        words.update(Game.objects.values_list("title", flat=True))
        words.update(Seat.objects.values_list("name", flat=True))
        words.update(ReplacementVolunteer.objects.values_list("note", flat=True))
        words.update(Absence.objects.values_list("note", flat=True))
    except DatabaseError:
        pass  # a test without the database: the typed words stand
    return [w for w in words if isinstance(w, str) and w.strip()]


@functools.cache
def zone_words() -> frozenset[str]:
    """The time zones' regions and places (the profile's choices), and the abbreviations
    a time shows ("EST", "CET": the tz database's, in no catalog), in winter and summer."""
    from zoneinfo import ZoneInfo

    from accounts.zones import zone_choices

    words = {"UTC"}
    for region, zones in zone_choices():
        words.add(region)
        if not isinstance(zones, list):
            zones = [(region, zones)]
        for zone, label in zones:
            words.add(label)
            for month in (1, 7):
                try:
                    words.add(datetime(2026, month, 1, tzinfo=ZoneInfo(zone)).strftime("%Z"))
                except (KeyError, ValueError):  # not a zone's name (e.g. a group)
                    pass
    return frozenset(w for w in words if isinstance(w, str))


def _typed(value):
    if isinstance(value, str):
        EnglishWatch.typed.update(line.strip() for line in value.splitlines() if line.strip())


def _unmarked_result(value):
    if isinstance(value, str):
        return unmarked(value)
    if isinstance(value, list):
        return [_unmarked_result(v) for v in value]
    if isinstance(value, dict):
        return {k: _unmarked_result(v) for k, v in value.items()}
    return value


# What a test reads as a raw string, handed back as the reader sees it.
READS = {
    Page: (
        "content",
        "title",
        "inner_text",
        "text_content",
        "inner_html",
        "get_attribute",
        "input_value",
        "evaluate",
    ),
    Locator: (
        "inner_text",
        "text_content",
        "inner_html",
        "all_inner_texts",
        "all_text_contents",
        "get_attribute",
        "input_value",
        "evaluate",
    ),
    ElementHandle: (
        "inner_text",
        "text_content",
        "inner_html",
        "get_attribute",
        "input_value",
        "evaluate",
    ),
}
# What a test types: players' words, wherever they show afterwards.
TYPES = {
    Page: ("fill", "type"),
    Locator: ("fill", "type", "press_sequentially"),
    ElementHandle: ("fill", "type"),
    Keyboard: ("type", "insert_text"),
}


# The text assertions given a regular expression: Playwright matches one against the raw
# text, marks and all (a string it matches with the zero-width space dropped), so "^70 new"
# would miss. These are checked here against the text as the reader sees it.
TEXT_ASSERTIONS = ("to_have_text", "to_contain_text")
EXPECT_TIMEOUT = 5_000  # Playwright's own default, in milliseconds


def _regex_assertion(real):
    def assertion(self, expected, *, use_inner_text=None, timeout=None, ignore_case=None):
        if not isinstance(expected, re.Pattern) or self._impl_obj._is_not:
            return real(
                self, expected, use_inner_text=use_inner_text, timeout=timeout,
                ignore_case=ignore_case,
            )  # fmt: skip
        impl = self._impl_obj
        locator = mapping.from_impl(impl._actual_locator)
        pattern = re.compile(expected.pattern, expected.flags | (re.I if ignore_case else 0))
        wait = timeout or impl._timeout or EXPECT_TIMEOUT
        deadline = time.monotonic() + wait / 1000
        read = locator.inner_text if use_inner_text else locator.text_content
        while True:
            try:
                text = read(timeout=wait)  # unmarked (READS)
            except Error:
                text = None
            if text is not None and pattern.search(text):
                return None
            if time.monotonic() >= deadline:
                raise AssertionError(
                    f"Locator expected to have text {expected!r} (read without the marks)"
                    f"\nActual value: {text!r}"
                )
            time.sleep(0.1)

    return assertion


# An option chosen by its label: Playwright compares the label with its marks, so the
# option is found here by the label as read, and chosen by its value.
OPTIONS = "(select) => Array.from(select.options, (o) => [o.value, o.label])"


def _select_by_label(real, *, takes_selector: bool):
    def select_option(self, *args, label=None, **kwargs):
        if label is None:
            return real(self, *args, **kwargs)
        select = self.locator(args[0]) if takes_selector else self
        shown = {text: value for value, text in select.evaluate(OPTIONS)}  # unmarked (READS)
        wanted = [label] if isinstance(label, str) else list(label)
        values = [shown.get(text, text) for text in wanted]
        return real(self, *args, value=values[0] if isinstance(label, str) else values, **kwargs)

    return select_option


def _unmarked_email(real):
    """The test outbox's emails as their reader sees them: an English email carries the
    marks too, and the tests read its subject and body as strings."""

    def send_messages(self, messages):
        for message in messages:
            message.subject = unmarked(message.subject)
            message.body = unmarked(message.body)
            if hasattr(message, "alternatives"):  # EmailAlternative(content, mimetype)
                message.alternatives = [
                    alt._replace(content=unmarked(alt.content)) for alt in message.alternatives
                ]
        return real(self, messages)

    return send_messages


def patch_mail(monkeypatch: pytest.MonkeyPatch):
    from django.core.mail.backends.locmem import EmailBackend

    monkeypatch.setattr(EmailBackend, "send_messages", _unmarked_email(EmailBackend.send_messages))


def patch_playwright(monkeypatch: pytest.MonkeyPatch):
    """Reads unmarked, typed words recorded, every new context asking for English, and
    text assertions by regular expression and options chosen by label made on the text as
    read."""
    monkeypatch.setattr(
        Page, "select_option", _select_by_label(Page.select_option, takes_selector=True)
    )
    monkeypatch.setattr(
        Locator, "select_option", _select_by_label(Locator.select_option, takes_selector=False)
    )
    for name in TEXT_ASSERTIONS:
        monkeypatch.setattr(
            LocatorAssertions, name, _regex_assertion(getattr(LocatorAssertions, name))
        )
    for cls, names in READS.items():
        for name in names:
            real = getattr(cls, name)

            def read(self, *args, _real=real, **kwargs):
                return _unmarked_result(_real(self, *args, **kwargs))

            monkeypatch.setattr(cls, name, read)
    for cls, names in TYPES.items():
        for name in names:
            real = getattr(cls, name)

            def typing(self, *args, _real=real, **kwargs):
                for value in (*args, *kwargs.values()):
                    _typed(value)
                return _real(self, *args, **kwargs)

            monkeypatch.setattr(cls, name, typing)
    real_new_context = Browser.new_context

    def new_context(self, *args, **kwargs):
        kwargs.setdefault("locale", BROWSER_LOCALE)
        return real_new_context(self, *args, **kwargs)

    monkeypatch.setattr(Browser, "new_context", new_context)
