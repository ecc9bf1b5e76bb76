"""Entry point of deploy/netns/run: checks what the lab needs, runs it, always cleans up."""

import json
import os
import pathlib
import shutil
import signal
import sys
import tempfile

from . import options as cli
from .network import NetworkError, Unsupported, ip, stale_namespaces

BINARIES = ("price-ingest", "fuel-lookup", "location-cache", "dialog-renderer", "intent-router", "fuelboard")


class Interrupted(Exception):
    def __init__(self, signum):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _cannot_run():
    """Why this machine cannot run the lab, in one line, or None."""
    if os.geteuid() != 0:
        return "needs root (network namespaces, veth pairs, a bridge): run it as root"
    if not shutil.which("ip"):
        return "needs iproute2's `ip` on PATH (apt-get install iproute2)"
    try:
        import zmq  # noqa: F401
    except ImportError:
        return "needs pyzmq (python3 -m pip install pyzmq, or run with .build/venv/bin/python)"
    return None


def _clean_stale():
    """Removes what runs that were killed left: their namespaces (and processes in them), work directories."""
    names = stale_namespaces()
    for name in names:
        for pid in ip("netns", "pids", name, check=False).split():
            if pid.isdigit():
                os.kill(int(pid), signal.SIGKILL)
        ip("netns", "del", name, check=False)
    pids = sorted({name.split("-")[1] for name in names})
    folders = [path for pid in pids for path in pathlib.Path(tempfile.gettempdir()).glob(f"fb-netns-{pid}-*")]
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"removed {len(names)} stale namespaces{': ' + ', '.join(names) if names else ''}"
          f" and {len(folders)} work directories")
    return 0


def _on_signal(signum, frame):
    raise Interrupted(signum)


def main(argv):
    options = cli.parse(argv)
    problem = _cannot_run()
    if problem:
        print(f"deploy/netns/run: {problem}", file=sys.stderr)
        return 2
    if options.clean_stale:
        return _clean_stale()
    missing = [name for name in BINARIES if not os.access(pathlib.Path(options.bin_dir) / name, os.X_OK)]
    if missing:
        print(f"deploy/netns/run: {', '.join(missing)} not found in {options.bin_dir} "
              "(swift build, then --bin-dir or FUELBOARD_BIN_DIR)", file=sys.stderr)
        return 64

    from .lab import Lab, SetupFailed, say
    from .report import text

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _on_signal)
    lab = Lab(options)
    status = 1
    try:
        summary = lab.run()
        print(json.dumps(summary, indent=2) if options.json else text(summary), flush=True)
        status = 0 if summary["pass"] else 1
    except Unsupported as error:
        print(f"deploy/netns/run: {error}", file=sys.stderr)
        status = 2
    except (SetupFailed, NetworkError) as error:
        say(f"setup failed: {error}")
        status = 1
    except (KeyboardInterrupt, Interrupted) as error:
        say(f"interrupted ({error or 'SIGINT'}); cleaning up")
        status = 128 + getattr(error, "signum", signal.SIGINT)
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_IGN)
        lab.cleanup()
    return status
