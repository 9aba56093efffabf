"""`manage.py balance`: the win rates, their intervals and the by-size table."""

import json

import pytest
from django.core.management import CommandError, call_command

from games.lab.simulation.setups import suggested


def run(*args):
    from io import StringIO

    out, err = StringIO(), StringIO()
    call_command("balance", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_balance_prints_rates_intervals_and_sizes():
    out, _ = run("witchhunt-8", "--games", "40", "--seed", "2", "--sizes", "8,10", "--workers", "1")
    lines = out.splitlines()
    assert lines[0].startswith("Witchhunt 8 (suggested): 8 seats, key ")
    assert lines[1].split() == ["Result", "Wins", "Share", "95%", "interval"]
    village = next(line for line in lines if line.startswith("Village "))
    witches = next(line for line in lines if line.startswith("Witches "))
    wins = int(village.split()[1]) + int(witches.split()[1])
    assert wins == 40 and "% – " in village
    assert "Median length: " in out and "(40 games, seed 2)" in out
    table = lines[lines.index("By size (40 games each):") + 1 :]
    assert table[0].replace(" ", "") == "|Seats|Village|Witches|Mediandays|"
    assert [row.split("|")[1].strip() for row in table[2:]] == ["8", "10"]


def test_balance_is_reproducible():
    args = ("werewolf-8", "--games", "30", "--seed", "5", "--sizes", "none", "--workers", "1")
    first, _ = run(*args)
    second, _ = run(*args)
    drop_speed = [line for line in first.splitlines() if "games/s" not in line]
    assert drop_speed == [line for line in second.splitlines() if "games/s" not in line]


def test_balance_reads_a_json_setup(tmp_path):
    path = tmp_path / "setup.json"
    setup = suggested("werewolf", 8).as_dict() | {"name": "My village"}
    path.write_text(json.dumps(setup))
    out, _ = run(str(path), "--games", "20", "--sizes", "none", "--workers", "1")
    assert out.startswith("My village: 8 seats")


def test_balance_refuses_what_it_cannot_play(tmp_path):
    with pytest.raises(CommandError, match="no suggested setup or file"):
        run("witchhunt-13")
    bad = suggested("werewolf", 8).as_dict() | {"seats": 3}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(CommandError, match="cannot be played"):
        run(str(path), "--games", "5")
    with pytest.raises(CommandError, match="--sizes"):
        run("werewolf-8", "--games", "5", "--sizes", "eight")


def test_balance_leaves_out_sizes_it_cannot_scale_to():
    out, err = run("witchhunt-8", "--games", "10", "--sizes", "2,8", "--workers", "1")
    assert "2 seats left out" in err  # one Witch and one Villager: W-23 refuses it
    assert [r.split("|")[1].strip() for r in out.splitlines() if r.startswith("| ")][1:] == ["8"]


def test_balance_can_store_its_estimate_for_the_lab_page():
    from django.conf import settings
    from django.core.cache import cache

    from games.lab import jobs

    setup = suggested("werewolf", 8)
    out, _ = run("werewolf-8", "--games", "30", "--sizes", "none", "--workers", "1", "--store")
    assert "Stored as the lab's answer." in out
    job = jobs.Job.from_dict(cache.get(jobs.record_key(setup.key(), settings.LAB_SEED)))
    assert job.state == jobs.DONE and job.estimate["games"] == 30
    out, _ = run("werewolf-8", "--games", "20", "--sizes", "none", "--workers", "1", "--store")
    assert "Not stored" in out  # fewer games than the answer kept
