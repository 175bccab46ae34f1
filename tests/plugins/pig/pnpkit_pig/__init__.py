"""Pig, the push-your-luck dice game, as a pnpkit game that lives outside pnpkit (docs/game-contract.md).

Registered by the entry point `pig = pnpkit_pig:GAME` in the group "pnpkit.games" (see the dist-info folder
beside this package). This module holds strings only: listing the games or reading a kit's `game.kind` must
import nothing heavy; pnpkit imports the modules named below when it first needs them."""

from __future__ import annotations

from generator.games.registry import GamePlugin

GAME = GamePlugin(
    id="pig",
    name="Pig",
    ruleset="1.0",
    spec="pnpkit_pig.spec:PigGame",
    layout="pnpkit_pig.layout",
    legal="pnpkit_pig.legal:legal_problems",
    balance="pnpkit_pig.balance:balance_report",
    transcript="pnpkit_pig.transcript:transcript",
    play="pnpkit_pig.rules:new_game",
)

__all__ = ["GAME"]
