"""The translation catalogs stay right (witchhunt/catalogs.py, docs/translation.md): every
word the code marks is in the German catalog, each compiled .mo matches its .po, and (once
the translation lands) no German entry is empty or fuzzy; the pseudo-locale
(witchhunt/pseudo.py) shows what a page still says in English."""

import os
import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.utils import translation

from witchhunt import catalogs
from witchhunt.pseudo import CLOSE, OPEN, english_left, marked, pseudo, unmarked, write_catalog

# Extracting the words needs GNU gettext: CI installs it (.ci/run) and must run these.
REQUIRE = os.environ.get("CI", "") not in ("", "0", "false")
needs_gettext = pytest.mark.skipif(
    shutil.which("xgettext") is None and not REQUIRE, reason="GNU gettext is not installed"
)


@needs_gettext
def test_the_german_catalog_holds_every_word_the_code_marks_and_is_compiled():
    report = catalogs.check_up_to_date("de")
    assert report.ok, "\n".join(report.problems)


@needs_gettext
def test_a_word_missing_from_the_catalog_or_a_stale_mo_is_caught(tmp_path):
    """The check above can fail: the catalog less one entry, and a .po changed since its
    .mo was compiled."""
    folder = tmp_path / "de" / "LC_MESSAGES"
    shutil.copytree(catalogs.po_path("de").parent, folder)
    po = polib.pofile(str(folder / "django.po"))
    dropped = next(e for e in po if e.msgid == "You play for the Village.")
    po.remove(dropped)
    po.save(str(folder / "django.po"))
    with override_settings(LOCALE_PATHS=[str(tmp_path)]):
        problems = catalogs.check_up_to_date("de").problems
    assert any("not in the catalog: 'You play for the Village.'" in p for p in problems)
    assert any("django.mo does not match django.po" in p for p in problems)


# The names makemessages finds (Django's keywords and xgettext's own for Python): a
# translation function imported under any other name marks nothing ("The Coven" once
# went through `gettext_noop as N_` and stayed English on every page).
EXTRACTED_NAMES = {
    "_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy",
    "pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy",
}  # fmt: skip
_TRANSLATION_IMPORT = re.compile(
    r"from django\.utils\.translation import \(?([^)]*?)\)?$", re.M | re.S
)


def renamed_translation_functions(root) -> list[str]:
    """Where a module imports a translation function under a name no extraction knows."""
    found = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if parts[0] in catalogs.IGNORE or any(p.startswith(".") for p in parts):
            continue
        for match in _TRANSLATION_IMPORT.finditer(path.read_text()):
            for name in match[1].replace("\n", " ").split(","):
                original, _, alias = (w.strip() for w in name.partition(" as "))
                if alias and alias not in EXTRACTED_NAMES and original in EXTRACTED_NAMES:
                    found.append(f"{path.relative_to(root)}: {original} as {alias}")
    return found


def test_no_module_renames_a_translation_function_makemessages_would_then_miss(tmp_path):
    assert renamed_translation_functions(Path(settings.BASE_DIR)) == []
    module = tmp_path / "rooms.py"
    module.write_text("from django.utils.translation import gettext_noop as N_\n")
    assert renamed_translation_functions(tmp_path) == ["rooms.py: gettext_noop as N_"]


def test_every_german_entry_is_translated_and_none_is_fuzzy():
    report = catalogs.check_complete("de")
    assert report.ok, f"{len(report.problems)} entries:\n" + "\n".join(report.problems[:50])


def test_the_german_catalog_is_read():
    with translation.override("de"):
        assert translation.gettext("You play for the Village.") == "Du spielst für das Dorf."


# --- the pseudo-locale ------------------------------------------------------------------
def test_pseudo_text_keeps_placeholders_tags_and_entities():
    text = 'Vote for %(name)s, {n} <a href="/x">here</a> &amp; %d'
    assert pseudo(text) == '[Ṽöţé ƒöŕ %(name)s, {n} <a href="/x">ĥéŕé</a> &amp; %d]'
    assert pseudo("") == ""


def test_english_left_finds_unmarked_words_and_spares_brackets_and_players_words():
    html = (
        "<title>[Ĥöɱé]</title><p>[Ṽöţé ƒöŕ [Ðåý 1]] Ann</p><p>Left over</p>"
        '<button aria-label="Close">[×]</button><script>var x = "Nope";</script>'
    )
    assert english_left(html, allowed=["Ann"]) == ["Left over", "Close"]


def test_english_left_reads_marks_across_a_sentences_tags():
    """The end-to-end run's invisible marks (tests/e2e/pseudo_run.py): a marked sentence
    with a link in it is one text; what lies outside every mark is English left."""
    sentence = marked('Signed in as <strong>%(name)s</strong> (<a href="/p">change</a>).')
    vote = marked("Vote for %(card)s") % {"card": marked("Priest")}
    html = (
        f"<p>{sentence % {'name': 'Ann'}}</p><p>{vote}"
        f' now</p><button title="{marked("Close")}">Log out</button>'
    )
    assert english_left(html, allowed=["Ann"], brackets=OPEN + CLOSE) == ["now", "Log out"]
    assert unmarked(html).startswith("<p>Signed in as <strong>Ann</strong>")
    # A player's name spares the name, not the words it is part of.
    assert english_left("<p>Eve, every day</p>", allowed=["Eve"]) == ["Eve, every day"]
    assert english_left("<p>[Ṽöţé] Eve</p>", allowed=["Eve"]) == []


def test_the_marked_catalog_marks_english_pages(tmp_path, db):
    folder = write_catalog(tmp_path, language="en", word=marked)
    with override_settings(LOCALE_PATHS=[str(folder)]):
        page = Client().get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert marked("Change language") in page
    assert english_left(page, allowed=["UTC"], brackets=OPEN + CLOSE) == []


@pytest.fixture(scope="module")
def pseudo_locale(tmp_path_factory):
    return str(write_catalog(tmp_path_factory.mktemp("pseudo")))


def test_the_pseudo_locale_is_what_a_german_reader_gets(pseudo_locale, db):
    with override_settings(LOCALE_PATHS=[pseudo_locale]):
        page = Client().get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert pseudo("Change language") in page


def _zone_words() -> list[str]:
    """The time zones' regions and cities: names of places, not the site's words."""
    from accounts.zones import zone_choices

    words = []
    for region, zones in zone_choices():
        words.append(region)
        words.extend(label for _zone, label in (zones if isinstance(zones, list) else ()))
    return [w for w in words if isinstance(w, str)]


PAGES = ["/", "/rules/", "/games/", "/accounts/login/", "/accounts/signup/"]
# The card sets' product names: names, as the games' are.
EXPANSIONS = ["Witchhunt Base Set", "Showdown Expansion", "King's Court Expansion"]
EXPANSIONS += ["Love & War Expansion"]


def test_no_english_is_left_on_the_visitors_pages_under_the_pseudo_locale(pseudo_locale, db):
    """Every word of these pages marked: under the pseudo-locale nothing is left outside
    the brackets. Lists what is, page by page."""
    left = {}
    with override_settings(LOCALE_PATHS=[pseudo_locale]):
        for path in PAGES:
            html = Client().get(path, HTTP_ACCEPT_LANGUAGE="de").content.decode()
            found = english_left(html, allowed=["UTC", *EXPANSIONS, *_zone_words()])
            if found:
                left[path] = found
    assert not left, "\n".join(f"{path}: {found[:15]}" for path, found in left.items())
