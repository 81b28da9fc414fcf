"""make case's command: read the placement table, build the parts, check each is a closed
solid, and write the STLs (and the picture) all under temporary names, then rename them
together: the parts are written whole, or none is."""
import contextlib
import os

import trimesh
from manifold3d import Error

from tools.case.figures import NAME
from tools.case.parts import build
from tools.case.table import PlacementError, load
from tools.cli import Parser, fail as cli_fail, output_file
from tools.files import cannot_write, folder_problem, replacing

PROG = "make case"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLACEMENT = os.path.join(ROOT, "hardware", "pcb", "placement.json")


def mesh(solid):
    """A manifold's triangles as the trimesh written to its STL."""
    m = solid.to_mesh()
    return trimesh.Trimesh(m.vert_properties[:, :3], m.tri_verts, process=False)


def unsound(solid, triangles):
    """'' when a part is a closed mesh with a volume, else what is wrong with it."""
    if solid.is_empty() or not len(triangles.faces) or solid.volume() <= 0:
        return "comes out empty"
    if solid.status() != Error.NoError:
        return "is not a solid (%s)" % solid.status().name
    if not triangles.is_watertight:
        return "comes out open (not a closed mesh)"
    return ""


@contextlib.contextmanager
def writing(path):
    """Stop in one line when path cannot be written."""
    try:
        yield
    except OSError as e:
        cli_fail(PROG, cannot_write(path, e))


def picture(solids, path):
    """The parts drawn apart (the top, its caps and the lever extension lifted off, the door
    slid out), shaded; cut into small triangles so that matplotlib's depth order holds."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection
    up = (0, 0, 20)
    lift = {"top": up, "caps": up, "lever": up, "bottom": (0, 0, 0), "door": (-35, 0, 0)}
    colour = {"top": (0.93, 0.55, 0.18), "caps": (0.25, 0.45, 0.8), "lever": (0.25, 0.45, 0.8),
              "bottom": (0.3, 0.3, 0.32), "door": (0.55, 0.55, 0.58)}
    light = np.array([0.3, -0.5, 0.81])
    tris, colours = [], []
    for name, solid in solids.items():
        m = solid.refine_to_length(4.0).to_mesh()
        t = m.vert_properties[:, :3][m.tri_verts] + np.array(lift[name])
        n = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
        n /= np.linalg.norm(n, axis=1, keepdims=True) + 1e-12
        tris.append(t)
        colours.append(np.outer(0.3 + 0.7 * np.clip(n @ light, 0, 1), colour[name]))
    tris, colours = np.concatenate(tris), np.concatenate(colours)
    fig = plt.figure(figsize=(8, 5.6), dpi=100)
    ax = fig.add_subplot(projection="3d")
    ax.add_collection3d(Poly3DCollection(tris, facecolors=colours, edgecolors=colours,
                                         linewidths=0.3))
    lo, hi = tris.min(axis=(0, 1)), tris.max(axis=(0, 1))
    for axis, a, b in zip("xyz", lo, hi):
        getattr(ax, "set_%slim" % axis)(a, b)
    ax.set_box_aspect(tuple(hi - lo), zoom=0.95)
    ax.view_init(elev=30, azim=-50)
    ax.set_axis_off()
    fig.subplots_adjust(0, 0, 1, 1)
    fig.savefig(path, dpi=100, bbox_inches="tight", pad_inches=0.05)
    plt.close(fig)


def main(argv=None):
    import tools.case
    ap = Parser(prog=PROG, description=tools.case.__doc__.split("\n")[0])
    ap.add_argument("--placement", default=PLACEMENT,
                    help="the board's placement table (default hardware/pcb/placement.json, "
                         "which make pcb writes)")
    ap.add_argument("--out", default=os.path.join(ROOT, "dist", "case"),
                    help="the STLs' folder (default dist/case; made if missing)")
    ap.add_argument("--picture", type=output_file, metavar="PNG",
                    help="also draw the parts into this PNG (docs/case.png)")
    args = ap.parse_args(argv)
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        cli_fail(PROG, "--out %s is not a folder: give a folder (it is made if missing)"
                 % args.out)
    problem = folder_problem(args.out, "--out " + args.out, make=True)
    if problem:
        cli_fail(PROG, problem)
    try:
        placement = load(args.placement)
    except PlacementError as e:
        cli_fail(PROG, "--placement %s" % e)
    solids = build(placement)
    meshes = {name: mesh(solid) for name, solid in solids.items()}
    for name, solid in solids.items():
        problem = unsound(solid, meshes[name])
        if problem:
            cli_fail(PROG, "--placement %s: the case's %s %s: nothing written"
                     % (args.placement, name, problem))
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        cli_fail(PROG, "--out %s: cannot make the folder (%s)" % (args.out, e.strerror or e))
    said = []
    # every file under a temporary name first, then all renamed: one that cannot be
    # written leaves every old one as it was
    with contextlib.ExitStack() as outputs:
        for name, solid in solids.items():
            path = os.path.join(args.out, "%s-%s.stl" % (NAME, name))
            outputs.enter_context(writing(path))
            meshes[name].export(outputs.enter_context(replacing(path)), file_type="stl")
            x0, y0, z0, x1, y1, z1 = solid.bounding_box()
            said.append("wrote %s (%.1f x %.1f x %.1f mm, %.1f cm3)" % (
                os.path.relpath(path), x1 - x0, y1 - y0, z1 - z0, solid.volume() / 1000))
        if args.picture:
            outputs.enter_context(writing(args.picture))
            picture(solids, outputs.enter_context(replacing(args.picture)))
            said.append("drew %s" % os.path.relpath(args.picture))
    for line in said:
        print("%s: %s" % (PROG, line))
