"""Django's makemessages, told the engine's names for a refusal (games/engine/words.py).

The engine is pure Python and keeps its refusals as meaning: `refusal("...")` and
`refusal_n("...", "...", n)` mark the sentences a page words with gettext. This command
takes the place of Django's own (an app's command wins over the built-in), so every way
of running makemessages finds them.
"""

from django.core.management.commands import makemessages

# xgettext's keywords: a refusal's msgid is its first argument; a plural's, its second.
REFUSAL_KEYWORDS = ["--keyword=refusal", "--keyword=refusal_n:1,2"]


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, *REFUSAL_KEYWORDS]
