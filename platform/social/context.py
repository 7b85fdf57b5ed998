from django.http import HttpRequest


def social(request: HttpRequest) -> dict:
    """The bell's unread count on every page (one indexed count for a signed-in player)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    def unread() -> int:
        from notifications.selectors import unread_count

        return unread_count(user)

    return {"social_unread": unread}
