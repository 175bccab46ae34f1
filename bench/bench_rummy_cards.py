"""Bench: solver calls/second on realistic hands, self-play rounds/second (compiled vs pure baseline, 1 vs 2
workers) and the wall time of a full check (2,000 rounds per player count 2-4)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.engine.executors import ProcessExecutor, SerialExecutor  # noqa: E402
from generator.games.rummy_cards import balance_report  # noqa: E402
from generator.games.rummy_cards.sim import simulation_from_spec  # noqa: E402
from generator.games.rummy_cards.solver import CAP, new_workspace, solve_counts  # noqa: E402
from generator.spec.games.rummy_cards import RummyCardsGame  # noqa: E402
from tests.games.rummy_cards.fixtures import SPEC  # noqa: E402


def main() -> None:
    spec = RummyCardsGame.model_validate(SPEC)
    C, N = 4, 13
    ws = new_workspace(C, N, CAP)
    dec = np.zeros(N * (C + 1), np.int64)
    rng = np.random.default_rng(0)
    cases = []
    for _ in range(300):
        deck = rng.permutation(np.repeat(np.arange(C * N), 2))
        cases.append((np.zeros(C * N, np.int64), np.bincount(deck[:int(rng.integers(14, 24))], minlength=C * N),
                      int(rng.integers(0, 2))))
    solve_counts(cases[0][0], cases[0][1], 0, C, N, 1, -1, dec, *ws)
    t = time.perf_counter()
    for f, h, j in cases:
        solve_counts(f, h, j, C, N, 1, -1, dec, *ws)
    dt = time.perf_counter() - t
    print(f"solver (opening, 14-23 cards, 0-1 joker): {len(cases) / dt:,.0f} calls/s")
    sim = simulation_from_spec(spec, 3)
    sim.play(np.random.SeedSequence(0), 1)
    t = time.perf_counter()
    sim.play(np.random.SeedSequence(1), 200)
    fast = 200 / (time.perf_counter() - t)
    import generator.games.rummy_cards.sim as S
    import generator.games.rummy_cards.solver as V
    saved = (S.play_round, V.solve_counts)
    print(f"self-play 3p compiled: {fast:,.1f} rounds/s per core")
    # pure-Python baseline in the same run (few rounds: it is slow)
    import subprocess, os
    code = ("import time, numpy as np; from tests.games.rummy_cards.fixtures import SPEC;"
            "from generator.spec.games.rummy_cards import RummyCardsGame as M;"
            "from generator.games.rummy_cards.sim import simulation_from_spec as f;"
            "s=f(M.model_validate(SPEC),3); t=time.perf_counter(); s.play(np.random.SeedSequence(1),2);"
            "print(2/(time.perf_counter()-t))")
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PNPKIT_PURE="1"), capture_output=True,
                         text=True, cwd=Path(__file__).resolve().parents[1], check=True).stdout
    pure = float(out.strip())
    print(f"self-play 3p pure Python baseline: {pure:,.2f} rounds/s  -> compiled/pure = {fast / pure:,.0f}x")
    del saved
    for name, ex in (("serial", SerialExecutor()), ("2 workers", ProcessExecutor(2))):
        t = time.perf_counter()
        rep = balance_report(spec, games=2000, seed=1, executor=ex)
        dt = time.perf_counter() - t
        print(f"full check 2,000 rounds x 2-4 players, {name}: {dt:.1f} s (ok={rep.ok})")
        if name == "serial":
            base = dt
    print(f"2-worker speed-up: {base / dt:.2f}x")
    for tol in rep.tolerances:
        print(("ok   " if tol.ok else "FAIL ") + tol.describe())


if __name__ == "__main__":
    main()
