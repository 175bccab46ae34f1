"""The quick slice of the issue-12 fuzz suite (CI, well under 60 s): a seeded sample of mutated specs built in
a worker, a sample run through the CLI (exit code, stderr, output folder), and tables of hostile templates,
paths and options. The full run is `python bench/fuzz.py` (>= 1,500 specs).

The CLI cases run the command in this process (typer's CliRunner): what they check is the command's answer
to hostile input -- its exit code, its one `error:` line, no traceback, nothing written -- which is the same
code in a process of its own (an exception that escapes the command is shown here as the traceback a real
process would print). The real interpreter's start-up, signals and exit status are tests/test_cli.py's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.fuzz.harness import (
    ART_MUTATIONS,
    FONT_MUTATIONS,
    HOSTILE_TEMPLATES,
    ROOT,
    CliRun,
    art_case,
    cli_in_process,
    font_case,
    make_art_cases,
    make_cases,
    make_font_cases,
    materialise,
    run_cases,
)

QUICK_SPECS = 50
QUICK_SEED = 20261201
CLI_SAMPLE = 4


def test_harness_is_deterministic():
    a = make_cases(20, 5)
    b = make_cases(20, 5)
    assert [(c.kit, c.label, c.files) for c in a] == [(c.kit, c.label, c.files) for c in b]
    assert len({c.label for c in a}) > 10  # the mutator really varies


def test_harness_can_see_a_traceback(monkeypatch):
    """The classifier is not blind: a build that raises a non-KitError counts as a traceback."""
    from tests.fuzz import harness

    case = make_cases(1, 1)[0]

    def broken_build(*a, **k):
        raise ZeroDivisionError("boom")

    import generator.pipeline

    monkeypatch.setattr(generator.pipeline, "build", broken_build)
    kind, detail = harness.run_case(case)
    assert kind == "traceback" and "ZeroDivisionError" in detail


@pytest.mark.slow  # a slice of the fuzz run
def test_quick_slice_of_mutated_specs():
    summary = run_cases(make_cases(QUICK_SPECS, QUICK_SEED))
    bugs = [f"{o.case.kit}: {o.case.label}: {o.kind}: {o.detail[:300]}" for o in summary.bugs()]
    assert bugs == [], summary.line()
    counts = summary.counts()
    assert counts["clean"] > 0 and counts["accepted"] > 0, summary.line()  # both paths exercised


def _assert_clean_failure(r: CliRun, out: Path | None = None) -> None:
    assert r.returncode in (1, 2), (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
    assert r.stderr.startswith("error: "), r.stderr[:500]
    assert all(len(line) <= 400 for line in r.stderr.splitlines())
    if out is not None:
        assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


HOSTILE_SOURCES = {
    "not YAML": "kit: {id: [\n",
    "a tag": "kit: !!python/object:os.system {id: x}\n",
    "not a mapping": "kit: [1, 2]\n",
    "an alias for the title": "kit: {id: &a x, title: *a}\n",
    "an escaped id": 'kit:\n  id: "a\\x62c"\n  title: kit.title\n',
    "a billion laughs": "a: &a [x, x, x, x, x, x, x, x, x]\n"
    + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefg", "bcdefgh")
    )
    + "kit: {id: x, title: *h}\n",
    "over the size cap": "kit: {id: x}\n" + "#" * 600_000,
    "a link outside": None,
}


@pytest.mark.parametrize("name", sorted(HOSTILE_SOURCES))
def test_new_from_a_hostile_kit_folder(tmp_path, name):
    """`pnpkit new` reads a stranger's kit.yaml as a load does: a located error, exit 1, nothing left behind,
    never a traceback; a kit.yaml linking outside its folder is not read."""
    src = tmp_path / "src"
    src.mkdir()
    text = HOSTILE_SOURCES[name]
    if text is None:
        (src / "kit.yaml").symlink_to("/etc/passwd")
    else:
        (src / "kit.yaml").write_text(text, encoding="utf-8")
    r = cli_in_process("new", str(tmp_path / "mine"), "--from", str(src))
    _assert_clean_failure(r)
    assert not (tmp_path / "mine").exists() and sorted(p.name for p in tmp_path.iterdir()) == ["src"]
    assert "root:x" not in r.stderr
    copied = name in ("an alias for the title", "an escaped id")  # read and copied, then refused by a load
    assert ("mine: not created, the copy of" in r.stderr) == copied, r.stderr


@pytest.mark.parametrize("index", range(CLI_SAMPLE))
def test_cli_sample_of_mutated_specs(tmp_path, index):
    """The same cases through the real CLI: exit 0 with files, or exit 1 with a message and nothing
    written."""
    case = make_cases(CLI_SAMPLE * 5, QUICK_SEED + 1)[index * 5]
    kit = materialise(case, tmp_path)
    out = tmp_path / "out"
    r = cli_in_process("build", str(kit), "--lang", "en", "--out", str(out))
    if r.returncode == 0:
        assert [p for p in out.rglob("*.pdf")], r.stdout
        assert not list(out.glob(".pnpkit-*"))
    else:
        _assert_clean_failure(r, out)


@pytest.mark.parametrize(
    "template", [HOSTILE_TEMPLATES[i] for i in (0, 5, 7, 9)], ids=["include", "self", "plural", "random"]
)
def test_cli_hostile_template_names_the_po_line(tmp_path, template):
    kit = tmp_path / "rr"
    (tmp_path / "rr").parent.mkdir(exist_ok=True)
    import shutil

    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    po = kit / "locales" / "en.po"
    text = po.read_text(encoding="utf-8")
    quoted = template.replace("\\", "\\\\").replace('"', '\\"')
    po.write_text(text.replace('msgstr "Ripple Rush"', f'msgstr "{quoted}"', 1), encoding="utf-8")
    line = next(
        i for i, s in enumerate(po.read_text(encoding="utf-8").splitlines(), 1) if s == 'msgid "kit.title"'
    )
    out = tmp_path / "out"
    r = cli_in_process("build", str(kit), "--lang", "en", "--out", str(out))
    _assert_clean_failure(r, out)
    assert f"en.po:{line}: kit.title: template" in r.stderr, r.stderr


@pytest.mark.parametrize("target", ["outside_file", "outside_dir", "loop", "proc"])
def test_cli_hostile_paths(tmp_path, target):
    import shutil

    kit = tmp_path / "rr"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    if target == "outside_file":
        (kit / "kit.yaml").unlink()
        (kit / "kit.yaml").symlink_to(secret)
    elif target == "outside_dir":
        shutil.copytree(kit / "locales", tmp_path / "elsewhere")
        shutil.rmtree(kit / "locales")
        (kit / "locales").symlink_to(tmp_path / "elsewhere")
    elif target == "loop":
        (kit / "kit.yaml").unlink()
        (kit / "kit.yaml").symlink_to(kit / "kit.yaml")
    else:
        (kit / "kit.yaml").unlink()
        (kit / "kit.yaml").symlink_to("/proc/self/mem")
    out = tmp_path / "out"
    r = cli_in_process("build", str(kit), "--lang", "en", "--out", str(out))
    _assert_clean_failure(r, out)
    assert "root:x" not in r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["check", "layouts/ripple_rush", "--games", str(10**12)],
        ["check", "layouts/ripple_rush", "--seed", "-1"],
        ["check", "layouts/ripple_rush", "--dask", ""],
        ["build", "layouts/ripple_rush", "--seed", str(2**64)],
        ["build", "layouts/ripple_rush", "--paper", "\x1b[2Ja5"],
        ["build", "layouts/nope"],
        ["check", "layouts/harvest_deck", "--json", "-", "--report", "-"],  # one standard output
        ["build", "layouts/ripple_rush", "--lang", "EN-\u0130,ja-jp-x-\x1b[2J"],  # a language as typed
        # a kit named by id: only a shipped kit's id (in any letter case) names it; the rest is a folder that
        # is not there
        ["build", "\x1b[2Jripple_rush"],
        ["check", "../ripple_rush"],
        ["list", "RIPPLE_RUSH/.."],
        ["list", "ripple_rush\x00"],
        ["validate", "ripple_rush/../../../etc"],
        ["serve", "ripple_rush/.."],
        ["serve", "ripple_rush", "--host", "\x1b[2J.invalid"],  # no address: refused before a build
    ],
)
def test_cli_hostile_options(args):
    r = cli_in_process(*args)
    assert r.returncode in (1, 2)
    assert "Traceback" not in r.stderr
    assert "\x1b" not in r.stderr
    assert r.stdout == "" or os.environ.get("COLUMNS")  # nothing ran


def test_quick_slice_of_hostile_fonts():
    """Every hostile font mutation once (issue 24): a clean located error, or a clean build for flipped bytes
    that still parse; never a traceback or partial output."""
    summary = run_cases(make_font_cases(len(FONT_MUTATIONS), QUICK_SEED))
    bugs = [f"{o.case.kit}: {o.case.label}: {o.kind}: {o.detail[:300]}" for o in summary.bugs()]
    assert bugs == [], summary.line()
    refused = {o.case.label for o in summary.outcomes if o.kind == "clean"}
    assert refused >= {f"font {op}" for op in FONT_MUTATIONS if op != "flipped"}, summary.line()


FONT_MESSAGES = {
    "garbage": "not a font fontTools can read",
    "truncated": "assets/f.ttf: ",
    "restricted": "its licence forbids embedding (OS/2 fsType 0x0002: restricted licence)",
    "cff": "PostScript (CFF) outlines: only TrueType outlines (glyf) can be embedded",
    "symlink_out": "resolves outside the kit folder",
    "dotdot": "expected a path inside the kit folder (no '..')",
}


@pytest.mark.parametrize("op", sorted(FONT_MESSAGES))
def test_cli_hostile_font_is_one_located_line(tmp_path, op):
    import numpy as np

    case = font_case("ripple_rush", op, np.random.default_rng(7))
    kit = materialise(case, tmp_path)
    out = tmp_path / "out"
    r = cli_in_process("build", str(kit), "--lang", "en", "--out", str(out))
    _assert_clean_failure(r, out)
    lines = r.stderr.splitlines()
    assert lines[0] == f"error: 1 problem in {kit / 'kit.yaml'}", r.stderr
    line = next(
        i
        for i, s in enumerate((kit / "kit.yaml").read_text(encoding="utf-8").splitlines(), 1)
        if s.strip().startswith("regular: ") and "builtin" not in s
    )
    assert len(lines) == 2 and lines[1].startswith(
        f"  {kit / 'kit.yaml'}:{line}: style.fonts.body.regular: "
    ), r.stderr
    assert FONT_MESSAGES[op] in lines[1], r.stderr


def test_quick_slice_of_hostile_art():
    """Every hostile image and SVG once (issue 24: bombs, truncated and mislabelled images, DOCTYPE/entities,
    external and file: references, scripts, over-deep nesting, symlinks out): a clean located error, never a
    traceback or partial output."""
    summary = run_cases(make_art_cases(len(ART_MUTATIONS), QUICK_SEED))
    bugs = [f"{o.case.kit}: {o.case.label}: {o.kind}: {o.detail[:300]}" for o in summary.bugs()]
    assert bugs == [], summary.line()
    refused = {o.case.label for o in summary.outcomes if o.kind == "clean"}
    assert refused == {f"art {op}" for op in ART_MUTATIONS}, summary.line()


ART_MESSAGES = {
    "png_bomb": "assets/art.png: over 60,000,000 pixels (a decompression bomb?)",
    "truncated_png": "assets/art.png: truncated or damaged",
    "mislabelled": "assets/art.png: mislabelled: named .png but it is a JPEG image",
    "svg_billion_laughs": "an SVG with a DOCTYPE or entities is refused",
    "svg_external_entity": "an SVG with a DOCTYPE or entities is refused",
    "svg_file_href": "only references inside the file ('#id') are allowed, no external or file: references",
    "svg_script": "<script> is refused",
    "svg_deep": "elements nested over 40 deep",
    "svg_text": (
        "assets/art.svg: the SVG's text 'Logo \U0001f30a' has characters no regular face of the kit has"
    ),
    "symlink_out": "resolves outside the kit folder",
    "dotdot": "expected a path inside the kit folder (no '..')",
}


@pytest.mark.parametrize("op", sorted(ART_MESSAGES))
def test_cli_hostile_art_is_one_located_line(tmp_path, op):
    import numpy as np

    case = art_case("ripple_rush", op, np.random.default_rng(7))
    kit = materialise(case, tmp_path)
    out = tmp_path / "out"
    r = cli_in_process("build", str(kit), "--lang", "en", "--out", str(out))
    _assert_clean_failure(r, out)
    lines = r.stderr.splitlines()
    assert lines[0] == f"error: 1 problem in {kit / 'kit.yaml'}", r.stderr
    line = next(
        i
        for i, s in enumerate((kit / "kit.yaml").read_text(encoding="utf-8").splitlines(), 1)
        if s.strip().startswith("art: ")
    )
    assert len(lines) == 2 and lines[1].startswith(
        f"  {kit / 'kit.yaml'}:{line}: components.number_cards.art.back: "
    ), r.stderr
    assert ART_MESSAGES[op] in lines[1], r.stderr


def test_quick_slice_of_hostile_data():
    """Every hostile data mutation once (issue 25: 10^6 rows, a 10 MB cell, wrong encodings, ragged rows, an
    .xlsx zip bomb, external links, macros, formulas, paths out of the kit): a clean located error, nothing
    written; a BOM and a plain workbook build."""
    from tests.fuzz.harness import DATA_MUTATIONS, make_data_cases

    summary = run_cases(make_data_cases(len(DATA_MUTATIONS), QUICK_SEED))
    bugs = [f"{o.case.kit}: {o.case.label}: {o.kind}: {o.detail[:300]}" for o in summary.bugs()]
    assert bugs == [], summary.line()
    kinds = {o.case.label: o.kind for o in summary.outcomes}
    assert kinds == {
        f"data {op}": "accepted" if op in ("bom", "xlsx_good") else "clean" for op in DATA_MUTATIONS
    }, [(o.case.label, o.kind, o.detail) for o in summary.outcomes]


BUDGET_KEYS = {
    "grid_loop": "game.templates.sheet.front[6].bonus: template",
    "draw_ops": "game.decks.cards.template: over the budget of 1,000,000 drawing ops per language",
    "all_of": (
        "game.balance.draws[2].all_of: over the budget of 1,000,000 steps: the exact count of 4 conditions"
    ),
    "when_rows": "game.decks.cards.template: over the budget of 200,000 template strings per language",
    "where_rows": "game.balance.draws: over the budget of 50,000 evaluations",
}


def test_quick_slice_of_budget_cases():
    """Unbounded work inside every cap (issue 34): a 60x60 grid looping 90,000 steps per cell, 5,000 rows x
    190 repeats x 100 copies, an all_of of four conditions over a 100-card hand from 5,000 cards, a `when:` on
    190 elements over 5,000 rows, 50 `where`s over 5,000 distinct rows: each a clean located error (the key
    named, the budget quoted), nothing written, within BUDGET_SECONDS."""
    from tests.fuzz.harness import BUDGET_MUTATIONS, BUDGET_SECONDS, budget_case

    summary = run_cases([budget_case(op) for op in BUDGET_MUTATIONS])
    got = {o.case.label: (o.kind, o.detail) for o in summary.outcomes}
    for op, key in BUDGET_KEYS.items():
        kind, detail = got[f"budget {op}"]
        # (a detail is clipped to 200 characters: the grid's message quotes its template before the budget)
        assert kind == "clean" and key in detail and ("budget" in detail or op == "grid_loop"), (
            op,
            kind,
            detail,
        )
    slow = [(o.case.label, round(o.seconds, 1)) for o in summary.outcomes if o.seconds > BUDGET_SECONDS]
    assert slow == []


def test_hostile_where_conditions_are_problems_not_tracebacks():
    """Every hostile template as a draw check's `where` and as an all_of condition (issue 34): legal_problems
    returns located problems (or none for a harmless one) and raises nothing, quickly."""
    import time as _time

    from generator.games.deck.legal import legal_problems
    from tests.fuzz.harness import HOSTILE_TEMPLATES
    from tests.games.deck.helpers import deck

    rows = [
        {"id": f"c{i}", "count": 1 + i % 3, "type": "xy"[i % 2], "cost": i % 4, "name": f"N{i}"}
        for i in range(40)
    ]
    exprs = [t[3:-3] for t in HOSTILE_TEMPLATES if t.startswith("{{ ") and t.endswith(" }}")]  # as conditions
    hostile = [
        *(t for t in HOSTILE_TEMPLATES if len(t) <= 500),
        *exprs,
        "1/0",
        "name + 1",
        "''.__class__",
        "cost > 'a'",
        "1 %}{% include 'x' %}{% if 1",
        "tpye == 'x'",
        "range(10**6)|sum",
        "[1] * 10**9",
    ]
    refused = 0
    for where in hostile:
        spec = deck(
            rows,
            balance={
                "draws": [
                    {
                        "name": "a",
                        "kind": "hand_has",
                        "component": "cards",
                        "hand": 5,
                        "where": where,
                        "bound": {"min": 0},
                    },
                    {
                        "name": "b",
                        "kind": "hand_has",
                        "component": "cards",
                        "hand": 5,
                        "bound": {"min": 0},
                        "all_of": [{"where": "type == 'x'"}, {"where": where}],
                    },
                ]
            },
        )
        t0 = _time.perf_counter()
        problems = legal_problems(spec)
        assert _time.perf_counter() - t0 < 10, where
        assert all(isinstance(k, str) and isinstance(m, str) and "Traceback" not in m for k, m in problems)
        refused += bool(problems)
    assert refused >= len(hostile) - 2  # `range` alone is a harmless (always true) condition


HOSTILE_SIDES = [
    "missing",
    None,
    "front",
    [["front", 1]],
    [["sideways", 1, []]],
    [["front", "1", []]],
    [["front", 1, ["x"]]],
    [["back", 1, [0]]] * 3,
    {"kind": "front"},
    # the gang-up fields (page size, pieces' box, ruler's box) malformed
    [["front", 1, [0], [595, 842], [0, 0, "x", 1], None]],
    [["front", 1, [0], [595], None, None]],
    [["front", 1, [0], [595, 842], [0, 0, 1], None]],
    [["front", 1, [0], [595, 842], None, {"x": 0}]],
]


@pytest.mark.parametrize(
    ("old", "new", "ok"),
    [
        ("  duplex: long ", "  duplex: fold ", True),
        ("  duplex: long ", "  duplex: folded ", False),
        ("  duplex: long ", "  duplex: [fold] ", False),
        ("  calibration: true", "  calibration: true\n  gang_up: false", True),
        ("  calibration: true", "  calibration: true\n  gang_up: sometimes", False),
        ("  calibration: true", "  calibration: true\n  gang_up: {on: 1}", False),
    ],
)
def test_cli_hostile_fold_and_gang_up_settings(tmp_path, old, new, ok):
    """`print.duplex: fold` and `print.gang_up`: a good value builds, a bad one is one located line, exit 1,
    nothing written."""
    import shutil

    kit = tmp_path / "ripple_rush"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (kit / "kit.yaml").write_text(text.replace(old, new), encoding="utf-8")
    out = tmp_path / "out"
    r = cli_in_process("build", str(kit), "--lang", "en", "--out", str(out))
    if ok:
        assert r.returncode == 0, r.stderr[-2000:]
        assert (out / "ripple_rush" / "en" / "kit-a4.pdf").is_file()
    else:
        _assert_clean_failure(r, out)
        assert "kit.yaml:" in r.stderr and "print." in r.stderr, r.stderr


@pytest.mark.parametrize("sides", HOSTILE_SIDES, ids=[repr(s)[:24] for s in HOSTILE_SIDES])
def test_a_hostile_build_record_is_composed_again_not_trusted(tmp_path, sides):
    """The build record's page sides (the sheet map's input for kept parts) edited by hand or by another tool:
    the part is composed again and the kit PDF is the one a clean build writes."""
    import json

    from generator.pipeline import build
    from tests.kitcopy import clean_build

    kit = ROOT / "layouts" / "sprout_sheet"
    out = tmp_path / "out"
    clean_build(kit, out, langs=["en"])  # one real build a test process, copied
    record = out / "sprout_sheet" / "en" / ".pnpkit" / "build.json"
    data = json.loads(record.read_text(encoding="utf-8"))
    entry = data["entries"]["goals-a4.pdf"]
    if sides == "missing":
        del entry["sides"]
    else:
        entry["sides"] = sides
    record.write_text(json.dumps(data), encoding="utf-8")
    for stale in (out / ".pnpkit" / "inputs").glob("*.json"):  # make the build look at the parts
        stale.unlink()
    again = build([kit], out=out, langs=["en"])
    assert again.rebuilt >= 1
    clean_build(kit, tmp_path / "clean", langs=["en"])
    for name in ("kit-a4.pdf", "goals-a4.pdf", "calibration-a4.pdf"):
        assert (out / "sprout_sheet" / "en" / name).read_bytes() == (
            tmp_path / "clean" / "sprout_sheet" / "en" / name
        ).read_bytes()


HOSTILE_REPORTS: list[tuple[str, object]] = [
    ("printing", "x"),
    ("printing", [{"kit": 1}]),
    ("printing", [{"kit": "k", "lang": "en", "steps": "not a list", "sheets": 1, "ink": 0.5}]),
    ("printing", [{"kit": "k", "lang": "en", "steps": [], "sheets": "4", "ink": 0.5}]),
    ("pages", "12"),
    ("warnings", [1]),
    ("files", "outside"),  # a file named in the record outside OUT (its digest right)
    ("files", "escape"),  # a file name that is a terminal escape
]


@pytest.mark.parametrize(
    "field, value", HOSTILE_REPORTS, ids=[f"{f}-{repr(v)[:20]}" for f, v in HOSTILE_REPORTS]
)
def test_a_hostile_inputs_record_is_not_trusted(tmp_path, field, value):
    """The inputs record that lets a build with nothing to do skip every phase, edited by hand or by another
    tool: its report (which the summary repeats) must have the shapes a build writes, and every file it names
    must lie below OUT, printable; else the build runs as if there were no record, and writes one anew.
    Trusted, the outside file would have been read (and matched: the build would have done nothing)."""
    import hashlib
    import json

    from generator.buildkeys import INPUTS
    from generator.pipeline import build
    from tests.kitcopy import clean_build

    kit = ROOT / "layouts" / "sprout_sheet"
    out = tmp_path / "out"
    clean_build(kit, out, langs=["en"])
    (record_file,) = (out / INPUTS).glob("*.json")
    written = record_file.read_bytes()
    data = json.loads(written)
    if value == "outside":
        outside = tmp_path / "outside.txt"
        outside.write_text("not pnpkit's")
        data["files"] = {"../outside.txt": hashlib.sha256(outside.read_bytes()).hexdigest()}
    elif value == "escape":
        name = "sprout_sheet/en/kit-\x1b[2J.pdf"
        (out / name).write_bytes(b"x")
        data["files"] = {**data["files"], name: hashlib.sha256(b"x").hexdigest()}
    else:
        data[field] = value
    record_file.write_text(json.dumps(data), encoding="utf-8")
    again = build([kit], out=out, langs=["en"])
    assert again.timings["check"] > 0  # the phases ran: not "nothing to do" on the record's word
    rewritten, original = json.loads(record_file.read_bytes()), json.loads(written)
    assert rewritten[field] == original[field]  # and the record holds the build's own again
    trusted = build([kit], out=out, langs=["en"])
    assert trusted.timings["check"] == 0 and trusted.printing == again.printing
    assert all(out in p.parents for p in trusted.outputs)
