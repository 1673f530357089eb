#!/bin/sh
# Renders an mlpscope HTML report in headless Chromium and checks what a
# reader would see: the page loads with no console errors or failed loads,
# every inline <svg> has a non-zero laid-out size, and a screenshot PNG is
# written. The report itself holds no script; the size check runs on a copy
# with one measuring script appended, so the page under test stays as shipped.
# Usage: tests/browser/render.sh REPORT.html [SCREENSHOT.png]
# Exit: 0 pass, 1 fail, 77 chromium not installed (a skip, as automake uses).
set -eu

html=${1:?usage: render.sh REPORT.html [SCREENSHOT.png]}
png=${2:-${html%.html}.png}
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
	echo "SKIP: chromium is not installed (apt-get install -y chromium)"
	exit 77
fi
[ -s "$html" ] || { echo "FAIL: $html is missing or empty"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
abs=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")

# A fresh profile each run, nothing fetched in the background: the page must
# render from the file alone.
run_chrome() {
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$work/profile" --enable-logging=stderr --v=0 "$@"
}

fail=0
rm -f "$png"
run_chrome --screenshot="$png" --window-size=1280,4000 "file://$abs" >"$work/shot.out" 2>"$work/shot.err" || true
if [ ! -s "$png" ] || [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ]; then
	echo "FAIL: no PNG screenshot at $png"; cat "$work/shot.err"; fail=1
fi

# Console messages and failed loads; Chromium's own D-Bus and GPU chatter
# in a container is not the page's doing.
if grep -E 'CONSOLE|Uncaught|Failed to load|net::ERR_|Refused to' "$work/shot.err"; then
	echo "FAIL: the page logged errors while loading"; fail=1
fi

sed 's#</body>#<script>addEventListener("load",function(){var o=[];document.querySelectorAll("svg").forEach(function(s){var r=s.getBoundingClientRect();o.push(Math.round(r.width)+"x"+Math.round(r.height));});var p=document.createElement("pre");p.textContent="SVG"+"SIZES "+o.join(" ")+" E"+"ND";document.body.appendChild(p);});</script></body>#' \
	"$abs" >"$work/measure.html"
run_chrome --dump-dom --virtual-time-budget=5000 --window-size=1280,4000 "file://$work/measure.html" \
	>"$work/dom.html" 2>"$work/dom.err" || true
sizes=$(grep -o 'SVGSIZES[^<]*END' "$work/dom.html" || true)
want=$(grep -o '<svg' "$abs" | wc -l)
got=$(echo "$sizes" | tr ' ' '\n' | grep -c '^[0-9]*x[0-9]*$' || true)
if [ -z "$sizes" ]; then
	echo "FAIL: the page did not finish loading (no measurement in the DOM)"; cat "$work/dom.err"; fail=1
elif [ "$want" -eq 0 ] || [ "$got" -ne "$want" ]; then
	echo "FAIL: $want <svg> in the file, $got laid out: $sizes"; fail=1
elif echo "$sizes" | tr ' ' '\n' | grep -Eq '^0x|x0$'; then
	echo "FAIL: a plot has zero width or height: $sizes"; fail=1
fi
if grep -E 'CONSOLE|Uncaught' "$work/dom.err"; then
	echo "FAIL: console errors while measuring"; fail=1
fi

[ "$fail" -eq 0 ] || exit 1
echo "PASS: $html rendered: $(wc -c <"$png") byte screenshot at $png; plots $sizes"
