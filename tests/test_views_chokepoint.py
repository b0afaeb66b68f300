"""Hidden information has one chokepoint: no module but
``pbem.services.visibility`` formats a stored position, draws a diagram, lists
legal turns or writes a record for output (checked by reading the source
with ``ast``), and the modules that talk to people never read a stored
position or the full state."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PBEM = ROOT / "pbem"
CHOKEPOINT = PBEM / "services" / "visibility.py"

#: calls that draw or write a position for someone to see
OUTPUT_CALLS = {"text_diagram", "render_text", "diagram", "render", "render_svg", "render_png",
                "first_legal_texts", "legal_texts"}
#: ... and the record writers, called on a module named for records
RECORD_CALLS = {"write_text", "write_json", "to_json_data", "text", "json_text"}
#: modules that may make them: the chokepoint, the record builder it calls, and the engine's command
#: line (positions typed on the command line, never a stored game); the renderers are below the server
#: (``notation.drawing``)
OUTPUT_ALLOWED = {CHOKEPOINT, PBEM / "services" / "records.py", PBEM / "cli" / "engine.py"}
#: modules that may format a position: to store it (the turn service, the sweep, the start) or to
#: build the full record (``records``, written out only by the chokepoint)
FORMAT_ALLOWED = OUTPUT_ALLOWED | {PBEM / "services" / name for name in ("turns.py", "transition.py", "sweep.py", "games.py")}
#: modules that talk to people: they never read the full state or a stored position string
OUTWARD = [PBEM / "web", PBEM / "api", PBEM / "mailrobot", PBEM / "services" / "present.py",
           PBEM / "services" / "notify.py", PBEM / "services" / "digest.py", PBEM / "services" / "ical.py",
           PBEM / "cli" / "play.py"]
#: a ``.position`` read or a drawing is fine on a viewed ``View`` (named ``sight`` by convention)
VIEWED = {"sight"}


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _is_views_call(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        isinstance(node.func.value, ast.Name) and node.func.value.id == "views"


def _only_tested(node: ast.Attribute, parent: ast.AST | None) -> bool:
    """``x.position is None``, ``if x.position``, ``not x.position``: only
    whether there is a position, not what it is."""
    if isinstance(parent, ast.Compare):
        return all(isinstance(c, ast.Constant) and c.value is None for c in parent.comparators)
    if isinstance(parent, (ast.If, ast.IfExp, ast.While)):
        return parent.test is node
    return isinstance(parent, ast.BoolOp) or (isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not))


def offences(source: str, path: Path) -> list[str]:
    """What ``source`` (the module at ``path``) does that only the chokepoint may."""
    tree = ast.parse(source)
    parents = _parents(tree)
    outward = any(path == place or place in path.parents for place in OUTWARD)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            on = getattr(getattr(node.func, "value", None), "id", "")
            writes_record = name in RECORD_CALLS and "record" in on
            if (name in OUTPUT_CALLS or writes_record) and path not in OUTPUT_ALLOWED and not _is_views_call(node) \
                    and on not in VIEWED:
                found.append(f"{node.lineno}: calls {name}")
            if name == "format_position" and path not in FORMAT_ALLOWED:
                found.append(f"{node.lineno}: formats a position")
            if name == "state_of" and outward:
                found.append(f"{node.lineno}: reads the full state")
        if outward and isinstance(node, ast.Attribute) and node.attr == "position" \
                and isinstance(node.ctx, ast.Load):
            parent = parents.get(node)
            owner = node.value.id if isinstance(node.value, ast.Name) else ""
            if owner not in VIEWED and not _only_tested(node, parent) and not _is_views_call(parent) \
                    and not _is_views_call(node.value):
                found.append(f"{node.lineno}: reads {ast.unparse(node)}")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def test_only_the_chokepoint_shows_positions():
    bad = []
    for path in sorted(PBEM.rglob("*.py")):
        if "migrations" in path.parts or path == CHOKEPOINT:
            continue
        bad += [f"{path.relative_to(ROOT)}:{line}" for line in offences(path.read_text(), path)]
    assert bad == [], ("only pbem/services/visibility.py may show a position (the viewer's view of it):\n"
                       + "\n".join(bad))


def test_the_check_sees_each_kind_of_leak():
    page = PBEM / "web" / "games.py"
    source = "\n".join([
        "text = kind.notation.text_diagram(state_of(game))",  # 1: a diagram of the full state
        "png = diagrams.render(game.kind, game.options, game.position, 'png')",  # 2
        "shown = turn.position",  # 3: a stored position
        "if game.position is None: pass",  # 4: fine
        "sight = views.at(session, game, seat); shown = sight.position + sight.text_diagram()",  # 5: fine
        "view = views.of_position(game, seat, row.position)",  # 6: fine
        "listed = kind.notation.first_legal_texts(state, 5)",  # 7
        "body = records.text(session, game)",  # 8: the full record
        "Path('x').write_text('y')",  # 9: fine, a file
    ])
    assert offences(source, page) == [
        "1: calls text_diagram", "1: reads the full state", "2: calls render", "2: reads game.position",
        "3: reads turn.position", "7: calls first_legal_texts", "8: calls text"]
    assert offences("position = kind.notation.format_position(state)", PBEM / "services" / "ical.py") == [
        "1: formats a position"]
    assert offences("position = kind.notation.format_position(state)", PBEM / "services" / "turns.py") == []
