"""The minimum reliability a table's creator or an event's organizer may ask for, as one form field.

Built when a form is (in the request's language), since its words carry numbers.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext

from reliability.selectors import COUNTED_GAMES, MINIMUMS, NEW_BELOW


def minimum_field() -> forms.TypedChoiceField:
    anyone = gettext("anyone")
    each = gettext("players who finish at least %(minimum)s%% of their games")
    return forms.TypedChoiceField(
        choices=[(0, anyone), *((n, each % {"minimum": n}) for n in MINIMUMS)],
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,  # type: ignore[arg-type]  # any value is Django's, the stubs take only str | None
        label=gettext("Reliability"),
        help_text=gettext(
            "Counted over each player's last %(games)s games with other people: the share he stayed to the end of. "
            "Players below the minimum cannot take part; new players (fewer than %(new)s games) can."
        )
        % {"games": COUNTED_GAMES, "new": NEW_BELOW},
    )
