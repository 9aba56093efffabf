"""Chat webhooks (issue 30): a game's public news posted where its players talk, a
Discord or Slack channel, a Matrix room, or a generic HTTPS endpoint signed as Standard
Webhooks sign.

What is announced is the story: receivers.py, tell.py, public.py and near.py turn the
core's events into public words (from public information only); story.py hands each story
to its sinks. This package's machinery turns each story into deliveries and sends them:

- story.py: the Story and its sinks; `deliveries_write` listens (apps.py);
- services/deliveries.py: a pending row per destination in the game write's transaction
  (once, debounce); services/send.py: claim, send, retry, give up, disable; net.py: one
  request, SSRF-safe; services/endpoints.py: the desk's add, remove, on again, test;
- formats.py: Discord's embed, Slack's blocks, Matrix's m.notice, the generic body;
- secrets.py: the addresses and tokens sealed with Fernet, shown once;
- tasks.py: `webhooks_send` and the beat's `webhooks_sweep` on the `webhooks` queue;
- panels.py: DESK "webhooks" (destinations, recent deliveries, the form); views.py and
  templates/webhooks/; admin.py (site-wide destinations, write-only secrets).

docs/webhooks.md says what is sent, the security, and how to connect a Discord channel.
"""
