"""Words a game shows its players, in any language, without ``games/`` importing Django.

A game builds a sentence as a ``Said``: the English message, its named
arguments (card codes, suit symbols and numbers stay as they are; an argument
may itself be a ``Said``) and, for a counted message, its plural and count.
A ``Said`` is plain JSON and names no language, so the platform stores it (a
move's words) or shares it (one copy per move for every socket of a table)
and renders it for each reader with that reader's translator
(``render(said, Translator(gettext, ngettext))``); ``render(said)`` is English.

Every message is written through ``say`` (one message) or ``says`` (a counted
one): ``manage.py makemessages`` extracts both from ``games/`` as gettext
keywords, so a sentence reaches the catalogues where it is written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: {"t": message, "a": {name: argument}} and, counted, "p": plural and "n": count; a list is parts joined by "; ";
#: an argument {"seat": n} names a seat (``seat``), {"v": text} is shown as it is
Said = dict[str, Any] | list[dict[str, Any]]


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


@dataclass(frozen=True)
class Translator:
    """The reader's gettext and ngettext (Django's, on the platform); the default is English as written."""

    gettext: Callable[[str], str] = str
    ngettext: Callable[[str, str, int], str] = _english_plural
    #: a seat named for the reader (his player's name); None: "seat N", counted from 1
    seat_name: Callable[[int], str] | None = None

    def seat(self, index: int) -> str:
        if self.seat_name is not None:
            return self.seat_name(index)
        return self.gettext("seat %(n)s") % {"n": index + 1}


ENGLISH = Translator()


def say(message: str, **args: Any) -> dict[str, Any]:
    """One message; ``%(name)s`` placeholders take ``args``."""
    return {"t": message, "a": args} if args else {"t": message}


def says(singular: str, plural: str, n: int, **args: Any) -> dict[str, Any]:
    """A counted message: the form follows ``n`` in the reader's language; ``%(n)s`` is the count."""
    return {"t": singular, "p": plural, "n": n, "a": {"n": n, **args}}


def seat(index: int) -> dict[str, Any]:
    """A seat as an argument of a message: the reader sees its player's name (``Translator.seat_name``)."""
    return {"seat": index}


def verbatim(text: str) -> dict[str, Any]:
    """Text shown as it is in every language (a game that words its moves in English only)."""
    return {"v": text}


def render(said: Said | None, tr: Translator = ENGLISH) -> str:
    """``said`` in the translator's language; a malformed entry renders as "" rather than failing a page."""
    if isinstance(said, list):
        return "; ".join(part for part in (render(s, tr) for s in said) if part)
    if not isinstance(said, Mapping):
        return ""
    if "v" in said:
        return str(said["v"])
    if "seat" in said and isinstance(said["seat"], int):
        return tr.seat(said["seat"])
    message = said.get("t")
    if not isinstance(message, str):
        return ""
    plural, n = said.get("p"), said.get("n")
    text = tr.ngettext(message, plural, n) if isinstance(plural, str) and isinstance(n, int) else tr.gettext(message)
    args = said.get("a")
    if not isinstance(args, Mapping) or not args:
        return text
    values = {k: render(v, tr) if isinstance(v, (dict, list)) else v for k, v in args.items()}
    for form in (text, message):  # a catalogue that lost a placeholder falls back to English, never a crash
        try:
            return form % values
        except (KeyError, TypeError, ValueError):
            continue
    return message


def joined(parts: Sequence[Said]) -> list[dict[str, Any]]:
    """Several sentences of one move, shown with "; " between them."""
    out: list[dict[str, Any]] = []
    for part in parts:
        out.extend(part if isinstance(part, list) else [part])
    return out
