"""Text ids -> localized strings. Catalog entries are Jinja2 templates (sandboxed) filled with the spec's
numbers, so a variant that changes a figure prints it in every language with no catalog edit."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal
from jinja2 import TemplateError

from generator.errors import Problem, SpecError
from generator.i18n.sandbox import MAX_OUTPUT, CatalogEnvironment, Helper, TemplateLimit
from generator.spec.catalogs import PSEUDO, Catalog

FALLBACK = "en"
MAX_RENDERED = MAX_OUTPUT


class Texts:
    """Localized strings for one language, with the spec's numbers as template variables."""

    def __init__(
        self,
        lang: str,
        catalogs: Mapping[str, Catalog],
        context: Mapping[str, Any],
        warn: Callable[[str], None] | None = None,
    ):
        self.lang = lang
        self.catalogs = catalogs
        self.context = dict(context)
        self.locale = Locale.parse(FALLBACK if lang == PSEUDO else lang)  # qps: English numbers and plurals
        self._warn = warn
        self._warned: set[str] = set()
        self._cache: dict[str, Any] = {}
        self.origins: dict[str, tuple[str, int | None, str]] = {}
        self.used: set[str] = set()
        """Every text id looked up (or asked about with `has`): incremental builds key components on them."""
        """Every string handed out -> (catalog, line, text id): layout errors quote it, this locates it."""
        env = CatalogEnvironment()
        env.globals.update(
            plural=Helper("plural", "plural(n, one='card', other='cards')", self._plural),
            num=Helper("num", "num(1234.5)", self._num),
            join=Helper("join", "join(values)", self._join),
        )
        self.env = env

    def _plural(self, n: int, **forms: str) -> str:
        cat = self.locale.plural_form(n)
        return forms.get(cat, forms.get("other", ""))

    def _num(self, n: float) -> str:
        return format_decimal(n, locale=self.locale)

    def _join(self, items: list[Any]) -> str:
        return format_list([self.env._finalize(i) for i in items], locale=self.locale)

    def warn(self, message: str) -> None:
        """Pass a translation warning on (once per message), as a missing catalog entry is."""
        if self._warn and message not in self._warned:
            self._warned.add(message)
            self._warn(message)

    def locate(self, message: str) -> tuple[str, int | None, str] | None:
        """The catalog line of the longest string this object handed out that `message` quotes, if any."""
        best: tuple[str, int | None, str] | None = None
        size = 0
        for text, origin in self.origins.items():
            for quoted in (repr(text), repr(text[:60])):
                if len(text) > size and len(text) >= 3 and quoted in message:
                    best, size = origin, len(text)
        return best

    def has(self, text_id: str) -> bool:
        """Whether this language or the fallback defines the id."""
        self.used.add(text_id)
        return text_id in self._catalog(self.lang).messages or text_id in self._catalog(FALLBACK).messages

    def _catalog(self, lang: str) -> Catalog:
        return self.catalogs[lang]

    def __call__(self, text_id: str, **extra: Any) -> str:
        """The string for `text_id` in this language (English with a warning when missing)."""
        self.used.add(text_id)
        cat = self._catalog(self.lang)
        if text_id not in cat.messages:
            cat = self._catalog(FALLBACK)
            if text_id not in cat.messages:
                raise SpecError(
                    [
                        Problem(
                            self._catalog(FALLBACK).path,
                            None,
                            text_id,
                            "text id is used by the layout but missing from the English catalog",
                        )
                    ]
                )
            if self._warn and text_id not in self._warned:
                self._warned.add(text_id)
                self._warn(
                    f"{self._catalog(self.lang).path}: {text_id}: no {self.lang} translation; using English"
                )
        key = f"{cat.lang}\0{text_id}"
        tmpl = self._cache.get(key)
        try:
            if tmpl is None:
                tmpl = self.env.compile_checked(cat.messages[text_id])
                self._cache[key] = tmpl
            out = self._render(tmpl, {**self.context, **extra})
            self.origins.setdefault(out, (cat.path, cat.lines.get(text_id), text_id))
            return out
        except TemplateError as e:
            problem = f"template error: {e}"
        except (ArithmeticError, LookupError, TypeError, ValueError, RecursionError) as e:
            # a sandboxed template is the catalog author's code: whatever it raises is their error, located
            problem = f"template error: {type(e).__name__}: {e}"
        raise SpecError([Problem(cat.path, cat.lines.get(text_id), text_id, problem)])

    def _render(self, tmpl: Any, context: dict[str, Any]) -> str:
        """Render chunk by chunk so the output cap stops a runaway string early."""
        self.env.start()
        out: list[str] = []
        size = 0
        for chunk in tmpl.generate(context):
            size += len(chunk)
            if size > MAX_RENDERED:
                raise TemplateLimit(
                    f"renders to more than {MAX_RENDERED} characters; the limit is {MAX_RENDERED}"
                )
            out.append(chunk)
        return "".join(out)


def missing_ids(catalogs: Mapping[str, Catalog]) -> dict[str, list[str]]:
    """For every language, the English ids its catalog lacks (sorted)."""
    en = set(catalogs[FALLBACK].messages)
    return {lang: sorted(en - set(c.messages)) for lang, c in catalogs.items() if lang != FALLBACK}
