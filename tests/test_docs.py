"""The README is a user's guide and the docs are for users: short, no internal history, every link
resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
USER_DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
ISSUE = re.compile(r"\bissues? #?\d+", re.IGNORECASE)
# a commit id: 7-40 hex characters with at least one digit and one letter (plain numbers and words are not
# ids)
COMMIT = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")


def _ids(paths: list[Path]) -> list[str]:
    return [p.relative_to(ROOT).as_posix() for p in paths]


def test_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 200, f"README.md has {len(lines)} lines: move measurements and methods to docs/"


def test_readme_holds_the_two_setup_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install '.[fast]' && pnpkit build" in text
    assert "pip install -e '.[test]' && pytest" in text
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pytest" in ci and ".[test]" in ci, ".ci/run must run the README's test command"


@pytest.mark.parametrize("path", USER_DOCS, ids=_ids(USER_DOCS))
def test_no_internal_history(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    issues = ISSUE.findall(text)
    commits = COMMIT.findall(text)
    assert not issues, f"{path.name} names internal issues: {issues[:5]}"
    assert not commits, f"{path.name} names commit ids: {commits[:5]}"


@pytest.mark.parametrize("path", USER_DOCS, ids=_ids(USER_DOCS))
def test_every_relative_link_resolves_inside_the_repository(path: Path) -> None:
    bad = []
    prose = re.sub(r"```.*?```|`[^`\n]*`", "", path.read_text(encoding="utf-8"), flags=re.S)
    for target in LINK.findall(prose):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        resolved = (path.parent / target.split("#")[0]).resolve()
        if not resolved.is_relative_to(ROOT) or not resolved.exists():
            bad.append(target)
    assert not bad, f"{path.name}: links that leave the repository or resolve to nothing: {bad}"


def test_the_checks_can_fail() -> None:
    assert ISSUE.search("fixed in issue 26") and ISSUE.search("see Issues #3")
    assert COMMIT.search("landed as 463b2f1") and COMMIT.search("d0257a9 was the base")
    assert not COMMIT.search("2598960 hands") and not COMMIT.search("a defaced card")
    assert LINK.findall("see [the guide](../shared/house-style.md)") == ["../shared/house-style.md"]
