"""Reading an old post's English back into meaning (the data migration of issue 28).

Before posts kept meaning (said.py) a system post and a moderator's notice kept their words
in English. Each such text is read back here: a notice by the pattern of its sentence (its
moments from the HTML's <time> instants), a summary by trying the advance's events around
its headline with the count read from its lines. A reading counts only when the meaning,
worded again in English, gives back the stored text and HTML byte for byte; otherwise the
post keeps its words (None). Pure: the migration reads the rows.
"""

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from django.utils import translation

from .said import SENTENCES, STAMP, post_words, sentence_pattern
from .summaries import EVENTS, SUMMARY

ANNOUNCEMENT = "post__announcement"
TIME = re.compile(r'<time datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)">')
SEAL = re.compile(
    r'<p class="fair-deal__seal">.*?<code class="fingerprint">([0-9a-f]+)</code>.*?'
    r'<a href="([^"]+)">.*</p>$',
    re.S,
)
SEAL_KIND = "fair_deal_seal"
NOTE = "note_"  # the kinds of a notification's words begin so


def _seconds(words: str) -> int | None:
    if words == "less than a minute":
        return 0
    m = re.fullmatch(r"(?:(\d+) d)? ?(?:(\d+) h)? ?(?:(\d+) min)?", words)
    if not m or not any(m.groups()):
        return None
    days, hours, minutes = (int(g or 0) for g in m.groups())
    return ((days * 24 + hours) * 60 + minutes) * 60


def _notice_args(kind, args: dict, html: str) -> dict | None:
    moments = TIME.findall(html)
    for key, value in list(args.items()):
        if key == "moment":
            if not moments:
                return None
            args[key] = moments.pop(0)
        elif key in ("left", "delta"):
            args[key] = _seconds(value)
            if args[key] is None:
                return None
        elif key == "games":
            args[key] = int(value.split(" ", 1)[0]) if value[:1].isdigit() else value
        elif key == "seats" and value.isdigit():
            args[key] = int(value)
    return args


def notice_words(text: str, html: str, css: str) -> dict | None:
    """An old notice's meaning, or None when no sentence gives its text and HTML back."""
    with translation.override("en"):
        for kind, sentence in SENTENCES.items():
            if kind.startswith(NOTE):
                continue  # a notification's sentence, never a post's
            match = sentence_pattern(str(sentence)).match(text)
            if not match:
                continue
            args = _notice_args(kind, match.groupdict(), html)
            words = {"kind": kind, "args": args}
            if args is not None and post_words(words, {}, css) == (text, html):
                return words
    return None


def _count(lines: list[str], names: Mapping) -> dict | None:
    """The count a summary's "- …" lines show, by seat (None: a name not known)."""
    seat = {name: key for key, name in names.items()}
    seat["nobody"] = None

    def seats(words):
        if words == "nobody":
            return []
        found = [seat.get(n, "?") for n in words.split(", ")]
        return None if "?" in found else found

    rows, not_voting = [], None
    for line in lines:
        if line == "- No votes.":
            continue
        m = re.fullmatch(r"- Not voting \(\d+\): (.*)", line)
        if m:
            not_voting = seats(m[1])
            continue
        m = re.fullmatch(r"- (.+?) \((\d+)\): (.*)", line)
        if not m or m[1] not in seat or seats(m[3]) is None:
            return None
        rows.append([seat[m[1]], seats(m[3])])
    if not_voting is None:
        return None
    return {"rows": rows, "not_voting": not_voting}


def summary_words(
    text: str, html: str, phase: str, events: Sequence, at: int, names: Mapping
) -> dict | None:
    """An old summary's (or sealed start post's) meaning. `events` are the public thread
    events of the game in order, (kind, data); `at` the position of the post's headline
    among them; `names` the seats' player names now. None when nothing gives it back."""
    then, lines = [], text.split("\n")
    seal = SEAL.search(html)
    if seal:
        then = [{"kind": SEAL_KIND, "args": {"fingerprint": seal[1], "url": seal[2]}}]
        lines = lines[:-1]
    day = count = None
    if lines and lines[0].startswith("Final vote count of "):
        count = _count([x for x in lines[1:] if x.startswith("- ")], names)
        if count is None:
            return None
        day = phase
    longest = len(lines) + 1  # an advance's events: one line each, at most
    with translation.override("en"):
        for start in range(at, max(at - longest, -1), -1):
            for end in range(at + 1, min(start + longest, len(events)) + 1):
                chosen = [list(e) for e in events[start:end]]
                args = {"events": chosen, "names": dict(names)}
                tries = [{"kind": SUMMARY, "args": {**args, "day": day, "count": count}}]
                if count is None and start == 0:
                    tries.append({"kind": EVENTS, "args": args})
                for words in tries:
                    if then:
                        words["then"] = then
                    if post_words(words, names, ANNOUNCEMENT) == (text, html):
                        return words
    return None


# --- notifications -------------------------------------------------------------------------
# A moment in a notification, in its reader's zone: "Fri 4 Dec 2026, 18:00 (Europe/Paris)".
ZONED = re.compile(r"\w{3} (\d{1,2}) (\w{3}) (\d{4}), (\d\d):(\d\d) \(([^)]+)\)")
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def _zoned(words: str) -> dict | None:
    m = ZONED.fullmatch(words)
    if not m or m[2] not in MONTHS:
        return None
    try:
        zone = ZoneInfo(m[6])
        at = datetime(int(m[3]), MONTHS.index(m[2]) + 1, int(m[1]), int(m[4]), int(m[5]),
                      tzinfo=zone)  # fmt: skip
    except (ValueError, KeyError):
        return None
    return {"at": at.astimezone(UTC).strftime(STAMP), "zone": m[6]}


def _note_arg(key: str, value: str, known: Mapping):
    if key in known:
        return known[key]
    if key in ("day", "when"):  # "Day 2" -> "day 2"
        return value[:1].lower() + value[1:]
    if key == "moment":
        return _zoned(value)
    if key in ("number", "seats", "filled") and value.isdigit():
        return int(value)
    return value


def notification_words(text: str, kinds: Sequence[str], known: Mapping) -> dict | None:
    """An old notification's meaning: the first of `kinds` whose sentence, worded again in
    English, gives `text` back exactly; None when none does. `known`: arguments the row
    itself tells (a mention's thread and ruleset, from its post and game)."""
    with translation.override("en"):
        for kind in kinds:
            sentence = SENTENCES.get(kind)
            match = sentence and sentence_pattern(str(sentence)).match(text)
            if not match:
                continue
            args = {k: _note_arg(k, v, known) for k, v in match.groupdict().items()}
            if None in args.values():
                continue
            words = {"kind": kind, "args": args}
            if post_words(words, {})[0] == text:
                return words
    return None
