"""Balance reports to files: one self-contained HTML page (inline SVG charts, no scripts, no external assets)
and one JSON file with every figure. Same reports in -> same bytes out; both files are written atomically."""

from __future__ import annotations

import base64
import json
import math
import struct
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.engine.report import BalanceReport, Table, Tolerance
from generator.errors import RenderError
from generator.render.report_svg import (
    CHART_WIDTH,
    FAIL_COLOUR,
    PASS_COLOUR,
    PLOT_LEFT,
    PLOT_RIGHT,
    chart_svg,
    fmt_value,
    numpy_types,
)
from generator.resources import atomic_write

if TYPE_CHECKING:
    from generator.render.report_colours import ColourCheck, ColourView


# ---------------------------------------------------------------------------------------------- formatting


def _bound(t: Tolerance) -> str:
    """The allowed range; shares as percentages."""

    def b(v: float) -> str:
        return f"{v * 100:g}%" if is_share(t) else f"{v:g}"

    if t.minimum is not None and t.maximum is not None:
        return f"{b(t.minimum)} .. {b(t.maximum)}"
    if t.minimum is not None:
        return f"≥ {b(t.minimum)}"
    if t.maximum is not None:
        return f"≤ {b(t.maximum)}"
    return "any"


def _measured(t: Tolerance) -> str:
    """The measured value for the table: shares as percentages rounded to what the interval supports."""
    return plain_figure(t, t.measured) if is_share(t) and math.isfinite(t.measured) else fmt_value(t.measured)


def _interval(t: Tolerance) -> str:
    if t.low is None or t.high is None:
        return ""
    if is_share(t):
        return f"{plain_figure(t, t.low)} .. {plain_figure(t, t.high)}"
    return f"{fmt_value(t.low)} .. {fmt_value(t.high)}"


# ---------------------------------------------------------------------------------------------- page model

VERDICT_ORDER = {"FAILS": 0, "UNDECIDED": 1, "HOLDS": 2}
MARKS = {"FAILS": "✗ fails", "UNDECIDED": "? undecided", "HOLDS": "✓ holds"}
STATES = {"FAILS": "fail", "UNDECIDED": "undecided", "HOLDS": "pass"}


def verdict_sort_key(t: Tolerance) -> int:
    """Failed first, then undecided, then holding (stable sort keeps spec order within each group)."""
    return VERDICT_ORDER[t.verdict.value]


def _tolerance_rows(tolerances: Sequence[Tolerance]) -> list[dict[str, Any]]:
    """Failed tolerances first, then undecided ones (stable: spec order within each group)."""
    ordered = sorted(tolerances, key=verdict_sort_key)
    return [
        {
            "name": t.name,
            "measured": _measured(t),
            "interval": _interval(t),
            "bound": _bound(t),
            "spec_key": t.spec_key,
            "ok": t.ok,
            "state": STATES[t.verdict.value],
            "mark": MARKS[t.verdict.value],
            "method": t.method if t.low is not None else "exact",
            "level": f"{t.confidence * 100:.6g}%",
            "games": t.games or "",
            "sentence": t.describe(),
        }
        for t in ordered
    ]


def _table(t: Table) -> dict[str, Any]:
    numeric = [
        all(
            (isinstance(r[i], (int, float)) or isinstance(r[i], numpy_types("number")))
            and not isinstance(r[i], bool)
            for r in t.rows
            if i < len(r)
        )
        and bool(t.rows)
        for i in range(len(t.columns))
    ]
    return {
        "title": t.title,
        "columns": t.columns,
        "numeric": numeric,
        "rows": [[fmt_value(v) for v in r] for r in t.rows],
    }


def verdict_line(r: BalanceReport) -> tuple[str, str]:
    """The kit's one-line verdict and its state (pass / fail / undecided / none)."""
    failed = sum(1 for t in r.tolerances if t.failed)
    undecided = sum(1 for t in r.tolerances if not t.failed and not t.ok)
    n = len(r.tolerances)
    if not r.tolerances:
        return "no tolerances checked", "none"
    some = f"{n} tolerance" if n == 1 else f"{n} tolerances"
    if failed:
        more = f", {undecided} undecided" if undecided else ""
        return f"{failed} of {some} failed{more}", "fail"
    if undecided:
        return f"{undecided} of {some} undecided, none failed", "undecided"
    return ("its one tolerance holds" if n == 1 else f"all {some} hold"), "pass"


# ---------------------------------------------------------------------------------------------- summary


def is_share(t: Tolerance) -> bool:
    """A share of games or points (a plain proportion or a ratio of totals): shown as a percentage."""
    from generator.engine.verdict import Proportion, Ratio

    ev = t.evidence
    return isinstance(ev, Ratio) or (isinstance(ev, Proportion) and ev.scale == 1.0 and ev.shift == 0.0)


def _decimals(width: float | None) -> int:
    """Decimals an interval of `width` supports: about two significant digits of its width, at most 4."""
    if width is None or not math.isfinite(width) or width <= 0:
        return 2
    return max(0, min(4, 1 - math.floor(math.log10(width))))


def plain_figure(t: Tolerance, v: float | None) -> str:
    """A figure of `t` for a sentence: shares as percentages, rounded to what the interval supports;
    infinite and missing values said as such."""
    if v is None or math.isnan(v):
        return "not measured"
    if math.isinf(v):
        return "infinite" if v > 0 else "minus infinite"
    width = (t.high - t.low) if t.low is not None and t.high is not None else None
    if is_share(t):
        return f"{v * 100:.{_decimals(None if width is None else width * 100)}f}%"
    return f"{v:.{_decimals(width)}f}"


def spec_figure(t: Tolerance, v: float, up: bool) -> str:
    """A bound as it is written in kit.yaml (shares as fractions), rounded to what the interval supports, up
    or down so that the suggested bound still covers the interval's end `v`."""
    if not math.isfinite(v):
        return fmt_value(v)
    width = (t.high - t.low) if t.low is not None and t.high is not None else None
    d = _decimals(width)
    step = 10.0**-d
    r = (math.ceil if up else math.floor)(round(v / step, 9)) * step
    return f"{r:.{d}f}"


def _change(t: Tolerance, d: float) -> str:
    """A difference of two figures of `t`: percentage points for shares."""
    if is_share(t):
        width = (t.high - t.low) * 100 if t.low is not None and t.high is not None else None
        return f"{d * 100:.{_decimals(width)}f} percentage points"
    return plain_figure(t, d)


def advice(t: Tolerance) -> str:
    """One plain sentence for a failing or undecided tolerance: what was measured against which bound, the
    spec key, which way the game's figure (or the bound) has to move and by about how much."""
    m = t.measured
    lo, hi = (t.low, t.high) if t.low is not None and t.high is not None else (m, m)

    def f(v: float | None) -> str:
        return plain_figure(t, v)

    key = t.spec_key or "its tolerance"
    interval = (
        "" if t.low is None else f" (between {f(lo)} and {f(hi)} at {t.confidence * 100:.6g}% confidence)"
    )
    if t.verdict.value == "FAILS":
        if t.maximum is not None and lo > t.maximum:
            return (
                f"{t.name} is {f(m)}{interval}, above its maximum {f(t.maximum)}: the game has to bring it "
                f"down by about {_change(t, m - t.maximum)}, or raise {key}.max to "
                f"{spec_figure(t, hi, up=True)} or more."
            )
        if t.minimum is not None and hi < t.minimum:
            return (
                f"{t.name} is {f(m)}{interval}, below its minimum {f(t.minimum)}: the game has to raise it "
                f"by about {_change(t, t.minimum - m)}, or lower {key}.min to "
                f"{spec_figure(t, lo, up=False)} or less."
            )
        return f"{t.name} is {f(m)}{interval}, outside {_bound(t)} [{key}]."
    if t.verdict.value == "UNDECIDED":
        n = t.needed_games if t.needed_games is not None else t.estimate_needed()
        more = (
            f"about {n:,} games per setting would decide it (pnpkit check --games {n})"
            if n
            else "it sits on its bound, so more games will not decide it"
            if t.games
            else "more games per setting would narrow it"
        )
        if t.maximum is not None and hi > t.maximum:
            return (
                f"{t.name} is {f(m)}{interval}, too close to its maximum {f(t.maximum)} to tell: {more}; "
                f"or raise {key}.max to {spec_figure(t, hi, up=True)} to hold with these games."
            )
        if t.minimum is not None and lo < t.minimum:
            return (
                f"{t.name} is {f(m)}{interval}, too close to its minimum {f(t.minimum)} to tell: {more}; "
                f"or lower {key}.min to {spec_figure(t, lo, up=False)} to hold with these games."
            )
        return f"{t.name} is {f(m)}{interval}, undecided against {_bound(t)} [{key}]: {more}."
    return f"{t.name} holds at {f(m)} [{key}]."


def _view(v: ColourView) -> dict[str, Any]:
    """A picture for the template: a data: URI and its pixel size (read from the PNG's IHDR)."""
    width, height = struct.unpack(">II", v.png[16:24])
    return {
        "label": v.label,
        "src": "data:image/png;base64," + base64.b64encode(v.png).decode("ascii"),
        "width": width,
        "height": height,
    }


VERDICT_MARKS = {"error": "✗ error: same mark", "note": "note: marks differ", "ok": "✓ ok"}


def _colours(c: ColourCheck | None) -> dict[str, Any] | None:
    """The colour-vision section: pictures, and one row per pair (ΔE00 to 1 decimal, low ones flagged)."""
    if c is None:
        return None
    sims = [name for name, _ in c.pairs[0].under] if c.pairs else []
    rows = [
        {
            "a": p.a,
            "b": p.b,
            "marks": p.a.mark if p.a.mark == p.b.mark else f"{p.a.mark} / {p.b.mark}",
            "normal": {"text": f"{p.normal:.1f}", "low": p.normal < c.threshold},
            "under": [{"text": f"{d:.1f}", "low": d < c.threshold} for _, d in p.under],
            "state": {"error": "fail", "note": "undecided", "ok": "pass"}[p.verdict],
            "mark": VERDICT_MARKS[p.verdict],
        }
        for p in c.pairs
    ]
    return {
        "component": c.component,
        "page": c.page,
        "where": f"faces {', '.join(c.faces)}" if c.faces else f"page {c.page}",
        "lang": c.lang,
        "dpi": c.dpi,
        "key": c.key,
        "threshold": f"{c.threshold:g}",
        "views": [_view(v) for v in c.views],
        "faces": list(c.faces),
        "simulations": sims,
        "rows": rows,
    }


def _kit(i: int, r: BalanceReport, colours: ColourCheck | None = None) -> dict[str, Any]:
    verdict, state = verdict_line(r)
    return {
        "anchor": f"kit-{i + 1}",
        "kit": r.kit or r.game,
        "game": r.game,
        "games": r.games_per_setting,
        "exact": r.all_exact,
        "seed": r.seed,
        "verdict": verdict,
        "state": state,
        "tolerances": _tolerance_rows(r.tolerances),
        "confidence": f"{r.confidence * 100:.6g}%",
        "looks": ", ".join(str(x) for x in r.looks),
        "tables": [_table(t) for t in r.tables],
        "charts": [chart_svg(c) for c in r.charts],
        "notes": list(r.notes),
        "fixes": list(r.fixes),
        "colours": _colours(colours),
        "summary": [
            {"state": STATES[t.verdict.value], "text": advice(t)}
            for t in sorted(r.tolerances, key=verdict_sort_key)
            if not t.ok
        ],
    }


_TEMPLATE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="pnpkit">
<title>{{ title }}</title>
<style>
:root { --ink: #1b1b1b; --muted: #5f5f5f; --rule: #d0d0d0; --pass: {{ pass_colour }}; --fail: {#
#}{{ fail_colour }}; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Hiragino Sans", sans-serif;
       color: var(--ink); background: #fff; margin: 0 auto; max-width: 960px; padding: 24px; }
h1 { font-size: 1.6em; margin: 0 0 .3em; } h2 { font-size: 1.3em; margin: 0 0 .2em; }
h3 { font-size: 1.05em; margin: 1.4em 0 .4em; }
.meta { color: var(--muted); margin: 0 0 .8em; }
section.kit { border-top: 3px solid var(--ink); margin-top: 2em; padding-top: 1em; }
.banner { padding: .6em .9em; border-radius: 6px; font-weight: 600; margin: .6em 0 1em; border: 2px solid; }
.banner.pass { border-color: var(--pass); background: #e7f5f0; }
.banner.fail { border-color: var(--fail); background: #fbece4; }
.banner.none { border-color: var(--rule); background: #f4f4f4; }
.banner.undecided { border-color: #b58900; background: #fbf6e4; }
table { border-collapse: collapse; width: 100%; margin: .3em 0 1em; font-size: .92em; }
caption { text-align: left; font-weight: 600; padding: .2em 0; }
th, td { border-bottom: 1px solid var(--rule); padding: .28em .5em; text-align: left; vertical-align: top;
         overflow-wrap: anywhere; }
section.summary li { margin: .25em 0; } section.summary li.fail::marker { color: var(--fail); }
th { border-bottom: 2px solid var(--ink); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.key { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9em; }
.mark { font-weight: 700; white-space: nowrap; }
tr.fail .mark { color: var(--fail); } tr.pass .mark { color: var(--pass); } tr.undecided .mark { color: #b{#
#}58900; }
tr.fail td { background: #fdf3ee; }
figure { margin: .5em 0 1.5em; }
figcaption { font-weight: 600; margin-bottom: .2em; }
figcaption .note { font-weight: 400; color: var(--muted); }
svg { display: block; max-width: 100%; height: auto; font-family: inherit; }
svg text { fill: var(--ink); font-size: 11px; }
svg .axis { stroke: var(--ink); stroke-width: 1; }
svg .grid { stroke: #e4e4e4; stroke-width: 1; }
svg .whisker { stroke: var(--ink); stroke-width: 1.5; }
svg .reference { stroke: var(--fail); stroke-width: 1.5; stroke-dasharray: 6 4; }
svg .ref-label { fill: var(--fail); }
svg .caption { font-weight: 600; font-size: 12px; }
.legend { display: flex; flex-wrap: wrap; gap: .3em 1.2em; font-size: .9em; margin: .2em 0; }
.swatch { display: inline-block; width: .9em; height: .9em; vertical-align: -.1em; margin-right: .3em; }
ul.notes { color: var(--muted); }
.views { display: grid; grid-template-columns: repeat(auto-fill, minmax(270px, 1fr)); gap: .8em; margin: .{#
#}4em 0 1em; }
figure.view { margin: 0; } figure.view figcaption { font-weight: 400; text-align: center; }
figure.view img { display: block; width: 100%; height: auto; border: 1px solid var(--rule); }
td.low { font-weight: 700; text-decoration: underline; }
details.all-tolerances { margin: 1em 0; } details.all-tolerances summary { cursor: pointer; font-weight: 6{#
#}00; }
@media print { details.all-tolerances { display: block; } }
nav ul { padding-left: 1.2em; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  section.kit { break-before: page; border-top: none; }
  figure, table { break-inside: avoid; }
  .banner.pass, .banner.fail, .banner.none, tr.fail td { background: none; }
}
</style>
</head>
<body>
{% macro tolerance_table(rows, caption) %}
<table class="tolerances">
<caption>{{ caption }}</caption>
<thead><tr><th>check</th><th class="num">measured</th><th class="num">interval</th><th>method</th><th clas{#
#}s="num">allowed</th><th class="num">games</th><th>spec key</th><th>verdict</th></tr></thead>
<tbody>
{% for t in rows %}
<tr class="{{ t.state }}"><td>{{ t.name }}</td><td class="num">{{ t.measured }}</td><td class="num">{#
#}{{ t.interval }}</td><td>{{ t.method }}</td><td class="num">{{ t.bound }}</td><td class="num">{#
#}{{ t.games }}</td><td class="key">{{ t.spec_key }}</td><td class="mark">{{ t.mark }}</td></tr>
{% endfor %}
</tbody>
</table>
{% endmacro %}
<header>
<h1>{{ title }}</h1>
<section class="summary" aria-label="in short"><h2>In short</h2>
{% for k in kits %}
<p><strong>{{ k.kit }}</strong>: {{ k.verdict }}{% if k.summary %}. What to change:{% endif %}</p>
{% if k.summary %}<ul>
{% for s in k.summary %}<li class="{{ s.state }}">{{ s.text }}</li>
{% endfor %}
</ul>{% if k.fixes|length > 1 %}<p>Or change the data, e.g. {{ k.fixes[1].strip() }} (below: {#
#}{{ k.fixes|length - 1 }} such change{{ "s" if k.fixes|length > 2 else "" }}).</p>{% elif k.fixes %}{#
#}<p>{{ k.fixes[0]|replace("what would fix it: ", "Or ") }}.</p>{% endif %}{% endif %}
{% endfor %}
</section>
{% if kits|length > 1 %}
<nav aria-label="kits"><ul>
{% for k in kits %}
<li><a href="#{{ k.anchor }}">{{ k.kit }}</a> — {{ k.verdict }}</li>
{% endfor %}
</ul></nav>
{% endif %}
</header>
{% for k in kits %}
<section class="kit" id="{{ k.anchor }}">
<h2>{{ k.kit }}</h2>
<p class="meta">game {{ k.game }} · {% if k.exact %}every verdict exact: counted over every case, no games{#
#} played{% else %}first batch {{ k.games }} games per setting{% if k.looks %} · looks at{#
#} {{ k.looks }} games{% endif %} · seed {{ k.seed }} · all verdicts together at {{ k.confidence }} confid{#
#}ence{% endif %}</p>
<div class="banner {{ k.state }}" role="status">{% if k.state == "pass" %}✓ {% elif k.state == "fail" %}✗ {#
#}{% elif k.state == "undecided" %}? {% endif %}{{ k.verdict }}</div>
{% set failed = k.tolerances | rejectattr("ok") | list %}
{% if failed %}
{{ tolerance_table(failed, "Failed or undecided tolerances") }}{% endif %}
{% if k.fixes %}
<section class="fixes"><h3>What would fix it</h3>
<p>{{ k.fixes[0]|replace("what would fix it: ", "")|replace("what would fix it ", "") }}</p>
{% if k.fixes|length > 1 %}<ul>{% for f in k.fixes[1:] %}<li>{{ f.strip() }}</li>{% endfor %}</ul>{#
#}{% endif %}</section>
{% endif %}
{% for c in k.charts %}
<figure>
<figcaption>{{ c.title }}{% if c.note %} <span class="note">({{ c.note }})</span>{% endif %}</figcaption>
{% if c.legend|length > 1 %}
<div class="legend">{% for l in c.legend %}<span><span class="swatch" style="background:{{ l.colour }}"></{#
#}span>{{ l.text }}</span>{% endfor %}</div>
{% endif %}
<svg xmlns="http://www.w3.org/2000/svg" class="chart {{ c.kind }}" viewBox="0 0 {{ c.width }} {#
#}{{ c.height }}" width="{{ c.width }}" height="{{ c.height }}" role="img" aria-label="{{ c.title }}">
<title>{{ c.title }}</title>
{% if c.y_label %}<text x="12" y="{{ c.height|float / 2 }}" transform="rotate(-90 12 {#
#}{{ c.height|float / 2 }})" text-anchor="middle">{{ c.y_label }}</text>
{% endif %}
{% for p in c.panels %}
<g class="panel">
{% if p.caption %}<text class="caption" x="{{ left }}" y="{{ p.caption_y }}">{{ p.caption }}</text>
{% endif %}
{% for t in p.yticks %}<line class="grid" x1="{{ left }}" x2="{{ right }}" y1="{{ t.y }}" y2="{{ t.y }}"/>{#
#}<text x="{{ left - 6 }}" y="{{ t.y }}" dy="0.32em" text-anchor="end">{{ t.text }}</text>
{% endfor %}
{% for b in p.bars %}<rect class="bar" x="{{ b.x }}" y="{{ b.y }}" width="{{ b.w }}" height="{{ b.h }}" fi{#
#}ll="{{ p.colour }}"><title>{{ b.tip }}</title></rect>
{% endfor %}
<line class="axis" x1="{{ left }}" x2="{{ right }}" y1="{{ p.axis_y }}" y2="{{ p.axis_y }}"/>
<line class="axis" x1="{{ left }}" x2="{{ left }}" y1="{{ p.axis_top }}" y2="{{ p.axis_y }}"/>
{% for w in p.whiskers %}<g class="whisker"><line x1="{{ w.x }}" x2="{{ w.x }}" y1="{{ w.y1 }}" y2="{#
#}{{ w.y2 }}"/><line x1="{{ w.x1 }}" x2="{{ w.x2 }}" y1="{{ w.y1 }}" y2="{{ w.y1 }}"/><line x1="{{ w.x1 }}{#
#}" x2="{{ w.x2 }}" y1="{{ w.y2 }}" y2="{{ w.y2 }}"/></g>
{% endfor %}
{% if p.reference %}<line class="reference" x1="{{ p.reference.x1 }}" x2="{{ p.reference.x2 }}" y1="{#
#}{{ p.reference.y }}" y2="{{ p.reference.y }}"/><text class="ref-label" x="{{ p.reference.text_x }}" y="{#
#}{{ p.reference.text_y }}" text-anchor="end">{{ p.reference.text }}</text>
{% endif %}
{% for v in p.value_labels %}<text class="value" x="{{ v.x }}" y="{{ v.y }}" text-anchor="middle">{#
#}{{ v.text }}</text>
{% endfor %}
{% for t in p.xticks %}{% if p.rotate %}<text x="{{ t.x }}" y="{{ t.y }}" text-anchor="end" transform="rot{#
#}ate(-35 {{ t.x }} {{ t.y }})">{{ t.text }}</text>{% else %}<text x="{{ t.x }}" y="{{ t.y }}" text-anchor{#
#}="middle">{{ t.text }}</text>{% endif %}
{% endfor %}
</g>
{% endfor %}
{% if c.x_label %}<text x="{{ (left + right) / 2 }}" y="{{ c.height|float - 2 }}" text-anchor="middle">{#
#}{{ c.x_label }}</text>
{% endif %}
</svg>
</figure>
{% endfor %}
{% if k.tolerances %}
<details class="all-tolerances"{% if failed %} open{% endif %}><summary>All {{ k.tolerances|length }} tole{#
#}rances, each with its measured value, interval (simultaneous: {{ k.confidence }} for all together), meth{#
#}od and spec key</summary>
{{ tolerance_table(k.tolerances, "Balance tolerances") }}</details>
{% endif %}
{% for t in k.tables %}
<table class="data">
<caption>{{ t.title }}</caption>
<thead><tr>{% for col in t.columns %}<th{% if t.numeric[loop.index0] %} class="num"{% endif %}>{{ col }}</{#
#}th>{% endfor %}</tr></thead>
<tbody>
{% for row in t.rows %}<tr>{% for v in row %}<td{% if t.numeric[loop.index0] %} class="num"{% endif %}>{#
#}{{ v }}</td>{% endfor %}</tr>
{% endfor %}
</tbody>
</table>
{% endfor %}
{% if k.colours %}{% set c = k.colours %}
<section class="colours" aria-label="colour vision">
<h3>Colour vision and greyscale: {{ c.component }}, {{ c.where }} ({{ c.lang }})</h3>
<p class="meta">{% if c.faces %}The faces that carry the game's colours{% else %}The page{% endif %} as pr{#
#}inted and as readers with protanopia, deuteranopia or tritanopia see it (daltonlens: Viénot 1999, Brette{#
#}l 1997 for tritanopia), and in greyscale (each colour as the grey of its lightness, as <code>build --gre{#
#}yscale</code> prints it); {{ c.dpi }} dpi.</p>
<div class="views">
{% for v in c.views %}<figure class="view"><img src="{{ v.src }}" width="{{ v.width }}" height="{#
#}{{ v.height }}" alt="{{ c.component }}, {{ c.where }}: {{ v.label }}"><figcaption>{{ v.label }}</figcapt{#
#}ion></figure>
{% endfor %}
</div>
{% if c.rows %}
<table class="pairs">
<caption>Every pair of game colours ({{ c.key }}): CIEDE2000 difference (ΔE00); under {{ c.threshold }} (s{#
#}tyle.colour_safety.min_delta_e) in bold</caption>
<thead><tr><th>pair</th><th>marks</th><th class="num">normal</th>{% for s in c.simulations %}<th class="nu{#
#}m">{{ s }}</th>{% endfor %}<th>verdict</th></tr></thead>
<tbody>
{% for p in c.rows %}
<tr class="{{ p.state }}"><td><span class="swatch" style="background:{{ p.a.hex }}"></span>{{ p.a.id }} · {#
#}<span class="swatch" style="background:{{ p.b.hex }}"></span>{{ p.b.id }}</td><td>{{ p.marks }}</td><td {#
#}class="num{% if p.normal.low %} low{% endif %}">{{ p.normal.text }}</td>{% for d in p.under %}<td class={#
#}"num{% if d.low %} low{% endif %}">{{ d.text }}</td>{% endfor %}<td class="mark">{{ p.mark }}</td></tr>
{% endfor %}
</tbody>
</table>
{% endif %}
</section>
{% endif %}
{% if k.notes %}
<ul class="notes">
{% for n in k.notes %}<li>{{ n }}</li>
{% endfor %}
</ul>
{% endif %}
</section>
{% endfor %}
</body>
</html>
"""


@cache
def _template() -> Any:
    """The page template, compiled on first use: the terminal report (render/console.py) shares this module's
    formatting and must not pay for jinja2 and the compile (0.1-0.2 s) on every `pnpkit check`."""
    from jinja2 import StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment

    env = SandboxedEnvironment(
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    return env.from_string(_TEMPLATE)


def to_html(
    reports: Sequence[BalanceReport], *, title: str, colours: Sequence[ColourCheck | None] | None = None
) -> str:
    """The whole HTML page as text (what `write_html` writes); `colours`: each kit's colour-vision section."""
    sections = list(colours or [])
    kits = [_kit(i, r, sections[i] if i < len(sections) else None) for i, r in enumerate(reports)]
    page: str = _template().render(
        title=title,
        kits=kits,
        left=PLOT_LEFT,
        right=CHART_WIDTH - PLOT_RIGHT,
        pass_colour=PASS_COLOUR,
        fail_colour=FAIL_COLOUR,
    )
    return page


# ---------------------------------------------------------------------------------------------- files


def _atomic_write(path: Path, data: bytes) -> None:
    """The report's folder is created if needed; the file is written by the one atomic writer."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise RenderError(f"{path}: cannot write the report ({e.strerror or e})") from e
    atomic_write(path, data, what="the report")


def write_html(
    reports: list[BalanceReport],
    path: Path,
    *,
    title: str,
    colours: Sequence[ColourCheck | None] | None = None,
) -> None:
    """Write one self-contained HTML report for `reports` to `path` (atomically; same input, same bytes), with
    each kit's colour-vision section where `colours` has one."""
    _atomic_write(Path(path), to_html(reports, title=title, colours=colours).encode("utf-8"))


def to_jsonable(x: Any) -> Any:
    """Plain JSON values: numpy scalars and arrays unwrapped, tuples as lists, keys as strings, NaN/inf ->
    None."""
    if isinstance(x, dict):
        return {str(k): to_jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [to_jsonable(v) for v in x]
    if isinstance(x, numpy_types("ndarray")):
        return to_jsonable(x.tolist())
    if isinstance(x, bool) or isinstance(x, numpy_types("bool_")):
        return bool(x)
    if isinstance(x, numpy_types("integer")):
        return int(x)
    if isinstance(x, float) or isinstance(x, numpy_types("floating")):
        f = float(x)
        return f if math.isfinite(f) else None
    return x


def to_json_text(reports: Sequence[BalanceReport]) -> str:
    """The JSON document `write_json` writes: {"ok": ..., "reports": [BalanceReport.to_json(), ...]}."""
    doc = {"ok": all(r.ok for r in reports), "reports": [r.to_json() for r in reports]}
    return json.dumps(to_jsonable(doc), sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_json(reports: list[BalanceReport], path: Path) -> None:
    """Write every figure of `reports` as JSON (sorted keys, indent 2, NaN as null), atomically."""
    _atomic_write(Path(path), to_json_text(reports).encode("utf-8"))
