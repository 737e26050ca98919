#!/usr/bin/env python3
"""The main board's side in a screenshot (the default theme, White on
black): the first run of columns from the left holding the board's square
colours (grey 200 and grey 100) in at least an eighth of their pixels,
and the run of rows holding them within those columns. Prints "board WxH px (N % of the shorter side)"."""
import subprocess
import sys

SQUARES = {(200, 200, 200), (100, 100, 100)}


def read(path):
    ppm = subprocess.run(["convert", path, "-depth", "8", "ppm:-"],
                         check=True, capture_output=True).stdout
    parts = ppm.split(maxsplit=4)
    w, h = int(parts[1]), int(parts[2])
    return w, h, parts[4]


def runs(flags):
    """The first run of True."""
    start = None
    for i, f in enumerate(flags):
        if f and start is None:
            start = i
        elif not f and start is not None:
            return start, i
    return (start, len(flags)) if start is not None else (0, 0)


def main():
    path = sys.argv[1]
    w, h, data = read(path)

    def square(x, y):
        i = 3 * (y * w + x)
        return (data[i], data[i + 1], data[i + 2]) in SQUARES

    # A column or row of the board holds many square pixels; text edges
    # (anti-aliased) hold a few.
    cols = [sum(square(x, y) for y in range(0, h, 2)) * 2 > h // 8 for x in range(w)]
    x0, x1 = runs(cols)
    rows = [sum(square(x, y) for x in range(x0, x1, 2)) * 2 > (x1 - x0) // 8
            for y in range(h)]
    y0, y1 = runs(rows)
    side = min(x1 - x0, y1 - y0)
    print(f"board {x1 - x0}x{y1 - y0} px at ({x0},{y0}) "
          f"({100 * side / min(w, h):.0f} % of the shorter side {min(w, h)})")


main()
