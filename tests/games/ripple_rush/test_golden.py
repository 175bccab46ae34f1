"""The seeded 2-player playthrough a reviewer reads (regenerate with pytest --update-goldens)."""

from __future__ import annotations

from pathlib import Path

from generator.games.ripple_rush.transcript import transcript


def test_golden_playthrough_2p(spec, golden):
    text = transcript(spec, seed=2024, players=2, policies=["strong", "greedy"])
    golden.check(Path(__file__).parent / "golden" / "playthrough_2p.txt", text)
    assert transcript(spec, seed=2024, players=2, policies=["strong", "greedy"]) == text
