"""The exact count of the draw algebra (generator/games/deck/algebra.py holds the conditions): the number of
hands that meet a condition, in integers.

The count is a dynamic program over the deck's multiset, never an enumeration of hands: the cards are cut into
classes by everything the condition reads (a field's value, a `where`'s truth, a summed value); the classes
are grouped by the values of one "primary" field (the one a `run` or `same` reads), and the groups are taken
one at a time in the run's declared order. The state holds only what the condition needs -- cards drawn so
far, capped counts per value of the other fields, capped counts of `where` cards, capped sums, and per primary
field how many of its values have reached each count (a finished group is never looked at again) -- and a
choice of x_c cards from a class of size s_c weighs C(s_c, x_c). A hand of n from N is one of C(N, n) equally
likely hands, so the probability is an exact `Fraction`. When the deck is the same for every value of a
secondary field (a suit of a standard deck), that field's counts are kept sorted: the condition cannot tell
the values apart."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from generator.games.deck.algebra import (
    GROUP_KEYS,
    HandCondition,
    Turns,
    default_order,
    number_of,
    value_text,
)

MAX_STATES = 200_000
"""States of the dynamic program past which a condition is sampled instead (the report says so)."""


@dataclass(frozen=True)
class Count:
    """Hands meeting a condition out of all hands (both exact integers)."""

    good: int
    total: int

    @property
    def value(self) -> Fraction:
        """The probability, exact."""
        return Fraction(self.good, self.total)


class NotExact(Exception):
    """The condition has no exact method here (the caller samples it and says so)."""


@dataclass(frozen=True)
class _Leaf:
    kind: str
    field: str
    lo: Fraction | None
    hi: Fraction | None
    values: int | None = None
    length: int = 0
    order: tuple[str, ...] = ()
    scope: str = "all"

    def inside(self, x: Fraction | int) -> bool:
        return (self.lo is None or x >= self.lo) and (self.hi is None or x <= self.hi)

    def count_cap(self) -> int:
        """The count past which nothing the leaf asks changes."""
        if self.hi is not None:
            return int(self.hi) + 1
        return int(self.lo) if self.lo is not None else 1


def _leaves(cond: HandCondition, hand: int, out: list[_Leaf], scope: str = "all") -> Any:
    """The tree with leaves replaced by their index in `out` (each leaf reading the cards of `scope`)."""
    kind = cond.kind()
    if kind in GROUP_KEYS:
        return (kind, [_leaves(c, hand, out, scope) for c in cond.children()])
    lo, hi = cond.range()
    if kind == "distinct" and lo is None and hi is None:
        lo = hi = Fraction(hand)
    leaf = _Leaf(
        kind,
        str(getattr(cond, kind)),
        lo,
        hi,
        cond.values,
        int(cond.length or 0),
        tuple(value_text(v) for v in cond.order or ()),
        scope,
    )
    out.append(leaf)
    return len(out) - 1


def _truth(tree: Any, facts: Sequence[bool]) -> bool:
    if isinstance(tree, int):
        return facts[tree]
    kind, parts = tree
    got = [_truth(p, facts) for p in parts]
    return all(got) if kind == "all_of" else any(got) if kind == "any_of" else not any(got)


def count_hands(
    cards: Sequence[dict[str, Any]],
    cond: HandCondition,
    hand: int,
    where: Callable[[str, dict[str, Any]], bool],
) -> Count:
    """The exact number of `hand`-card hands from `cards` (one dict per card, copies repeated) meeting `cond`,
    over C(len(cards), hand). NotExact when no exact method applies (two runs over different fields or orders,
    or more than MAX_STATES states)."""
    return _count(cards, [(cond, "all")], 0, hand, where)


def count_kept(
    cards: Sequence[dict[str, Any]],
    keep: HandCondition,
    cond: HandCondition,
    opening: int,
    later: int,
    where: Callable[[str, dict[str, Any]], bool],
) -> Count:
    """Draws of an `opening` hand and then `later` more cards where the opening hand meets `keep` and all the
    cards seen meet `cond`, over C(N, opening) C(N - opening, later): the two draws counted together,
    exactly."""
    return _count(cards, [(keep, "open"), (cond, "all")], opening, opening + later, where)


def with_mulligans(
    cards: Sequence[dict[str, Any]],
    cond: HandCondition,
    turns: Turns,
    where: Callable[[str, dict[str, Any]], bool],
) -> Fraction:
    """P(the cards seen by the turn meet `cond`) under the turns' mulligan rule, exactly: each try m is
    reached when every earlier opening hand failed `keep`; a try before the last ends the mulligans when its
    opening hand meets `keep` (counted with the later draws in one dynamic program), the last is kept whatever
    it holds."""
    later = turns.later()
    sizes = turns.sizes()
    if turns.mulligan is None:
        return count_hands(cards, cond, turns.seen(), where).value
    keep = turns.mulligan.keep
    reach = Fraction(1)
    out = Fraction(0)
    for m, size in enumerate(sizes):
        if m == len(sizes) - 1:
            out += reach * count_hands(cards, cond, size + later, where).value
            break
        out += reach * count_kept(cards, keep, cond, size, later, where).value
        reach *= 1 - count_hands(cards, keep, size, where).value
    return out


@dataclass
class _Plan:
    """What the dynamic programme of one count tracks: the leaves of the conditions, the primary field (whose
    values are the groups the cards are taken in), and per tracked (scope, field) of the other leaves -- same
    / distinct (q), where (w) and sum (s) -- its cap and where a card's class holds its value."""

    opening: int
    hand: int
    leaves: list[_Leaf]
    trees: list[Any]
    primary: str | None
    q_keys: list[tuple[str, str]]
    q_values: dict[str, list[str]]
    q_fields: list[str]
    w_keys: list[tuple[str, str]]
    w_exprs: list[str]
    s_keys: list[tuple[str, str]]
    s_fields: list[str]
    q_cap: list[int]
    w_cap: list[int]
    s_cap: list[Fraction | None]
    p_leaves: list[int]
    p_caps: dict[int, int]

    @cached_property
    def q_index(self) -> dict[str, dict[str, int]]:
        """Per secondary field, each value's index in `q_values`."""
        return {f: {v: i for i, v in enumerate(vs)} for f, vs in self.q_values.items()}

    def empty(self) -> tuple[Any, ...]:
        """The q, w and s parts of a state before any card is taken."""
        return (
            tuple((0,) * len(self.q_values[f]) for _, f in self.q_keys),
            (0,) * len(self.w_keys),
            (Fraction(0),) * len(self.s_keys),
        )

    def card_class(
        self, card: dict[str, Any], where: Callable[[str, dict[str, Any]], bool]
    ) -> tuple[Any, ...]:
        """A card's class: (primary value, secondary value indices, where truths, summed values)."""
        return (
            value_text(card.get(self.primary)) if self.primary else "",
            tuple(self.q_index[f][value_text(card.get(f))] for f in self.q_fields),
            tuple(where(w, card) for w in self.w_exprs),
            tuple(number_of(card.get(f)) for f in self.s_fields),
        )


def _plan(
    cards: Sequence[dict[str, Any]], conds: list[tuple[HandCondition, str]], opening: int, hand: int
) -> _Plan:
    """The leaves of `conds` and what the count must track of them (NotExact for runs that disagree)."""
    leaves: list[_Leaf] = []
    trees = [_leaves(c, opening if scope == "open" else hand, leaves, scope) for c, scope in conds]
    runs = [lf for lf in leaves if lf.kind == "run"]
    if len({(lf.field, lf.order) for lf in runs}) > 1:
        raise NotExact("runs over different fields or orders")
    grouped = [lf.field for lf in leaves if lf.kind in ("same", "distinct", "run")]
    primary: str | None = None
    if runs:
        primary = runs[0].field
    elif grouped:
        primary = max(sorted(set(grouped)), key=lambda f: len({value_text(c.get(f)) for c in cards}))
    size_of = {"open": opening, "all": hand}
    q_keys = sorted(
        {(lf.scope, lf.field) for lf in leaves if lf.kind in ("same", "distinct") and lf.field != primary}
    )
    w_keys = sorted({(lf.scope, lf.field) for lf in leaves if lf.kind == "where"})
    s_keys = sorted({(lf.scope, lf.field) for lf in leaves if lf.kind == "sum"})
    q_fields = sorted({f for _, f in q_keys})

    def cap(key: tuple[str, str], kinds: tuple[str, ...]) -> int:
        return min(
            size_of[key[0]],
            max(lf.count_cap() for lf in leaves if (lf.scope, lf.field) == key and lf.kind in kinds),
        )

    p_leaves = [
        i for i, lf in enumerate(leaves) if lf.field == primary and lf.kind in ("same", "distinct", "run")
    ]
    return _Plan(
        opening,
        hand,
        leaves,
        trees,
        primary,
        q_keys,
        {f: sorted({value_text(c.get(f)) for c in cards}) for f in q_fields},
        q_fields,
        w_keys,
        sorted({f for _, f in w_keys}),
        s_keys,
        sorted({f for _, f in s_keys}),
        [cap(k, ("same", "distinct")) for k in q_keys],
        [cap(k, ("where",)) for k in w_keys],
        [_sum_cap(cards, leaves, k) for k in s_keys],
        p_leaves,
        {
            i: (int(leaves[i].values or 0) + 1 if leaves[i].values is not None else 1)
            if leaves[i].kind == "same"
            else leaves[i].count_cap()
            for i in p_leaves
            if leaves[i].kind != "run"
        },
    )


def _sum_cap(cards: Sequence[dict[str, Any]], leaves: list[_Leaf], key: tuple[str, str]) -> Fraction | None:
    """The sum past which nothing a sum leaf of `key` asks changes (None: a negative value can bring it
    back)."""
    if min((number_of(c.get(key[1])) for c in cards), default=Fraction(0)) < 0:
        return None
    ends = [lf for lf in leaves if lf.kind == "sum" and (lf.scope, lf.field) == key]
    return max((lf.hi + 1 if lf.hi is not None else (lf.lo or Fraction(0))) for lf in ends)


def _group_moves(plan: _Plan, members: list[tuple[tuple[Any, ...], int]]) -> dict[tuple[Any, ...], int]:
    """(opening cards, all cards, q counts added, where counts added, sums added) -> ways, for one group."""
    q_of = [plan.q_fields.index(f) for _, f in plan.q_keys]
    w_of = [plan.w_exprs.index(f) for _, f in plan.w_keys]
    s_of = [plan.s_fields.index(f) for _, f in plan.s_keys]
    q_open = [scope == "open" for scope, _ in plan.q_keys]
    w_open = [scope == "open" for scope, _ in plan.w_keys]
    s_open = [scope == "open" for scope, _ in plan.s_keys]
    opening, hand = plan.opening, plan.hand
    moves: dict[tuple[Any, ...], int] = {(0, 0, *plan.empty()): 1}
    for (_, qs, ws, ss), size in members:
        nxt: dict[tuple[Any, ...], int] = {}
        for (xo, xa, qd, wd, sd), ways in moves.items():
            for ko in range(0, min(size, opening - xo) + 1):
                for kl in range(0, min(size - ko, hand - opening - (xa - xo)) + 1):
                    ka = ko + kl
                    q2 = tuple(
                        tuple(
                            min(plan.q_cap[i], n + ((ko if q_open[i] else ka) if j == qs[q_of[i]] else 0))
                            for j, n in enumerate(qd[i])
                        )
                        for i in range(len(plan.q_keys))
                    )
                    w2 = tuple(
                        min(plan.w_cap[i], wd[i] + ((ko if w_open[i] else ka) if ws[w_of[i]] else 0))
                        for i in range(len(plan.w_keys))
                    )
                    s2 = tuple(
                        sd[i] + (ko if s_open[i] else ka) * ss[s_of[i]] for i in range(len(plan.s_keys))
                    )
                    key = (xo + ko, xa + ka, q2, w2, s2)
                    nxt[key] = nxt.get(key, 0) + ways * math.comb(size, ko) * math.comb(size - ko, kl)
        moves = nxt
    return moves


@dataclass
class _Walk:
    """The run the primary field is walked along and the memos of one count's steps."""

    recurring: list[str]
    walks: dict[str, list[str | int]]
    symmetric: bool
    q_memo: dict[tuple[Any, Any], Any]
    p_memo: dict[tuple[Any, int, int, str], Any]


def _advance(
    plan: _Plan,
    walk: _Walk,
    states: dict[tuple[Any, ...], int],
    value: str,
    moves: dict[tuple[Any, ...], int],
    rest: int,
) -> dict[tuple[Any, ...], int]:
    """The states after one group (the cards of one primary value) is taken, `rest` cards left after it."""
    nxt: dict[tuple[Any, ...], int] = {}
    for (do, da, qv, wv, sv, pv), ways in states.items():
        for (xo, xa, qd, wd, sd), mw in moves.items():
            o2, a2 = do + xo, da + xa
            if o2 > plan.opening or a2 > plan.hand or a2 + rest < plan.hand:
                continue
            q2 = walk.q_memo.get((qv, qd))
            if q2 is None:
                q2 = tuple(
                    tuple(min(plan.q_cap[i], a + b) for a, b in zip(qv[i], qd[i], strict=True))
                    for i in range(len(plan.q_keys))
                )
                if walk.symmetric:  # the values are interchangeable: sort them (jointly over the scopes)
                    q2 = tuple(zip(*sorted(zip(*q2, strict=True)), strict=True)) if q2 and q2[0] else q2
                walk.q_memo[(qv, qd)] = q2
            w2 = (
                tuple(min(plan.w_cap[i], a + b) for i, (a, b) in enumerate(zip(wv, wd, strict=True)))
                if plan.w_keys
                else wv
            )
            s2 = (
                tuple(_cap_sum(a + b, plan.s_cap[i]) for i, (a, b) in enumerate(zip(sv, sd, strict=True)))
                if plan.s_keys
                else sv
            )
            p2 = walk.p_memo.get((pv, xo, xa, value))
            if p2 is None:
                p2 = tuple(
                    _step(
                        plan.leaves[i],
                        plan.p_caps.get(i, 0),
                        st,
                        xo if plan.leaves[i].scope == "open" else xa,
                        walk.walks.get(value, []),
                        walk.recurring,
                        value,
                    )
                    for i, st in zip(plan.p_leaves, pv, strict=True)
                )
                walk.p_memo[(pv, xo, xa, value)] = p2
            nxt[(o2, a2, q2, w2, s2, p2)] = nxt.get((o2, a2, q2, w2, s2, p2), 0) + ways * mw
    return nxt


def _good(plan: _Plan, states: dict[tuple[Any, ...], int]) -> int:
    """The ways of the final states (every card drawn) whose facts meet every condition."""
    good = 0
    for (do, da, qv, wv, sv, pv), ways in states.items():
        if do != plan.opening or da != plan.hand:
            continue
        facts = [
            _fact(
                lf,
                i,
                plan.primary,
                plan.p_leaves,
                pv,
                dict(zip(plan.q_keys, qv, strict=True)),
                dict(zip(plan.w_keys, wv, strict=True)),
                dict(zip(plan.s_keys, sv, strict=True)),
            )
            for i, lf in enumerate(plan.leaves)
        ]
        if all(_truth(tree, facts) for tree in plan.trees):
            good += ways
    return good


def _count(
    cards: Sequence[dict[str, Any]],
    conds: list[tuple[HandCondition, str]],
    opening: int,
    hand: int,
    where: Callable[[str, dict[str, Any]], bool],
) -> Count:
    """Draws of `hand` cards whose first `opening` form the opening hand (0: one draw), meeting every
    condition in its scope: "open" reads the opening hand, "all" every card drawn. The cards are taken group
    by group (one value of the primary field each); a state counts what the conditions need of the cards taken
    so far."""
    total = math.comb(len(cards), opening) * math.comb(len(cards) - opening, hand - opening)
    plan = _plan(cards, conds, opening, hand)
    classes: dict[tuple[Any, ...], int] = {}
    for c in cards:
        key = plan.card_class(c, where)
        classes[key] = classes.get(key, 0) + 1
    runs = [lf for lf in plan.leaves if lf.kind == "run"]
    run = runs[0] if runs else None
    groups, seq = _groups(classes, plan.primary, run, cards)
    recurring, walks = _run_walks((run.order or tuple(seq)) if run is not None else ())
    symmetric = len(plan.q_fields) == 1 and _symmetric(groups, len(plan.q_values[plan.q_fields[0]]))
    walk = _Walk(recurring, walks, symmetric, {}, {})
    remaining = [0] * (len(groups) + 1)
    for gi in range(len(groups) - 1, -1, -1):
        remaining[gi] = remaining[gi + 1] + sum(n for _, n in groups[gi][1])
    start_p = tuple(
        ((False, 0, (False,) * len(recurring)) if plan.leaves[i].kind == "run" else 0) for i in plan.p_leaves
    )
    states: dict[tuple[Any, ...], int] = {(0, 0, *plan.empty(), start_p): 1}
    for gi, (value, members) in enumerate(groups):
        states = _advance(plan, walk, states, value, _group_moves(plan, members), remaining[gi + 1])
        if len(states) > MAX_STATES:
            raise NotExact(f"more than {MAX_STATES:,} states")
    return Count(_good(plan, states), total)


def _groups(
    classes: dict[tuple[Any, ...], int],
    primary: str | None,
    run: _Leaf | None,
    cards: Sequence[dict[str, Any]],
) -> tuple[list[tuple[str, list[tuple[tuple[Any, ...], int]]]], list[str]]:
    """The classes grouped by the primary field's value, in processing order: a run's order first (a value no
    card has is an empty group), then the rest; without a primary field every class is its own group."""
    by_value: dict[str, list[tuple[tuple[Any, ...], int]]] = {}
    for key, n in sorted(classes.items(), key=lambda kv: repr(kv[0])):
        by_value.setdefault(key[0], []).append((key, n))
    if primary is None:
        return [("", [kv]) for kv in sorted(classes.items(), key=lambda kv: repr(kv[0]))], []
    seq: list[str] = []
    for v in run.order if run and run.order else ():
        if v not in seq:
            seq.append(v)
    if run is not None and not run.order:
        seq = default_order([c.get(primary) for c in cards]) or []
        if not seq:
            raise NotExact(f"run over {primary}: its values are not numbers; give order")
    seq += [v for v in sorted(by_value) if v not in seq]
    return [(v, by_value.get(v, [])) for v in seq], seq


def _run_walks(run_order: tuple[str, ...]) -> tuple[list[str], dict[str, list[str | int]]]:
    """The values a run's order lists more than once (their presence is remembered), and per value the order
    positions walked after its group: the value itself, then the repeats that follow it."""
    recurring = sorted({v for v in run_order if run_order.count(v) > 1})
    walks: dict[str, list[str | int]] = {}
    seen: set[str] = set()
    pos = 0
    while pos < len(run_order):
        v = run_order[pos]
        steps: list[str | int] = [v]
        seen.add(v)
        pos += 1
        while pos < len(run_order) and run_order[pos] in seen:
            steps.append(recurring.index(run_order[pos]))
            pos += 1
        walks.setdefault(v, steps)
    return recurring, walks


def _fact(
    lf: _Leaf,
    i: int,
    primary: str | None,
    p_leaves: list[int],
    pv: tuple[Any, ...],
    qv: dict[tuple[str, str], tuple[int, ...]],
    wv: dict[tuple[str, str], int],
    sv: dict[tuple[str, str], Fraction],
) -> bool:
    """Whether leaf i holds in a final state."""
    at = (lf.scope, lf.field)
    if lf.kind == "where":
        return lf.inside(wv[at])
    if lf.kind == "sum":
        return lf.inside(sv[at])
    if lf.field == primary:
        st = pv[p_leaves.index(i)]
        if lf.kind == "run":
            return bool(st[0])
        if lf.kind == "same":
            return bool(st >= 1 if lf.values is None else st == lf.values)
        return lf.inside(st)
    vec = qv[at]
    if lf.kind == "same":
        n = sum(1 for c in vec if lf.inside(c))
        return n >= 1 if lf.values is None else n == lf.values
    return lf.inside(sum(1 for c in vec if c > 0))


def _cap_sum(s: Fraction, cap: Fraction | None) -> Fraction:
    return s if cap is None else min(s, cap)


def _step(
    leaf: _Leaf, cap: int, st: Any, x: int, walk_: list[str | int], recurring: list[str], value: str
) -> Any:
    """A primary-field leaf's state after its group for `value` put x cards in the hand."""
    if leaf.kind == "same":
        return min(cap, st + (1 if leaf.inside(x) else 0))
    if leaf.kind == "distinct":
        return min(cap, st + (1 if x > 0 else 0))
    found, streak, mem = st
    if found:
        return st
    mem = tuple((x > 0) if v == value else m for v, m in zip(recurring, mem, strict=True))
    for step in walk_:
        present = x > 0 if isinstance(step, str) else mem[step]
        streak = streak + 1 if present else 0
        if streak >= leaf.length:
            return (True, 0, (False,) * len(recurring))
    return (False, streak, mem)


def _symmetric(groups: list[tuple[str, list[tuple[tuple[Any, ...], int]]]], n_values: int) -> bool:
    """Every group holds, for everything else a class records, the same number of cards of each value of the
    one secondary field: its values are interchangeable and its counts may be kept sorted."""
    for _, members in groups:
        rest: dict[tuple[Any, ...], dict[int, int]] = {}
        for (_, qs, ws, ss), n in members:
            rest.setdefault((ws, ss), {})[qs[0]] = n
        for per in rest.values():
            if len(per) != n_values or len(set(per.values())) != 1:
                return False
    return True
