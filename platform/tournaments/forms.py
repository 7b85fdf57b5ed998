"""The create/edit-an-event form: the event's own fields plus the engine's option schema, as the lobby builds it."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.forms import choice_field
from core.text import FreeTextField
from games.base import GameSpec
from lobbies.forms import OPTION_PREFIX, TIME_BANKS, TURN_SECONDS, GameOptionsMixin
from reliability.forms import minimum_field
from tables.models import BOT_LEVELS
from tournaments import cumulative
from tournaments.models import Tournament

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local", "step": "1"}, format="%Y-%m-%dT%H:%M:%S")


def _zone(name: str) -> ZoneInfo | None:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


class TournamentForm(GameOptionsMixin, forms.Form):
    seats_field = "table_size"

    name = FreeTextField(label=_("Name"), max_length=80)
    description = FreeTextField(
        label=_("Description"), required=False, max_length=4000, widget=forms.Textarea, multiline=True
    )
    table_size = forms.TypedChoiceField(coerce=int, label=_("Players per table"))
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices)
    fill = forms.ChoiceField(label=_("When the players do not fill the tables"), choices=Tournament.Fill.choices)
    advance = forms.IntegerField(
        label=_("Advance per table (knockout)"), min_value=1, max_value=7, initial=2, required=False
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30, initial=3)
    #: labelled in the game's unit words by ``__init__``
    games_per_round = forms.IntegerField(label=_("Games per round"), min_value=1, max_value=50, initial=1)
    turn_seconds = forms.TypedChoiceField(choices=TURN_SECONDS, coerce=int, initial=60, label=_("Time per turn"))
    time_bank_seconds = forms.TypedChoiceField(choices=TIME_BANKS, coerce=int, initial=0, label=_("Time bank"))
    round_minutes = forms.IntegerField(
        label=_("Round time limit (minutes)"),
        min_value=0,
        max_value=600,
        initial=0,
        help_text=_("0: none. The next choice says what happens to the unfinished tables at the limit."),
    )
    settle = forms.ChoiceField(
        label=_("Unfinished tables at the time limit"),
        choices=Tournament.Settle.choices,
        initial=Tournament.Settle.BOTS,
    )
    bot_level = forms.ChoiceField(label=_("Bot level"), choices=BOT_LEVELS, initial="heuristic")
    registration_opens = forms.DateTimeField(label=_("Registration opens (your local time)"), widget=DATETIME)
    registration_closes = forms.DateTimeField(label=_("Registration closes (your local time)"), widget=DATETIME)
    starts_at = forms.DateTimeField(label=_("Starts at (your local time)"), widget=DATETIME)
    #: the organizer's time zone as his browser names it (static/js/tournament-form.js); the times above are
    #: his wall-clock times in it. Without the script it stays UTC, and so do the times
    tz = forms.CharField(required=False, initial="UTC", widget=forms.HiddenInput, max_length=64)
    check_in_minutes = forms.IntegerField(
        label=_("Check-in (minutes before the start)"),
        min_value=0,
        max_value=240,
        initial=0,
        help_text=_("0: no check-in; every registered player is seated."),
    )
    no_show = forms.ChoiceField(label=_("Players who do not check in are"), choices=Tournament.NoShow.choices)
    min_players = forms.IntegerField(label=_("Minimum players"), min_value=2, max_value=10_000, initial=2)
    min_rating = forms.IntegerField(
        label=_("Minimum rating in this game"),
        min_value=0,
        max_value=10_000,
        required=False,
        help_text=_("Empty: anyone may register."),
    )
    min_rated_games = forms.IntegerField(
        label=_("Minimum rated games of this game"), min_value=0, max_value=100_000, initial=0, required=False
    )
    max_players = forms.IntegerField(label=_("Maximum players"), min_value=2, max_value=10_000, initial=64)
    private = forms.BooleanField(label=_("Invite-only"), required=False)
    rated = forms.BooleanField(label=_("Rated"), required=False)

    def __init__(self, game: GameSpec, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "table_size").choices = [(n, str(n)) for n in range(game.min_seats, game.max_seats + 1)]
        self.fields["table_size"].initial = 4 if game.min_seats <= 4 <= game.max_seats else game.min_seats
        # beside the other entry conditions
        self.fields["min_reliability"] = minimum_field()
        order = [name for name in self.fields if name != "min_reliability"]
        order.insert(order.index("min_rated_games") + 1, "min_reliability")
        self.order_fields(order)
        if cumulative.allowed(game.name):
            self.fields["format"].initial = Tournament.Format.CUMULATIVE
        else:
            choice_field(self, "format").choices = [
                c for c in Tournament.Format.choices if c[0] != Tournament.Format.CUMULATIVE
            ]
        # the match unit in the game's own words ("deals"), translated here at the platform's edge
        self.fields["games_per_round"].label = _("%(units)s per round") % {"units": capfirst(ngettext(*game.unit, 5))}
        self.add_game_fields(game)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        self.clean_game_options(data)
        if data.get("advance") is None:
            data["advance"] = 2
        if data.get("min_rated_games") is None:
            data["min_rated_games"] = 0
        zone = _zone(data.get("tz") or "UTC")
        if zone is None:
            self.add_error(None, _("Your browser named a time zone this server does not know; times are in UTC."))
            return data
        for name in ("registration_opens", "registration_closes", "starts_at"):
            if data.get(name) is not None:
                # the field made the organizer's wall-clock time UTC; it was his own zone's
                data[name] = data[name].replace(tzinfo=None).replace(tzinfo=zone)
        return data

    def event_values(self) -> dict[str, Any]:
        from tournaments.services import EDITABLE

        return {k: v for k, v in self.cleaned_data.items() if k in EDITABLE}

    @classmethod
    def initial_from(cls, tournament: Tournament) -> dict[str, Any]:
        from tournaments.services import EDITABLE

        initial = {name: getattr(tournament, name) for name in EDITABLE}
        initial.update({OPTION_PREFIX + k: v for k, v in tournament.options.items()})
        initial.update(tournament.match_options)
        return initial
