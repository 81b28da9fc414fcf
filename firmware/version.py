"""The version of the firmware a drive carries. This file says "dev"; tools/deploy.py
writes its own onto the drive (the commit, or its tag; "+" when the board's files differ
from it), so that `make deploy`, `make uf2` and `make bundle` ship the version they were
made from. Goldens and the twins' comparisons use this one, which does not change."""
VERSION = "dev"
