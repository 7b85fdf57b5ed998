"""Creating a table from the engine's option schema."""

import pytest
from django.urls import reverse

from tables.models import Seat, Table

pytestmark = pytest.mark.django_db


def test_the_form_is_generated_from_the_option_schema(host, client_of):
    page = client_of(host).get(reverse("table_new"), {"game": "durak"}).content.decode()
    # labels, a select with the engine's choice labels, a number input, a checkbox
    assert "Who throws in" in page and "Transfer (perevodnoy)" in page
    assert 'name="opt_first_bout_limit"' in page and 'type="number"' in page
    assert 'name="opt_dummy"' in page and 'type="checkbox"' in page
    assert "Under the fool" in page  # the table's fool rule for the next game
    assert 'name="opt_first_attacker"' not in page  # set by the match, not by people


def test_the_game_picker_without_a_game(host, client_of):
    page = client_of(host).get(reverse("table_new")).content.decode()
    assert "Durak" in page and "Biznes" in page and "Believe It or Not" in page


def test_create_with_defaults_puts_the_creator_in_seat_1(host, client_of):
    resp = client_of(host).post(
        reverse("table_new") + "?game=durak",
        {
            "seats": 2,
            "turn_seconds": 60,
            "rated": "on",
            "fool_rule": "under",
            "opt_deck": 36,
            "opt_mode": "throw_in",
            "opt_lead": "same_rank",
            "opt_throw_in": "all",
            "opt_first_bout_limit": 5,
            "opt_bout_limit": 6,
            "opt_trump_show": "on",
        },
    )
    table = Table.objects.get()
    assert resp.status_code == 302 and resp["Location"] == reverse("lobby_table", args=[table.pk])
    assert table.status == "open" and table.seats_count == 2 and table.rated and not table.private
    assert table.options["deck"] == 36 and table.options["mode"] == "throw_in" and table.options["trump_show"] is True
    assert table.match_length == 1 and table.turn_seconds == 60 and table.match_options == {"fool_rule": "under"}
    assert [(s.index, s.user_id) for s in Seat.objects.filter(table=table)] == [(0, host.pk), (1, None)]


def test_create_with_options(host, client_of):
    client_of(host).post(
        reverse("table_new") + "?game=durak",
        {
            "seats": 4,
            "turn_seconds": 30,
            "match_length": 3,
            "private": "on",
            "fool_rule": "from",
            "opt_deck": 52,
            "opt_mode": "transfer",
            "opt_lead": "single",
            "opt_throw_in": "neighbors",
            "opt_first_bout_limit": 6,
            "opt_bout_limit": 6,
            "opt_teams": "on",
        },
    )
    table = Table.objects.get()
    assert (table.seats_count, table.turn_seconds, table.match_length) == (4, 30, 3)
    assert not table.rated and table.private
    assert table.options["mode"] == "transfer" and table.options["teams"] is True and table.options["deck"] == 52
    assert table.match_options == {"fool_rule": "from"}
    assert table.seats.count() == 4


def test_biznes_match_length_defaults_to_two_deals_per_player(host, client_of):
    client_of(host).post(
        reverse("table_new") + "?game=biznes", {"seats": 5, "turn_seconds": 60, "opt_deck": 36, "opt_widow_open": 0}
    )
    table = Table.objects.get()
    assert table.game == "biznes" and table.match_length == 10 and "match_options" not in table.options


def test_an_invalid_combination_is_refused_with_the_engines_message(host, client_of):
    resp = client_of(host).post(
        reverse("table_new") + "?game=biznes", {"seats": 6, "turn_seconds": 60, "opt_deck": 36, "opt_widow_open": 0}
    )
    assert resp.status_code == 200
    assert "deck: 36 cards only with 4 or 5 seats" in resp.content.decode()
    assert not Table.objects.exists()


def test_values_outside_the_schema_are_refused(host, client_of):
    resp = client_of(host).post(
        reverse("table_new") + "?game=durak", {"seats": 9, "turn_seconds": 7, "opt_deck": 40, "opt_first_bout_limit": 9}
    )
    assert resp.status_code == 200 and not Table.objects.exists()
    assert set(resp.context["form"].errors) >= {"seats", "turn_seconds", "opt_deck", "opt_first_bout_limit"}


def test_creating_needs_a_login(client):
    resp = client.get(reverse("table_new"), {"game": "durak"})
    assert resp.status_code == 302 and reverse("account_login") in resp["Location"]
