"""Reference rules of Rummy Cards: cards, melds, state, actions, apply, scoring. Readable, not fast.

Cards are ids 0..total-1: number card id = kind * copies + copy with kind = colour * n_numbers + (number -
min); jokers follow. A meld is (kind "run" | "group", ordered card ids); a run lists its cards in ascending
order so a joker stands for the number of its place. A joker on the table stays in its kind of set: at the
end of a turn a run joker is in a run of the same colour, a group joker in a group of the same number,
standing for whatever card its place there needs (the seed: sets holding a joker may be added to, split and
taken from), unless it was retrieved (a card it stood for at the start laid from the hand, the player had
opened before this turn or laid the initial melds earlier in it (rules.opening_retrieval), and the joker goes
into a NEW meld of itself and 2+ cards from the hand, no table card). Rounds end when a hand is empty (out) or
without a winner going out (exhausted): when the pile's last card is drawn (rules.exhausted_end
last_card_drawn) or, with an empty pile, when every player in a row passes (all_pass).

`new_game(spec, players)` is the same rules behind the one Game protocol (generator/engine/game.py), a turn
offered as whole-turn plays or built step by step (TurnGame, at the end of this module).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from generator.errors import RuleViolation
from generator.games.rummy_cards import GAME
from generator.games.rummy_cards.spec import RummyCardsGame

RULESET_VERSION = (
    GAME.ruleset
)  # the plugin record holds the version (generator/games/rummy_cards/__init__.py)
MELD_MIN = 3
"""Cards in the smallest meld (the seed: 「必ず3枚以上のカードで構成され」, groups and runs alike); a
retrieved joker goes into a new meld with MELD_MIN - 1 cards from the hand."""


@dataclass(frozen=True)
class Meld:
    """Cards on the table that belong together: a run (ascending) or a group."""

    kind: Literal["run", "group"]
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Draw:
    """Take the top card of the draw pile (a pass when the pile is empty)."""


@dataclass(frozen=True)
class Lay:
    """Lay cards from the hand: `table` is the whole table at the end of the turn."""

    table: tuple[Meld, ...]


Action = Draw | Lay


@dataclass(frozen=True)
class State:
    """A round in progress; hands are sorted card ids, the pile's top is its last card."""

    hands: tuple[tuple[int, ...], ...]
    table: tuple[Meld, ...]
    pile: tuple[int, ...]
    opened: tuple[bool, ...]
    current: int = 0
    turn: int = 0
    passes: int = 0


@dataclass(frozen=True)
class Outcome:
    """How a round ended: scores (zero-sum), winner, hand totals, reason and the tie-break used."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    hand_totals: tuple[int, ...]
    reason: Literal["out", "exhausted"]
    tie_break: str | None = None


@dataclass(frozen=True)
class Deck:
    """Card ids and what they show, built from the spec."""

    colours: tuple[str, ...]
    num_min: int
    num_max: int
    copies: int
    jokers: int

    @property
    def n_numbers(self) -> int:
        """Numbers per colour."""
        return self.num_max - self.num_min + 1

    @property
    def n_kinds(self) -> int:
        """Distinct number cards (colour x number); the joker kind is this value."""
        return len(self.colours) * self.n_numbers

    @property
    def size(self) -> int:
        """Cards in the deck."""
        return self.n_kinds * self.copies + self.jokers

    def kind(self, card: int) -> int:
        """The kind of a card id (n_kinds for a joker)."""
        return card // self.copies if card < self.n_kinds * self.copies else self.n_kinds

    def is_joker(self, card: int) -> bool:
        """A joker?"""
        return card >= self.n_kinds * self.copies

    def colour(self, kind: int) -> int:
        """Colour index of a number kind."""
        return kind // self.n_numbers

    def number(self, kind: int) -> int:
        """Printed number of a number kind."""
        return self.num_min + kind % self.n_numbers

    def kind_of(self, colour: int, number: int) -> int:
        """Kind of (colour index, number)."""
        return colour * self.n_numbers + number - self.num_min

    def kind_name(self, kind: int) -> str:
        """'red7' / 'joker'."""
        return "joker" if kind == self.n_kinds else f"{self.colours[self.colour(kind)]}{self.number(kind)}"

    def name(self, card: int) -> str:
        """A card's readable name."""
        return self.kind_name(self.kind(card))

    def card(self, name: str, copy: int = 0) -> int:
        """Card id from a name like 'red7' (copy 0 or 1) or 'joker' (joker index)."""
        if name == "joker":
            return self.n_kinds * self.copies + copy
        for ci, c in enumerate(self.colours):
            if name.startswith(c) and name[len(c) :].isdigit():
                return self.kind_of(ci, int(name[len(c) :])) * self.copies + copy
        raise ValueError(f"no card named {name!r}")


def deck_from_spec(spec: RummyCardsGame) -> Deck:
    """The deck a spec describes."""
    return Deck(
        tuple(c.id for c in spec.colours), spec.numbers.min, spec.numbers.max, spec.copies, spec.jokers
    )


def meld_roles(deck: Deck, meld: Meld) -> tuple[frozenset[int], ...]:
    """The kinds each card of a valid meld stands for (a number card: itself); RuleViolation if invalid."""
    cards = meld.cards
    names = " ".join(deck.name(c) for c in cards)
    real = [(i, deck.kind(c)) for i, c in enumerate(cards) if not deck.is_joker(c)]
    if len(cards) < MELD_MIN:
        raise RuleViolation(f"meld [{names}]: a meld needs {MELD_MIN} or more cards, got {len(cards)}")
    if not real:
        raise RuleViolation(f"meld [{names}]: a meld needs at least one number card")
    if meld.kind == "run":
        colour = deck.colour(real[0][1])
        for _, k in real:
            if deck.colour(k) != colour:
                raise RuleViolation(
                    f"run [{names}]: a run has one colour, got {deck.colours[deck.colour(k)]} "
                    f"among {deck.colours[colour]}"
                )
        i0, k0 = real[0]
        start = deck.number(k0) - i0
        for i, k in real:
            if deck.number(k) != start + i:
                raise RuleViolation(f"run [{names}]: place {i + 1} needs {start + i}, got {deck.number(k)}")
        end = start + len(cards) - 1
        if start < deck.num_min or end > deck.num_max:
            raise RuleViolation(
                f"run [{names}]: numbers {start}..{end} leave {deck.num_min}..{deck.num_max} "
                f"(no wrap from {deck.num_max} to {deck.num_min})"
            )
        return tuple(frozenset({deck.kind_of(colour, start + i)}) for i in range(len(cards)))
    number = deck.number(real[0][1])
    if len(cards) > len(deck.colours):
        raise RuleViolation(
            f"group [{names}]: a group has at most {len(deck.colours)} cards, got {len(cards)}"
        )
    seen: set[int] = set()
    for _, k in real:
        if deck.number(k) != number:
            raise RuleViolation(
                f"group [{names}]: a group has one number, got {deck.number(k)} among {number}"
            )
        if deck.colour(k) in seen:
            raise RuleViolation(f"group [{names}]: colours must differ, {deck.colours[deck.colour(k)]} twice")
        seen.add(deck.colour(k))
    missing = frozenset(deck.kind_of(c, number) for c in range(len(deck.colours)) if c not in seen)
    return tuple(missing if deck.is_joker(c) else frozenset({deck.kind(c)}) for c in cards)


def joker_family(deck: Deck, meld: Meld) -> tuple[str, int]:
    """The kind of set a joker in this valid meld belongs to: ("run", colour index) or ("group", number).

    A table joker that is not retrieved stays in a set of its family (it may stand for another card there)."""
    real = next(c for c in meld.cards if not deck.is_joker(c))
    k = deck.kind(real)
    return ("run", deck.colour(k)) if meld.kind == "run" else ("group", deck.number(k))


def is_valid_meld(deck: Deck, meld: Meld) -> bool:
    """True when the meld is a valid run or group."""
    try:
        meld_roles(deck, meld)
    except RuleViolation:
        return False
    return True


def read_meld(deck: Deck, cards: Sequence[int]) -> Meld:
    """The meld these ordered cards make (a run when they read as one, else a group); RuleViolation if
    none."""
    for kind in ("run", "group"):
        m = Meld(kind, tuple(cards))
        if is_valid_meld(deck, m):
            return m
    meld_roles(deck, Meld("group", tuple(cards)))
    raise RuleViolation("not a meld")  # pragma: no cover - meld_roles raised


def meld_value(deck: Deck, meld: Meld) -> int:
    """Points of a meld for the initial meld: jokers count as the number they stand for."""
    return sum(deck.number(min(r)) for r in meld_roles(deck, meld))


def hand_total(deck: Deck, hand: Sequence[int], joker_penalty: int) -> int:
    """Points left in a hand: numbers at face value, a joker at joker_penalty."""
    return sum(joker_penalty if deck.is_joker(c) else deck.number(deck.kind(c)) for c in hand)


def score_out(totals: Sequence[int], winner: int) -> tuple[int, ...]:
    """A player went out: each loser scores minus their hand total, the winner plus the sum."""
    s = [-t for t in totals]
    s[winner] = 0
    s[winner] = -sum(s)
    return tuple(s)


def score_exhausted(
    totals: Sequence[int],
    sizes: Sequence[int],
    winner_rule: str,
    tie_rule: str,
    *,
    tie_pay: str,
    remainder: str,
    below_winner: str,
) -> tuple[tuple[int, ...], tuple[int, ...], str | None]:
    """Pile exhausted (the RummyRules exhausted_* switches, by value): the fewest cards (winner_rule
    "fewest_cards") or the lowest total ("lowest_total") wins. A tie: "share" -> every tied player wins;
    "tie_break" -> the other measure, then the lower seat. Each loser pays own total - the winner's total
    (below zero: below_winner "scores_zero" pays 0, "scores_plus" gains it). Tied winners: tie_pay
    "lowest_winner" -> each loser pays once against the lowest total among them and the winners split the sum,
    a remainder smaller than the number of winners one point each in seat order (remainder "seat_order") or
    lower total first ("lower_total_first"); "each_winner" -> each loser pays every winner against that
    winner's total."""
    first, other = (sizes, totals) if winner_rule == "fewest_cards" else (totals, sizes)
    best = min(first)
    tied = [p for p in range(len(totals)) if first[p] == best]
    tie_break = None
    if len(tied) > 1 and tie_rule == "tie_break":
        low2 = min(other[p] for p in tied)
        tied2 = [p for p in tied if other[p] == low2]
        tie_break = (
            ("fewer cards" if winner_rule == "lowest_total" else "lower total")
            if len(tied2) == 1
            else "lower seat"
        )
        tied = tied2[:1]

    def owed(loser: int, ref: int) -> int:
        d = totals[loser] - ref
        return max(d, 0) if below_winner == "scores_zero" else d

    losers = [p for p in range(len(totals)) if p not in tied]
    s = [0] * len(totals)
    if tie_pay == "each_winner":
        for q in losers:
            for w in tied:
                s[q] -= owed(q, totals[w])
                s[w] += owed(q, totals[w])
        return tuple(s), tuple(tied), tie_break
    ref = min(totals[p] for p in tied)
    for q in losers:
        s[q] = -owed(q, ref)
    pot = -sum(s)
    share, rest = divmod(pot, len(tied))
    order = sorted(tied, key=lambda w: (totals[w], w)) if remainder == "lower_total_first" else tied
    for i, w in enumerate(order):
        s[w] = share + (1 if i < rest else 0)
    return tuple(s), tuple(tied), tie_break


@dataclass
class Game:
    """Static rules of one Rummy Cards variant, built once from a validated spec."""

    spec: RummyCardsGame
    players: int
    deck: Deck = field(init=False)

    def __post_init__(self) -> None:
        self.deck = deck_from_spec(self.spec)
        if not self.spec.players.min <= self.players <= self.spec.players.max:
            raise RuleViolation(
                f"{self.players} players: this game is for {self.spec.players.min}..{self.spec.players.max}"
            )

    def deal(self, order: Sequence[int]) -> State:
        """Set-up from a shuffled deck order: player p gets order[p*hand_size:(p+1)*hand_size]."""
        hs = self.spec.hand_size
        n = self.players
        if n * hs > len(order):
            raise RuleViolation(f"cannot deal {n} x {hs} cards from {len(order)}")
        hands = tuple(tuple(sorted(order[p * hs : (p + 1) * hs])) for p in range(n))
        pile = tuple(reversed(order[n * hs :]))  # the next card dealt is on top (last)
        return State(hands, (), pile, (False,) * n)

    def new_round(self, rng: np.random.Generator) -> State:
        """Shuffle with the numpy Generator and deal (the kernel shuffles its own stream; a kernel round is
        replayed from its logged deal through `deal`)."""
        return self.deal([int(x) for x in rng.permutation(self.deck.size)])

    def is_over(self, state: State) -> bool:
        """A hand is empty, or the pile is exhausted: empty (rules.exhausted_end last_card_drawn), or empty
        and every player passed in a row (all_pass)."""
        if any(len(h) == 0 for h in state.hands) or state.passes >= self.players:
            return True
        return self.spec.rules.exhausted_end == "last_card_drawn" and not state.pile

    def legal_actions(self, state: State) -> list[Action]:
        """The simple plays, in this order (the random-legal player picks uniformly among them):
        1. Draw (a pass when the pile is empty);
        2. one new run from the hand: colour, first place, last place (3+ places) in ascending order; each
        place
           takes the hand's card of that kind, else a joker; at least one number card, enough jokers;
        3. one new group from the hand: number, then colour subset (bit mask, ascending), then 0.. jokers
           (3..colours cards);
        4. opened players only: one hand card added to a table meld, melds in table order: a run's low end,
           then high end, each the hand's card and then a joker; a group (fewer cards than colours): each
           missing colour in colour order, then a joker.
        Before the initial meld a new meld must reach initial_meld alone (a joker counts as its card).
        Cards: the lowest id of each kind, jokers lowest id first. Every listed play is legal; rearrangements,
        retrievals and multi-meld lays are legal too (apply checks them) but not listed.
        With rules.draw "only_when_unable" (the seed) Draw is listed only when no legal turn lays a card: when
        none of the plays above is listed, the exact meld finder decides (`solver_lay`) and its lay, if any,
        is listed alone instead of Draw."""
        if self.is_over(state):
            return []
        deck = self.deck
        C, N, lo = len(deck.colours), deck.n_numbers, deck.num_min
        hand = state.hands[state.current]
        opened = state.opened[state.current]
        by_kind: dict[int, int] = {}
        for card in sorted(hand, reverse=True):
            if not deck.is_joker(card):
                by_kind[deck.kind(card)] = card  # ends with the lowest id
        jokers = sorted(c for c in hand if deck.is_joker(c))
        out: list[Action] = [Draw()]
        for col in range(C):
            for s in range(N):
                for e in range(s + 2, N):
                    kinds = [col * N + v for v in range(s, e + 1)]
                    j = sum(k not in by_kind for k in kinds)
                    val = sum(lo + v for v in range(s, e + 1))
                    if j > len(jokers) or j == len(kinds) or (not opened and val < self.spec.initial_meld):
                        continue
                    js = iter(jokers)
                    cards = tuple(by_kind[k] if k in by_kind else next(js) for k in kinds)
                    out.append(Lay(state.table + (Meld("run", cards),)))
        for v in range(N):
            for mask in range(1, 1 << C):
                cols = [col for col in range(C) if (mask >> col) & 1]
                if any(col * N + v not in by_kind for col in cols):
                    continue
                for j in range(0, min(len(jokers), C - len(cols)) + 1):
                    n = len(cols) + j
                    if n < 3 or (not opened and (lo + v) * n < self.spec.initial_meld):
                        continue
                    cards = tuple(by_kind[col * N + v] for col in cols) + tuple(jokers[:j])
                    out.append(Lay(state.table + (Meld("group", cards),)))
        if not opened:
            return self._drop_draw(state, out)
        for i, m in enumerate(state.table):
            roles = meld_roles(deck, m)
            adds: list[tuple[int, ...]] = []
            if m.kind == "run":
                first, last = min(roles[0]), min(roles[-1])
                if first % N > 0:
                    adds += [(by_kind[first - 1],) + m.cards] if first - 1 in by_kind else []
                    adds += [(jokers[0],) + m.cards] if jokers else []
                if last % N < N - 1:
                    adds += [m.cards + (by_kind[last + 1],)] if last + 1 in by_kind else []
                    adds += [m.cards + (jokers[0],)] if jokers else []
            elif len(m.cards) < C:
                v = next(deck.kind(x) for x in m.cards if not deck.is_joker(x)) % N
                present = {deck.colour(deck.kind(x)) for x in m.cards if not deck.is_joker(x)}
                adds += [
                    m.cards + (by_kind[col * N + v],)
                    for col in range(C)
                    if col not in present and col * N + v in by_kind
                ]
                adds += [m.cards + (jokers[0],)] if jokers else []
            for cards in adds:
                out.append(Lay(state.table[:i] + (Meld(m.kind, cards),) + state.table[i + 1 :]))
        return self._drop_draw(state, out)

    def _drop_draw(self, state: State, plays: list[Action]) -> list[Action]:
        """The play list without Draw when the draw rule forbids drawing while a lay is possible: a listed
        play, else the exact meld finder's lay (listed alone)."""
        if self.spec.rules.draw != "only_when_unable":
            return plays
        if len(plays) > 1:
            return plays[1:]
        lay = self.solver_lay(state)
        return plays if lay is None else [lay]

    def solver_lay(self, state: State) -> Lay | None:
        """A legal lay of the player to move found by the exact meld finder, None when no turn lays a card.

        The seed: 「カードを置けない場合は、いずれかの山から裏向きのカードを引かなければなりません」, and the
        opening may be spread over several melds (「これらのポイントは、様々な組み合わせで分散させることが
        できます」). Before the initial meld: the opening of the most points (new melds from the hand; a lay
        exists when it reaches initial_meld, whatever else the opening turn allows, since its other steps are
        optional). After it: the best whole-table rearrangement with the hand, joker retrievals included
        (every legal lay is one the search weighs). A search that gives up (none in the measured rounds)
        counts as no lay."""
        from generator.games.rummy_cards.policies import find_best_play  # policies builds on this module

        p = state.current
        opening = not state.opened[p]
        play = find_best_play(self, state.hands[p], state.table, opening)
        if play.table is None or (opening and play.points < self.spec.initial_meld):
            return None
        return Lay(play.table)

    def apply(self, state: State, action: Action) -> State:
        """The state after `action`; RuleViolation naming the cards and numbers in the way."""
        if self.is_over(state):
            raise RuleViolation("the round is over")
        p = state.current
        n = self.players
        if isinstance(action, Draw):
            if self.spec.rules.draw == "only_when_unable" and any(
                isinstance(a, Lay) for a in self.legal_actions(state)
            ):
                raise RuleViolation(
                    f"player {p} can lay, so may not draw (rules.draw: only_when_unable; the seed: "
                    "draw only if you cannot lay)"
                )
            hands = list(state.hands)
            if state.pile:
                hands[p] = tuple(sorted(hands[p] + (state.pile[-1],)))
                return State(
                    tuple(hands), state.table, state.pile[:-1], state.opened, (p + 1) % n, state.turn + 1, 0
                )
            return State(
                state.hands,
                state.table,
                state.pile,
                state.opened,
                (p + 1) % n,
                state.turn + 1,
                state.passes + 1,
            )
        new_table = action.table
        self.check_lay(state, new_table)
        laid = {c for m in new_table for c in m.cards} - {c for m in state.table for c in m.cards}
        hands = list(state.hands)
        hands[p] = tuple(c for c in hands[p] if c not in laid)
        opened = list(state.opened)
        opened[p] = True
        return State(tuple(hands), new_table, state.pile, tuple(opened), (p + 1) % n, state.turn + 1, 0)

    def check_lay(self, state: State, new_table: tuple[Meld, ...]) -> None:
        """Every rule of a lay; raises RuleViolation with the first problem found."""
        p = state.current
        laid = self._laid_cards(state, new_table)
        roles = {}
        for m in new_table:
            for c, r in zip(m.cards, meld_roles(self.deck, m)):
                roles[c] = (r, m)
        if not state.opened[p] and self.spec.rules.opening_turn == "may_add_after_opening":
            if self._check_opening_melds(state, new_table, roles):
                return
            # after_opening_melds (the seed: 「最初のセットを置く前にジョーカーを回収することはできません」):
            # with the initial melds down, a retrieval follows the opened player's rules below
        elif not state.opened[p]:
            self._check_initial_meld(state, new_table)
            return
        self._check_joker_moves(state, laid, roles)

    def _laid_cards(self, state: State, new_table: tuple[Meld, ...]) -> list[int]:
        """The cards a lay adds to the table, after checking that every table card stays, none appears
        twice, and the new ones come from the player's hand (at least one)."""
        deck = self.deck
        p = state.current
        hand = set(state.hands[p])
        old_cards = [c for m in state.table for c in m.cards]
        new_cards = [c for m in new_table for c in m.cards]
        if len(set(new_cards)) != len(new_cards):
            dup = sorted({c for c in new_cards if new_cards.count(c) > 1})
            raise RuleViolation(f"card {deck.name(dup[0])} appears twice on the table")
        missing = [c for c in old_cards if c not in set(new_cards)]
        if missing:
            raise RuleViolation(
                f"table card {deck.name(missing[0])} must stay on the table "
                f"({len(missing)} card(s) taken off)"
            )
        laid = [c for c in new_cards if c not in set(old_cards)]
        not_own = [c for c in laid if c not in hand]
        if not_own:
            raise RuleViolation(f"card {deck.name(not_own[0])} is not in player {p}'s hand")
        if not laid:
            raise RuleViolation("a lay must put at least one card from the hand on the table")
        return laid

    def _check_opening_melds(
        self, state: State, new_table: tuple[Meld, ...], roles: dict[int, tuple[frozenset[int], Meld]]
    ) -> bool:
        """The turn of the initial meld under opening_turn may_add_after_opening: the new melds of own cards
        reach initial_meld; True when the lay is fully checked (no joker retrieval on this turn)."""
        deck = self.deck
        hand = set(state.hands[state.current])
        # the initial melds are the new melds of hand cards only; the rest of the table may change as
        # for an opened player (a joker retrieval too, unless rules.opening_retrieval is next_turn)
        own = [m for m in new_table if all(c in hand for c in m.cards)]
        total = sum(meld_value(deck, m) for m in own)
        if total < self.spec.initial_meld:
            parts = " + ".join(str(meld_value(deck, m)) for m in own) or "0"
            raise RuleViolation(
                f"initial meld: melds of own cards {parts} = {total} points, needs at least "
                f"{self.spec.initial_meld}"
            )
        if self.spec.rules.opening_retrieval != "next_turn":
            return False
        old_family = {c: joker_family(deck, m) for m in state.table for c in m.cards if deck.is_joker(c)}
        for j in sorted(old_family):
            if joker_family(deck, roles[j][1]) != old_family[j]:
                raise RuleViolation(
                    "a joker may not be retrieved on the turn of the initial meld "
                    "(rules.opening_retrieval next_turn; it must stay in a set of its kind)"
                )
        return True

    def _check_initial_meld(self, state: State, new_table: tuple[Meld, ...]) -> None:
        """An initial meld (opening_turn own_melds_only): new melds of own cards only, reaching
        initial_meld, the table melds unchanged."""
        deck = self.deck
        hand = set(state.hands[state.current])
        new_melds = [m for m in new_table if m not in state.table]
        if len(new_table) - len(new_melds) != len(state.table) or any(
            m not in new_table for m in state.table
        ):
            raise RuleViolation("before the initial meld the table melds may not be changed")
        if any(c not in hand for m in new_melds for c in m.cards):
            raise RuleViolation("the initial meld uses own cards only")
        total = sum(meld_value(deck, m) for m in new_melds)
        if total < self.spec.initial_meld:
            parts = " + ".join(str(meld_value(deck, m)) for m in new_melds)
            raise RuleViolation(
                f"initial meld: {parts} = {total} points, needs at least {self.spec.initial_meld}"
            )

    def _check_joker_moves(
        self, state: State, laid: list[int], roles: dict[int, tuple[frozenset[int], Meld]]
    ) -> None:
        """A table joker that left the sets of its kind was retrieved: by a card it stood for from the hand,
        into a new meld of 2+ more cards from the hand."""
        deck = self.deck
        old_cards = [c for m in state.table for c in m.cards]
        old_roles = {c: r for m in state.table for c, r in zip(m.cards, meld_roles(deck, m))}
        old_family = {c: joker_family(deck, m) for m in state.table for c in m.cards if deck.is_joker(c)}
        laid_set = set(laid)
        used_replacements: set[int] = set()
        for j in sorted(c for c in old_cards if deck.is_joker(c)):
            m = roles[j][1]
            if joker_family(deck, m) == old_family[j]:
                continue  # the seed: sets holding a joker may be added to, split and taken from
            want = " or ".join(deck.kind_name(k) for k in sorted(old_roles[j]))
            repl = [c for c in sorted(laid_set - used_replacements) if deck.kind(c) in old_roles[j]]
            if not repl:
                raise RuleViolation(
                    f"joker standing for {want} was moved: retrieve it by laying {want} from the hand"
                )
            used_replacements.add(repl[0])
            # the seed: 「自分のラックから2枚以上のタイルを使って新しいセットを作らなければなりません」
            table_mates = [c for c in m.cards if c != j and c not in laid_set]
            if table_mates:
                raise RuleViolation(
                    f"a retrieved joker must go into a new set of cards from the hand, not a meld "
                    f"with table card {deck.name(table_mates[0])}"
                )
            from_hand = [c for c in m.cards if c in laid_set and c not in used_replacements]
            if len(from_hand) < 2:
                raise RuleViolation(
                    f"a retrieved joker must be used in a meld with 2+ cards from the hand, "
                    f"got {len(from_hand)}"
                )

    def outcome(self, state: State) -> Outcome:
        """Scores of a finished round (zero-sum)."""
        totals = tuple(hand_total(self.deck, h, self.spec.joker_penalty) for h in state.hands)
        for p, h in enumerate(state.hands):
            if not h:
                return Outcome(score_out(totals, p), (p,), totals, "out")
        if not self.is_over(state):
            raise RuleViolation("the round is not over")
        r = self.spec.rules
        scores, ws, tb = score_exhausted(
            totals,
            [len(h) for h in state.hands],
            r.exhausted_winner,
            r.exhausted_tie,
            tie_pay=r.exhausted_tie_pay,
            remainder=r.exhausted_tie_remainder,
            below_winner=r.exhausted_below_winner,
        )
        return Outcome(scores, ws, totals, "exhausted", tb)
