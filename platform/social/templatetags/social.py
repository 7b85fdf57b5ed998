from __future__ import annotations

from typing import Any

from django import template
from django.template.context import Context
from django.templatetags.static import static
from django.utils.html import format_html

from accounts.models import User
from social import selectors
from social.countries import country_name
from social.games import playing_now
from social.models import Profile

register = template.Library()


@register.simple_tag
def avatar(who: User | Profile, size: str = "") -> str:
    """A player's avatar; ``who`` is a user or his profile (which saves a query when already read)."""
    name = (who if isinstance(who, Profile) else selectors.profile_of(who)).avatar
    return format_html(
        '<img class="avatar {}" src="{}" alt="" width="{}" height="{}">',
        size,
        static(f"img/avatars/{name}.svg"),
        24 if size == "small" else 48,
        24 if size == "small" else 48,
    )


@register.inclusion_tag("social/_profile.html", takes_context=True)
def social_profile(context: Context, player: User) -> dict[str, Any]:
    viewer = context["request"].user
    profile = selectors.profile_of(player)
    return {
        "user": viewer,
        "player": player,
        "profile": profile,
        "flag": selectors.country_flag(profile.country),
        "country": country_name(profile.country),
        "online": selectors.user_online(player),
        "playing_now": playing_now(player, viewer),
        "is_me": viewer == player,
        "friendship": selectors.friendship_state(viewer, player) if viewer.is_authenticated else "",
        "blocked": viewer.is_authenticated and selectors.blocks(viewer, player),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("social/_history.html", takes_context=True)
def game_history(context: Context, player: User) -> dict[str, Any]:
    """The history's first page, unfiltered; its links reload it in place through ``profile_games``."""
    from social.games import history_page, history_rows, visible_history
    from tables.models import game_choices

    page = history_page(visible_history(player, context["request"].user), 1)
    return {
        "player": player,
        "game": None,
        "games": game_choices(),
        "page": page,
        "rows": history_rows(player, page.items),
    }


@register.filter
def signed(value: float | str) -> str:
    """A rating change as a whole number with its sign: +12, \u22128 (a true minus sign), \u00b10."""
    rounded = round(float(value))
    if rounded == 0:
        return "±0"
    return f"+{rounded}" if rounded > 0 else f"\u2212{-rounded}"
