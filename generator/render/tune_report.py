"""The `pnpkit tune` report: one self-contained HTML page in the check report's style (its stylesheet, its
verdict tables): the trials over time, optuna's parameter importance, the proven candidates' verdict tables
beside the original's, and the measured effect of each changed parameter. Same data in -> same bytes out."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from jinja2 import StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

from generator.engine.report import BalanceReport
from generator.render.html_report import _TEMPLATE, _atomic_write, _tolerance_rows, verdict_line
from generator.render.report_svg import FAIL_COLOUR, PALETTE, PASS_COLOUR, fmt_value

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 640.0, 220.0, 52.0, 16.0, 14.0, 30.0

_STYLE = re.search(r"<style>(.*?)</style>", _TEMPLATE, re.S)
STYLE = _STYLE.group(1) if _STYLE else ""


def _n(x: float) -> str:
    return f"{x:.2f}"


def trials_svg(trials: list[dict[str, Any]]) -> str:
    """Each trial's score (log scale, 1 + score) by trial; pruned trials hollow, the best so far a line."""
    if not trials:
        return ""
    ys = [math.log10(1.0 + max(0.0, t["score"])) for t in trials]
    top = max(max(ys), 0.1)
    n = len(trials)

    def x(i: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * (i / max(1, n - 1) if n > 1 else 0.5)

    def y(v: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (1 - v / top)

    parts = [
        f'<svg viewBox="0 0 {_n(WIDTH)} {_n(HEIGHT)}" role="img" aria-label="score by trial">',
        f'<line x1="{_n(LEFT)}" y1="{_n(y(0))}" x2="{_n(WIDTH - RIGHT)}" y2="{_n(y(0))}" stroke="#999"/>',
        f'<line x1="{_n(LEFT)}" y1="{_n(TOP)}" x2="{_n(LEFT)}" y2="{_n(y(0))}" stroke="#999"/>',
    ]
    for v in (0.0, top / 2, top):
        parts.append(
            f'<text x="{_n(LEFT - 4)}" y="{_n(y(v) + 4)}" text-anchor="end" font-size="10">'
            f"{10**v - 1:.3g}</text>"
        )
    best = math.inf
    line = []
    for i, (t, v) in enumerate(zip(trials, ys)):
        colour = PASS_COLOUR if t["violation"] == 0 and not t["illegal"] else FAIL_COLOUR
        fill = "none" if t["pruned"] else colour
        parts.append(
            f'<circle cx="{_n(x(i))}" cy="{_n(y(v))}" r="3.5" fill="{fill}" stroke="{colour}">'
            f"<title>trial {t['number']}: {fmt_value(t['score'])}</title></circle>"
        )
        if not t["pruned"]:
            best = min(best, v)
        if best < math.inf:
            line.append(f"{_n(x(i))},{_n(y(best))}")
    if line:
        parts.append(
            f'<polyline points="{" ".join(line)}" fill="none" stroke="{PALETTE[0]}" stroke-width="1.5"/>'
        )
    parts.append(
        f'<text x="{_n((LEFT + WIDTH - RIGHT) / 2)}" y="{_n(HEIGHT - 6)}" text-anchor="middle" '
        f'font-size="11">trial (1..{n}); score, log scale; hollow = pruned after the first batch</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def importance_svg(imp: dict[str, float]) -> str:
    """Horizontal bars of optuna's parameter importance."""
    if not imp:
        return ""
    rows = sorted(imp.items(), key=lambda kv: (-kv[1], kv[0]))
    h = 22.0 * len(rows) + 10
    left = 220.0
    parts = [f'<svg viewBox="0 0 {_n(WIDTH)} {_n(h)}" role="img" aria-label="parameter importance">']
    for i, (name, v) in enumerate(rows):
        yy = 5 + 22.0 * i
        w = (WIDTH - left - 60) * max(0.0, min(1.0, v))
        parts.append(
            f'<text x="{_n(left - 6)}" y="{_n(yy + 14)}" text-anchor="end" font-size="11">{_esc(name)}</text>'
            f'<rect x="{_n(left)}" y="{_n(yy + 3)}" width="{_n(w)}" height="14" fill="{PALETTE[0]}"/>'
            f'<text x="{_n(left + w + 4)}" y="{_n(yy + 14)}" font-size="11">{v:.3f}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _verdicts(r: BalanceReport) -> dict[str, Any]:
    verdict, state = verdict_line(r)
    return {
        "verdict": verdict,
        "state": state,
        "rows": _tolerance_rows(r.tolerances),
        "looks": ", ".join(str(x) for x in r.looks),
    }


_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="pnpkit">
<title>pnpkit tune: {{ d.kit }}</title>
<style>{{ style|safe }}
.side { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
</style>
</head>
<body>
<h1>pnpkit tune: {{ d.kit }}</h1>
<p class="meta">game {{ d.game }} · seed {{ d.seed }} (search stream {{ d.search_seed }}; {##}
proof seeds {{ d.proof_seeds|join(", ") }}) · {{ d.trials|length }} trials {##}
of {{ d.games }} + {{ d.games }} games per setting</p>
{% if d.winner is none %}
<div class="banner fail">no candidate passed the full check: nothing written</div>
{% else %}
<div class="banner pass">tuned: {% for c in changes %}
{{ c.path }} {{ c.old }} → {{ c.new }}{% if not loop.last %}, {% endif %}
{% else %}
no change needed{% endfor %}
</div>
{% endif %}
<h3>Search space</h3>
<table><thead><tr><th>parameter</th><th>kind</th><th>searched</th><th>original</th></tr></thead><tbody>
{% for s in d.space %}
<tr><td>{{ s.path }}</td><td>{{ s.kind }}</td><td>{{ s.range }}</td><td>{{ s.original }}</td></tr>
{% endfor %}</tbody></table>
{% if d.targets %}
<p>targets: {% for t in d.targets %}
{{ t.tolerance }} → {{ t.value }}{% if not loop.last %}, {% endif %}
{% endfor %}
</p>{% endif %}
<h3>Trials over time</h3>
<figure>{{ trials_svg|safe }}</figure>
<table><thead><tr><th>trial</th><th>parameters</th><th class="num">score</th>{##}
<th class="num">outside bounds</th><th class="num">distance</th><th>state</th></tr></thead><tbody>
{% for t in d.trials %}
<tr><td>{{ t.number }}</td><td>{{ t.params }}</td><td class="num">{{ t.score_text }}</td>{##}
<td class="num">{{ t.violation_text }}</td><td class="num">{{ t.distance_text }}</td>{##}
<td>{{ t.state }}</td></tr>
{% endfor %}</tbody></table>
{% if d.front %}
<h3>Pareto front ({{ d.targets|length }} targets; the proof takes the closest to the original first)</h3>
<table><thead><tr><th>parameters</th>{% for t in d.targets %}
<th class="num">gap to {{ t.tolerance }} {{ t.value }}</th>{% endfor %}
<th class="num">distance</th></tr></thead><tbody>
{% for f in front %}
<tr><td>{{ f.params }}</td>{% for g in f.gaps %}<td class="num">{{ g }}</td>{% endfor %}
<td class="num">{{ f.distance }}</td></tr>
{% endfor %}</tbody></table>
{% endif %}
<h3>Parameter importance (optuna, PED-ANOVA)</h3>
{% if importance_svg %}
<figure>{{ importance_svg|safe }}</figure>{% else %}
<p class="meta">not available (too few finished trials)</p>{% endif %}
<h3>Proof: the full check on seed streams the search never used</h3>
<div class="side">
{% for col in columns %}
<div><h3>{{ col.title }}</h3><div class="banner {{ col.v.state }}">{{ col.v.verdict }}</div>
<table><thead><tr><th>tolerance</th><th class="num">measured</th><th>verdict</th></tr></thead><tbody>
{% for r in col.v.rows %}
<tr><td>{{ r.name }}</td><td class="num">{{ r.measured }}</td>{##}
<td class="{{ r.state }}">{{ r.mark }} {{ r.state }}</td></tr>
{% endfor %}</tbody></table></div>
{% endfor %}
</div>
<h3>Measured effect of each changed parameter (alone, search stream, first batch)</h3>
{% for e in d.effects %}
<h3>{{ e.path }}: {{ e.old }} → {{ e.new }}</h3>
<table><thead><tr><th>tolerance</th><th class="num">original</th><th class="num">changed</th>{##}
<th class="num">difference</th></tr></thead><tbody>
{% for r in e.rows %}
<tr><td>{{ r.0 }}</td><td class="num">{{ r.1 }}</td><td class="num">{{ r.2 }}</td>{##}
<td class="num">{{ r.3 }}</td></tr>
{% endfor %}</tbody></table>
{% else %}<p class="meta">no parameter changed</p>{% endfor %}
</body>
</html>
"""

_env = SandboxedEnvironment(
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=StrictUndefined,
    keep_trailing_newline=True,
)
_page = _env.from_string(_PAGE)


def to_html(d: dict[str, Any]) -> str:
    """The page as text."""
    trials = []
    for t in d["trials"]:
        state = t["illegal"] or (
            "pruned (hopeless)"
            if t["pruned"]
            else ("all estimates in bounds" if t["violation"] == 0 else "outside bounds")
        )
        trials.append(
            {
                **t,
                "params": json.dumps(t["values"], sort_keys=True, ensure_ascii=False),
                "score_text": fmt_value(t["score"]),
                "violation_text": fmt_value(t["violation"]),
                "distance_text": fmt_value(t["distance"]),
                "state": state,
            }
        )
    columns = [{"title": "original", "v": _verdicts(d["original"])}]
    for i, p in enumerate(d["proven"]):
        changed = ", ".join(f"{k}={v}" for k, v in sorted(p["values"].items()))
        how = (
            f"holds on all {p['streams']} proof streams"
            if p["holds"]
            else f"does not hold on proof stream {p['streams']}"
        )
        raised = "".join(f"; {k} raised to {v}" for k, v in sorted(p.get("budget", {}).items()))
        columns.append(
            {"title": f"candidate {i + 1}: {changed} ({how}{raised})", "v": _verdicts(p["report"])}
        )
    changes = []
    if d["winner"] is not None:
        orig = {s["path"]: s["original"] for s in d["space"]}
        for path, v in sorted(d["winner"].items()):
            shown = "[" + ", ".join(map(str, v)) + "]" if isinstance(v, list) else str(v)
            if shown != orig.get(path):
                changes.append({"path": path, "old": orig.get(path), "new": shown})
    for path, v in sorted(d.get("winner_budget", {}).items()):
        changes.append({"path": path, "old": "the kit's", "new": str(v)})
    effects = [
        {**e, "rows": [[r[0], fmt_value(r[1]), fmt_value(r[2]), fmt_value(r[2] - r[1])] for r in e["rows"]]}
        for e in d["effects"]
    ]
    front = [
        {
            "params": json.dumps(f["values"], sort_keys=True, ensure_ascii=False),
            "gaps": [fmt_value(g) for g in f["gaps"]],
            "distance": fmt_value(f["distance"]),
        }
        for f in d.get("front", [])
    ]
    return _page.render(
        d={**d, "trials": trials, "effects": effects},
        style=STYLE,
        columns=columns,
        front=front,
        changes=changes,
        trials_svg=trials_svg(d["trials"]),
        importance_svg=importance_svg(d["importance"]),
    )


def write_tune_report(path: Path, d: dict[str, Any]) -> None:
    """Write the report atomically."""
    _atomic_write(Path(path), to_html(d).encode("utf-8"))
