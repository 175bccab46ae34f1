"""What a user sees when a kit cannot be printed: a missing glyph names the file, language, text id and
character; nothing is written."""

import shutil
from pathlib import Path

import pytest

from generator.errors import RenderError
from generator.pipeline import build

ROOT = Path(__file__).resolve().parents[2]


def test_missing_glyph_is_named_and_nothing_is_written(tmp_path):
    kit = tmp_path / "rr"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    po = kit / "locales" / "es.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace('msgstr "Total"', 'msgstr "Total 🎲"'), encoding="utf-8"
    )
    out = tmp_path / "out"
    with pytest.raises(RenderError) as e:
        build([kit], out=out, langs=["en", "es"])
    msg = str(e.value)
    assert "language es" in msg and "sheet.total" in msg and "U+1F3B2" in msg
    assert not any(p.is_file() for p in out.rglob("*"))


def test_variant_sheets_carry_their_codes(tmp_path):
    kit = tmp_path / "rr"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    y = kit / "kit.yaml"
    text = y.read_text(encoding="utf-8")
    text = text.replace("    count: 0 ", "    count: 2 ").replace(
        "    games: 2000\n    players: 2", "    games: 200\n    players: 2"
    )
    y.write_text(text, encoding="utf-8")
    build([kit], out=tmp_path / "o", langs=["en"])
    import pypdf

    from generator.contract.load import load_kit
    from generator.games.ripple_rush.variants import generate_variants

    k = load_kit(kit)
    accepted = [v for v in generate_variants(k.game, k.meta.seed) if v.accepted][:2]
    assert len(accepted) == 2
    pages = pypdf.PdfReader(str(tmp_path / "o" / "ripple_rush" / "en" / "score_sheet-a4.pdf")).pages
    text = " ".join(p.extract_text() for p in pages)
    for v in accepted:
        assert v.code in text
