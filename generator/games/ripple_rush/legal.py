"""Static legality of a Ripple Rush spec: every cross-field problem, each with its key path."""

from __future__ import annotations

from generator.games.ripple_rush.spec import RippleRushGame
from generator.spec.base import repeats


def legal_problems(spec: RippleRushGame) -> list[tuple[str, str]]:
    """Every static problem as (key path relative to `game:`, message); empty when the spec is legal."""
    out: list[tuple[str, str]] = []
    ids = [s.id for s in spec.suits]
    for i, j in repeats(ids):
        out.append(
            (
                f"suits[{i}].id",
                f"suit '{ids[i]}' is already suits[{j}]; the deck would hold every {ids[i]} card twice",
            )
        )
    for key in ("colour", "symbol"):
        values = [getattr(s, key).lower() for s in spec.suits]
        for i, j in repeats(values):
            out.append(
                (
                    f"suits[{i}].{key}",
                    f"{key} {values[i]!r} is already used by suits[{j}] "
                    f"({spec.suits[j].id}); suits must differ in {key}",
                )
            )
    lo, hi = spec.numbers.min, spec.numbers.max
    span = hi - lo + 1
    if span < 1:
        out.append(("numbers", f"range {lo}..{hi} is empty"))
    if spec.players.min > spec.players.max:
        out.append(("players", f"range {spec.players.min}..{spec.players.max} is empty"))
    box = len(ids) * max(span, 0)
    need = spec.cards_per_player * spec.players.max
    if span >= 1 and need > box:
        out.append(
            (
                "cards_per_player",
                f"{spec.players.max} players x {spec.cards_per_player} cards = {need}, "
                f"but the deck holds {len(ids)} suits x {span} numbers = {box}",
            )
        )
    if len(spec.bonuses) != spec.rows:
        out.append(("bonuses", f"expected one bonus per row ({spec.rows}), got {len(spec.bonuses)}"))
    names = ", ".join(ids)
    for i, b in enumerate(spec.bonuses):
        ok = (b in ids) if isinstance(b, str) else (lo <= b <= hi)
        if not ok:
            out.append((f"bonuses[{i}]", f"expected a number in {lo}..{hi} or one of {names}; got {b!r}"))
    if spec.goals.revealed > spec.rows:
        out.append(
            (
                "goals.revealed",
                f"{spec.goals.revealed} goal cards revealed, but there is one goal card "
                f"per row and {spec.rows} rows",
            )
        )
    bal = spec.balance
    if bal.reference_policy not in bal.policies:
        out.append(
            (
                "balance.reference_policy",
                f"expected one of the policies played "
                f"({', '.join(bal.policies)}); got {bal.reference_policy!r}",
            )
        )
    if "random" not in bal.policies or not {"greedy", "strong"} & set(bal.policies):
        out.append(
            (
                "balance.policies",
                "balance.skill_gap compares the strongest policy played (strong, else greedy) with random: "
                f"expected random and greedy or strong among the policies; got [{', '.join(bal.policies)}]",
            )
        )
    v = spec.variants
    if not spec.players.min <= v.players <= spec.players.max:
        out.append(
            (
                "variants.players",
                f"expected a player count in {spec.players.min}..{spec.players.max}; got {v.players}",
            )
        )
    return out
