"""gunicorn's access log, redacted (witchhunt/redact.py): docker-compose.yml starts the
web server with `--logger-class=witchhunt.access_log.AccessLogger`."""

from gunicorn.glogging import Logger

from .redact import redact

# What the access log can print of an address: the request line (r), the path (U), the
# query (q), the Referer (f), and the same as headers ({...}i) and WSGI variables ({...}e).
ADDRESS_ATOMS = ("r", "U", "q", "f", "{referer}i", "{raw_uri}e", "{path_info}e",
                 "{http_referer}e", "{request_uri}e", "{query_string}e")  # fmt: skip


class AccessLogger(Logger):
    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key in ADDRESS_ATOMS:
            if isinstance(atoms.get(key), str):
                atoms[key] = redact(atoms[key])
        return atoms
