"""Settings shared by every environment. Each module below sets SECRET_KEY, DEBUG and
ALLOWED_HOSTS itself, since their defaults differ (or must not exist) per environment."""

import os
from datetime import timedelta
from pathlib import Path

from witchhunt.logs import logging_config
from witchhunt.sentry import sentry_init

from . import vapid
from .backends import cache_settings, celery_broker_settings
from .env import env

BASE_DIR = Path(__file__).resolve().parents[2]
# Local state when no servers are configured: the SQLite file, the file cache, the broker.
VAR_DIR = BASE_DIR / "var"

DEBUG = False

INSTALLED_APPS = [
    # First: its ready() registers the <id:...> path converter the apps' routes use.
    "witchhunt.apps.WitchhuntConfig",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    # The capabilities: each listens to the core's events and offers panels to its pages
    # (docs/architecture.md); the core never imports one.
    "games.fair_deal",
    "games.lab",
    "games.reading",
    "games.community",
    "games.archive",
    "games.leaving",
    "games.calendar",
    "games.reports",
    "games.webhooks",
    "games.push",
    "games.anonymous",
    "games.viewer",
    "games.spectators",
]

MIDDLEWARE = [
    # First: names the request for the logs; then answers /health/ and /health/ready/
    # before the HTTPS redirect and the host check (why that is safe: witchhunt/health.py)
    # and watches the clock.
    "witchhunt.logs.RequestIdMiddleware",
    "witchhunt.health.HealthMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "witchhunt.middleware.SecurityHeadersMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The visitor's language: the one they chose (set_language's cookie), else their
    # browser's (Accept-Language); after the sessions, before CommonMiddleware.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
    # A signed-in member's own language (User.language) wins over the browser's.
    "accounts.language.MemberLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

# Content-Security-Policy (witchhunt/middleware.py): everything from the site itself, nothing
# inline (scripts live in static/js/, styles in static/css/), no plugins, no framing, forms
# post only here. The admin needs nothing more: Django's admin has no inline script.
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
# Permissions-Policy: no page of a forum game needs a device or a payment.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "usb",
        "xr-spatial-tracking",
    )
}

ROOT_URLCONF = "witchhunt.urls"
WSGI_APPLICATION = "witchhunt.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": env.get_database("DATABASE_URL", default_sqlite=VAR_DIR / "db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.get_redis_url("REDIS_URL")
CACHES = cache_settings(REDIS_URL, VAR_DIR)
# Sessions are read from the cache (written through to the database, so a flushed cache
# signs nobody out): a signed-in request does not spend a query on its session, and the
# game page's unchanged poll costs two, the user and the game's version (issue 15).
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    # allauth's, reading with the member's row on each request whether they moderate every
    # game (a query the game page no longer sends). It signs every member in.
    "accounts.backends.MemberBackend",
    # A session keeps the backend that signed it in: these two find again the members who
    # signed in before the one above, so that no one is signed out by its coming.
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"

# allauth: sign in by email, a player name at sign-up, no account until the email is proven.
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Witchhunt] "
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
# allauth's rate limits are on by default and count in the default cache (see CACHES).
# Those per address count the visitor's address (AccountAdapter.get_client_ip): the one
# the TLS proxy names in X-Forwarded-For when the request comes from one of these
# addresses or networks, else the connection's own (REMOTE_ADDR). None by default: no
# header is believed.
TRUSTED_PROXIES = env.get_networks("TRUSTED_PROXIES")

LANGUAGE_CODE = "en"  # a member's emails when they chose no language (accounts/language.py)
# The site's languages (docs/translation.md): the catalogs are locale/<code>/LC_MESSAGES.
# The lab draws its charts in each (games/lab/services/charts.py).
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates as each language writes them: templates name a format (date:"DEADLINE_FORMAT").
FORMAT_MODULE_PATH = ["witchhunt.formats"]
TIME_ZONE = "UTC"  # shown to visitors who are not signed in; members pick their own
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

DEFAULT_FROM_EMAIL = env.get_str("DEFAULT_FROM_EMAIL", "Witchhunt <noreply@localhost>")
SERVER_EMAIL = env.get_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
EMAIL_SUBJECT_PREFIX = "[Witchhunt] "
# Links in game emails (a game, the role page, one-click unsubscribe) need the site's
# address: emails are sent by the worker, outside any request. RFC 8058 wants https.
SITE_URL = env.get_str("SITE_URL", "http://127.0.0.1:8000")

# Web push (games/push, docs/environment.md): the VAPID pair the push services know our
# messages by (`manage.py push_keys` makes one; no private key, no push), and the address
# they may write to about them. Endpoints on private addresses are refused unless allowed
# (a test's stand-in push service on 127.0.0.1).
WEBPUSH_VAPID_PRIVATE_KEY = env.get_str("WEBPUSH_VAPID_PRIVATE_KEY", "")
WEBPUSH_VAPID_PUBLIC_KEY = env.get_str(
    "WEBPUSH_VAPID_PUBLIC_KEY",
    vapid.public_of(WEBPUSH_VAPID_PRIVATE_KEY) if WEBPUSH_VAPID_PRIVATE_KEY else "",
)
WEBPUSH_CONTACT = env.get_str("WEBPUSH_CONTACT", "mailto:webmaster@localhost")
WEBPUSH_ALLOW_PRIVATE_ENDPOINTS = env.get_bool("WEBPUSH_ALLOW_PRIVATE_ENDPOINTS", False)
# The installed web app's colours (its manifest): the page's paper and the accent.
WEB_APP_COLOURS = {"background": "#faf8f5", "theme": "#5b2a86"}

# Celery. Tasks record their outcome in the database themselves and ignore their results,
# but for the lab's chunks (games/lab/tasks.py): with Redis, Redis keeps those for the
# round's callback (a chord, which Redis counts), for an hour.
CELERY_BROKER_URL, CELERY_BROKER_TRANSPORT_OPTIONS = celery_broker_settings(REDIS_URL, VAR_DIR)
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Handing a job to a broker that is down fails within a second, once, rather than after
# retries: the web's request goes on and the job is held in the database (games/queue.py);
# beat's tick that fails is sent again at the next. Workers reconnect on their own.
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 0}
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
# Three queues: `clock` (the sweeps that end phases), `email` (every email, and the
# reminder sweep), so that a burst of emails never holds up a deadline, and `lab` (the
# setup lab's estimates); each queue has its own worker in compose, and `make run`'s one
# worker takes them all. Every task is named
# here (tests/games/test_queues.py): a task on no queue would wait for ever.
# The lab's queue is `lab`; the lab bench (games/benchmarks/lab.py) gives its own workers
# one of their own on a shared Redis.
LAB_QUEUE = env.get_str("LAB_QUEUE", "lab")
CELERY_TASK_ROUTES = {
    "games.tasks.clock_sweep": {"queue": "clock"},
    "games.tasks.clock_sweep_more": {"queue": "clock"},
    "games.tasks.reminder_sweep": {"queue": "email"},
    "games.tasks.digest_sweep": {"queue": "email"},
    "games.tasks.game_phase_emails": {"queue": "email"},
    "games.tasks.game_role_emails": {"queue": "email"},
    "games.tasks.game_result_email": {"queue": "email"},
    "games.tasks.post_notification_emails": {"queue": "email"},
    "games.tasks.vote_alerts": {"queue": "email"},
    "games.tasks.notice_emails": {"queue": "email"},
    "games.tasks.emails_send": {"queue": "email"},
    "games.tasks.email_sweep": {"queue": "email"},
    "games.tasks.held_jobs_sweep": {"queue": "email"},
    # Web push (games/push): a member told, like an email, on the same worker.
    "games.push.tasks.push_member_told": {"queue": "email"},
    "games.push.tasks.push_again": {"queue": "email"},
    "accounts.tasks.send_account_email": {"queue": "email"},
    # The setup lab's simulations: minutes of CPU each, kept off the clock and the email.
    "games.tasks.lab_estimate": {"queue": LAB_QUEUE},
    "games.lab.tasks.lab_chunk": {"queue": LAB_QUEUE},
    "games.lab.tasks.lab_round": {"queue": LAB_QUEUE},
    # The chat webhooks (games/webhooks): a slow chat server holds up nothing else.
    "games.webhooks.tasks.webhooks_send": {"queue": "webhooks"},
    "games.webhooks.tasks.webhooks_sweep": {"queue": "webhooks"},
}
# One task at a time per worker process: a clock worker busy with a sweep leaves the
# sweeps a burst asks for to the idle ones instead of holding them back.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The phase clock (games/services/sweep.py): a clock sweep every 10 s, so a deadline waits
# at most that long for its sweep (an idle sweep is one indexed query); the reminders every
# 30 s. A sweep not started before the next one is due is dropped rather than run late.
CELERY_BEAT_SCHEDULE = {
    "clock-sweep": {
        "task": "games.tasks.clock_sweep",
        "schedule": 10.0,
        "options": {"expires": 9},
    },
    "reminder-sweep": {
        "task": "games.tasks.reminder_sweep",
        "schedule": 30.0,
        "options": {"expires": 25},
    },
    # The game emails' outbox (games/services/outbox.py): the emails due again after a
    # failure (the mail server down, a 4xx), or whose task was lost.
    "email-sweep": {
        "task": "games.tasks.email_sweep",
        "schedule": 30.0,
        "options": {"expires": 25},
    },
    # The jobs the broker refused while it was down (games/services/held_jobs.py).
    "held-jobs-sweep": {
        "task": "games.tasks.held_jobs_sweep",
        "schedule": 30.0,
        "options": {"expires": 25},
    },
    # The daily digest (games/reading/services/digest.py): each member's comes in the sweep after
    # their local morning hour; a sweep is a query of the members who asked for it.
    "digest-sweep": {
        "task": "games.tasks.digest_sweep",
        "schedule": 300.0,
        "options": {"expires": 290},
    },
}
# The webhooks' deliveries due again (a retry, a debounced vote count, a lost task).
CELERY_BEAT_SCHEDULE["webhooks-sweep"] = {
    "task": "games.webhooks.tasks.webhooks_sweep",
    "schedule": 10.0,
    "options": {"expires": 9},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# The clock's heartbeat (games/services/clock_watch.py): the beat's sweep writes it every
# 10 s; older than CLOCK_STALE_SECONDS, the clock counts as stopped (the health endpoint
# answers 503, the desk and the admin say so, the admins get an email). The web side looks
# at it on the health endpoint's every call and at most every CLOCK_WATCH_SECONDS per web
# process otherwise (None: only on the health endpoint).
CLOCK_STALE_SECONDS = env.get_int("CLOCK_STALE_SECONDS", 180)
CLOCK_WATCH_SECONDS = 60
# Who is told when the clock stops: "Name <address>, Other <address>".
ADMINS = env.get_addresses("ADMINS")

# A game email the mail server did not take (down, a 4xx) is tried again after 30 s, then
# 1, 2, 4, 8, 16 minutes, then every 30 minutes (games/services/outbox.py), for 3 days.
GAME_EMAIL_RETRY_SECONDS = 30
GAME_EMAIL_RETRY_MAX_SECONDS = 30 * 60

# The setup lab (games/lab/services/): a first estimate of LAB_FIRST_GAMES games (or
# what LAB_FIRST_SECONDS allow), then the setup at each suggested size (LAB_SIZE_GAMES
# each), then refined to LAB_GAMES; the answer is cached per setup and seed for
# LAB_CACHE_SECONDS. A job stops refining after LAB_MAX_SECONDS (a 48-seat setup's games
# are slow) with the games it has played. The page polls every LAB_POLL_SECONDS
# (static/js/lab.js).
# `manage.py balance` and the bench play over LAB_WORKERS processes (every core unless the
# environment says otherwise).
LAB_SEED = 17
LAB_WORKERS = max(1, env.get_int("LAB_WORKERS", os.cpu_count() or 1))
# With Redis a job's games are chunk tasks on the `lab` queue (games/lab/services/run.py),
# played by every lab worker on every machine, a round at a time: at most LAB_CHUNKS_AHEAD
# chunks each (so up to that many worker processes serve one job; jobs take turns between
# rounds). Without Redis (no result backend) the job's task plays its games itself.
LAB_CHUNK_TASKS = env.get_bool("LAB_CHUNK_TASKS", bool(REDIS_URL))
LAB_CHUNKS_AHEAD = max(1, env.get_int("LAB_CHUNKS_AHEAD", 8))
# A chunk plays about this long (sized from its setup's speed so far): short enough for a
# round to share out evenly and another job's round to come soon, long enough to be cheap.
LAB_CHUNK_SECONDS = 2.0
LAB_FIRST_GAMES = 2000
LAB_FIRST_SECONDS = 2.0
LAB_SIZE_GAMES = 500
LAB_GAMES = 20000
LAB_MAX_SECONDS = 1200
LAB_CACHE_SECONDS = 7 * 24 * 3600
# The lab's limits (docs/lab.md, "Sharing the lab"): a member has one job queued or
# running at a time; new jobs wait behind at most LAB_QUEUE_MAX queued or running ones
# site-wide; and a member's jobs of the last LAB_WINDOW_SECONDS cost at most
# LAB_UNITS_PER_WINDOW units, a job one unit per LAB_SEATS_PER_UNIT seats (rounded up: a
# 48-seat setup costs 4). Answers already kept cost nothing; staff and lab_fill are not
# limited (their jobs still count towards the queue).
LAB_QUEUE_MAX = 10
LAB_WINDOW_SECONDS = 3600
LAB_UNITS_PER_WINDOW = 12
LAB_SEATS_PER_UNIT = 12
LAB_POLL_SECONDS = 2

# The chat webhooks (games/webhooks, docs/webhooks.md). Secrets are sealed with a key
# derived from WEBHOOK_SECRET_KEY (blank: from SECRET_KEY; changing it makes the stored
# secrets unreadable, so the destinations must be added again). A request times out after
# WEBHOOK_TIMEOUT seconds; private, loopback and link-local addresses (and plain http) are
# refused unless WEBHOOK_ALLOW_PRIVATE. A failed try waits WEBHOOK_RETRY_SECONDS, doubling
# to WEBHOOK_RETRY_MAX_SECONDS, until WEBHOOK_GIVE_UP; WEBHOOK_DISABLE_AFTER failed
# deliveries in a row turn a destination off. A vote count waits WEBHOOK_DEBOUNCE_SECONDS
# after its last change.
WEBHOOK_SECRET_KEY = env.get_str("WEBHOOK_SECRET_KEY", "")
WEBHOOK_TIMEOUT = 5
WEBHOOK_ALLOW_PRIVATE = env.get_bool("WEBHOOK_ALLOW_PRIVATE", False)
WEBHOOK_RETRY_SECONDS = 30
WEBHOOK_RETRY_MAX_SECONDS = 3600
WEBHOOK_GIVE_UP = timedelta(days=1)
WEBHOOK_DISABLE_AFTER = 10
WEBHOOK_DEBOUNCE_SECONDS = 30
# The desk shows a destination's recent deliveries; rows done are forgotten after this.
WEBHOOK_KEEP = timedelta(days=30)

# How often an open game page asks whether anything changed (static/js/live.js).
LIVE_REFRESH_SECONDS = 20
# Issue 31: how long after posting its author may edit a post (services/post_edits.py),
# while they could still post it (the same phase, still allowed in that thread).
POST_EDIT_MINUTES = 5

# A game's webhooks say "Day 2 ends in 45 min" once its deadline is this near (the clock's
# sweep looks; games/webhooks/near.py), once per deadline: a moved one is near again.
WEBHOOK_DEADLINE_NEAR = timedelta(hours=1)

# seed_demo creates accounts with a published password; local and test settings allow it.
DEMO_SEED_ALLOWED = False

# The logs (witchhunt/logs.py): plain lines, or one JSON object a line (LOG_FORMAT=json)
# for a log aggregator.
LOGGING = logging_config(env.get_str("LOG_FORMAT", "plain").lower())
# Addresses that carry a secret, redacted from every log line (witchhunt/redact.py): the
# members' calendar feeds, the emails' unsubscribe links, allauth's password-reset and
# email-confirmation links. tests/site/test_redact.py finds each route that takes a token.
SECRET_PATHS = (
    "/calendar/<secret>.ics",
    "/email/unsubscribe/<secret>/",
    "/accounts/password/reset/key/<secret>/",
    "/accounts/confirm-email/<secret>/",
)

# Sentry (witchhunt/sentry.py): on when SENTRY_DSN is set; needs the `sentry` extra. What
# it sends is scrubbed of every card, post and request body.
SENTRY_DSN = env.get_str("SENTRY_DSN", "")
if SENTRY_DSN:
    sentry_init(SENTRY_DSN, environment=env.get_str("SENTRY_ENVIRONMENT", "production"))
