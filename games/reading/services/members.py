"""A member who deleted their account (the core's MEMBER_ERASED; games/leaving does the
deletion): their notes, read marks, visits and notifications go. Their notes in a
finished game's reveal go too: a shared note was still theirs. And their notes in their
data's export (MEMBER_EXPORT)."""

from games.models import GameVisit, Notification, PlayerNote, ReadMark


def member_erased(*, user, **_) -> None:
    for model, field in ((PlayerNote, "author"), (ReadMark, "user"), (GameVisit, "user"),
                         (Notification, "user")):  # fmt: skip
        model.objects.filter(**{field: user}).delete()


def member_export_part(data: dict, *, user, **_) -> dict:
    notes = PlayerNote.objects.filter(author=user).select_related("seat").order_by("game_id", "pk")
    data["notes"] = [
        {"game": n.game_id, "about_seat": n.seat.name, "read": n.read or None, "text": n.text,
         "shared_in_reveal": n.shared, "updated_at": n.updated_at}
        for n in notes
    ]  # fmt: skip
    return data
