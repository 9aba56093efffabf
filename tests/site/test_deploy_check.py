import os
import subprocess
import sys

import pytest
from django.conf import settings

from tests.production_env import PRODUCTION_ENV

# Each test starts manage.py in a process of its own.
pytestmark = pytest.mark.slow


def _deploy_check(environment: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env={
            "PATH": os.environ["PATH"],
            "DJANGO_SETTINGS_MODULE": "witchhunt.settings.production",
            **environment,
        },
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_the_deploy_check():
    result = _deploy_check(PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (1 silenced)." in result.stdout


def test_the_deploy_check_asks_for_the_proxy_address():
    # Behind the TLS proxy without it, the rate limits per address count the proxy's.
    environment = {name: value for name, value in PRODUCTION_ENV.items()}
    del environment["TRUSTED_PROXIES"]
    result = _deploy_check(environment)
    assert result.returncode != 0
    assert "witchhunt.W001" in result.stdout + result.stderr
