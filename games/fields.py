"""Engine state fields declared once, as class annotations.

A state class lists its fields as annotations; ``FieldsMeta`` turns that one
list into ``__slots__``, the JSON snapshot (``dump``/``load``) and a generated
``copy``, so a field added to a game is saved, restored and copied without a
second edit. How a field is copied and saved follows from its annotation:

- ``int``, ``str``, ``bool``, ``None`` and unions of them: as they are;
- ``list[list[...]]``: two levels; ``list[tuple[...]]``: tuples saved as lists;
- ``list[...]``, ``dict[...]``: one level; ``set[...]``: saved as a sorted list;
- ``X | None`` for any of those: the same, or None;
- ``Annotated[T, DERIVED]``: not saved; recomputed by ``_derive`` after a load
  and shared (never mutated) by copies;
- ``Annotated[T, codec]``: a game's own ``Codec``.

Any other annotation is refused when the class is built, so a mutable field
can never be shared between a state and its copy by mistake.
"""

from __future__ import annotations

import inspect
import sys
from abc import ABCMeta
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Codec:
    #: a Python expression copying ``{}`` (the attribute) for the generated ``copy``
    copy: str
    dump: Callable[[Any], Any]
    load: Callable[[Any], Any]
    #: optional expressions doing what ``dump``/``load`` do to ``{}``, inlined into the generated
    #: snapshot code (a game's own codec leaves them out and its functions are called)
    dump_src: str | None = None
    load_src: str | None = None


#: the marker of a derived field: ``Annotated[int, DERIVED]``
DERIVED = "derived"

VALUE = Codec("{}", lambda v: v, lambda v: v, "{}", "{}")
LIST = Codec("{}[:]", list, list, "list({})", "list({})")
LISTS = Codec(
    "[x[:] for x in {}]",
    lambda v: [list(x) for x in v],
    lambda v: [list(x) for x in v],
    "[list(x) for x in {}]",
    "[list(x) for x in {}]",
)
TUPLES = Codec(
    "{}[:]",
    lambda v: [list(t) for t in v],
    lambda v: [tuple(t) for t in v],
    "[list(t) for t in {}]",
    "[tuple(t) for t in {}]",
)
DICT = Codec("dict({})", dict, dict, "dict({})", "dict({})")
SET = Codec("set({})", sorted, set, "sorted({})", "set({})")

_SCALARS = frozenset(("int", "str", "bool", "None", "float"))


def optional(codec: Codec) -> Codec:
    """``codec`` for a field that may also be None."""
    if codec is VALUE:
        return VALUE

    def maybe(src: str | None) -> str | None:
        return None if src is None else f"(None if {{0}} is None else {src.replace('{}', '{0}')})"

    return Codec(
        f"(None if {{0}} is None else {codec.copy.replace('{}', '{0}')})",
        lambda v: None if v is None else codec.dump(v),
        lambda v: None if v is None else codec.load(v),
        maybe(codec.dump_src),
        maybe(codec.load_src),
    )


def codec_of(annotation: str, namespace: dict[str, Any]) -> Codec | None:
    """The codec a field's annotation asks for; None for a derived field."""
    ann = annotation.strip()
    if ann.startswith("Annotated["):
        extra = ann[ann.rindex(",") + 1 : -1].strip()
        marker = eval(extra, namespace)  # a name defined in the state's module
        if marker == DERIVED:
            return None
        if isinstance(marker, Codec):
            return marker
        raise TypeError(f"unknown field marker {extra}")
    parts = [p.strip() for p in _split_union(ann)]
    nullable = "None" in parts
    rest = [p for p in parts if p != "None"]
    if all(p in _SCALARS for p in rest):
        return VALUE
    if len(rest) != 1:
        raise TypeError(f"field annotation {annotation!r}: say how it is copied (see games.fields)")
    base = rest[0]
    if base.startswith("list[list[") or base.startswith("list[set["):
        codec = LISTS
    elif base.startswith("list[tuple["):
        codec = TUPLES
    elif base.startswith("list["):
        codec = LIST
    elif base.startswith("dict["):
        codec = DICT
    elif base.startswith("set["):
        codec = SET
    else:
        raise TypeError(f"field annotation {annotation!r}: say how it is copied (see games.fields)")
    return optional(codec) if nullable else codec


def _split_union(ann: str) -> list[str]:
    out, depth, start = [], 0, 0
    for i, ch in enumerate(ann):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "|" and depth == 0:
            out.append(ann[start:i])
            start = i + 1
    out.append(ann[start:])
    return out


class FieldsMeta(ABCMeta):
    """Builds ``__slots__``, ``_FIELDS`` (saved), ``_DERIVED`` and ``_copy_fields`` from annotations."""

    def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any], **kw: Any) -> FieldsMeta:
        own = {k: v for k, v in ns.get("__annotations__", {}).items() if not str(v).startswith("ClassVar")}
        if "__slots__" not in ns:
            ns["__slots__"] = tuple(own)
        cls = super().__new__(mcs, name, bases, ns, **kw)
        module = sys.modules.get(ns.get("__module__", ""))
        namespace = dict(vars(module)) if module else {}
        fields: dict[str, Codec] = {}
        derived: list[str] = []
        for klass in reversed(cls.__mro__):
            for field, ann in inspect.get_annotations(klass).items():
                if str(ann).startswith("ClassVar"):
                    continue
                codec = codec_of(str(ann), namespace if klass is cls else _namespace(klass))
                if codec is None:
                    derived.append(field)
                else:
                    fields[field] = codec
        cls._FIELDS = fields  # type: ignore[attr-defined]
        cls._DERIVED = tuple(derived)  # type: ignore[attr-defined]
        scope: dict[str, Any] = {"_codecs": fields}
        lines = ["def _copy_fields(self, new):"]
        lines += [f"    new.{f} = {c.copy.format('self.' + f)}" for f, c in fields.items()]
        lines += [f"    new.{f} = self.{f}" for f in derived]
        lines.append("    return new")
        # snapshots as straight-line code (the platform loads and saves one on every move):
        # no call per field; a game's own codec is still called
        lines.append("def _dump_fields(self, out):")
        for f, c in fields.items():
            value = f"self.{f}"
            expr = c.dump_src.format(value) if c.dump_src else f"_codecs[{f!r}].dump({value})"
            lines.append(f"    out[{f!r}] = {expr}")
        lines.append("    return out")
        lines.append("def _load_fields(self, data):")
        for f, c in fields.items():
            value = f"data[{f!r}]"
            expr = c.load_src.format(value) if c.load_src else f"_codecs[{f!r}].load({value})"
            lines.append(f"    self.{f} = {expr}")
        lines.append("    return self")
        exec("\n".join(lines), scope)
        cls._copy_fields = scope["_copy_fields"]  # type: ignore[attr-defined]
        cls._dump_fields = scope["_dump_fields"]  # type: ignore[attr-defined]
        cls._load_fields = scope["_load_fields"]  # type: ignore[attr-defined]
        return cls


def _namespace(klass: type) -> dict[str, Any]:
    module = sys.modules.get(klass.__module__)
    return dict(vars(module)) if module else {}
