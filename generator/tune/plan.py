"""The plan of a tune: which parameters may change, in what range, toward which targets."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel

from generator.contract import registry
from generator.engine.tunables import Space, Tunable, find
from generator.errors import KitError, OptionError, Problem, SpecError
from generator.pipeline import Run, check_kit
from generator.spec.base import Bound
from generator.spec.kit import Kit
from generator.spec.paths import read_kit_file
from generator.spec.tune import TuneSpec
from generator.spec.yamlio import MAX_SPEC_BYTES, line_of, parse_yaml

VIOLATION_WEIGHT = 1000.0
"""A candidate with any tolerance outside its bound scores worse than any candidate where all hold."""
STUDY_PREFIX = "pnpkit-tune"
SEARCH_STREAM = 1
PROOF_STREAM = 2


class TuneUsageError(OptionError):
    """The command line's own options are wrong (the CLI exits 2)."""


# ---------------------------------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class Target:
    """Pull every tolerance under `spec_key` towards `value`."""

    tolerance: str
    value: float

    @property
    def spec_key(self) -> str:
        return f"game.balance.{self.tolerance}"


@dataclass
class Plan:
    """What one tune does: the kit, its raw game section, the search space, targets, budgets and seeds."""

    kit: Kit
    raw_game: dict[str, Any]
    space: list[Space]
    targets: list[Target]
    settings: TuneSpec
    trials: int
    seed: int
    original: dict[str, Any]

    @property
    def search_seed(self) -> int:
        return stream_seed(self.seed, SEARCH_STREAM)

    @property
    def proof_seeds(self) -> list[int]:
        """The proof streams, none the search used: the run seed itself first (so `pnpkit check --seed S`, or
        a plain `pnpkit check` when S is the kit's seed, repeats the proof exactly), then derived ones."""
        return [self.seed] + [
            stream_seed(self.seed, PROOF_STREAM + i) for i in range(self.settings.proofs - 1)
        ]

    def study_name(self) -> str:
        """One study per kit, space, targets, budget and seed: a storage may hold several tunes."""
        key = json.dumps(
            [
                self.kit.meta.id,
                [_space_json(s) for s in self.space],
                [[t.tolerance, t.value] for t in self.targets],
                self.settings.games,
                self.seed,
            ],
            sort_keys=True,
            default=str,
        )
        return f"{STUDY_PREFIX}:{self.kit.meta.id}:{hashlib.sha256(key.encode()).hexdigest()[:12]}"


def stream_seed(seed: int, stream: int) -> int:
    """An independent seed for one use of the run seed (search, proof): never the run seed itself."""
    state = np.random.SeedSequence([seed, 0x70756E65, stream]).generate_state(2, np.uint32)
    return int((int(state[0]) << 31) ^ int(state[1]))


def _space_json(s: Space) -> list[Any]:
    return [s.path, s.kind, s.low, s.high, list(s.choices)]


def get_path(data: Any, keys: Sequence[str]) -> Any:
    """data[k1][k2]... (KeyError when missing)."""
    node = data
    for k in keys:
        if not isinstance(node, dict) or k not in node:
            raise KeyError(".".join(keys))
        node = node[k]
    return node


def set_path(data: dict[str, Any], keys: Sequence[str], value: Any) -> None:
    node = data
    for k in keys[:-1]:
        node = node.setdefault(k, {})
    node[keys[-1]] = value


def parse_param(text: str) -> tuple[str, float | None, float | None, tuple[Any, ...] | None]:
    """`path=lo..hi`, `path=choice:a,b` or `path=permutation` -> (path, lo, hi, choices)."""
    path, eq, rng = text.partition("=")
    path, rng = path.strip(), rng.strip()
    if not eq or not path or not rng:
        raise TuneUsageError(
            f"--param: expected path=lo..hi, path=choice:a,b or path=permutation; got {text!r}"
        )
    if rng.startswith("choice:"):
        items = tuple(_scalar(x.strip()) for x in rng[len("choice:") :].split(",") if x.strip())
        if len(items) < 2:
            raise TuneUsageError(f"--param {path}: a choice needs at least two values; got {rng!r}")
        return path, None, None, items
    if rng == "permutation":
        return path, None, None, None
    lo, dots, hi = rng.partition("..")
    try:
        if not dots:
            raise ValueError
        a, b = float(lo), float(hi)
    except ValueError:
        raise TuneUsageError(f"--param {path}: expected a range lo..hi such as 8..20; got {rng!r}") from None
    if a > b:
        raise TuneUsageError(f"--param {path}: the range {rng} is empty (lo > hi)")
    return path, a, b, None


def _scalar(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text, text)


def _space_for(
    t: Tunable,
    lo: float | None,
    hi: float | None,
    choices: tuple[Any, ...] | None,
    original: Any,
    where: Callable[[str], Exception],
    kit_name: str,
) -> Space:
    """The search range of one tunable, refused (by `where(message)`) when it leaves the legal range."""
    if t.kind in ("int", "float"):
        if choices is not None:
            raise where(f"{t.path} is {t.describe()}: give a range lo..hi, not choices")
        assert t.low is not None and t.high is not None
        lo = float(t.low if lo is None else lo)
        hi = float(t.high if hi is None else hi)
        if lo < t.low or hi > t.high:
            raise where(
                f"{t.path}: range {fmt_number(lo)}..{fmt_number(hi)} leaves the legal range: {t.describe()}"
            )
        if t.kind == "int" and (lo != int(lo) or hi != int(hi)):
            raise where(
                f"{t.path}: expected whole numbers for {t.describe()}; got {fmt_number(lo)}..{fmt_number(hi)}"
            )
        if lo > hi:
            raise where(f"{t.path}: the range {fmt_number(lo)}..{fmt_number(hi)} is empty (min > max)")
        return Space(t, lo, hi)
    if t.kind == "choice":
        if lo is not None or hi is not None:
            raise where(f"{t.path} is {t.describe()}: give choices, not a range")
        picked = t.choices if choices is None else choices
        bad = [c for c in picked if c not in t.choices]
        if bad:
            raise where(f"{t.path}: {', '.join(map(str, bad))} is not legal here: expected {t.describe()}")
        return Space(t, choices=tuple(picked))
    if lo is not None or hi is not None or choices is not None:
        raise where(f"{t.path} is a reordering of the kit's list: give no range or choices")
    if not isinstance(original, list) or len(original) < 2:
        raise where(f"{t.path}: expected a list of at least two items in {kit_name} to reorder")
    return Space(t)


def fmt_number(x: float) -> str:
    """A number as written in a range: integers without a point."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def tunables_of(kit: Kit) -> tuple[Tunable, ...]:
    """The tunables the kit's game declares (none: an empty tuple)."""
    plugin = registry.get(kit.game_id)
    return tuple(plugin.load.tunables())


def make_plan(
    run: Run,
    *,
    params: Sequence[str] = (),
    targets: Sequence[str] = (),
    trials: int | None = None,
) -> Plan:
    """The plan of a run's one loaded kit (`load_run`), checked, at the run's seed: the search space from
    `--param` (usage errors) or its `tune:` section (spec errors located in kit.yaml)."""
    if len(run.kits) != 1:
        raise TuneUsageError(f"tune takes one kit; got {len(run.kits)}")
    (kit,) = run.kits
    problems = check_kit(kit)
    if problems:
        raise SpecError(problems)
    raw, lines = parse_yaml(
        read_kit_file(kit.dir / "kit.yaml", kit.display, MAX_SPEC_BYTES, "kit.yaml"), kit.display
    )
    raw_game = copy.deepcopy(dict(raw["game"]))
    settings = TuneSpec.model_validate(raw.get("tune") or {})
    declared = tunables_of(kit)
    if not declared:
        raise KitError(
            f"{kit.display}: game {kit.game_id!r} declares no tunable parameters (a data kit's balance is "
            "its cards' counts: `pnpkit check` names the changes of the count column that make a failing "
            "draw check hold)"
        )
    where = _Where(kit, lines, declared)
    space = _search_space(where, raw_game, params, settings)
    goal = _targets(where, targets, settings)
    n = settings.trials if trials is None else trials
    if n < 1:
        raise TuneUsageError(f"--trials: expected a number >= 1; got {n}")
    original = {s.path: _original(raw_game, s.tunable) for s in space}
    return Plan(kit, raw_game, space, goal, settings, n, run.seed_for(kit), original)


@dataclass(frozen=True)
class _Where:
    """Where a tune's parameters and targets come from, to word their errors: a --param or --target is a
    usage error, a `tune:` entry a spec error located at its kit.yaml line."""

    kit: Kit
    lines: Any
    declared: tuple[Tunable, ...]

    def usage(self, msg: str) -> Exception:
        """A bad --param."""
        return TuneUsageError(f"--param {msg}")

    def located(self, key: tuple[str | int, ...]) -> Callable[[str], Exception]:
        """Problems of the kit.yaml entry at `key`."""

        def make(msg: str) -> Exception:
            where = Problem(self.kit.display, line_of(self.lines, key), ".".join(map(str, key)), msg)
            return SpecError([where])

        return make

    def unknown(self, path: str) -> str:
        """The message for a path the game does not declare tunable."""
        tunable = ", ".join(t.path for t in self.declared)
        return f"{path!r} is not tunable in {self.kit.game_id}; tunable: {tunable}"


def _search_space(
    where: _Where, raw_game: dict[str, Any], params: Sequence[str], settings: TuneSpec
) -> list[Space]:
    """The search space: from --param when given (usage errors), else from tune.params (located errors)."""
    kit, declared = where.kit, where.declared
    space: list[Space] = []
    for text in params:
        path, lo, hi, choices = parse_param(text)
        t = find(declared, path)
        if t is None:
            raise TuneUsageError(f"--param {where.unknown(path)}")
        space.append(_space_for(t, lo, hi, choices, _original(raw_game, t), where.usage, kit.display))
    for i, p in enumerate(settings.params if not params else ()):
        key: tuple[str | int, ...] = ("tune", "params", i)
        t = find(declared, p.path)
        if t is None:
            raise where.located(key + ("path",))(where.unknown(p.path))
        choices = tuple(p.choices) if p.choices is not None else None
        lo = None if p.min is None else float(p.min)
        hi = None if p.max is None else float(p.max)
        space.append(_space_for(t, lo, hi, choices, _original(raw_game, t), where.located(key), kit.display))
    if not space:
        raise TuneUsageError(
            "nothing to tune: pass --param path=lo..hi (or list tune.params in kit.yaml); "
            "tunable: " + ", ".join(t.path for t in declared)
        )
    paths = [s.path for s in space]
    if len(set(paths)) != len(paths):
        twice = ", ".join(sorted({p for p in paths if paths.count(p) > 1}))
        raise TuneUsageError(f"--param: a path is given twice: {twice}")
    return space


def _targets(where: _Where, targets: Sequence[str], settings: TuneSpec) -> list[Target]:
    """The values to aim at: from --target when given (usage errors), else from tune.targets (located)."""
    balance = where.kit.game.balance
    expected = f"expected one of {', '.join(tolerance_names(balance))}"
    goal: list[Target] = []
    for text in targets:
        name, eq, val = text.partition("=")
        try:
            value = float(val)
        except ValueError:
            raise TuneUsageError(
                f"--target: expected tolerance=value such as seat_win_share=1; got {text!r}"
            ) from None
        if not eq or not _is_tolerance(balance, name.strip()):
            raise TuneUsageError(f"--target {name.strip()!r} names no tolerance of game.balance; {expected}")
        goal.append(Target(name.strip(), value))
    for i, tg in enumerate(settings.targets if not targets else ()):
        if not _is_tolerance(balance, tg.tolerance):
            raise where.located(("tune", "targets", i, "tolerance"))(
                f"{tg.tolerance!r} names no tolerance of game.balance; {expected}"
            )
        goal.append(Target(tg.tolerance, float(tg.value)))
    return goal


def _original(raw_game: dict[str, Any], t: Tunable) -> Any:
    try:
        return copy.deepcopy(get_path(raw_game, t.keys[1:]))
    except KeyError:
        raise KitError(f"{t.path} is not set in the kit; set it in kit.yaml before tuning it") from None


def tolerance_names(balance: Any, prefix: str = "") -> list[str]:
    """The dotted names of every bound (a `Bound`: min and max) under a balance section."""
    out: list[str] = []
    for name in type(balance).model_fields:
        v = getattr(balance, name)
        if isinstance(v, Bound):
            out.append(prefix + name)
        elif isinstance(v, BaseModel):
            out.extend(tolerance_names(v, f"{prefix}{name}."))
    return out


def _is_tolerance(balance: Any, name: str) -> bool:
    return name in tolerance_names(balance)
