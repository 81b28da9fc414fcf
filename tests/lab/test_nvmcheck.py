"""make nvm (lab/nvmcheck.py) as a user meets it: stopped part way, it says so in a line."""
import places


def test_ctrl_c_stops_make_nvm_in_one_line():
    r = places.interrupted(["lab.nvmcheck", "--games", "100000"], after="Wear:")
    assert r.returncode == 130, (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr
    assert r.stderr.strip() == "make nvm: stopped (Ctrl-C); it writes no file"
