"""Every repository path a comment or a docstring names is there (STYLE.md: paths named in
prose must exist): in each .py file's comments and docstrings and the Makefile's comments,
a word starting with one of the project's folders (engine/, firmware/, hardware/, twins/,
tools/, lab/, tests/, docs/) names a file or a folder; "firmware/app.mpy" is the board's
compiled firmware/app.py, "tools/boardcode.version" a name tools/boardcode.py defines, and
"docs/pcb-*.png" or "docs/pcb-SIDE.png" a pattern some file matches."""
import ast
import glob
import io
import os
import re
import subprocess
import tokenize

from tools import mpy

ROOT = mpy.ROOT
FOLDERS = ("engine", "firmware", "hardware", "twins", "tools", "lab", "tests", "docs")
PATH = re.compile(r"(?<![\w./*-])((?:%s)/[\w./*-]*[\w*])" % "|".join(FOLDERS))



def _files():
    """The project's files as git keeps them, or would add them (each on disk)."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, text=True).stdout.split()
    if not out:  # (not a git checkout: every file under the folders, and the Makefile)
        out = ["Makefile"] + [os.path.relpath(os.path.join(d, f), ROOT)
                              for folder in FOLDERS
                              for d, _, names in os.walk(os.path.join(ROOT, folder))
                              for f in names if "__pycache__" not in d]
    return [rel for rel in out if os.path.isfile(os.path.join(ROOT, rel))]


def _prose(rel):
    """(line, text) of each comment line and docstring line of a .py file or a Makefile."""
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        source = f.read()
    if not rel.endswith(".py"):
        return [(n, line) for n, line in enumerate(source.splitlines(), 1)
                if line.lstrip().startswith("#")]
    said = [(t.start[0], t.string) for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant) \
                and isinstance(node.body[0].value.value, str):
            doc = node.body[0].value
            said += [(doc.lineno + i, line) for i, line in enumerate(doc.value.split("\n"))]
    return said


def _defines(rel, name):
    """Whether the module rel assigns, defines or imports name at its top level."""
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        names = [getattr(node, "name", None)]
        if isinstance(node, ast.Assign):
            names = [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [(a.asname or a.name).split(".")[0] for a in node.names]
        if name in names:
            return True
    return False


def _pattern(path):
    """path with "*" for each placeholder: a word in capitals beside lower-case words in
    a name's stem ("docs/pcb-SIDE.png"; "docs/NVM.md" has none)."""
    def stem(name):
        head, dot, tail = name.partition(".")
        if re.search(r"[a-z]", head):
            head = re.sub(r"(?<![A-Za-z])[A-Z]{2,}(?![a-z])", "*", head)
        return head + dot + tail
    return "/".join(stem(name) for name in path.split("/"))


def _alive(path):
    full = os.path.join(ROOT, path)
    if os.path.exists(full):
        return True
    if "*" in _pattern(path):
        return bool(glob.glob(os.path.join(ROOT, _pattern(path))))
    if path.endswith(".mpy"):  # (the board's compiled module)
        return os.path.isfile(full[:-4] + ".py")
    module, _, name = path.rpartition(".")
    return os.path.isfile(os.path.join(ROOT, module + ".py")) and _defines(module + ".py", name)


def _named():
    """{(file, path named): [lines]} over the project's .py files and Makefile."""
    named = {}
    for rel in _files():
        if rel.endswith(".py") or os.path.basename(rel) == "Makefile":
            for line, text in _prose(rel):
                for m in PATH.finditer(text):
                    named.setdefault((rel, m.group(1)), []).append(line)
    return named


def test_every_path_a_comment_or_a_docstring_names_is_there():
    named = _named()
    assert len(named) > 300  # (the scan reads the prose: its paths are many)
    dead = {key: lines for key, lines in named.items() if not _alive(key[1])}
    assert ["%s:%d names %s" % (rel, lines[0], path)
            for (rel, path), lines in sorted(dead.items())] == []


def test_the_scan_finds_a_dead_path_a_module_name_and_a_pattern():
    assert not _alive("tools/fatimage.py") and not _alive("hardware/keynames.BUILDS")
    assert _alive("tools/keynames.BUILDS") and _alive("firmware/app.mpy")
    assert not _alive("tools/keynames.NAMES")
    assert _alive("docs/pcb-*.png") and not _alive("docs/pcb-*.gif")
    assert _alive("docs/pcb-SIDE.png") and _alive("docs/NVM.md") and not _alive("docs/NV.md")
    text = "see twins/models/ssd1306.py:7, lab/bench.py's notes and https://x.org/tools/a.py"
    assert [m.group(1) for m in PATH.finditer(text)] == ["twins/models/ssd1306.py",
                                                         "lab/bench.py"]
