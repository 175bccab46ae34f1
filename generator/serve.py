"""`pnpkit serve`: a live preview of one kit. Starlette app served by uvicorn; watchfiles sees the kit's files
change, the build runs incrementally in a thread, and the page (one HTML document, no external assets) is told
by server-sent events to fetch the new state -- pictures, or the located validation errors. "Run check" starts
`python -m generator check KIT --json ...` as a worker process and streams its progress.

Only the kit's build outputs are served: page pictures and PDFs of OUT/<kit>/<lang>/, named by component id
and paper checked against the kit, never a path taken from the request."""

from __future__ import annotations

import asyncio
import errno
import json
import math
import os
import re
import socket
import sys
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from generator.errors import KitError, SpecError
from generator.render.pdfium_lock import PDFIUM as _PDFIUM  # pictures drawn one at a time, builds too
from generator.spec.choices import PAPERS

NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
PREVIEW_DPI = 80
CHECK_JSON = ".pnpkit-check.json"
_PROGRESS = re.compile(r"(\d+)/(\d+|\?)")  # rich's "done/total" column ("?" = open-ended)


class Preview:
    """The state of one kit's preview: the chosen language and paper, the last build's pictures or errors,
    the balance check worker."""

    def __init__(
        self,
        kit_dir: Path,
        out: Path,
        *,
        lang: str | None = None,
        paper: str | None = None,
        check_games: int = 200,
    ):
        self.kit_dir = kit_dir.resolve()
        self.out = out.resolve()
        self.lang = lang
        self.paper = paper
        self.tag = paper or ""
        self.check_games = check_games
        self.version = 0
        self.kit_id = self.kit_dir.name
        self.languages: list[str] = [lang] if lang else ["en"]  # the kit's own list once it loads
        self.components: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.warnings: list[str] = []
        self.built: dict[str, Any] = {}
        self.check: dict[str, Any] = {
            "status": "idle",
            "progress": "",
            "done": 0,
            "total": 0,
            "reports": [],
            "message": "",
        }
        self._listeners: set[asyncio.Queue[int]] = set()
        self._lock: asyncio.Lock | None = None
        self._pictures: OrderedDict[tuple[str, str, int], bytes] = OrderedDict()
        self._worker: asyncio.subprocess.Process | None = None
        self._load_check()

    # ------------------------------------------------------------ build

    def build_now(self) -> None:
        """Build the chosen language and paper (incrementally) and record the pictures or the errors."""
        from generator.pipeline import Run, build_run, load_run

        t = time.perf_counter()
        try:
            run = load_run(Run.of([self.kit_dir], out=self.out))
            kit = run.kits[0]
            self.kit_id = kit.meta.id
            self.languages = list(kit.meta.languages)
            if self.lang not in self.languages:
                self.lang = self.languages[0]
            if self.paper not in PAPERS:
                self.paper = kit.print.paper
            result = build_run(replace(run, langs=(self.lang,), paper=self.paper, kits=()))
        except SpecError as e:
            self.errors = [
                {"file": p.file, "line": p.line, "key": p.key, "message": p.message, "text": str(p)}
                for p in e.problems
            ]
        except KitError as e:
            self.errors = [{"file": "", "line": None, "key": "", "message": str(e), "text": str(e)}]
        else:
            self.errors = []
            self.warnings = list(result.warnings)
            self.components = self._components(kit)
            self.built = {
                "seconds": round(time.perf_counter() - t, 3),
                "drawn": result.rebuilt,
                "kept": result.skipped,
                "files": [f.name for f in result.files],
            }

    def _components(self, kit: Any) -> list[dict[str, Any]]:
        from generator.buildkeys import read_manifest
        from generator.pipeline import file_tag
        from generator.render.png import page_count

        self.tag = file_tag(kit, str(self.paper))  # the files' suffix: the paper, or "shop"
        folder = self.out / self.kit_id / str(self.lang)
        entries = read_manifest(folder)
        out = []
        for cid, comp in kit.components.items():
            name = f"{cid}-{self.tag}.pdf"
            entry = entries.get(name)
            if not comp.enabled or not entry or not (folder / name).is_file():
                continue
            with _PDFIUM:
                pages = page_count(folder / name)
            out.append({"id": cid, "file": name, "digest": str(entry.get("sha256", ""))[:16], "pages": pages})
        return out

    async def rebuild(self) -> None:
        """Build in a worker thread (the page keeps answering), then tell every open page."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            await asyncio.to_thread(self.build_now)
        self.bump()

    def bump(self) -> None:
        """A new state: every open page is told to fetch it."""
        self.version += 1
        for q in list(self._listeners):
            q.put_nowait(self.version)

    def state(self) -> dict[str, Any]:
        """What the page shows."""
        return {
            "version": self.version,
            "kit": self.kit_id,
            "languages": self.languages,
            "papers": list(PAPERS),
            "lang": self.lang,
            "paper": self.paper,
            "components": self.components,
            "errors": self.errors,
            "warnings": self.warnings[:20],
            "built": self.built,
            "check": self.check,
            "check_games": self.check_games,
        }

    # ------------------------------------------------------------ pictures and files

    def pdf_path(self, lang: str, name: str) -> Path | None:
        """An output PDF of this kit, only when `name` is one of the kit's own outputs for the chosen
        paper."""
        known = {c["file"] for c in self.components} | {f"kit-{self.tag}.pdf"}
        if lang not in self.languages or name not in known:
            return None
        path = self.out / self.kit_id / lang / name
        return path if path.is_file() else None

    def picture(self, lang: str, cid: str, page: int) -> bytes | None:
        """One page of a component as PNG (cached by the file's digest)."""
        from generator.render.png import page_png

        comp = next((c for c in self.components if c["id"] == cid), None)
        if comp is None or lang != self.lang or not 0 <= page < int(comp["pages"]):
            return None
        path = self.pdf_path(lang, str(comp["file"]))
        if path is None:
            return None
        key = (f"{lang}/{comp['file']}", str(comp["digest"]), page)
        if key not in self._pictures:
            with _PDFIUM:
                self._pictures[key] = page_png(path, page, dpi=PREVIEW_DPI)
            while len(self._pictures) > 256:
                self._pictures.popitem(last=False)
        return self._pictures[key]

    # ------------------------------------------------------------ balance check worker

    def _check_json(self) -> Path:
        return self.out / self.kit_id / CHECK_JSON

    def _load_check(self) -> None:
        try:
            doc = json.loads(self._check_json().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        self.check["reports"] = _verdicts(doc)
        self.check["status"] = "done"
        self.check["message"] = _summary(self.check["reports"])

    async def run_check(self, games: int) -> bool:
        """Start the check worker unless one runs; returns whether it started."""
        if self._worker is not None:
            return False
        target = self._check_json()
        target.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, FORCE_COLOR="1", COLUMNS="100", PYTHONHASHSEED="0")
        root = Path(__file__).resolve().parent.parent
        env["PYTHONPATH"] = os.pathsep.join([str(root), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        self._worker = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "generator",
            "check",
            str(self.kit_dir),
            "--games",
            str(games),
            "--json",
            str(target),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            env=env,
        )
        self.check.update(status="running", progress="starting", done=0, total=0, message="", games=games)
        self.bump()
        asyncio.get_running_loop().create_task(self._follow(self._worker, target))
        return True

    def stop_check(self) -> None:
        """End a running check worker (the server is stopping)."""
        if self._worker is not None and self._worker.returncode is None:
            self._worker.terminate()

    async def _follow(self, proc: asyncio.subprocess.Process, target: Path) -> None:
        tail = ""
        last = 0.0
        assert proc.stderr is not None
        while True:
            chunk = await proc.stderr.read(4096)
            if not chunk:
                break
            text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", chunk.decode("utf-8", "replace"))
            tail = (tail + text)[-4000:]
            found = _PROGRESS.findall(text)
            if found:
                done, total = found[-1]
                n_total = int(total) if total.isdigit() else 0
                self.check.update(
                    done=int(done),
                    total=n_total,
                    progress=f"{done} of {total} steps" if n_total else f"{done} games played",
                )
                if time.monotonic() - last > 0.3:
                    last = time.monotonic()
                    self.bump()
        rc = await proc.wait()
        self._worker = None
        try:
            doc = json.loads(target.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            lines = [ln.strip() for ln in tail.replace("\r", "\n").splitlines() if ln.strip()]
            self.check.update(status="error", message="\n".join(lines[-8:]) or f"check exited with {rc}")
        else:
            self.check.update(
                status="done", reports=_verdicts(doc), progress="", message=_summary(_verdicts(doc))
            )
        self.bump()

    # ------------------------------------------------------------ events

    async def events(self, request: Request) -> AsyncIterator[str]:
        """Server-sent events: the state's version whenever it changes (and a comment now and then)."""
        q: asyncio.Queue[int] = asyncio.Queue()
        self._listeners.add(q)
        try:
            yield f"data: {self.version}\n\n"
            while True:
                try:
                    v = await asyncio.wait_for(q.get(), timeout=10)
                except asyncio.TimeoutError:
                    if await request.is_disconnected():
                        return
                    yield ": keep-alive\n\n"
                    continue
                yield f"data: {v}\n\n"
        finally:
            self._listeners.discard(q)

    async def watch(self) -> None:
        """Rebuild whenever a file of the kit changes (outputs and editor temporaries ignored)."""
        from watchfiles import awatch

        def wanted(change: Any, path: str) -> bool:
            return is_watched(Path(path), self.kit_dir, self.out)

        async for _ in awatch(self.kit_dir, watch_filter=wanted, debounce=200, step=50):
            await self.rebuild()


def is_watched(path: Path, kit_dir: Path, out: Path) -> bool:
    """Whether a change to `path` rebuilds the preview: any file of the kit folder (kit.yaml, catalogs, fonts
    and art in assets/), not the outputs, hidden folders or editor temporaries."""
    if out == path or out in path.parents:
        return False
    try:
        rel = path.relative_to(kit_dir)
    except ValueError:
        return False
    return not any(part.startswith(".") for part in rel.parts) and not path.name.endswith(
        ("~", ".part", ".swp", ".tmp")
    )


def _shown(x: Any) -> Any:
    """A figure for the page: finite numbers as they are, infinities as "∞"/"-∞", NaN as "not measured" (JSON
    has no infinity: the page would not load), anything else that is not a number (a missing value) as
    None."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return x if isinstance(x, str) else None
    if math.isnan(x):
        return "not measured"
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    return x


def _verdict(t: dict[str, Any]) -> str:
    v = t.get("verdict")
    if v in ("HOLDS", "FAILS", "UNDECIDED"):
        return str(v)
    return "HOLDS" if t.get("ok") else "FAILS"  # a document from before verdicts


def _verdicts(doc: Any) -> list[dict[str, Any]]:
    """The verdict tables of a `check --json` document: per kit, each tolerance and its verdict (HOLDS, FAILS
    or UNDECIDED with the games per setting it would need), every figure safe to send as JSON."""
    out = []
    for rep in doc.get("reports", []) if isinstance(doc, dict) else []:
        rows = [
            {
                "name": t.get("name"),
                "measured": _shown(t.get("measured")) if "measured" in t else None,
                "min": _shown(t.get("minimum")),
                "max": _shown(t.get("maximum")),
                "verdict": _verdict(t),
                "ok": _verdict(t) == "HOLDS",
                "needed": _shown(t.get("needed_games")),
                "key": t.get("spec_key", ""),
            }
            for t in rep.get("tolerances", [])
        ]
        verdicts = {r["verdict"] for r in rows}
        verdict = (
            rep.get("verdict")
            if rep.get("verdict") in ("HOLDS", "FAILS", "UNDECIDED")
            else ("FAILS" if "FAILS" in verdicts else "UNDECIDED" if "UNDECIDED" in verdicts else "HOLDS")
        )
        tolerances = rep.get("tolerances") or []
        counted = [
            isinstance(t.get("evidence"), dict) and t["evidence"].get("kind") == "Exact" for t in tolerances
        ]
        out.append(
            {
                "kit": rep.get("kit"),
                "games": _shown(rep.get("games_per_setting")),
                "exact": bool(counted) and all(counted),
                "ok": verdict == "HOLDS",
                "verdict": verdict,
                "rows": rows,
                "fixes": [str(f) for f in rep.get("fixes") or [] if isinstance(f, str)],
            }
        )
    return out


def _summary(reports: list[dict[str, Any]]) -> str:
    """One line for the check's outcome: fails beat undecided; undecided names the games it would need."""
    rows = [r for rep in reports for r in rep["rows"]]
    if any(r["verdict"] == "FAILS" for r in rows):
        return "some tolerances fail"
    undecided = [r for r in rows if r["verdict"] == "UNDECIDED"]
    if undecided:
        needed = [r["needed"] for r in undecided if isinstance(r["needed"], int)]
        more = f": about {max(needed):,} games per setting would decide them" if needed else ""
        return f"{len(undecided)} tolerance{'s' if len(undecided) != 1 else ''} undecided, none fails{more}"
    return "all tolerances hold"


def make_app(preview: Preview, *, watch: bool = True) -> Starlette:
    """The preview's web app: the page, its state, events, pictures, PDFs and the check button."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await preview.rebuild()
        watcher = asyncio.get_running_loop().create_task(preview.watch()) if watch else None
        try:
            yield
        finally:
            if watcher is not None:
                watcher.cancel()
            preview.stop_check()

    routes = [*_page_routes(preview), *_api_routes(preview), *_file_routes(preview)]
    return Starlette(routes=routes, lifespan=lifespan)


def _page_routes(preview: Preview) -> list[Route]:
    """The page itself, its state and its event stream."""

    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE)

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    async def state(request: Request) -> Response:
        return JSONResponse(preview.state())

    async def events(request: Request) -> Response:
        return StreamingResponse(
            preview.events(request), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
        )

    return [
        Route("/", page),
        Route("/favicon.ico", no_icon),
        Route("/api/state", state),
        Route("/events", events),
    ]


def _api_routes(preview: Preview) -> list[Route]:
    """What the page asks for: another language or paper, a check run."""

    async def select(request: Request) -> Response:
        try:
            body = await request.json()
        except ValueError:
            body = None
        lang = body.get("lang") if isinstance(body, dict) else None
        paper = body.get("paper") if isinstance(body, dict) else None
        if lang not in preview.languages or paper not in PAPERS:
            return JSONResponse(
                {"error": f"expected lang in {preview.languages} and paper in {PAPERS}"}, status_code=400
            )
        preview.lang, preview.paper = lang, paper
        await preview.rebuild()
        return JSONResponse(preview.state())

    async def check(request: Request) -> Response:
        try:
            body = await request.json()
        except ValueError:
            body = {}
        games = body.get("games", preview.check_games) if isinstance(body, dict) else preview.check_games
        if not isinstance(games, int) or not 1 <= games <= 100_000:
            return JSONResponse({"error": "games: expected a whole number in 1..100000"}, status_code=400)
        started = await preview.run_check(games)
        return JSONResponse({"started": started}, status_code=202 if started else 409)

    return [
        Route("/api/select", select, methods=["POST"]),
        Route("/api/check", check, methods=["POST"]),
    ]


def _file_routes(preview: Preview) -> list[Route]:
    """The pictures of the pages and the PDFs."""

    async def picture(request: Request) -> Response:
        lang, cid = request.path_params["lang"], request.path_params["cid"]
        n = request.path_params["page"]
        if lang not in preview.languages or not NAME.fullmatch(cid):
            return Response(status_code=404)
        data = await asyncio.to_thread(preview.picture, lang, cid, n)
        if data is None:
            return Response(status_code=404)
        return Response(data, media_type="image/png", headers={"Cache-Control": "max-age=3600"})

    async def pdf(request: Request) -> Response:
        lang, name = request.path_params["lang"], request.path_params["name"]
        path = preview.pdf_path(lang, name) if lang in preview.languages else None
        if path is None:
            return Response(status_code=404)
        return FileResponse(path, media_type="application/pdf")

    return [
        Route("/page/{lang}/{cid}/{page:int}.png", picture),
        Route("/pdf/{lang}/{name}", pdf),
    ]


def serve(
    kit_dir: Path,
    *,
    out: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    lang: str | None = None,
    paper: str | None = None,
    check_games: int = 200,
) -> None:
    """Run the preview server until interrupted. The address is taken before anything is built or said: one
    in use (another preview, another program) is a KitError naming it, not a server log line and exit 3."""
    import uvicorn

    sock = listening_socket(host, port)
    try:
        preview = Preview(kit_dir, out, lang=lang, paper=paper, check_games=check_games)
        where = f"kit {preview.kit_dir}, outputs {preview.out}"
        print(f"pnpkit serve: http://{host}:{port}/  ({where}; Ctrl-C stops)", flush=True)
        server = uvicorn.Server(uvicorn.Config(make_app(preview), log_level="warning"))
        server.run(sockets=[sock])
    finally:
        sock.close()


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to host:port and listening, or a KitError saying why not (the port is in use, the
    host is no address of this machine)."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family)
    except OSError as e:
        why = os.strerror(e.errno) if isinstance(e.errno, int) and e.errno > 0 else e.strerror or str(e)
        in_use = e.errno == errno.EADDRINUSE
        hint = (
            "; another program (another pnpkit serve?) listens there: choose another --port" if in_use else ""
        )
        raise KitError(f"--host {host} --port {port}: cannot listen there ({why}){hint}") from None


PAGE = (Path(__file__).parent / "serve_page.html").read_text(encoding="utf-8")
"""The preview page: one HTML file with its style and script (it asks the server for everything else)."""
