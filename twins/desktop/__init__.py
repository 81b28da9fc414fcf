"""The desktop twin: the virtual handheld (virtual.py) and make play, the golden scenes and
glass, which reads a frame back, and the scripted match the other twins are compared with
(scripted.py)."""
