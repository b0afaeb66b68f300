"""Board pictures of every game: one SVG renderer (web) and one PNG
renderer (mail), from the game's ``notation.base.Diagram``; no Flask and no I/O."""
