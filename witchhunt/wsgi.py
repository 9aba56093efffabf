"""WSGI entry point for gunicorn. Only servers import this, so it defaults to production."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "witchhunt.settings.production")

application = get_wsgi_application()
