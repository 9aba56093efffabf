"""The two rulesets, assembled from the texts that ship with the code and parsed once per process.

The texts are the app's copies of the shared rules texts (see rules_text/README.md); the app
never reads the shared folder at run time.
"""

import functools
from pathlib import Path

from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy

from .cards import link_role_keys, werewolf_card_groups, witchhunt_card_groups
from .markdown import link_references, render_markdown
from .model import Ruleset
from .rulings import RawRulings, build_rulings, read_rulings, replace_paths
from .texts import WEREWOLF_TEXT, WITCHHUNT_TEXT, TextSpec, read_text

TEXT_DIR = Path(__file__).resolve().parent.parent / "rules_text"

# The site's own words about each ruleset (translated, lazily: the library is built once).
_WITCHHUNT_SUMMARY = gettext_lazy(
    "The main game: a village against a hidden Coven of Witches. Every player holds a unique "
    "character and a player type; the dead play on as Angels and Demons. Rules 9.0 with "
    "48 characters (the base set and the Showdown, King’s Court and Love & War expansions)."
)
_WEREWOLF_SUMMARY = gettext_lazy(
    "The second ruleset: the Werewolves against everyone else, with the cards of the free "
    "Werewolves of the Dark Arts deck, including the wildcards (the Fool, the Were-Hamster, "
    "the Were-Gerbil, the Devil) that win on their own terms."
)
# The shared rulings name other shared files by path; the pages say what they are instead.
_RECORD_FORMAT = {"../conformance/FORMAT.md": "the game record format"}


def rulesets() -> tuple[Ruleset, ...]:
    return _library()


def ruleset(slug: str) -> Ruleset | None:
    return next((r for r in _library() if r.slug == slug), None)


def _read(filename: str) -> str:
    return (TEXT_DIR / filename).read_text(encoding="utf-8")


def _path_words(own: TextSpec, texts: dict[str, TextSpec]) -> dict[str, str]:
    """A ruleset's source text is "the text above"; the other's is a link to its page."""
    words = dict(_RECORD_FORMAT)
    for slug, spec in texts.items():
        page = reverse("rules_ruleset", args=[slug])
        words[f"../seeds/{spec.filename}"] = f"[the {spec.title} text]({page}#text)"
    return {**words, f"../seeds/{own.filename}": "[the text above](#text)"}


@functools.cache
def _library() -> tuple[Ruleset, ...]:
    """Both rulesets, parsed once per process (the texts ship with the code)."""
    texts = {"witchhunt": WITCHHUNT_TEXT, "werewolf": WEREWOLF_TEXT}
    sources = {
        "witchhunt": _read("witchhunt-rulings.md"),
        "werewolf": link_role_keys(_read("werewolf-rulings.md")),
    }
    raw: dict[str, RawRulings] = {
        slug: read_rulings(replace_paths(source, _path_words(texts[slug], texts)))
        for slug, source in sources.items()
    }
    pages = {slug: reverse("rules_ruleset", args=[slug]) for slug in raw}
    # Every ruling number, to link references across both pages (WW rulings cite W-4).
    urls = {number: f"{pages[slug]}#{number}" for slug in raw for number in raw[slug].numbers}

    def render(text: str) -> SafeString:
        return render_markdown(link_references(text, urls))

    rulings = {slug: build_rulings(raw[slug], pages[slug], render) for slug in raw}
    witchhunt_text = read_text(WITCHHUNT_TEXT, _read(WITCHHUNT_TEXT.filename))
    werewolf_text = read_text(WEREWOLF_TEXT, _read(WEREWOLF_TEXT.filename))
    return (
        Ruleset(
            "witchhunt",
            "Witchhunt 9.0",
            _WITCHHUNT_SUMMARY,
            witchhunt_text,
            rulings["witchhunt"],
            witchhunt_card_groups(rulings["witchhunt"].all, witchhunt_text, render),
        ),
        Ruleset(
            "werewolf",
            "Werewolf",
            _WEREWOLF_SUMMARY,
            werewolf_text,
            rulings["werewolf"],
            werewolf_card_groups(rulings["werewolf"].all, render),
        ),
    )
