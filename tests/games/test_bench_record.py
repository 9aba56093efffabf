"""`make bench` replays the project's own copy of the team's bench record: no ../shared
needed, and the copy is installed with the package and kept the same as the shared one."""

import fnmatch
import json
import tomllib

from games.benchmarks import engine as bench
from games.engine import records
from tests.engine.cases import ROOT, shared


def test_the_bench_record_is_the_projects_copy():
    path = bench.BENCH_RECORD_PATH
    assert path.is_file()
    assert path.is_relative_to(ROOT / "games")
    record = json.loads(path.read_text(encoding="utf-8"))
    assert len(record["steps"]) == 1115 and len(record["players"]) == 48
    records.replay(record)


def test_the_bench_record_is_installed_with_the_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data = config["tool"]["setuptools"]["package-data"]
    path = bench.BENCH_RECORD_PATH
    installed = [
        package
        for package, patterns in package_data.items()
        if path.is_relative_to(folder := ROOT.joinpath(*package.split(".")))
        and any(fnmatch.fnmatch(str(path.relative_to(folder)), p) for p in patterns)
    ]
    assert installed, f"no [tool.setuptools.package-data] pattern in pyproject.toml ships {path}"


def test_the_bench_record_is_the_same_as_the_shared_one():
    original = shared("bench", bench.BENCH_RECORD)
    assert bench.BENCH_RECORD_PATH.read_bytes() == original.read_bytes(), (
        f"{bench.BENCH_RECORD_PATH} differs from {original}: copy the shared record again"
    )
