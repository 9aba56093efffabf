"""Telling the player what happened to a form: the engine's reason for a refusal."""

from django.contrib import messages
from django.utils.text import capfirst


def sentence(text):
    text = capfirst(str(text))
    return text if text.endswith((".", "!", "?")) else text + "."


def refused(request, error):
    """A GameRuleError's reason, shown as is (W-8: it reveals nothing the actor lacks)."""
    messages.error(request, sentence(error))
