"""What `pnpkit tune` may change in a Peak Dice kit (ranges inside the spec model's own limits)."""

from __future__ import annotations

from generator.engine.tunables import Tunable

TUNABLES = (
    Tunable(
        "miss boxes", "game.miss_boxes", "int", 0, 30, doc="boxes on the miss track (the k-th is worth -k)"
    ),
    Tunable(
        "miss penalty",
        "game.rules.miss_track_full",
        "choice",
        choices=("keep_counting", "capped"),
        doc="what a miss costs once the track is full",
    ),
    Tunable("row length", "game.row_length", "int", 3, 35, doc="circles per row"),
    Tunable(
        "peak position",
        "game.peak_after",
        "int",
        1,
        34,
        doc="the peak line sits after this circle (every row)",
    ),
    Tunable("re-rolls", "game.rerolls", "int", 0, 5, doc="re-rolls of any subset the active player may take"),
)
