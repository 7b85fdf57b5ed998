"""Lobby fixtures: players, a logged-in client per player, a waiting table."""

from __future__ import annotations

import itertools

import pytest
from django.test import Client

from lobbies import services

_names = itertools.count(1)


@pytest.fixture
def make_user(django_user_model):
    def make(name: str = "") -> object:
        name = name or f"player{next(_names)}"
        return django_user_model.objects.create_user(username=name, password="pw-123456", display_name=name.title())

    return make


@pytest.fixture
def client_of():
    def login(user) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return login


@pytest.fixture
def host(make_user):
    return make_user("host")


@pytest.fixture
def durak_table(host):
    """An open two-seat public Durak table with its host in seat 0."""
    return services.table_create(user=host, game="durak", options={}, seats=2, match_options={"fool_rule": "under"})
