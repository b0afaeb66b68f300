"""PNG boards drawn from cached boards and sprites (``notation.drawing.sprites``)
have exactly the pixels of boards drawn shape by shape: every piece kind on
every square of every board size, every zone kind, Martian Greenhouse along
a game, and pieces that spill out of their square.  A board already drawn
once is drawn again only from the caches (counted, never timed); the caches
are bounded and shared safely by threads; the PNG encoder is lossless."""

from __future__ import annotations

import io
import sys
import threading
from itertools import islice
from pathlib import Path

import pytest
from PIL import Image

from engine.base import settle_from_seed
from notation import registry
from notation.base import Card, Diagram, Die, Piece, Stack, Tile, Zone
from notation.drawing import png as png_encode
from notation.drawing import render as diagrams
from notation.drawing import sprites as diagram_sprites
from notation.drawing import zones as diagram_zones

sys.path.insert(0, str(Path(__file__).parent))
from test_diagram_zones import FLOWERS  # noqa: E402 - after the module's own setup
from test_server_diagrams import ALL_KINDS  # noqa: E402 - after the module's own setup

PIECES = [
    *(Piece("tree", "t", None, size) for size in (1, 2, 3)),
    Piece("tree", "P", None, 3, marked=True), Piece("tree", "P", 1, 2, marked=True),
    *(Piece("pyramid", "p", player, size) for player in range(8) for size in (1, 2, 3)),
    *(Piece("logger", str(player + 1), player, 2) for player in range(8)),
    *(Piece("stone", "x", player) for player in (0, 1, 2, 7)),
    Piece("stone", "x", 0, colour="#123456"), Piece("blocked", "#"), Piece("mystery", "<&>"),
]


def same_pixels(diagram: Diagram) -> None:
    cached = diagrams.png_image(diagram)
    direct = diagrams.png_image(diagram, cached=False)
    assert cached.size == direct.size
    assert cached.tobytes() == direct.tobytes()


@pytest.mark.parametrize("size", [(5, 5), (8, 8), (9, 9), (7, 7)])
def test_every_piece_on_every_square_is_pasted_with_the_pixels_drawing_gives(size):
    files, ranks = size
    squares = [(f, r) for f in range(files) for r in range(ranks)]
    for index, _piece in enumerate(PIECES):
        shifted = squares[index % len(squares):] + squares[:index % len(squares)]
        cells = {square: PIECES[(index + n) % len(PIECES)] for n, square in enumerate(shifted)}
        same_pixels(Diagram(files, ranks, cells, caption=("Player 1 to move", f"turn {index}"),
                            players=1 + index % 8))


ZONES = [
    Zone("Draw pile", "pile", (Card("7", colour="#00acc1"),), count=23), Zone("Empty pile", "pile", count=0),
    Zone("Bob's hand", "hand", (Card("2B"), Card(face_up=False), Card("X", player=4))),
    Zone("Dice", "dice", (Die(3), Die(5, player=1), Die(11, 12), Die(6, player=7))),
    Zone("Map", "tiles", (Tile((0, 0), "sea", "#90caf9"), Tile((1, 1), "forest", "#a5d6a7", Piece("stone", "s", 2)),
                          Tile((-1, 0), "hill"))),
    Zone("Board", "grid", (Diagram(2, 2, {(0, 0): Piece("stone", "x", 0)}),)),
    Zone("Orders", "stacks", (Stack("O1", (Piece("pyramid", "1P", size=1, colour="#6a1b9a"),) * 6, "filled"),),
         beside=True),
]


def test_every_zone_kind_and_the_all_kinds_board_are_unchanged():
    same_pixels(ALL_KINDS)
    same_pixels(Diagram(0, 0, {}, ("Turn 3",), zones=(FLOWERS, *ZONES)))
    for zone in ZONES:
        same_pixels(Diagram(0, 0, {}, ("Turn 3",), zones=(zone,)))
    same_pixels(Diagram(2, 1, {(0, 0): Piece("stone", "x", 0)}, ("Player 1 to move",), zones=(ZONES[3],),
                        players=3))


def test_martian_greenhouse_along_a_game():
    kind = registry.get("greenhouse")
    state = kind.rules.seeded_state(1, {}, "0" * 63 + "7")
    for i in range(8):
        same_pixels(kind.notation.diagram(state))
        if kind.rules.is_over(state):
            break
        turns = list(islice(kind.rules.iter_turns(state), 40))
        state = kind.rules.apply(state, turns[(i * 5) % len(turns)])


def test_a_taiga_map_along_a_game_pastes_its_touching_tiles_with_the_pixels_drawing_gives():
    kind = registry.get("taiga")
    state = settle_from_seed(kind.rules, kind.rules.seeded_state(3, {}, "0" * 63 + "5"), "0" * 63 + "5", 0)[0]
    for i in range(40):
        if i % 8 == 0 or kind.rules.is_over(state):
            same_pixels(kind.notation.diagram(state))
        if kind.rules.is_over(state):
            break
        turns = kind.rules.legal_turns(state)
        state = settle_from_seed(kind.rules, kind.rules.apply(state, turns[(i * 7) % len(turns)]), "0" * 63 + "5",
                                 i + 1)[0]


def test_a_piece_spilling_out_of_its_square_is_drawn_directly_and_still_right():
    long = Piece("mystery", "a label far wider than a square", 0)
    diagram = Diagram(3, 2, {(0, 0): long, (1, 0): Piece("stone", "x", 1), (2, 0): long,
                             (1, 1): Piece("pyramid", "p", 0, 3)}, caption=("spills",))
    same_pixels(diagram)


def drawn_directly(monkeypatch) -> list:
    calls: list = []
    real = diagram_zones.png

    def counting(draw, ops, dx, dy, font):
        calls.append(ops)
        return real(draw, ops, dx, dy, font)

    monkeypatch.setattr(diagram_zones, "png", counting)
    return calls


@pytest.mark.parametrize("game", ["logger", "attactics", "ataxx", "greenhouse", "taiga"])
def test_a_board_drawn_before_is_drawn_again_only_from_the_caches(game, monkeypatch):
    kind = registry.get(game)
    options = kind.rules.normalize_options({})
    if kind.rules.uses_chance:
        state = kind.rules.seeded_state(kind.rules.min_players, options, "0" * 63 + "1")
    else:
        state = kind.rules.initial_state(kind.rules.min_players, options)
    position = kind.notation.format_position(state)
    first = diagrams.render_fresh(game, options, position, "png")
    before = diagram_sprites.cache_info()
    calls = drawn_directly(monkeypatch)
    assert diagrams.render_fresh(game, options, position, "png") == first
    after = diagram_sprites.cache_info()
    assert calls == [], "every group was pasted from a sprite"
    assert after["boards"]["misses"] == before["boards"]["misses"]
    assert after["sprites"]["misses"] == before["sprites"]["misses"]
    assert after["sprites"]["hits"] > before["sprites"]["hits"]


def test_the_caches_are_bounded_and_least_recently_used_go_first():
    cache = diagram_sprites.LRU(3)
    for key in "abc":
        cache.get(key, lambda key=key: key.upper())
    assert cache.get("a", lambda: "new") == "A"  # a is now the most recent
    cache.get("d", lambda: "D")
    assert cache.info() == {"hits": 1, "misses": 4, "size": 3, "maxsize": 3}
    assert cache.get("b", lambda: "made again") == "made again"  # b went first
    assert diagram_sprites.sprites.maxsize == diagram_sprites.SPRITES
    assert diagram_sprites.boards.maxsize == diagram_sprites.BOARDS


def _ataxx_boards() -> list[Diagram]:
    """Six Ataxx boards of a game, one a turn."""
    kind = registry.get("ataxx")
    state = kind.rules.initial_state(2, {})
    boards = []
    for i in range(6):
        boards.append(kind.notation.diagram(state))
        state = kind.rules.apply(state, kind.rules.legal_turns(state)[i % 3])
    return boards


def _in_four_threads(work) -> None:
    """``work(offset)`` in four threads at once (offsets 0 to 3), waited for."""
    threads = [threading.Thread(target=work, args=(offset,)) for offset in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_threads_drawing_at_once_get_the_same_pictures():
    diagram_sprites.clear()
    boards = _ataxx_boards()
    expected = [diagrams.png_image(d, cached=False).tobytes() for d in boards]
    diagram_sprites.clear()
    failures: list = []

    def draw() -> None:
        for _ in range(3):
            for diagram, pixels in zip(boards, expected):
                if diagrams.png_image(diagram).tobytes() != pixels:
                    failures.append(diagram)

    _in_four_threads(lambda _offset: draw())
    assert failures == []


def test_the_png_encoder_keeps_every_pixel():
    image = diagrams.png_image(ALL_KINDS)
    data = png_encode.encode_rgb(image)
    decoded = Image.open(io.BytesIO(data))
    assert decoded.format == "PNG" and decoded.mode == "RGB"
    assert decoded.tobytes() == image.tobytes()
    assert diagrams.render_png(ALL_KINDS) == data
    with pytest.raises(ValueError, match="RGB"):
        png_encode.encode_rgb(image.convert("RGBA"))


def _decoded(data: bytes) -> bytes:
    return Image.open(io.BytesIO(data)).tobytes()


def test_pngs_drawn_one_after_another_on_the_reused_canvas_keep_no_trace_of_the_last():
    """A mailed board is drawn on the thread's reused canvas: boards of
    other sizes and other pieces drawn in between (a full 9x9 board, then
    an empty 5x5 one of the same size as a full one) leave nothing behind."""
    ataxx, logger = registry.get("ataxx"), registry.get("logger")
    full = ataxx.notation.diagram(ataxx.notation.parse_position("xxxxxxx/ooooooo/xxxxxxx/7/ooooooo/xxxxxxx/ooooooo x 0 1"))
    empty = ataxx.notation.diagram(ataxx.notation.parse_position("7/7/7/7/7/7/7 x 0 1"))
    small = logger.notation.diagram(logger.rules.initial_state(2, {}))
    for diagram in (full, empty, small, full, small, empty, ALL_KINDS, empty):
        assert _decoded(diagrams.render_png(diagram)) == diagrams.png_image(diagram, cached=False).tobytes()


def test_maps_larger_and_smaller_than_the_canvas_are_mailed_with_only_their_own_pixels():
    """The canvas keeps the largest picture its thread drew: a smaller map
    drawn on it after a larger one (and a wider one after a taller one) is
    mailed at its own size, with nothing of the larger one in it."""
    kind = registry.get("taiga")
    seed = "0" * 63 + "7"
    state = settle_from_seed(kind.rules, kind.rules.seeded_state(2, {}, seed), seed, 0)[0]
    maps = []
    for i in range(30):
        if i % 6 == 0:
            maps.append(kind.notation.diagram(state))
        turns = kind.rules.legal_turns(state)
        state = settle_from_seed(kind.rules, kind.rules.apply(state, turns[(i * 5) % len(turns)]), seed, i + 1)[0]
    assert len({diagrams.png_image(m, cached=False).size for m in maps}) >= 3  # maps of several sizes
    for diagram in [*reversed(maps), *maps, *reversed(maps)]:
        png = Image.open(io.BytesIO(diagrams.render_png(diagram)))
        expected = diagrams.png_image(diagram, cached=False)
        assert png.size == expected.size and png.tobytes() == expected.tobytes()


def test_the_png_encoder_encodes_only_the_box_it_is_given():
    image = diagrams.png_image(ALL_KINDS)
    corner = (image.width // 2, image.height // 3)
    decoded = Image.open(io.BytesIO(png_encode.encode_rgb(image, size=corner)))
    assert decoded.size == corner and decoded.tobytes() == image.crop((0, 0) + corner).tobytes()
    with pytest.raises(ValueError, match="does not fit"):
        png_encode.encode_rgb(image, size=(image.width + 1, image.height))


def test_threads_mailing_boards_at_once_each_draw_on_their_own_canvas():
    boards = _ataxx_boards()
    boards.append(ALL_KINDS)
    expected = [diagrams.png_image(d, cached=False).tobytes() for d in boards]
    failures: list = []

    def draw(offset: int) -> None:
        for n in range(3 * len(boards)):
            index = (n + offset) % len(boards)
            if _decoded(diagrams.render_png(boards[index])) != expected[index]:
                failures.append(index)

    _in_four_threads(draw)
    assert failures == []


def test_white_groups_that_overlap_what_was_pasted_before_them_are_still_right():
    """A painter told that its picture began all white pastes a white
    group's sprite without looking only where nothing was pasted before:
    labels that overlap earlier ones (and a group under the lowest one
    pasted) come out as drawing them one after another gives."""
    from PIL import ImageDraw

    groups = [[("text", (x, y, word, 13, "start", False), colour)]
              for x, y, word, colour in ((4, 10, "overlapping", "#222222"), (30, 12, "labels", "#b71c1c"),
                                         (4, 40, "below them", "#1565c0"), (60, 38, "and over", "#222222"),
                                         (4, 90, "alone", "#222222"))]
    groups.append([("rect", (2, 85, 50, 100), "#2f7d32", "#1b1b1b", 0)])  # over "alone"
    direct = Image.new("RGB", (200, 120), "#ffffff")
    draw = ImageDraw.Draw(direct)
    for ops in groups:
        diagram_zones.png(draw, ops, 0, 0, diagrams._sized_font)
    for ink in (None, diagram_sprites.UNKNOWN):
        diagram_sprites.clear()
        painted = Image.new("RGB", (200, 120), "#ffffff")
        painter = diagram_sprites.Painter(painted, diagrams._sized_font, ink)
        for ops in groups:
            painter.paint(ops, (255, 255, 255))
        assert painted.tobytes() == direct.tobytes()


def test_the_ink_of_an_empty_board_is_measured_once_per_board():
    empty = Image.new("RGB", (60, 40), "#ffffff")
    assert diagram_sprites.ink(("test", "white"), empty) is None
    empty.putpixel((10, 20), (0, 0, 0))
    assert diagram_sprites.ink(("test", "white"), empty) is None  # measured before, for that key
    assert diagram_sprites.ink(("test", "dotted"), empty) == (10, 20, 11, 21)
