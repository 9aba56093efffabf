"""Deterministic orders any implementation can reproduce (W-13, W-61)."""

import hashlib


def sha_key(*parts) -> str:
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()


def announcement_order(seed, phase, names):
    """W-13: a night's deaths and survivals in ascending hex SHA-256 of "<seed>:<phase>:<name>"."""
    return sorted(names, key=lambda name: sha_key(seed, phase, name))
