#!/usr/bin/env python3
"""Procedurally generate the sample images used by Galley's sample articles.

Standard library only.  PNG files are written with zlib + struct; the JPEG is
written as a binary PPM and converted with `cjpeg` (Debian package
libjpeg-turbo-progs).  Output is fully deterministic: no randomness, no
timestamps, no text chunks.

Run from anywhere:  python3 samples/images/make_images.py
Produces, next to this script:
    harbour.jpg  1200x800  landscape: sky, sun, hills, sea, lighthouse, boats
    chart.png     900x600  opaque RGB bar chart
    badge.png     400x400  RGBA, transparent background, round opaque emblem
    tall.png      300x1400 tall narrow banner (taller than a column)
"""

import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------- helpers

def clamp(v, lo=0, hi=255):
    return lo if v < lo else hi if v > hi else v


def lerp(a, b, t):
    return a + (b - a) * t


def mix(c1, c2, t):
    """Blend two RGB tuples, t = 0 gives c1, t = 1 gives c2."""
    return tuple(int(round(lerp(c1[i], c2[i], t))) for i in range(3))


def smoothstep(e0, e1, x):
    if e0 == e1:
        return 0.0 if x < e0 else 1.0
    t = (x - e0) / (e1 - e0)
    t = 0.0 if t < 0 else 1.0 if t > 1 else t
    return t * t * (3 - 2 * t)


class Canvas:
    """A simple RGB or RGBA raster with alpha-blended drawing primitives."""

    def __init__(self, w, h, channels=3, fill=(0, 0, 0, 255)):
        self.w, self.h, self.ch = w, h, channels
        px = bytes(fill[:channels])
        self.buf = bytearray(px * (w * h))

    def blend(self, x, y, color, a=1.0):
        if a <= 0 or x < 0 or y < 0 or x >= self.w or y >= self.h:
            return
        i = (y * self.w + x) * self.ch
        b = self.buf
        if a >= 1:
            b[i] = color[0]
            b[i + 1] = color[1]
            b[i + 2] = color[2]
            if self.ch == 4:
                b[i + 3] = 255
            return
        if self.ch == 4:
            # "over" compositing with straight alpha
            da = b[i + 3] / 255.0
            oa = a + da * (1 - a)
            if oa <= 0:
                return
            for k in range(3):
                b[i + k] = clamp(int(round(
                    (color[k] * a + b[i + k] * da * (1 - a)) / oa)))
            b[i + 3] = clamp(int(round(oa * 255)))
        else:
            for k in range(3):
                b[i + k] = clamp(int(round(lerp(b[i + k], color[k], a))))

    def rect(self, x0, y0, x1, y1, color, a=1.0):
        for y in range(max(0, int(y0)), min(self.h, int(y1))):
            for x in range(max(0, int(x0)), min(self.w, int(x1))):
                self.blend(x, y, color, a)

    def disc(self, cx, cy, r, color, a=1.0):
        """Anti-aliased filled circle."""
        for y in range(max(0, int(cy - r - 1)), min(self.h, int(cy + r + 2))):
            for x in range(max(0, int(cx - r - 1)), min(self.w, int(cx + r + 2))):
                d = math.hypot(x + 0.5 - cx, y + 0.5 - cy)
                cov = clamp(r - d + 0.5, 0.0, 1.0)
                if cov > 0:
                    self.blend(x, y, color, a * cov)

    def ring(self, cx, cy, r0, r1, color, a=1.0):
        """Anti-aliased annulus between radii r0 < r1."""
        for y in range(max(0, int(cy - r1 - 1)), min(self.h, int(cy + r1 + 2))):
            for x in range(max(0, int(cx - r1 - 1)), min(self.w, int(cx + r1 + 2))):
                d = math.hypot(x + 0.5 - cx, y + 0.5 - cy)
                cov = clamp(r1 - d + 0.5, 0.0, 1.0) * clamp(d - r0 + 0.5, 0.0, 1.0)
                if cov > 0:
                    self.blend(x, y, color, a * cov)

    def polygon(self, pts, color, a=1.0, ss=4):
        """Filled polygon (even-odd), vertically supersampled for soft edges."""
        ys = [p[1] for p in pts]
        y0 = max(0, int(math.floor(min(ys))))
        y1 = min(self.h - 1, int(math.ceil(max(ys))))
        n = len(pts)
        for y in range(y0, y1 + 1):
            cover = {}
            for s in range(ss):
                sy = y + (s + 0.5) / ss
                xs = []
                for i in range(n):
                    ax, ay = pts[i]
                    bx, by = pts[(i + 1) % n]
                    if (ay <= sy < by) or (by <= sy < ay):
                        xs.append(ax + (sy - ay) * (bx - ax) / (by - ay))
                xs.sort()
                for j in range(0, len(xs) - 1, 2):
                    xa, xb = xs[j], xs[j + 1]
                    ia, ib = int(math.floor(xa)), int(math.floor(xb))
                    for x in range(max(0, ia), min(self.w - 1, ib) + 1):
                        left = max(xa, x)
                        right = min(xb, x + 1)
                        if right > left:
                            cover[x] = cover.get(x, 0.0) + (right - left) / ss
            for x, c in cover.items():
                self.blend(x, y, color, a * min(1.0, c))


# ---------------------------------------------------------------- writers

def png_bytes(canvas):
    w, h, ch = canvas.w, canvas.h, canvas.ch
    stride = w * ch
    raw = bytearray()
    prev = bytearray(stride)
    buf = canvas.buf
    for y in range(h):
        row = buf[y * stride:(y + 1) * stride]
        # Try filters None, Sub and Up; keep the one with the smallest
        # sum of absolute (signed) bytes -- the usual heuristic.
        sub = bytearray(stride)
        up = bytearray(stride)
        for i in range(stride):
            left = row[i - ch] if i >= ch else 0
            sub[i] = (row[i] - left) & 0xFF
            up[i] = (row[i] - prev[i]) & 0xFF

        def score(data):
            return sum(v if v < 128 else 256 - v for v in data)

        best = min(((score(row), 0, row), (score(sub), 1, sub),
                    (score(up), 2, up)), key=lambda t: (t[0], t[1]))
        raw.append(best[1])
        raw += best[2]
        prev = row

    def chunk(tag, data):
        c = struct.pack(">I", len(data)) + tag + data
        return c + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    color_type = 6 if ch == 4 else 2
    ihdr = struct.pack(">IIBBBBB", w, h, 8, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + chunk(b"IEND", b""))


def write_png(canvas, name):
    path = os.path.join(HERE, name)
    with open(path, "wb") as f:
        f.write(png_bytes(canvas))
    return path


def write_jpeg(canvas, name, quality=85):
    if canvas.ch != 3:
        raise ValueError("JPEG needs an RGB canvas")
    cjpeg = shutil.which("cjpeg")
    if not cjpeg:
        sys.exit("cjpeg not found: apt-get install -y libjpeg-turbo-progs")
    path = os.path.join(HERE, name)
    with tempfile.TemporaryDirectory() as tmp:
        ppm = os.path.join(tmp, "in.ppm")
        with open(ppm, "wb") as f:
            f.write(b"P6\n%d %d\n255\n" % (canvas.w, canvas.h))
            f.write(canvas.buf)
        subprocess.run([cjpeg, "-quality", str(quality), "-optimize",
                        "-outfile", path, ppm], check=True)
    return path


# ---------------------------------------------------------------- harbour

def ridge(x, base, parts):
    """Height of a hill line at x: base plus a sum of sine waves."""
    return base + sum(a * math.sin(x * f + p) for a, f, p in parts)


def make_harbour():
    W, H = 1200, 800
    horizon = 470
    c = Canvas(W, H, 3)
    sun_x, sun_y, sun_r = 820, 350, 62

    sky_top, sky_mid, sky_low = (38, 62, 120), (120, 140, 190), (250, 196, 150)
    sea_top, sea_bot = (70, 96, 140), (18, 36, 66)
    far_hill = [(36, 0.0061, 0.4), (18, 0.017, 1.9), (7, 0.043, 0.2)]
    near_hill = [(28, 0.0042, 2.2), (14, 0.011, 0.7), (5, 0.031, 1.3)]

    b = c.buf
    for y in range(H):
        for x in range(W):
            if y < horizon:
                t = y / horizon
                col = (mix(sky_top, sky_mid, t / 0.55) if t < 0.55
                       else mix(sky_mid, sky_low, (t - 0.55) / 0.45))
                # warm glow around the sun
                d = math.hypot(x - sun_x, (y - sun_y) * 1.3)
                g = math.exp(-d / 210.0) * 0.55
                col = mix(col, (255, 226, 170), g)
            else:
                t = (y - horizon) / (H - horizon)
                col = mix(sea_top, sea_bot, t ** 0.8)
                # sun path on the water: a tapering band of ripples
                half = 18 + 150 * t
                dx = abs(x - sun_x)
                if dx < half:
                    wave = math.sin(y * 0.9 + math.sin(x * 0.05) * 2.0)
                    strength = (1 - dx / half) ** 1.5 * (1 - t) ** 0.6
                    if wave > 0.35:
                        col = mix(col, (255, 214, 150), strength * 0.85)
                # gentle horizontal swell elsewhere
                sw = math.sin(y * 0.35 + math.sin(x * 0.013 + y * 0.02) * 3)
                if sw > 0.92:
                    col = mix(col, (150, 170, 205), 0.18 * (1 - t))
            i = (y * W + x) * 3
            b[i], b[i + 1], b[i + 2] = col

    # the sun itself, resting above the far hills
    c.disc(sun_x, sun_y, sun_r + 6, (255, 236, 190), 0.35)
    c.disc(sun_x, sun_y, sun_r, (255, 244, 214))

    # far hills (bluish), left headland and right headland
    for x in range(W):
        # a long low range with a gap (the harbour mouth) near x = 600
        top = (ridge(x, horizon - 62, far_hill)
               + 58 * math.exp(-((x - 600) / 130.0) ** 2))
        if top >= horizon:
            continue
        for y in range(max(0, int(top)), horizon):
            shade = (y - top) / max(1.0, horizon - top)
            c.blend(x, y, mix((96, 106, 146), (70, 80, 112), shade))

    # nearer green hill on the left, running down to the water line
    for x in range(0, 560):
        top = ridge(x, horizon - 40, near_hill) + x * 0.28 - 60
        for y in range(max(0, int(top)), horizon + 4):
            shade = (y - top) / max(1.0, horizon + 4 - top)
            c.blend(x, y, mix((70, 104, 72), (38, 62, 46), shade))

    # a few houses on the left hillside: walls and roofs
    houses = [(60, 392, 38, 26), (112, 400, 30, 22), (160, 410, 44, 28),
              (222, 420, 32, 22), (268, 428, 40, 24), (330, 440, 30, 20)]
    wall_cols = [(236, 226, 208), (214, 120, 92), (240, 214, 150),
                 (190, 206, 222), (232, 232, 226), (220, 170, 120)]
    for (hx, hy, hw, hh), wc in zip(houses, wall_cols):
        c.rect(hx, hy, hx + hw, hy + hh, wc)
        c.polygon([(hx - 3, hy), (hx + hw / 2, hy - hh * 0.6),
                   (hx + hw + 3, hy)], (120, 52, 44))
        c.rect(hx + hw * 0.4, hy + hh * 0.45, hx + hw * 0.6, hy + hh,
               (60, 48, 44))

    # lighthouse on a rock at the right
    c.polygon([(930, 470), (960, 430), (1040, 424), (1090, 450),
               (1110, 474)], (58, 54, 60))
    base_y, top_y = 440, 300
    for k in range(7):
        y0 = top_y + (base_y - top_y) * k / 7
        y1 = top_y + (base_y - top_y) * (k + 1) / 7
        w0 = 12 + 9 * k / 7
        w1 = 12 + 9 * (k + 1) / 7
        col = (200, 52, 48) if k % 2 == 0 else (244, 242, 236)
        c.polygon([(1010 - w0, y0), (1010 + w0, y0),
                   (1010 + w1, y1), (1010 - w1, y1)], col)
    c.rect(996, 284, 1024, 300, (250, 238, 170))
    c.polygon([(992, 285), (1010, 266), (1028, 285)], (40, 40, 46))
    # lamp beam
    c.polygon([(1000, 292), (880, 262), (880, 318)], (255, 246, 200), 0.22)

    # boats with triangular sails
    boats = [(470, 560, 1.0, (230, 230, 224)), (640, 520, 0.6, (240, 200, 150)),
             (300, 640, 1.4, (250, 244, 236)), (720, 600, 0.8, (210, 90, 70))]
    for bx, by, s, sail in boats:
        c.polygon([(bx - 60 * s, by), (bx + 60 * s, by),
                   (bx + 42 * s, by + 18 * s), (bx - 44 * s, by + 18 * s)],
                  (70, 42, 36))
        c.rect(bx - 2 * s, by - 110 * s, bx + 2 * s + 1, by, (60, 44, 40))
        c.polygon([(bx + 3 * s, by - 105 * s), (bx + 3 * s, by - 6 * s),
                   (bx + 52 * s, by - 6 * s)], sail)
        c.polygon([(bx - 3 * s, by - 90 * s), (bx - 3 * s, by - 8 * s),
                   (bx - 38 * s, by - 8 * s)], mix(sail, (255, 255, 255), 0.3))
        # reflection
        c.rect(bx - 50 * s, by + 20 * s, bx + 40 * s, by + 26 * s,
               (30, 40, 60), 0.35)

    # wooden pier in the lower left foreground
    c.polygon([(0, 700), (560, 730), (560, 752), (0, 736)], (92, 64, 44))
    for k in range(9):
        px = 30 + k * 62
        py = 700 + px * 30 / 560
        c.rect(px, py, px + 12, H, (64, 44, 32))
    # mooring ropes
    for k in range(0, 8, 2):
        x0 = 36 + k * 62
        y0 = 706 + x0 * 30 / 560
        for t in range(0, 62):
            x = x0 + t
            y = y0 + 14 * math.sin(math.pi * t / 62)
            c.rect(x, y, x + 1, y + 2, (190, 170, 130))

    # birds: small chevrons
    for bx, by, s in [(300, 150, 1.0), (340, 130, 0.8), (372, 162, 0.7),
                      (620, 210, 0.9), (660, 190, 0.6)]:
        for t in range(-14, 15):
            x = bx + t * s
            y = by + abs(t) * -0.45 * s + (t * t) * 0.02 * s
            c.rect(x, y, x + 1.5, y + 2, (40, 40, 60))

    return c


# ---------------------------------------------------------------- chart

# A tiny 3x5 bitmap font for digits, drawn by hand for this script.
DIGITS = {
    "0": ["111", "101", "101", "101", "111"],
    "1": ["010", "110", "010", "010", "111"],
    "2": ["111", "001", "111", "100", "111"],
    "3": ["111", "001", "111", "001", "111"],
    "4": ["101", "101", "111", "001", "001"],
    "5": ["111", "100", "111", "001", "111"],
    "6": ["111", "100", "111", "101", "111"],
    "7": ["111", "001", "010", "010", "010"],
    "8": ["111", "101", "111", "101", "111"],
    "9": ["111", "101", "111", "001", "111"],
}


def draw_number(c, text, x, y, scale, color):
    for ch in text:
        glyph = DIGITS[ch]
        for gy, row in enumerate(glyph):
            for gx, bit in enumerate(row):
                if bit == "1":
                    c.rect(x + gx * scale, y + gy * scale,
                           x + (gx + 1) * scale, y + (gy + 1) * scale, color)
        x += 4 * scale


def make_chart():
    W, H = 900, 600
    c = Canvas(W, H, 3, fill=(250, 248, 242, 255))
    left, right, top, bottom = 110, 860, 70, 520
    # title band
    c.rect(0, 0, W, 44, (44, 62, 80))
    c.rect(0, 44, W, 48, (230, 126, 34))
    # grid lines and y labels: 0..100 in steps of 20
    for k in range(6):
        y = bottom - (bottom - top) * k / 5
        c.rect(left, y, right, y + 1, (214, 210, 200))
        label = str(k * 20)
        draw_number(c, label, left - 18 - len(label) * 12, y - 7, 3,
                    (90, 90, 96))
    # axes
    c.rect(left - 2, top, left, bottom + 2, (60, 60, 66))
    c.rect(left - 2, bottom, right, bottom + 2, (60, 60, 66))

    # two series of bars for eight "years"
    series_a = [34, 41, 38, 52, 61, 58, 70, 83]
    series_b = [22, 27, 35, 33, 40, 49, 55, 64]
    col_a, col_b = (41, 128, 185), (192, 57, 43)
    groups = len(series_a)
    gw = (right - left) / groups
    bw = gw * 0.32
    for g in range(groups):
        gx = left + g * gw + gw * 0.14
        for j, (val, col) in enumerate(((series_a[g], col_a),
                                        (series_b[g], col_b))):
            x0 = gx + j * (bw + 4)
            y0 = bottom - (bottom - top) * val / 100.0
            # soft shadow, then the bar, then a lighter cap
            c.rect(x0 + 4, y0 + 4, x0 + bw + 4, bottom, (0, 0, 0), 0.10)
            c.rect(x0, y0, x0 + bw, bottom, col)
            c.rect(x0, y0, x0 + bw, y0 + 5, mix(col, (255, 255, 255), 0.35))
        draw_number(c, str(g + 1), left + g * gw + gw / 2 - 4, bottom + 14, 3,
                    (90, 90, 96))

    # a trend line over series A: a polyline of small discs
    pts = []
    for g in range(groups):
        x = left + g * gw + gw * 0.14 + bw / 2
        y = bottom - (bottom - top) * series_a[g] / 100.0 - 14
        pts.append((x, y))
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        steps = int(math.hypot(x1 - x0, y1 - y0))
        for s in range(steps):
            t = s / steps
            c.disc(lerp(x0, x1, t), lerp(y0, y1, t), 1.6, (39, 174, 96))
    for x, y in pts:
        c.disc(x, y, 6, (255, 255, 255))
        c.disc(x, y, 4.5, (39, 174, 96))

    # legend swatches in the title band
    c.rect(640, 14, 660, 32, col_a)
    c.rect(700, 14, 720, 32, col_b)
    c.rect(760, 21, 790, 25, (39, 174, 96))
    c.disc(775, 23, 5, (39, 174, 96))
    return c


# ---------------------------------------------------------------- badge

def star_points(cx, cy, r_out, r_in, n=5, rot=-math.pi / 2):
    pts = []
    for k in range(2 * n):
        r = r_out if k % 2 == 0 else r_in
        a = rot + k * math.pi / n
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def make_badge():
    W = H = 400
    c = Canvas(W, H, 4, fill=(0, 0, 0, 0))
    cx = cy = 200
    # outer scalloped edge: a disc plus small discs round the rim
    c.disc(cx, cy, 176, (150, 32, 40))
    for k in range(24):
        a = k * 2 * math.pi / 24
        c.disc(cx + 176 * math.cos(a), cy + 176 * math.sin(a), 14,
               (150, 32, 40))
    c.ring(cx, cy, 150, 162, (232, 190, 80))
    c.disc(cx, cy, 146, (24, 44, 86))
    # dotted inner ring
    for k in range(36):
        a = k * 2 * math.pi / 36
        c.disc(cx + 128 * math.cos(a), cy + 128 * math.sin(a), 3.2,
               (232, 190, 80))
    # radial sunburst behind the star
    for k in range(16):
        a0 = k * 2 * math.pi / 16
        a1 = a0 + math.pi / 32
        c.polygon([(cx, cy),
                   (cx + 112 * math.cos(a0), cy + 112 * math.sin(a0)),
                   (cx + 112 * math.cos(a1), cy + 112 * math.sin(a1))],
                  (44, 70, 124))
    c.polygon(star_points(cx, cy + 4, 96, 40), (120, 84, 20), 0.6)
    c.polygon(star_points(cx, cy, 96, 40), (244, 204, 92))
    c.polygon(star_points(cx, cy, 52, 22), (255, 232, 150))
    c.disc(cx, cy, 12, (150, 32, 40))
    return c


# ---------------------------------------------------------------- tall

def make_tall():
    W, H = 300, 1400
    c = Canvas(W, H, 3)
    b = c.buf
    top, mid, bot = (18, 94, 104), (34, 58, 102), (68, 28, 70)
    for y in range(H):
        t = y / (H - 1)
        col = mix(top, mid, t * 2) if t < 0.5 else mix(mid, bot, (t - 0.5) * 2)
        for x in range(W):
            # faint vertical pinstripes
            cc = col
            if x % 24 in (0, 1):
                cc = mix(col, (255, 255, 255), 0.06)
            i = (y * W + x) * 3
            b[i], b[i + 1], b[i + 2] = cc
    # borders
    c.rect(0, 0, 10, H, (236, 200, 96))
    c.rect(W - 10, 0, W, H, (236, 200, 96))
    c.rect(16, 0, 19, H, (236, 200, 96), 0.6)
    c.rect(W - 19, 0, W - 16, H, (236, 200, 96), 0.6)
    # a column of motifs: sun, diamonds, waves, circles, a pennant tip
    c.disc(150, 130, 70, (250, 210, 110))
    c.disc(150, 130, 52, (252, 232, 170))
    for k in range(5):
        y = 280 + k * 90
        c.polygon([(150, y - 38), (188, y), (150, y + 38), (112, y)],
                  (236, 200, 96) if k % 2 == 0 else (214, 96, 80))
        c.polygon([(150, y - 18), (168, y), (150, y + 18), (132, y)],
                  (250, 244, 230))
    for k in range(6):
        y0 = 740 + k * 26
        for x in range(30, 270):
            y = y0 + 8 * math.sin(x * 0.07 + k)
            c.rect(x, y, x + 1, y + 5, (180, 220, 226), 0.9)
    for k in range(4):
        y = 960 + k * 80
        c.ring(150, y, 22, 32, (236, 200, 96))
        c.disc(150, y, 12, (214, 96, 80))
    # swallowtail notch at the bottom drawn in a darker tone
    c.polygon([(20, 1300), (150, 1370), (280, 1300), (280, H), (20, H)],
              (30, 14, 36))
    return c


# ---------------------------------------------------------------- main

def main():
    outputs = [
        write_jpeg(make_harbour(), "harbour.jpg", 85),
        write_png(make_chart(), "chart.png"),
        write_png(make_badge(), "badge.png"),
        write_png(make_tall(), "tall.png"),
    ]
    for p in outputs:
        print("%-12s %7d bytes" % (os.path.basename(p), os.path.getsize(p)))


if __name__ == "__main__":
    main()
