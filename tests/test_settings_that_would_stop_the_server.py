"""Settings from the environment that would leave the server unable to do
its work are refused at start-up, naming the variable and what it takes:
``PBEM_MAX_CONTENT_LENGTH=0`` (every form and API request would be refused
with a 413 that contradicts itself) and ``PBEM_MAIL_SEND_BUDGET=0`` (no
mail would ever be sent)."""

from __future__ import annotations

import pytest
from test_server_instance import clean_env  # noqa: F401  (fixture)

from pbem import create_app
from pbem.config import ConfigError


@pytest.mark.parametrize("variable, value, expected", [
    ("PBEM_MAX_CONTENT_LENGTH", "0", "a whole number from 1024"),
    ("PBEM_MAX_CONTENT_LENGTH", "100", "a whole number from 1024"),
    ("PBEM_MAIL_SEND_BUDGET", "0", "a whole number from 1"),
])
def test_a_setting_that_would_stop_the_server_working_is_refused_at_start_up(tmp_path, clean_env, variable, value,
                                                                             expected):
    clean_env.setenv("PBEM_INSTANCE", str(tmp_path))
    clean_env.setenv(variable, value)
    with pytest.raises(ConfigError) as error:
        create_app()
    assert variable in str(error.value) and expected in str(error.value)


def test_a_working_request_limit_is_taken(tmp_path, clean_env):
    clean_env.setenv("PBEM_INSTANCE", str(tmp_path))
    clean_env.setenv("PBEM_MAX_CONTENT_LENGTH", "1024")
    clean_env.setenv("PBEM_AUTO_MIGRATE", "0")
    app = create_app()
    assert app.config["MAX_CONTENT_LENGTH"] == 1024
    assert app.test_client().post("/auth/sign-in", data={"email": "a" * 2000}).status_code == 413
    app.extensions["pbem_engine"].dispose()
