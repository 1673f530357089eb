#!/usr/bin/env python3
"""Check an mlpscope JSON result with a real parser: it parses, and every key
the schema promises is present with the right type. Usage: check_json.py FILE [SECTION[=N] ...].
Prints what is missing and exits 1, or exits 0."""
import json
import sys

NUM = (int, float)


class Array:
    """An array that may be empty (what a run that met none writes: a guest
    whose OS reports no caches, an input of no block), each item SHAPE."""

    def __init__(self, item):
        self.item = item


POINT = {"lanes": int, "ns_per_access": NUM, "speedup": NUM, "concurrency_littles_law": NUM, "concurrency": NUM,
         "useful_gbps": NUM, "line_gbps": NUM, "trials_ns": list}
MLP = {
    "working_set_bytes": int, "spacing_bytes": int, "noise_floor_pct": NUM,
    "pages": {"requested": str, "huge_bytes_obtained": int, "total_bytes": int},
    "layout_check": {"nodes": int, "distinct_nodes_walked": int,
                     "distinct_lines_walked": int, "ok": bool},
    "sweep": [POINT], "control_unrolled": [POINT],
    "estimate": {"rule_5pct_lanes": int, "rule_1pct_lanes": int,
                 "fit_saturation_lanes": NUM, "fit_plateau_concurrency": NUM,
                 "fit_uncertainty": NUM, "peak_concurrency": NUM,
                 "repeats": int, "repeats_agreeing": int},
    "core": {"measured": bool, "chain_bytes": int, "count_source": str},
}
MACHINE = {
    "cpu_model": str,
    "caches_reported": Array({"level": int, "type": str, "size_bytes": int, "source": str}),
    "thp": {"enabled": str, "defrag": str},
    "core_clock_mhz": {"min": NUM, "max": NUM, "samples": list},
    "pmu": {"hardware_counters": bool, "paranoid": int},
}
NOISE = {"floor_pct": NUM, "estimators": [{"name": str, "spread_pct": NUM}]}
LATENCY = {
    "points": [{"size_bytes": int, "pages": str, "chase_ns": NUM, "stream_ns": NUM, "layout_ok": bool}],
    "levels_detected": [{"level": int, "size_bytes": int, "latency_ns": NUM}],
    "prefetch_ratio_at_max": NUM, "translation_ns_at_max": NUM, "non_monotonic": list,
}
BANDWIDTH = {"kernels": [{"kernel": str, "threads": int, "gbps": NUM}], "rfo_counted": bool}
MULTICORE = {"points": [{"threads": int, "lanes": int, "concurrency_total": NUM, "accesses_per_ns": NUM}]}
LOADED = {"idle_latency_ns": NUM, "curve": [{"bw_gbps": NUM, "latency_ns": NUM}]}
APP_POINT = {"k": int, "ns_per_item": NUM, "ns_per_dependent_load": (int, float, type(None)),
             "speedup": NUM, "chase_speedup": NUM, "ratio": NUM, "occupancy_inferred": NUM,
             "chase_concurrency_littles_law": NUM, "occupancy": NUM,
             "trials_ns_per_item": list}
APP_KERNEL = {
    "params": dict, "setup_seconds": NUM, "stages": [{"name": str, "seconds": NUM}],
    "variants": [{"name": str, "points": [APP_POINT], "output_hash": str}],
    "check": {"ok": bool, "runs_checked": int, "expected_hash": str},
    "chase": {"ran": bool}, "headline": {"text": str},
}
# app.bzip2 is a whole decoder, not a kernel's points (docs/OUTPUT.md).
APP_BZIP2 = {
    "input": str, "compressed_bytes": int, "decoded_bytes": int, "blocks": int, "streams": int,
    "check_ok": bool, "output_sha256": str,
    "variants": Array({"k": int, "warm_seconds": NUM, "mb_per_s": NUM, "trial_seconds": list,
                       "decode_paths": str}),
    "best": (dict, type(None)),
    "decode_axes": Array({"axis": str, "stage_speedup": NUM, "predicted_speedup": NUM,
                          "measured_speedup": NUM}),
    "workers": Array({"workers": int, "wall_seconds": NUM}), "seconds": NUM,
}
TOP = {
    "tool": str, "version": str,
    "provenance": {"binary_sha256": str, "compiler": str, "cflags": str, "cpu_model": str,
                   "kernel": str, "timestamp_utc": str, "affinity": str,
                   "clock": {"source": str, "ticks_per_ns": NUM}, "seed": int},
}


def check(value, shape, path, errors):
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            errors.append(f"{path}: not an object")
            return
        for key, sub in shape.items():
            if key not in value:
                errors.append(f"{path}.{key}: missing")
            else:
                check(value[key], sub, f"{path}.{key}", errors)
    elif isinstance(shape, Array):
        if not isinstance(value, list):
            errors.append(f"{path}: not an array")
            return
        for i, item in enumerate(value):
            check(item, shape.item, f"{path}[{i}]", errors)
    elif isinstance(shape, list):
        if not isinstance(value, list) or not value:
            errors.append(f"{path}: not a non-empty array")
            return
        for i, item in enumerate(value):
            check(item, shape[0], f"{path}[{i}]", errors)
    elif shape is bool:
        if not isinstance(value, bool):
            errors.append(f"{path}: not a boolean")
    elif not isinstance(value, shape) or isinstance(value, bool):
        errors.append(f"{path}: not {shape}")


def check_mlp(mlp, errors):
    kinds = [mlp[k] for k in ("small", "huge") if k in mlp] or [mlp]
    for i, m in enumerate(kinds):
        check(m, MLP, f".mlp[{i}]", errors)
        for p in m.get("sweep", []):
            if len(p.get("trials_ns", [])) == 0:
                errors.append(".mlp.sweep: a point without raw trials")
    return len(kinds)


SECTIONS = {
    "machine": lambda v, e: check(v, MACHINE, ".machine", e),
    "noise": lambda v, e: check(v, NOISE, ".noise", e),
    "latency": lambda v, e: check(v, LATENCY, ".latency", e),
    "mlp": check_mlp,
    "bandwidth": lambda v, e: check(v, BANDWIDTH, ".bandwidth", e),
    "multicore": lambda v, e: check(v, MULTICORE, ".multicore", e),
    "loaded": lambda v, e: check(v, LOADED, ".loaded", e),
    "app": lambda v, e: [check(k, APP_BZIP2 if name == "bzip2" else APP_KERNEL, f".app.{name}", e)
                         for name, k in v.items()],
}


def main():
    """argv: FILE [SECTION[=N] ...]: each named section must be present
    (for mlp, N page kinds); every section present is checked."""
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    errors = []
    check(doc, TOP, "", errors)
    if doc.get("tool") != "mlpscope":
        errors.append(".tool: not 'mlpscope'")
    for want in sys.argv[2:]:
        name, _, count = want.partition("=")
        if name not in doc:
            errors.append(f".{name}: missing section")
        elif count and SECTIONS[name](doc[name], []) != int(count):
            errors.append(f".{name}: expected {count} variants")
    for name, checker in SECTIONS.items():
        if name in doc:
            checker(doc[name], errors)
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


main()
