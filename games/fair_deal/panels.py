"""What the fair deal shows on the core's pages: on the reveal, the sealed deal opened and
checked against its commitment (with its stylesheet in the page's head)."""

from games import panels

from .selectors import fair_deal

STYLESHEET = "css/fair-deal.css"


def reveal_stylesheet(**_):
    return STYLESHEET


def reveal_deal(*, game, seats=None, **_):
    """The reveal's seats come with their cards: the deal is rebuilt with no query."""
    return fair_deal(game, seats)


def register():
    panels.register(panels.REVEAL, "head", "fair_deal/_stylesheet.html", reveal_stylesheet)
    panels.register(panels.REVEAL, "deal", "fair_deal/_reveal.html", reveal_deal)
