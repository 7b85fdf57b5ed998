"""Cells for a CSV that people open in a spreadsheet.

A text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is read as a formula by
Excel, LibreOffice and Google Sheets (``=HYPERLINK(...)`` opens a link, ``=cmd|...`` ran programs); OWASP's
advice is to prefix such a cell with a single quote, which the spreadsheet shows as plain text. Numbers the
export writes itself stay numbers.
"""

from __future__ import annotations

from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """``value`` as safe to put in a CSV cell: text that would start a formula gets a leading quote."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_row(values: list[Any]) -> list[Any]:
    return [csv_cell(value) for value in values]
