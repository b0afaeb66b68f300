"""Text in and out: turn notation, position strings, diagrams and game records.
No I/O happens here."""
