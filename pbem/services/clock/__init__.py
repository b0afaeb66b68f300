"""The clock: time control arithmetic (``control``) and each turn's deadline
and reminders from it (``deadlines``); its tables are ``pbem.models.clock``."""
