"""Deterministic orders any implementation can reproduce (W-13, W-61)."""

import hashlib


def sha_key(*parts) -> str:
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()


def announcement_order(seed, phase, names):
    """W-13: a night's deaths and survivals in ascending hex SHA-256 of "<seed>:<phase>:<name>"."""
    if len(names) < 2:  # nothing to order (most nights): no hash needed
        return list(names)
    prefix = f"{seed}:{phase}:"  # sha_key's text, its fixed part made once
    sha256 = hashlib.sha256
    return sorted(names, key=lambda name: sha256(f"{prefix}{name}".encode()).hexdigest())
