"""The archive's search (issue 16): a plain GET form."""

from django import forms
from django.utils.translation import gettext, gettext_lazy

from games.engine import CHARACTERS, ROLES, TYPES
from games.models import Game
from games.narration.labels import WINNERS, capitalised, character_label, role_label, type_label


def _card_choices():
    """Every card that can be dealt, by its name in the reader's language, grouped by
    ruleset (called each time the choices are shown)."""
    witchhunt = [(k, character_label(k)) for k in CHARACTERS] + [(k, type_label(k)) for k in TYPES]
    werewolf = [(k, role_label(k)) for k in ROLES]
    return [
        ("", gettext("Any card")),
        ("Witchhunt", sorted(witchhunt, key=lambda c: c[1])),
        ("Werewolf", sorted(werewolf, key=lambda c: c[1])),
    ]


class ArchiveSearchForm(forms.Form):
    """A plain GET form: every field optional, an invalid one ignored with its error shown."""

    player = forms.CharField(label=gettext_lazy("Player"), max_length=64, required=False)
    card = forms.ChoiceField(
        label=gettext_lazy("Card in the deal"), choices=_card_choices, required=False
    )
    winner = forms.ChoiceField(label=gettext_lazy("Winner"), required=False)
    ruleset = forms.ChoiceField(
        label=gettext_lazy("Rules"),
        choices=[("", gettext_lazy("Either")), *Game.Ruleset.choices],
        required=False,
    )
    finished_from = forms.DateField(
        label=gettext_lazy("Finished on or after"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    finished_to = forms.DateField(
        label=gettext_lazy("Finished on or before"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args, **kwargs):

        super().__init__(*args, **kwargs)
        # Made per form, in the request's language (the labels are lazy translations).
        winners = [(k, capitalised(label)) for k, label in WINNERS.items()]
        self.fields["winner"].choices = [("", gettext("Anyone")), *winners]

    def search(self) -> dict:
        """The archive's ArchiveFilter arguments from the valid fields: a field in error
        asks nothing and shows its error."""
        self.is_valid()
        data = self.cleaned_data
        filters = {k: data.get(k) or "" for k in ("player", "card", "winner", "ruleset")}
        filters.update({k: data.get(k) for k in ("finished_from", "finished_to")})
        return filters
