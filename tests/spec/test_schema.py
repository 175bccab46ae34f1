"""`pnpkit schema` is the JSON Schema an editor checks kit.yaml with: it must accept every kit that validates
(every shipped kit and every example, read by an independent validator, jsonschema) and still refuse what
validate refuses for its types: a length without a unit, a string where a number goes, an unknown key."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from generator.cli import app
from generator.errors import SpecError
from generator.pipeline import load_kits

ROOT = Path(__file__).resolve().parents[2]
KITS = sorted([*ROOT.glob("layouts/*/kit.yaml"), *ROOT.glob("docs/examples/*/kit.yaml")])
RR = ROOT / "layouts" / "ripple_rush"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    res = CliRunner().invoke(app, ["schema"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _errors(schema: dict[str, Any], data: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    return sorted(
        f"{'/'.join(map(str, e.absolute_path))}: {e.message[:120]}" for e in validator.iter_errors(data)
    )


def _yaml(path: Path) -> Any:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def test_the_schema_is_a_valid_draft_2020_12_schema(schema):
    jsonschema.Draft202012Validator.check_schema(schema)
    assert len(KITS) >= 7  # the six shipped kits and the make_it_yours example at least


@pytest.mark.parametrize("kit_yaml", KITS, ids=lambda p: p.parent.name)
def test_every_shipped_kit_and_example_that_validates_is_accepted(schema, kit_yaml):
    load_kits([kit_yaml.parent])  # it validates (a SpecError would fail the test)
    data = _yaml(kit_yaml)
    assert _errors(schema, data) == []
    one_game = json.loads(CliRunner().invoke(app, ["schema", "--game", data["game"]["kind"]]).stdout)
    assert _errors(one_game, data) == []


REFUSED = {
    # (YAML text replaced in Ripple Rush's kit.yaml, what jsonschema says at the path)
    "a length without a unit": ("  bleed: 3mm ", "  bleed: 3 ", "print/bleed"),
    "an unknown unit": ("  margin: 5mm ", "  margin: 5furlongs ", "print/margin"),
    "a string where a number goes": ("  seed: 20200601", "  seed: '20200601'", "kit/seed"),
    "an unknown key": ("  crop_marks: true", "  crop_markz: true", "print"),
    "an unknown key in an art mapping": (
        "  score_sheet:\n",
        "  score_sheet:\n    art: {logo: {path: a.svg, fitt: cover}}\n",
        "components/score_sheet/art/logo",
    ),
    "a number as an art path": (
        "  score_sheet:\n",
        "  score_sheet:\n    art: {logo: 7}\n",
        "components/score_sheet/art/logo",
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_validate_refuses_for_its_type_the_schema_refuses(schema, tmp_path, case):
    old, new, path = REFUSED[case]
    kit = tmp_path / "ripple_rush"
    shutil.copytree(RR, kit)
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (kit / "kit.yaml").write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(SpecError):
        load_kits([kit])
    errors = _errors(schema, _yaml(kit / "kit.yaml"))
    assert errors and all(e.startswith(f"{path}:") for e in errors), errors


def test_lengths_in_the_schema_take_what_validate_takes(schema):
    """A length: a unit after the number (spaces and full-width digits as validate reads them), or a bare
    0."""
    base = _yaml(RR / "kit.yaml")
    for margin, ok in [
        ("5mm", True),
        (" 2.5 in ", True),
        ("\uff15mm", True),
        ("12pt", True),
        (0, True),
        ("-1mm", True),
        ("5", False),
        (5, False),
        ("5 px", False),
        ("mm", False),
        (True, False),
    ]:
        data = {**base, "print": {**base["print"], "margin": margin}}
        assert (_errors(schema, data) == []) is ok, (margin, _errors(schema, data))
