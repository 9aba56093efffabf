"""A fresh Python on the test settings, so that the settings' own logging configuration
(LOG_FORMAT, witchhunt/logs.py) is what a test tries: tests/site/test_logs.py and
test_redact.py."""

import subprocess
import sys

from django.conf import settings


def fresh_python(code: str, log_format: str = "plain") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code],
        env={"DJANGO_SETTINGS_MODULE": "witchhunt.settings.test", "LOG_FORMAT": log_format,
             "PATH": "/usr/bin:/bin"},  # fmt: skip
        capture_output=True, text=True, check=False, cwd=settings.BASE_DIR,
    )  # fmt: skip
