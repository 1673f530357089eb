#!/usr/bin/env python3
"""Writes a generated fleet of mlpscope results for compare's fleet table.

    gen_results.py TEMPLATE OUTDIR N [--seed S] [--plant NODE:WHAT:FACTOR]...
                   [--cpu NODE:MODEL]...

N copies of TEMPLATE (a real result) as OUTDIR/node0001.json ..., each
figure's source values scaled by a factor drawn within a quarter of the
template's own noise floor either way (so no copy is an outlier by itself),
then the plants: WHAT (mem: latency.chase_ns_at_max; rd: every bandwidth
gbps; ks: the MLP fit's saturation lanes; c2c: c2c.median_ns; floor:
noise.floor_pct) of node NODE scaled by FACTOR; --cpu gives node NODE
another provenance.cpu_model (a group of its own). Prints one line per plant,
"node0007.json mem 1.6", so a caller knows what compare must name. Measures
nothing; the template's structure is kept, so the loader vets each copy as
it would a real one.
"""
import argparse
import json
import os
import random
import sys

# What a plant or the jitter scales: (section, test on a key path) per WHAT.
SOURCES = {
    "mem": ("latency", lambda path: path == ["chase_ns_at_max"]),
    "rd": ("bandwidth", lambda path: path[-1] == "gbps"),
    "ks": ("mlp", lambda path: path[-1] == "fit_saturation_lanes"),
    "c2c": ("c2c", lambda path: path == ["median_ns"]),
    "floor": ("noise", lambda path: path == ["floor_pct"]),
}


def scale(node, want, factor, path=()):
    """node with every number at a path want() accepts multiplied by factor."""
    if isinstance(node, dict):
        return {k: scale(v, want, factor, path + (k,)) for k, v in node.items()}
    if isinstance(node, list):
        return [scale(v, want, factor, path) for v in node]
    if isinstance(node, (int, float)) and not isinstance(node, bool) and want(list(path)):
        return node * factor
    return node


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("template")
    ap.add_argument("outdir")
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plant", action="append", default=[])
    ap.add_argument("--cpu", action="append", default=[])
    a = ap.parse_args()

    with open(a.template) as f:
        doc = json.load(f)
    floor = doc.get("noise", {}).get("floor_pct", 1.0) / 100.0
    plants, cpus = {}, {}
    for p in a.plant:
        node, what, factor = p.split(":")
        if what not in SOURCES:
            sys.exit("gen_results.py: --plant %s: WHAT is one of %s" % (p, ", ".join(SOURCES)))
        plants.setdefault(int(node), []).append((what, float(factor)))
    for c in a.cpu:
        node, model = c.split(":", 1)
        cpus[int(node)] = model
    rng = random.Random(a.seed)
    os.makedirs(a.outdir, exist_ok=True)
    for i in range(1, a.n + 1):
        d = doc
        for what, (section, want) in SOURCES.items():
            if section in d and what != "floor":
                d = dict(d, **{section: scale(d[section], want, 1 + rng.uniform(-floor, floor) / 4)})
        for what, factor in plants.get(i, []):
            section, want = SOURCES[what]
            d = dict(d, **{section: scale(d[section], want, factor)})
            print("node%04d.json %s %g" % (i, what, factor))
        if i in cpus:
            d = dict(d, provenance=dict(d["provenance"], cpu_model=cpus[i]))
        name = os.path.join(a.outdir, "node%04d.json" % i)
        with open(name + ".tmp", "w") as f:
            json.dump(d, f, indent=2)
        os.replace(name + ".tmp", name)


if __name__ == "__main__":
    main()
