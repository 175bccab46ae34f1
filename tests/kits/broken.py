"""Deliberately broken variants of the shipped kits: each must FAIL `pnpkit check` for every seed.

Each maker copies a shipped kit folder and edits ONE line of its kit.yaml (text edit, so comments and line
numbers of the rest stay), returning the new folder. Shared by the seed-sweep test and bench/seed_sweep.py."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _copy(kit: str, dest: Path) -> Path:
    out = dest / f"{kit}_broken"
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(ROOT / "layouts" / kit, out)
    return out


def _edit(path: Path, pattern: str, repl: str) -> None:
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(pattern, repl, text, count=1, flags=re.MULTILINE)
    if n != 1:
        raise ValueError(f"{path}: no line matches {pattern!r}")
    path.write_text(new, encoding="utf-8")


def ripple_rush(dest: Path) -> Path:
    """3 cards per player: a row needs one number in each of the 4 columns, so no goal row can be completed
    (every row's completion rate is 0, below goal_completion.min)."""
    out = _copy("ripple_rush", dest)
    _edit(out / "kit.yaml", r"^(  cards_per_player:) *\d+", r"\1 3")
    return out


def peak_dice(dest: Path) -> Path:
    """A miss track of 3 boxes: most games need more (miss_box_overflow far above its bound)."""
    out = _copy("peak_dice", dest)
    _edit(out / "kit.yaml", r"^(  miss_boxes:) *\d+", r"\1 3")
    return out


def rummy_cards(dest: Path) -> Path:
    """An initial meld of 150 points: players can hardly ever open, rounds run the pile dry
    (exhausted_share far above its bound, turns to the initial meld far above theirs)."""
    out = _copy("rummy_cards", dest)
    _edit(out / "kit.yaml", r"^(  initial_meld:) *\d+", r"\1 150")
    return out


def raindrops(dest: Path) -> Path:
    """Card points turned upside down (written as a refit override): the hardest cards give the fewest points,
    so points no longer follow difficulty (points_difficulty_spearman strongly negative)."""
    from generator.contract.load import load_kit
    from generator.games.raindrops.memory import generate_memory_cards

    out = _copy("raindrops", dest)
    spec = load_kit(out).game
    cards = generate_memory_cards(spec, spec.seed)
    p = spec.memory_cards.points
    flipped = {
        c.id: (p.max + p.min - (c.points - (p.cat_bonus if c.cat else 0))) + (p.cat_bonus if c.cat else 0)
        for c in cards
    }
    body = ", ".join(f"{k}: {v}" for k, v in sorted(flipped.items()))
    _edit(out / "kit.yaml", r"cat_bonus: (\d+)\}", rf"cat_bonus: \1, refit: {{{body}}}}}")
    return out


BROKEN: dict[str, Callable[[Path], Path]] = {
    "ripple_rush": ripple_rush,
    "peak_dice": peak_dice,
    "raindrops": raindrops,
    "rummy_cards": rummy_cards,
}
