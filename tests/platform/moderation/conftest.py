import pytest

from accounts.models import User
from moderation.selectors import standing_forget


@pytest.fixture(autouse=True)
def fresh_standing():
    """The standing cache lives in Redis, which outlives each test's database."""
    yield
    for uid in User.objects.values_list("pk", flat=True):
        standing_forget(uid)
