"""The viewer on the 1,115-input, 48-seat bench game (issue 31): a step is one moment, so
a step page stays small and reads the same few queries at the first step as at the last,
in every view, and a phase's list of its first steps is there to jump by."""

import time

import pytest
from django.test import Client
from django.urls import reverse

from games.benchmarks.inputs import bench_record, play_record
from games.viewer.narration import view_labels
from games.viewer.selectors import viewer_page

pytestmark = pytest.mark.django_db

# Well beyond what the page takes here (some 0.1 to 0.3 s on this machine, the record's
# replay included) and well below what a reader would call broken.
SECONDS = 3.0
PAGE_BYTES = 120_000


@pytest.mark.slow
def test_a_long_games_step_pages_stay_small_and_quick(django_assert_max_num_queries):
    game, _played = play_record(bench_record())
    game.refresh_from_db()
    assert game.status == "finished"
    client, labels = Client(), view_labels()
    seat = game.seats.order_by("position").first().name
    for view in ("public", "everything", f"seat-{seat}"):
        steps = viewer_page(game, view, 1, labels).steps
        assert steps > 100, view
        for step in (1, steps // 2, steps):
            url = reverse("viewer_step", args=[game.pk, view, step])
            started = time.perf_counter()
            with django_assert_max_num_queries(12):
                response = client.get(url)
            took = time.perf_counter() - started
            assert response.status_code == 200
            assert took < SECONDS, (view, step, took)
            assert len(response.content) < PAGE_BYTES, (view, step, len(response.content))
            print(view, step, steps, f"{took * 1000:.0f} ms", len(response.content), "bytes")
