"""The rules of each game: pure functions over immutable values.  No I/O,
no web framework, no database."""
