"""The golden seeded 2-player playthrough (regenerate with pytest --update-goldens and read the diff)."""

from __future__ import annotations

from pathlib import Path

from generator.games.raindrops.transcript import play_transcript
from tests.games.raindrops.test_rules_fixtures import game


def test_golden_playthrough_2p(golden) -> None:
    text = play_transcript(game(), seed=7, players=2)
    golden.check(Path(__file__).parent / "golden" / "playthrough_2p.txt", text)


def test_replay_is_identical() -> None:
    assert play_transcript(game(), seed=3, players=3) == play_transcript(game(), seed=3, players=3)
