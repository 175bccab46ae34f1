"""`game.balance.play`: the full-game tolerances of Raindrops. The model lives in the spec room
(`generator.games.raindrops.spec`); this name stays for the rules engine's imports."""

from generator.games.raindrops.spec import PartShares, PlayBalance

__all__ = ["PartShares", "PlayBalance"]
