"""English, Russian and Ukrainian: the browser's language by default, the switcher's choice after that."""

import polib
import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def nav(client, **headers) -> str:
    return client.get("/", headers=headers).content.decode()


def test_the_browser_language_is_the_default(client):
    assert ">Play</a>" in nav(client)
    assert ">Играть</a>" in nav(client, accept_language="ru-RU,ru;q=0.9,en;q=0.5")
    assert ">Грати</a>" in nav(client, accept_language="uk")
    assert 'lang="uk"' in nav(client, accept_language="uk")


def test_the_switcher_choice_wins_over_the_browser(client):
    response = client.post("/i18n/setlang/", {"language": "ru", "next": "/play/"})
    assert response.status_code == 302 and response["Location"] == "/play/"
    page = nav(client, accept_language="uk")
    assert ">Играть</a>" in page and '<option value="ru" lang="ru" selected>' in page


def test_an_unknown_language_or_foreign_next_changes_nothing_harmful(client):
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "https://evil.example/"})
    assert response.status_code == 302 and "evil.example" not in response["Location"]
    assert ">Play</a>" in nav(client)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_translations_ship_without_fuzzy_or_broken_entries(lang):
    po = polib.pofile(str(settings.BASE_DIR / "locale" / lang / "LC_MESSAGES" / "django.po"))
    assert po.metadata["Language"] == lang
    assert not po.fuzzy_entries()
    for entry in po.translated_entries():
        # a placeholder lost in translation would raise at render time
        for placeholder in ("%(", "{"):
            assert entry.msgid.count(placeholder) == entry.msgstr.count(placeholder), entry.msgid
