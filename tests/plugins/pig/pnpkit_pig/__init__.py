"""Pig, the push-your-luck dice game, as a pnpkit game that lives outside pnpkit (docs/game-contract.md).

Registered by the entry point `pig = pnpkit_pig:GAME` in the group "pnpkit.games" (see the dist-info folder
beside this package). Listing the games or reading a kit's `game.kind` must import nothing heavy: the record
names each module as a "module:attr" string that pnpkit imports when it first needs it, and
`generator.contract.api_test.api_test(GAME, kit)` checks every string against its protocol."""

from generator.contract import GamePlugin

GAME = GamePlugin(id="pig", name="Pig", ruleset="1.0", package=__name__, spec=".spec:PigGame")
"""Every other string keeps its default: the modules are named as docs/game-contract.md's convention says
(`.layout`, `.legal:legal_problems`, `.balance:balance_report`, `.transcript:transcript`, `.rules:new_game`,
`.spec:players`)."""

__all__ = ["GAME"]
