"""The versions installed are the ones tested: constraints.txt pins every distribution, the
venv (Makefile, CI) and the image (Dockerfile) install with it, and each pin is one that
pyproject.toml's ranges allow. An upstream release then changes nothing until a commit
moves its pin."""

import re
import tomllib
from importlib import metadata
from pathlib import Path

from django.conf import settings
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(settings.BASE_DIR)


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"not a pin: {line!r}"
            pins[canonicalize_name(name)] = version
    return pins


def _requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        specs += extra
    return [Requirement(spec) for spec in specs]


def test_every_requirement_is_pinned_inside_its_range():
    pins = _pins()
    for requirement in _requirements():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} has no pin in constraints.txt"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{requirement.name}=={pins[name]} is outside pyproject.toml's {requirement}"
        )


def test_the_venv_has_the_pinned_versions():
    """What the tests run on is what constraints.txt says (a stale venv would test
    something else): each pinned distribution installed here is at its pin."""
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}
    off = {
        name: (installed[name], pin)
        for name, pin in _pins().items()
        if name in installed and installed[name] != pin
    }
    assert not off, f"installed, pinned: {off}"


def test_the_venv_and_the_image_install_with_the_pins():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("$(STAMP): pyproject.toml constraints.txt\n", 1)[1].split("\n\n")[0]
    assert re.search(r"pip install .*-c constraints\.txt -e '\.\[dev\]'", recipe)
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "COPY pyproject.toml constraints.txt ./" in dockerfile
    assert "pip install -r /tmp/requirements.txt -c constraints.txt" in dockerfile
