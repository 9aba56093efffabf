"""`{% panel_slot page.panels "aside" %}`: the panels capabilities registered for a slot of a
core page (games/panels.py), each partial rendered with its data as `panel`; keyword
arguments (`seat=row.seat.name`) are added to what each partial sees."""

from django import template
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def panel_slot(context, panels, slot, **extra):
    if not panels:
        return ""
    engine = context.template.engine
    parts = []
    for panel in panels[slot]:
        with context.push(panel=panel.data, **extra):
            parts.append(engine.get_template(panel.template).render(context))
    return mark_safe("".join(parts))  # noqa: S308 - each part is an autoescaped template's
