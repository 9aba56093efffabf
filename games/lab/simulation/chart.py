"""An estimate drawn as an inline SVG: each team's win share with its 95% interval, and how
the shares move with the setup's size.

matplotlib's object-oriented API only (a Figure of its own per call, no pyplot and its
global state), so charts can be drawn from several threads at once. The SVG is then made
fit to sit inside a page under the site's Content-Security-Policy, which allows no inline
style: the style attributes become presentation attributes and the <style> block goes;
the ids matplotlib gives every group go too, but those a clip path or a glyph is found by,
which are renumbered under a prefix of ours. The glyphs are drawn as paths (matplotlib's
default), so the chart looks the same in every browser, fonts or none; its words are in
<title> and <desc> for screen readers and search.

The chart follows the page's theme (static/css/lab.css): its ink (axes, ticks, words,
intervals, and whatever matplotlib leaves black) is drawn in `currentColor`, which the page
sets, and each team's colour gets a class (chart-fill-N, chart-stroke-N) whose colour the
page's light or dark palette gives; the colour itself stays as the attribute, for a page
without the style sheet. Its backgrounds are transparent: the page's surface shows through.
"""

import io
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import matplotlib

matplotlib.use("svg")  # no display is ever needed; must precede the Figure import

from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import PercentFormatter  # noqa: E402

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)

# Okabe and Ito's palette: told apart with every common colour blindness, and dark enough
# (3:1 or more) against white for graphics (WCAG 1.4.11). Markers differ as well.
COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#8F6A00", "#56687A", "#000000"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X"]
INK = "#1f2328"
THEMED = {INK.lower(): None, **{c.lower(): i for i, c in enumerate(COLOURS)}}
# matplotlib's root <style>, kept as inheritable presentation attributes on the <svg>.
ROOT_STROKE = {"stroke-linejoin": "round", "stroke-linecap": "butt"}
URL_REF = re.compile(r"url\(#([^)]+)\)")
# Coordinates to a hundredth of a point (matplotlib writes millionths): a third smaller.
FINE_NUMBER = re.compile(r"(\d\.\d\d)\d+")


@dataclass(frozen=True)
class Bar:
    """One team's share of the wins with its 95% interval, each a fraction of 1."""

    label: str
    share: float
    low: float
    high: float


@dataclass(frozen=True)
class Axes:
    """The chart's own words, in the reader's language: the simulation knows no gettext,
    so the site passes them (games/lab/narration.py chart_axes); English by default."""

    shares: str = "Share of games won (bars: 95% interval)"
    players: str = "Players"
    players_marked: str = "Players (dotted: this setup)"
    share: str = "Share of games won"


def chart_svg(
    *,
    title: str,
    desc: str,
    teams: list[Bar],
    sizes: list[tuple[int, list[Bar]]] = (),
    current: int | None = None,
    id_prefix: str = "lab-chart",
    axes: Axes = Axes(),
) -> str:
    """The SVG element's text: the shares as bars with their intervals, and, given
    `sizes` [(seats, bars)], the shares by size as lines in a panel below (`current`, the
    setup's own size, marked). `title` and `desc` name the chart for assistive technology."""
    sizes = [(n, bars) for n, bars in sizes if bars]
    # A team keeps its colour in both panels; one seen at another size only comes after.
    labels = list(dict.fromkeys(b.label for b in [*teams, *(b for _, bs in sizes for b in bs)]))
    colour = {label: COLOURS[i % len(COLOURS)] for i, label in enumerate(labels)}
    marker = {label: MARKERS[i % len(MARKERS)] for i, label in enumerate(labels)}
    bar_height = 0.5 + 0.32 * len(teams)
    fig = Figure(
        figsize=(6.4, bar_height + (3.0 if sizes else 0)), layout="constrained", facecolor="none"
    )
    if sizes:
        top, bottom = fig.subplots(2, 1, height_ratios=[bar_height, 3.0])
    else:
        top, bottom = fig.subplots(1, 1), None
    _bars(top, teams, colour, axes)
    if bottom is not None:
        _lines(bottom, sizes, current, colour, marker, axes)
    buffer = io.StringIO()
    # No date and fixed ids: the same estimate draws the same bytes.
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    return accessible(buffer.getvalue(), title=title, desc=desc, id_prefix=id_prefix)


def _style(ax):
    ax.set_facecolor("none")
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.tick_params(colors=INK, labelsize=9)
    for side in ("left", "bottom"):
        ax.spines[side].set_color(INK)
    ax.xaxis.label.set_color(INK)
    ax.yaxis.label.set_color(INK)


def _bars(ax, teams, colour, axes):
    _style(ax)
    rows = list(range(len(teams)))[::-1]  # the first team on top
    shares = [b.share for b in teams]
    errors = [
        [b.share - b.low for b in teams],
        [b.high - b.share for b in teams],
    ]
    ax.barh(rows, shares, height=0.6, color=[colour[b.label] for b in teams])
    ax.errorbar(
        shares, rows, xerr=errors, fmt="none", color=INK, ecolor=INK, elinewidth=1.2, capsize=4
    )
    for row, bar in zip(rows, teams, strict=True):
        ax.text(
            min(bar.high + 0.02, 0.9), row, f"{bar.share:.0%}", va="center", fontsize=9, color=INK
        )
    ax.set_yticks(rows, [b.label for b in teams])
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(axes.shares, fontsize=9)


def _lines(ax, sizes, current, colour, marker, axes):
    _style(ax)
    seats = [n for n, _ in sizes]
    for label in colour:
        points = [(n, b) for n, bars in sizes for b in bars if b.label == label]
        if not points:
            continue
        xs = [n for n, _ in points]
        ax.fill_between(
            xs,
            [b.low for _, b in points],
            [b.high for _, b in points],
            color=colour[label],
            alpha=0.15,
            linewidth=0,
        )
        ax.plot(
            xs,
            [b.share for _, b in points],
            color=colour[label],
            marker=marker[label],
            markersize=5,
            linewidth=1.6,
            label=label,
        )
    if current is not None:
        ax.axvline(current, color=INK, linestyle=":", linewidth=1)
    ax.set_xticks(seats, [str(n) for n in seats])
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(axes.players_marked if current else axes.players, fontsize=9)
    ax.set_ylabel(axes.share, fontsize=9)
    ax.legend(fontsize=8, frameon=False, loc="best", labelcolor=INK)


def accessible(svg_text: str, *, title: str, desc: str, id_prefix: str) -> str:
    """matplotlib's SVG document as an element for an HTML page: no XML declaration,
    doctype, metadata or <style>; style attributes as presentation attributes; only the ids
    something refers to, renamed `id_prefix`-N; role="img" named by a <title> and described by a
    <desc>; sized by its viewBox, so CSS can scale it."""
    root = ET.fromstring(svg_text)
    referenced = set()
    for el in root.iter():
        referenced.update(URL_REF.findall(el.get("clip-path", "")))
        href = el.get(f"{{{XLINK}}}href") or el.get("href") or ""
        if href.startswith("#"):
            referenced.add(href[1:])
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag in (f"{{{SVG}}}metadata", f"{{{SVG}}}style", f"{{{SVG}}}script"):
                parent.remove(child)
    # matplotlib names clip paths at random: numbered in document order instead, the same
    # chart is the same bytes (and shorter).
    renamed = {}
    for el in root.iter():
        if el.get("id") in referenced:
            renamed[el.get("id")] = f"{id_prefix}-{len(renamed)}"
    for el in root.iter():
        _unstyle(el)
        _theme(el)
        if el.get("d"):
            el.set("d", FINE_NUMBER.sub(r"\1", " ".join(el.get("d").split())))
        if el.text and not el.text.strip():
            el.text = None
        el.tail = None
        ident = el.attrib.pop("id", None)
        if ident in renamed:
            el.set("id", renamed[ident])
        if el.get("clip-path"):
            el.set(
                "clip-path", URL_REF.sub(lambda m: f"url(#{renamed[m[1]]})", el.get("clip-path"))
            )
        for name in (f"{{{XLINK}}}href", "href"):
            if (el.get(name) or "").startswith("#"):
                el.set(name, f"#{renamed[el.get(name)[1:]]}")
    for name in ("width", "height", "version"):
        root.attrib.pop(name, None)
    root.attrib.update(ROOT_STROKE)
    # What matplotlib leaves unpainted is black, SVG's default fill: the page's ink instead.
    root.set("fill", "currentColor")
    root.set("role", "img")
    root.set("aria-labelledby", f"{id_prefix}-title")
    root.set("aria-describedby", f"{id_prefix}-desc")
    root.set("class", "lab-chart")
    root.set("focusable", "false")
    title_el = ET.Element(f"{{{SVG}}}title", id=f"{id_prefix}-title")
    title_el.text = title
    desc_el = ET.Element(f"{{{SVG}}}desc", id=f"{id_prefix}-desc")
    desc_el.text = desc
    root.insert(0, desc_el)
    root.insert(0, title_el)
    return ET.tostring(root, encoding="unicode", short_empty_elements=True)


def _theme(el):
    """The ink as currentColor and a team's colour with its class (the module's docstring)."""
    classes = []
    for name in ("fill", "stroke"):
        value = (el.get(name) or "").lower()
        if value not in THEMED:
            continue
        if THEMED[value] is None:
            el.set(name, "currentColor")
        else:
            classes.append(f"chart-{name}-{THEMED[value]}")
    if classes:
        el.set("class", " ".join(classes))


def _unstyle(el):
    style = el.attrib.pop("style", None)
    if not style:
        return
    for declaration in style.split(";"):
        name, _, value = declaration.partition(":")
        if name.strip() and value.strip():
            el.set(name.strip(), value.strip())
