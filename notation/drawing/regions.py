"""Where a diagram's clickable things are drawn, for play by clicking
(``notation.clicks``): each square of the grid, by its name ("a1"), and
each item of a zone drawn as a group (a stack, a card, a die, a tile), by
the group's title up to its first colon (a stack "#3").  Rectangles are in
the picture's own units (``notation.drawing.render`` lays it out), so the browser
places them over the board image at any size.

Also the marks of a preview: the squares and zone items that a turn
changes, drawn as outlined rectangles over the SVG of the position after it.
"""

from __future__ import annotations

from typing import Any

from notation.base import Diagram
from notation.drawing import render as diagrams
from notation.drawing import zones

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1
MARK = "#ff6f00"


def _zone_items(diagram: Diagram, drawn: bool = False) -> list[tuple[Any, ...]]:
    """(id, title, rectangle) of each group the zones draw; with ``drawn``,
    also how it is drawn, wherever it is (its operations moved to its
    rectangle's corner: a map that grows moves its tiles, not what they
    show)."""
    _, _, block, zones_top, _ = diagrams._layout(diagram)
    if block is None:
        return []
    found: list[tuple[Any, ...]] = []
    for marker, group in zones.marked_groups(zones.moved(block.ops, 8, zones_top)):
        if marker is None:
            continue
        rect = zones.bounds(group)
        if rect is not None:
            title = marker[1]
            item = (title.split(":")[0].strip(), title, rect)
            found.append(item + (_looks(group, rect),) if drawn else item)
    return found


def _looks(group: list[zones.Op], rect: Rect) -> str:
    """How a group is drawn, apart from where: its operations from its corner."""
    def rounded(value: Any) -> Any:
        if isinstance(value, float):
            return round(value, 1)
        if isinstance(value, (tuple, list)):
            return tuple(rounded(v) for v in value)
        return value

    return repr([rounded(op) for op in zones.moved(group, -rect[0], -rect[1])])


def regions(diagram: Diagram) -> dict[str, Any]:
    """The picture's size and a rectangle per clickable thing:
    ``{"width", "height", "regions": {id: [x0, y0, x1, y1]}, "more": [[id,
    [x0, y0, x1, y1]], ...]}``; ``more`` holds the further rectangles of a
    thing drawn in several parts (the tiles of one territory, which share
    their ``Tile.click``; stacks that share their ``Stack.click``), clicked
    as the same thing."""
    width, height = diagrams._size(diagram)
    found: dict[str, list[float]] = {}
    more: list[list[Any]] = []
    for rank in range(diagram.ranks if diagram.has_grid else 0):
        for file in range(diagram.files):
            x, y = diagrams._origin(diagram, file, rank)
            found[diagram.square_name(file, rank)] = [x, y, x + diagrams.CELL, y + diagrams.CELL]
    clicks = _tile_clicks(diagram)
    for name, _, rect in _zone_items(diagram):
        if name not in found:
            found[name] = list(rect)
        elif name in clicks:  # another tile of a thing clicked as one
            more.append([name, list(rect)])
    return {"width": width, "height": height, "regions": found, "more": more}


def _tile_clicks(diagram: Diagram) -> set[str]:
    """The clicks that tiles and stacks of the diagram's zones are named by."""
    return {item.click for zone in diagram.zones if zone.kind in ("tiles", "stacks") for item in zone.items
            if item.click}


def changed(before: Diagram, after: Diagram) -> list[Rect]:
    """Where ``after`` differs from ``before``: each square whose piece
    changed (drawn on ``after``), and each zone item of ``after`` that is
    new or drawn differently."""
    marks: list[Rect] = []
    if after.has_grid and (before.files, before.ranks) == (after.files, after.ranks):
        for rank in range(after.ranks):
            for file in range(after.files):
                if before.cells.get((file, rank)) != after.cells.get((file, rank)):
                    x, y = diagrams._origin(after, file, rank)
                    marks.append((x, y, x + diagrams.CELL, y + diagrams.CELL))
    old = {title: looks for _, title, _, looks in _zone_items(before, drawn=True)}
    marks.extend(rect for _, title, rect, looks in _zone_items(after, drawn=True) if old.get(title) != looks)
    return marks


def marked_svg(svg: str, marks: list[Rect]) -> str:
    """``svg`` with each mark outlined over it."""
    drawn = "".join(f'<rect class="changed" x="{x0 + 1.5:.1f}" y="{y0 + 1.5:.1f}" width="{x1 - x0 - 3:.1f}" '
                    f'height="{y1 - y0 - 3:.1f}" fill="none" stroke="{MARK}" stroke-width="3" '
                    f'stroke-dasharray="6 3"/>' for x0, y0, x1, y1 in marks)
    return svg.replace("</svg>", drawn + "</svg>", 1)
