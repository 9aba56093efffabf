"""The time zones a member picks from, and the browser's zone made one of them.

The list is IANA's own list for people to choose from (`zone.tab`: a zone per country and
region, named for a city) plus UTC. The database's other names are aliases a member should
not have to choose between: old names kept for compatibility (`US/Eastern`, `Asia/Calcutta`,
`Europe/Kiev`), fixed offsets (`Etc/GMT+5`) and technical entries (`Factory`). A browser may
still report an old name (Chromium says `Asia/Calcutta`), so `canonical_zone` follows the
database's links (`tzdata.zi`) to the city the list has. Both files come from the `tzdata`
package, a dependency, so every machine has the same list.
"""

from functools import cache
from importlib import resources

from django.utils.translation import pgettext

from .validators import available_time_zones

UTC = "UTC"
# Names that are UTC under another name (Etc/UTC, GMT, Zulu… all link to one of these).
_UTC_ZONES = frozenset({"Etc/UTC", "Etc/GMT", UTC})
_MAX_LINK_STEPS = 5  # links point at a zone, at most a link or two away


def _tzdata_file(name: str) -> str:
    return resources.files("tzdata.zoneinfo").joinpath(name).read_text(encoding="utf-8")


@cache
def selectable_zones() -> frozenset[str]:
    """The zones on the list: zone.tab's, and UTC."""
    names = {
        line.split("\t")[2]
        for line in _tzdata_file("zone.tab").splitlines()
        if line and not line.startswith("#")
    }
    return frozenset(names & available_time_zones()) | {UTC}


@cache
def _links() -> dict[str, str]:
    """alias -> the zone it names (`L TARGET ALIAS` lines of tzdata.zi)."""
    links = {}
    for line in _tzdata_file("tzdata.zi").splitlines():
        if line.startswith("L "):
            _, target, alias = line.split()
            links[alias] = target
    return links


def canonical_zone(name: str) -> str | None:
    """The zone of the list that `name` stands for, or None when it names none (an unknown
    name, a fixed offset such as Etc/GMT+5)."""
    for _ in range(_MAX_LINK_STEPS):
        if name in selectable_zones():
            return name
        if name in _UTC_ZONES:
            return UTC
        if name not in _links():
            return None
        name = _links()[name]
    return None


def _label(zone: str) -> str:
    """ "America/Argentina/Buenos_Aires" -> "Argentina / Buenos Aires" (the region is the
    group's heading)."""
    return " / ".join(zone.split("/")[1:]).replace("_", " ")


@cache
def _grouped() -> tuple:
    regions: dict[str, list[tuple[str, str]]] = {}
    for zone in selectable_zones() - {UTC}:
        regions.setdefault(zone.partition("/")[0], []).append((zone, _label(zone)))
    return tuple(
        (region, tuple(sorted(zones, key=lambda choice: choice[1])))
        for region, zones in sorted(regions.items())
    )


def zone_choices(current: str | None = None) -> list:
    """Choices for a select: UTC first, then one group per region (Africa … Pacific), each
    sorted by city. A member's `current` zone that stands for none of the list (a fixed
    offset set in the admin) stays choosable, so saving the form never changes it unasked."""
    choices: list = [(UTC, UTC)]
    choices += [(region, list(zones)) for region, zones in _grouped()]
    if current and canonical_zone(current) is None and current in available_time_zones():
        choices.append((pgettext("time zones", "Other"), [(current, current.replace("_", " "))]))
    return choices
