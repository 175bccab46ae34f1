"""Writing back into kit.yaml (check --refit) keeps comments and only touches the key asked for."""

from generator.spec.edit import set_value
from generator.spec.yamlio import read_yaml


def test_set_value_keeps_comments_and_other_keys(tmp_path):
    p = tmp_path / "kit.yaml"
    p.write_text(
        "# top comment\ngame:\n  kind: raindrops  # the game\n  memory_cards:\n    points: {min: 2, max: "
        "7}\n",
        encoding="utf-8",
    )
    set_value(p, ("game", "memory_cards", "points", "refit"), {1: 4, 2: 6})
    text = p.read_text(encoding="utf-8")
    assert "# top comment" in text and "# the game" in text
    data, _ = read_yaml(p, "kit.yaml")
    assert data["game"]["memory_cards"]["points"] == {"min": 2, "max": 7, "refit": {"1": 4, "2": 6}}
    assert not list(tmp_path.glob(".*.part"))


def test_set_value_creates_missing_mappings(tmp_path):
    p = tmp_path / "kit.yaml"
    p.write_text("game:\n  kind: x\n", encoding="utf-8")
    set_value(p, ("game", "a", "b"), 3)
    data, _ = read_yaml(p, "kit.yaml")
    assert data["game"] == {"kind": "x", "a": {"b": 3}}
