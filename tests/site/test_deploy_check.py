import os
import subprocess
import sys

from django.conf import settings


def test_production_settings_pass_the_deploy_check():
    environ = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "witchhunt.settings.production",
        "SECRET_KEY": "sJ7-qV2xN9pL4wR8tY3uZ6aB1cD5eF0gH7iK2mO9nQ4rS8vX3yW6",
        "ALLOWED_HOSTS": "witchhunt.example",
        "DATABASE_URL": "postgres://who:secret@db/witchhunt",
        "REDIS_URL": "redis://redis:6379/0",
        "EMAIL_HOST": "smtp.example",
        "DEFAULT_FROM_EMAIL": "Witchhunt <games@witchhunt.example>",
        "SITE_URL": "https://witchhunt.example",
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
