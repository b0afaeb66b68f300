"""A PostgreSQL server that closed the app's connections (a restart,
``pg_terminate_backend``) costs no request: the pool's checkout sees the
closed socket and opens a fresh connection (``pbem.db._check_alive``,
``docs/server.md``, "Database connections")."""

from __future__ import annotations

import time

import pytest
from conftest import POSTGRES_URL, make_test_app
from sqlalchemy import event, text

from pbem.db import make_engine


def test_requests_succeed_after_the_server_closed_every_connection(postgres_config):
    app = make_test_app(postgres_config)
    engine = app.extensions["pbem_engine"]
    pids: list[int] = []
    event.listen(engine, "connect", lambda dbapi_connection, _record: pids.append(dbapi_connection.info.backend_pid))
    client = app.test_client()
    try:
        assert client.get("/api/v1/kinds").status_code == 200
        assert client.get("/").status_code == 200  # reads the database (no signed-in player: the welcome page)
        with engine.connect() as one, engine.connect() as two:  # two connections in the pool
            one.execute(text("SELECT 1"))
            two.execute(text("SELECT 1"))
        assert engine.pool.checkedin() >= 2
        killed = list(pids)
        admin = make_engine(POSTGRES_URL)
        with admin.begin() as connection:
            for pid in killed:
                connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            for _ in range(100):  # the backends take a moment to exit
                left = connection.execute(text("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(:pids)"),
                                          {"pids": killed}).scalar()
                if not left:
                    break
                time.sleep(0.05)
        admin.dispose()
        time.sleep(0.1)
        for _ in range(3):  # none fails
            assert client.get("/auth/sign-in").status_code == 200
            with engine.connect() as connection:
                assert connection.execute(text("SELECT 1")).scalar() == 1
        assert set(pids) - set(killed), "fresh connections replaced the closed ones"
    finally:
        engine.dispose()


@pytest.mark.skipif(not POSTGRES_URL, reason="PBEM_TEST_POSTGRES_URL is not set, so there is no PostgreSQL server")
def test_postgres_engine_does_not_ping_on_checkout():
    engine = make_engine(POSTGRES_URL)
    try:
        assert engine.pool._pre_ping is False and engine.pool._recycle > 0
    finally:
        engine.dispose()
