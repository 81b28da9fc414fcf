"""The desktop twin: the virtual handheld (virtual.py) and make play, the golden scenes and
glass, which reads a frame back."""
