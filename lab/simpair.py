"""The sim's speed now against an older commit's, measured in pairs on this machine.

    python -m lab.simpair                      # e02d551 against this tree, 4 rounds
    python -m lab.simpair --commit 1f321bd --rounds 6 --games 2000

It checks the commit out into a temporary git worktree (removed afterwards, after an
error or Ctrl-C too), then runs the sim's games_per_second (lab/simplay.py) alternately
for the old tree and this one, round after round, old first in each: every run in a fresh
interpreter (python -I) whose sys.path starts with that tree alone, so the two engines
never mix. It prints the games per second of each run, the medians, and the median of the
rounds' ratios (this tree / the old one): a round's two runs share the machine's load of
the moment. Without git or without the commit (a shallow clone, a source archive) it says
that nothing was measured.
"""
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile

from tools.boardcode import ROOT

BASELINE = "e02d551"  # the last commit before make sim lost speed (issue 20, item 13)

# What each fresh interpreter runs: argv[1] the tree, argv[2] the games.
_PROBE = """\
import json, os, sys
tree = os.path.realpath(sys.argv[1])
sys.path.insert(0, tree)
import engine
try:
    from lab import simplay as sim
except ImportError:  # a tree from before lab/simplay.py (issue 48), or before lab/ (issue 35)
    try:
        from lab import sim
    except ImportError:
        from tools import sim
files = [os.path.realpath(m.__file__) for m in (engine, sim)]
if not all(f.startswith(tree + os.sep) for f in files):
    raise SystemExit("imported from outside %s: %s" % (tree, files))
if not hasattr(sim, "games_per_second"):
    raise SystemExit("its make sim has no games_per_second")
print(json.dumps({"rate": sim.games_per_second(int(sys.argv[2]))}))
"""


class NotMeasured(Exception):
    """The pair could not be measured here; the message says why."""


def _git(root, *args):
    """(exit status, output) of a git command in root; NotMeasured without git."""
    try:
        p = subprocess.run(["git", "-C", root] + list(args), capture_output=True, text=True)
    except OSError as e:
        raise NotMeasured("git cannot be run here (%s)" % (e.strerror or e))
    return p.returncode, (p.stdout.strip() or p.stderr.strip())


def resolve(commit, root=ROOT):
    """The full hash of commit in root's repository; NotMeasured if there is none."""
    if shutil.which("git") is None:
        raise NotMeasured("git is not installed")
    code, out = _git(root, "rev-parse", "--show-toplevel")
    if code != 0 or os.path.realpath(out) != os.path.realpath(root):
        raise NotMeasured("%s is not a git checkout" % root)
    code, out = _git(root, "rev-parse", "--verify", "--quiet", commit + "^{commit}")
    if code != 0 or not out:
        shallow = _git(root, "rev-parse", "--is-shallow-repository")[1] == "true"
        raise NotMeasured("commit %s is not in this clone%s" % (
            commit, " (a shallow one: git fetch --unshallow brings it)" if shallow else ""))
    return out


class Worktree:
    """with Worktree(commit) as path: the commit checked out in a temporary folder (made
    in tmp, default the system's), which is removed again however the block ends (git
    worktree remove, then prune)."""

    def __init__(self, commit, root=ROOT, tmp=None):
        self.commit = commit
        self.root = root
        self.base = tmp
        self.tmp = None
        self.path = None

    def __enter__(self):
        sha = resolve(self.commit, self.root)
        self.tmp = tempfile.mkdtemp(prefix="simpair-", dir=self.base)
        self.path = os.path.join(self.tmp, "tree")
        try:
            code, out = _git(self.root, "worktree", "add", "--detach", "--quiet", self.path,
                             sha)
            if code != 0:
                raise NotMeasured("git worktree add failed: %s" % (out.splitlines() or ["?"])[-1])
        except BaseException:
            self._remove()
            raise
        return self.path

    def __exit__(self, *exc):
        self._remove()
        return False

    def _remove(self):
        if self.path and os.path.isdir(self.path):
            _git(self.root, "worktree", "remove", "--force", self.path)
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)
        _git(self.root, "worktree", "prune")
        self.tmp = self.path = None


def rate(tree, games):
    """The sim's games_per_second(games) of the tree, in a fresh interpreter."""
    p = subprocess.run([sys.executable, "-I", "-B", "-c", _PROBE, tree, str(games)],
                       cwd=tree, capture_output=True, text=True)
    if p.returncode != 0:
        lines = (p.stderr or p.stdout).strip().splitlines() or ["exit status %d"
                                                                % p.returncode]
        raise NotMeasured("the sim of %s does not run: %s" % (tree, lines[-1]))
    return json.loads(p.stdout.strip().splitlines()[-1])["rate"]


def measure(commit=BASELINE, rounds=4, games=1000, root=ROOT, log=None, tmp=None):
    """The pair: {"commit", "head", "rounds", "games", "old", "now" (the games/s of each
    round), "old_median", "now_median", "ratio" (median of now/old over the rounds)}.
    NotMeasured if git or the commit is missing. log(text) hears each run; the worktree
    is made in tmp (default the system's temporary folder)."""
    with Worktree(commit, root, tmp) as old_tree:
        head = _git(root, "rev-parse", "--short", "HEAD")[1]
        if _git(root, "status", "--porcelain", "--", "engine", "lab/simplay.py")[1]:
            head += " + changes"
        old, now = [], []
        for i in range(rounds):
            for tree, out, name in ((old_tree, old, commit), (root, now, "this tree")):
                out.append(rate(tree, games))
                if log:
                    log("round %d/%d: %s %.0f games/s" % (i + 1, rounds, name, out[-1]))
    return {"commit": commit, "head": head, "rounds": rounds, "games": games,
            "old": old, "now": now, "old_median": statistics.median(old),
            "now_median": statistics.median(now),
            "ratio": statistics.median([n / o for o, n in zip(old, now)])}


def report(m):
    """The pair as lines of text."""
    names = (m["commit"], "this tree (HEAD %s)" % m["head"])
    width = max(len(n) for n in names)
    lines = ["lab.simplay.games_per_second(%d), one core, %d rounds, each: %s then this tree"
             % (m["games"], m["rounds"], m["commit"])]
    for name, xs, median in zip(names, (m["old"], m["now"]), (m["old_median"], m["now_median"])):
        lines.append("  %-*s  %s   median %s" % (width, name, "  ".join(
            "{:,.0f}".format(x) for x in xs), "{:,.0f}".format(median)))
    lines.append("  this tree / %s: %.2f (median of the rounds' ratios)"
                 % (m["commit"], m["ratio"]))
    return lines


def main(argv=None):
    from tools.cli import Parser, bounded, fail
    ap = Parser(prog="python -m lab.simpair", description=__doc__.splitlines()[0])
    ap.add_argument("--commit", default=BASELINE,
                    help="the older commit (default %s)" % BASELINE)
    ap.add_argument("--rounds", type=bounded(1, 50), default=4,
                    help="pairs of runs (default 4)")
    ap.add_argument("--games", type=bounded(50, 10 ** 6), default=1000,
                    help="games a run (default 1000)")
    args = ap.parse_args(argv)
    # A kill (SIGTERM) ends the run as Ctrl-C does: through the worktree's removal.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        m = measure(args.commit, args.rounds, args.games,
                    log=lambda text: print(text, file=sys.stderr))
    except NotMeasured as e:
        fail(ap.prog, "not measured: %s" % e)
    except KeyboardInterrupt:
        print("%s: interrupted, not measured (the temporary worktree is removed)" % ap.prog,
              file=sys.stderr)
        return 130
    print("\n".join(report(m)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
