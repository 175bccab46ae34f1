"""The preview server without a browser: it serves only the kit's own outputs, reports located errors, keeps
the last good pictures, and binds 127.0.0.1 unless told otherwise."""

import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")  # starlette.testclient's client (httpx is deprecated there)
from starlette.testclient import TestClient

from generator.serve import Preview, make_app

ROOT = Path(__file__).resolve().parents[2]


def _client(folder: Path):  # type: ignore[no-untyped-def]
    kit = folder / "my_rr"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    preview = Preview(kit, folder / "out", lang="en")
    with TestClient(make_app(preview, watch=False)) as c:
        c.preview = preview
        c.kit = kit
        yield c


@pytest.fixture
def client(tmp_path):
    """A preview of a fresh copy of Ripple Rush, for a test that edits the kit or changes the preview."""
    yield from _client(tmp_path)


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    """One preview for the tests that only ask for pages (made once: 0.2-0.5 s each)."""
    yield from _client(tmp_path_factory.mktemp("serve"))


def test_pictures_and_pdfs_of_the_kit_are_served(client):
    state = client.get("/api/state").json()
    assert [c["id"] for c in state["components"]] == ["score_sheet", "number_cards", "goal_cards", "rules"]
    assert state["errors"] == [] and state["lang"] == "en" and state["paper"] == "a4"
    png = client.get("/page/en/rules/0.png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    pdf = client.get("/pdf/en/kit-a4.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert 'new EventSource("/events")' in client.get("/").text


@pytest.mark.parametrize(
    "path",
    [
        "/pdf/en/..%2F..%2Fmy_rr%2Fkit.yaml",
        "/pdf/en/../../my_rr/kit.yaml",
        "/pdf/en/kit.yaml",
        "/pdf/en/.pnpkit%2Fbuild.json",
        "/pdf/xx/kit-a4.pdf",
        "/pdf/ja/kit-a4.pdf",  # ja not built: not served
        "/page/en/..%2Fkit/0.png",
        "/page/en/score_sheet/99.png",
        "/page/en/nope/0.png",
        "/page/ja/rules/0.png",
        "/kit.yaml",
        "/out/my_rr/en/kit-a4.pdf",
    ],
)
def test_nothing_outside_the_kits_outputs_is_served(reader, path):
    assert reader.get(path).status_code == 404


def test_a_broken_spec_is_reported_located_and_the_last_pictures_stay(client):
    before = client.get("/api/state").json()["components"]
    yaml = client.kit / "kit.yaml"
    text = yaml.read_text(encoding="utf-8").replace("  rows: 8\n", "  rows: eight\n")
    yaml.write_text(text, encoding="utf-8")
    client.preview.build_now()
    state = client.get("/api/state").json()
    line = text.splitlines().index("  rows: eight") + 1
    assert [(e["line"], e["key"], e["message"]) for e in state["errors"]] == [
        (line, "game.rows", "expected a valid integer; got 'eight'")
    ]
    assert state["errors"][0]["file"].endswith("my_rr/kit.yaml")
    assert state["components"] == before
    assert client.get("/page/en/rules/0.png").status_code == 200


def test_select_rebuilds_the_chosen_language_and_refuses_others(client):
    r = client.post("/api/select", json={"lang": "ja", "paper": "letter"})
    assert r.status_code == 200
    state = r.json()
    assert (state["lang"], state["paper"]) == ("ja", "letter")
    assert state["components"][0]["file"] == "score_sheet-letter.pdf"
    assert client.get("/page/ja/score_sheet/0.png").status_code == 200
    assert client.post("/api/select", json={"lang": "it", "paper": "a4"}).status_code == 400
    assert client.post("/api/check", json={"games": 0}).status_code == 400


def test_serve_binds_localhost_by_default():
    import inspect

    from generator import cli
    from generator.serve import serve

    assert inspect.signature(serve).parameters["host"].default == "127.0.0.1"
    assert inspect.signature(cli.serve).parameters["host"].default.default == "127.0.0.1"


def test_an_asset_change_rebuilds_the_preview(tmp_path):
    """Issue 24: `pnpkit serve` reloads on asset changes: files under assets/ are watched (outputs, hidden
    folders and editor temporaries are not), and a rebuild after an image changes draws the new image."""
    import io

    from PIL import Image

    from generator.serve import is_watched

    kit, out = tmp_path / "my_rr", tmp_path / "out"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    assert is_watched(kit / "assets" / "back.png", kit, out)
    assert is_watched(kit / "assets" / "suits" / "red.svg", kit, out)
    assert not is_watched(kit / "assets" / "back.png~", kit, out)
    assert not is_watched(kit / ".git" / "index", kit, out)
    assert not is_watched(out / "my_rr" / "en" / "kit-a4.pdf", kit, out)

    def png(colour):
        buf = io.BytesIO()
        Image.new("RGB", (900, 1200), colour).save(buf, format="PNG")
        return buf.getvalue()

    (kit / "assets").mkdir()
    (kit / "assets" / "back.png").write_bytes(png((200, 30, 120)))
    yaml = kit / "kit.yaml"
    text = yaml.read_text(encoding="utf-8")
    at = text.rindex("\n  number_cards:\n") + len("\n  number_cards:\n")
    yaml.write_text(
        text[:at] + "    art: {back: {path: assets/back.png, bleed: true}}\n" + text[at:], encoding="utf-8"
    )
    preview = Preview(kit, out, lang="en")
    with TestClient(make_app(preview, watch=False)) as c:
        pdf = out / "ripple_rush" / "en" / "number_cards-a4.pdf"
        before = pdf.read_bytes()
        (kit / "assets" / "back.png").write_bytes(png((20, 160, 60)))
        preview.build_now()
        assert c.get("/api/state").json()["errors"] == []
        assert pdf.read_bytes() != before


def test_a_port_in_use_is_a_clear_error_before_anything_is_built(tmp_path):
    """Another program on the port: `pnpkit serve` says so and exits 1 (uvicorn logged it and exited 3, this
    tool's code for an undecided check), having built nothing and announced no address."""
    import socket

    from tests.clirun import pnpkit

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        r = pnpkit("serve", "ripple_rush", "--port", str(port), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert r.returncode == 1 and r.stdout == "", (r.stdout, r.stderr)
    assert r.stderr == (
        f"error: --host 127.0.0.1 --port {port}: cannot listen there (Address already in use); another "
        "program (another pnpkit serve?) listens there: choose another --port\n"
    )
    assert not (tmp_path / "out").exists()


def test_serving_a_folder_of_kits_names_them(tmp_path):
    from tests.clirun import pnpkit

    shutil.copytree(ROOT / "layouts" / "ripple_rush", tmp_path / "kits" / "a")
    shutil.copytree(ROOT / "layouts" / "harvest_deck", tmp_path / "kits" / "b")
    r = pnpkit("serve", "kits", cwd=tmp_path)
    assert (r.returncode, r.stderr) == (
        1,
        "error: kits: no kit.yaml in this folder; its folders a, b are kits: name one of them instead\n",
    )
