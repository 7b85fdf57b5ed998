"""Constant translations in templates are looked up once per language, and still follow the reader's."""

from django.template import engines
from django.utils import translation

TEMPLATE = (
    '{% load i18n %}{% translate "Your turn" %}|{% translate "away" context "a player" %}|'
    '{% translate "Your turn" as said %}[{{ said }}]|{% translate word %}'
)


def test_a_constant_translation_follows_the_language_each_time_it_is_drawn():
    template = engines["django"].from_string(TEMPLATE)
    seen = {}
    for lang in ["en", "ru", "en", "ru"]:
        with translation.override(lang):
            seen.setdefault(lang, set()).add(template.render({"word": "Your turn"}))
    assert seen == {
        "en": {"Your turn|away|[Your turn]|Your turn"},
        "ru": {"Ваш ход|отошёл|[Ваш ход]|Ваш ход"},
    }


BLOCKS = (
    "{% load i18n %}"
    "{% blocktranslate with n=move %}move {{ n }}{% endblocktranslate %}|"
    "{% blocktranslate count n=tricks %}{{ n }} trick{% plural %}{{ n }} tricks{% endblocktranslate %}|"
    "{% blocktranslate trimmed count games=games with finished=pct %}Of the last {{ games }} game with other people: "
    "finished {{ finished }}%, ran out of time in {{ finished }}%{% plural %}Of the last {{ games }} games with "
    "other people: finished {{ finished }}%, ran out of time in {{ finished }}%{% endblocktranslate %}|"
    '{% blocktranslate with card=name context "a card" %}Play {{ card }}{% endblocktranslate %}|'
    "{% blocktranslate with card=name asvar said %}Play {{ card }}{% endblocktranslate %}[{{ said }}]|"
    "{% blocktranslate %}Play {{ name }}{% endblocktranslate %}|"
    "{% blocktranslate %}Play {{ nothing }}{% endblocktranslate %}"
)


def test_a_block_translation_draws_what_django_draws_in_every_language():
    from django.template import Context, Engine

    ours = engines["django"].from_string(BLOCKS)
    django_own = Engine(libraries={"i18n": "django.templatetags.i18n"}).from_string(BLOCKS)
    for lang in ["en", "ru", "uk", "en", "ru", "uk"]:
        for move, tricks, pct in [(1, 1, 50), (2, 2, 100), (5, 5, 0), (21, 21, 7), (12345, 1500, 99)]:
            values = {"move": move, "tricks": tricks, "games": tricks, "pct": pct, "name": "<b>10♠</b>"}
            with translation.override(lang):
                assert ours.render(values) == django_own.render(Context(values)), (lang, move)
