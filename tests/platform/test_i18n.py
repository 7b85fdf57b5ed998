"""English, Russian and Ukrainian: the browser's language by default, the switcher's choice after that."""

import ast
import html
import json
import re
from pathlib import Path

import polib
import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.utils import timezone

from core.management.commands.makemessages import registry_messages

pytestmark = pytest.mark.django_db

LANGUAGES = ("ru", "uk")
#: a named python-format placeholder, or a bare one (%s, %d); "%%" is a literal percent sign
PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?([sdfir%])")


def nav(client, **headers) -> str:
    return client.get("/", headers=headers).content.decode()


def catalogues(lang: str) -> list[Path]:
    """The project's catalogue and those of our own apps."""
    root = Path(settings.BASE_DIR)
    apps = sorted(root.glob(f"platform/*/locale/{lang}/LC_MESSAGES/django.po"))
    return [root / "locale" / lang / "LC_MESSAGES" / "django.po", *apps]


def placeholders(text: str) -> list[str]:
    return sorted(f"{name or ''}{kind}" for name, kind in PLACEHOLDER.findall(text) if kind != "%")


def test_the_browser_language_is_the_default(client):
    assert ">Play</span></a>" in nav(client)
    assert ">Играть</span></a>" in nav(client, accept_language="ru-RU,ru;q=0.9,en;q=0.5")
    assert ">Грати</span></a>" in nav(client, accept_language="uk")
    assert 'lang="uk"' in nav(client, accept_language="uk")


def test_the_switcher_choice_wins_over_the_browser(client):
    response = client.post("/i18n/setlang/", {"language": "ru", "next": "/play/"})
    assert response.status_code == 302 and response["Location"] == "/play/"
    page = nav(client, accept_language="uk")
    assert ">Играть</span></a>" in page and '<option value="ru" lang="ru" selected>' in page


def test_an_unknown_language_or_foreign_next_changes_nothing_harmful(client):
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "https://evil.example/"})
    assert response.status_code == 302 and "evil.example" not in response["Location"]
    assert ">Play</span></a>" in nav(client)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_with_its_placeholders(lang):
    checked = 0
    for path in catalogues(lang):
        po = polib.pofile(str(path))
        assert po.metadata["Language"] == lang, path
        assert "nplurals=4" in po.metadata["Plural-Forms"], path  # what Django's own ru/uk catalogues use
        assert not po.fuzzy_entries(), [e.msgid for e in po.fuzzy_entries()]
        for entry in (e for e in po if not e.obsolete):
            checked += 1
            where = f"{path.relative_to(settings.BASE_DIR)}: {entry.msgid!r}"
            if entry.msgid_plural:
                forms = [entry.msgstr_plural.get(i, "") for i in range(4)]
                assert all(form.strip() for form in forms), where
                # Russian and Ukrainian use the "one" form for 21 too: every form shows the count
                expected = placeholders(entry.msgid_plural)
            else:
                forms = [entry.msgstr]
                assert entry.msgstr.strip(), where
                expected = placeholders(entry.msgid)
            for form in forms:
                assert placeholders(form) == expected, f"{where} -> {form!r}"
                if "python-format" in entry.flags:
                    names = {name: 1 for name in re.findall(r"%\((\w+)\)", form)}
                    form % (names or ())  # a stray "%" would fail when the page renders
    assert checked > 400


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_of_the_games_registry_is_in_the_catalogue(lang):
    """A game's titles, options and unit words are translated where the platform shows them."""
    po = polib.pofile(str(catalogues(lang)[0]))
    known = {(e.msgctxt, e.msgid, e.msgid_plural or None) for e in po.translated_entries()}
    missing = [m for m in registry_messages() if (m.context, m.msgid, m.plural) not in known]
    assert not missing, f"run `manage.py makemessages -l ru -l uk` and translate: {missing}"


#: page -> a text of it in each language (translated from the English shown in the last column)
PAGES = {
    "/": ("Славянские карточные игры вживую", "Слов'янські карткові ігри наживо", "Slavic card games, live"),
    "/leaderboards/durak/": ("Рейтинговых партий", "Рейтингових партій", "Rated games"),
    "/leaderboards/biznes/seasons/": ("Сезон Бизнеса", "Сезон Бізнесу", "Biznes season"),
    "/events/": ("Предстоящие", "Майбутні", "Upcoming"),
    "/accounts/login/": ("Войти", "Увійти", "Sign In"),
    "/accounts/signup/": ("Отображаемое имя", "Ім'я для показу", "Display name"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("path", PAGES)
def test_pages_render_in_the_browsers_language(client, path, lang):
    text = PAGES[path][LANGUAGES.index(lang)]
    page = client.get(path, headers={"accept-language": f"{lang},en;q=0.5"})
    assert page.status_code == 200
    body = html.unescape(page.content.decode())
    assert f'<html lang="{lang}">' in body and text in body
    assert PAGES[path][2] not in body


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_names_and_a_players_pages_follow_the_switcher(client, django_user_model, lang):
    from leaderboards.models import PlayerRating

    user = django_user_model.objects.create_user("olena", "o@example.com", "pw-cards-123")
    now = timezone.now()
    PlayerRating.objects.create(user=user, game="durak", mu=30, sigma=3, rating=1000, games=3, updated_at=now)
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": lang, "next": "/"})
    home = client.get("/", headers={"accept-language": "en"}).content.decode()
    seats = "2\N{EN DASH}8"
    words = {
        "ru": ("Дурак", "Верю — не верю", f"{seats} игроков"),
        "uk": ("Дурень", "Вірю — не вірю", f"{seats} гравців"),
    }[lang]
    assert all(word in home for word in words), words
    assert "Believe It or Not</h2>" not in home
    profile = client.get(f"/u/{user.username}/").content.decode()
    assert {"ru": "0 партий в рейтинге", "uk": "0 партій у рейтингу"}[lang] in profile  # noqa: RUF001 (a counted unit word)
    assert {"ru": "Сыграно партий", "uk": "Зіграно партій"}[lang] in profile
    assert "Games played" not in profile
    reports = client.get("/reports/").content.decode()
    assert {"ru": "Вы ни на кого не жаловались.", "uk": "Ви ні на кого не скаржилися."}[lang] in reports


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ([(b"cookie", b"django_language=uk")], "Увійдіть, щоб писати в чат."),
        ([(b"accept-language", b"ru-RU,ru;q=0.9")], "Войдите, чтобы писать в чат."),
        ([(b"cookie", b"django_language=ru"), (b"accept-language", b"uk")], "Войдите, чтобы писать в чат."),
        ([], "Log in to chat."),
    ],
)
async def test_a_socket_answers_in_its_pages_language(headers, expected):
    """Fragments a socket renders (here a refused chat line) come in the language the page came in."""
    from config.asgi import application

    comm = WebsocketCommunicator(application, "/ws/chat/lobby/", headers=[(b"origin", b"http://testserver"), *headers])
    connected, _ = await comm.connect()
    assert connected
    await comm.send_to(text_data=json.dumps({"type": "chat", "channel": "lobby", "text": "привіт"}))
    answer = await comm.receive_from(timeout=5)
    assert expected in answer, answer
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_quick_phrase_reads_in_each_readers_language(django_user_model):
    from asgiref.sync import sync_to_async

    from config.asgi import application
    from measure.sessions import session_cookie_for

    user = await sync_to_async(django_user_model.objects.create_user)("oksana", "ok@example.com", "pw-cards-123")
    cookie = await sync_to_async(session_cookie_for)(user)
    sockets = {}
    for lang in ("uk", "ru", "en"):
        headers = [(b"origin", b"http://testserver"), (b"cookie", f"{cookie}; django_language={lang}".encode())]
        sockets[lang] = WebsocketCommunicator(application, "/ws/chat/lobby/?format=json", headers=headers)
        assert (await sockets[lang].connect())[0]
    await sockets["uk"].send_to(text_data=json.dumps({"type": "chat", "channel": "lobby", "phrase": "gg"}))
    expected = {"uk": "Гарна гра", "ru": "Хорошая игра", "en": "Good game"}  # noqa: RUF001
    for lang, comm in sockets.items():
        frame = json.loads(await comm.receive_from(timeout=5))
        assert (frame["type"], frame["text"]) == ("chat", expected[lang])
        await comm.disconnect()


def test_one_shared_score_sheet_reads_in_each_readers_language():
    """A table's sockets share one copy of a move's sheet; each renders it in its own language."""
    from django.template import Context, Template
    from django.utils import translation

    from games import get_game
    from tables.sheets import sheet_view

    sheet = sheet_view("durak", get_game("durak").new_sheet(seats=2, options={}, length=3, dealer=0).to_json())
    template = Template("{{ sheet.length }} {{ sheet.units }} · {{ sheet.losses_word }}")
    shown = {}
    for lang in ("uk", "ru", "en"):
        with translation.override(lang):
            shown[lang] = template.render(Context({"sheet": sheet}))
    assert shown == {"uk": "3 партії · Дурні", "ru": "3 партии · Дураки", "en": "3 games · Fools"}


#: the create form of Durak in each language: an option's label, its help, a choice, a form label, the match's unit
CREATE_FORM = {
    "ru": (
        "Новый стол: Дурак",
        "Кто подкидывает",
        "Сколько карт ходящий может выложить в начале захода.",
        "Переводной",
        "Время на ход",
        "Сколько партий длится матч.",
        "Создать и сесть",
    ),
    "uk": (
        "Новий стіл: Дурень",
        "Хто підкидає",
        "Скільки карт той, хто ходить, може викласти на початку заходу.",
        "Перевідний",
        "Час на хід",
        "Скільки партій триває матч.",
        "Створити й сісти",
    ),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_create_form_explains_every_option_in_the_readers_language(client, django_user_model, lang):
    from django.urls import reverse

    user = django_user_model.objects.create_user("taras", "t@example.com", "pw-cards-123")
    client.force_login(user)
    page = client.get(reverse("table_new"), {"game": "durak"}, headers={"accept-language": lang})
    body = html.unescape(page.content.decode())
    missing = [text for text in CREATE_FORM[lang] if text not in body]
    assert not missing, missing
    for english in ("Who throws in", "How many cards the attacker may lead", "Time per turn", "Create and sit down"):
        assert english not in body


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_waiting_room_and_the_rules_page_read_in_the_readers_language(client, django_user_model, lang):
    from django.urls import reverse

    from lobbies.services import table_create

    host = django_user_model.objects.create_user("bohdan", "b@example.com", "pw-cards-123", display_name="Bohdan")
    table = table_create(user=host, game="durak", options={"mode": "transfer"}, seats=3, match_length=3)
    client.force_login(host)
    room = html.unescape(
        client.get(reverse("lobby_table", args=[table.pk]), headers={"accept-language": lang}).content.decode()
    )
    expected = {
        # the waiting room's own words, the options in words (a choice's label) and the match in the game's unit
        "ru": ("Ждём игроков", "Переводной", "3 партии", "Место 2", "свободно", "Встать", "Как играть"),
        "uk": ("Чекаємо на гравців", "Перевідний", "3 партії", "Місце 2", "вільне", "Встати", "Як грати"),
    }[lang]
    missing = [text for text in expected if text not in room]
    assert not missing, missing
    assert "Waiting for players" not in room and "Transfer (perevodnoy)" not in room
    rules = html.unescape(
        client.get(reverse("rules", args=["durak"]), headers={"accept-language": lang}).content.decode()
    )
    help_text = {
        "ru": "Сколько карт ходящий может выложить в начале захода.",
        "uk": "Скільки карт той, хто ходить, може викласти на початку заходу.",
    }[lang]
    assert help_text in rules and "How many cards the attacker may lead" not in rules


def test_the_end_of_match_banner_reads_in_ukrainian(client):
    from django.urls import reverse

    from tables.services import table_resign
    from tests.platform.tables.factories import started_table

    table, players, _ = started_table("durak", 2)
    table_resign(table.pk, players[0])  # the fool; the one-game match is over
    client.force_login(players[1])
    page = html.unescape(
        client.get(reverse("table", args=[table.pk]), headers={"accept-language": "uk"}).content.decode()
    )
    banner = page[page.index('id="table-end"') : page.index("</section>", page.index('id="table-end"'))]
    for text in ("Player 1 виграє матч", "Реванш", "Новий стіл", "До лобі", "Запис останньої партії"):
        assert text in banner, text
    assert "<strong>Player 0</strong> — дурень." in page and "Партію закінчено." in page
    for english in ("wins the match", "Rematch", "Back to lobby", "Game over", "is the fool"):
        assert english not in page, english


#: the gettext keywords ``makemessages`` extracts (Django's and ours): name -> (context, singular, plural) positions
KEYWORDS = {
    **dict.fromkeys(("_", "gettext", "gettext_lazy", "gettext_noop", "say"), (None, 0, None)),
    **dict.fromkeys(("ngettext", "ngettext_lazy", "says"), (None, 0, 1)),
    **dict.fromkeys(("pgettext", "pgettext_lazy"), (0, 1, None)),
    **dict.fromkeys(("npgettext", "npgettext_lazy"), (0, 1, 2)),
}
#: ``{% translate "constant" %}``, with a constant context or none
TRANSLATE_TAG = re.compile(
    r"""\{%\s*(?:translate|trans)\s+(?P<q>["'])(?P<msgid>.*?)(?P=q)"""
    r"""(?:\s+context\s+(?P<cq>["'])(?P<context>.*?)(?P=cq))?[^%]*%\}"""
)


def source_messages() -> list[tuple[str, str | None, str, str | None]]:
    """(where, context, msgid, plural) of every constant message the sources pass to a gettext keyword or a
    ``{% translate %}`` tag: found by reading them, as xgettext does, but also inside f-strings, where the
    xgettext of Debian's gettext finds nothing."""

    root = Path(settings.BASE_DIR)
    found = []
    for path in sorted([*root.glob("platform/**/*.py"), *root.glob("games/**/*.py")]):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in KEYWORDS:
                continue
            args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
            ctx_at, one_at, many_at = KEYWORDS[name]
            wanted = [i for i in (ctx_at, one_at, many_at) if i is not None]
            if len(args) <= max(wanted) or any(args[i] is None for i in wanted):
                continue  # a message read from a variable: its constant is marked where it is written
            where = f"{path.relative_to(root)}:{node.lineno}"
            found.append(
                (
                    where,
                    args[ctx_at] if ctx_at is not None else None,
                    args[one_at],
                    args[many_at] if many_at is not None else None,
                )
            )
    for path in sorted([*root.glob("templates/**/*.html"), *root.glob("platform/*/templates/**/*.html")]):
        text = path.read_text(encoding="utf-8")
        for match in TRANSLATE_TAG.finditer(text):
            where = f"{path.relative_to(root)}:{text.count(chr(10), 0, match.start()) + 1}"
            # the tag doubles a message's "%" before its lookup (it is never %-formatted): so does xgettext's input
            found.append((where, match["context"], match["msgid"].replace("%", "%%"), None))
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_constant_message_of_the_sources_is_translated(lang):
    """A message the code or a template names is in the catalogue, translated: one hidden from xgettext (in
    an f-string) or added without `makemessages` would show in English to a Russian or Ukrainian reader."""
    known = {
        (e.msgctxt, e.msgid, e.msgid_plural or None)
        for path in catalogues(lang)
        for e in polib.pofile(str(path)).translated_entries()
    }
    messages = source_messages()
    missing = [m for m in messages if m[1:] not in known]
    assert not missing, f"run `manage.py makemessages -l ru -l uk` and translate: {missing}"
    assert len(messages) > 1000
