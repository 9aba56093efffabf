"""The alias lists: a few themes of 48 names each (a game has at most 48 seats), and the
checks on a host's own list."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy

from accounts.models import player_key_for
from accounts.validators import validate_player_name

# The most seats a game may have (games.forms), so each list is this long at least.
MAX_SEATS = 48

THEMES = {
    "trees": (
        gettext_lazy("Trees"),
        "Alder Ash Aspen Baobab Beech Birch Box Cedar Cherry Chestnut Cypress Elder Elm Fern "
        "Fig Fir Ginkgo Hawthorn Hazel Hemlock Holly Hornbeam Juniper Larch Laurel Lime Linden "
        "Magnolia Maple Mulberry Myrtle Oak Olive Palm Pear Pine Plane Poplar Rowan Sequoia "
        "Spruce Sumac Sycamore Tamarind Teak Walnut Willow Yew",
    ),
    "birds": (
        gettext_lazy("Birds"),
        "Auk Bittern Bunting Buzzard Chough Coot Crane Crow Cuckoo Curlew Dipper Dove Dunlin "
        "Eagle Egret Falcon Finch Gannet Godwit Goose Grebe Heron Hobby Jay Kestrel Kite Knot "
        "Lapwing Lark Linnet Magpie Martin Merlin Nightjar Osprey Owl Petrel Plover Puffin "
        "Raven Robin Rook Shrike Siskin Sparrow Swift Teal Wren",
    ),
    "stones": (
        gettext_lazy("Stones"),
        "Agate Amber Amethyst Basalt Beryl Chalk Citrine Coral Diamond Emerald Flint Garnet "
        "Granite Gypsum Jade Jasper Jet Kyanite Lapis Marble Mica Moonstone Obsidian Olivine "
        "Onyx Opal Pearl Peridot Pumice Pyrite Quartz Ruby Sapphire Schist Shale Slate Spinel "
        "Sunstone Talc Topaz Tourmaline Turquoise Zircon Azurite Cobalt Halite Galena Malachite",
    ),
}
OWN = "own"


def theme_choices():
    return [(key, label) for key, (label, _) in THEMES.items()] + [
        (OWN, gettext_lazy("My own list"))
    ]


def theme_names(theme: str) -> list[str]:
    return THEMES[theme][1].split()


def own_names(text: str) -> list[str]:
    """A host's own list: one name a line (commas too), blanks dropped."""
    return [n.strip() for line in text.splitlines() for n in line.split(",") if n.strip()]


def own_problems(names: list[str], seats: int, taken_keys) -> list[str]:
    """Why a host's own list will not do, in their words: too few for the seats, a name
    twice, a name a player name could not be (too long, odd characters), or a member's
    real player name (`taken_keys`: those of the names that are, which would mislead)."""
    problems = []
    if len(names) < seats:
        problems.append(
            gettext("the list needs a name for each of the %(seats)s seats; it has %(n)s")
            % {"seats": seats, "n": len(names)}
        )
    keys = [player_key_for(n) for n in names]
    twice = sorted({n for n, k in zip(names, keys, strict=True) if keys.count(k) > 1})
    if twice:
        problems.append(
            gettext("each name may be there once: %(names)s") % {"names": ", ".join(twice)}
        )
    for name in names:
        try:
            validate_player_name(name)
        except ValidationError:  # the same rules as a player name's
            problems.append(
                gettext("“%(name)s” cannot be a name: 2 to 24 letters (a-z), digits or _")
                % {"name": name[:40]}
            )
            break
    clash = sorted(n for n, k in zip(names, keys, strict=True) if k in taken_keys)
    if clash:
        problems.append(
            gettext("a member is already called %(names)s: choose other names")
            % {"names": ", ".join(clash)}
        )
    return problems
