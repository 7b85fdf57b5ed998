"""Django's ``i18n`` tag library with ``{% translate "constant" %}`` looked up once per language.

Installed in place of ``i18n`` (``TEMPLATES`` ``OPTIONS["libraries"]``), so templates keep
``{% load i18n %}`` and ``makemessages`` still finds every string. A table's fragments are drawn
after every move, and each constant ``translate`` there went through a lazy string, the catalog
and the escaping each time: measured under the HTML load test, a fifth of a move's template time.
A tag with a variable, a filter or a variable context is drawn as Django draws it.
``{% blocktranslate %}`` with a constant context (or none) looks its message up once per language (and,
with ``count``, per number): the message and its placeholders are fixed by the template, only the
values put into it are drawn each time.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.template import Library, Node
from django.template.base import Parser, Token, render_value_in_context
from django.templatetags import i18n as django_i18n
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import get_language

register = Library()
register.tags.update(django_i18n.register.tags)
register.filters.update(django_i18n.register.filters)


def _literal(expression: Any) -> Any:
    """A constant's value (a quoted string is already resolved when parsed), or None."""
    var = expression.var
    return var if isinstance(var, str) else getattr(var, "literal", None)


def _constant(expression: Any) -> bool:
    return expression is None or (not expression.filters and _literal(expression) is not None)


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


#: counts beyond this are looked up each time (a number's plural form is kept per number)
MAX_COUNT_KEPT = 1000


class BlockTranslateOnceNode(django_i18n.BlockTranslateNode):
    def __init__(self, node: django_i18n.BlockTranslateNode) -> None:
        super().__init__(
            node.extra_context,
            node.singular,
            node.plural,
            node.countervar,
            node.counter,
            node.message_context,
            node.trimmed,
            node.asvar,
            getattr(node, "tag_name", "blocktranslate"),
        )
        self.counted = bool(self.plural and self.countervar and self.counter)
        self.singular_msg, self.vars = self.render_token_list(self.singular)
        self.plural_msg, plural_vars = self.render_token_list(self.plural) if self.counted else ("", [])
        self.vars = [*self.vars, *plural_vars]
        # a constant (``_constant``): a literal needs no page to be read
        self.context_word = _literal(self.message_context) if self.message_context else None
        #: (language, count or None) -> the catalog's message, placeholders still in it
        self.looked_up: dict[tuple[str | None, Any], str] = {}

    def _message(self, count: Any) -> str:
        key = (get_language(), count)
        message = self.looked_up.get(key)
        if message is None:
            if self.counted:
                if self.context_word:
                    message = translation.npgettext(self.context_word, self.singular_msg, self.plural_msg, count)
                else:
                    message = translation.ngettext(self.singular_msg, self.plural_msg, count)
            elif self.context_word:
                message = translation.pgettext(self.context_word, self.singular_msg)
            else:
                message = translation.gettext(self.singular_msg)
            if count is None or (isinstance(count, int) and abs(count) < MAX_COUNT_KEPT):
                self.looked_up[key] = message
        return message

    def render(self, context: Any, nested: bool = False) -> str:
        values = {var: val.resolve(context) for var, val in self.extra_context.items()}
        count = None
        if self.counted and self.counter is not None and self.countervar is not None:
            count = self.counter.resolve(context)
            if not isinstance(count, (Decimal, float, int)):
                return super().render(context, nested)  # Django's own error
            values[self.countervar] = count
        with context.push(values):
            if any(var not in context for var in self.vars):
                return super().render(context, nested)  # Django's stand-in for what the page lacks
            data = {var: render_value_in_context(context[var], context) for var in self.vars}
            try:
                result = self._message(count) % data
            except (KeyError, ValueError):
                return super().render(context, nested)  # a broken catalog entry: Django's fallback
        if self.asvar:
            context[self.asvar] = SafeString(result)
            return ""
        return result


@register.tag("blocktranslate")
@register.tag("blocktrans")
def do_block_translate(parser: Parser, token: Token) -> Node:
    node = django_i18n.do_block_translate(parser, token)
    if isinstance(node, django_i18n.BlockTranslateNode) and _constant(node.message_context):
        return BlockTranslateOnceNode(node)
    return node


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
