"""Raindrops full-game self-play: a picklable Simulation, its tally, and the full-game balance report.

`FullGames.play(seed, games)` plays whole games (in the compiled kernel by default; the same games as the
reference rules and policies); each game gets its own 64-bit seed from the chunk's SeedSequence (the reference
path plays it from `kernel.game_rng`, a numpy Generator over the kernel's own stream), so results depend only
on (sim, games, seed).
`full_game_report` runs it per player count (greedy in every seat, then one greedy seat against random
seats) and returns tables, charts, tolerances and figures for the game's balance_report to merge.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from generator.engine.report import Bars, Headline, Histogram, Table, Tolerance, bounded
from generator.engine.runner import Tally, run
from generator.engine.sequential import Budget, as_budget
from generator.engine.stats import hist_percentiles, spearman, wilson
from generator.engine.verdict import Evidence, Extreme, Mean, Proportion, RankCorrelationOfMeans, Ratio
from generator.games.raindrops.components import BonusTile, CloudToken, MemoryCard, RaindropTile, ThunderToken
from generator.games.raindrops.policies import RandomPolicy
from generator.games.raindrops.policies_greedy import GreedyPolicy
from generator.games.raindrops.refit import CardPlay, refit_points, total_change
from generator.games.raindrops.rules import Raindrops
from generator.games.raindrops.state import Outcome, Params, State

PARTS = ("cards", "bonus", "clouds", "thunder", "incomplete")
CHUNK = 100
"""Full games per chunk: the default check's 200 games still fill two workers, and a 2,000-game run is 20
chunks, so a worker slowed by a busy machine does not hold the others up at the end of each setting."""
TRIGGERS = ("limit", "cards", "bag")


@dataclass(frozen=True)
class FullGames:
    """Whole games of `players` seats. mode "greedy": greedy everywhere; "gap": one greedy seat (game g puts
    it in seat g % players) against random seats; "random": random everywhere.

    The default is the fast path: whole chunks in the compiled full-game kernel (`kernel.play_games`, the
    same games draw for draw). `compiled=False` plays them with the policies' table-driven choices and
    `apply(trusted=True)` instead. `reference=True` plays the same games with the readable policies and every
    re-check (tests prove the three tallies identical); `pure=True` runs the kernel's game loop (on the
    Python path: the greedy search) uncompiled; PNPKIT_PURE=1 runs every kernel as plain Python."""

    params: Params
    bag: tuple[RaindropTile, ...]
    cards: tuple[MemoryCard, ...]
    bonus: tuple[BonusTile, ...]
    clouds: tuple[CloudToken, ...]
    thunder: tuple[ThunderToken, ...]
    players: int
    mode: str
    turn_limit: int
    pure: bool = False
    reference: bool = False
    compiled: bool = True

    def game(self) -> Raindrops:
        """The rules object."""
        return Raindrops(self.params, self.bag, self.cards, self.bonus, self.clouds, self.thunder)

    def play_one(
        self, game: Raindrops, seed: int, index: int, greedy: GreedyPolicy, randomp: RandomPolicy
    ) -> tuple[State, Outcome, int]:
        """One game from an integer seed; returns the final state, outcome and the greedy seat (-1: all)."""
        from generator.games.raindrops.kernel_rng import game_rng

        rng = game_rng(
            seed & 0xFFFFFFFF, seed >> 32
        )  # the kernel's stream for this seed, as a numpy Generator
        st = game.new_state(self.players, rng)
        gseat = index % self.players if self.mode == "gap" else -1
        pols = [greedy if (self.mode == "greedy" or s == gseat) else randomp for s in range(self.players)]
        while st.phase != "over" and st.turn <= self.turn_limit:
            game.apply(st, pols[st.current].choose(game, st, rng), trusted=not self.reference)
        if st.phase != "over":
            st.end_trigger = "limit"
        return st, game.outcome(st), gseat

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        """Play `games` games and tally them (per-game arrays under "games.*")."""
        if self.compiled and not self.reference:
            return self._play_compiled(seed, games)
        game = self.game()
        greedy = GreedyPolicy(game, pure=self.pure, reference=self.reference)
        randomp = RandomPolicy(reference=self.reference)
        n = self.players
        max_card = max(c.id for c in self.cards) + 1
        types = game.cloud_types
        seeds = seed.generate_state(max(1, games), dtype=np.uint64)
        t: Tally = {
            "games": np.array([games], dtype=np.int64),
            "wins": np.zeros(n, dtype=np.float64),
            "ties": np.zeros(3, dtype=np.int64),
            "parts": np.zeros(len(PARTS), dtype=np.int64),
            "card_held": np.zeros(max_card, dtype=np.int64),
            "card_done": np.zeros(max_card, dtype=np.int64),
            "card_turns": np.zeros(max_card, dtype=np.int64),
            "cloud_taken": np.zeros(len(types), dtype=np.int64),
            "greedy_wins": np.zeros(1, dtype=np.float64),
            "games.turns": np.zeros(games, dtype=np.int64),
            "games.rounds": np.zeros(games, dtype=np.int64),
            "games.trigger": np.zeros(games, dtype=np.int64),
            "games.margin": np.zeros(games, dtype=np.float64),
            "games.parts": np.zeros((games, len(PARTS)), dtype=np.int64),
            "games.clouds": np.zeros((games, len(types)), dtype=np.int64),
        }
        for g in range(games):
            st, out, gseat = self.play_one(game, int(seeds[g]), g, greedy, randomp)
            share = 1.0 / len(out.winners)
            for w in out.winners:
                t["wins"][w] += share
            t["ties"][("total", "cards", "shared").index(out.tie_break)] += 1
            for s in out.parts:
                t["games.parts"][g] += np.array(
                    [s.cards, s.bonus, s.clouds, s.thunder, s.incomplete], dtype=np.int64
                )
            t["parts"] += t["games.parts"][g]
            for ps in st.players:
                for c, k in zip(ps.completed, ps.completed_after, strict=True):
                    t["card_held"][c] += 1
                    t["card_done"][c] += 1
                    t["card_turns"][c] += k
                for h in ps.held:
                    t["card_held"][h.card] += 1
                    t["card_turns"][h.card] += ps.turns - h.since
                for tok in ps.clouds:
                    t["cloud_taken"][types.index(game.clouds[tok].type)] += 1
                    t["games.clouds"][g, types.index(game.clouds[tok].type)] += 1
            t["games.turns"][g] = st.turn
            t["games.rounds"][g] = max(p.turns for p in st.players)
            t["games.trigger"][g] = TRIGGERS.index(st.end_trigger or "limit")
            if gseat >= 0:
                if gseat in out.winners:
                    t["greedy_wins"][0] += share
                others = [out.scores[s] for s in range(n) if s != gseat]
                t["games.margin"][g] = out.scores[gseat] - sum(others) / max(1, len(others))
        return t

    def _play_compiled(self, seed: np.random.SeedSequence, games: int) -> Tally:
        """`play` by the compiled kernel: the same per-game seeds, the same games, the same tally."""
        from generator.games.raindrops import kernel as K
        from generator.games.raindrops import kernel_tables

        tb = kernel_tables.tables_for(
            self.params, self.bag, self.cards, self.bonus, self.clouds, self.thunder
        )
        n = self.players
        seeds = seed.generate_state(max(1, games), dtype=np.uint64)[:games]
        lo = (seeds & np.uint64(0xFFFFFFFF)).astype(np.int64)
        hi = (seeds >> np.uint64(32)).astype(np.int64)
        max_card = max(c.id for c in self.cards) + 1
        t: Tally = {
            "games": np.array([games], dtype=np.int64),
            "wins": np.zeros(n, dtype=np.float64),
            "ties": np.zeros(3, dtype=np.int64),
            "card_held": np.zeros(max_card, dtype=np.int64),
            "card_done": np.zeros(max_card, dtype=np.int64),
            "card_turns": np.zeros(max_card, dtype=np.int64),
            "greedy_wins": np.zeros(1, dtype=np.float64),
            "games.turns": np.zeros(games, dtype=np.int64),
            "games.rounds": np.zeros(games, dtype=np.int64),
            "games.trigger": np.zeros(games, dtype=np.int64),
            "games.margin": np.zeros(games, dtype=np.float64),
            "games.parts": np.zeros((games, len(PARTS)), dtype=np.int64),
            "games.clouds": np.zeros((games, len(tb.cstack_n) if len(self.clouds) else 0), dtype=np.int64),
        }
        cloud = t["games.clouds"] if len(self.clouds) else np.zeros((games, 1), dtype=np.int64)
        K.play_games(
            lo,
            hi,
            n,
            self.turn_limit,
            kernel_tables.MODES[self.mode],
            tb,
            kernel_tables.Tallies(
                t["wins"],
                t["ties"],
                t["games.parts"],
                t["card_held"],
                t["card_done"],
                t["card_turns"],
                cloud,
                t["games.turns"],
                t["games.rounds"],
                t["games.trigger"],
                t["greedy_wins"],
                t["games.margin"],
            ),
            pure=self.pure,
        )
        t["parts"] = t["games.parts"].sum(axis=0)
        t["cloud_taken"] = t["games.clouds"].sum(axis=0)
        return t


def simulation(
    spec: Any, cards: Sequence[MemoryCard], players: int, mode: str, *, pure: bool = False
) -> FullGames:
    """A FullGames job from a validated RaindropsGame (its `balance.play` section) and its cards."""
    from generator.games.raindrops import components as comp

    return FullGames(
        Params.from_spec(spec),
        comp.build_bag(spec),
        tuple(cards),
        comp.build_bonus_tiles(spec),
        comp.build_cloud_tokens(spec),
        comp.build_thunder_tokens(spec),
        players,
        mode,
        spec.balance.play.turn_limit,
        pure,
    )


def _tol(name: str, evidence: Evidence, bound: Any, key: str, *settings: str) -> Tolerance:
    return bounded(name, evidence, bound, f"game.balance.play.{key}", settings)


def summarise(t: Tally, players: int) -> dict[str, Any]:
    """Figures of one greedy self-play tally (JSON-able)."""
    games = int(t["games"][0])
    seats = []
    for s in range(players):
        p, lo, hi = wilson(float(t["wins"][s]), games)
        seats.append({"seat": s + 1, "share": p, "low": lo, "high": hi})
    turns = t["games.turns"]
    rounds = t["games.rounds"]
    trig = np.bincount(t["games.trigger"], minlength=3)
    parts = t["parts"].astype(float)
    total = parts.sum()
    rhist = np.bincount(rounds)
    p10, p50, p90 = hist_percentiles(rhist, [10, 50, 90])
    return {
        "games": games,
        "seats": seats,
        "seat_advantage": max(abs(x["share"] - 1.0 / players) for x in seats) if games else float("nan"),
        "rounds_mean": float(rounds.mean()) if games else float("nan"),
        "rounds_p10_p50_p90": [p10, p50, p90],
        "turns_mean": float(turns.mean()) if games else float("nan"),
        "trigger": {name: int(trig[i]) for i, name in enumerate(TRIGGERS)},
        "cards_trigger_share": float(trig[1] / games) if games else float("nan"),
        "limit_share": float(trig[0] / games) if games else float("nan"),
        "parts": {name: float(parts[i] / total) if total else float("nan") for i, name in enumerate(PARTS)},
        "mean_score": float(total / (games * players)) if games else float("nan"),
        "tie_break": {name: int(t["ties"][i]) for i, name in enumerate(("total", "cards", "shared"))},
    }


def full_game_report(
    spec: Any,
    cards: Sequence[MemoryCard],
    *,
    games: int | Budget,
    seed: int,
    executor: Any,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[Table], list[Histogram | Bars], list[Tolerance], dict[str, Any]]:
    """Full-game balance for every player count of `game.rules.players`: seat win shares (95% intervals),
    length, end trigger, score parts, greedy-versus-random gap, card completion and speed, cloud take rates,
    and the refit proposal. Games per player count and mode (greedy, gap) from the budget, at most
    `balance.play.games`."""
    bal = spec.balance.play
    budget = as_budget(games)
    headline: dict[str, Headline] = {}
    tables: list[Table] = []
    charts: list[Histogram | Bars] = []
    tols: list[Tolerance] = []
    figures: dict[str, Any] = {"players": {}}
    card_tally: dict[str, np.ndarray] = {}
    cloud_rates: dict[str, float] = {}
    types: tuple[str, ...] = ()
    for n in spec.rules.players:
        if n < 2:
            continue
        sim = simulation(spec, cards, n, "greedy")
        types = sim.game().cloud_types
        like, mixed = f"{n}p greedy", f"{n}p greedy vs random"
        n_games = budget(like, cap=bal.games)
        t = run(sim, n_games, seed + 1000 * n, executor, chunk_size=CHUNK, progress=progress)
        gap_games = budget(mixed, cap=bal.games)
        gap = run(
            simulation(spec, cards, n, "gap"),
            gap_games,
            seed + 1000 * n + 1,
            executor,
            chunk_size=CHUNK,
            progress=progress,
        )
        f = _player_figures(t, gap, n, n_games, gap_games, types)
        headline[str(n)] = Headline(
            policy="greedy",
            score_mean=f["mean_score"],
            seat_shares=[x["share"] for x in f["seats"]],
            game_length=f["rounds_mean"],
            length_unit="rounds",
        )
        for ty, r in f["cloud_take_rates"].items():
            cloud_rates[ty] = cloud_rates.get(ty, 0.0) + r / len(spec.rules.players)
        figures["players"][str(n)] = f
        for key in ("card_held", "card_done", "card_turns"):
            card_tally[key] = t[key] if key not in card_tally else card_tally[key] + t[key]
        tables.append(_seat_table(n, n_games, f))
        charts += _player_charts(n, t, f)
        tols += _player_tolerances(bal, n, t, n_games, gap, gap_games, types, like, mixed)
    tables.append(_summary_table(figures["players"]))
    if types:
        tables.append(_cloud_table(types, figures["players"]))
    if card_tally:
        stats = {
            c.id: CardPlay(
                int(card_tally["card_held"][c.id]),
                int(card_tally["card_done"][c.id]),
                float(card_tally["card_turns"][c.id]),
            )
            for c in cards
        }
        tables.append(_card_table(cards, stats))
        _card_figures(cards, stats, figures)
        figures["cloud_take_rates"] = cloud_rates
        figures["refit"]["note"] = (
            "fitted on these games: its spearman_after is in-sample and is no verdict; "
            "after --refit, a check judges the new points on fresh games (the check "
            "never reuses the games a refit was fitted on when run with another seed)"
        )
        tols.append(_card_speed_tolerance(spec, bal, cards, stats))
    figures["headline"] = headline
    return tables, charts, tols, figures


def _player_figures(
    t: Tally, gap: Tally, n: int, n_games: int, gap_games: int, types: tuple[str, ...]
) -> dict[str, Any]:
    """The figures of one player count: `summarise`, the greedy-versus-random gap and cloud take rates."""
    f = summarise(t, n)
    gp, glo, ghi = wilson(float(gap["greedy_wins"][0]), gap_games)
    f["greedy_vs_random"] = {
        "share": gp,
        "low": glo,
        "high": ghi,
        "fair": 1.0 / n,
        "games": gap_games,
        "mean_margin": float(gap["games.margin"].mean()) if gap_games else float("nan"),
    }
    f["cloud_take_rates"] = {ty: float(t["cloud_taken"][i]) / (n_games * n) for i, ty in enumerate(types)}
    return f


def _seat_table(n: int, n_games: int, f: dict[str, Any]) -> Table:
    """Win share by seat with its 95% interval, for one player count."""
    return Table(
        f"Full games, {n} players, greedy in every seat ({n_games} games)",
        ["seat", "win share", "95% low", "95% high"],
        [[s["seat"], round(s["share"], 4), round(s["low"], 4), round(s["high"], 4)] for s in f["seats"]],
    )


def _player_charts(n: int, t: Tally, f: dict[str, Any]) -> list[Histogram | Bars]:
    """Win share by seat and the game length, for one player count."""
    return [
        Bars(
            f"Win share by seat, {n} players",
            [f"seat {s['seat']}" for s in f["seats"]],
            [s["share"] for s in f["seats"]],
            [s["low"] for s in f["seats"]],
            [s["high"] for s in f["seats"]],
            reference=1.0 / n,
            y_label="win share",
        ),
        Histogram(
            f"Game length, {n} players",
            {"rounds": (0, [int(x) for x in np.bincount(t["games.rounds"])])},
            x_label="rounds",
        ),
    ]


def _player_tolerances(
    bal: Any,
    n: int,
    t: Tally,
    n_games: int,
    gap: Tally,
    gap_games: int,
    types: tuple[str, ...],
    like: str,
    mixed: str,
) -> list[Tolerance]:
    """The tolerances of one player count: seat advantage, length, end trigger, score parts, the
    greedy-versus-random gap and the cloud take-rate spread."""
    seats = tuple(Proportion(float(t["wins"][s]), n_games) for s in range(n))
    tols = [
        _tol(
            f"seat advantage: largest |seat win share - 1/{n}| ({n} players, like tables)",
            Extreme("max_distance", seats, 1.0 / n),
            bal.seat_advantage,
            "seat_advantage",
            like,
        ),
        _tol(f"mean rounds ({n} players)", Mean.of(t["games.rounds"]), bal.rounds, "rounds", like),
    ]
    trig = np.bincount(t["games.trigger"], minlength=3)
    tols.append(
        _tol(
            f"share ended by a 10th card ({n} players)",
            Proportion(float(trig[1]), n_games),
            bal.cards_trigger_share,
            "cards_trigger_share",
            like,
        )
    )
    tols.append(
        _tol(
            f"share stopped by the turn limit ({n} players)",
            Proportion(float(trig[0]), n_games),
            bal.limit_share,
            "limit_share",
            like,
        )
    )
    per_game_total = t["games.parts"].sum(axis=1)
    for i, name in enumerate(PARTS):
        tols.append(
            _tol(
                f"score share of {name} ({n} players)",
                Ratio.of(t["games.parts"][:, i], per_game_total),
                getattr(bal.parts, name),
                f"parts.{name}",
                like,
            )
        )
    tols.append(
        _tol(
            f"greedy win share against random ({n} players, greedy seat rotating)",
            Proportion(float(gap["greedy_wins"][0]), gap_games),
            bal.greedy_win_share,
            "greedy_win_share",
            mixed,
        )
    )
    if types:
        take = tuple(Mean.of(t["games.clouds"][:, i] / n) for i in range(len(types)))
        tols.append(
            _tol(
                f"cloud take-rate spread ({n} players)",
                Extreme("range", take),
                bal.cloud_take_spread,
                "cloud_take_spread",
                like,
            )
        )
    return tols


def _summary_table(players: dict[str, dict[str, Any]]) -> Table:
    """Length, end trigger, score parts and the greedy-versus-random gap, one row per player count."""
    summary_rows = []
    for n, f in players.items():
        summary_rows.append(
            [
                int(n),
                round(f["rounds_mean"], 2),
                f["rounds_p10_p50_p90"][1],
                round(f["cards_trigger_share"], 3),
                round(f["mean_score"], 1),
                *[round(f["parts"][p], 3) for p in PARTS],
                round(f["greedy_vs_random"]["share"], 3),
            ]
        )
    return Table(
        "Full games: length, end trigger, score parts (A-E shares), greedy vs random",
        [
            "players",
            "rounds",
            "median",
            "10th-card end",
            "mean score",
            "A cards",
            "B bonus",
            "C clouds",
            "D thunder",
            "E incomplete",
            "greedy win vs random",
        ],
        summary_rows,
    )


def _cloud_table(types: tuple[str, ...], players: dict[str, dict[str, Any]]) -> Table:
    """Cloud tokens taken per player per game, one row per player count."""
    return Table(
        "Cloud token take rates (tokens per player per game)",
        ["players", *types],
        [[int(n), *[round(f["cloud_take_rates"][ty], 4) for ty in types]] for n, f in players.items()],
    )


def _played_speed(cards: Sequence[MemoryCard], stats: dict[int, CardPlay]) -> tuple[list[int], list[float]]:
    """Points and turns held per completion of the cards held and completed in play, in id order."""
    pts, speed = [], []
    for c in sorted(cards, key=lambda c: c.id):
        tpc = stats[c.id].turns_per_completion
        if stats[c.id].held and np.isfinite(tpc):
            pts.append(c.points)
            speed.append(tpc)
    return pts, speed


def _card_table(cards: Sequence[MemoryCard], stats: dict[int, CardPlay]) -> Table:
    """Each memory card's completion rate and speed once held, over all player counts."""
    rows = []
    for c in sorted(cards, key=lambda c: c.id):
        s = stats[c.id]
        tpc = s.turns_per_completion
        rows.append(
            [
                c.id,
                c.points,
                "cat" if c.cat else (c.cloud or ""),
                s.held,
                s.completed,
                round(s.completed / s.held, 3) if s.held else None,
                round(tpc, 2) if np.isfinite(tpc) else None,
            ]
        )
    return Table(
        "Memory cards in full games (all player counts): completion and speed once held",
        [
            "card",
            "points",
            "symbol",
            "held",
            "completed",
            "completion rate",
            "turns held per completion",
        ],
        rows,
    )


def _card_figures(cards: Sequence[MemoryCard], stats: dict[int, CardPlay], figures: dict[str, Any]) -> None:
    """Per-card play, the points-speed rank correlation and the refit proposal, into `figures`."""
    pts, speed = _played_speed(cards, stats)
    rho = spearman(pts, speed)
    proposal = refit_points(cards, stats)
    figures["cards"] = {
        str(c.id): {
            "points": c.points,
            "held": stats[c.id].held,
            "completed": stats[c.id].completed,
            "turns_held": stats[c.id].turns_held,
        }
        for c in cards
    }
    figures["points_speed_spearman"] = rho
    figures["refit"] = {
        "points": {str(k): v for k, v in sorted(proposal.items())},
        "total_change": total_change(cards, proposal),
        "spearman_after": spearman(
            [
                proposal[c.id]
                for c in cards
                if stats[c.id].held and np.isfinite(stats[c.id].turns_per_completion)
            ],
            speed,
        ),
    }


def _card_speed_tolerance(
    spec: Any, bal: Any, cards: Sequence[MemoryCard], stats: dict[int, CardPlay]
) -> Tolerance:
    """The rank correlation of card points with turns per completion, on log speeds."""
    # speed = turns held / completions: log speed has standard error about 1 / sqrt(completions); a card
    # only ever completed on the turn it came (0 turns held: seen in the 2-game warm-up) has no log speed
    finite = [
        c
        for c in sorted(cards, key=lambda c: c.id)
        if stats[c.id].held
        and stats[c.id].completed
        and np.isfinite(stats[c.id].turns_per_completion)
        and stats[c.id].turns_per_completion > 0
    ]
    return _tol(
        "rank correlation of card points with turns per completion",
        RankCorrelationOfMeans(
            tuple(float(c.points) for c in finite),
            tuple(float(np.log(stats[c.id].turns_per_completion)) for c in finite),
            tuple(1.0 / float(np.sqrt(stats[c.id].completed)) for c in finite),
        ),
        bal.points_speed_spearman,
        "points_speed_spearman",
        *[f"{n}p greedy" for n in spec.rules.players if n >= 2],
    )
