"""Template filters and tags over games.narration: events, private results, submissions
and labels in words, one line each (the words themselves live in games/narration/)."""

from django import template

from games import narration

register = template.Library()

# --- labels ---------------------------------------------------------------------------
register.filter("character_label", narration.character_label)
register.filter("type_label", narration.type_label)
register.filter("type_label_count", narration.type_label_count)
register.filter("type_note", narration.type_note)
register.filter("role_label", narration.role_label)
register.filter("status_label", narration.status_label)
register.filter("phase_label", narration.phase_label)
register.filter("winner_label", narration.winner_label)
register.filter("display_name", narration.display_name)
register.filter("action_label", narration.action_label)
register.filter("ability_label", narration.ability_label)
register.filter("choice_label", narration.choice_label)
register.filter("withdraw_label", narration.withdraw_label)


@register.filter
def get_item(mapping, key):
    return mapping.get(key)


# --- events and submissions -----------------------------------------------------------
@register.simple_tag
def standing_text(what, value, names):
    """{% standing_text what value names %}: one standing submission."""
    return narration.standing_text(what, value, names)


@register.simple_tag
def audience_text(event, names):
    """Who could see a GameEvent of selectors' events_all while the game ran (the final
    reveal shows them all)."""
    return narration.audience_label(event.audience, event.meeting, event.seat_names, names)


@register.simple_tag
def event_text(event, names, viewer=None):
    """{% event_text event names viewer %}: a GameEvent, or a dict with kind and data."""
    if isinstance(event, dict):
        return narration.describe_event(event["kind"], event["data"], names, viewer)
    return narration.describe_event(event.kind, event.data, names, viewer)
