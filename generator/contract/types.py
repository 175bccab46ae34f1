"""The types of the game contract in one place: what a game implements (Game, its composer) and what it
returns (Outcome, BalanceReport, Tunable, Slot). Each is defined in the room that uses it and re-exported
here, so a game's author imports the contract from one module."""

from generator.contract.plugin import BalanceReporter, GamePlugin, NewGame, Refit, WithFiles
from generator.engine.game import Game, Outcome, is_game
from generator.engine.report import BalanceReport
from generator.engine.tunables import Tunable
from generator.layout.art import Slot, Slots
from generator.layout.compose import Component, Composer, Context

__all__ = [
    "BalanceReport",
    "BalanceReporter",
    "Component",
    "Composer",
    "Context",
    "Game",
    "GamePlugin",
    "NewGame",
    "Outcome",
    "Refit",
    "Slot",
    "Slots",
    "Tunable",
    "WithFiles",
    "is_game",
]
