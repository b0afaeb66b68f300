"""A page per game that teaches it where it is played: what the game is,
its players and options, the rules as this server applies them with our
rulings (the game's guide document), the notation with examples, and a
short sample game drawn by the server's own diagrams.

Everything comes from the game's plug-in (``notation.base.GameKind``: its
rules, notation and summary) and its guide, package data of the game
(``GameKind.guide``: ``guide.md``, ``guide.<lang>.md``, in the package
``GameKind.package``): a new game gets its page by being registered, and
its rules text by shipping its guide.  Never names a game.
"""

from __future__ import annotations

import functools
from importlib.resources.abc import Traversable
from typing import Any

from engine.bots.hooks import offered
from notation import registry
from pbem import links
from pbem.services import visibility as views

#: turns of the sample game shown on a guide page
SAMPLE_PLIES = 3


def link(kind_name: str) -> str:
    """The guide page's path (for pages: relative to the site)."""
    return links.guide_path(kind_name)


def document(kind_name: str, language: str | None = None) -> Traversable | None:
    """The game's guide document, if it has one: in ``language`` when it
    is written in it (``guide.fr.md``), else the English one."""
    return registry.get(kind_name).guide(language)


def in_language(kind_name: str, language: str | None) -> bool:
    """Whether the game's rules document is written in ``language``."""
    found = document(kind_name, language)
    return found is not None and (not language or language == "en" or found.name.endswith(f".{language}.md"))


@functools.lru_cache(maxsize=32)
def rules_html(kind_name: str, language: str | None = None) -> str | None:
    """The game's rules document as HTML (trusted text of the game's
    package), in ``language`` when it is written in it; None when the
    game has no document."""
    found = document(kind_name, language)
    if found is None:
        return None
    import markdown
    from markdown.extensions.toc import slugify

    def anchor(value: str, separator: str) -> str:  # the document's anchors apart from the page's own
        return "rules-" + str(slugify(value, separator))

    # the document's headings sit under the page's own h1 and h2
    html: str = markdown.markdown(found.read_text(encoding="utf-8"), extensions=["tables", "fenced_code", "toc"],
                                  extension_configs={"toc": {"baselevel": 3, "slugify": anchor}})
    return html


@functools.lru_cache(maxsize=32)
def sample(kind_name: str) -> tuple[tuple[str | None, str, tuple[str, ...]], ...]:
    """The start and the first few turns of a sample game: (turn, SVG,
    legend lines) each (``views.sample_boards``)."""
    return tuple(views.sample_boards(registry.get(kind_name).name, SAMPLE_PLIES))


def picture(kind_name: str) -> str:
    """The game's picture: its start position drawn as SVG."""
    return sample(kind_name)[0][1]


def guide(kind_name: str, language: str | None = None) -> dict[str, Any]:
    """Everything the guide page shows about the game called ``kind_name``,
    its rules text in ``language`` when written in it."""
    kind = registry.get(kind_name)
    rules = kind.rules
    return {
        "name": kind.name,
        "title": rules.title or kind.name,
        "summary": kind.summary,
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "uses_chance": rules.uses_chance,
        "options": [{"name": spec.name, "choices": [c for c in spec.choices if c != "..."],
                     "default": spec.default, "help": spec.help} for spec in rules.option_specs],
        "examples": list(kind.notation.turn_examples),
        "rules_html": rules_html(kind.name, language),
        "rules_in_language": in_language(kind.name, language),
        "sample": sample(kind.name),
        "bot_levels": list(offered(rules)),
    }


def overview() -> list[dict[str, Any]]:
    """Every game offered: name, title, sentence, players (the home page)."""
    shown = []
    for name in registry.names():
        kind = registry.get(name)
        shown.append({"name": kind.name, "title": kind.rules.title or kind.name, "summary": kind.summary,
                      "min_players": kind.rules.min_players, "max_players": kind.rules.max_players})
    return shown
