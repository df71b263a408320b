#!/usr/bin/env python3
"""ocular_batch.py on a real local Ray cluster, with a worker node killed mid-run.

    OCULAR=.build/debug/ocular python -m unittest deploy/ray/test_ray_batch.py

Starts a head node (`ray start --head`, one CPU) and a worker node (`ray start --address`, one CPU), runs
ocular_batch.py over 500 generated pictures, kills every process of the worker node (`ray start`, its
raylet, its Ray workers, their `ocular`) with SIGKILL while it runs a shard, and checks
that every output exists once, byte-equal to a one-machine `ocular batch` of the same inputs, and that
the merged results file has a done line for each input. scripts/ray-tests.sh runs it in .venv-ray.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
OCULAR = os.path.abspath(os.environ.get("OCULAR", os.path.join(REPOSITORY, ".build", "debug", "ocular")))
BIN = os.path.dirname(sys.executable)
RAY = os.path.join(BIN, "ray")
RECIPE = '{"stages":[{"stage":"whiteBalance"},{"stage":"faces","profile":"textbook"}]}'
PICTURES = 500
SHARDS = 16


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def visible_files(folder):
    found = []
    for root, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]
        found += [os.path.relpath(os.path.join(root, name), folder) for name in files if not name.startswith(".")]
    return sorted(found)


def process_table():
    """Every process's parent and command line, from /proc."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read().split(b"\0")
        except (OSError, ValueError):
            continue
        table[int(entry)] = (parent, command)
    return table


def node_processes(root):
    """The worker node: `ray start --block` and every process under it (raylet, Ray workers, their
    `ocular`), whatever process group or session Ray gave them."""
    table = process_table()
    found, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, (its_parent, _) in table.items():
            if its_parent == parent and pid not in found:
                found.add(pid)
                frontier.append(pid)
    return found, table


class RayBatchTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="ocular-ray-")
        self.environment = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
        self.worker = None

    def tearDown(self):
        if self.worker and self.worker.poll() is None:
            self.worker.kill()
        self.worker and self.worker.wait()
        subprocess.run([RAY, "stop", "--force"], env=self.environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.folder, ignore_errors=True)

    def test_lost_worker_changes_nothing(self):
        inputs = os.path.join(self.folder, "pictures")
        subprocess.run([sys.executable, os.path.join(REPOSITORY, "Benchmarks", "batch", "make_pictures.py"), inputs, str(PICTURES), "640", "360"],
                       check=True)
        reference = os.path.join(self.folder, "one-machine")
        subprocess.run([OCULAR, "batch", inputs, "--recipe", RECIPE, "-o", reference, "--jobs", "2"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        port = free_port()
        address = f"127.0.0.1:{port}"
        subprocess.run([RAY, "start", "--head", "--num-cpus", "1", "--port", str(port), "--include-dashboard", "false",
                        "--disable-usage-stats"], check=True, env=self.environment, stdout=subprocess.DEVNULL)
        # --block keeps the node's processes under this one: killing them all is losing the machine.
        self.worker = subprocess.Popen([RAY, "start", "--address", address, "--num-cpus", "1", "--block"], env=self.environment,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            status = subprocess.run([RAY, "status", "--address", address], env=self.environment, capture_output=True, text=True)
            if "/2.0 CPU" in status.stdout:
                break
            self.assertLess(time.monotonic(), deadline, f"the worker node never joined: {status.stdout}{status.stderr}")
            time.sleep(0.5)

        output = os.path.join(self.folder, "cluster")
        driver = subprocess.Popen([sys.executable, os.path.join(HERE, "ocular_batch.py"), inputs, "--recipe", RECIPE, "-o", output,
                                   "--address", address, "--shards", str(SHARDS), "--ocular", OCULAR],
                                  env=self.environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # Kill the worker node while it runs a shard, once a fifth of the outputs are written.
        killed_shard = None
        deadline = time.monotonic() + 240
        while killed_shard is None and driver.poll() is None and time.monotonic() < deadline:
            written = len([name for name in visible_files(output) if name.endswith(".jpg")])
            node, table = node_processes(self.worker.pid)
            running = [table[pid][1] for pid in node if table[pid][1][0].endswith(b"ocular") and b"batch" in table[pid][1]]
            if running and written >= PICTURES // 5:
                killed_shard = running[0][running[0].index(b"--shard") + 1].decode()
                for pid in node:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
            time.sleep(0.05)
        self.assertIsNotNone(killed_shard, "the worker node never ran a shard while the batch was under way")
        written_at_kill = len([name for name in visible_files(output) if name.endswith(".jpg")])
        self.assertLess(written_at_kill, PICTURES, "the batch had finished before the kill")

        stdout, stderr = driver.communicate(timeout=300)
        self.assertEqual(driver.returncode, 0, f"ocular_batch.py failed:\n{stdout}\n{stderr}")
        self.assertIn(f"{PICTURES} inputs from {SHARDS} files, {PICTURES} done, 0 failed", stdout)

        pictures = [name for name in visible_files(reference) if name.endswith(".jpg")]
        self.assertEqual(len(pictures), PICTURES)
        self.assertEqual([name for name in visible_files(output) if name.endswith(".jpg")], pictures)
        for name in pictures:
            with open(os.path.join(reference, name), "rb") as expected, open(os.path.join(output, name), "rb") as got:
                self.assertEqual(expected.read(), got.read(), name)
        with open(os.path.join(output, "results.jsonl")) as merged:
            lines = [json.loads(line) for line in merged]
        self.assertEqual(len(lines), PICTURES)
        self.assertTrue(all(line["status"] == "done" for line in lines))
        self.assertEqual(sorted(line["path"] for line in lines), sorted(os.path.join(inputs, name.split("/", 1)[1]) for name in pictures))
        print(f"\nray: killed the worker node running shard {killed_shard} with {written_at_kill} of {PICTURES} outputs written; "
              f"every output there once and byte-equal after the retry", file=sys.stderr)


if __name__ == "__main__":
    unittest.main()
