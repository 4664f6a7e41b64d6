"""The fault tests' stack of real processes (tests/support/faults.py): its fixtures."""

from tests.support.faults import broker, stack  # noqa: F401 (fixtures)
