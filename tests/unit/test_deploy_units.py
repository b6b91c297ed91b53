"""The systemd units of docs/deploy/ pass `systemd-analyze verify`, with this installation's `quartermaster` where
the units name /opt/quartermaster's, and say what the operator's guide says they do."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DEPLOY = Path(__file__).parents[2] / "docs" / "deploy"
UNITS = ("quartermaster.service", "quartermaster-backup.service", "quartermaster-backup.timer")
INSTALLED = "/opt/quartermaster/bin/quartermaster"


def _analyze() -> str:
    found = shutil.which("systemd-analyze")
    if found:
        return found
    if os.environ.get("CI") == "true":
        pytest.fail("CI checks the systemd units: systemd-analyze is missing (apt-get install -y systemd).")
    pytest.skip("Checking the systemd units needs systemd-analyze (Debian: `apt-get install -y systemd`).")


def test_the_units_pass_systemd_analyze_verify(tmp_path):
    analyze = _analyze()
    here = str(Path(sys.executable).with_name("quartermaster"))
    for name in UNITS:
        (tmp_path / name).write_text((DEPLOY / name).read_text().replace(INSTALLED, here))
    done = subprocess.run(
        [analyze, "verify", *(str(tmp_path / name) for name in UNITS)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and not done.stderr.strip() and not done.stdout.strip(), done.stdout + done.stderr


def test_the_service_runs_as_its_own_user_in_its_own_folder_restarts_and_stops_on_sigterm():
    unit = (DEPLOY / "quartermaster.service").read_text()
    for line in (
        "User=quartermaster",
        "StateDirectory=quartermaster",
        "Environment=QUARTERMASTER_DATA_DIR=/var/lib/quartermaster",
        "Restart=on-failure",
        "KillSignal=SIGTERM",
        f"ExecStart={INSTALLED} serve",
    ):
        assert line in unit, line


def test_the_timer_backs_up_daily_and_keeps_seven():
    assert "OnCalendar=daily" in (DEPLOY / "quartermaster-backup.timer").read_text()
    assert "backup /var/lib/quartermaster/backups --keep 7" in (DEPLOY / "quartermaster-backup.service").read_text()
