"""The studio belongs to the user who started it: with its Content-Security-Policy in force its pages
work, and another web page the user visits (another origin, or a DNS-rebound name) achieves nothing
with fetch, a no-cors POST, DELETE or a WebSocket save."""
import http.server
import json
import os
import subprocess
import threading
import time
import urllib.request
from contextlib import contextmanager

import pytest

from conftest import CHROMIUM, DATA, OCULAR, Studio, browser_page

ATTACK_PAGE = """<!doctype html><meta charset="utf-8"><title>a page on another site</title>
<script>
const studio = "STUDIO";
window.results = {};
async function attempt(name, work) {
  try { window.results[name] = await work(); } catch (error) { window.results[name] = "blocked: " + error; }
}
(async () => {
  await attempt("read", async () => { const r = await fetch(studio + "api/gallery"); return "read " + (await r.text()).slice(0, 80); });
  await attempt("photo", async () => { const r = await fetch(studio + "api/gallery/1"); return "read " + r.status; });
  await attempt("upload", async () => {
    const r = await fetch(studio + "api/sources", { method: "POST", mode: "no-cors", body: "not a picture, sent as text/plain" });
    return "sent, opaque answer " + r.type;
  });
  await attempt("delete", async () => { const r = await fetch(studio + "api/gallery/1", { method: "DELETE" }); return "status " + r.status; });
  await attempt("deleteNoCors", async () => { const r = await fetch(studio + "api/gallery/1", { method: "DELETE", mode: "no-cors" }); return "sent " + r.type; });
  window.results.socket = await new Promise((resolve) => {
    const socket = new WebSocket(studio.replace("http", "ws") + "api/stream");
    socket.onopen = () => { socket.send(JSON.stringify({ type: "save", caption: "stolen" })); setTimeout(() => resolve("opened"), 1500); };
    socket.onerror = () => resolve("refused");
  });
  window.done = true;
})();
</script>"""


@contextmanager
def attacker_site(studio_url):
    """Serves ATTACK_PAGE from another origin (another port of 127.0.0.1)."""
    page = ATTACK_PAGE.replace("STUDIO", studio_url).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *arguments):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


def gallery_items(studio):
    """The gallery as the studio's own client sees it."""
    with urllib.request.urlopen(studio.url + "api/gallery") as response:
        return json.load(response)["items"]


def wait_for(page, expression, timeout=20):
    """Polls with page.evaluate (wait_for_function evaluates with eval, which the policy forbids)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if page.evaluate(expression):
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {expression}")


def test_another_site_can_neither_read_nor_change_anything(playwright_instance, studio):
    subprocess.run([str(OCULAR), "gallery", "add", str(DATA / "images" / "coffee.png"), "--gallery", str(studio.gallery)],
                   check=True, capture_output=True)
    before = gallery_items(studio)
    assert [item["id"] for item in before] == [1]
    with attacker_site(studio.url) as attacker, browser_page(playwright_instance, bypass_csp=False) as page:
        page.goto(attacker)
        wait_for(page, "window.done === true")
        results = page.evaluate("window.results")
    assert results["read"].startswith("blocked"), results
    assert results["photo"].startswith("blocked"), results
    assert results["delete"].startswith("blocked"), results
    assert results["socket"] == "refused", results
    # The no-cors requests leave the browser; the studio refuses them (Origin and content type).
    after = gallery_items(studio)
    assert [(item["id"], item["caption"]) for item in after] == [(item["id"], item["caption"]) for item in before]
    with urllib.request.urlopen(studio.url + "api/gallery/1") as response:
        assert response.status == 200


def test_a_dns_rebound_name_is_refused(playwright_instance, studio):
    """A page whose own name is re-pointed at 127.0.0.1 sends that name as Host: it gets 403 only."""
    port = studio.url.rstrip("/").rsplit(":", 1)[1]
    browser = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, headless=True,
        args=["--host-resolver-rules=MAP rebound.example 127.0.0.1", "--disable-dev-shm-usage"])
    try:
        page = browser.new_page()
        response = page.goto(f"http://rebound.example:{port}/api/gallery")
        assert response.status == 403
        assert "answers only to its own address" in page.content()
    finally:
        browser.close()


def test_the_pages_work_under_their_content_security_policy(playwright_instance, studio, beans_camera_file):
    violations = []
    with browser_page(playwright_instance, beans_camera_file, bypass_csp=False) as page:
        page.on("console", lambda message: violations.append(message.text) if "Content Security Policy" in message.text else None)
        for name in ["", "many-masks.html", "bean-counter.html"]:
            page.goto(studio.url + name)
            wait_for(page, "document.querySelector('canvas') !== null && window.ocularStudio && "
                           "window.ocularStudio.stats().framesReceived > 2")
            # The camera's frames are encoded in a worker, which the policy allows as the page's own script.
            assert page.evaluate("window.ocularStudio.stats().framesEncodedOffThread") > 0, name
        page.goto(studio.url + "gallery.html")
        wait_for(page, "document.readyState === 'complete'")
        response = page.goto(studio.url)
        headers = response.headers
    assert violations == []
    assert headers["content-security-policy"].startswith("default-src 'self'")
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_a_read_only_gallery_turns_saving_off_and_says_so(playwright_instance, tmp_path):
    """The studio starts on a gallery it cannot write: every page says so and offers no Save."""
    gallery = tmp_path / "gallery"
    subprocess.run([str(OCULAR), "gallery", "add", str(DATA / "images" / "coffee.png"), "--gallery", str(gallery)],
                   check=True, capture_output=True)
    folders = [str(gallery)] + [str(gallery / name) for name in ("photos", "videos", "thumbnails")]
    if os.getuid() == 0:
        if subprocess.run(["chattr", "+i", *folders], capture_output=True).returncode != 0:
            pytest.skip("root on a file system without the immutable attribute: no read-only folder to test")
        undo = ["chattr", "-i", *folders]
    else:
        for folder in folders:
            os.chmod(folder, 0o555)
        undo = ["chmod", "755", *folders]
    server = Studio(gallery)
    try:
        with browser_page(playwright_instance) as page:
            for name in ["", "many-masks.html"]:
                page.goto(server.url + name)
                page.wait_for_function("document.body?.dataset.saving === 'off'", timeout=20000)
                assert "The gallery is read-only" in page.inner_text("#notice")
            page.goto(server.url)
            page.wait_for_function("document.body?.dataset.saving === 'off'", timeout=20000)
            assert not page.is_visible("#save")
            page.goto(server.url + "gallery.html")
            page.wait_for_selector("img")
    finally:
        server.stop()
        subprocess.run(undo, check=True)
