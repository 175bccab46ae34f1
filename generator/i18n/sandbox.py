"""The template language of catalog strings: a small, capped Jinja2 sandbox.

Catalogs come from strangers, so a msgstr may only do what rule text needs: print the spec's numbers, choose
plural forms, join lists, `if`/`for` over small ranges. Everything else is refused with a message the caller
locates at the .po line:

- no loader: `include`, `import`, `from ... import`, `extends`, `block`, macros and call blocks are refused
  when the string is parsed (check time), never at render;
- `self`, `caller`, `varargs`, `kwargs` are refused; printing a function or any object that is not a
  string, number, boolean or None is refused (no repr with an address reaches a PDF);
- no randomness: the environment has no `random` filter, no `lipsum`, no `cycler`/`joiner`/`namespace`;
- caps: `range()` at most MAX_RANGE items, `for` nested at most MAX_LOOP_DEPTH deep, at most MAX_STEPS loop
  iterations plus calls per string, strings and lists built by `*`, `+`, `~` at most MAX_VALUE items, integers
  at most MAX_INT_DIGITS digits, `**` exponents at most MAX_EXPONENT, output at most MAX_OUTPUT characters,
  at most MAX_SECONDS of rendering per string, and template source at most MAX_SOURCE characters; all strings
  an environment renders share MAX_COMMAND_STEPS (each string rendered counts one).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from jinja2 import Undefined, nodes
from jinja2.exceptions import SecurityError, TemplateSyntaxError
from jinja2.filters import FILTERS
from jinja2.sandbox import SandboxedEnvironment

MAX_SOURCE = 4000
MAX_OUTPUT = 4000
MAX_RANGE = 1000
MAX_LOOP_DEPTH = 2
MAX_STEPS = 100_000
MAX_VALUE = 4000
MAX_INT_DIGITS = 30
MAX_EXPONENT = 64
MAX_SECONDS = 0.5
MAX_COMMAND_STEPS = 10**6
"""Loop iterations, calls and strings rendered by one environment (one language of one command) in all: a face
template run for every row and every grid cell stops within seconds however small each string's own work
is."""

#: Filters a catalog string may use; everything that formats with a width, pads, randomises, reprs or
#: builds markup is left out.
ALLOWED_FILTERS = (
    "abs",
    "capitalize",
    "default",
    "d",
    "first",
    "float",
    "int",
    "last",
    "length",
    "count",
    "lower",
    "max",
    "min",
    "reverse",
    "round",
    "sort",
    "sum",
    "title",
    "trim",
    "unique",
    "upper",
    "wordcount",
)
#: Methods of strings, lists and mappings a template may call (none of them grows a value).
ALLOWED_METHODS = frozenset(
    {
        "upper",
        "lower",
        "title",
        "capitalize",
        "strip",
        "lstrip",
        "rstrip",
        "startswith",
        "endswith",
        "isdigit",
        "isalpha",
        "items",
        "keys",
        "values",
        "get",
        "index",
        "count",
    }
)
#: Names a template may not use: `self` prints a TemplateReference, the others belong to macros.
REFUSED_NAMES = frozenset({"self", "caller", "varargs", "kwargs"})
_REFUSED_NODES: dict[type[nodes.Node], str] = {
    nodes.Include: "include",
    nodes.Import: "import",
    nodes.FromImport: "from ... import",
    nodes.Extends: "extends",
    nodes.Block: "block",
    nodes.Macro: "macro",
    nodes.CallBlock: "call",
}
_PRINTABLE = (str, int, float, bool, type(None))


class TemplateLimit(SecurityError):
    """A catalog string broke one of the sandbox's caps (size, time, loop, value)."""


class Helper:
    """A function offered to templates; printing it (rather than calling it) is an error, not a repr."""

    def __init__(self, name: str, usage: str, fn: Callable[..., Any]):
        self.name, self.usage, self.fn = name, usage, fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def _refuse(self) -> str:
        raise SecurityError(f"{self.name} is a function; call it, e.g. {self.usage}")

    __str__ = _refuse
    __repr__ = _refuse

    def __format__(self, spec: str) -> str:
        return self._refuse()


def _describe(value: Any) -> str:
    if isinstance(value, Helper):
        return f"the function {value.name} (call it, e.g. {value.usage})"
    if callable(value):
        return "a function"
    return f"a {type(value).__name__}"


def _size(value: Any) -> int:
    return len(value) if isinstance(value, (str, list, tuple)) else 0


def _check_int(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_INT_DIGITS:
        raise TemplateLimit(f"a number with more than {MAX_INT_DIGITS} digits")
    return value


def _check_value(value: Any) -> Any:
    if _size(value) > MAX_VALUE:
        raise TemplateLimit(f"a value of {_size(value)} items; the limit is {MAX_VALUE}")
    return _check_int(value)


class CatalogEnvironment(SandboxedEnvironment):
    """The sandbox catalog strings render in (no loader, capped, deterministic)."""

    intercepted_binops = frozenset({"*", "**", "+", "%", "//", "/"})

    def __init__(self) -> None:
        from jinja2 import StrictUndefined

        super().__init__(
            undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False, finalize=self._finalize
        )
        self.filters = {name: FILTERS[name] for name in ALLOWED_FILTERS}
        self.globals.clear()
        self.globals.update(
            range=Helper("range", "range(1, 4)", self._range), __loop=self._loop, __concat=self._concat
        )
        self._deadline = 0.0
        self._steps = 0
        self.total_steps = 0
        """Steps of every string this environment rendered (the budget MAX_COMMAND_STEPS)."""

    # ------------------------------------------------------------------ caps at render

    def start(self) -> None:
        """Reset the per-string budget (time and steps) before rendering one string."""
        self._deadline = time.perf_counter() + MAX_SECONDS
        self._steps = 0
        self._charge()

    def step(self) -> None:
        """Count one loop iteration or call; refuse past the step or time budget."""
        self._steps += 1
        self._charge()
        if self._steps > MAX_STEPS:
            raise TemplateLimit(f"more than {MAX_STEPS} loop iterations and calls")
        if self._steps % 256 == 0 and time.perf_counter() > self._deadline:
            raise TemplateLimit(f"rendering took longer than {MAX_SECONDS} s")

    def _charge(self) -> None:
        self.total_steps += 1
        if self.total_steps > MAX_COMMAND_STEPS:
            raise TemplateLimit(
                f"the templates of this command took over {MAX_COMMAND_STEPS:,} steps (loop "
                "iterations, calls and strings rendered): the budget of one command"
            )

    def _range(self, *args: Any) -> range:
        if not args or not all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            raise SecurityError("range() takes whole numbers, e.g. range(1, 4)")
        for a in args:
            _check_int(a)
        r = range(*args)
        if len(r) > MAX_RANGE:
            raise TemplateLimit(f"range() of {len(r)} items; the limit is {MAX_RANGE}")
        return r

    def _loop(self, items: Iterable[Any]) -> Iterator[Any]:
        for item in items:
            self.step()
            yield item

    def _concat(self, *parts: Any) -> str:
        out = []
        total = 0
        for p in parts:
            text = self._finalize(p)
            total += len(text)
            if total > MAX_VALUE:
                raise TemplateLimit(f"a string of more than {MAX_VALUE} characters")
            out.append(text)
        return "".join(out)

    def _finalize(self, value: Any) -> str:
        if isinstance(value, Undefined):
            return str(value)  # StrictUndefined raises the located "'x' is undefined"
        if not isinstance(value, _PRINTABLE):
            raise SecurityError(f"cannot print {_describe(value)}; print numbers and text only")
        return "" if value is None else str(value)

    def call(self, __context: Any, __obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        """Every call counts against the budget; results are size-checked."""
        self.step()
        return _check_value(super().call(__context, __obj, *args, **kwargs))

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        """`*`, `+` and `**` may not build huge values; `%` formatting of strings is refused."""
        if operator == "%" and isinstance(left, str):
            raise SecurityError("'%' string formatting is not allowed; write {{ value }} in the text")
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > MAX_EXPONENT:
            raise TemplateLimit(f"an exponent above {MAX_EXPONENT}")
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if (
                    isinstance(seq, (str, list, tuple))
                    and isinstance(n, int)
                    and len(seq) * max(n, 0) > MAX_VALUE
                ):
                    raise TemplateLimit(f"a value of {len(seq) * n} items; the limit is {MAX_VALUE}")
        if operator == "+" and _size(left) + _size(right) > MAX_VALUE:
            raise TemplateLimit(f"a value of more than {MAX_VALUE} items")
        return _check_value(super().call_binop(context, operator, left, right))

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """`str.format` pads to any width: refused (the sandbox would otherwise wrap and allow it)."""
        wrapped = super().wrap_str_format(value)
        if wrapped is not None:
            raise SecurityError("str.format is not allowed; write {{ value }} in the text")
        return None

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        """Only data and a few read-only methods of strings, lists and mappings."""
        if callable(value) and attr not in ALLOWED_METHODS:
            return False
        return bool(super().is_safe_attribute(obj, attr, value))

    # ------------------------------------------------------------------ checks at parse

    def parse_checked(self, source: str) -> nodes.Template:
        """Parse a catalog string, refuse what the sandbox does not offer, and wrap loops and `~` in the
        capped helpers. Raises TemplateSyntaxError (bad syntax) or SecurityError (refused feature)."""
        if len(source) > MAX_SOURCE:
            raise TemplateLimit(f"the text is {len(source)} characters; the limit is {MAX_SOURCE}")
        tree = self.parse(source)
        for node in tree.find_all(tuple(_REFUSED_NODES)):
            raise SecurityError(
                f"'{{% {_REFUSED_NODES[type(node)]} %}}' is not allowed in catalog strings "
                f"(they are self-contained: no other templates, blocks or macros)"
            )
        for name in tree.find_all(nodes.Name):
            if name.name in REFUSED_NAMES or name.name.startswith("__"):
                raise SecurityError(f"'{name.name}' is not available in catalog strings")
        for f in tree.find_all((nodes.Filter, nodes.Test)):
            if isinstance(f, nodes.Filter) and f.name not in self.filters:
                raise SecurityError(
                    f"no filter named '{f.name}'; catalog strings may use "
                    f"{', '.join(sorted(set(ALLOWED_FILTERS)))}"
                )
        _check_depth(tree, 0)
        for loop in tree.find_all(nodes.For):
            if loop.recursive:
                raise SecurityError("recursive loops are not allowed in catalog strings")
            loop.iter = nodes.Call(
                nodes.Name("__loop", "load"), [loop.iter], [], None, None, lineno=loop.lineno
            )
        _wrap_concat(tree)
        tree.set_environment(self)
        return tree

    def compile_checked(self, source: str) -> Any:
        """A Template from a checked, wrapped parse tree, bound to this environment. The Python code Jinja
        compiles a string to is kept for the process (`_CODE`): every CatalogEnvironment is configured alike
        and the code reads the environment's filters, helpers and caps when it runs, so each language and
        command compiles a catalog string once, not once per Texts (7 % of a validate)."""
        code = _CODE.get(source)
        if code is None:
            code = self.compile(self.parse_checked(source))
            if len(_CODE) >= _CODE_SIZE:
                del _CODE[next(iter(_CODE))]  # the oldest
            _CODE[source] = code
        return self.template_class.from_code(self, code, self.make_globals(None), None)


_CODE: dict[str, Any] = {}
"""Catalog string -> the code Jinja compiled it to (only strings that passed `parse_checked`)."""
_CODE_SIZE = 4096
"""Most strings kept in `_CODE` (the shipped kits hold about 2,000 distinct strings)."""


def _check_depth(node: nodes.Node, depth: int) -> None:
    for child in node.iter_child_nodes():
        d = depth + 1 if isinstance(child, nodes.For) else depth
        if d > MAX_LOOP_DEPTH:
            raise SecurityError(f"loops nested more than {MAX_LOOP_DEPTH} deep")
        _check_depth(child, d)


def _wrap_concat(node: nodes.Node) -> None:
    """Replace every `a ~ b` with a call of the size-checked concatenation (a Concat can't be intercepted)."""
    for field in node.fields:
        value = getattr(node, field, None)
        if isinstance(value, nodes.Node):
            _wrap_concat(value)
            if isinstance(value, nodes.Concat):
                setattr(node, field, _concat_call(value))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, nodes.Node):
                    _wrap_concat(item)
                    if isinstance(item, nodes.Concat):
                        value[i] = _concat_call(item)


def _concat_call(node: nodes.Concat) -> nodes.Call:
    return nodes.Call(nodes.Name("__concat", "load"), list(node.nodes), [], None, None, lineno=node.lineno)


def template_problem(env: CatalogEnvironment, source: str) -> str | None:
    """Why a catalog string cannot be used (syntax or refused feature), or None when it can. A string
    without "{" opens no tag, expression or comment (each starts with one), so Jinja reads it as text: only
    its length is checked (7 of 10 shipped strings, each parsed in 0.8 ms)."""
    if "{" not in source and len(source) <= MAX_SOURCE:
        return None
    try:
        env.parse_checked(source)
    except TemplateSyntaxError as e:
        return f"template syntax: {e.message}"
    except SecurityError as e:
        return f"template: {e}"
    except RecursionError:
        return "template: nested too deeply"
    return None
