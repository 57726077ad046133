#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The viewer plays a recording in a real browser (issue 21): tools/viewer/index.html in
headless Chromium (Debian's chromium; software WebGL through SwiftShader, no GPU, and no
network: every host name is made to fail; three.js comes from tools/viewer/node_modules,
which scripts/setup installs).

  viewer_test.py RECORD_DEMO PROJECT_ROOT

RECORD_DEMO (examples/record.c) records two small worlds into a temporary directory: one
whose pairs collide for a while, and the same bodies spread apart (--apart) so that no
pair ever collides. The page opens each at the same frame, one where the first recording
has colliding pairs, and Chromium takes a screenshot. The viewer draws a body of a
colliding pair unlit in pure red (#ff0000) and nothing else in that colour in the 3D view
(the legend's red swatch lies outside the region counted), so:
  - the first screenshot must hold red pixels, and
  - the second none, while showing as many bodies (pixels that are neither background
    nor red): a blank page, a broken load or a missing three.js fails both ways.
The PNG is decoded here with zlib (8-bit RGB or RGBA, non-interlaced: what Chromium
writes), so the test needs nothing beyond Python's standard library."""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

WIDTH, HEIGHT = 800, 600
MARGIN = 60  # the page's bar (top) and legend (bottom) are left out of the counts
BACKGROUND = (0x20, 0x24, 0x2A)


def fail(msg):
    print("viewer_test: FAIL: " + msg)
    sys.exit(1)


def read_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB/RGBA non-interlaced PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path} is not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    w, h, depth, colour, _, _, interlace = ihdr
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        fail(f"{path}: PNG of depth {depth}, colour type {colour}, interlace {interlace}: not decoded here")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def count(path):
    """(red pixels, body pixels) in the 3D view's region of a screenshot."""
    w, h, rows = read_png(path)
    red = body = 0
    for y in range(MARGIN, h - MARGIN):
        for r, g, b in rows[y]:
            if r >= 250 and g <= 5 and b <= 5:
                red += 1
            elif max(abs(r - BACKGROUND[0]), abs(g - BACKGROUND[1]), abs(b - BACKGROUND[2])) > 24:
                body += 1
    return red, body


def screenshot(chromium, page, rec, frame, out, tmp):
    url = f"file://{page}?rec=file://{rec}&frame={frame}&play=0"
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu-sandbox", "--use-gl=swiftshader",
           "--enable-unsafe-swiftshader", "--allow-file-access-from-files", "--no-first-run",
           "--user-data-dir=" + os.path.join(tmp, "profile"), f"--window-size={WIDTH},{HEIGHT}",
           "--hide-scrollbars", "--virtual-time-budget=10000", "--screenshot=" + out,
           # no network: every host name fails to resolve, so the page works offline or not at all
           "--host-resolver-rules=MAP * ~NOTFOUND", url]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    if p.returncode != 0 or not os.path.exists(out):
        fail(f"chromium failed (exit {p.returncode}) for {url}:\n{p.stderr[-3000:]}")


def frame_with_pairs(rec):
    """A frame (0-based) with colliding pairs of which some did not begin in it (so their
    bodies are red, not flashing yellow): the one with the most such pairs."""
    frames = [o for o in map(json.loads, open(rec)) if "frame" in o]
    best, best_n = None, 0
    for i, f in enumerate(frames):
        began = {tuple(p) for p in f["began"]}
        n = sum(1 for p in f["pairs"] if tuple(p) not in began)
        if n > best_n:
            best, best_n = i, n
    if best is None:
        fail(f"{rec} has no frame with a colliding pair: the demo scene changed")
    return best, best_n


def main():
    if len(sys.argv) != 3:
        fail("usage: viewer_test.py RECORD_DEMO PROJECT_ROOT")
    demo, root = sys.argv[1], sys.argv[2]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        fail("no chromium: install Debian's chromium (scripts/setup does)")
    page = os.path.join(os.path.abspath(root), "tools", "viewer", "index.html")
    three = os.path.join(os.path.dirname(page), "node_modules", "three", "build", "three.module.js")
    if not os.path.exists(three):
        fail(f"{three} is missing: scripts/setup installs three.js there (npm ci in tools/viewer)")
    tmp = tempfile.mkdtemp(prefix="colibri_viewer_test_")
    try:
        hit, apart = os.path.join(tmp, "hit.colrec"), os.path.join(tmp, "apart.colrec")
        subprocess.run([demo, hit], check=True)
        subprocess.run([demo, apart, "--apart"], check=True)
        frame, n = frame_with_pairs(hit)
        print(f"viewer_test: frame {frame} of the colliding recording has {n} pairs that did not just begin")
        shots = {}
        for name, rec in (("hit", hit), ("apart", apart)):
            out = os.path.join(tmp, name + ".png")
            screenshot(chromium, page, rec, frame, out, tmp)
            shots[name] = count(out)
            print(f"viewer_test: {name}: {shots[name][0]} red pixels, {shots[name][1]} other body pixels")
        red_hit, body_hit = shots["hit"]
        red_apart, body_apart = shots["apart"]
        if body_hit < 300 or body_apart < 300:
            fail("the bodies were not drawn (the page did not load the recording or three.js)")
        if red_hit < 300:
            fail(f"only {red_hit} pixels of the highlight colour where {n} pairs collide")
        if red_apart != 0:
            fail(f"{red_apart} pixels of the highlight colour in a recording with no colliding pair")
        print("viewer_test: ok")
    finally:
        if os.environ.get("COLIBRI_KEEP_VIEWER_TEST"):
            print("viewer_test: kept " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
