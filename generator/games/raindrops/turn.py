"""A Raindrops action played: `play` checks it against the phase of the state and makes its moves, one
function per phase, through the steps of the rules (`rules.Raindrops`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from generator.errors import RuleViolation
from generator.games.raindrops.state import (
    SPECIALS,
    Action,
    Drop,
    EndPlacement,
    Held,
    KeepCards,
    KeepThunder,
    NoSpecial,
    Place,
    PlaceBonus,
    PlayerState,
    RefillBonus,
    Special,
    State,
    TakeBonus,
    TakeCard,
)

if TYPE_CHECKING:
    from generator.games.raindrops.rules import Raindrops


def play(game: Raindrops, st: State, a: Action, trusted: bool) -> None:
    """`Raindrops.apply`'s move: `a` played on `st` in place; RuleViolation when the phase does not
    allow it."""
    ph = st.phase
    ps = st.players[st.current] if st.players else None
    if ph == "over":
        raise RuleViolation("the game is over")
    assert ps is not None
    step = _PHASES.get(ph)
    if step is None:
        raise RuleViolation(f"no action possible in phase {ph}")
    step(game, st, ps, a, trusted)


def _on_setup(game: Raindrops, st: State, ps: PlayerState, a: Action, trusted: bool) -> None:
    """Set-up: the seat keeps its dealt cards but the one it shows; after the last seat the first turn
    begins."""
    if not isinstance(a, KeepCards) or a.to_display not in ps.dealt:
        raise RuleViolation(f"set-up: choose which dealt card ({ps.dealt}) goes to the display; got {a}")
    st.display.append(a.to_display)
    ps.held = [Held(c) for c in ps.dealt if c != a.to_display][: game.params.cards_kept]
    ps.dealt = []
    game._say(st, f"seat {st.current} keeps cards {[h.card for h in ps.held]}, shows card {a.to_display}")
    if st.current + 1 < len(st.players):
        st.current += 1
        return
    game._refill_display(st)
    st.current = 0
    game._begin_turn(st)


def _on_special(game: Raindrops, st: State, ps: PlayerState, a: Action, trusted: bool) -> None:
    """The special action (or none): the marker moves to another slot and the window changes."""
    if isinstance(a, NoSpecial):
        pass
    elif isinstance(a, Special):
        if a.kind not in SPECIALS:
            raise RuleViolation(f"unknown special action {a.kind!r}; expected one of {', '.join(SPECIALS)}")
        if SPECIALS.index(a.kind) == ps.marker:
            raise RuleViolation(f"the marker starts this turn on {a.kind}; it must move to another slot")
        if not game.can_special(st.columns, a):
            raise RuleViolation(f"{a.kind} at column {a.col}, tile {a.idx} is not possible on this window")
        game.do_special(st.columns, a)
        ps.marker = SPECIALS.index(a.kind)
        game._say(st, f"  {a.kind} column {a.col} tile {a.idx}")
    else:
        raise RuleViolation(f"expected a special action or none; got {a}")
    st.phase = "drop"


def _on_drop(game: Raindrops, st: State, ps: PlayerState, a: Action, trusted: bool) -> None:
    """The drop: the tiles under a legal path are taken (no path only when there is none)."""
    if not isinstance(a, Drop):
        raise RuleViolation(f"the drop is mandatory; got {a}")
    if not a.cells:
        if not trusted and game.drop_paths(st):
            raise RuleViolation("a drop path exists, so the drop cannot be skipped")
        game._say(st, "  no drop path: nothing taken")
        if game.params.window_refill == "drop_step":
            game._refill_window(st)  # a window left short by an earlier refill is topped up here
        st.phase = "place"
        return
    why = None if trusted else game.path_problem(st, a.cells)
    if why:
        raise RuleViolation(why)
    game._drop(st, a.cells)


def _on_thunder(game: Raindrops, st: State, ps: PlayerState, a: Action, trusted: bool) -> None:
    """Thunder: one drawn token is kept, the others go under the stack."""
    if not isinstance(a, KeepThunder) or a.token not in st.drawn_thunder:
        raise RuleViolation(f"keep one of the drawn thunder tokens {st.drawn_thunder}; got {a}")
    ps.thunder.append(a.token)
    for t in st.drawn_thunder:
        if t != a.token:
            st.thunder_stack.append(t)
    st.drawn_thunder = []
    game._after_thunder(st)


def _on_refill(game: Raindrops, st: State, ps: PlayerState, a: Action, trusted: bool) -> None:
    """Whether the short bonus offer is refilled before a bonus tile is taken (house rule bonus_refill)."""
    if not isinstance(a, RefillBonus):
        raise RuleViolation(f"choose whether to refill the bonus offer {st.bonus_offer} first; got {a}")
    if a.refill:
        game._refill_offer(st)
        game._say(st, f"  refills the bonus offer ({len(st.bonus_offer)} face up)")
    st.phase = "bonus" if st.bonus_offer else "place"


def _on_bonus(game: Raindrops, st: State, ps: PlayerState, a: Action, trusted: bool) -> None:
    """A face-up bonus tile taken into the bonus reserve."""
    if not isinstance(a, TakeBonus) or a.bonus not in st.bonus_offer:
        raise RuleViolation(f"take one face-up bonus tile {st.bonus_offer}; got {a}")
    st.bonus_offer.remove(a.bonus)
    ps.bonus_reserve.append(a.bonus)
    game._say(st, f"  takes bonus tile {a.bonus} ({game._bonus_name(a.bonus)})")
    st.phase = "place"


def _on_card(game: Raindrops, st: State, ps: PlayerState, a: Action, trusted: bool) -> None:
    """A new memory card taken from the display or the deck."""
    if not isinstance(a, TakeCard):
        raise RuleViolation(f"take a new memory card from the display or the deck; got {a}")
    if a.card is None:
        if not st.deck:
            raise RuleViolation("the memory deck is empty")
        card = st.deck.pop(0)
    elif a.card in st.display:
        st.display.remove(a.card)
        card = a.card
    else:
        raise RuleViolation(f"card {a.card} is not in the display {st.display}")
    ps.held.append(Held(card, fresh=True, since=ps.turns))
    game._say(st, f"  takes memory card {card}")
    st.phase = "place"


def _on_placement(game: Raindrops, st: State, ps: PlayerState, a: Action, trusted: bool) -> None:
    """The placement (or the final one): a tile, a bonus tile alone, or the end of the placement."""
    ph = st.phase
    if isinstance(a, Place):
        why = None if trusted else game.place_problem(st, a)
        if why:
            raise RuleViolation(why)
        game._place(st, a)
        return
    if isinstance(a, PlaceBonus):
        why = None if trusted else game.bonus_problem(st, a)
        if why:
            raise RuleViolation(why)
        h = ps.held[a.slot]
        ps.bonus_reserve.remove(a.bonus)
        h.bonuses.append(a.bonus)
        h.covered[a.cell] = f"b{a.bonus}"
        game._say(st, f"  bonus {a.bonus} on card {h.card} at {a.cell}")
        game._check_complete(st, a.slot)
        return
    if isinstance(a, EndPlacement):
        pool = set(st.hand) | set(ps.reserve)
        if ph == "final":
            if set(a.keep) != set(ps.reserve):
                raise RuleViolation("at the end tiles are only placed, not discarded")
            game._next_final(st)
            return
        if len(a.keep) > game.params.reserve_slots:
            raise RuleViolation(
                f"at most {game.params.reserve_slots} raindrop tiles stay in reserve; got {len(a.keep)}"
            )
        bad = [t for t in a.keep if t not in pool]
        if bad or len(set(a.keep)) != len(a.keep):
            raise RuleViolation(f"tiles {bad or list(a.keep)} are not the player's to keep")
        gone = sorted(pool - set(a.keep))
        st.discard.extend(gone)
        ps.reserve = list(a.keep)
        st.hand = []
        if gone:
            game._say(st, f"  keeps {list(a.keep)} in reserve, discards {gone}")
        game._end_turn(st)
        return
    raise RuleViolation(f"place tiles or end the placement; got {a}")


_PHASES: dict[str, Callable[[Raindrops, State, PlayerState, Action, bool], None]] = {
    "setup": _on_setup,
    "special": _on_special,
    "drop": _on_drop,
    "thunder": _on_thunder,
    "refill": _on_refill,
    "bonus": _on_bonus,
    "card": _on_card,
    "place": _on_placement,
    "final": _on_placement,
}
"""The function that plays an action in each phase."""
