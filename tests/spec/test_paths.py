"""Kits read files only from inside their folder (issue 12): symlinks leaving it, loops and special files are
located errors, and no message quotes a file outside the kit."""

import os
import shutil
from pathlib import Path

import pytest

from generator.contract.load import load_kit
from generator.errors import SpecError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def kit(tmp_path):
    dst = tmp_path / "kit"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", dst)
    return dst


@pytest.fixture
def outside(tmp_path):
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    shutil.copytree(ROOT / "layouts" / "ripple_rush" / "locales", secret / "locales")
    shutil.copy(ROOT / "layouts" / "ripple_rush" / "kit.yaml", secret / "kit.yaml")
    return secret


def problems(kit_dir) -> list[str]:
    with pytest.raises(SpecError) as e:
        load_kit(kit_dir)
    text = str(e.value)
    assert "root:x" not in text
    return [str(p).replace(str(kit_dir), "KIT") for p in e.value.problems]


def test_kit_yaml_symlinked_outside_is_refused_and_not_echoed(kit, outside):
    (kit / "kit.yaml").unlink()
    (kit / "kit.yaml").symlink_to(outside / "passwd")
    assert problems(kit) == [
        (
            "KIT/kit.yaml: kit.yaml resolves outside the kit folder (symlink?); "
            "kits may only read files inside their own folder"
        )
    ]


def test_kit_yaml_symlinked_to_a_valid_outside_spec_is_refused(kit, outside):
    (kit / "kit.yaml").unlink()
    (kit / "kit.yaml").symlink_to(outside / "kit.yaml")
    assert "resolves outside the kit folder" in problems(kit)[0]


def test_locales_folder_symlinked_outside_is_refused(kit, outside):
    shutil.rmtree(kit / "locales")
    (kit / "locales").symlink_to(outside / "locales")
    assert problems(kit) == [
        f"KIT/locales/{lang}.po: the {lang} catalog resolves outside the kit folder (symlink?); "
        "kits may only read files inside their own folder"
        for lang in ("en", "ja", "es", "de", "fr")
    ]


def test_one_catalog_symlinked_outside_is_refused(kit, outside):
    (kit / "locales" / "en.po").unlink()
    (kit / "locales" / "en.po").symlink_to(outside / "locales" / "en.po")
    assert problems(kit) == [
        (
            "KIT/locales/en.po: the en catalog resolves outside the kit folder (symlink?); "
            "kits may only read files inside their own folder"
        )
    ]


def test_symlink_inside_the_kit_is_followed(kit):
    (kit / "locales" / "es.po").rename(kit / "spanish.po")
    (kit / "locales" / "es.po").symlink_to(kit / "spanish.po")
    assert load_kit(kit).catalogs["es"].messages


def test_kit_yaml_symlink_loop_is_located(kit):
    (kit / "kit.yaml").unlink()
    (kit / "kit.yaml").symlink_to(kit / "kit.yaml")
    assert problems(kit) == ["KIT/kit.yaml: cannot open kit.yaml (symlink loop)"]


def test_proc_file_is_refused(kit):
    (kit / "kit.yaml").unlink()
    (kit / "kit.yaml").symlink_to("/proc/self/mem")
    assert "resolves outside the kit folder" in problems(kit)[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_is_refused_without_blocking(kit):
    (kit / "locales" / "ja.po").unlink()
    os.mkfifo(kit / "locales" / "ja.po")
    assert problems(kit) == ["KIT/locales/ja.po: the ja catalog is not a regular file"]


def test_replayed_reads_open_only_inside_the_named_kit_folders(tmp_path, monkeypatch):
    """The build's keying replays the looks a record lists; an edited record that names another folder (or a
    file outside the kit) is refused before anything is opened, and a faithful one sees what the load saw."""
    import shutil

    from generator.pipeline.load import load_kits
    from generator.spec import paths

    kit = tmp_path / "kit"
    shutil.copytree(Path(__file__).resolve().parents[2] / "layouts" / "harvest_deck", kit)
    with paths.recording_reads() as looks:
        (loaded,) = load_kits([kit])
    reads = [[*look, seen] for look, seen in looks.items()]
    # the game section's own reads (recorded inside the load's, for the per-part build keys) reach
    # this one too
    assert sorted(loaded.game_files) == ["assets/emblem.svg", "data/cards.csv"]
    assert [r[0] for r in reads[:3]] == ["dir", "resolve", "read"]
    assert {Path(r[1]).relative_to(kit).as_posix() for r in reads if r[0] == "read"} == {
        "kit.yaml",
        "data/cards.csv",
        "assets/emblem.svg",
        *(f"locales/{lang}.po" for lang in ("en", "ja", "es", "de", "fr")),
    }
    assert paths.replay_reads(reads, [kit]) == [(tuple(r[:3]), r[3]) for r in reads]
    opened: list[str] = []
    real_read = paths.read_bytes
    monkeypatch.setattr(paths, "read_bytes", lambda real, *a: opened.append(str(real)) or real_read(real, *a))
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("x", encoding="utf-8")
    tampered = [
        ["dir", str(outside), "", str(outside)],
        ["resolve", str(outside / "secret"), str(outside), str(outside / "secret")],
        ["read", str(outside / "secret"), "9", "0"],
    ]
    assert paths.replay_reads(tampered, [kit]) is None
    assert (
        paths.replay_reads(reads + [["read", str(outside / "secret"), "9", "0"]], [kit]) is None
    )  # not resolved
    assert not any(p.startswith(str(outside)) for p in opened)
    (kit / "data" / "cards.csv").write_bytes(b"changed")
    seen = paths.replay_reads(reads, [kit])
    assert seen is not None and seen != [(tuple(r[:3]), r[3]) for r in reads]
