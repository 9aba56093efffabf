# The one image for web (gunicorn), worker, beat and the migrate job in docker-compose.yml.
# Debian 12 (bookworm), named: its postgresql-client is 15, the postgres service's major
# version, which pg_restore needs (a newer pg_dump's archives set options 15 lacks).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=witchhunt.settings.production

WORKDIR /app

# pg_dump and pg_restore for `manage.py backup` and `restore` (docs/operations.md).
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/*

# Dependencies first, read from pyproject.toml at the versions constraints.txt pins, so
# code changes reuse this layer.
COPY pyproject.toml constraints.txt ./
# With the `sentry` extra: setting SENTRY_DSN is then all it takes (witchhunt/sentry.py).
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; print('\n'.join(p['dependencies'] + p['optional-dependencies']['sentry']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt -c constraints.txt \
    && rm /tmp/requirements.txt

COPY . .

# collectstatic reads the production settings, which insist on a full environment; these
# placeholders exist only for this build step and are not kept in the image.
RUN SECRET_KEY=collectstatic-only-placeholder-that-is-long-enough-to-pass-the-check \
    ALLOWED_HOSTS=build DATABASE_URL=postgres://build@build/build REDIS_URL=redis://build:6379/0 \
    EMAIL_HOST=build DEFAULT_FROM_EMAIL=build@build SITE_URL=https://build \
    python manage.py collectstatic --noinput

RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin witchhunt \
    && mkdir -p /app/var && chown witchhunt:witchhunt /app/var
USER witchhunt

EXPOSE 8000
CMD ["gunicorn", "witchhunt.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
