"""What the tests share, each written once: waiting on a condition (waiting), the personas'
accounts (users), started games and logged-in clients (games), the real Celery worker and what
it ran (workers), and the cache every test starts with (cache). Fixtures are imported into
tests/conftest.py; helpers are imported from here by the test modules."""
