#!/usr/bin/env python3
"""Check mlpscope's HTML, SVG and CSV output with real parsers (the standard
library's xml.etree, html.parser and csv). Usage:
  check_report_files.py svg FILE...          every file parses as XML with an <svg> root
  check_report_files.py html FILE [NSVG]     tags balance, nothing external, each inline <svg> parses
  check_report_files.py csv DIR JSON         every CSV reads back the JSON's rows and values
Prints what is wrong and exits 1, or exits 0."""
import csv
import html.parser
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

SVG_NS = "{http://www.w3.org/2000/svg}"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
FORBIDDEN = {"script", "link", "iframe", "img", "object", "embed", "image"}


def check_svg(paths):
    for p in paths:
        root = ET.parse(p).getroot()
        if root.tag != SVG_NS + "svg":
            raise SystemExit(f"{p}: root is {root.tag}, not svg")
        if float(root.get("width", 0)) <= 0 or float(root.get("height", 0)) <= 0:
            raise SystemExit(f"{p}: no size")


class Balance(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.svgs = [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag in FORBIDDEN:
            self.errors.append(f"forbidden element <{tag}>")
        for k, v in attrs:
            if k in ("src", "href", "xlink:href") and v and not v.startswith("#"):
                self.errors.append(f"external reference {k}={v}")
        if tag == "svg":
            self.svgs += 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        if tag in FORBIDDEN:
            self.errors.append(f"forbidden element <{tag}>")

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>")
            return
        self.stack.pop()


def check_html(path, nsvg):
    text = open(path, encoding="utf-8").read()
    if not text.startswith("<!DOCTYPE html>"):
        raise SystemExit(f"{path}: no HTML5 doctype")
    if re.search(r"url\((?!#)|@import|https?://(?!www\.w3\.org/2000/svg)", text):
        raise SystemExit(f"{path}: refers to something outside the file")
    p = Balance()
    p.feed(text)
    p.close()
    if p.errors or p.stack:
        raise SystemExit(f"{path}: {p.errors[:5]} unclosed {p.stack}")
    blocks = re.findall(r"<svg\b.*?</svg>", text, re.S)
    for b in blocks:
        ET.fromstring(b)
    if nsvg is not None and len(blocks) != nsvg:
        raise SystemExit(f"{path}: {len(blocks)} plots, expected {nsvg}")


def get(v, path):
    for k in path.split("."):
        v = v.get(k) if isinstance(v, dict) else None
    return v


def arms(doc):
    m = doc.get("mlp")
    if not m:
        return []
    if "sweep" in m:
        return [(m["pages"]["requested"], m)]
    return [(k, m[k]) for k in ("small", "huge") if k in m]


def sources(doc):
    """file -> (tag column or None, [(tag, rows)], renames csv column -> json key)"""
    out = {}
    simple = {"latency_points": "latency.points", "latency_levels": "latency.levels_detected",
              "caches_reported": "machine.caches_reported", "noise_estimators": "noise.estimators",
              "bandwidth_kernels": "bandwidth.kernels", "bandwidth_efficiency": "bandwidth.efficiency",
              "multicore_points": "multicore.points", "window_fillers": "window.fillers"}
    for f, p in simple.items():
        rows = get(doc, p)
        if rows:
            out[f] = (None, [(None, rows)], {"capacity_entries": "capacity", "capacity_low_entries": "capacity_low",
                                             "capacity_high_entries": "capacity_high"})
    a = arms(doc)
    if a:
        out["mlp_sweep"] = ("pages", [(k, m["sweep"]) for k, m in a], {})
        out["mlp_control"] = ("pages", [(k, m["control_unrolled"]) for k, m in a], {})
        out["mlp_estimate"] = ("pages", [(k, [dict(m["estimate"], noise_floor_pct=m["noise_floor_pct"],
                                                    working_set_bytes=m["working_set_bytes"],
                                                    spacing_bytes=m["spacing_bytes"],
                                                    huge_pct_obtained=m["pages"]["huge_pct_obtained"])])
                                         for k, m in a], {"fit_uncertainty_lanes": "fit_uncertainty"})
    ld = doc.get("loaded")
    if ld:
        groups = [(ld.get("traffic", "read"), ld["curve"])]
        groups += [(o["traffic"], o["curve"]) for o in ld.get("other_traffic", [])]
        out["loaded_curve"] = ("traffic", groups, {"delay_ns": "delay"})
    fl = get(doc, "window.fillers")
    if fl:
        out["window_points"] = ("filler", [(f["filler"], f["points"]) for f in fl], {})
    return out


def same(cell, want):
    if want is None:
        return cell == ""
    if isinstance(want, bool):
        return cell == ("true" if want else "false")
    if isinstance(want, (int, float)):
        return cell != "" and float(cell) == float(want)
    return cell == str(want)


def check_csv(d, jpath):
    doc = json.load(open(jpath))
    expect = sources(doc)
    cells = 0
    for name, (tag, groups, renames) in expect.items():
        path = os.path.join(d, name + ".csv")
        raw = open(path, newline="").read()
        if "\n" in raw.replace("\r\n", ""):
            raise SystemExit(f"{path}: a line ends without CRLF (RFC 4180)")
        rows = list(csv.DictReader(open(path, newline="")))
        want = [(t, r) for t, rs in groups for r in rs]
        if len(rows) != len(want):
            raise SystemExit(f"{path}: {len(rows)} rows, JSON has {len(want)}")
        for i, (row, (t, jr)) in enumerate(zip(rows, want)):
            if tag and row[tag] != t:
                raise SystemExit(f"{path} row {i}: {tag} {row[tag]!r}, expected {t!r}")
            for col, cell in row.items():
                key = renames.get(col, col)
                if col == tag or key not in jr:
                    continue
                if not same(cell, jr[key]):
                    raise SystemExit(f"{path} row {i} {col}: {cell!r} != JSON {jr[key]!r}")
                cells += 1
    extra = set(f[:-4] for f in os.listdir(d) if f.endswith(".csv")) - set(expect)
    if extra:
        raise SystemExit(f"{d}: tables with no JSON behind them: {sorted(extra)}")
    if not cells:
        raise SystemExit(f"{d}: no values compared")


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    kind = sys.argv[1]
    if kind == "svg":
        check_svg(sys.argv[2:])
    elif kind == "html":
        check_html(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else None)
    elif kind == "csv":
        check_csv(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
