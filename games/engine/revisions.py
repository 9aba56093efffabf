"""The revisions of the rulings (W-76, WW-19): every game is played to its end under the
revision it started with, whatever revision the site runs later.

The one place that names them: a record's `revision` is read against REVISIONS
(records.parse_revision), a new game starts under CURRENT, a record without one is
UNNAMED (every record written before revision 3; FORMAT)."""

REVISIONS = ("2b", "3")
CURRENT = "3"  # a new game's: the rulings text this engine publishes
UNNAMED = "2b"  # a record that names none

# Where each ruleset's rulings say what a revision is (the section of W-76; WW-19): the
# anchor on the rules page that a game's revision links to.
ANCHOR = {"witchhunt": "rulings-revisions", "werewolf": "WW-19"}
