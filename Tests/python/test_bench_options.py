"""bench/run's options: a run is called "full" only when it is the one the README reports (every
set, 5 s runs, best of 2 rounds). A walkthrough's `--sets 10k --rounds 1 --seconds 2` was labelled
"full run" in its table and JSON, easy to mistake for the README's figures."""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "lib"))
bench = pytest.importorskip("bench")


@pytest.mark.parametrize("argv, mode", [
    ([], "full"),
    (["--quick"], "quick"),
    (["--sets", "10k"], "custom"),
    (["--rounds", "1"], "custom"),
    (["--seconds", "2"], "custom"),
    (["--sets", "1M,100k,10k,real"], "full"),
    # A quick run of other sets is custom, as bench/README.md says (it was labelled "quick": QA).
    (["--quick", "--sets", "10k"], "custom"),
    (["--quick", "--rounds", "2"], "custom"),
])
def test_theRunsMode_isFullOnlyForTheReportedRun(argv, mode):
    assert bench.parse_options(argv).mode == mode


def test_binDir_usesTheBinariesThere_andBuildsNothing(tmp_path):
    """`--bin-dir` runs the bench on installed or copied binaries (it could only build from source
    or use .build); a directory without a required one stops it, naming it."""
    for name in bench.REQUIRED:
        path = tmp_path / name
        path.write_text("#!/bin/sh\n")
        path.chmod(0o755)
    options = bench.parse_options(["--bin-dir", str(tmp_path)])
    binaries = bench.build(options, str(tmp_path))
    assert binaries.directory == str(tmp_path) and all(binaries.has(name) for name in bench.REQUIRED)
    assert not binaries.has("intent-router")
    (tmp_path / "zmq-echo").unlink()
    with pytest.raises(SystemExit):
        bench.build(options, str(tmp_path))
