#!/usr/bin/env python3
"""`make bench`'s batch rows: `ocular batch` against what a user would run instead, in one run.

    bench_batch.py --ocular PATH [--quick] [--ray-python PATH]

Over COUNT pictures of 1280x720 (Benchmarks/batch/make_pictures.py, made once into the user's cache
folder) with white balance then faces:
- `ocular batch --jobs 2`, alternated with the pool below, three times each (their medians);
- a shell loop of `ocular apply`, one process a file (timed over the first tenth: its rate per file does
  not depend on the count, and the whole count would take minutes);
- a Python cv2 script doing the same work with multiprocessing.Pool(2): imread, xphoto's gray-world
  white balance, the textbook's face pipeline (bench_faces.py's), the boxes drawn, imwrite, a results line;
- deploy/ray/ocular_batch.py on a one-machine Ray cluster of 2 CPUs (when .venv-ray has Ray), its
  start-up not counted.
The faces stage runs its textbook profile: the same cascades and settings as the cv2 script, so both do
the same work. Then memory: `ocular batch`'s largest resident size over 1,000 and over 10,000 inputs.
Prints a table with each ratio against its goal.
"""

import argparse
import json
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import cv2
import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
RECIPE = '{"stages":[{"stage":"whiteBalance"},{"stage":"faces","profile":"textbook"}]}'
ROUNDS, ROUNDS_QUICK = 3, 1
CASCADES = "/usr/share/opencv4/haarcascades/haarcascade_"
sys.path.insert(0, os.path.join(REPOSITORY, "Benchmarks", "python"))
from bench_faces import faces_in  # noqa: E402  (the textbook's pipeline, as the faces rows time it)


def cache_folder():
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "ocular", "bench-batch")


def pictures(count, width=1280, height=720):
    folder = os.path.join(cache_folder(), f"{width}x{height}-{count}")
    if len([name for name in os.listdir(folder) if name.endswith(".jpg")] if os.path.isdir(folder) else []) != count:
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run([sys.executable, os.path.join(HERE, "make_pictures.py"), folder + ".partial", str(count), str(width), str(height)], check=True)
        os.rename(folder + ".partial", folder)
    return folder


def warm(folder):
    """Reads every picture once, so that no run pays for the disk that the next does not."""
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), "rb") as picture:
            while picture.read(1 << 20):
                pass


def timed(command, **options):
    """Runs a command; returns (seconds, largest resident size in MB)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **options)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"bench_batch: {' '.join(command[:3])}… exited with {code}")
    return seconds, usage.ru_maxrss / 1024


# The Python pool's worker: the same work as the recipe, with plain cv2.
_cascades = None


def _load_cascades():
    global _cascades
    _cascades = [cv2.CascadeClassifier(CASCADES + name + ".xml")
                 for name in ("frontalface_alt", "frontalcatface_extended", "righteye_2splits", "lefteye_2splits")]


def _white_balance(image):
    # What a cv2 user calls for gray world: xphoto's, counting the pixels below 0.9 saturation as Ocular does.
    balance = cv2.xphoto.createGrayworldWB()
    balance.setSaturationThreshold(0.9)
    return balance.balanceWhite(image)


def _python_one(job):
    path, output = job
    started = time.perf_counter()
    image = cv2.imread(path)
    if image is None:
        return json.dumps({"path": path, "status": "failed"})
    balanced = _white_balance(image)
    faces = faces_in(balanced, *_cascades)
    thickness = max(1, min(balanced.shape[:2]) // 360)
    for x, y, w, h, _ in faces:
        cv2.rectangle(balanced, (x, y), (x + w, y + h), (0, 255, 255), thickness)
    cv2.imwrite(output, balanced, [cv2.IMWRITE_JPEG_QUALITY, 95])
    return json.dumps({"path": path, "output": output, "status": "done", "faces": faces,
                       "milliseconds": round((time.perf_counter() - started) * 1000)})


def python_pool(folder, output):
    os.makedirs(output, exist_ok=True)
    jobs = [(os.path.join(folder, name), os.path.join(output, name)) for name in sorted(os.listdir(folder)) if name.endswith(".jpg")]
    started = time.perf_counter()
    with multiprocessing.Pool(2, initializer=_load_cascades) as pool, open(os.path.join(output, "results.jsonl"), "w") as results:
        for line in pool.imap_unordered(_python_one, jobs, chunksize=8):
            results.write(line + "\n")
    return time.perf_counter() - started


def ray_batch(ray_python, ocular, folder, output):
    """Seconds for ocular_batch.py on a fresh one-machine cluster of 2 CPUs, or None without Ray."""
    ray = os.path.join(os.path.dirname(ray_python), "ray")
    if not os.path.exists(ray):
        return None
    environment = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    subprocess.run([ray, "start", "--head", "--num-cpus", "2", "--port", "6389", "--include-dashboard", "false", "--disable-usage-stats"],
                   check=True, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        seconds, _ = timed([ray_python, os.path.join(REPOSITORY, "deploy", "ray", "ocular_batch.py"), folder, "--recipe", RECIPE,
                            "-o", output, "--address", "127.0.0.1:6389", "--ocular", ocular], env=environment)
    finally:
        subprocess.run([ray, "stop", "--force"], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return seconds


def same_outputs(first, second):
    names = sorted(os.listdir(first))
    for name in names:
        if name.endswith(".jpg"):
            with open(os.path.join(first, name), "rb") as a, open(os.path.join(second, name), "rb") as b:
                if a.read() != b.read():
                    return False
    return True


def memory(ocular, work, count):
    """`ocular batch`'s largest resident size (MB) over a manifest of `count` inputs: 100 small pictures,
    each listed count/100 times under its own output name."""
    small = pictures(100, 320, 180)
    names = sorted(name for name in os.listdir(small) if name.endswith(".jpg"))
    manifest = os.path.join(work, f"manifest-{count}.jsonl")
    with open(manifest, "w") as lines:
        for index in range(count):
            lines.write(json.dumps({"path": os.path.join(small, names[index % len(names)]), "output": f"m/{index:05d}.jpg"}) + "\n")
    output = os.path.join(work, f"memory-{count}")
    seconds, resident = timed([ocular, "batch", manifest, "--recipe", '{"stages":[{"stage":"whiteBalance"}]}', "-o", output, "--jobs", "2"])
    shutil.rmtree(output)
    return resident, seconds


def verdict(met):
    return "met" if met else "NOT met"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ocular", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--figures", help="write the run's figures as JSON to this file, for scripts/bench-compare.py")
    parser.add_argument("--ray-python", default=os.path.join(REPOSITORY, ".venv-ray", "bin", "python"))
    options = parser.parse_args()
    ocular = os.path.abspath(options.ocular)
    count = 300 if options.quick else 2000
    folder = pictures(count)
    names = sorted(name for name in os.listdir(folder) if name.endswith(".jpg"))
    loop_count = count // 10
    work = tempfile.mkdtemp(prefix="ocular-bench-batch-")
    try:
        # The batch and the pool alternate, ROUNDS times each, over pictures already in the page cache:
        # one pair of runs differs from the next by about 5 % on this machine, as much as the two differ.
        warm(folder)
        batch_out = os.path.join(work, "batch")
        batch_runs, pool_runs = [], []
        for round_index in range(ROUNDS_QUICK if options.quick else ROUNDS):
            output = batch_out if round_index == 0 else os.path.join(work, "batch-again")
            seconds, resident = timed([ocular, "batch", folder, "--recipe", RECIPE, "-o", output, "--jobs", "2"])
            batch_runs.append(count / seconds)
            if round_index == 0:
                batch_resident = resident
            else:
                shutil.rmtree(output)
            pool_runs.append(count / python_pool(folder, os.path.join(work, "python")))
            shutil.rmtree(os.path.join(work, "python"))
        batch_rate, pool_rate = statistics.median(batch_runs), statistics.median(pool_runs)
        pair_ratios = sorted(batch / pool for batch, pool in zip(batch_runs, pool_runs))

        loop_out = os.path.join(work, "loop")
        os.makedirs(loop_out)
        listed = os.path.join(work, "loop-files.txt")
        with open(listed, "w") as files:
            files.write("\n".join(os.path.join(folder, name) for name in names[:loop_count]) + "\n")
        script = f'while read -r f; do "$0" apply "$f" --recipe \'{RECIPE}\' -o "$1/$(basename "$f")" > /dev/null || exit 1; done < "$2"'
        loop_seconds, _ = timed(["bash", "-c", script, ocular, loop_out, listed])
        loop_rate = loop_count / loop_seconds
        loop_same = all(same_outputs_one(os.path.join(loop_out, name), os.path.join(batch_out, os.path.basename(folder), name)) for name in names[:loop_count])
        shutil.rmtree(loop_out)

        ray_out = os.path.join(work, "ray")
        ray_seconds = ray_batch(options.ray_python, ocular, folder, ray_out) if os.path.exists(options.ray_python) else None
        ray_same = ray_seconds is not None and same_outputs(os.path.join(batch_out, os.path.basename(folder)), os.path.join(ray_out, os.path.basename(folder)))
        shutil.rmtree(batch_out)
        shutil.rmtree(ray_out, ignore_errors=True)

        small_resident, small_seconds = memory(ocular, work, 1000)
        large_resident, large_seconds = memory(ocular, work, 10000)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"Batch: {count} pictures of 1280x720 (files/s: medians over the alternated runs), white balance then faces (the textbook profile: the cv2 script's cascades and settings)")
    rows = [("ocular batch --jobs 2", batch_rate, ""),
            (f"shell loop of ocular apply (rate over {loop_count} files)", loop_rate,
             f"batch {batch_rate / loop_rate:.2f}x it (>= 1.8: {verdict(batch_rate >= 1.8 * loop_rate)}); same bytes: {loop_same}"),
            ("Python cv2, multiprocessing.Pool(2)", pool_rate,
             f"batch {statistics.median(pair_ratios):.2f}x it, the median of {len(pair_ratios)} alternated pairs "
             f"({', '.join(f'{ratio:.2f}' for ratio in pair_ratios)}; >= 1.0: {verdict(statistics.median(pair_ratios) >= 1.0)})")]
    if ray_seconds is not None:
        ray_rate = count / ray_seconds
        rows.append(("Ray, 2 CPUs on this machine (ocular_batch.py)", ray_rate,
                     f"{ray_rate / batch_rate:.2f}x batch (>= 0.8: {verdict(ray_rate >= 0.8 * batch_rate)}); same bytes: {ray_same}"))
    else:
        rows.append(("Ray", float("nan"), "not run: no Ray in .venv-ray (make eval installs it)"))
    for name, rate, note in rows:
        print(f"  {name:<58} {rate:8.1f} files/s  {note}")
    # Half the pairs' range over their median: how far one alternated pair strays in this run.
    pair_spread = (pair_ratios[-1] - pair_ratios[0]) / 2 / statistics.median(pair_ratios) if len(pair_ratios) > 1 else None
    figures = [figure("batch/Python pool files/s", statistics.median(pair_ratios), "higher", "runs", pair_spread),
               figure("batch/shell loop files/s", batch_rate / loop_rate, "higher", "runs"),
               figure("batch resident size 10,000/1,000 inputs", large_resident / small_resident, "lower", "runs")]
    if ray_seconds is not None:
        figures.append(figure("Ray/batch files/s", ray_rate / batch_rate, "higher", "runs"))
    flat = large_resident <= 1.1 * small_resident
    print(f"  ocular batch's largest resident size: {batch_resident:.0f} MB over the {count} pictures; over 1,000 small inputs "
          f"{small_resident:.0f} MB ({small_seconds:.1f} s), over 10,000 {large_resident:.0f} MB ({large_seconds:.1f} s): "
          f"{large_resident / small_resident:.2f}x (flat, <= 1.1: {verdict(flat)})")
    if options.figures:
        write_figures(options.figures, "bench_batch.py", figures)


def figure(name, value, better, kind, spread=None):
    """One figure for scripts/bench-compare.py; `kind` and `spread` as ocular-bench's Figures.swift says."""
    row = {"name": name, "value": value, "better": better, "kind": kind}
    if spread is not None:
        row["spread"] = spread
    return row


def write_figures(path, source, figures):
    with open(path, "w") as file:
        json.dump({"source": source, "figures": figures}, file, indent=2, sort_keys=True)


def same_outputs_one(first, second):
    with open(first, "rb") as a, open(second, "rb") as b:
        return a.read() == b.read()


if __name__ == "__main__":
    main()
