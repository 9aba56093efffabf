"""Card names worded at display (games/narration/card_names.py): every card of the engine's
tables has a translatable name that reads in English exactly as the table prints it, and
a German reader gets the German name while the keys stay English."""

from django.utils import translation
from django.utils.translation import trans_real

from games.engine import CHARACTERS, ROLES, TYPES
from games.narration import card_label, role_label, seat_cards
from games.narration.card_names import CHARACTER_NAMES, ROLE_NAMES, TYPE_NAMES


def test_every_card_has_its_name_and_the_english_is_the_tables():
    for names, table in ((CHARACTER_NAMES, CHARACTERS), (TYPE_NAMES, TYPES), (ROLE_NAMES, ROLES)):
        assert set(names) == set(table)
        with translation.override("en"):
            for key, row in table.items():
                assert str(names[key]) == row[1] == card_label(key)


def test_a_german_reader_gets_the_german_name():
    top = trans_real.translation("de")._catalog._catalogs[0]
    entries = {"card\x04Priest": "Priester", "werewolf role\x04Witch": "Hexe"}
    kept = {k: top[k] for k in entries if k in top}
    top.update(entries)
    try:
        with translation.override("de"):
            assert card_label("priest") == "Priester"
            assert role_label("witch") == "Hexe"

            class Dealt:
                character, type, role = "priest", "basic_villager", "witch"

            cards = seat_cards("witchhunt", Dealt)
            assert (cards[0].key, cards[0].name) == ("priest", "Priester")
        with translation.override("en"):
            assert card_label("priest") == "Priest"
    finally:
        for k in entries:
            top.pop(k, None)
        top.update(kept)
