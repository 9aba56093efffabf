"""The light and dark themes' style sheets (static/css/*.css): every colour is a custom
property of the palette, so nothing keeps its light colour in the dark; the palette is
written once, each colour light-dark() where the themes differ."""

import re
from pathlib import Path

import pytest

CSS = Path(__file__).resolve().parents[2] / "static" / "css"
SHEETS = sorted(CSS.glob("*.css"))
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(|\b(?:white|black)\b(?!-)")
# A palette: a `:root {…}` block (the root's own, or a theme chosen outright).
PALETTE = re.compile(r":root(?:\[data-theme=\"(?:light|dark)\"\])?\s*\{")
LIGHT_DARK = re.compile(r"light-dark\((#[0-9a-fA-F]{3,8}), (#[0-9a-fA-F]{3,8})\)")


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
def test_each_palette_colour_is_one_value_or_a_light_and_a_dark(sheet):
    """One palette, no copies: a colour that differs in the dark is `light-dark(L, D)`,
    which the root's color-scheme picks (the browser's preference or the member's theme)."""
    text = _without_comments((CSS / sheet).read_text())
    palettes = list(PALETTE.finditer(text))
    root = _declarations(text[palettes[0].end() : text.index("}", palettes[0].end())])
    colours = {n: v for n, v in root.items() if n.startswith("--") and COLOUR.search(v)}
    assert colours
    for name, value in colours.items():
        assert LIGHT_DARK.fullmatch(value) or re.fullmatch(r"#[0-9a-fA-F]{3,8}", value), name
    assert sum(bool(LIGHT_DARK.fullmatch(v)) for v in colours.values()) >= len(colours) // 2
    # A chosen theme only sets the root's color-scheme: no second copy of a colour.
    for match in palettes[1:]:
        chosen = _declarations(text[match.end() : text.index("}", match.end())])
        assert set(chosen) == {"color-scheme"}, chosen


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
