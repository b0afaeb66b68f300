"""Alembic migrations of the pbem schema (``pbem.db.migrate`` runs them)."""
