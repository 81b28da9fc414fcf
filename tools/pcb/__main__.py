"""python -m tools.pcb: make pcb (tools/pcb/make.py)."""
from tools.pcb.make import main

main()
