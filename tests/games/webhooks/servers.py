"""Real HTTP servers on loopback for the webhooks' delivery tests (a ThreadingHTTPServer
each, in a thread of its own), shaped as the chat services answer:

- `discord`: POST `?wait=true` answers the message with its id; PATCH `/messages/{id}`
  edits it (404 for an unknown id);
- `slack`: POST answers "ok";
- `matrix`: PUT `.../send/m.room.message/{txnId}` with the Bearer token answers an event
  id; a repeated transaction id answers the first event and posts nothing (as a
  homeserver does); `lose_answers` drops the answer of the first N sends after posting;
- `generic`: checks the Standard Webhooks signature with the endpoint's secret (204, or
  400 when it does not verify);
- `slow` (answers after `delay` seconds), `failing` (500), `rate_limited` (429 with a
  Retry-After), `redirecting` (302 to elsewhere), `gone` (404).

Each keeps every request it saw (`requests`) and what was posted (`posted`)."""

import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from standardwebhooks import Webhook, WebhookVerificationError

LOOPBACK = "127.0.0.1"


@dataclass
class Seen:
    method: str
    path: str
    headers: dict
    body: bytes

    def json(self):
        return json.loads(self.body)


@dataclass
class Server:
    kind: str
    secret: str = ""  # generic: the whsec_ key; matrix: the access token expected
    delay: float = 0.0  # slow
    retry_after: str = "120"  # rate_limited
    lose_answers: int = 0  # matrix: answers dropped after posting (a lost response)
    tls: object = None  # an ssl.SSLContext: the server answers https
    requests: list = field(default_factory=list)
    posted: list = field(default_factory=list)  # payloads that made a message
    messages: dict = field(default_factory=dict)  # discord: id -> payload; matrix: txn -> id
    lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _handle(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                seen = Seen(self.command, self.path, dict(self.headers.items()), body)
                with server.lock:
                    server.requests.append(seen)
                status, headers, answer = getattr(server, f"_{server.kind}")(seen)
                if status is None:  # the connection dropped without an answer
                    self.close_connection = True
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                try:
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(answer)))
                    self.end_headers()
                    self.wfile.write(answer)
                except (BrokenPipeError, ConnectionResetError):  # the sender timed out
                    pass

            do_POST = do_PUT = do_PATCH = do_GET = _handle

        self.httpd = ThreadingHTTPServer((LOOPBACK, 0), Handler)
        if self.tls is not None:
            self.httpd.socket = self.tls.wrap_socket(self.httpd.socket, server_side=True)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def base(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    # --- the shapes -------------------------------------------------------------------
    def _discord(self, seen):
        path = urlsplit(seen.path).path
        if seen.method == "PATCH":
            message = path.rsplit("/", 1)[-1]
            if message not in self.messages:
                return 404, {}, b'{"message": "Unknown Message"}'
            self.messages[message] = seen.json()
            return 200, {"Content-Type": "application/json"}, json.dumps({"id": message}).encode()
        message = str(1000 + len(self.messages))
        self.messages[message] = seen.json()
        self.posted.append(seen.json())
        return 200, {"Content-Type": "application/json"}, json.dumps({"id": message}).encode()

    def _slack(self, seen):
        self.posted.append(seen.json())
        return 200, {"Content-Type": "text/plain"}, b"ok"

    def _matrix(self, seen):
        if seen.headers.get("Authorization") != f"Bearer {self.secret}":
            return 401, {}, b'{"errcode": "M_UNKNOWN_TOKEN"}'
        txn = urlsplit(seen.path).path.rsplit("/", 1)[-1]
        with self.lock:
            if txn not in self.messages:  # a repeat of a transaction posts nothing
                self.messages[txn] = f"$event{len(self.messages)}"
                self.posted.append(seen.json())
            if self.lose_answers > 0:
                self.lose_answers -= 1
                return None, {}, b""
        return (
            200,
            {"Content-Type": "application/json"},
            json.dumps({"event_id": self.messages[txn]}).encode(),
        )

    def _generic(self, seen):
        try:
            Webhook(self.secret).verify(seen.body, seen.headers)
        except WebhookVerificationError:
            return 400, {}, b"bad signature"
        self.posted.append(seen.json())
        return 204, {}, b""

    def _slow(self, seen):
        time.sleep(self.delay)
        self.posted.append(seen.json())
        return 200, {}, b""

    def _failing(self, seen):
        return 500, {}, b"oops"

    def _rate_limited(self, seen):
        return 429, {"Retry-After": self.retry_after}, b'{"retry_after": 120}'

    def _redirecting(self, seen):
        return 302, {"Location": "http://127.0.0.1:9/elsewhere"}, b""

    def _gone(self, seen):
        return 404, {}, b'{"message": "Unknown Webhook"}'
