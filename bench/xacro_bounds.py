"""Bounded xacro expansion (:mod:`sdf_bridge.description.xacro.child_process`): what the bounds stop
and what the child process costs.

1. Doubling payloads (``n`` nested doublings of a 16-character property, ~1.4 kB of XML for
   n = 27): for each n, the bounded expansion (the default bounds) and, as the peer, the same
   file expanded in-process (``expand_in_process``: what the bridge did before) in a process of
   its own capped at ``--peer-cap-mb`` of address space so that it cannot take the machine
   down. Printed per run: outcome, wall time and the peak resident memory (``ru_maxrss``) of the
   whole process tree doing the expansion.
2. Cost of the child on real files: the demo arm and PR2 (``../shared``, when present), median
   of ``--repeat`` expansions, bounded vs in-process in the same run.

Run: ``python bench/xacro_bounds.py [--doublings 20 24 27 30] [--repeat 5] [--peer-cap-mb 4096]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

#: Expands argv[2] (bounded or in-process per argv[1]) and prints one JSON line.
_RUN = """
import json, re, resource, sys, time
sys.path.insert(0, sys.argv[4])
if sys.argv[1] == "peer":
    cap = int(sys.argv[3]) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    from sdf_bridge.description.xacro.expand import expand_in_process as expand
else:
    from sdf_bridge.description.xacro.child_process import expand_xacro as expand
start = time.perf_counter()
try:
    text, _ = expand(sys.argv[2])
    outcome = f"expanded, {len(text)} bytes"
except MemoryError:
    outcome = f"MemoryError at the peer's {sys.argv[3]} MiB cap"
except Exception as exc:
    outcome = f"{type(exc).__name__}: {str(exc).split(': ', 1)[-1].split('. Fix')[0]}"
wall = time.perf_counter() - start
# this image's peak
own = int(re.search(r"VmHWM:\\s+(\\d+) kB", open("/proc/self/status").read()).group(1))
rss = max(own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(json.dumps({"outcome": outcome, "wall": wall, "rss_mb": rss / 1024}))
"""


def doubling_payload(n: int) -> str:
    """``n`` nested doublings of a 16-character property."""
    ns = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
    lines = [f'<robot name="d" {ns}>', '<xacro:property name="p0" value="aaaaaaaaaaaaaaaa"/>']
    lines += [
        f'<xacro:property name="p{i}" value="${{p{i - 1}+p{i - 1}}}"/>' for i in range(1, n + 1)
    ]
    return "\n".join(lines + [f'<link name="${{p{n}}}"/>', "</robot>"])


def run(kind: str, path: Path, cap_mb: int) -> dict:
    """One expansion in a fresh process; its JSON result."""
    done = subprocess.run(
        [sys.executable, "-c", _RUN, kind, str(path), str(cap_mb), str(REPO)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def median_seconds(function, path: Path, repeat: int, **kwargs) -> float:
    """Median wall time of ``repeat`` calls ``function(path, **kwargs)``, s."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function(path, **kwargs)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Parse the arguments and print both tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--doublings", type=int, nargs="+", default=[20, 24, 27, 30])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--peer-cap-mb", type=int, default=4096)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print("\ndoubling payloads (peak RSS of the expanding process tree)")
    print(f"{'n':>3} {'bytes':>6}  {'expansion':<10} {'wall s':>7} {'RSS MB':>8}  outcome")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.doublings:
            path = Path(tmp) / f"d{n}.urdf.xacro"
            path.write_text(doubling_payload(n))
            for kind in ("bounded", "peer"):
                result = run(kind, path, args.peer_cap_mb)
                label = "bounded" if kind == "bounded" else "in-process"
                print(
                    f"{n:>3} {path.stat().st_size:>6}  {label:<10} {result['wall']:>7.2f} "
                    f"{result['rss_mb']:>8.1f}  {result['outcome']}"
                )
    from sdf_bridge.description.xacro.child_process import expand_xacro
    from sdf_bridge.description.xacro.expand import expand_in_process

    files = {"demo_arm": (REPO / "urdf" / "demo_arm.urdf.xacro", {}, {})}
    shared = (
        Path(os.environ.get("SDF_BRIDGE_SHARED", REPO.parent / "shared")) / "robots" / "pr2" / "src"
    )
    pr2 = shared / "pr2_common" / "pr2_description" / "robots" / "pr2.urdf.xacro"
    if pr2.is_file():
        packages = {"pr2_description": shared / "pr2_common" / "pr2_description"}
        files["pr2"] = (pr2, {"KINECT1": "false", "KINECT2": "false"}, packages)
    else:
        print(f"\n(pr2 left out: {pr2} not found)")
    print(f"\ncost of the bounded child (median of {args.repeat})")
    print(f"{'robot':<10} {'in-process s':>12} {'bounded s':>10} {'child cost s':>12}")
    for name, (path, xargs, packages) in files.items():
        inside = median_seconds(
            expand_in_process, path, args.repeat, xacro_args=xargs, package_paths=packages
        )
        bounded = median_seconds(
            expand_xacro, path, args.repeat, xacro_args=xargs, package_paths=packages
        )
        print(f"{name:<10} {inside:>12.3f} {bounded:>10.3f} {bounded - inside:>12.3f}")
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
