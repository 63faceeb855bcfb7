"""The languages Lanterne speaks: English (the source text) and French.

Standard gettext: the catalogs are ``client/locale/<lang>/LC_MESSAGES/lanterne.po``
(the sources, edited by people) and their compiled ``lanterne.mo`` beside them
(package data, read through :mod:`importlib.resources`). The English text in
the code is the message id; a missing translation shows the English.

* :func:`_` / :func:`ngettext` translate now, in the language in force
  (:func:`set_language`); :func:`N_` only marks a constant for the extractor
  (Babel), which is translated where it is shown (``_(ENTRY)``).
* The engines and the protocol never translate: logs, notation and the wire
  are the same whatever the language. The engines word their events with
  :class:`lanterne.engines.core.Words`, English text that keeps its template
  and parts, and :func:`say` puts it in the language in force (the template
  is a message id of this catalog; Babel finds it by the keyword ``Words``).
* The language: ``--lang`` for one run, else the settings' ``language``, else
  the environment (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as
  gettext reads them), else English.

How to add or update a translation: docs/client.md, "Languages".
"""

from __future__ import annotations

import argparse
import dataclasses
import gettext as _gettext
import os
from importlib import resources
from typing import Callable, Mapping

DOMAIN = "lanterne"
SOURCE_LANGUAGE = "en"
LANGUAGES = {"en": "English", "fr": "Français"}
"""Every language with a catalog (and English, the source), by code, named in itself."""
LOCALE_PACKAGE = "lanterne.client"
LOCALE_FOLDER = "locale"
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_translation: _gettext.NullTranslations = _gettext.NullTranslations()
_language = SOURCE_LANGUAGE


class UnknownLanguage(ValueError):
    """A language with no catalog (``--lang xx``, a hand-edited settings file)."""

    def __init__(self, code: str):
        super().__init__(_("unknown language {code!r} (choose {choices})").format(
            code=code, choices=_(" or ").join(sorted(LANGUAGES))))


def _code(value: str) -> str:
    """``fr_CA.UTF-8@euro`` -> ``fr``."""
    return value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].strip().lower()


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: ``LANGUAGE`` (a list such as
    ``fr:en``) first unless the locale is ``C``, then the first of ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` that is set. A language without a catalog reads as English."""
    env = os.environ if environ is None else environ
    locale = next((env[v] for v in ENVIRONMENT[1:] if env.get(v)), "")
    candidates = [] if _code(locale) in ("c", "posix") else env.get("LANGUAGE", "").split(":")
    for value in candidates + [locale]:
        if value and _code(value) in LANGUAGES:
            return _code(value)
    return SOURCE_LANGUAGE


def check_language(code: str) -> str:
    """``code`` if Lanterne speaks it; :class:`UnknownLanguage` (one line) if not."""
    if code not in LANGUAGES:
        raise UnknownLanguage(code)
    return code


def choose_language(override: str | None = None, setting: str | None = None,
                    environ: Mapping[str, str] | None = None) -> str:
    """``--lang`` (checked), else the settings' language (if Lanterne has it), else the environment's."""
    if override:
        return check_language(override)
    if setting and setting in LANGUAGES:
        return setting
    return language_from_environment(environ)


def catalog(code: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``code`` from the package data (English: none, the source text)."""
    if code == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    path = resources.files(LOCALE_PACKAGE).joinpath(LOCALE_FOLDER, code, "LC_MESSAGES", f"{DOMAIN}.mo")
    try:
        with path.open("rb") as f:
            return _gettext.GNUTranslations(f)
    except OSError:       # a build without its catalog: the English text, never a crash
        return _gettext.NullTranslations()


def set_language(code: str) -> None:
    """Speak ``code`` from now on (every text translated after this call)."""
    global _translation, _language
    _translation = catalog(check_language(code))
    _language = code


def language() -> str:
    """The code of the language in force."""
    return _language


def _(message: str) -> str:
    """``message`` in the language in force."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``n`` in the language in force ("1 carte", "2 cartes"; French says "0 carte")."""
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in force, in the sense ``context`` gives it (an engine's term)."""
    return _translation.pgettext(context, message)


def seat_tag(index: int) -> str:
    """Seat ``index`` (0, 1, ...) as every screen and command names it: ``P1`` (French ``J1``)."""
    return _("P{n}").format(n=index + 1)


def N_(message: str) -> str:       # noqa: N802 - the gettext convention
    """Mark a constant for extraction only: it is translated where it is shown."""
    return message


def C_(context: str, message: str) -> str:     # noqa: N802
    """Mark a term used in ``context`` for extraction only (:func:`pgettext` says it)."""
    return message


DECIMAL_POINT = C_("decimal separator", ".")
"""The decimal point of a number shown, as the language in force writes it (French: a comma)."""


def seconds_text(seconds: float) -> str:
    """A duration in seconds as the language in force writes it ("0.4 s"; French "0,4 s")."""
    return _("{seconds} s").format(seconds=f"{seconds:g}".replace(".", pgettext("decimal separator", DECIMAL_POINT)))


SEAT_TEMPLATES = ("seat {n}", "P{n}")
"""How the engines name a seat in their words (``Words("seat {n}", n=2)``): a screen names it its way."""


def say(text, seat_name: Callable[[int], str | None] | None = None) -> str:
    """An engine's words (:class:`lanterne.engines.core.Words`) in the language in force: the template
    translated, then each part said the same way; a name of the rules the engine gives as plain text
    said too (``lanterne.client.game_terms.PLAIN_PARTS``); any other text as it is (a cell name, a
    number). ``seat_name(n)`` names seat ``n`` (1, 2, ...) as the screen does, or None for the engine's
    way."""
    from lanterne.client.game_terms import PLAIN_PARTS   # late: the terms module needs this one

    template = getattr(text, "template", None)
    if template is None or not text.parts:                # a plain name: "north of b", Words("north of b")
        plain = PLAIN_PARTS.get(text if template is None else template)
        if plain is not None:
            return plain()
    if template is None:
        return str(text)
    if seat_name is not None and template in SEAT_TEMPLATES:
        named = seat_name(int(text.parts["n"]))
        if named is not None:
            return named
    parts = {key: say(value, seat_name) for key, value in text.parts.items()}
    if text.plural_template is not None:
        form = ngettext(template, text.plural_template, text.count)
    elif getattr(text, "context", None):
        form = pgettext(text.context, template)
    else:
        form = _(template) if template else ""
    try:
        return form.format(**parts)
    except (KeyError, IndexError, ValueError):      # a broken translation: the engine's English
        return str(text)


def say_refusal(reason) -> str:
    """An engine's refusal in the language in force: an :class:`IllegalAction` (or the reason its game's
    ``check`` gives) whose message is ``Words`` is said like an event; plain English text stays as it is."""
    if isinstance(reason, BaseException):
        reason = reason.args[0] if len(reason.args) == 1 else str(reason)
    return say(reason)


def translate_bindings(node) -> None:
    """The footer words of ``node``'s key bindings in the language in force (a screen's ``BINDINGS``
    are class data, made before any language is chosen: their descriptions are message ids)."""
    bindings = getattr(node, "_bindings", None)
    if bindings is None:
        return
    english = getattr(node, "_english_bindings", None)
    if english is None:          # the message ids, kept for a later change of language
        english = {key: list(items) for key, items in bindings.key_to_bindings.items()}
        node._english_bindings = english
    for key, items in english.items():
        bindings.key_to_bindings[key] = [
            dataclasses.replace(b, description=_numbered(b.description),
                                tooltip=_(b.tooltip) if b.tooltip else b.tooltip)
            if b.description else b for b in items]


def _numbered(description: str) -> str:
    """A footer word in the language in force; one made of a numbered message (``N_("Site {n}").format(n=3)``:
    the keys 1-6 of a board) is translated by its message id."""
    said = _(description)
    if said == description:
        head, _space, number = description.rpartition(" ")
        if head and number.isdigit():
            template = head + " {n}"
            if _(template) != template:
                return _(template).format(n=number)
    return said


_argparse_installed = False


def translate_argparse() -> None:
    """argparse words its usage, its groups and its errors through gettext's ``_`` (message ids in
    this catalog, marked in client/cli.py): point it at this catalog."""
    global _argparse_installed

    if not _argparse_installed:
        argparse._ = _            # type: ignore[attr-defined]
        argparse.ngettext = ngettext   # type: ignore[attr-defined]
        _argparse_installed = True
