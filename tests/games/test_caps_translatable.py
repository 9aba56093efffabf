"""Every word a person reads in the capabilities' templates is behind a translation tag
(issue 28), by the same check as the core's (tests/i18n_check.py)."""

from pathlib import Path

import pytest

from tests.i18n_check import untranslated

ROOT = Path(__file__).resolve().parents[2]
CAPABILITIES = ("archive", "calendar", "community", "fair_deal", "lab", "leaving", "reading")
TEMPLATES = sorted(
    p for name in CAPABILITIES for p in (ROOT / "games" / name / "templates").rglob("*.html")
)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_word_is_translatable(path):
    leftovers = untranslated([path])
    assert leftovers == [], "\n".join(str(x) for x in leftovers)
