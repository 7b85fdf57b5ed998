"""Django's ``i18n`` tag library with ``{% translate "constant" %}`` looked up once per language.

Installed in place of ``i18n`` (``TEMPLATES`` ``OPTIONS["libraries"]``), so templates keep
``{% load i18n %}`` and ``makemessages`` still finds every string. A table's fragments are drawn
after every move, and each constant ``translate`` there went through a lazy string, the catalog
and the escaping each time: measured under the HTML load test, a fifth of a move's template time.
A tag with a variable, a filter or a variable context is drawn as Django draws it.
"""

from __future__ import annotations

from typing import Any

from django.template import Library, Node
from django.template.base import Parser, Token
from django.templatetags import i18n as django_i18n
from django.utils.translation import get_language

register = Library()
register.tags.update(django_i18n.register.tags)
register.filters.update(django_i18n.register.filters)


def _constant(expression: Any) -> bool:
    return expression is None or (not expression.filters and getattr(expression.var, "literal", None) is not None)


class TranslateOnceNode(django_i18n.TranslateNode):
    def __init__(self, node: django_i18n.TranslateNode) -> None:
        super().__init__(node.filter_expression, node.noop, node.asvar, node.message_context)
        #: (language, autoescape) -> the text as Django's node draws it
        self.drawn: dict[tuple[str | None, bool], str] = {}

    def render(self, context: Any) -> str:
        key = (get_language(), context.autoescape)
        value = self.drawn.get(key)
        if value is None:
            if not self.asvar:
                value = self.drawn[key] = super().render(context)
                return value
            super().render(context)
            value = self.drawn[key] = context[self.asvar]
        if self.asvar:
            context[self.asvar] = value
            return ""
        return value


@register.tag("translate")
@register.tag("trans")
def do_translate(parser: Parser, token: Token) -> Node:
    node = django_i18n.do_translate(parser, token)
    if (
        isinstance(node, django_i18n.TranslateNode)
        and _constant(node.filter_expression)
        and (_constant(node.message_context))
    ):
        return TranslateOnceNode(node)
    return node
