"""generator/spec/yamlio.py keeps the text of a decimal that a float cannot hold (for exact readers), and
nothing else changes: plain floats stay floats, equal, picklable and JSON-able."""

from __future__ import annotations

import copy
import json
import pickle
from fractions import Fraction

from generator.spec.yamlio import DecimalFloat, parse_yaml


def test_a_long_decimal_keeps_its_text():
    data, lines = parse_yaml(
        b"a: {min: 0.5, max: 0.30000000000000000001}\nb: [0.1, 1.00000000000000000001e-3]\n"
        b"c: 1_000.5\nd: -2.50000000000000000001\n",
        "k.yaml",
    )
    assert type(data["a"]["min"]) is float and type(data["b"][0]) is float and type(data["c"]) is float
    assert isinstance(data["a"]["max"], DecimalFloat) and data["a"]["max"] == 0.3
    assert Fraction(data["a"]["max"].text) == Fraction(30000000000000000001, 10**20)
    assert Fraction(data["b"][1].text) == Fraction(100000000000000000001, 10**23)
    assert data["d"].text == "-2.50000000000000000001"
    assert lines[("a", "max")] == 1 and lines[("b", 1)] == 2
    again = pickle.loads(pickle.dumps(data))
    assert again == data and again["a"]["max"].text == data["a"]["max"].text
    assert copy.deepcopy(data)["d"].text == "-2.50000000000000000001"
    assert json.loads(json.dumps(data)) == data
