"""The sealed deal in words (fairness.py, docs/fair-deal.md): the start post's
fingerprint line and the check's verdicts."""

from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.narration.said import register

SEAL = gettext_lazy(
    "The deal is sealed. Its fingerprint (SHA-256) is %(fingerprint)s. The final reveal "
    "publishes the deal it seals, so anyone can check that no card changed."
)
HOW = gettext_lazy("How to check the deal")

VERDICTS = {
    "": gettext_lazy("The deal matches its fingerprint: no card changed since the start."),
    "mismatch": gettext_lazy(
        "The deal does not match its fingerprint: a card, a Lover, the seed or the salt "
        "differs from what was sealed at the start."
    ),
    "not_canonical": gettext_lazy(
        "The text does not match the fingerprint, and it is not a deal text as the site "
        "writes it: paste it exactly as published, on one line, with nothing changed."
    ),
    "not_ascii": gettext_lazy(
        "The text does not match: a deal text has only plain ASCII characters, and this "
        "one has others (a curly quote from a word processor?)."
    ),
    "bad_commitment": gettext_lazy(
        "A fingerprint is 64 hexadecimal digits (0-9, a-f): check what you pasted."
    ),
}


SEALED = "fair_deal_seal"  # the start post's part that publishes the seal (its `words`)


def sealed_meaning(fingerprint: str, url: str) -> dict:
    """The seal's line as a start post keeps it (narration.said): worded when read."""
    return {"kind": SEALED, "args": {"fingerprint": fingerprint, "url": url}}


def seal_words(args, names=None, css="") -> tuple[str, str]:
    """The start post's line publishing the commitment, with its link: (text, HTML)."""
    fingerprint, url = args["fingerprint"], args["url"]
    sentence, how = str(SEAL), str(HOW)
    text = f"{sentence % {'fingerprint': fingerprint}} {how}: {url}"
    code = format_html('<code class="fingerprint">{}</code>', fingerprint)
    html = format_html(
        '<p class="fair-deal__seal">{} <a href="{}">{}</a></p>',
        format_html(sentence.replace("%(fingerprint)s", "{fingerprint}"), fingerprint=code),
        url,
        how,
    )
    return text, str(html)


register(SEALED, seal_words)


def verdict_words(matches: bool, reason: str) -> str:
    return str(VERDICTS["" if matches else reason])


def unsealed_words() -> str:
    return _("This game started before deals were sealed: it has no fingerprint to check.")


def sealed_until_reveal_words() -> str:
    return _(
        "The deal and its salt stay secret until the final reveal, which publishes them: "
        "until then only the fingerprint is public, and a fingerprint alone tells nothing "
        "about the cards."
    )


def not_dealt_words() -> str:
    return _("The cards are dealt, and the deal sealed, when the game starts.")
