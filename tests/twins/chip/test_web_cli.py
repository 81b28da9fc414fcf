"""make web's command line: bad input is one line and exit status 2, a folder it did not
write is left alone, a place it cannot write is refused before any work, and the folder is
written whole or not at all; make web-serve answers only with the page's files."""
import os

import places
import pytest

from twins.chip import chip, web


def _fails(capsys, argv, words):
    with pytest.raises(SystemExit) as stop:
        web.main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and words in err and len(err.splitlines()) == 1, err


def test_a_folder_holding_other_files_is_not_written_into(tmp_path, capsys):
    mine = tmp_path / "site"
    mine.mkdir()
    (mine / "index.html").write_text("someone's page")
    _fails(capsys, ["--out", str(mine)], "holds files make web did not write")
    assert (mine / "index.html").read_text() == "someone's page"
    assert [p.name for p in mine.iterdir()] == ["index.html"]


def test_a_file_where_the_folder_goes_is_refused(tmp_path, capsys):
    (tmp_path / "web").write_text("x")
    _fails(capsys, ["--out", str(tmp_path / "web")], "is not a folder")


def test_a_port_out_of_range_is_refused(capsys):
    _fails(capsys, ["--serve", "--port", "70000"], "must be 0..65535")


MARKED = {".california-speed-web": 0, "index.html": 8}  # a page make web wrote before


def _old_page(folder):
    folder.mkdir()
    (folder / ".california-speed-web").write_text("")
    (folder / "index.html").write_text("old page")


def test_a_read_only_place_is_refused_before_any_work_and_the_old_page_kept(tmp_path):
    place = tmp_path / "site"
    place.mkdir()
    _old_page(place / "web")
    prefix = places.read_only(place)
    try:
        for out in ("web", "new"):
            r = places.run(["twins.chip.web", "--out", str(place / out), "--version", "dev"],
                           prefix=prefix)
            places.one_line(r, "make web: error:", str(place / out), "read-only")
            assert "UF2" not in r.stderr, r.stderr  # refused before any work
    finally:
        os.chmod(place, 0o755)
    assert os.listdir(place) == ["web"]
    assert places.files_in(place) == {"web/" + n: size for n, size in MARKED.items()}
    assert (place / "web" / "index.html").read_text() == "old page"


# what is on the disk before it goes with the namespace: each folder, each file and its size
LISTED = '"$@"; rc=$?; echo "-- left"; cd "$0" && find . -mindepth 1 -type d -printf "%p/\\n" ' \
    '-o -printf "%p %s\\n" | LC_ALL=C sort; exit $rc'


@pytest.mark.skipif(chip.missing() is not None, reason="make web: %s" % chip.missing())
@pytest.mark.parametrize("old", [True, False], ids=["over an old page", "a new folder"])
def test_a_full_disk_leaves_the_old_page_or_nothing(tmp_path, old):
    """The disk fills while the page is written: one line, exit 2, and on the disk (listed
    before its namespace goes) the old page as it was, or nothing, and no temporary
    folder."""
    disk = tmp_path / "disk"
    disk.mkdir()
    setup = 'mkdir "$0/web" && : > "$0/web/.california-speed-web" && ' \
            'printf "old page" > "$0/web/index.html" && ' if old else ""
    prefix = places.full_disk(disk, size_kb=512, free_kb=256) + [
        "sh", "-c", setup + LISTED, str(disk)]
    r = places.run(["twins.chip.web", "--out", str(disk / "web"), "--version", "dev"],
                   prefix=prefix)
    places.one_line(r, "make web: error: cannot write", str(disk / "web"), "the disk is full",
                    "%s is as it was" % (disk / "web") if old else "nothing was left there")
    left = r.stdout.split("-- left\n")[1].splitlines()
    assert left == ["./other 262144"] + (["./web/", "./web/.california-speed-web 0",
                                          "./web/index.html 8"] if old else []), left


def test_the_server_answers_a_nul_and_a_folder_with_a_4xx_and_goes_on(tmp_path, capfd):
    """A path with %00 is a 400, a folder with no index.html a 404 (no listing); the
    server says nothing and goes on serving."""
    import http.client
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "RULES.html").write_text("rules")
    (tmp_path / "index.html").write_text("the page")
    httpd = web.server(str(tmp_path))
    try:
        for path, status in (("/%00", 400), ("/docs/%00.html", 400), ("/docs/", 404),
                             ("/docs", 404), ("/", 200), ("/docs/RULES.html", 200)):
            c = http.client.HTTPConnection("127.0.0.1", httpd.server_address[1], timeout=30)
            c.request("GET", path)
            r = c.getresponse()
            body = r.read()
            c.close()
            assert r.status == status and b"RULES.html" not in body, (path, r.status, body)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.skipif((chip.missing() or web.browser_missing()) is not None,
                    reason="make web-shot: %s" % (chip.missing() or web.browser_missing()))
def test_a_picture_on_a_full_disk_is_one_line_and_leaves_no_file(tmp_path):
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    prefix = places.full_disk(pictures, size_kb=64, free_kb=8) + [
        "sh", "-c", 'printf "old picture" > "$0/web.png" && ' + LISTED, str(pictures)]
    r = places.run(["twins.chip.web", "--out", str(tmp_path / "web"), "--version", "dev",
                    "--shot", str(pictures / "web.png")], prefix=prefix, timeout=300)
    places.one_line(r, "make web: error: cannot write", str(pictures / "web.png"),
                    "the disk is full")
    assert r.stdout.split("-- left\n")[1].splitlines() == ["./other 57344", "./web.png 11"], \
        r.stdout  # (the old picture)


@pytest.mark.skipif(chip.missing() is not None, reason="make web: %s" % chip.missing())
def test_ctrl_c_while_the_page_is_written_leaves_the_old_page(tmp_path):
    import signal
    import subprocess
    import sys
    _old_page(tmp_path / "web")
    p = subprocess.Popen([sys.executable, "-m", "twins.chip.web", "--out", str(tmp_path / "web"),
                          "--version", "dev"], cwd=places.ROOT, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=places.as_at_a_terminal)
    try:
        for line in p.stderr:  # (its progress lines)
            if "the one-file UF2 of the matrix build" in line:
                p.send_signal(signal.SIGINT)
                break
        _, err = p.communicate(timeout=120)
    finally:
        p.kill()
    assert p.returncode == 130 and "Traceback" not in err, (p.returncode, err)
    assert err.strip().splitlines()[-1] == \
        "make web: stopped (Ctrl-C); %s is as it was" % (tmp_path / "web")
    assert os.listdir(tmp_path) == ["web"]
    assert places.files_in(tmp_path) == {"web/" + n: size for n, size in MARKED.items()}
