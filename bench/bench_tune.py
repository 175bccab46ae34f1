"""Trials per minute of `pnpkit tune`'s search for each shipped kit, on 2 worker processes (issue 27).

Each kit's first declared tunable (or its `tune.params`) is searched for `--trials` trials at `--games` games
per setting (the proof is not timed: it is one full `pnpkit check` per candidate). The first trial pays for
loading the kernels, so the rate is distinct candidates played after it per minute (a candidate the TPE
sampler proposes again is served from memory and not counted).

    PYTHONPATH=. python3 bench/bench_tune.py --trials 6 --games 200
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from generator.engine.executors import ProcessExecutor
from generator.engine.tunables import Space
from generator.pipeline import Run, load_run, shipped_kits
from generator.tune.plan import make_plan, tunables_of
from generator.tune.search import search


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=6)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("kits", nargs="*", type=Path)
    a = ap.parse_args()
    kits = a.kits or shipped_kits()
    print(
        f"{'kit':<14} {'parameter':<32} {'trials':>6} {'played':>6} {'games':>6} {'seconds':>8} "
        f"{'trials/min':>10}"
    )
    with ProcessExecutor(a.workers) as executor:
        for kit in kits:
            params = _first_param(kit)
            if not params:  # a game that declares no tunables (the deck kind): nothing to time
                print(f"{kit.name:<14} (its game declares no tunable parameters)", flush=True)
                continue
            plan = make_plan(load_run(Run.of([kit], seed=1)), params=params, trials=a.trials)
            plan.settings = plan.settings.model_copy(update={"games": a.games})
            marks: list[float] = []
            found = search(
                plan,
                executor,
                progress=lambda done, total, what, marks=marks: marks.append(time.perf_counter()),
            )
            # a repeated candidate is served from memory: count the distinct ones the search played
            played = len({json.dumps(j.values, sort_keys=True) for j in found.judged.values()})
            span = marks[-1] - marks[1] if len(marks) > 2 else float("nan")
            rate = (played - 1) / span * 60 if played > 1 and span > 0 else float("nan")
            print(
                f"{plan.kit.meta.id:<14} {plan.space[0].path:<32} {a.trials:>6} {played:>6} {a.games:>6} "
                f"{marks[-1] - marks[0]:>8.1f} {rate:>10.1f}",
                flush=True,
            )


def _first_param(kit: Path) -> list[str]:
    from generator.contract.load import load_kit

    k = load_kit(kit)
    declared = tunables_of(k)
    if not declared:
        return []
    t = declared[0]
    s = Space(t)
    if t.kind == "int":
        return [f"{t.path}={int(t.low or 0)}..{int(t.high or 0)}"]
    return [
        f"{s.path}=permutation"
        if t.kind == "permutation"
        else f"{t.path}=choice:{','.join(map(str, t.choices))}"
    ]


if __name__ == "__main__":
    main()
