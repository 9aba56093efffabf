"""The light and dark themes' style sheets (static/css/*.css): every colour is a custom
property of a theme's palette, so nothing keeps its light colour in the dark; the dark
palette applied by the browser's preference and the one a member chooses are the same."""

import re
from pathlib import Path

import pytest

CSS = Path(__file__).resolve().parents[2] / "static" / "css"
SHEETS = sorted(CSS.glob("*.css"))
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(|\b(?:white|black)\b(?!-)")
PALETTE = re.compile(
    r":root(?:\[data-theme=\"(?:light|dark)\"\]|:not\(\[data-theme=\"light\"\]\))?\s*\{"
)
BY_PREFERENCE = re.compile(
    r"@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\[data-theme=\"light\"\]\) \{([^}]*)\}"
)
CHOSEN = re.compile(r":root\[data-theme=\"dark\"\] \{([^}]*)\}")


def _without_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def _declarations(block: str) -> dict[str, str]:
    pairs = (d.split(":", 1) for d in block.split(";") if ":" in d)
    return {name.strip(): value.strip() for name, value in pairs}


def _outside_palettes(text: str) -> str:
    """The sheet without its palette blocks (`:root {…}` and its dark variants)."""
    out, at = [], 0
    for match in PALETTE.finditer(text):
        out.append(text[at : match.start()])
        at = text.index("}", match.end()) + 1
    return "".join(out) + text[at:]


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.name)
def test_every_colour_is_a_palette_property(sheet):
    rules = _outside_palettes(_without_comments(sheet.read_text()))
    assert not COLOUR.findall(rules), f"{sheet.name}: a colour outside the palette"


@pytest.mark.parametrize("sheet", ["site.css", "lab.css"])
def test_the_dark_palette_is_the_same_by_preference_and_by_choice(sheet):
    text = _without_comments((CSS / sheet).read_text())
    preferred = _declarations(BY_PREFERENCE.search(text)[1])
    chosen = _declarations(CHOSEN.search(text)[1])
    assert preferred == chosen
    # And it sets every colour the light palette does.
    light = _declarations(re.search(r":root \{([^}]*)\}", text)[1])
    assert {n for n in light if n.startswith("--") and COLOUR.search(light[n])} <= set(chosen)


def test_the_icons_are_painted_in_the_texts_colour():
    """The icons (static/img/icons, drawn black) are only ever a mask over currentColor, so
    they take the text's colour in either theme; no page shows one as an image."""
    site = _without_comments((CSS / "site.css").read_text())
    icons = sorted(p.name for p in (CSS.parent / "img" / "icons").glob("*.svg"))
    assert icons
    for name in icons:
        assert re.search(rf'--icon: url\("\.\./img/icons/{name}"\)', site), name
    rule = re.search(r"\.post__icon \{([^}]*)\}", site)[1]
    assert "background: currentColor" in rule and "mask: var(--icon)" in rule
    root = CSS.parents[1]
    used_elsewhere = [
        p
        for folder in ("templates", "games", "static/js")
        for p in (root / folder).rglob("*")
        if p.suffix in (".html", ".js", ".py") and "img/icons" in p.read_text()
    ]
    assert not used_elsewhere
