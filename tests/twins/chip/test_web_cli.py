"""make web's command line: bad input is one line and exit status 2, and a folder it did
not write is left alone."""
import pytest

from twins.chip import web


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
