"""engine/draws.py makes the same draws as `random.Random` itself: the same results and the
same generator state after, so a seed plays the same games (the playouts, the lab)."""

import random

from games.engine import draws


def test_shuffle_is_random_s_shuffle():
    for seed in range(40):
        for n in (0, 1, 2, 3, 7, 20, 33, 64):
            ours, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(n)), list(range(n))
            draws.shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b
            assert ours.getstate() == theirs.getstate()


def test_sample_is_random_s_sample():
    for seed in range(40):
        for n in (1, 5, 21, 22, 48):
            pool = tuple(f"p{i:02d}" for i in range(n))
            for k in range(min(n, 6) + 1):
                ours, theirs = random.Random(seed), random.Random(seed)
                assert draws.sample(ours, pool, k) == theirs.sample(pool, k)
                assert ours.getstate() == theirs.getstate()

