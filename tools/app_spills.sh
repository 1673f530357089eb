#!/bin/sh
# Count the stack accesses (memory operands on rsp/rbp, sp/x29) of each
# generated app kernel in an object file: the spills the compiler chose.
# Usage: tools/app_spills.sh build/obj/src/kern/app.gen.o
objdump -d --no-show-raw-insn "$1" | awk '
	/^[0-9a-f]+ <.*>:$/ { if (name != "") print name, loads, stores; name = $2; gsub(/[<>:]/, "", name); loads = 0; stores = 0; next }
	/\((%rsp|%rbp)\)|\[sp|\[x29/ {
		line = $0; sub(/^[^\t]*\t/, "", line)
		if (line ~ /^mov[a-z]* [^,]*,.*\((%rsp|%rbp)\)/ || line ~ /^st/) stores++; else loads++
	}
	END { if (name != "") print name, loads, stores }' |
	awk 'BEGIN { printf "%-12s %12s %12s\n", "kernel", "stack loads", "stack stores" } { printf "%-12s %12d %12d\n", $1, $2, $3 }'
