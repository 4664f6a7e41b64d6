"""The site's frame: home, rules, admin, favicon, static htmx, CSP, and settings from the env."""

import os
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.urls import reverse

from config import env

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_home_leads_to_signup(client):
    body = client.get("/").content.decode()
    assert "Geared: Build Your Bike" in body and "Out of Gears" in body
    assert reverse("account_signup") in body


@pytest.mark.django_db
def test_pages_send_csp_and_load_vendored_htmx(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    body = response.content.decode()
    assert "vendor/htmx-2.0.11.min.js" in body
    assert "https://" not in body.split("<body")[0]  # nothing loaded from elsewhere
    assert (ROOT / "static/vendor/htmx-2.0.11.min.js").exists()


@pytest.mark.django_db
def test_htmx_requests_carry_csrf(alice_client):
    body = alice_client.get("/").content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in body


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["geared", "outofgears"])
def test_rules_pages_cite_rule_ids(client, game):
    body = client.get(reverse("rules_game", args=[game])).content.decode()
    first = "G5" if game == "geared" else "O12"
    assert f'id="{first}"' in body


@pytest.mark.django_db
def test_unknown_rules_page_is_404(client):
    assert client.get("/rules/chess/").status_code == 404


@pytest.mark.django_db
def test_admin_needs_staff(client, alice, django_user_model):
    assert client.get("/admin/").status_code == 302
    client.force_login(alice)
    assert client.get("/admin/").status_code == 302
    staff = django_user_model.objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_favicon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response.url.endswith("favicon.svg")


@pytest.mark.parametrize("raw", ["maybe", "2"])
def test_env_bool_is_loud_on_a_bad_value(monkeypatch, raw):
    monkeypatch.setenv("X_FLAG", raw)
    with pytest.raises(ImproperlyConfigured, match="X_FLAG"):
        env.env_bool("X_FLAG", False)


def test_env_int_is_loud_on_a_bad_value(monkeypatch):
    monkeypatch.setenv("X_NUM", "ten")
    with pytest.raises(ImproperlyConfigured, match="X_NUM"):
        env.env_int("X_NUM", 1)


def test_database_url_parsing():
    pg = env.parse_database_url("postgres://u:p%40ss@db:6543/gt?sslmode=require", conn_max_age=60)
    assert (pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], pg["PORT"]) == (
        "gt",
        "u",
        "p@ss",
        "db",
        "6543",
    )
    assert pg["CONN_MAX_AGE"] == 60 and pg["OPTIONS"] == {"sslmode": "require"}
    assert env.parse_database_url("sqlite:///x.db", conn_max_age=0)["NAME"] == "x.db"
    with pytest.raises(ImproperlyConfigured):
        env.parse_database_url("mysql://x/y", conn_max_age=0)


def _manage(*args, **environ):
    # Only the variables a real deployment would have: not those the test settings set.
    keep = {"PATH", "HOME", "LANG", "PYTHONPATH", "VIRTUAL_ENV"}
    clean = {k: v for k, v in os.environ.items() if k in keep}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean | environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "x" * 20 + "a-long-random-production-secret-key-1234567890",
    "ALLOWED_HOSTS": "geartable.example",
    "SITE_URL": "https://geartable.example",
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/geartable",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
    "CACHE_URL": "redis://127.0.0.1:6379/1",
    "EMAIL_HOST": "smtp.example",
}


def test_check_deploy_is_clean_in_production():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_warns_of_a_per_process_cache_in_production():
    """Without CACHE_URL each gunicorn worker keeps its own log-in locks: check --deploy says so
    (issue 22: the locks then needed 11-19 failures instead of 5)."""
    without_cache = {k: v for k, v in PRODUCTION.items() if k != "CACHE_URL"}
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **without_cache)
    assert result.returncode != 0
    assert "geartable.W001" in result.stderr + result.stdout
    assert "CACHE_URL" in result.stderr + result.stdout
    # make run (DEBUG on, one process) is not warned.
    result = _manage("check", "--deploy", **without_cache | {"DEBUG": "true"})
    assert "geartable.W001" not in result.stderr + result.stdout


def _setting(name: str, **environ) -> str:
    result = _manage(
        "shell", "-c", f"from django.conf import settings; print(settings.{name})", **environ
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_behind_proxy_trusts_the_proxys_x_forwarded_for_and_only_then():
    name = "GEARTABLE_TRUSTED_PROXY_COUNT"  # read by config/addresses.py alone
    assert _setting(name, **PRODUCTION) == "0"
    assert _setting(name, **PRODUCTION | {"BEHIND_PROXY": "true"}) == "1"
    two = PRODUCTION | {"BEHIND_PROXY": "true", "TRUSTED_PROXY_COUNT": "2"}
    assert _setting(name, **two) == "2"


def test_a_bad_setting_stops_start_up_loudly():
    result = _manage("check", **PRODUCTION | {"DEBUG": "perhaps"})
    assert result.returncode != 0
    assert "DEBUG must be one of" in result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = _manage("check", **PRODUCTION | {"SECRET_KEY": ""})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


@pytest.mark.django_db
def test_healthz_is_a_fixed_response_without_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz/")
    assert response.status_code == 200 and response.content == b"ok"


def test_e_mails_can_have_a_queue_of_their_own():
    result = _manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.CELERY_TASK_ROUTES)",
        **PRODUCTION | {"CELERY_MAIL_QUEUE": "mail"},
    )
    assert "'games.tasks.send_notification': {'queue': 'mail'}" in result.stdout, result.stderr


def test_e_mail_goes_through_the_backend_with_a_deadline_under_the_task_time_limit():
    result = _manage(
        "shell",
        "-c",
        "from django.conf import settings as s; "
        "print(s.MAILERS['default'], s.EMAIL_SEND_DEADLINE, s.CELERY_TASK_SOFT_TIME_LIMIT)",
        **PRODUCTION,
    )
    assert "'BACKEND': 'config.mail.EmailBackend'" in result.stdout, result.stderr
    assert "'timeout': 10" in result.stdout and result.stdout.split()[-2:] == ["22", "45"]


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"CELERY_TASK_TIME_LIMIT": "20", "EMAIL_SEND_DEADLINE": "10"}, "EMAIL_SEND_DEADLINE"),
        ({"EMAIL_SEND_DEADLINE": "5", "EMAIL_TIMEOUT": "8"}, "EMAIL_TIMEOUT (8 s"),
        ({"CELERY_TASK_TIME_LIMIT": "20", "PUSH_TIMEOUT": "10"}, "PUSH_TIMEOUT (10 s)"),
        ({"VAPID_PUBLIC_KEY": "BPub"}, "Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY"),
    ],
    ids=[
        "send-longer-than-half-the-soft-limit",
        "a-step-longer-than-the-send",
        "a-push-longer-than-half-the-soft-limit",
        "half-a-vapid-key-pair",
    ],
)
def test_a_send_that_could_outlast_its_task_stops_start_up(environ, message):
    result = _manage("check", **PRODUCTION | environ)
    assert result.returncode != 0
    assert message in result.stderr


def test_make_run_on_another_port_links_to_that_port():
    """Issue 34.10: `make run PORT=8611` mailed links to port 8000 and printed port 8000. The
    Makefile hands PORT to every command it runs, and SITE_URL follows it unless it is set."""
    recipe = subprocess.run(
        [shutil.which("make") or "make", "-n", "run", "PORT=8611"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    commands = [
        line for line in recipe.splitlines() if "demo_accounts" in line or "uvicorn" in line
    ]
    assert len(commands) == 2 and all("PORT=8611" in line for line in commands), recipe
    assert _setting("SITE_URL", DEBUG="true", PORT="8611") == "http://127.0.0.1:8611"
    assert _setting("SITE_URL", **PRODUCTION | {"PORT": "8611"}) == "https://geartable.example"


@pytest.mark.django_db
def test_demo_accounts_prints_the_sites_own_address(settings):
    settings.SITE_URL = "http://127.0.0.1:8611"
    out = StringIO()
    call_command("demo_accounts", stdout=out)
    assert "http://127.0.0.1:8611/admin/" in out.getvalue()
    assert "8000" not in out.getvalue()
