"""The create-a-table form, generated from the engine's option schema.

Each engine option becomes a field named ``opt_<name>`` (so it cannot clash
with the table's own fields); the engine itself judges the combination, and its
message is shown on the form as it is.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext

from core.forms import choice_field
from games import InvalidOptions
from games.base import GameSpec
from games.bots import DEFAULT_LEVEL
from games.options import Option
from lobbies.services import default_match_length
from reliability.forms import minimum_field
from reliability.selectors import RELIABLE

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

_SECONDS = {
    15: gettext_lazy("15 seconds"),
    30: gettext_lazy("30 seconds"),
    60: gettext_lazy("1 minute"),
    120: gettext_lazy("2 minutes"),
}
TURN_SECONDS = [(n, _SECONDS[n]) for n in (15, 30, 60, 120)]
TIME_BANKS = [(0, gettext_lazy("none")), *((n, _SECONDS[n]) for n in (30, 60, 120))]
MATCH_LENGTH_MAX = 50
OPTION_PREFIX = "opt_"


def option_field(option: Option) -> forms.Field | None:
    """A form field for one engine option; None for options a match sets itself (seat kind).

    The engine's words are English (``manage.py makemessages`` extracts them from the
    registry); they are translated here, when a form is built for a request in its language.
    """
    common = {"label": gettext(option.label), "help_text": gettext(option.help), "initial": option.default}
    if option.kind == "seat":
        return None
    if option.kind == "bool":
        return forms.BooleanField(required=False, **common)
    if option.choices:
        labels = tuple(map(gettext, option.choice_labels)) or tuple(str(c) for c in option.choices)
        coerce = int if option.kind == "int" else str
        return forms.TypedChoiceField(choices=list(zip(option.choices, labels, strict=True)), coerce=coerce, **common)
    if option.kind == "int":
        return forms.IntegerField(min_value=option.low, max_value=option.high, **common)
    return forms.CharField(max_length=40, **common)


def game_fields(game: GameSpec) -> dict[str, forms.Field]:
    """The game's match options (Durak's fool_rule: under their own names, among a form's own fields), then its
    engine options (``opt_<name>``)."""
    fields = {}
    for option in game.match_options:
        field = option_field(option)
        if field is not None:
            fields[option.name] = field
    for option in game.options:
        field = option_field(option)
        if field is not None:
            fields[OPTION_PREFIX + option.name] = field
    return fields


class GameOptionsMixin:
    """The engine's options (``opt_<name>``) and the game's match options on a form: the table's and the event's.

    ``seats_field`` names the form's field holding the seat count the engine judges the options for.
    """

    seats_field = "seats"
    game: GameSpec
    fields: dict[str, forms.Field]

    if TYPE_CHECKING:  # the form's own

        def __getitem__(self, name: str) -> forms.BoundField: ...

    def add_game_fields(self, game: GameSpec) -> None:
        self.game = game
        self.fields.update(game_fields(game))

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]

    def own_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if not name.startswith(OPTION_PREFIX)]

    def clean_game_options(self, data: dict[str, Any]) -> None:
        """Let the engine judge the combination; sets ``options`` and ``match_options`` in ``data``."""
        seats = data[self.seats_field]
        given = {name[len(OPTION_PREFIX) :]: value for name, value in data.items() if name.startswith(OPTION_PREFIX)}
        try:
            # seed=0: a throw-away deal, only to let the engine judge the combination
            state = self.game.new(options=given, seats=seats, seed=0)
            data["options"] = dict(state.options)
            data["match_options"] = self.game.check_match_options(
                {o.name: data[o.name] for o in self.game.match_options if o.name in data}, seats
            )
        except InvalidOptions as exc:
            raise forms.ValidationError(str(exc)) from None


class TableForm(GameOptionsMixin, forms.Form):
    seats = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Players"))
    turn_seconds = forms.TypedChoiceField(
        choices=TURN_SECONDS, coerce=int, initial=60, label=gettext_lazy("Time per turn")
    )
    time_bank_seconds = forms.TypedChoiceField(
        choices=TIME_BANKS,
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,  # type: ignore[arg-type]  # any value is Django's, the stubs take only str | None
        label=gettext_lazy("Time bank"),
        help_text=gettext_lazy("Extra seconds per player for the whole game, used when a turn runs over."),
    )
    match_length = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MATCH_LENGTH_MAX,
        label=gettext_lazy("Match length"),
    )
    rated = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Rated"),
        help_text=gettext_lazy(
            "Results change the players' ratings. Only games between people are rated: with a bot seated the "
            "table is unrated (bots), and a game in which a bot played for an absent player is not rated."
        ),
    )
    private = forms.BooleanField(
        required=False,
        label=gettext_lazy("Private"),
        help_text=gettext_lazy("Not listed; players join with the invite link."),
    )

    def __init__(self, game: GameSpec, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seats = range(game.min_seats, game.max_seats + 1)
        choice_field(self, "seats").choices = [(n, str(n)) for n in seats]
        self.fields["seats"].initial = game.min_seats
        # in the game's own unit (a match counts games, or deals); the plural of a large count is the one
        # "how many" takes in Russian and Ukrainian too
        self.fields["match_length"].help_text = gettext(
            "How many %(units)s the match lasts. Leave it empty for the usual length."
        ) % {"units": ngettext(*game.unit, MATCH_LENGTH_MAX)}
        self.fields["min_reliability"] = minimum_field()
        self.add_game_fields(game)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        self.clean_game_options(data)
        if data.get("match_length") is None:
            data["match_length"] = default_match_length(self.game.name, data["seats"])
        return data


class AgainstBotsForm(forms.Form):
    """The one-click "play against bots": a game, how many players, and the bots' level."""

    game = forms.ChoiceField(choices=())
    seats = forms.IntegerField(min_value=2, max_value=8, required=False)
    level = forms.ChoiceField(choices=(), initial=DEFAULT_LEVEL, required=False)

    def __init__(
        self,
        *args: Any,
        games: Sequence[tuple[str, StrOrPromise]],
        levels: Sequence[tuple[str, StrOrPromise]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "game").choices = games
        choice_field(self, "level").choices = levels


_BOTS_AFTER = {
    15: gettext_lazy("after 15 seconds"),
    30: gettext_lazy("after 30 seconds"),
    60: gettext_lazy("after 1 minute"),
    120: gettext_lazy("after 2 minutes"),
}


class SeekForm(GameOptionsMixin, forms.Form):
    """ "Play now": the queue's settings (the game's own options from its schema) and the wait before bots."""

    seats = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Players"))
    turn_seconds = forms.TypedChoiceField(
        choices=TURN_SECONDS, coerce=int, initial=60, label=gettext_lazy("Time per turn")
    )
    rated = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Rated"))
    bots_after = forms.TypedChoiceField(
        choices=[("", gettext_lazy("never: people only")), *_BOTS_AFTER.items()],
        coerce=int,
        required=False,
        empty_value=None,
        label=gettext_lazy("Bots fill the empty seats"),
        help_text=gettext_lazy("A table with a bot seated is unrated."),
    )
    reliable_only = forms.BooleanField(required=False, label=gettext_lazy("Reliable players only"))

    def __init__(self, game: GameSpec, *args: Any, **kwargs: Any) -> None:
        # every click of "Play now" builds this form: its fields are made once per game and language, and shared
        # by its forms rather than deep-copied for each (Django copies a form's fields so that one form may change
        # its own: no SeekForm does, and neither validating nor rendering a form changes its fields)
        self.base_fields = {}  # type: ignore[misc]  # this form's own: nothing for Django to copy
        super().__init__(*args, **kwargs)
        self.fields = dict(_seek_fields(game))
        self.game = game

    def clean(self) -> dict[str, Any]:
        super().clean()
        if not self.errors:
            self.clean_game_options(self.cleaned_data)
        return self.cleaned_data


#: per (game, language): the game's spec the fields were made from, and the fields
_SEEK_FIELDS: dict[tuple[str, str | None], tuple[GameSpec, dict[str, forms.Field]]] = {}


def _seek_fields(game: GameSpec) -> dict[str, forms.Field]:
    key = (game.name, get_language())
    made = _SEEK_FIELDS.get(key)
    if made is not None and made[0] is game:
        return made[1]
    fields = copy.deepcopy(SeekForm.base_fields)
    seats = fields["seats"]
    if not isinstance(seats, forms.ChoiceField):
        raise TypeError("SeekForm.seats is not a choice field")
    seats.choices = [(n, str(n)) for n in range(game.min_seats, game.max_seats + 1)]
    seats.initial = game.min_seats
    fields["reliable_only"].help_text = gettext(
        "Pairs you only with players who finish at least %(reliable)s%% of their games (new players too). "
        "You may wait longer."
    ) % {"reliable": RELIABLE}
    fields.update(game_fields(game))
    _SEEK_FIELDS[key] = (game, fields)
    return fields
