#!/usr/bin/env python3
"""Rebuild a recorded host (src/core/host.c states the format) from what a
machine left behind when tools/record_host.sh was not run there: a result's
`machine` section (identity, features, the caches sysfs and CPUID reported,
the TLBs CPUID reported, THP, hugetlb, the PMU probe, the core clock) and,
where kept, the machine's /proc/cpuinfo and sysfs cache table.

CPUID leaves are encoded so that mlpscope's decoders (src/core/cpu_id_x86.c)
read back exactly what that run decoded, and no more: a leaf the run did not
decode is not written and reads as zeros. The header of host.txt names the
sources. Files the machine section does not describe are not invented.

  tools/host_from_report.py --report R.json [--cpuinfo cpuinfo.txt]
      [--caches caches.txt] [--facts plan_facts.json] [--note TEXT] DIR
"""
import argparse
import json
import os
import struct
import sys

# CPUID bits the decoders read (SDM vol. 2A CPUID; APM vol. 3 appendix E).
LEAF1_ECX = {"osxsave": 27, "avx": 28, "hypervisor": 31}
LEAF1_EDX = {"sse2": 26}
LEAF7_EBX = {"avx2": 5, "avx512f": 16}
EXT1_EDX = {"rdtscp": 27}
EXT1_ECX_TOPOEXT = 22
EXT7_EDX_INVARIANT_TSC = 8
AMD_WAYS = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 6: 5, 8: 6, 16: 8, 32: 10, 48: 11, 64: 12, 96: 13, 128: 14}


def vendor_words(vendor):
    b = vendor.encode().ljust(12, b"\0")[:12]
    ebx, edx, ecx = struct.unpack("<III", b)
    return ebx, ecx, edx


def leaf1_eax(family, model, stepping):
    if family >= 0xF:
        base_family, ext_family = 0xF, family - 0xF
    else:
        base_family, ext_family = family, 0
    if base_family in (0x6, 0xF):
        base_model, ext_model = model & 0xF, model >> 4
    else:
        base_model, ext_model = model & 0xF, 0
    return stepping | base_model << 4 | base_family << 8 | ext_model << 16 | ext_family << 20


def cache_leaf_words(c, sharing):
    types = {"Data": 1, "Instruction": 2, "Unified": 3}
    line, ways = c["line_bytes"], c["ways"]
    sets = c["size_bytes"] // (line * ways)
    eax = types[c["type"]] | c["level"] << 5 | 1 << 8 | (max(sharing, 1) - 1) << 14
    ebx = (line - 1) | (ways - 1) << 22
    return eax, ebx, sets - 1, 0


def bits(names, table):
    v = 0
    for n in names:
        if n in table:
            v |= 1 << table[n]
    return v


def shared_counts(caches_txt):
    """index -> how many CPUs share it, from caches.txt's shared_cpu_list."""
    out = {}
    if not caches_txt:
        return out
    for line in open(caches_txt):
        f = line.split()
        if not f or not f[0].startswith("index") or "shared_cpu_list" not in f:
            continue
        lst = f[f.index("shared_cpu_list") + 1]
        n = 0
        for part in lst.split(","):
            a, _, b = part.partition("-")
            n += int(b or a) - int(a) + 1
        out[int(f[0][5:])] = n
    return out


def cpuid_lines(m, tlbs):
    feats = set(m.get("features") or [])
    lines = []
    vendor = m["vendor"]
    amd = vendor in ("AuthenticAMD", "HygonGenuine")
    ebx, ecx, edx = vendor_words(vendor)
    caches = [c for c in m["caches_reported"] if c["source"] == "cpuid"]
    lines.append((0, 0, 0xD, ebx, ecx, edx))
    avx = "avx" in feats
    ecx1 = bits(feats, LEAF1_ECX) | (1 << LEAF1_ECX["osxsave"] if avx else 0)
    lines.append((1, 0, leaf1_eax(m["family"], m["model"], m["stepping"]), 0, ecx1, bits(feats, LEAF1_EDX)))
    if not amd:
        for i, c in enumerate(caches):
            lines.append((4, i) + cache_leaf_words(c, m.get("_sharing", {}).get(i, 1)))
    if bits(feats, LEAF7_EBX):
        lines.append((7, 0, 0, bits(feats, LEAF7_EBX), 0, 0))
    ext_max = 0x8000001D if amd else 0x80000008
    lines.append((0x80000000, 0, ext_max, ebx, ecx, edx))
    # TOPOEXT: AMD's cache leaf exists; a run that decoded no CPUID cache
    # on AMD had it answer "none" (type 0), which the zeros below give.
    lines.append((0x80000001, 0, 0, 0, (1 << EXT1_ECX_TOPOEXT) if amd else 0, bits(feats, EXT1_EDX)))
    l1 = [t for t in tlbs if t["level"] == 1]
    l2 = [t for t in tlbs if t["level"] == 2]
    if amd and l1:
        def l1w(page):
            t = next((t for t in l1 if t["page_bytes"] == page), None)
            return 0 if not t else (t["entries"] & 0xFF) << 16 | (0xFF if not t["ways"] else t["ways"]) << 24
        lines.append((0x80000005, 0, l1w(2097152), l1w(4096), 0, 0))
    if amd and l2:
        def l2w(page):
            t = next((t for t in l2 if t["page_bytes"] == page), None)
            return 0 if not t else (t["entries"] & 0xFFF) << 16 | AMD_WAYS[t["ways"]] << 28
        lines.append((0x80000006, 0, l2w(2097152), l2w(4096), 0, 0))
    if "invariant_tsc" in feats:
        lines.append((0x80000007, 0, 0, 0, 0, 1 << EXT7_EDX_INVARIANT_TSC))
    if amd:
        for i, c in enumerate(caches):
            lines.append((0x8000001D, i) + cache_leaf_words(c, m.get("_sharing", {}).get(i, 1)))
    xcr0 = 0
    if avx:
        xcr0 = 0xE7 if "avx512f" in feats else 0x7
    return lines, xcr0


def cpu_list(text):
    """'0-3,8' -> [0, 1, 2, 3, 8]."""
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def core_types_files(d, types):
    """Each CPU's kind back into the files src/core/coretype.c reads."""
    for t in types:
        if t["source"] == "cpu_core/cpu_atom":
            pmu = "cpu_core" if t["type"] == "P-core" else "cpu_atom"
            write("%s/sys/devices/%s/cpus" % (d, pmu), t["cpus"] + "\n")
            continue
        for cpu in cpu_list(t["cpus"]):
            base = "%s/sys/devices/system/cpu/cpu%d" % (d, cpu)
            if t["source"] == "midr_el1":
                midr = int(t["type"].split("MIDR ")[1].rstrip(")"), 16)
                write(base + "/regs/identification/midr_el1", "0x%016x\n" % midr)
            else:
                write(base + "/cpu_capacity", t["type"].split()[-1] + "\n")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def bracketed(mode, modes):
    return " ".join("[%s]" % x if x == mode else x for x in modes) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--report", required=True)
    ap.add_argument("--cpuinfo")
    ap.add_argument("--caches")
    ap.add_argument("--facts")
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("dir")
    a = ap.parse_args()
    r = json.load(open(a.report))
    m = r["machine"]
    tlbs = (r.get("tlb") or {}).get("reported") or []
    facts = json.load(open(a.facts)) if a.facts else (r.get("plan") or {}).get("facts") or {}
    m["_sharing"] = shared_counts(a.caches)
    d = a.dir
    os.makedirs(d, exist_ok=True)

    sources = ["the machine section of %s" % os.path.basename(a.report)]
    if a.cpuinfo:
        write(d + "/proc/cpuinfo", open(a.cpuinfo).read())
        sources.append(os.path.basename(a.cpuinfo) + " (proc/cpuinfo, verbatim)")
    else:
        write(d + "/proc/cpuinfo", "model name\t: %s\n" % m["cpu_model"])
    if facts.get("mem_total_bytes"):
        write(d + "/proc/meminfo", "MemTotal:       %d kB\nMemAvailable:   %d kB\n"
              % (facts["mem_total_bytes"] // 1024, facts["mem_available_bytes"] // 1024))
        sources.append("MemTotal and MemAvailable from %s" % os.path.basename(a.facts or a.report))
    pmu = m["pmu"]
    if pmu.get("paranoid") is not None:
        write(d + "/proc/sys/kernel/perf_event_paranoid", "%d\n" % pmu["paranoid"])
    base = d + "/sys/devices/system/cpu/cpu0/cache"
    for i, c in enumerate(x for x in m["caches_reported"] if x["source"] == "sysfs"):
        size = c["size_bytes"]
        write("%s/index%d/level" % (base, i), "%d\n" % c["level"])
        write("%s/index%d/type" % (base, i), c["type"] + "\n")
        write("%s/index%d/size" % (base, i), "%dK\n" % (size // 1024))
        write("%s/index%d/coherency_line_size" % (base, i), "%d\n" % c["line_bytes"])
        write("%s/index%d/ways_of_associativity" % (base, i), "%d\n" % c["ways"])
        if i in m["_sharing"]:
            write("%s/index%d/shared_cpu_list" % (base, i), "0-%d\n" % (m["_sharing"][i] - 1))
    core_types_files(d, m.get("core_types") or [])
    thp = m.get("thp") or {}
    tdir = d + "/sys/kernel/mm/transparent_hugepage"
    if thp.get("enabled"):
        write(tdir + "/enabled", bracketed(thp["enabled"], ["always", "madvise", "never"]))
    if thp.get("defrag"):
        write(tdir + "/defrag", bracketed(thp["defrag"], ["always", "defer", "defer+madvise", "madvise", "never"]))
    if thp.get("page_size_bytes"):
        write(tdir + "/hpage_pmd_size", "%d\n" % thp["page_size_bytes"])
    for h in m.get("hugetlb") or []:
        hd = d + "/sys/kernel/mm/hugepages/hugepages-%dkB" % (h["size_bytes"] // 1024)
        write(hd + "/nr_hugepages", "%d\n" % h["pages_reserved"])
        write(hd + "/free_hugepages", "%d\n" % h["pages_free"])

    lines, xcr0 = cpuid_lines(m, tlbs)
    cpus = int(facts.get("cpus") or m["online_cpus"])
    if pmu.get("rdpmc_works"):
        rdpmc = "works"
    elif pmu.get("rdpmc_tested"):
        rdpmc = {11: "SIGSEGV", 4: "SIGILL", 7: "SIGBUS"}.get(pmu.get("rdpmc_child_signal"), "SIGSEGV")
    else:
        rdpmc = "none"
    out = ["# A recorded host: the answers no file holds (src/core/host.c states the format).",
           "# Rebuilt by tools/host_from_report.py from " + "; ".join(sources) + ".",
           "# CPUID leaves encode what that run decoded (identity, features, caches and TLBs",
           "# from CPUID), no more: any other leaf reads as zeros here."]
    out += ["# " + n for n in a.note]
    out += ["isa x86_64", "online_cpus %d" % m["online_cpus"], "allowed_cpus 0-%d" % (cpus - 1),
            "page_bytes %d" % m["page_size_bytes"],
            "perf_cycles %s" % ("ok" if pmu["hardware_counters"] else pmu["errno_name"]),
            "rdpmc %s" % rdpmc]
    if xcr0:
        out.append("xcr0 0x%x" % xcr0)
    for leaf, sub, *w in lines:
        out.append("cpuid 0x%08x 0x%x 0x%08x 0x%08x 0x%08x 0x%08x" % ((leaf, sub) + tuple(w)))
    samples = (m.get("core_clock_mhz") or {}).get("samples") or []
    if samples:
        out.append("core_clock_mhz " + " ".join("%.3f" % s for s in samples))
    write(d + "/host.txt", "\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
