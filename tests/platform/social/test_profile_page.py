"""A profile reads as one card: the avatar beside the name, the presence and the bio under it."""

import re

import pytest
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_the_name_and_the_avatar_share_one_card(client):
    user = User.objects.create_user("mila", "mila@example.com", "pw-cards-123", display_name="Mila")
    html = client.get(reverse("profile", args=["mila"])).content.decode()
    first = re.search(r'<article class="card profile">(.*?)</article>', html, re.S)
    assert first, html
    card = first.group(1)
    head = re.search(r'<div class="profile-head">(.*?)</h1>', card, re.S).group(1)
    assert 'class="avatar' in head and "<h1>Mila" in head
    assert "@mila" in card and ("offline" in card or "online" in card)
    assert html.count("<h1>") == 1 and user.pk
