"""Draws of `random.Random` made cheaper for the few items the playouts and the lab's bots
draw from: the same calls on the generator, in the same order, so the same results (the
same games from the same seeds), without the per-call checks and frames of CPython 3.11's
own code. Another generator class gets its own methods."""

import random
from math import ceil, log


def shuffle(rng, x):
    """rng.shuffle(x): its loop with _randbelow's rejection draw inlined."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(x))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def below(rng, n):
    """rng.randrange(n) for n > 0 (and so `a + below(rng, b - a + 1)` is rng.randint(a, b)):
    _randbelow's rejection draw, without randint's and randrange's frames and checks."""
    if type(rng) is not random.Random:
        return rng.randrange(n)
    k = n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return j


def choice(rng, seq):
    """rng.choice(seq) for a non-empty sequence: the same single draw."""
    return seq[below(rng, len(seq))]


def sample(rng, pool, k):
    """rng.sample(pool, k): the same getrandbits draws and the same result as CPython's
    sample (a shrinking list for a pool no larger than its `setsize`, else a set of drawn
    indexes; each index drawn by rejection, as its _randbelow does), without sample's
    per-call checks, which made it the costliest call of the playouts' random inputs."""
    if type(rng) is not random.Random:  # another generator, another sample
        return rng.sample(list(pool), k)
    if not k:
        return []
    getrandbits = rng.getrandbits
    n = len(pool)
    result = []
    # CPython's choice of method: a list smaller than a k-length set
    setsize = 21 if k <= 5 else 21 + 4 ** ceil(log(k * 3, 4))
    if n <= setsize:
        pool = list(pool)
        for i in range(k):
            m = n - i
            bits = m.bit_length()
            j = getrandbits(bits)
            while j >= m:
                j = getrandbits(bits)
            result.append(pool[j])
            pool[j] = pool[m - 1]
    else:
        bits = n.bit_length()
        drawn = set()
        for _ in range(k):
            j = getrandbits(bits)
            while j >= n or j in drawn:
                j = getrandbits(bits)
            drawn.add(j)
            result.append(pool[j])
    return result
