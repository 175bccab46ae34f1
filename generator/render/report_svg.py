"""The balance report's charts as plain shapes: histograms and interval bars laid out for the HTML template,
every number already formatted (the page itself is `html_report`'s)."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from generator.engine.report import Bars, Histogram

# Okabe & Ito, "Color Universal Design": distinguishable with every common colour-vision deficiency.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
PASS_COLOUR = "#009E73"
FAIL_COLOUR = "#D55E00"

CHART_WIDTH = 640.0
PLOT_LEFT = 52.0
PLOT_RIGHT = 16.0
PLOT_TOP = 14.0
HIST_PANEL_HEIGHT = 150.0
HIST_BOTTOM = 30.0
HIST_TOP = 28.0
BARS_HEIGHT = 230.0


# ---------------------------------------------------------------------------------------------- formatting


def _num(x: float) -> str:
    """SVG coordinates with two decimals: stable text, sub-pixel precision."""
    return f"{x:.2f}"


def numpy_types(*names: str) -> tuple[Any, ...]:
    """numpy's types `names` (e.g. 'bool_') when numpy is loaded, else none: a value can be a numpy scalar
    or array only once something imported numpy, so a report of plain values never pays for importing it."""
    np = sys.modules.get("numpy")
    return tuple(getattr(np, n) for n in names) if np is not None else ()


def fmt_value(v: Any) -> str:
    """A table cell: floats to 4 significant digits, NaN as an en dash, None as empty."""
    if v is None:
        return ""
    if isinstance(v, bool) or isinstance(v, numpy_types("bool_")):
        return "yes" if v else "no"
    if isinstance(v, float) or isinstance(v, numpy_types("floating")):
        f = float(v)
        if math.isnan(f):
            return "–"
        if math.isinf(f):
            return "∞" if f > 0 else "-∞"
        return f"{f:.4g}"
    if isinstance(v, numpy_types("integer")):
        return str(int(v))
    return str(v)


def _finite(x: float | None) -> bool:
    return x is not None and math.isfinite(x)


def _nice_step(span: float, target_ticks: int = 4) -> float:
    """A 1/2/5 x 10^k step giving about `target_ticks` intervals over `span`."""
    if span <= 0 or not math.isfinite(span):
        return 1.0
    raw = span / target_ticks
    mag = 10.0 ** math.floor(math.log10(raw))
    for m in (1.0, 2.0, 2.5, 5.0, 10.0):
        if raw <= m * mag * (1 + 1e-9):
            return m * mag
    return 10 * mag


def _ticks(lo: float, hi: float) -> tuple[float, float, list[float]]:
    """Round the axis range outwards to whole steps and list the tick values."""
    step = _nice_step(hi - lo)
    start = math.floor(lo / step + 1e-9) * step
    stop = math.ceil(hi / step - 1e-9) * step
    if stop <= start:
        stop = start + step
    n = int(round((stop - start) / step))
    return start, stop, [start + i * step for i in range(n + 1)]


def _tick_label(v: float, percent: bool) -> str:
    if percent:
        return f"{v * 100:.4g}%"
    return f"{v:.4g}"


# ------------------------------------------------------------------------------------------ chart geometry


@dataclass(frozen=True)
class _Svg:
    """A chart laid out as plain shapes for the template (every number already formatted)."""

    kind: str
    title: str
    width: str
    height: str
    panels: list[dict[str, Any]]
    legend: list[dict[str, str]]
    x_label: str
    y_label: str
    note: str


def _histogram_svg(h: Histogram) -> _Svg:
    """Small multiples: one panel per series, sharing the value range and a share-of-games scale."""
    series = [(label, int(offset), [int(c) for c in counts]) for label, (offset, counts) in h.series.items()]
    nonzero = [(off + i) for _, off, counts in series for i, c in enumerate(counts) if c > 0]
    panels: list[dict[str, Any]] = []
    if not nonzero:
        return _Svg(
            "histogram",
            h.title,
            _num(CHART_WIDTH),
            _num(40.0),
            [],
            [],
            h.x_label,
            "share of games",
            "no data",
        )
    x_min, x_max = min(nonzero), max(nonzero)
    n_values = x_max - x_min + 1
    shares_max = max(c / sum(counts) for _, _, counts in series if sum(counts) > 0 for c in counts)
    y0, y1, yticks = _ticks(0.0, shares_max)
    plot_w = CHART_WIDTH - PLOT_LEFT - PLOT_RIGHT
    plot_h = HIST_PANEL_HEIGHT - HIST_TOP - HIST_BOTTOM
    slot = plot_w / n_values
    bar_w = max(1.0, slot * 0.82)
    label_every = max(1, math.ceil(n_values / 16))
    for k, (label, off, counts) in enumerate(series):
        colour = PALETTE[k % len(PALETTE)]
        top = k * HIST_PANEL_HEIGHT
        base = top + HIST_TOP + plot_h
        total = sum(counts)
        bars = []
        for i, c in enumerate(counts):
            if c <= 0:
                continue
            value = off + i
            share = c / total
            bh = plot_h * (share - y0) / (y1 - y0)
            x = PLOT_LEFT + (value - x_min) * slot + (slot - bar_w) / 2
            bars.append(
                {
                    "x": _num(x),
                    "y": _num(base - bh),
                    "w": _num(bar_w),
                    "h": _num(bh),
                    "tip": f"{label}: value {value}: {c} of {total} games ({share * 100:.1f}%)",
                }
            )
        xticks = [
            {"x": _num(PLOT_LEFT + (v - x_min) * slot + slot / 2), "y": _num(base + 14), "text": str(v)}
            for v in range(x_min, x_max + 1)
            if (v - x_min) % label_every == 0
        ]
        yt = [{"y": _num(base - plot_h * (t - y0) / (y1 - y0)), "text": _tick_label(t, True)} for t in yticks]
        if total > 0:
            mean = sum((off + i) * c for i, c in enumerate(counts)) / total
            caption = f"{label} — {total} games, mean {mean:.3g}"
        else:
            caption = f"{label} — no games"
        panels.append(
            {
                "caption": caption,
                "caption_y": _num(top + 14),
                "colour": colour,
                "bars": bars,
                "whiskers": [],
                "xticks": xticks,
                "yticks": yt,
                "axis_y": _num(base),
                "axis_top": _num(top + HIST_TOP),
                "reference": None,
                "value_labels": [],
                "rotate": False,
            }
        )
    height = HIST_PANEL_HEIGHT * len(series) + 8
    legend = [{"colour": PALETTE[k % len(PALETTE)], "text": label} for k, (label, _, _) in enumerate(series)]
    return _Svg(
        "histogram", h.title, _num(CHART_WIDTH), _num(height), panels, legend, h.x_label, "share of games", ""
    )


def _bars_range(
    b: Bars, values: list[float], lows: list[float | None], highs: list[float | None]
) -> tuple[float, float]:
    """The value range the axis must show: zero, every finite value and interval end, the reference."""
    finite = [v for v in values if math.isfinite(v)]
    finite += [x for x in lows + highs if _finite(x)]  # type: ignore[misc]
    if _finite(b.reference):
        finite.append(float(b.reference))  # type: ignore[arg-type]
    if not finite:
        finite = [0.0, 1.0]
    lo, hi = min(0.0, min(finite)), max(0.0, max(finite))
    if hi == lo:
        hi = lo + 1.0
    return lo, hi


def _bar_shapes(
    b: Bars,
    values: list[float],
    lows: list[float | None],
    highs: list[float | None],
    y_of: Callable[[float], float],
    base: float,
) -> tuple[list[dict[str, str]], list[dict[str, str]], list[dict[str, str]], list[dict[str, str]]]:
    """The bars, their interval whiskers, their value labels and the x ticks, one slot per label."""
    n = len(b.labels)
    plot_w = CHART_WIDTH - PLOT_LEFT - PLOT_RIGHT
    slot = plot_w / max(1, n)
    bar_w = max(2.0, min(56.0, slot * 0.6))
    bars, whiskers, value_labels, xticks = [], [], [], []
    for i, (label, v) in enumerate(zip(b.labels, values, strict=False)):
        cx = PLOT_LEFT + slot * i + slot / 2
        xticks.append({"x": _num(cx), "y": _num(base + 14), "text": label})
        if not math.isfinite(v):
            value_labels.append({"x": _num(cx), "y": _num(base - 4), "text": "n/a"})
            continue
        top, bot = sorted((y_of(v), y_of(0.0)))
        interval = ""
        low, h = lows[i], highs[i]
        has_interval = _finite(low) and _finite(h)
        if has_interval:
            interval = f", 95% interval {fmt_value(low)} .. {fmt_value(h)}"
        bars.append(
            {
                "x": _num(cx - bar_w / 2),
                "y": _num(top),
                "w": _num(bar_w),
                "h": _num(bot - top),
                "tip": f"{label}: {fmt_value(v)}{interval}",
            }
        )
        label_y = y_of(max(v, h if has_interval and h is not None else v))
        if has_interval:
            assert low is not None and h is not None  # _finite rules out None
            cap = min(bar_w / 2, 8.0)
            whiskers.append(
                {
                    "x": _num(cx),
                    "y1": _num(y_of(low)),
                    "y2": _num(y_of(h)),
                    "x1": _num(cx - cap),
                    "x2": _num(cx + cap),
                }
            )
        if n <= 16:
            value_labels.append({"x": _num(cx), "y": _num(label_y - 4), "text": fmt_value(v)})
    return bars, whiskers, value_labels, xticks


def _reference_line(b: Bars, y_of: Callable[[float], float]) -> dict[str, str] | None:
    """The dashed reference line across the plot and its label, if the chart has a finite reference."""
    if not _finite(b.reference):
        return None
    ry = y_of(float(b.reference))  # type: ignore[arg-type]
    return {
        "y": _num(ry),
        "x1": _num(PLOT_LEFT),
        "x2": _num(CHART_WIDTH - PLOT_RIGHT),
        "text": f"reference {fmt_value(b.reference)}",
        "text_x": _num(CHART_WIDTH - PLOT_RIGHT),
        "text_y": _num(ry - 4),
    }


def _bars_svg(b: Bars) -> _Svg:
    """Vertical bars with 95% interval whiskers and an optional dashed reference line."""
    n = len(b.labels)
    values = [float(v) for v in b.values]
    lows = [None if b.lows is None else b.lows[i] for i in range(n)]
    highs = [None if b.highs is None else b.highs[i] for i in range(n)]
    y0, y1, yticks = _ticks(*_bars_range(b, values, lows, highs))
    rotate = n > 8 or any(len(s) > 10 for s in b.labels)
    bottom = 70.0 if rotate else 30.0
    height = BARS_HEIGHT + (bottom - 30.0)
    plot_h = BARS_HEIGHT - PLOT_TOP - 30.0
    base = PLOT_TOP + plot_h

    def y_of(v: float) -> float:
        return base - plot_h * (v - y0) / (y1 - y0)

    bars, whiskers, value_labels, xticks = _bar_shapes(b, values, lows, highs, y_of, base)
    yt = [{"y": _num(y_of(t)), "text": _tick_label(t, False)} for t in yticks]
    panel = {
        "caption": "",
        "caption_y": _num(0.0),
        "colour": PALETTE[0],
        "bars": bars,
        "whiskers": whiskers,
        "xticks": xticks,
        "yticks": yt,
        "axis_y": _num(y_of(max(y0, min(0.0, y1)))),
        "axis_top": _num(PLOT_TOP),
        "reference": _reference_line(b, y_of),
        "value_labels": value_labels,
        "rotate": rotate,
    }
    note = "whiskers: 95% interval" if whiskers else ""
    return _Svg("bars", b.title, _num(CHART_WIDTH), _num(height), [panel], [], "", b.y_label, note)


def chart_svg(c: Histogram | Bars) -> _Svg:
    """A chart of the report laid out for the template: small-multiple histograms or interval bars."""
    if isinstance(c, Histogram):
        return _histogram_svg(c)
    return _bars_svg(c)
