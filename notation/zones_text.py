"""The text form of a diagram's zones (``notation.base.Zone``): stacks as
columns read top down, a pile's count, a hand's cards (``[?]`` face down),
dice, tiles on their map, and grids.  Zones marked ``beside`` are set to the
right of the zone before them.

It reads zones by their ``kind`` only, so ``notation.base`` can use it
without an import cycle."""

from __future__ import annotations

from typing import Any, Callable, Sequence


def zones_text(zones: Sequence[Any], render_grid: Callable[[Any], str]) -> list[str]:
    """The zones as lines of text; ``render_grid`` draws a grid zone's
    diagram."""
    rows: list[list[str]] = []
    for zone in zones:
        block = [f"{zone.title}:"] + _body(zone, render_grid)
        if zone.beside and rows:
            rows[-1] = _side_by_side(rows[-1], block)
        else:
            if rows:
                rows[-1].append("")
            rows.append(block)
    return [line for row in rows for line in row]


def _side_by_side(left: list[str], right: list[str]) -> list[str]:
    width = max(len(line) for line in left)
    height = max(len(left), len(right))
    left = left + [""] * (height - len(left))
    right = right + [""] * (height - len(right))
    return [f"{a:<{width}}  |  {b}".rstrip() for a, b in zip(left, right)]


def _body(zone: Any, render_grid: Callable[[Any], str]) -> list[str]:
    if zone.kind == "grid":
        return render_grid(zone.items[0]).splitlines()
    if zone.kind == "stacks":
        return _stacks(zone.items)
    if zone.kind == "pile":
        top = " ".join(_card(c) for c in zone.items)
        return [f"{zone.count} face down" + (f"; on top: {top}" if top else "")]
    if zone.kind == "hand":
        return [" ".join(_card(c) for c in zone.items) or "(no cards)"]
    if zone.kind == "dice":
        return [" ".join(f"[{d.value}]" for d in zone.items) or "(no dice)"]
    return _tiles(zone.items)


def _card(card: Any) -> str:
    return f"[{card.label}]" if card.face_up else "[?]"


def _stacks(stacks: Sequence[Any]) -> list[str]:
    """Columns, one per stack, its label on top and its top piece first."""
    if not stacks:
        return ["(none)"]
    width = max(3, *(len(s.label) for s in stacks), *(len(p.label) for s in stacks for p in s.pieces))
    depth = max(len(s.pieces) for s in stacks)
    lines = ["  ".join(f"{s.label:>{width}}" for s in stacks)]
    for row in range(depth):
        lines.append("  ".join(f"{s.pieces[row].label if row < len(s.pieces) else '':>{width}}" for s in stacks))
    notes = [s for s in stacks if s.note]
    lines.extend(f"{s.label}: {s.note}" for s in notes)
    return [line.rstrip() for line in lines]


def _tiles(tiles: Sequence[Any]) -> list[str]:
    """The map, north up, each tile its label (three characters at most),
    then the tiles with their places."""
    if not tiles:
        return ["(no tiles)"]
    if all(t.glyph for t in tiles):
        return _glyph_map(tiles)
    at = {t.at: t for t in tiles}
    xs = [x for x, _ in at]
    ys = [y for _, y in at]
    lines = []
    for y in range(max(ys), min(ys) - 1, -1):
        lines.append(" ".join(f"{at[(x, y)].label[:3] if (x, y) in at else '.':>3}" for x in range(min(xs), max(xs) + 1)).rstrip())
    lines.extend(f"{t.label} at {t.at[0]},{t.at[1]}" for t in tiles)
    return lines


def _glyph_map(tiles: Sequence[Any]) -> list[str]:
    """The map, north up, each tile its glyph (rows of characters), with the
    x coordinates above and the y coordinates on the left."""
    at = {t.at: t for t in tiles}
    height = max(len(t.glyph) for t in tiles)
    width = max(len(row) for t in tiles for row in t.glyph)
    xs = range(min(x for x, _ in at), max(x for x, _ in at) + 1)
    ys = range(max(y for _, y in at), min(y for _, y in at) - 1, -1)
    margin = max(len(str(y)) for y in ys) + 1
    lines = [" " * margin + "".join(f"{x:^{width}}" for x in xs).rstrip()]
    for y in ys:
        for row in range(height):
            label = str(y) if row == height // 2 else ""
            cells = []
            for x in xs:
                glyph = at[(x, y)].glyph if (x, y) in at else ()
                cells.append(f"{glyph[row] if row < len(glyph) else '':<{width}}")
            lines.append((f"{label:>{margin - 1}} " + "".join(cells)).rstrip())
    return lines
