"""Mail and broker faults, per scenario: expected, delivered once, lost, copies, time to
recovery. Runs `tests/notifications/test_faults.py` (a private redis-server, an aiosmtpd
server and a real worker per scenario; time compressed as `faults.py` says) and prints a
table from the figures each test prints.

    DATABASE_URL=postgres://… CELERY_BROKER_URL=redis://… CELERY_RESULT_BACKEND=redis://… \\
        .venv/bin/python benchmarks/bench_mail_faults.py
"""

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-s",
            "-p",
            "no:cacheprovider",
            "tests/notifications/test_faults.py",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=os.environ,
    )
    rows = []
    for line in run.stdout.splitlines():
        found = re.match(r"^\[([^\]]+)\] (\{.*\}) time to recovery: (\S+)", line)
        if found:
            name, figures, recovery = found.groups()
            rows.append((name, ast.literal_eval(figures), recovery))
        elif line.startswith(("[hung broker]", "[broker down] publish")):
            print(line)
    print(f"{'scenario':<26}{'expected':>9}{'once':>6}{'lost':>6}{'copies':>7}{'recovery s':>12}")
    for name, f, recovery in rows:
        print(
            f"{name:<26}{f['expected']:>9}{f['delivered_once']:>6}{f['lost']:>6}"
            f"{f['copies']:>7}{recovery:>12}"
        )
    print(run.stdout.splitlines()[-1] if run.stdout else run.stderr[-2000:])
    print("load:", os.getloadavg())
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
