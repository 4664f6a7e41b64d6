"""What the tests share, each written once: waiting on a condition (waiting), the personas'
accounts (users), started games, logged-in clients, games played on and what a refused request
leaves unchanged (games), reading pages and the poll (pages), the API's tokens, clients and
checks (api), the stream tests' paths and events (streams), Web Push's keys (push), axe in the
browser (browser), the real Celery worker and what it ran (workers), the fault tests' stack of
real processes (faults), a real gunicorn (gunicorn) and the cache every test starts with
(cache). Fixtures are imported into the conftest files; helpers are imported from here by the
test modules, never from another test module (tests/test_code_shape.py)."""
