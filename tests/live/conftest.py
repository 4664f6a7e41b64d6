"""The stream tests' fixtures: a real stream process (tests/streams.py)."""

import pytest

from tests import streams


@pytest.fixture
def stream_process(request, transactional_db, tmp_path, settings):
    yield from streams.serve(request, tmp_path, settings)
