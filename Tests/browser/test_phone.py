"""Ocular Studio for a phone: HTTPS with a self-signed pair, the QR code of its LAN address, and the
page's word when plain http leaves it without a camera."""
import hashlib
import json
import re
import socket
import ssl
import urllib.request

import cv2
import numpy as np
import pytest

from conftest import Studio, browser_page, screenshot


def decode_terminal_code(text):
    """The QR code printed without colours (half blocks paint the light modules), read by OpenCV."""
    lines = [line for line in text.splitlines() if line and set(line) <= set("█▀▄ ")]
    width = max(len(line) for line in lines)
    rows = []
    for line in lines:
        line = line.ljust(width, "█")
        rows.append([255 if glyph in "█▀" else 0 for glyph in line])
        rows.append([255 if glyph in "█▄" else 0 for glyph in line])
    picture = np.pad(np.array(rows, dtype=np.uint8), 4, constant_values=255)  # on a light page, as on a screen
    # A phone sees the code at whatever size; OpenCV's classic detector is particular about the scale,
    # its ArUco-based one is not: either reading counts, at a few sizes.
    for detector in (cv2.QRCodeDetectorAruco(), cv2.QRCodeDetector()):
        for pixels_per_module in (8, 6, 4):
            scaled = cv2.resize(picture, None, fx=pixels_per_module, fy=pixels_per_module, interpolation=cv2.INTER_NEAREST)
            text, _, _ = detector.detectAndDecode(scaled)
            if text:
                return text
    return ""


@pytest.fixture
def https_studio(tmp_path):
    server = Studio(tmp_path / "gallery", arguments=["--host", "0.0.0.0", "--self-signed"],
                    environment={"XDG_CONFIG_HOME": str(tmp_path / "config")})
    server.certificate = tmp_path / "config" / "ocular" / "tls" / "studio-certificate.pem"
    yield server
    server.stop()


def test_https_studio_serves_with_the_printed_fingerprint_and_a_qr_code_of_its_lan_address(https_studio):
    printed = https_studio.printed
    assert https_studio.scheme == "https"
    fingerprint = re.search(r"fingerprint: ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})", printed).group(1)
    # The certificate verifies for 127.0.0.1 against itself, and it is the one whose fingerprint was printed.
    context = ssl.create_default_context(cafile=str(https_studio.certificate))
    with socket.create_connection(("127.0.0.1", https_studio.port)) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as secure:
            served = secure.getpeercert(binary_form=True)
            assert secure.version() in ("TLSv1.2", "TLSv1.3")
    assert ":".join(f"{byte:02X}" for byte in hashlib.sha256(served).digest()) == fingerprint
    request = urllib.request.Request(f"https://127.0.0.1:{https_studio.port}/api/health",
                                     headers={"Authorization": f"token {https_studio.token}"})
    with urllib.request.urlopen(request, context=context) as response:
        assert response.status == 200 and json.load(response)["status"] == "ok"
    network = re.search(r"On this network: (https://\S+)", printed)
    if not network:
        pytest.skip("this machine has no network address besides loopback: no LAN address to print")
    assert network.group(1).endswith(f":{https_studio.port}/?token={https_studio.token}")
    assert decode_terminal_code(printed) == network.group(1)


def test_the_camera_works_over_https_on_a_network_address(playwright_instance, https_studio, camera_file):
    address = re.search(r"On this network: https://([0-9.]+):", https_studio.printed)
    if not address:
        pytest.skip("this machine has no network address besides loopback")
    url = f"https://{address.group(1)}:{https_studio.port}/?token={https_studio.token}"
    # The user accepted the self-signed certificate (after comparing fingerprints): ignore_https_errors.
    with browser_page(playwright_instance, camera_file, ignore_https_errors=True) as page:
        page.goto(url)
        page.wait_for_function("() => window.ocularStudio && window.ocularStudio.stats().framesReceived >= 3", timeout=20000)
        assert page.evaluate("() => window.isSecureContext")
        assert page.evaluate("() => window.ocularStudio.stats().source") == "camera"
        assert page.evaluate("() => location.search") == "", "the token went into a cookie"


def test_plain_http_on_a_network_address_says_why_there_is_no_camera(playwright_instance, tmp_path, camera_file):
    server = Studio(tmp_path / "gallery", arguments=["--host", "0.0.0.0"])
    try:
        address = re.search(r"On this network: http://([0-9.]+):", server.printed)
        if not address:
            pytest.skip("this machine has no network address besides loopback")
        assert "add --self-signed to serve https" in server.printed
        with browser_page(playwright_instance, camera_file) as page:
            page.goto(f"http://{address.group(1)}:{server.port}/?token={server.token}")
            page.wait_for_function("() => window.ocularStudio && window.ocularStudio.stats().framesReceived >= 1", timeout=20000)
            assert not page.evaluate("() => window.isSecureContext")
            assert page.evaluate("() => window.ocularStudio.stats().source") == "still"
            notice = page.inner_text("#notice")
            assert "No camera over plain http" in notice and "--self-signed" in notice, notice
    finally:
        server.stop()


PHONE_PAGES = [("light-work", ""), ("many-masks", "many-masks.html"), ("bean-counter", "bean-counter.html"), ("samples", "samples.html"), ("filters", "filters.html"), ("gallery", "gallery.html")]


@pytest.mark.parametrize("orientation, size", [("portrait", (390, 844)), ("landscape", (844, 390))])
def test_every_page_on_a_phone_fills_the_width_with_a_bottom_sheet_and_finger_sized_controls(
        playwright_instance, studio, beans_camera_file, orientation, size):
    width, height = size
    with browser_page(playwright_instance, beans_camera_file, viewport={"width": width, "height": height},
                      is_mobile=True, has_touch=True, device_scale_factor=2) as page:
        for name, path in PHONE_PAGES:
            page.goto(studio.url + path)
            nav = page.locator(".nav").bounding_box()
            assert nav["x"] + nav["width"] <= width + 0.5, (name, nav)
            if name == "gallery":
                page.wait_for_function("document.body?.dataset.items !== undefined", timeout=10000)
                screenshot(page, f"phone-{orientation}-{name}.png")
                continue
            page.wait_for_function("window.ocularStudio && window.ocularStudio.stats().framesReceived >= 3", timeout=20000)
            # A phone starts its back camera, shown unmirrored.
            assert page.evaluate("window.ocularStudio.stats().camera") == "back", name
            assert page.evaluate("getComputedStyle(document.getElementById('output')).transform") == "none"
            stage = page.locator(".stage").bounding_box()
            panel = page.locator("main > aside")
            handle = page.locator(".sheet-handle")
            if orientation == "portrait":
                assert stage["x"] == 0 and abs(stage["width"] - width) < 0.5, (name, stage)  # the preview fills the width
            # Every control in the toolbar and the open sheet takes a finger.
            if page.evaluate("document.querySelector('main > aside').dataset.sheet") == "closed":
                handle.tap()
            page.wait_for_function("document.querySelector('main > aside').dataset.sheet === 'open'")
            small = page.evaluate("""() => [...document.querySelectorAll('.toolbar button, .toolbar select, .toolbar input[type=range], main > aside button')]
                .filter((element) => element.offsetParent !== null)
                .map((element) => [element.id || element.className || element.textContent.trim(), element.getBoundingClientRect().height])
                .filter(([, size]) => size < 44)""")
            assert small == [], (name, small)
            open_preview = page.locator(".stage").bounding_box()
            box = panel.bounding_box()
            # The sheet sits under the preview (beside it on its side), never over it.
            if orientation == "portrait":
                assert open_preview["y"] + open_preview["height"] <= box["y"] + 0.5, (name, open_preview, box)
                assert open_preview["height"] >= 240, (name, open_preview)
            else:
                assert open_preview["x"] + open_preview["width"] <= box["x"] + 0.5, (name, open_preview, box)
            screenshot(page, f"phone-{orientation}-{name}.png")
            handle.tap()
            page.wait_for_function("document.querySelector('main > aside').dataset.sheet === 'closed'")
            closed = panel.bounding_box()
            assert (closed["height"] if orientation == "portrait" else closed["width"]) <= 49, (name, closed)
            grown = page.locator(".stage").bounding_box()
            assert grown["width"] * grown["height"] > open_preview["width"] * open_preview["height"], "closing the sheet gives the preview its room"
            if name == "light-work":
                screenshot(page, f"phone-{orientation}-{name}-closed.png")
