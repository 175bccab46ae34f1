"""`game.balance.play`: the full-game tolerances of Raindrops. The model lives in the spec room
(`generator.spec.games.raindrops`); this name stays for the rules engine's imports."""

from generator.spec.games.raindrops import PartShares, PlayBalance

__all__ = ["PartShares", "PlayBalance"]
