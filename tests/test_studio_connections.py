"""How many connections the studio keeps open, from its limit of open files
(`pnp.studio.connections.connection_cap`); the limits at work on a real server are in
tests/test_studio_server.py."""

from __future__ import annotations

import resource

from pnp.studio.connections import MOST_CONNECTIONS, connection_cap


def test_the_cap_leaves_three_quarters_of_the_open_files_to_the_jobs():
    assert connection_cap(1024) == 256
    assert connection_cap(256) == 64
    assert connection_cap(20) == 8  # a handful at least, however low the limit
    assert connection_cap(1_000_000) == MOST_CONNECTIONS == 256


def test_no_limit_of_open_files_is_the_most():
    assert connection_cap(resource.RLIM_INFINITY) == MOST_CONNECTIONS
