"""docker-compose and any real deployment: every secret and server comes from the
environment, and a missing one stops start-up (see docs/environment.md for the variables)."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import MIDDLEWARE, REDIS_URL
from .env import env

DEBUG = False
SECRET_KEY = env.get_str("SECRET_KEY")
if len(SECRET_KEY) < 50 or SECRET_KEY.startswith("django-insecure"):
    raise ImproperlyConfigured(
        "SECRET_KEY must be a random value of at least 50 characters, e.g. from "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`."
    )
ALLOWED_HOSTS = env.get_list("ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env.get_list("CSRF_TRUSTED_ORIGINS", [])

# No SQLite fallback: several containers must share one database.
DATABASES = {"default": env.get_database("DATABASE_URL", default_sqlite=None, conn_max_age=60)}
# Likewise no file fallback: the cache (rate limits) and broker are shared between hosts.
if REDIS_URL is None:
    raise ImproperlyConfigured("Set REDIS_URL, e.g. redis://redis:6379/0.")

# WhiteNoise serves the collected, hashed static files from gunicorn itself.
# Right after SecurityMiddleware, as WhiteNoise asks: static files get the HTTPS redirect.
_SECURITY = MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1
MIDDLEWARE = [
    *MIDDLEWARE[:_SECURITY],
    "whitenoise.middleware.WhiteNoiseMiddleware",
    *MIDDLEWARE[_SECURITY:],
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# TLS ends at a proxy in front of gunicorn, which says so in X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.get_bool("SECURE_SSL_REDIRECT", True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.get_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.get_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
# Joining the browsers' preload list is hard to undo, so it is the operator's explicit
# choice (SECURE_HSTS_PRELOAD=true); the deploy check's reminder about it is silenced.
SECURE_HSTS_PRELOAD = env.get_bool("SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = ["security.W021"]
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https"

EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = env.get_str("EMAIL_HOST")
EMAIL_PORT = env.get_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env.get_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env.get_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env.get_bool("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = env.get_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("Set at most one of EMAIL_USE_TLS and EMAIL_USE_SSL to true.")
EMAIL_TIMEOUT = 30
# Mail from "localhost" is refused or junked by real servers: make the operator name a sender.
DEFAULT_FROM_EMAIL = env.get_str("DEFAULT_FROM_EMAIL")
SERVER_EMAIL = env.get_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
# Links in reminders and unsubscribe headers must point at the real site, never localhost.
SITE_URL = env.get_str("SITE_URL")
