"""The header's count of unread notifications (games/selectors/notifications.py), for
signed-in members only: base.html asks for it inside `user.is_authenticated`."""

from django import template

from games.selectors.notifications import unread_count

register = template.Library()


@register.simple_tag
def unread_notifications(user) -> int:
    return unread_count(user) if user.is_authenticated else 0
