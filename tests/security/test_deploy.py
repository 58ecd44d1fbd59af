"""Issue 17: `check --deploy` is clean under the production settings, and the demo data
(with the README's passwords) refuses to load there. Both run `manage.py` in a process of
their own with `DJANGO_ENV=production`, as the deployment does."""

import subprocess
import sys

from .conftest import ROOT, production_env


def _manage(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        env=production_env(),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_under_the_production_settings():
    result = _manage("check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_load_demo_refuses_to_run_in_production():
    result = _manage("load_demo")
    assert result.returncode == 1
    assert "refuses to run with DJANGO_ENV=production" in result.stderr
