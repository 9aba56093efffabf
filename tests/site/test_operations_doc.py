"""docs/operations.md names the test behind each claim: every name it gives is a test that
exists, so a renamed or deleted test cannot leave a claim standing on nothing."""

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# `tests/x.py::test_y`, or `::test_y` for the file named last before it.
NAMED = re.compile(r"`(tests/[\w/]+\.py)?::(test_\w+)")


def _claims() -> list[tuple[str, str]]:
    text = (ROOT / "docs" / "operations.md").read_text()
    claims, last = [], None
    for path, name in NAMED.findall(text):
        last = path or last
        assert last, f"{name} is named before any test file"
        claims.append((last, name))
    return claims


def test_every_test_the_operations_page_names_exists():
    claims = _claims()
    assert len(claims) > 50  # the page names its tests throughout
    missing = [
        f"{path}::{name}"
        for path, name in claims
        if not (ROOT / path).exists()
        or not re.search(rf"^(async )?def {name}\(", (ROOT / path).read_text(), re.M)
    ]
    assert not missing, missing


def test_the_page_covers_each_step_in_order():
    text = (ROOT / "docs" / "operations.md").read_text()
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings == [
        "Deploy",
        "Upgrade while games run",
        "Lose a server, lose nothing",
        "Back up and restore",
        "Watch it",
        "Scale",
        "Web push",
        "A member leaves",
    ]
