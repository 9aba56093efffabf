"""The tests' settings under the pseudo-locale (witchhunt/pseudo.py): German is read from
var/pseudo-locale/ (`manage.py pseudo_locale` writes it), and is what a visitor whose
browser asks for nothing gets. Every marked word then shows accented in brackets; English
left on a page was never marked. E.g.
`DJANGO_SETTINGS_MODULE=witchhunt.settings.pseudo pytest tests/e2e` (docs/translation.md)."""

from .test import *  # noqa: F403
from .test import VAR_DIR

LANGUAGE_CODE = "de"
LOCALE_PATHS = [VAR_DIR / "pseudo-locale"]
