"""A story in each kind's own shape, built when the delivery is written (plain JSON):

- Discord: one embed (title, description, link, fields); `allowed_mentions` parses
  nothing unless the destination allows mentions, so a name in the text never pings;
- Slack: blocks, a section (the title and text), a context (the fields) and the link;
  `text` is the notification's fallback;
- Matrix: an `m.notice` (bots' messages, which other bots ignore), plain and HTML;
- generic: `{"type", "timestamp", "data"}`, the shape Standard Webhooks suggests.

Mentions are the members' player names, written as "@name", only where allowed.
"""

from django.utils import timezone
from django.utils.html import escape

# Discord's limits: an embed's title 256, its description 4096, a field's value 1024.
DISCORD_LIMITS = {"title": 256, "description": 4096, "name": 256, "value": 1024}


def _mention_line(names) -> str:
    return " ".join(f"@{name}" for name in names)


def discord(story, names=()) -> dict:
    embed = {
        "title": story.title[: DISCORD_LIMITS["title"]],
        "description": story.text[: DISCORD_LIMITS["description"]],
        "fields": [
            {
                "name": str(name)[: DISCORD_LIMITS["name"]],
                "value": str(value)[: DISCORD_LIMITS["value"]] or "—",
                "inline": True,
            }
            for name, value in story.fields[:25]
        ],
    }
    if story.url:
        embed["url"] = story.url
    body = {"embeds": [embed], "allowed_mentions": {"parse": []}}
    if names:
        body["content"] = _mention_line(names)
        body["allowed_mentions"] = {"parse": ["users"]}
    return body


def _slack_escape(text: str) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack(story, names=()) -> dict:
    text = f"*{_slack_escape(story.title)}*"
    if story.text:
        text += "\n" + _slack_escape(story.text)
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": text[:3000]}}]
    context = [f"*{_slack_escape(n)}:* {_slack_escape(v)}" for n, v in story.fields]
    if names:
        context.append(_slack_escape(_mention_line(names)))
    if story.url:
        context.append(f"<{story.url}|{_slack_escape(story.url)}>")
    if context:
        blocks.append(
            {"type": "context", "elements": [{"type": "mrkdwn", "text": c} for c in context[:10]]}
        )
    return {"text": story.title, "blocks": blocks}


def matrix(story, names=()) -> dict:
    lines = [story.title, story.text, *(f"{n}: {v}" for n, v in story.fields)]
    if names:
        lines.append(_mention_line(names))
    lines.append(story.url)
    html = [f"<strong>{escape(story.title)}</strong>"]
    if story.text:
        html.append(escape(story.text).replace("\n", "<br>"))
    html += [f"<em>{escape(n)}:</em> {escape(v)}" for n, v in story.fields]
    if names:
        html.append(escape(_mention_line(names)))
    if story.url:
        html.append(f'<a href="{escape(story.url)}">{escape(story.url)}</a>')
    return {
        "msgtype": "m.notice",
        "body": "\n".join(line for line in lines if line),
        "format": "org.matrix.custom.html",
        "formatted_body": "<br>".join(html),
    }


def generic(story, names=()) -> dict:
    data = {
        "title": story.title,
        "text": story.text,
        "url": story.url,
        "fields": [{"name": str(n), "value": str(v)} for n, v in story.fields],
    }
    if names:
        data["mentions"] = list(names)
    return {"type": story.event, "timestamp": timezone.now().isoformat(), "data": data}


BUILDERS = {"discord": discord, "slack": slack, "matrix": matrix, "generic": generic}


def payload_build(kind: str, story, names=()) -> dict:
    return BUILDERS[kind](story, names)
