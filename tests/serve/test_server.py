"""The preview server without a browser: it serves only the kit's own outputs, reports located errors, keeps
the last good pictures, and binds 127.0.0.1 unless told otherwise."""

import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient

from generator.serve import Preview, make_app

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def client(tmp_path):
    kit = tmp_path / "my_rr"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    preview = Preview(kit, tmp_path / "out", lang="en")
    with TestClient(make_app(preview, watch=False)) as c:
        c.preview = preview
        c.kit = kit
        yield c


def test_pictures_and_pdfs_of_the_kit_are_served(client):
    state = client.get("/api/state").json()
    assert [c["id"] for c in state["components"]] == ["score_sheet", "number_cards", "goal_cards", "rules"]
    assert state["errors"] == [] and state["lang"] == "en" and state["paper"] == "a4"
    png = client.get("/page/en/rules/0.png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    pdf = client.get("/pdf/en/kit-a4.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert "new EventSource(\"/events\")" in client.get("/").text


@pytest.mark.parametrize("path", [
    "/pdf/en/..%2F..%2Fmy_rr%2Fkit.yaml", "/pdf/en/../../my_rr/kit.yaml", "/pdf/en/kit.yaml",
    "/pdf/en/.pnpkit%2Fbuild.json", "/pdf/xx/kit-a4.pdf", "/pdf/ja/kit-a4.pdf",  # ja not built: not served
    "/page/en/..%2Fkit/0.png", "/page/en/score_sheet/99.png", "/page/en/nope/0.png", "/page/ja/rules/0.png",
    "/kit.yaml", "/out/my_rr/en/kit-a4.pdf",
])
def test_nothing_outside_the_kits_outputs_is_served(client, path):
    assert client.get(path).status_code == 404


def test_a_broken_spec_is_reported_located_and_the_last_pictures_stay(client):
    before = client.get("/api/state").json()["components"]
    yaml = client.kit / "kit.yaml"
    text = yaml.read_text(encoding="utf-8").replace("  rows: 8\n", "  rows: eight\n")
    yaml.write_text(text, encoding="utf-8")
    client.preview.build_now()
    state = client.get("/api/state").json()
    line = text.splitlines().index("  rows: eight") + 1
    assert [(e["line"], e["key"], e["message"]) for e in state["errors"]] == [
        (line, "game.rows", "expected a valid integer; got 'eight'")]
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
