"""A view typed for a signed-in player (``accounts.http.AuthenticatedRequest``) never sees a visitor.

The type tells mypy that ``request.user`` is a ``User``; only the view's decorators
(``login_required``, the admin's ``admin_view``) make that true. Every such view in the
URL configuration is asked for by an anonymous visitor here, and must send him to log in.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from accounts.http import AuthenticatedRequest

#: a value for each path converter, enough to reach the view's decorators
SAMPLES = {
    "int": "1",
    "str": "someone",
    "slug": "someone",
    "path": "someone",
    "uuid": "0" * 8 + "-0000-0000-0000-" + "0" * 12,
}


def _routes(patterns: list[URLPattern | URLResolver], prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for entry in patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, route)
        else:
            yield route, entry


def _url(route: str) -> str | None:
    """The route with sample values; None for a regular expression route (the admin's catch-all)."""
    if route.startswith("^") or "(?P<" in route:
        return None
    return "/" + re.sub(r"<(?:(\w+):)?\w+>", lambda m: SAMPLES[m.group(1) or "str"], route)


def _typed_signed_in(pattern: URLPattern) -> bool:
    view = inspect.unwrap(pattern.callback)
    request = next(iter(inspect.signature(view).parameters.values()), None)
    return request is not None and request.annotation in (AuthenticatedRequest, "AuthenticatedRequest")


def signed_in_views() -> list[tuple[str, str]]:
    found = []
    for route, pattern in _routes(get_resolver().url_patterns):
        url = _url(route)
        if url is not None and _typed_signed_in(pattern):
            found.append((url, pattern.name or route))
    return found


@pytest.mark.django_db
def test_every_view_typed_for_a_signed_in_player_sends_a_visitor_to_log_in(client):
    views = signed_in_views()
    names = {name for _url, name in views}
    # the walk finds them: the friends page, a lobby action, an organizer's action, a moderator's admin page
    assert {"friends", "table_new", "tournament_new", "moderation_player_act"} <= names, sorted(names)
    for url, name in views:
        # a page that takes only POST may refuse the method first; no GET ever reaches the view
        got = client.get(url)
        assert got.status_code == 405 or (got.status_code == 302 and "login" in got["Location"]), (name, url, got)
        posted = client.post(url)
        assert posted.status_code == 302 and "login" in posted["Location"], (name, url, posted)
