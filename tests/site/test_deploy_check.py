import os
import subprocess
import sys

from django.conf import settings

from tests.production_env import PRODUCTION_ENV


def test_production_settings_pass_the_deploy_check():
    environ = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "witchhunt.settings.production",
        **PRODUCTION_ENV,
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (1 silenced)." in result.stdout
