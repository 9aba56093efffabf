"""The lab's form: the new-game form's setup fields alone, and a Setup as their initial
values (what fills the new-game form, or the lab's, when a suggested setup is picked)."""

from django import forms

from games.forms import SETUP_FIELDS, NewGameForm


class LabSetupForm(NewGameForm):
    """The new-game form's setup alone (its fields, their checks, its deal and options), so
    the lab estimates exactly what that form would deal, and the form can post to it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields = {name: self.fields[name] for name in SETUP_FIELDS}

    def clean(self):
        data = forms.Form.clean(self)  # not NewGameForm's: no title, phases or sign-ups here
        if not self.errors:
            self.setup_clean(data)
        return data


def setup_initial(setup) -> dict:
    """A lab Setup (games/lab/simulation/setups.py) as the setup fields' initial values: what fills
    the form when a suggested setup is picked."""
    deal, options = setup.deal, setup.options
    initial = {
        "ruleset": setup.ruleset,
        "seats_count": setup.seats,
        "deal_mode": deal.get("mode", "explicit"),
    }
    if initial["deal_mode"] == "explicit":
        initial["cards"] = "\n".join(_card_lines(deal.get("cards", [])))
        initial["shuffle"] = deal.get("shuffle", True)
    elif setup.ruleset == "witchhunt":
        initial["characters"] = list(deal.get("characters", []))
        initial.update({f"count_{k}": n for k, n in deal.get("types", {}).items()})
    else:
        initial["roles"] = list(deal.get("roles", []))
        initial["werewolves"] = deal.get("werewolves")
        initial["specials"] = deal.get("specials")
    for name in ("archangel_cards", "stalemate_cycles", "public_setup", "reveal_on_death"):
        if name in options:
            initial[name] = options[name]
    return initial


def _card_lines(cards):
    """Explicit cards as parse_cards reads them, repeats counted: "3 x villager"."""
    lines, previous, times = [], None, 0
    for card in [*cards, None]:
        text = card and (card.get("role") or f"{card.get('character')} {card.get('type')}")
        if text == previous:
            times += 1
            continue
        if previous is not None:
            lines.append(f"{times} x {previous}" if times > 1 else previous)
        previous, times = text, 1
    return lines
