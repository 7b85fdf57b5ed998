"""core.jsontext: orjson's speed with the values json gives."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import jsontext

_ints = st.integers(min_value=-(2**63), max_value=2**64 - 1)
_scalars = st.none() | st.booleans() | _ints | st.floats(allow_nan=False, allow_infinity=False) | st.text()
_keys = st.text() | _ints | st.booleans() | st.none()
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=30,
)


@given(_values)
def test_dumped_and_read_as_json_would(value: Any) -> None:
    text = json.dumps(value)
    assert json.loads(jsontext.dumps(value)) == json.loads(text)
    assert jsontext.loads(jsontext.dumps_text(value)) == json.loads(text)
    assert jsontext.loads(text) == json.loads(text)


def test_what_orjson_does_not_take_goes_through_json() -> None:
    assert json.loads(jsontext.dumps({"n": 2**70})) == {"n": 2**70}
    with pytest.raises(TypeError):
        jsontext.dumps({"at": datetime.now(UTC)})
    assert jsontext.loads('{"x": NaN}')["x"] != jsontext.loads('{"x": NaN}')["x"]
    assert jsontext.loads('"\\ud800"') == "\ud800"
    with pytest.raises(RecursionError):
        jsontext.loads("[" * 100_000)
    with pytest.raises(json.JSONDecodeError):
        jsontext.loads("{")
