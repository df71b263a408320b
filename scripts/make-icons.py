#!/usr/bin/env python3
"""Draws the studio's app icons (for "Add to Home Screen" and the web app manifest) from favicon.svg's shapes:
the yellow eye with its dark pupil and highlight, on the page's dark background, whole inside the middle 80 %
so that a platform's round or rounded mask cuts nothing of it. Writes icon-192.png, icon-512.png and
apple-touch-icon.png (180×180, what iOS asks for) into Sources/OcularStudio/Public/.
Run with .venv/bin/python (OpenCV draws them)."""
from pathlib import Path

import cv2
import numpy as np

PUBLIC = Path(__file__).resolve().parents[1] / "Sources" / "OcularStudio" / "Public"
BACKGROUND = (0x22, 0x1D, 0x1B)  # BGR of #1b1d22
YELLOW = (0x42, 0xC5, 0xF4)      # #f4c542
WHITE = (255, 255, 255)
# favicon.svg's outline of the eye, as its four cubic Bézier segments in its 24×24 box.
OUTLINE = [((12, 5), (6.5, 5), (2.7, 9.3), (1.5, 12)), ((1.5, 12), (2.7, 14.7), (6.5, 19), (12, 19)),
           ((12, 19), (17.5, 19), (21.3, 14.7), (22.5, 12)), ((22.5, 12), (21.3, 9.3), (17.5, 5), (12, 5))]
SHIFT = 4  # OpenCV's sub-pixel bits


def draw(size):
    icon = np.zeros((size, size, 3), np.uint8)
    icon[:] = BACKGROUND
    scale = size * 0.72 / 21        # the eye, 21 units wide, over 72 % of the icon
    offset = size / 2 - 12 * scale  # the box's centre (12, 12) at the icon's
    fixed = lambda x, y: (round((offset + x * scale) * (1 << SHIFT)), round((offset + y * scale) * (1 << SHIFT)))
    points = []
    for p0, p1, p2, p3 in OUTLINE:
        for t in np.linspace(0, 1, 64, endpoint=False):
            u = 1 - t
            x = u ** 3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t ** 3 * p3[0]
            y = u ** 3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t ** 3 * p3[1]
            points.append(fixed(x, y))
    cv2.fillPoly(icon, [np.array(points, np.int32)], YELLOW, cv2.LINE_AA, SHIFT)
    cv2.circle(icon, fixed(12, 12), round(4.2 * scale * (1 << SHIFT)), BACKGROUND, -1, cv2.LINE_AA, SHIFT)
    cv2.circle(icon, fixed(13.4, 10.6), round(1.3 * scale * (1 << SHIFT)), WHITE, -1, cv2.LINE_AA, SHIFT)
    return icon


for name, size in [("icon-192.png", 192), ("icon-512.png", 512), ("apple-touch-icon.png", 180)]:
    cv2.imwrite(str(PUBLIC / name), draw(size), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    print(PUBLIC / name)
