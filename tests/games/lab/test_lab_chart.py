"""The lab's chart (games/lab/simulation/chart.py): a valid SVG element that can sit inside
a page under the site's Content-Security-Policy (no style of its own), named for assistive
technology, the same bytes for the same estimate, and safe to draw from several threads at
once."""

import re
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor

import pytest

from games.lab.simulation.chart import Bar, chart_svg

NS = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
TEAMS = [Bar("Village", 0.54, 0.51, 0.57), Bar("Witches", 0.46, 0.43, 0.49)]


def _rising(n):
    return Bar("Village", 0.3 + n / 100, 0.25 + n / 100, 0.35 + n / 100)


SIZES = [(n, [_rising(n), Bar("Witches", 0.5, 0.45, 0.55)]) for n in (8, 12, 16, 24)]
# At 48 a result the setup's own size never saw.
SIZES.append((48, [_rising(-10), Bar("Witches", 0.7, 0.6, 0.8), Bar("Unfinished", 0.1, 0, 0.2)]))


def _chart(**kwargs):
    args = {"title": "Win chances for Witchhunt 12", "desc": "Village wins 54%.", "teams": TEAMS}
    return chart_svg(**{**args, **kwargs})


def test_the_chart_is_one_svg_element_named_and_described():
    text = _chart(sizes=SIZES, current=12)
    assert text.startswith("<svg ") and text.endswith("</svg>")  # no XML declaration, doctype
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    assert root.get("role") == "img"
    title, desc = root.find(f"{NS}title"), root.find(f"{NS}desc")
    assert root.get("aria-labelledby") == title.get("id") == "lab-chart-title"
    assert root.get("aria-describedby") == desc.get("id") == "lab-chart-desc"
    assert title.text == "Win chances for Witchhunt 12" and desc.text == "Village wins 54%."
    # Scaled by CSS from its viewBox alone.
    assert root.get("viewBox") and root.get("width") is None and root.get("height") is None


def test_the_chart_has_no_style_script_or_stray_id_to_clash_with_the_page():
    root = ET.fromstring(_chart(sizes=SIZES, current=12))
    elements = list(root.iter())
    assert not [e for e in elements if e.tag in (f"{NS}style", f"{NS}script", f"{NS}metadata")]
    assert not [e for e in elements if "style" in e.attrib]  # CSP: no inline style
    assert not [e for e in elements if any(a.startswith("on") for a in e.attrib)]
    ids = {e.get("id") for e in elements if e.get("id")}
    assert all(i.startswith("lab-chart-") for i in ids)
    referenced = set()
    for e in elements:
        referenced.update(re.findall(r"url\(#([^)]+)\)", e.get("clip-path", "")))
        href = e.get(XLINK_HREF) or e.get("href") or ""
        if href.startswith("#"):
            referenced.add(href[1:])
    assert referenced and referenced <= ids  # every glyph and clip path is found
    assert {"lab-chart-title", "lab-chart-desc"} <= ids


def test_the_colours_survive_as_presentation_attributes():
    root = ET.fromstring(_chart())
    fills = {e.get("fill") for e in root.iter() if e.get("fill")}
    assert {"#0072b2", "#d55e00"} <= {f.lower() for f in fills}  # the two teams' bars


def test_the_panel_of_sizes_is_drawn_only_when_given():
    one = ET.fromstring(_chart())
    two = ET.fromstring(_chart(sizes=SIZES, current=12))
    height = lambda root: float(root.get("viewBox").split()[3])  # noqa: E731
    assert height(two) > 2 * height(one)
    # A team seen only at another size gets a colour of its own (the third).
    assert "#009e73" in {e.get("stroke", "").lower() for e in two.iter()}


def test_words_are_escaped_and_the_chart_stays_small():
    text = _chart(title='Mine <b>"&"</b>', teams=[Bar("<Village>", 1.0, 0.9, 1.0)])
    assert ET.fromstring(text).find(f"{NS}title").text == 'Mine <b>"&"</b>'
    assert "<b>" not in text
    assert len(_chart(sizes=SIZES, current=12).encode()) < 60_000


@pytest.mark.slow
def test_the_same_estimate_draws_the_same_bytes_from_any_thread():
    expected = [_chart(sizes=SIZES, current=n) for n in (8, 12, 16, 24)]
    with ThreadPoolExecutor(4) as pool:
        drawn = list(pool.map(lambda n: _chart(sizes=SIZES, current=n), [8, 12, 16, 24] * 2))
    assert drawn == expected * 2
    assert len(set(expected)) == 4  # the dotted line moves with the setup's size


def test_the_chart_follows_the_pages_theme():
    """Its ink is the page's currentColor, its teams' colours are classes the light and dark
    palettes colour (static/css/lab.css), and no background of its own hides the page's."""
    root = ET.fromstring(_chart(sizes=SIZES, current=12))
    elements = list(root.iter())
    painted = {(e.get(a) or "").lower() for e in elements for a in ("fill", "stroke")}
    assert "#1f2328" not in painted and "#ffffff" not in painted and "white" not in painted
    # The words (glyphs drawn by <use> in a group) and the axes take the page's colour.
    parent = {child: el for el in elements for child in el}

    def fill_of(e):  # its own fill, else its nearest ancestor's (SVG's default: black)
        while e is not None and e.get("fill") is None:
            e = parent.get(e)
        return "black" if e is None else e.get("fill")

    words = [e for e in elements if e.tag == f"{NS}g" and "scale(" in e.get("transform", "")]
    assert len(words) > 20 and all(fill_of(e) == "currentColor" for e in words)
    bars = [e for e in elements if (e.get("fill") or "").lower() == "#0072b2"]
    assert bars and all("chart-fill-0" in e.get("class", "").split() for e in bars)
    lines = [e for e in elements if (e.get("stroke") or "").lower() == "#009e73"]
    assert lines and all("chart-stroke-2" in e.get("class", "").split() for e in lines)
    # Every colour drawn is the ink, a team's (with its class) or none.
    for e in elements:
        for name in ("fill", "stroke"):
            value = (e.get(name) or "none").lower()
            assert value in ("none", "currentcolor") or f"chart-{name}-" in e.get("class", "")
