"""ASGI entry point. Only servers import this, so it defaults to production."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "witchhunt.settings.production")

application = get_asgi_application()
