"""Where the rules cases live: the team's own (tests/engine/records, always run) and the
shared conformance examples (only where ../shared is beside the checkout)."""

import functools
import importlib.util
import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("WITCHHUNT_SHARED", ROOT.parent / "shared"))
EXAMPLES = SHARED / "conformance" / "examples"
RECORDS = Path(__file__).resolve().parent / "records"
INVALID = RECORDS / "invalid"

SHARED_ABSENT = (
    f"{SHARED} is absent: the shared examples and copies are checked only where the shared "
    "folder is beside the checkout (or named by WITCHHUNT_SHARED)"
)


def case_files(folder):
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def load_case(path):
    with open(path, encoding="utf-8") as f:
        case = json.load(f)
    expect = case.pop("expect", {})
    return case, expect


def shared(*parts):
    """A path in the shared folder. Without the folder, skips the calling test, every such
    test with this one reason; with it, the path must be there."""
    if not SHARED.is_dir():
        pytest.skip(SHARED_ABSENT)
    path = SHARED.joinpath(*parts)
    assert path.exists(), f"{path} is missing from the shared folder"
    return path


def shared_examples():
    """The shared examples to parametrize over: one placeholder (None) where there are
    none, so that the test runs once and skips through shared() (or fails, if the shared
    folder is there but holds no examples) instead of pytest's empty-parameter skip."""
    return case_files(EXAMPLES) or [None]


def case_id(path):
    return path.stem if path else "no-examples"


@functools.cache
def shared_checker():
    """The shared check.py's comparison (its `problems`), which judges the cases in CI;
    skips the calling test without the shared folder."""
    path = shared("conformance", "check.py")
    spec = importlib.util.spec_from_file_location("conformance_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
