"""The two rulesets, assembled from the texts that ship with the code and parsed once per
process and language.

The texts are the app's copies of the shared rules texts (see rules_text/README.md); the app
never reads the shared folder at run time. The rulings stay English (they are the spec), but
the site's words put where they name another file by its path ("the text above") are drawn
into their HTML when they are parsed: so the parsed library is kept per language, and a page
reads its reader's.
"""

import functools
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

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


def rulesets() -> tuple[Ruleset, ...]:
    return _library(translation.get_language() or settings.LANGUAGE_CODE)


def ruleset(slug: str) -> Ruleset | None:
    return next((r for r in rulesets() if r.slug == slug), None)


def _read(filename: str) -> str:
    return (TEXT_DIR / filename).read_text(encoding="utf-8")


def _path_words(own: TextSpec, texts: dict[str, TextSpec]) -> dict[str, str]:
    """The shared rulings name other shared files by path; the pages say what they are
    instead: a ruleset's source text is "the text above", the other's a link to its page."""
    # Translators: these name a file inside the English rulings' sentences ("Its source is
    # the text above"); the link's words are the site's, the sentence around them is not.
    words = {"../conformance/FORMAT.md": gettext("the game record format")}
    for slug, spec in texts.items():
        page = reverse("rules_ruleset", args=[slug])
        link = gettext("the %(title)s text") % {"title": spec.title}
        words[f"../seeds/{spec.filename}"] = f"[{link}]({page}#text)"
    return {**words, f"../seeds/{own.filename}": f"[{gettext('the text above')}](#text)"}


def _library(language: str) -> tuple[Ruleset, ...]:
    return _parsed(language.lower())


@functools.cache
def _parsed(language: str) -> tuple[Ruleset, ...]:
    """Both rulesets, parsed once per process and language (the texts ship with the code;
    the words standing for paths are worded in `language`)."""
    with translation.override(language):
        return _build()


def _build() -> tuple[Ruleset, ...]:
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
            pgettext_lazy("ruleset", "Werewolf"),
            _WEREWOLF_SUMMARY,
            werewolf_text,
            rulings["werewolf"],
            werewolf_card_groups(rulings["werewolf"].all, render),
        ),
    )
