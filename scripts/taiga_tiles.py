"""Make the Taiga tile table of Taiga's guide (``notation/taiga/guide.md``)
and a picture of every tile (``notation/taiga/taiga-tiles/<code>.png``) from the tile data
(``engine/taiga/tiles.txt``), drawn by the project's own renderer
(``notation.drawing.zones``: the operations the map's PNG is drawn with).

    .venv/bin/python scripts/taiga_tiles.py           # write them
    .venv/bin/python scripts/taiga_tiles.py --check   # exit 1 if they are stale

``tests/test_taiga_tiles.py`` runs the check, so the docs never drift from
the data.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.taiga.tiles import DIRECTIONS, KINDS, turned
from notation.base import Tile, Zone
from notation.drawing import png as png_encode
from notation.drawing import render as diagrams
from notation.drawing import zones as diagram_zones
from notation.taiga.pictures import corner_colour, tile_shapes

DOC = ROOT / "notation" / "taiga" / "guide.md"
PICTURES = ROOT / "notation" / "taiga" / "taiga-tiles"
BEGIN = "<!-- tile table: made by scripts/taiga_tiles.py from engine/taiga/tiles.txt -->"
END = "<!-- end of the tile table -->"
SHORT = {"S": "softwood", "H": "hardwood", "G": "grass", "R": "road"}


def picture(code: str) -> bytes:
    """Tile ``code`` as printed, 56 pixels square, as a PNG file."""
    from PIL import Image, ImageDraw

    tile = turned(code, 0)
    block = diagram_zones.layout([Zone("", "tiles", (Tile((0, 0), code, corner_colour(tile), None,
                                                          tile_shapes(tile)),))], diagrams.colour, diagrams._shapes)
    size = diagram_zones.TILE
    image = Image.new("RGB", (size + 1, size + 1), "#ffffff")
    diagram_zones.png(ImageDraw.Draw(image), block.ops, 0, -(diagram_zones.LINE + 4), diagrams._sized_font)
    return png_encode.encode_rgb(image, portable=True)  # the same bytes on every machine


def _parts(parts) -> str:
    return " + ".join("".join(DIRECTIONS[d] for d in sorted(p)) for p in parts) or "–"


def table() -> str:
    """The tile table, one row per kind of tile."""
    rows = ["| picture | code | count | edges (n, e, s, w) | forest areas | roads | feature | printed $ | tile |",
            "| --- | --- | ---: | --- | --- | --- | --- | ---: | --- |"]
    for code, kind in KINDS.items():
        edges = ", ".join(SHORT[e] for e in kind.edges)
        rows.append(f"| ![{code}](taiga-tiles/{code}.png) | **{code}** | {kind.count} | {edges} | "
                    f"{_parts(kind.forests)} | {_parts(kind.roads)} | {kind.feature or '–'} | {kind.value} | "
                    f"{kind.name} |")
    total = sum(k.count for k in KINDS.values())
    rows.append(f"| | | **{total}** | | | | | | |")
    return "\n".join(rows)


def documented(text: str) -> str:
    """``text`` (the docs) with its tile table replaced by a fresh one."""
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{table()}\n{END}{tail}"


def stale() -> list[str]:
    """What is out of date: the table, a missing or different picture."""
    found = []
    if documented(DOC.read_text(encoding="utf-8")) != DOC.read_text(encoding="utf-8"):
        found.append(str(DOC))
    for code in KINDS:
        path = PICTURES / f"{code}.png"
        if not path.exists() or path.read_bytes() != picture(code):
            found.append(str(path))
    extra = {p.stem for p in PICTURES.glob("*.png")} - set(KINDS)
    found.extend(str(PICTURES / f"{code}.png") for code in sorted(extra))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say what is stale")
    args = parser.parse_args(argv)
    if args.check:
        out = stale()
        print("\n".join(out) or "up to date")
        return 1 if out else 0
    PICTURES.mkdir(parents=True, exist_ok=True)
    for code in KINDS:
        (PICTURES / f"{code}.png").write_bytes(picture(code))
    DOC.write_text(documented(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {len(KINDS)} pictures and the table in {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
