"""SVG path data (``M 0 0 C 5 -3 10 -3 15 0``) to absolute move/line/curve operations.

Arcs are not supported: write them as cubic curves.
"""

from __future__ import annotations

import re

from .face import PathOp

_TOKENS = re.compile(r"[MmLlHhVvCcSsQqTtZzAa]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "Z": 0}


def parse_path(data: str) -> tuple[PathOp, ...]:
    """Parse path data; raises ValueError with a message for the user."""
    tokens = _TOKENS.findall(data)
    if "".join(tokens).replace(" ", "") == "" or not re.fullmatch(r"[\s,]*", _TOKENS.sub("", data)):
        raise ValueError(f"cannot read path data '{data}'; expected SVG path commands like 'M 0 0 L 10 0 Z'")
    ops: list[PathOp] = []
    x = y = sx = sy = 0.0
    last_ctrl: tuple[float, float] | None = None
    last_cmd = ""
    i = 0
    cmd = ""
    while i < len(tokens):
        tok = tokens[i]
        if tok.isalpha():
            cmd = tok
            i += 1
            if cmd.upper() == "A":
                raise ValueError("arcs (A) are not supported in paths; draw them with C curves")
        elif not cmd:
            raise ValueError(f"path data '{data}' must start with a command such as M")
        rel = cmd.islower()
        up = cmd.upper()
        n = _ARGS[up]
        if up == "Z":
            if i < len(tokens) and not tokens[i].isalpha():
                raise ValueError(f"numbers after Z in '{data}'; start a new piece with M")
            ops.append(("Z", ()))
            x, y = sx, sy
            last_cmd, last_ctrl = "Z", None
            continue
        args = tokens[i:i + n]
        if len(args) < n or any(a.isalpha() for a in args):
            raise ValueError(f"command {cmd} in '{data}' needs {n} numbers")
        v = [float(a) for a in args]
        i += n
        ox, oy = (x, y) if rel else (0.0, 0.0)
        if up == "M":
            x, y = ox + v[0], oy + v[1]
            sx, sy = x, y
            ops.append(("M", (x, y)))
            cmd = "l" if rel else "L"  # further pairs are lines
            last_ctrl = None
        elif up in ("L", "H", "V"):
            if up == "L":
                x, y = ox + v[0], oy + v[1]
            elif up == "H":
                x = ox + v[0] if rel else v[0]
            else:
                y = oy + v[0] if rel else v[0]
            ops.append(("L", (x, y)))
            last_ctrl = None
        elif up in ("C", "S"):
            if up == "C":
                c1 = (ox + v[0], oy + v[1])
                c2, end = (ox + v[2], oy + v[3]), (ox + v[4], oy + v[5])
            else:
                c1 = (2 * x - last_ctrl[0], 2 * y - last_ctrl[1]) if last_cmd in "CS" and last_ctrl else (x, y)
                c2, end = (ox + v[0], oy + v[1]), (ox + v[2], oy + v[3])
            ops.append(("C", (*c1, *c2, *end)))
            last_ctrl = c2
            x, y = end
        else:  # Q, T: quadratic, raised to cubic
            if up == "Q":
                q, end = (ox + v[0], oy + v[1]), (ox + v[2], oy + v[3])
            else:
                q = (2 * x - last_ctrl[0], 2 * y - last_ctrl[1]) if last_cmd in "QT" and last_ctrl else (x, y)
                end = (ox + v[0], oy + v[1])
            c1 = (x + 2 / 3 * (q[0] - x), y + 2 / 3 * (q[1] - y))
            c2 = (end[0] + 2 / 3 * (q[0] - end[0]), end[1] + 2 / 3 * (q[1] - end[1]))
            ops.append(("C", (*c1, *c2, *end)))
            last_ctrl = q
            x, y = end
        last_cmd = up
    if not ops or ops[0][0] != "M":
        raise ValueError(f"path data '{data}' must start with M")
    return tuple(ops)
