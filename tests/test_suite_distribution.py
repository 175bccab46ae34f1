"""The suite's own distribution (tests/conftest.py): the tests of a file that share a module-scoped fixture
run on one xdist worker, so the fixture is made once a run. Until the workers were told the `--dist` chosen
from the ini file, every test was scheduled on its own and such fixtures were made on both workers (the
start-up probe of tests/test_cli.py, 6 s, twice a run)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def shared() -> list[str]:
    return []


def test_a_test_sharing_a_module_fixture_is_scheduled_with_its_file(request, shared):
    if not hasattr(request.config, "workerinput"):
        pytest.skip("one process: nothing is distributed")
    if request.config.workerinput.get("pnpkit_dist") != "loadgroup":
        pytest.skip("the command line chose another --dist")
    assert request.node.nodeid.endswith("@tests/test_suite_distribution.py"), request.node.nodeid


def test_a_test_without_shared_fixtures_is_scheduled_alone(request):
    assert "@" not in request.node.nodeid
