"""The smallest environment the production settings accept, for tests that load them in a
fresh interpreter (a change to what production requires is made here once)."""

PRODUCTION_ENV = {
    "SECRET_KEY": "sJ7-qV2xN9pL4wR8tY3uZ6aB1cD5eF0gH7iK2mO9nQ4rS8vX3yW6",
    "ALLOWED_HOSTS": "witchhunt.example",
    "DATABASE_URL": "postgres://who:secret@db/witchhunt",
    "REDIS_URL": "redis://redis:6379/0",
    "EMAIL_HOST": "smtp.example",
    "DEFAULT_FROM_EMAIL": "Witchhunt <games@witchhunt.example>",
    "SITE_URL": "https://witchhunt.example",
    "TRUSTED_PROXIES": "172.30.253.10",
}
