"""Run `deploy/nginx/micro-cache.conf` as one's own nginx process (a prefix directory of its
own, a port of one's own): the tests and `benchmarks/bench_load.py` put it in front of the
site exactly as `docs/deploy.md` describes."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

CONF = Path(__file__).with_name("micro-cache.conf")
NGINX = "/usr/sbin/nginx"


@dataclass
class Nginx:
    prefix: Path
    conf: Path
    port: int

    def stop(self) -> None:
        subprocess.run(
            [NGINX, "-p", str(self.prefix), "-c", str(self.conf), "-s", "stop"],
            capture_output=True,
            check=False,
        )
        pid = self.prefix / "nginx.pid"
        for _ in range(50):
            if not pid.exists():
                break
            time.sleep(0.1)


def start_nginx(*, listen: int, upstream: int, prefix: Path, conf: Path = CONF) -> Nginx:
    """nginx with `conf` filled in, listening on `listen`, in front of 127.0.0.1:`upstream`."""
    if prefix.exists():
        shutil.rmtree(prefix)
    for sub in ("tmp", "cache"):
        (prefix / sub).mkdir(parents=True)
    text = conf.read_text()
    for name, value in (("prefix", prefix), ("listen", listen), ("upstream", upstream)):
        text = text.replace("{" + name + "}", str(value))
    if os.geteuid() == 0:  # else nginx's workers would be "nobody", locked out of `prefix`
        text = "user root;\n" + text
    filled = prefix / "nginx.conf"
    filled.write_text(text)
    subprocess.run(
        [NGINX, "-p", str(prefix), "-c", str(filled), "-e", str(prefix / "error.log")], check=True
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", listen), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    return Nginx(prefix=prefix, conf=filled, port=listen)
