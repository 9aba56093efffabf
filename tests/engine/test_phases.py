"""A phase name read once as a value (games.engine.Phase): parsed, printed back, ordered."""

import pytest

from games.engine import DAY, NIGHT, Phase


def test_a_phase_name_reads_and_prints_back():
    day = Phase.parse("day 3")
    assert day == Phase(DAY, 3)
    assert (day.kind, day.number, day.is_night) == ("day", 3, False)
    assert str(day) == "day 3"
    assert Phase.parse("night 12").is_night
    assert str(Phase.parse("night 12")) == "night 12"


@pytest.mark.parametrize("text", ["", "day", "day ", "dusk 2", "day x", "night -1", "day ²", None])
def test_text_that_names_no_phase_reads_as_none(text):
    assert Phase.parse(text) is None


def test_phases_order_as_they_come():
    names = ["night 2", "day 1", "day 10", "night 1", "day 2"]
    ordered = sorted(Phase.parse(n) for n in names)
    assert [str(p) for p in ordered] == ["day 1", "night 1", "day 2", "night 2", "day 10"]
    assert Phase(DAY, 2) > Phase(NIGHT, 1) >= Phase(NIGHT, 1)


def test_the_next_and_previous_phases_follow_day_and_night():
    assert Phase.parse("day 2").next() == Phase(NIGHT, 2)
    assert Phase.parse("night 2").next() == Phase(DAY, 3)
    assert Phase.parse("day 3").previous() == Phase(NIGHT, 2)
    assert Phase.parse("night 2").previous() == Phase(DAY, 2)


def test_a_phase_is_a_frozen_value():
    phase = Phase.parse("day 1")
    with pytest.raises(AttributeError):
        phase.number = 2
    assert {phase, Phase(DAY, 1)} == {phase}
