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
        roles = {}
        for m in new_table:
            for c, r in zip(m.cards, meld_roles(deck, m)):
                roles[c] = (r, m)
        if not state.opened[p] and self.spec.rules.opening_turn == "may_add_after_opening":
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
            if self.spec.rules.opening_retrieval == "next_turn":
                old_family = {
                    c: joker_family(deck, m) for m in state.table for c in m.cards if deck.is_joker(c)
                }
                for j in sorted(old_family):
                    if joker_family(deck, roles[j][1]) != old_family[j]:
                        raise RuleViolation(
                            "a joker may not be retrieved on the turn of the initial meld "
                            "(rules.opening_retrieval next_turn; it must stay in a set of its kind)"
                        )
                return
            # after_opening_melds (the seed: 「最初のセットを置く前にジョーカーを回収することはできません」):
            # with the initial melds down, a retrieval follows the opened player's rules below
        elif not state.opened[p]:
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
            return
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


# ---- the one Game protocol (generator/engine/game.py): a turn as steps
# --------------------------------------- A Rummy turn may rearrange the whole table, so its full list of
# actions is far too long to list. The protocol object offers each turn as Game.legal_actions' whole-turn
# plays (Draw, one new meld, one card added to a table meld) plus BuildTurn, which builds any other turn step
# by step: lift table melds apart (in table order), form new melds from the lifted cards and the hand, end the
# turn (Game.apply checks it as one Lay) or reset to the start of the turn. Every legal turn is reachable:
# lift every table meld, then form the final table meld by meld (which of two identical cards from the same
# place, and the order of a group's cards, are fixed: they change nothing).


@dataclass(frozen=True)
class BuildTurn:
    """Build this turn step by step (Lift, Form, EndTurn, ResetTurn) instead of one of the whole-turn
    plays."""


@dataclass(frozen=True)
class Lift:
    """Take table meld `index` apart: its cards lie loose and must be back on the table, in valid melds, when
    the turn ends. Only before the turn's first Form, and in table order (index >= the last lifted index)."""

    index: int


@dataclass(frozen=True)
class Form:
    """Put a new valid meld on the table (after the others) from loose table cards and the hand."""

    meld: Meld


@dataclass(frozen=True)
class EndTurn:
    """End the built turn with the table as it stands (legal when no card is loose and the lay is legal)."""


@dataclass(frozen=True)
class ResetTurn:
    """Undo every step of the built turn: back to the start of the turn (the whole-turn plays again)."""


Step = Draw | Lay | BuildTurn | Lift | Form | EndTurn | ResetTurn


@dataclass(frozen=True)
class TurnState:
    """A round (the reference State at the start of the current turn) and the turn being built, if any."""

    round: State
    building: bool = False
    table: tuple[Meld, ...] = ()
    """The table as it stands within the built turn."""
    loose: tuple[int, ...] = ()
    """Lifted table cards not yet formed into a meld again, sorted."""
    hand: tuple[int, ...] = ()
    """The hand of the seat to move as it stands within the built turn."""
    lift_from: int = 0
    """The lowest table index a Lift may take (-1: a meld was formed, no more lifting)."""


def _start(state: State) -> TurnState:
    return TurnState(state)


@dataclass
class TurnGame:
    """Rummy Cards through the one Game protocol (`new_game`): the reference rules of `game`, each turn
    offered as whole-turn plays or built step by step (see the module's protocol section). Chance: the
    shuffle, from the numpy Generator given to `new_state`."""

    game: Game

    @property
    def players(self) -> int:
        """How many seats play."""
        return self.game.players

    def new_state(self, rng: np.random.Generator) -> TurnState:
        """A shuffled deck dealt out (every card order from `rng`)."""
        return _start(self.game.new_round(rng))

    def to_move(self, state: TurnState) -> int | None:
        """The seat to move; None once the round is over."""
        return None if self.game.is_over(state.round) else state.round.current

    def legal_actions(self, state: TurnState) -> list[Step]:
        """Outside a built turn: Game.legal_actions (Draw under the draw rule, the simple lays), then
        BuildTurn. In a built turn: ResetTurn, EndTurn (when legal), Lift (before the first Form), every
        Form."""
        g = self.game
        if g.is_over(state.round):
            return []
        if not state.building:
            return [*g.legal_actions(state.round), BuildTurn()]
        out: list[Step] = [ResetTurn()]
        if not state.loose and state.table != state.round.table:
            try:
                g.check_lay(state.round, state.table)
                out.append(EndTurn())
            except RuleViolation:
                pass
        if state.lift_from >= 0:
            out += [Lift(i) for i in range(state.lift_from, len(state.table))]
        out += [Form(m) for m in formable_melds(g.deck, state.loose, state.hand)]
        return out

    def apply(self, state: TurnState, action: Step) -> TurnState:
        """The state after `action`; RuleViolation if it is not legal now."""
        g = self.game
        if g.is_over(state.round):
            raise RuleViolation("the round is over")
        if isinstance(action, (Draw, Lay)):
            if state.building:
                raise RuleViolation("a built turn ends with EndTurn (or ResetTurn first)")
            return _start(g.apply(state.round, action))
        if isinstance(action, BuildTurn):
            if state.building:
                raise RuleViolation("the turn is already being built")
            return TurnState(state.round, True, state.round.table, (), state.round.hands[state.round.current])
        if not state.building:
            raise RuleViolation(f"{type(action).__name__} only inside a built turn (BuildTurn first)")
        if isinstance(action, ResetTurn):
            return _start(state.round)
        if isinstance(action, EndTurn):
            if state.loose:
                raise RuleViolation(
                    f"{len(state.loose)} lifted card(s) are not on the table again "
                    f"(first {g.deck.name(state.loose[0])})"
                )
            return _start(g.apply(state.round, Lay(state.table)))
        if isinstance(action, Lift):
            if state.lift_from < 0:
                raise RuleViolation("no lifting after a meld was formed this turn")
            if not state.lift_from <= action.index < len(state.table):
                raise RuleViolation(
                    f"lift {action.index}: expected a table index in "
                    f"{state.lift_from}..{len(state.table) - 1}"
                )
            m = state.table[action.index]
            return TurnState(
                state.round,
                True,
                state.table[: action.index] + state.table[action.index + 1 :],
                tuple(sorted(state.loose + m.cards)),
                state.hand,
                action.index,
            )
        if isinstance(action, Form):
            meld_roles(g.deck, action.meld)  # RuleViolation naming what is wrong with the meld
            cards = action.meld.cards
            loose, hand = set(state.loose), set(state.hand)
            if len(set(cards)) != len(cards):
                raise RuleViolation("a meld holds each card once")
            for c in cards:
                if c not in loose and c not in hand:
                    raise RuleViolation(
                        f"card {g.deck.name(c)} is neither loose on the table nor in the hand"
                    )
            return TurnState(
                state.round,
                True,
                state.table + (action.meld,),
                tuple(c for c in state.loose if c not in cards),
                tuple(c for c in state.hand if c not in cards),
                -1,
            )
        raise RuleViolation(f"not a Rummy Cards action: {action!r}")

    def outcome(self, state: TurnState) -> Outcome:
        """The finished round's Outcome (RuleViolation before the end)."""
        return self.game.outcome(state.round)


def formable_melds(deck: Deck, loose: Sequence[int], hand: Sequence[int]) -> list[Meld]:
    """Every valid meld of loose table cards and hand cards, one per choice that changes anything: per card
    kind the lowest loose and the lowest hand card of it; each loose joker by itself (its set kind matters),
    hand jokers lowest first. Runs (colour, first, last place, per place a card or a joker), then groups
    (number, colour subset, its cards' sources, then jokers: loose jokers first, ascending ids)."""
    C, N = len(deck.colours), deck.n_numbers
    reals: dict[int, list[int]] = {}
    for src in (loose, hand):
        first: dict[int, int] = {}
        for c in sorted(src):
            if not deck.is_joker(c):
                first.setdefault(deck.kind(c), c)
        for k, c in first.items():
            reals.setdefault(k, []).append(c)
    loose_j = sorted(c for c in loose if deck.is_joker(c))
    hand_j = sorted(c for c in hand if deck.is_joker(c))
    out: list[Meld] = []

    def runs(kinds: list[int], i: int, cards: list[int], lj: tuple[int, ...], hj: int, real: bool) -> None:
        if i == len(kinds):
            if real:
                js = iter(hand_j)
                out.append(Meld("run", tuple(next(js) if c < 0 else c for c in cards)))
            return
        for c in reals.get(kinds[i], ()):
            runs(kinds, i + 1, cards + [c], lj, hj, True)
        for j in lj:
            runs(kinds, i + 1, cards + [j], tuple(x for x in lj if x != j), hj, real)
        if hj < len(hand_j):
            runs(kinds, i + 1, cards + [-1], lj, hj + 1, real)

    for col in range(C):
        for s in range(N):
            for e in range(s + MELD_MIN - 1, N):
                kinds = [col * N + v for v in range(s, e + 1)]
                if sum(k not in reals for k in kinds) > len(loose_j) + len(hand_j):
                    continue
                runs(kinds, 0, [], tuple(loose_j), 0, False)
    joker_sets = [tuple(x for b, x in enumerate(loose_j) if (m >> b) & 1) for m in range(1 << len(loose_j))]
    for v in range(N):
        options: list[list[int]] = [reals.get(col * N + v, []) for col in range(C)]
        for mask in range(1, 1 << C):
            cols = [col for col in range(C) if (mask >> col) & 1]
            if any(not options[col] for col in cols):
                continue
            picks: list[tuple[int, ...]] = [()]
            for col in cols:
                picks = [p + (c,) for p in picks for c in options[col]]
            for lj in joker_sets:
                for k in range(len(hand_j) + 1):
                    n = len(cols) + len(lj) + k
                    if n < MELD_MIN or n > C:
                        continue
                    out += [Meld("group", p + lj + tuple(hand_j[:k])) for p in picks]
    return out


def new_game(spec: RummyCardsGame, players: int) -> TurnGame:
    """The reference rules of `spec` for `players` seats behind the one Game protocol (RuleViolation for a
    player count outside spec.players)."""
    return TurnGame(Game(spec, players))
