"""kernel._fast_flag_compare: numba's compiler flags compare and hash as numba's own methods do."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from generator.engine import kernel

pytestmark = pytest.mark.skipif(not kernel.NRT_OFF, reason="applied only on the numba versions checked")


def _flags() -> list[Any]:
    """Flags objects with none, one or two options set (to their default or to another value), and the
    flags numba's own jit options make."""
    from numba.core.compiler import Flags

    other = {"nrt": True, "no_cpython_wrapper": True, "boundscheck": True, "inline": "always"}
    default = {"nrt": False, "no_cpython_wrapper": False, "boundscheck": None, "inline": "never"}
    out = [Flags()]
    for name, value in other.items():
        for v in (value, default[name]):
            f = Flags()
            setattr(f, name, v)
            out.append(f)
    for (a, va), (b, vb) in itertools.combinations(other.items(), 2):
        f = Flags()
        setattr(f, a, va)
        setattr(f, b, vb)
        out.append(f)
    return out


def test_the_compare_is_installed():
    from numba.core.targetconfig import TargetConfig

    assert TargetConfig.__eq__ is not TargetConfig._numba_eq
    assert TargetConfig.__hash__ is not TargetConfig._numba_hash


def test_flags_compare_and_hash_as_numba_compares_them():
    from numba.core.targetconfig import TargetConfig

    flags = _flags()
    pairs = 0
    for f, g in itertools.product(flags, flags):
        assert (f == g) is TargetConfig._numba_eq(f, g), (f, g)
        assert hash(f) == TargetConfig._numba_hash(f)
        pairs += f == g
    assert len(flags) < pairs < len(flags) ** 2  # some equal (a default set explicitly), most not


def test_flags_of_another_config_class_fall_back_to_numbas_compare():
    from numba.core.compiler import Flags
    from numba.core.targetconfig import Option, TargetConfig

    class Other(TargetConfig):
        nrt = Option(type=bool, default=False, doc="")

    assert (Flags() == Other()) is TargetConfig._numba_eq(Flags(), Other())
