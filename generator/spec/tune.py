"""The optional `tune:` section of kit.yaml: what `pnpkit tune` may change and what it aims for.

Shapes only; whether a path is tunable, a range legal or a target a real tolerance is checked by the tune
pipeline against the game's declared tunables and balance section (errors located in kit.yaml)."""

from __future__ import annotations

from pydantic import Field, StrictBool, StrictFloat, StrictInt, StrictStr

from generator.spec.base import MAX_GAMES, SpecModel

Scalar = StrictInt | StrictFloat | StrictStr | StrictBool


class TuneParam(SpecModel):
    """One parameter the search may change: a range (`min`/`max`), a set of `choices`, or, for a list the game
    declares as a permutation, neither (any order)."""

    path: StrictStr = Field(
        description="Dotted key of kit.yaml the game declares tunable, e.g. game.miss_boxes "
        "(`pnpkit tune --list` names them)."
    )
    min: StrictInt | StrictFloat | None = Field(
        None, description="Smallest value tried (inside the legal range)."
    )
    max: StrictInt | StrictFloat | None = Field(
        None, description="Largest value tried (inside the legal range)."
    )
    choices: list[Scalar] | None = Field(None, min_length=2, description="The values tried, for a choice.")


class TuneTarget(SpecModel):
    """Aim a measured figure at a value: every tolerance under `game.balance.<tolerance>` (all player counts)
    is pulled towards `value`, after every tolerance holds."""

    tolerance: StrictStr = Field(
        description="A tolerance of the game's balance section, e.g. seat_win_share."
    )
    value: StrictInt | StrictFloat = Field(description="The measured value aimed at.")


class TuneSpec(SpecModel):
    """`pnpkit tune` settings. The objective: every tolerance holds; among the kits where all hold, the one
    closest to the original (fewest changed parameters, then the smallest changes), or nearest the targets."""

    params: list[TuneParam] = Field(
        default_factory=list, description="What may change (the command line's --param replaces this list)."
    )
    targets: list[TuneTarget] = Field(default_factory=list, description="Optional figures to aim at.")
    trials: StrictInt = Field(20, ge=1, le=10_000, description="Candidate kits the search plays (--trials).")
    games: StrictInt = Field(
        1000,
        ge=1,
        le=MAX_GAMES,
        description="Games per setting of a trial's first batch; "
        "every trial plays the same seeded deals, and a "
        "trial with no failing tolerance plays a second "
        "batch as large.",
    )
    proofs: StrictInt = Field(
        2,
        ge=1,
        le=10,
        description="Seed streams (none the search used) on which a "
        "candidate's full check must hold: the run seed itself "
        "(`pnpkit check --seed S` repeats it), then derived "
        "ones, so a check at another seed passes more often.",
    )
    proof_max_games: StrictInt | None = Field(
        None,
        ge=1,
        le=MAX_GAMES,
        description=(
            "Most games per setting the proof may play: a candidate that fails no tolerance but leaves one "
            "undecided "
            "at the kit's balance.max_games is checked again with that cap doubled, up to this; the cap that "
            "decides "
            "it is written into the tuned kit (annotated with the old one). Unset: the kit's own max_games."
        ),
    )
    candidates: StrictInt = Field(
        5,
        ge=1,
        le=20,
        description="Best candidates re-judged by the full check on a seed stream the search never used.",
    )
