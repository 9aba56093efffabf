"""The archive's search (issue 16): a plain GET form."""

from django import forms
from django.utils.text import capfirst

from games.engine import CHARACTERS, ROLES, TYPES
from games.models import Game
from games.narration.labels import WINNERS


def _card_choices():
    """Every card that can be dealt, by its name on the card, grouped by ruleset."""
    witchhunt = [(k, v[1]) for k, v in CHARACTERS.items()] + [(k, v[1]) for k, v in TYPES.items()]
    return [
        ("", "Any card"),
        ("Witchhunt", sorted(witchhunt, key=lambda c: c[1])),
        ("Werewolf", sorted(((k, v[1]) for k, v in ROLES.items()), key=lambda c: c[1])),
    ]


class ArchiveSearchForm(forms.Form):
    """A plain GET form: every field optional, an invalid one ignored with its error shown."""

    player = forms.CharField(label="Player", max_length=64, required=False)
    card = forms.ChoiceField(label="Card in the deal", choices=_card_choices, required=False)
    winner = forms.ChoiceField(label="Winner", required=False)
    ruleset = forms.ChoiceField(
        label="Rules", choices=[("", "Either"), *Game.Ruleset.choices], required=False
    )
    finished_from = forms.DateField(
        label="Finished on or after",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    finished_to = forms.DateField(
        label="Finished on or before",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args, **kwargs):

        super().__init__(*args, **kwargs)
        # Made per form, in the request's language (the labels are lazy translations).
        winners = [(k, capfirst(str(label))) for k, label in WINNERS.items()]
        self.fields["winner"].choices = [("", "Anyone"), *winners]

    def search(self) -> dict:
        """The archive's ArchiveFilter arguments from the valid fields: a field in error
        asks nothing and shows its error."""
        self.is_valid()
        data = self.cleaned_data
        filters = {k: data.get(k) or "" for k in ("player", "card", "winner", "ruleset")}
        filters.update({k: data.get(k) for k in ("finished_from", "finished_to")})
        return filters
