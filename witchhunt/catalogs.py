"""The translation catalogs (locale/<code>/LC_MESSAGES) and what keeps them right
(docs/translation.md): up to date with the code, compiled, complete; and the
pseudo-locale that shows which words on a page are still English.

The compiled .mo files are committed beside their .po files, so that running the site
(`make run`, the Docker image) needs no GNU gettext; `messages_check` proves each .mo says
what its .po says. Extracting the words from the code (`makemessages`) does need gettext:
the developer who changes words and CI have it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

DOMAINS = ("django", "djangojs")
# Never read for words: the virtualenv, collected static files, local state, the tests.
IGNORE = [".venv", "staticfiles", "var", "tests", "node_modules", "locale", "docs"]


def locale_dir() -> Path:
    return Path(settings.LOCALE_PATHS[0])


def po_path(language: str, domain: str = "django") -> Path:
    return locale_dir() / language / "LC_MESSAGES" / f"{domain}.po"


def _key(entry) -> tuple[str, str, str]:
    return (entry.msgctxt or "", entry.msgid, entry.msgid_plural or "")


def _polib():
    import polib  # a dev dependency: the checks run where the tests do

    return polib


def makemessages(language: str, *, root: Path | None = None, keep_pot=False) -> None:
    """Django's makemessages for both domains, as `make messages` runs it: from `root`
    (the repository's), into its locale/ folder, each msgid placed by file only (line
    numbers would change the catalog with every edit)."""
    root = Path(root or settings.BASE_DIR)
    here = os.getcwd()
    os.chdir(root)
    try:
        with override_settings(LOCALE_PATHS=[str(root / "locale")]):
            for domain in DOMAINS:
                call_command(
                    "makemessages",
                    locale=[language],
                    domain=domain,
                    ignore_patterns=IGNORE,
                    add_location="file",
                    no_obsolete=True,
                    keep_pot=keep_pot,
                    verbosity=0,
                )
    finally:
        os.chdir(here)


def code_msgids(domain: str) -> set[tuple[str, str, str]]:
    """Every (context, msgid, plural) the code marks for translation in `domain`: read from
    a copy of the code (makemessages writes into the locale/ folder beside the files it
    reads, and the committed catalog must stay as it is)."""
    polib = _polib()
    skip = shutil.ignore_patterns(*IGNORE, ".*", "__pycache__", "*.mo", "*.po", "*.pyc")
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "src"
        shutil.copytree(settings.BASE_DIR, copy, ignore=skip)
        makemessages("de", root=copy, keep_pot=True)
        pot = copy / "locale" / f"{domain}.pot"
        if not pot.exists():  # no marked word at all in this domain
            return set()
        return {_key(e) for e in polib.pofile(str(pot)) if not e.obsolete}


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        self.problems.append(text)

    @property
    def ok(self) -> bool:
        return not self.problems


def _show(key) -> str:
    context, msgid, _plural = key
    return f"{msgid!r}" + (f" (context {context!r})" if context else "")


def _catalogs(language: str, report: Report, hint: str = ""):
    """(domain, path, parsed .po) of each domain's catalog of `language`; a missing one is
    reported (with `hint`) and passed over."""
    polib = _polib()
    for domain in DOMAINS:
        path = po_path(language, domain)
        if not path.exists():
            report.add(f"{path} is missing{hint}")
            continue
        yield domain, path, polib.pofile(str(path))


def check_up_to_date(language: str, report: Report | None = None) -> Report:
    """The catalog of `language` holds exactly the msgids the code marks (a msgid of the
    code missing from it would show in English), and each .mo says what its .po says."""
    report = report or Report()
    for domain, path, po in _catalogs(language, report, ": run `make messages`"):
        catalog = {_key(e) for e in po if not e.obsolete}
        wanted = code_msgids(domain)
        for key in sorted(wanted - catalog):
            report.add(f"{path.name}: not in the catalog: {_show(key)}: run `make messages`")
        for key in sorted(catalog - wanted):
            report.add(f"{path.name}: in the catalog, no longer in the code: {_show(key)}")
        check_compiled(path, report)
    return report


def _translations(entries) -> dict:
    found = {}
    for e in entries:
        if e.obsolete or "fuzzy" in e.flags or not e.msgid:
            continue
        if e.msgid_plural:
            forms = tuple(e.msgstr_plural[i] for i in sorted(e.msgstr_plural))
            if all(forms):
                found[_key(e)] = forms
        elif e.msgstr:
            found[_key(e)] = e.msgstr
    return found


def check_compiled(po: Path, report: Report) -> None:
    """The .mo beside `po` holds exactly its translations (msgfmt leaves out the fuzzy
    and the empty ones): compared entry by entry, so any msgfmt version will do."""
    polib = _polib()
    mo = po.with_suffix(".mo")
    if not mo.exists():
        report.add(f"{mo} is missing: run `make messages`")
        return
    if _translations(polib.pofile(str(po))) != _translations(polib.mofile(str(mo))):
        report.add(f"{mo} does not match {po.name}: run `make messages`")


def check_complete(language: str, report: Report | None = None) -> Report:
    """Every entry of the catalog of `language` translated, none fuzzy."""
    report = report or Report()
    for _domain, path, po in _catalogs(language, report):
        for e in po:
            if e.obsolete:
                continue
            if "fuzzy" in e.flags:
                report.add(f"{path.name}: fuzzy: {_show(_key(e))}")
            elif not (all(e.msgstr_plural.values()) if e.msgid_plural else e.msgstr):
                report.add(f"{path.name}: not translated: {_show(_key(e))}")
    return report
