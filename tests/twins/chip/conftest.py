"""What the chip twin's tests share."""
import pytest


@pytest.fixture(scope="module")
def flashed(tmp_path_factory):
    """The file make uf2 writes for this tree (tools/uf2.py, with the goldens' version)."""
    from tools import drive, uf2
    path = str(tmp_path_factory.mktemp("dist") / "california-speed.uf2")
    assert uf2.main(["--version", drive.FIXED_VERSION, "--out", path]) == 0
    return path
