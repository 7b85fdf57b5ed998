"""One cleaner for every free text a player or organizer types: reports, announcements, event names and
descriptions, bios, display names, chat.

What reaches the database and other people's pages has no NUL (PostgreSQL refuses it in text: a 500), no
control character, no bidi override or isolate (``"\\u202e"`` turns the rest of a line around) and no other
invisible format character (zero-width spaces), and fits its field. Whitespace runs become one space (line
breaks are kept where the field is multi-line). Anything too long is refused with a message saying how long
it may be, rather than cut where the writer cannot see it.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

#: Unicode categories never kept: controls (NUL, escapes), format characters (bidi controls, zero-width
#: spaces and joiners, the BOM), surrogates and private-use code points
DROPPED = frozenset({"Cc", "Cf", "Cs", "Co"})
#: line and paragraph separators: a line break where the field has lines, a space where it has none
BREAKS = {"\r\n": "\n", "\r": "\n", "\u2028": "\n", "\u2029": "\n", "\x85": "\n"}


class TextRefused(ValueError):
    """Text that cannot be stored; the message is shown to the person who typed it."""


def strip_invisible(text: str, *, multiline: bool = False) -> str:
    """``text`` without control, bidi and other invisible format characters; whitespace tidied."""
    for old, new in BREAKS.items():
        text = text.replace(old, new)
    text = unicodedata.normalize("NFC", text)
    kept = "".join(c for c in text if c == "\n" or unicodedata.category(c) not in DROPPED)
    if not multiline:
        return " ".join(kept.split())
    lines = [" ".join(line.split()) for line in kept.split("\n")]
    tidy: list[str] = []
    for line in lines:
        if line or (tidy and tidy[-1]):  # at most one empty line in a row
            tidy.append(line)
    return "\n".join(tidy).strip()


def clean_text(value: object, *, max_length: int, multiline: bool = False, required: bool = False) -> str:
    """``value`` as it may be stored, or ``TextRefused`` saying why not."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise TextRefused(_("This must be text."))
    text = strip_invisible(value, multiline=multiline)
    if required and not text:
        raise TextRefused(_("Type something first."))
    if len(text) > max_length:
        raise TextRefused(
            ngettext(
                "At most %(max)d character, please (this has %(count)d).",
                "At most %(max)d characters, please (this has %(count)d).",
                max_length,
            )
            % {"max": max_length, "count": len(text)}
        )
    return text


class FreeTextField(forms.CharField):
    """A form field that cleans its text with ``clean_text`` before any other check (NUL included)."""

    def __init__(self, *, multiline: bool = False, **kwargs: Any) -> None:
        self.multiline = multiline
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        value = super().to_python(value)
        try:
            return clean_text(value, max_length=self.max_length or 100_000, multiline=self.multiline)
        except TextRefused as refused:
            raise forms.ValidationError(str(refused), code="text") from None
