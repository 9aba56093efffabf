"""Where the rules cases live: the shared conformance examples and the team's own."""

import importlib.util
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("WITCHHUNT_SHARED", ROOT.parent / "shared"))
EXAMPLES = SHARED / "conformance" / "examples"
RECORDS = Path(__file__).resolve().parent / "records"
INVALID = RECORDS / "invalid"


def case_files(folder):
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def load_case(path):
    with open(path, encoding="utf-8") as f:
        case = json.load(f)
    expect = case.pop("expect", {})
    return case, expect


def shared_checker():
    """The shared check.py's comparison, so that our cases are judged exactly like CI's."""
    path = SHARED / "conformance" / "check.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("conformance_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
