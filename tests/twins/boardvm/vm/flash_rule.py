# The flash vectors (tests/twins/models/flash_vectors.json) on the Python model of the NOR flash
# (twins/models/norflash.py): tests/twins/models/test_flash_rule.py imports apply() on CPython, and
# runs this file as a guest script in CircuitPython's VM (the host puts `ROOT = ...` and
# `VECTORS = ...` before this text), which prints a "CASE hex ..." line per case.


def apply(case, norflash):
    """The hex bytes at the case's 'expect' offsets after its ops, on norflash's rule."""
    flash = bytearray(bytes.fromhex(case["fill"]) * case["size"])
    for at, data in case.get("set", []):
        flash[at:at + len(data) // 2] = bytes.fromhex(data)
    for op, address, arg in case["ops"]:
        if op == "program":
            norflash.program(flash, address, bytes.fromhex(arg))
        else:
            norflash.erase(flash, address, arg)
    return [flash[at:at + len(data) // 2].hex() for at, data in case["expect"]]


if __name__ == "__main__":
    import json
    import sys
    sys.path.insert(0, ROOT + "/twins/models")  # noqa: F821 (set by the host)
    import norflash as _model
    for _case in json.load(open(VECTORS))["cases"]:  # noqa: F821
        print("CASE", " ".join(apply(_case, _model)))
