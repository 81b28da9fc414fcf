"""Stand-in for CircuitPython's bitmaptools: blit(), what adafruit_display_text draws with."""


def blit(dest_bitmap, source_bitmap, x, y, *, x1=0, y1=0, x2=None, y2=None,
         skip_source_index=None, skip_dest_index=None):
    """Copy the source's area (x1, y1)..(x2, y2) into dest_bitmap at (x, y); as the board's
    C code does: x, y inside dest_bitmap, and what falls past its edge left out."""
    dw = dest_bitmap.width
    dh = dest_bitmap.height
    if x < 0 or y < 0 or x > dw or y > dh:
        raise ValueError("out of range of target")
    if x2 is None:
        x2 = source_bitmap.width
    if y2 is None:
        y2 = source_bitmap.height
    if x1 > x2:
        x1, x2 = x2, x1
    if y1 > y2:
        y1, y2 = y2, y1
    if x1 < 0 or y1 < 0 or x2 > source_bitmap.width or y2 > source_bitmap.height:
        raise ValueError("out of range of source")
    for sy in range(y1, y2):
        ty = y + sy - y1
        if not 0 <= ty < dh:
            continue
        for sx in range(x1, x2):
            tx = x + sx - x1
            if not 0 <= tx < dw:
                continue
            v = source_bitmap._get(sx, sy)
            if v == skip_source_index:
                continue
            if skip_dest_index is not None and dest_bitmap._get(tx, ty) == skip_dest_index:
                continue
            dest_bitmap[ty * dw + tx] = v
