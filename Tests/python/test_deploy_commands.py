"""scripts/deploy-commands.py (run by scripts/validate-deploy): the shipped deployment files pass,
and a deployment file broken the ways an operator breaks one fails, naming what is wrong."""

import shutil
import subprocess
import sys

import pytest

from conftest import BIN_DIR, REPO_ROOT, binary

# The script reads compose files with PyYAML, which scripts/validate-deploy installs (the test
# command runs it first); run on its own, say so rather than fail on an import.
pytest.importorskip("yaml", reason="PyYAML is not installed: scripts/validate-deploy installs it")

SCRIPT = REPO_ROOT / "scripts" / "deploy-commands.py"
SYSTEMD = REPO_ROOT / "deploy" / "systemd"
COMPOSE = REPO_ROOT / "deploy" / "container" / "compose.yaml"


def run(kind, path):
    for name in ("price-ingest", "fuel-lookup", "location-cache", "dialog-renderer", "intent-router"):
        binary(name)
    result = subprocess.run([sys.executable, str(SCRIPT), str(BIN_DIR), kind, str(path)],
                            capture_output=True, text=True, timeout=120)
    return result.returncode, result.stdout


def test_shipped_systemd_and_compose_files_pass():
    assert run("systemd", SYSTEMD) == (0, "")
    assert run("compose", COMPOSE) == (0, "")


@pytest.mark.parametrize("file, old, new, expected", [
    ("topology.env", 'LOCATION_CACHE_OPTS="--ttl 24h"', 'LOCATION_CACHE_OPTS="--ttl 24"', "'24' has no unit"),
    ("topology.env", 'LOCATION_CACHE_OPTS="--ttl 24h"', 'LOCATION_CACHE_OPTS="--tll 24h"', "unknown option --tll"),
    ("topology.env", "FUELBOARD_INGEST_PUB=tcp://127.0.0.1:5552", "FUELBOARD_INGEST_PUB=tcp://127.0.0.1:5551",
     "--bind and --bind-pub are both 'tcp://127.0.0.1:5551'"),
    ("fuelboard-price-ingest.service", "--data-dir %S", "--datadir %S", "unknown option --datadir"),
    ("fuelboard-price-ingest.service", "StateDirectory=fuelboard/price-ingest", "StateDirectory=fuelboard/prices",
     "data directory /var/lib/fuelboard/price-ingest is on no volume"),
])
def test_a_broken_systemd_file_fails_naming_the_problem(tmp_path, file, old, new, expected):
    copy = tmp_path / "systemd"
    shutil.copytree(SYSTEMD, copy)
    text = (copy / file).read_text()
    assert old in text
    (copy / file).write_text(text.replace(old, new))
    status, output = run("systemd", copy)
    assert status == 1
    assert expected in output, output


@pytest.mark.parametrize("old, new, expected", [
    ('"--ttl", "24h"', '"--ttl", "24"', "'24' has no unit"),
    ("price-ingest-data:/var/lib/fuelboard", "price-ingest-data:/var/lib/fuelboard-data",
     "data directory /var/lib/fuelboard is on no volume"),
    ("FUELBOARD_LOOKUP: tcp://fuel-lookup:5553", "FUELBOARD_LOOKUP: tcp://fuel-lookup:5533",
     "intent-router's lookup tcp://fuel-lookup:5533 is not the port fuel-lookup binds"),
    ("FUELBOARD_LOOKUP: tcp://fuel-lookup:5553", "FUELBOARD_LOOKUP: tcp://fuel-lookpu:5553",
     "intent-router's lookup tcp://fuel-lookpu:5553 names no host fuel-lookup is reached by"),
])
def test_a_broken_compose_file_fails_naming_the_problem(tmp_path, old, new, expected):
    text = COMPOSE.read_text()
    assert old in text
    broken = tmp_path / "compose.yaml"
    broken.write_text(text.replace(old, new))
    status, output = run("compose", broken)
    assert status == 1
    assert expected in output, output


POD = """
apiVersion: v1
kind: ConfigMap
metadata: {name: topology}
data: {FUELBOARD_DATA_DIR: /var/lib/fuelboard}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: feeds}
data: {feeds.list: "# none yet\\n"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: price-ingest}
spec:
  template:
    spec:
      volumes:
        - {name: data, persistentVolumeClaim: {claimName: price-ingest-data}}
        - {name: feeds, configMap: {name: feeds}}
      containers:
        - name: price-ingest
          command: ["price-ingest"]
          args: ["--feeds", "/etc/fuelboard/feeds.list"]
          envFrom: [{configMapRef: {name: topology}}]
          volumeMounts:
            - {name: data, mountPath: /var/lib/fuelboard}
            - {name: feeds, mountPath: FEEDS_MOUNT}
"""


@pytest.mark.parametrize("feeds_mount, status, expected", [
    ("/etc/fuelboard", 0, ""),
    ("/etc/fuelboard-feeds", 1, "--feeds: /etc/fuelboard/feeds.list: No such file or directory"),
])
def test_a_pod_sees_its_configmap_files_where_they_are_mounted(tmp_path, feeds_mount, status, expected):
    manifest = tmp_path / "rendered.yaml"
    manifest.write_text(POD.replace("FEEDS_MOUNT", feeds_mount))
    result = run("kubernetes", manifest)
    assert result[0] == status, result[1]
    assert expected in result[1]
