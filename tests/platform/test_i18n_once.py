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
