"""Sign up, verify the e-mail, log in, see the profile: what a new player does first."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def sign_up(client, username="anna", email="anna@example.com", display_name="Anna K."):
    return client.post(
        reverse("account_signup"),
        {
            "username": username,
            "email": email,
            "display_name": display_name,
            "password1": "correct-horse-battery",
            "password2": "correct-horse-battery",
        },
    )


def test_signup_verify_login_profile(client):
    response = sign_up(client)
    assert response.status_code == 302
    assert response.url == reverse("account_email_verification_sent")
    user = User.objects.get(username="anna")
    assert user.display_name == "Anna K."

    # unverified: logging in is refused and points back at the e-mail
    client.logout()
    response = client.post(reverse("account_login"), {"login": "anna", "password": "correct-horse-battery"})
    assert response.status_code == 302 and response.url == reverse("account_email_verification_sent")
    assert "_auth_user_id" not in client.session

    assert len(mail.outbox) == 1  # the refused login does not resend within allauth's cooldown
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+/)", mail.outbox[0].body).group(1)
    assert mail.outbox[0].to == ["anna@example.com"]
    page = client.get(link)
    assert page.status_code == 200 and b"anna@example.com" in page.content
    response = client.post(link)
    assert response.status_code == 302

    client.logout()
    response = client.post(reverse("account_login"), {"login": "anna", "password": "correct-horse-battery"})
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == user.pk

    profile = client.get(reverse("profile", args=["anna"]))
    assert profile.status_code == 200
    html = profile.content.decode()
    assert "Anna K." in html and "@anna" in html and "Joined" in html
    assert "Change password" in html  # own profile
    home = client.get("/").content.decode()
    assert "Log out" in home and reverse("profile", args=["anna"]) in home


def test_wrong_password_and_unknown_profile(client):
    sign_up(client)
    client.logout()
    response = client.post(reverse("account_login"), {"login": "anna", "password": "nope-nope-nope"})
    assert response.status_code == 200 and "_auth_user_id" not in client.session
    assert b"not correct" in response.content
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404


def test_duplicate_username_is_refused_clearly(client):
    sign_up(client)
    client.logout()
    response = sign_up(client, email="other@example.com")
    assert response.status_code == 200
    assert b"already exists" in response.content
    assert User.objects.filter(username="anna").count() == 1


def test_password_reset_sends_a_link(client):
    sign_up(client)
    client.logout()
    mail.outbox.clear()
    response = client.post(reverse("account_reset_password"), {"email": "anna@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and "/accounts/password/reset/key/" in mail.outbox[0].body


def test_login_rate_limit_uses_the_redis_cache(client):
    """allauth's rate limits are on: a flood of failed logins is stopped."""
    sign_up(client)
    client.logout()
    statuses = [
        client.post(
            # from an address of its own, so the flood does not lock out other tests' logins
            reverse("account_login"),
            {"login": "anna", "password": f"wrong-{i}"},
            REMOTE_ADDR="203.0.113.7",
        ).status_code
        for i in range(40)
    ]
    assert 429 in statuses


def test_demo_player_and_bots_are_created_once():
    from accounts.bots import BOT_NAMES
    from accounts.services import DEMO_USERNAME, ensure_bot_accounts, ensure_demo_player

    ensure_demo_player()
    ensure_demo_player()
    bots = ensure_bot_accounts()
    ensure_bot_accounts()
    assert User.objects.filter(username=DEMO_USERNAME).count() == 1
    # one rating account per level and one account per bot name
    assert User.objects.filter(is_bot=True).count() == len(bots) == 3 + len(BOT_NAMES)
    assert {b.name for b in bots} >= set(BOT_NAMES)
    assert not any(b.has_usable_password() for b in bots)


def test_bootstrap_command_prints_the_demo_login_first_and_creates_nothing_twice():
    # ``runplatform`` (core) runs it by name and shows its first line as the demo login
    from io import StringIO

    from django.core.management import call_command

    first, second = StringIO(), StringIO()
    call_command("bootstrap", stdout=first)
    call_command("bootstrap", stdout=second)
    assert first.getvalue().splitlines()[0] == "Demo login: demo / demo-cards-2026"
    assert "created" in first.getvalue() and "already there" in second.getvalue()
    assert User.objects.filter(username="demo").count() == 1


def test_admin_is_for_staff(client, admin_client):
    assert client.get("/admin/").status_code == 302
    assert admin_client.get("/admin/accounts/user/").status_code == 200


@pytest.mark.parametrize("language", ["en", "ru", "uk"])
@pytest.mark.parametrize("url", ["account_login", "account_signup", "account_reset_password"])
def test_account_pages_show_no_template_source(client, url, language):
    """A template comment left over two lines is printed as text; the forms must not show one."""
    client.cookies["django_language"] = language
    html = client.get(reverse(url)).content.decode()
    assert "{#" not in html and "#}" not in html and "{%" not in html
    if url == "account_login":
        # the checkbox and its label share one row: the field is marked so the stylesheet lays it out inline
        assert re.search(r'<div class="field check">\s*<input type="checkbox" name="remember"', html)


def test_a_player_read_by_his_id_is_the_orm_s_own_row(django_user_model):
    """``User.objects.get(pk=id)`` (what the auth backends read on every request) runs a query written once: the
    same player, every field converted as the ORM does, and an unknown id is not found."""
    anna = User.objects.create_user("anna", "anna@example.com", "correct-horse-battery", display_name="Anna K.")
    found = User.objects.get(pk=anna.pk)
    expected = User.objects.filter(pk=anna.pk).get()
    fields = [f.attname for f in User._meta.concrete_fields]
    assert [getattr(found, f) for f in fields] == [getattr(expected, f) for f in fields]
    assert found.date_joined.tzinfo is not None and found._state.adding is False
    with pytest.raises(User.DoesNotExist):
        User.objects.get(pk=anna.pk + 1000)
