"""A small German catalog of the test's own, compiled into a temporary LOCALE_PATHS: a test
proves its words go through gettext without depending on the committed translation's
wording (which translators may polish)."""

from pathlib import Path

import polib


def german_catalog(folder: Path, entries) -> Path:
    """Write `entries` as folder/de/LC_MESSAGES/django.mo and return `folder` (for
    LOCALE_PATHS). Each entry is (msgid, msgstr), (context, msgid, msgstr), or a plural's
    ((singular, plural), (one, many)) with an optional leading context."""
    po = polib.POFile()
    po.metadata = {
        "Content-Type": "text/plain; charset=UTF-8",
        "Language": "de",
        "Plural-Forms": "nplurals=2; plural=(n != 1);",
    }
    for entry in entries:
        context, msgid, msgstr = entry if len(entry) == 3 else (None, *entry)
        if isinstance(msgid, tuple):
            po.append(
                polib.POEntry(
                    msgctxt=context,
                    msgid=msgid[0],
                    msgid_plural=msgid[1],
                    msgstr_plural=dict(enumerate(msgstr)),
                )
            )
        else:
            po.append(polib.POEntry(msgctxt=context, msgid=msgid, msgstr=msgstr))
    messages = folder / "de" / "LC_MESSAGES"
    messages.mkdir(parents=True, exist_ok=True)
    po.save_as_mofile(str(messages / "django.mo"))
    return folder
