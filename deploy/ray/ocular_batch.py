#!/usr/bin/env python3
"""Runs `ocular batch` on a Ray cluster: one Ray task per shard, retried when a worker is lost.

    python ocular_batch.py INPUT... --recipe R -o OUTDIR [--address auto] [--shards N]
                           [--ocular PATH] [--max-retries 3] [-- EXTRA ocular batch OPTIONS]

Every node needs the `ocular` executable and the same paths to the inputs and OUTDIR (a shared volume:
NFS, a cluster file system). Each task runs `ocular batch ... --shard I/N --jobs 1 --opencv-threads 1 --resume` on one CPU;
Ocular picks the shard's inputs by a hash of their names, writes every output atomically and appends a
line per input to OUTDIR/results-I.jsonl. When a node dies, Ray runs its tasks again elsewhere, and
`--resume` makes the new attempt skip what the lost one finished. At the end the shards' results are
merged into OUTDIR/results.jsonl (`ocular batch merge`). Exit status: the number of failed inputs
(63 for 63 or more), as `ocular batch` gives it.

Why tasks per shard and not Ray Data's map_batches: the inputs and outputs are files, not a dataset;
Ocular's own shards and --resume already give disjoint, restartable units, so a lost worker costs at
most its shard's unfinished files; and one `ocular` process per shard pays its start-up (~0.2 s: OpenCV,
cascades) once for hundreds of files instead of once per batch of rows.
"""

import argparse
import ctypes
import os
import signal
import subprocess
import sys
import time

import ray

# Linux's prctl(PR_SET_PDEATHSIG): the `ocular` child ends when the Ray worker running it does, so a lost
# worker leaves no process writing behind the retry's back.
PR_SET_PDEATHSIG = 1


def _die_with_parent():
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass  # not Linux: the child may outlive a lost worker, and its outputs are still written atomically


class ShardFailed(Exception):
    """`ocular batch` could not run the shard (a signal, a bad option, an unwritable folder): retried."""


@ray.remote(num_cpus=1)
def run_shard(ocular, inputs, recipe, output, index, count, extra):
    command = [ocular, "batch", *inputs, "--recipe", recipe, "-o", output, "--shard", f"{index}/{count}",
               "--jobs", "1", "--opencv-threads", "1", "--resume", *extra]
    started = time.monotonic()
    finished = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              preexec_fn=_die_with_parent)
    # Statuses 0-63 count the failed inputs (recorded in the results file); 64 and above, or a signal,
    # mean the shard did not run through.
    if finished.returncode < 0 or finished.returncode >= 64:
        raise ShardFailed(f"shard {index}/{count}: ocular exited with {finished.returncode}: {finished.stderr.strip()[-400:]}")
    return {"shard": index, "status": finished.returncode, "seconds": time.monotonic() - started,
            "node": ray.get_runtime_context().get_node_id(), "summary": finished.stdout.strip()}


def main():
    arguments = sys.argv[1:]
    extra = []
    if "--" in arguments:
        split = arguments.index("--")
        arguments, extra = arguments[:split], arguments[split + 1:]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", help="files, folders and manifests, at the same paths on every node")
    parser.add_argument("--recipe", required=True, help="the recipe: JSON text, or a file every node can read")
    parser.add_argument("-o", "--output", required=True, help="the output folder, shared by every node")
    parser.add_argument("--address", default="auto", help="the Ray cluster (default: the one this machine belongs to)")
    parser.add_argument("--shards", type=int, default=0, help="how many tasks (default: 4 per CPU of the cluster)")
    parser.add_argument("--ocular", default="ocular", help="the ocular executable on every node")
    parser.add_argument("--max-retries", type=int, default=3, help="attempts after a lost worker or a failed shard")
    options = parser.parse_args(arguments)

    inputs = [os.path.abspath(path) for path in options.inputs]
    output = os.path.abspath(options.output)
    recipe = options.recipe if options.recipe.lstrip().startswith("{") else os.path.abspath(options.recipe)
    ray.init(address=options.address, logging_level="ERROR", log_to_driver=False)
    shards = options.shards or max(1, 4 * int(ray.cluster_resources().get("CPU", 1)))
    task = run_shard.options(max_retries=options.max_retries, retry_exceptions=[ShardFailed])
    started = time.monotonic()
    pending = [task.remote(options.ocular, inputs, recipe, output, index, shards, extra) for index in range(shards)]
    failed_inputs = 0
    done = 0
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        result = ray.get(ready[0])
        done += 1
        failed_inputs += result["status"]
        print(f"ocular_batch: shard {result['shard']} done in {result['seconds']:.1f} s ({done}/{shards}): {result['summary']}",
              file=sys.stderr, flush=True)
    results = [os.path.join(output, f"results-{index}.jsonl") for index in range(shards)]
    merge = subprocess.run([options.ocular, "batch", "merge", *results, "-o", os.path.join(output, "results.jsonl")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if merge.returncode >= 64:
        print(f"ocular_batch: merging the results failed: {merge.stderr.strip()}", file=sys.stderr)
        sys.exit(merge.returncode)
    print(f"{merge.stdout.strip()} ({shards} shards in {time.monotonic() - started:.1f} s)")
    sys.exit(min(merge.returncode, 63))


if __name__ == "__main__":
    main()
