# mlpscope: one non-recursive Makefile; every output lands under build/.
# Nothing here reads the build host's CPU (no -march=native): the binary must
# be correct on whatever machine it is copied to.

CC      ?= cc
BUILD   ?= build
VERSION := 0.1.0
WERROR  ?= 1
SANITIZE ?=

WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wvla -Wwrite-strings -Wformat=2 -fno-common
ifeq ($(WERROR),1)
WARN    += -Werror
endif
OPT     := -O2 -g
CFLAGS  ?=
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(OPT) $(WARN) $(BZ2_CFLAGS) $(CFLAGS) -Isrc -I$(BUILD)/gen -MMD -MP
LDLIBS  := -lm -lpthread
LDFLAGS ?=
# A build id note names the exact link in provenance and in --archive's
# copy; appended even to an LDFLAGS given on the command line.
override LDFLAGS += -Wl,--build-id
# libbz2 is the reference `app bzip2` checks its own decoder against, byte
# for byte. Used where a program calling it links with this CC and
# LDFLAGS (tools/deps.sh installs libbz2-dev); the AArch64 cross build
# finds the host's header but no arm64 library, so there the decoder
# builds without it and `app bzip2` refuses with one line saying why.
ifndef HAVE_LIBBZ2
HAVE_LIBBZ2 := $(shell printf '\043include <bzlib.h>\nint main(void) { return !BZ2_bzlibVersion(); }\n' | \
	$(CC) $(LDFLAGS) -x c -o /dev/null - -lbz2 >/dev/null 2>&1 && echo 1 || echo 0)
endif
ifeq ($(HAVE_LIBBZ2),1)
BZ2_CFLAGS := -DHAVE_LIBBZ2
LDLIBS  += -lbz2
endif
ifneq ($(SANITIZE),)
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
# override, as the build id's: after an override, a plain += is ignored
# and the sanitizers' runtime would not be linked.
override LDFLAGS += -fsanitize=$(SANITIZE)
endif

LIB_SRC := $(wildcard src/*.c src/*/*.c src/*/*/*.c)
# Each binary's main is its own: src/main.c (mlpscope), src/bunzip2/main.c.
LIB_SRC := $(filter-out src/main.c src/bunzip2/main.c,$(LIB_SRC))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(wildcard tests/*.c tests/unit/*.c)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
# The tests' own code sets up inputs and compares; the time goes to the
# library it calls, compiled as shipped. At -O0 the 77 test sources cost
# half the compiler time of -O2 (the last -O on the line wins), a tenth of
# the native build, on check's critical path.
TEST_OPT := -O0
$(TEST_OBJ): ALL_CFLAGS += $(TEST_OPT)
HDR_SRC := $(wildcard src/*.h src/*/*.h src/*/*/*.h)
HDR_DEP := $(HDR_SRC:%.h=$(BUILD)/obj/%.h.d)
BIN     := $(BUILD)/mlpscope
# The bzip2 decoder as a tool of its own (src/bunzip2/), linked from the
# library archive so it carries only the objects it calls.
BUNZIP  := $(BUILD)/mlpbunzip2
LIBA    := $(BUILD)/libmlpscope.a
BUNZIP_MAN := docs/mlpbunzip2.1
TESTBIN := $(BUILD)/mlpscope-tests
GEN     := $(BUILD)/gen_lanes
GEN_APP := $(BUILD)/gen_app
BUILDINFO := $(BUILD)/gen/buildinfo.h
REVISION_H := $(BUILD)/gen/revision.h
MAN     := $(BUILD)/mlpscope.1
GENMAN  := $(BUILD)/gen_man
HOST_ANSWERS := $(BUILD)/host_answers

# make install [PREFIX=/usr/local] [DESTDIR=staging]: the binary, the man
# page and the documents; make uninstall removes exactly those files and
# the directories install created, never one that was there before.
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  := $(PREFIX)/bin
MANDIR  := $(PREFIX)/share/man/man1
DOCDIR  := $(PREFIX)/share/doc/mlpscope
DOCS    := README.md docs/METHODOLOGY.md docs/OUTPUT.md docs/MODEL.md docs/VALIDATION.md
INSTALLED = $(BINDIR)/mlpscope $(MANDIR)/mlpscope.1 $(BINDIR)/mlpbunzip2 $(MANDIR)/mlpbunzip2.1 \
	$(addprefix $(DOCDIR)/,$(notdir $(DOCS)))

.PHONY: all run test test-hosts validate test-browser check check-lanes check-aarch64 check-gen regen regen-jit-gold disasm app-spills clean install uninstall docs \
	fuzz fuzz-build fuzz-smoke test-sanitize
all: $(BIN) $(MAN) $(HOST_ANSWERS) $(BUNZIP)

$(BIN): $(BUILD)/obj/src/main.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(LIBA): $(LIB_OBJ)
	rm -f $@ && $(AR) rcs $@ $^

$(BUNZIP): $(BUILD)/obj/src/bunzip2/main.o $(LIBA)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(TESTBIN): $(TEST_OBJ) $(LIB_OBJ) | $(HDR_DEP)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The man page is written by the code that prints --help (src/man.c), so
# the two cannot drift; it is generated, never edited.
$(GENMAN): $(BUILD)/obj/tools/gen_man.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(MAN): $(GENMAN)
	$(GENMAN) > $@.tmp && mv $@.tmp $@

# docs/OUTPUT.md's option lists are written by the code that prints
# `help CMD` (src/options_doc.c), between two marker lines; `make docs`
# rewrites them after an option's declaration changes, and the suite
# (test_options.c) fails while they differ.
GENDOCS := $(BUILD)/gen_docs
$(GENDOCS): $(BUILD)/obj/tools/gen_docs.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

docs: $(GENDOCS)
	$(GENDOCS) docs/OUTPUT.md

# tools/record_host.sh records this machine as a recorded host (the files
# mlpscope reads, and host.txt, which this program writes).
$(HOST_ANSWERS): $(BUILD)/obj/tools/host_answers.o $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/obj/%.o: %.c $(BUILDINFO)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Each header preprocessed alone into a dependency file of its own, beside
# the objects': a source's list is transitive and says nothing of which
# header included which, so the layer test (test_structure.c) reads a
# header's own includes here; a cycle through headers with no .c of their
# own would go unseen otherwise.
# A header moved or deleted leaves its old dependency file behind, which
# make would try to remake from the missing header (its -MP rule says the
# header exists): that file is dropped instead.
$(BUILD)/obj/%.h.d: %.h $(BUILDINFO)
	@mkdir -p $(dir $@)
	@if [ -f $< ]; then $(CC) $(ALL_CFLAGS) -E -x c -MF $@ -MT $@ -o /dev/null $<; else rm -f $@; fi

# The compiler and flags are recorded in every JSON result (provenance), so
# they are written into a header that is rewritten only when they change.
# Its temporary is named for the shell that writes it: check's lanes run
# makes at once that each come here.
$(BUILDINFO): FORCE | $(REVISION_H)
	@mkdir -p $(dir $@)
	@tmp=$@.$$$$.tmp; \
	  printf '#define MLPSCOPE_VERSION "%s"\n#define MLPSCOPE_CFLAGS "%s"\n' \
	  '$(VERSION)' '$(subst ",,$(ALL_CFLAGS))' > $$tmp && \
	  { cmp -s $$tmp $@ && rm -f $$tmp || mv $$tmp $@; }
FORCE:

# The source revision (the commit, and whether tracked or untracked files
# differ from it) is a header of its own that only provenance.c reads: a
# new commit rebuilds one object, not the tree. "unknown" outside git, or
# when the enclosing repository is not this source tree's.
$(REVISION_H): FORCE
	@mkdir -p $(dir $@)
	@tmp=$@.$$$$.tmp; rev=unknown; dirty=-1; \
	  top=$$(git rev-parse --show-toplevel 2>/dev/null) && \
	  [ "$$(cd "$$top" && pwd -P)" = "$$(pwd -P)" ] && rev=$$(git rev-parse HEAD 2>/dev/null) && \
	  { [ -n "$$(git status --porcelain 2>/dev/null)" ] && dirty=1 || dirty=0; }; \
	  [ -n "$$rev" ] || { rev=unknown; dirty=-1; }; \
	  printf '#define MLPSCOPE_SOURCE_REVISION "%s"\n#define MLPSCOPE_SOURCE_DIRTY %s\n' "$$rev" "$$dirty" > $$tmp && \
	  { cmp -s $$tmp $@ && rm -f $$tmp || mv $$tmp $@; }
$(BUILD)/obj/src/provenance.o: $(REVISION_H)

# The directories install had to create (mkdir -pv names each one) are
# listed in $(DOCDIR)/installed-dirs, deepest first, so uninstall removes
# them again, and only them.
install: $(BIN) $(MAN) $(HOST_ANSWERS) $(BUNZIP)
	@made=$$(LC_ALL=C mkdir -pv '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)' '$(DESTDIR)$(DOCDIR)' | \
	  sed -n "s/^mkdir: created directory '\(.*\)'$$/\1/p" | tac) && \
	  printf '%s\n' "$$made" > '$(DESTDIR)$(DOCDIR)/installed-dirs'
	install -m 755 $(BIN) '$(DESTDIR)$(BINDIR)/mlpscope'
	install -m 644 $(MAN) '$(DESTDIR)$(MANDIR)/mlpscope.1'
	install -m 755 $(BUNZIP) '$(DESTDIR)$(BINDIR)/mlpbunzip2'
	install -m 644 $(BUNZIP_MAN) '$(DESTDIR)$(MANDIR)/mlpbunzip2.1'
	install -m 644 $(DOCS) '$(DESTDIR)$(DOCDIR)/'

uninstall:
	@dirs=$$(cat '$(DESTDIR)$(DOCDIR)/installed-dirs' 2>/dev/null); \
	  rm -f $(foreach f,$(INSTALLED) $(DOCDIR)/installed-dirs,'$(DESTDIR)$(f)') && \
	  if [ -d '$(DESTDIR)$(DOCDIR)' ]; then rmdir '$(DESTDIR)$(DOCDIR)'; fi && \
	  for d in $$dirs; do if [ -d "$$d" ]; then rmdir "$$d" || true; fi; done

# The lane kernels are generated C, checked in so a reader can see them
# without building; `make regen` rewrites them and `check-gen` proves the
# checked-in file is what the generator writes today.
$(GEN): tools/gen_lanes.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O1 $(WARN) -o $@ $<

$(GEN_APP): tools/gen_app.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O1 $(WARN) -o $@ $<

regen: $(GEN) $(GEN_APP)
	$(GEN) > src/kern/lanes.gen.c
	$(GEN_APP) > src/kern/app.gen.c

check-gen: $(GEN) $(GEN_APP)
	@$(GEN) | cmp -s - src/kern/lanes.gen.c || \
	  { echo "src/kern/lanes.gen.c is stale: run 'make regen'"; exit 1; }
	@$(GEN_APP) | cmp -s - src/kern/app.gen.c || \
	  { echo "src/kern/app.gen.c is stale: run 'make regen'"; exit 1; }

# Instructions, loads and stores per access of each lanes kernel, counted
# from the compiled object (spills included), for the model's u/P and
# per-resource terms. A cross build disassembles with its own objdump.
OBJDUMP ?= $(if $(filter %gcc,$(CC)),$(patsubst %gcc,%objdump,$(CC)),objdump)
$(BUILD)/gen/lanes_insns.h: $(BUILD)/obj/src/kern/lanes.gen.o tools/count_lanes_insns.sh
	tools/count_lanes_insns.sh $< $(OBJDUMP) > $@.tmp && mv $@.tmp $@
$(BUILD)/obj/src/kern/lanes_count.o: $(BUILD)/gen/lanes_insns.h

run: $(BIN)
	$(BIN) report --json $(BUILD)/report.json --html $(BUILD)/report.html

test: $(BIN) $(MAN) $(BUNZIP) $(TESTBIN) check-gen
	$(TESTBIN)

# The whole suite once per recorded host (tests/data/cpus/*/host and the
# hand-made tests/data/hosts/*/host) in place of the default one, child
# binaries included: a few minutes, so not part of check, which reruns on
# each host only the tests that read a host fact (tests/main.c).
test-hosts: $(BIN) $(MAN) $(BUNZIP) $(TESTBIN)
	@rc=0; for h in tests/data/cpus/*/host tests/data/hosts/*/host; do \
	  log=$(BUILD)/test-hosts-$$(basename $$(dirname $$h)).txt; \
	  $(TESTBIN) --host $$h > $$log 2>&1 || rc=1; echo "$$h: $$(tail -1 $$log) ($$log)"; \
	done; exit $$rc

# The hardware checks: short real runs asserting shapes (a 1 GiB chase
# slower than 16 KiB, 8 lanes beat 1, the self-checks fire on a real broken
# run ...), each naming the property of the CPU it assumes and SKIPping
# where this machine lacks it. Never part of test or check: they say what
# this CPU does, not whether the code is right. Run it on a quiet machine.
validate: $(BIN) $(MAN) $(TESTBIN)
	$(TESTBIN) --validate

# The HTML report in a real browser: headless Chromium renders a compare
# page of checked-in results (every plot kind) and the test checks it loaded
# without errors and every plot has a size. Needs chromium; `check` runs it
# only where chromium is installed.
test-browser: $(BIN)
	@mkdir -p $(BUILD)/browser
	$(BIN) compare tests/data/report_a.json tests/data/report_b.json tests/data/window.json \
	  --html $(BUILD)/browser/report.html > $(BUILD)/browser/compare.txt
	tests/browser/render.sh $(BUILD)/browser/report.html $(BUILD)/browser/report.png

# AArch64 from any host: the whole tree built with the cross compiler under
# -Werror, then, under qemu-user, every test whose prerequisites emulation
# gives (tests/harness.h): the logic tests, not those that need this
# machine, a child binary, a host program or native speed (the JIT probe runs
# its AArch64 code there), the host-reading tests rerun on the recorded
# AArch64 hosts only (the native run reruns them on every host). Then the
# binary's machine section on a recorded AArch64 host, which exercises the
# AArch64 decoders and reads nothing of this machine.
# The emulated build checks logic, not debugging, on the lane that bounds
# check's wall time: without -g, and at -O1 (48 s of compiler time against
# 77 s at -O2 on the 2-vCPU guest; the same 503 tests pass under qemu).
# -O1's weaker analysis raises false format-truncation and restrict
# warnings, so those two are off here; the native -O2 build keeps them.
A64_CC ?= aarch64-linux-gnu-gcc
A64_OPT ?= -O1 -Wno-format-truncation -Wno-restrict
A64_HOST := tests/data/hosts/arm-neoverse-n1-f8-m3340/host
# The emulated suite is serial and ran last on check's longest lane, one CPU
# idle for its 21 s: it runs as two halves at once (tests/halves.sh).
A64_TEST_ARGS := --missing host,binary,programs,native --hosts arm-
# The headers' own dependency files (HDR_DEP) are left out: the layer test
# reads them in the native run, and the 157 preprocessor passes cost 6 s.
check-aarch64:
	$(MAKE) --no-print-directory CC=$(A64_CC) OPT='$(A64_OPT)' LDFLAGS=-static BUILD=$(BUILD)/aarch64 HDR_DEP= \
	  $(BUILD)/aarch64/mlpscope $(BUILD)/aarch64/mlpscope-tests
	tests/halves.sh qemu-aarch64 $(BUILD)/aarch64/mlpscope-tests $(A64_TEST_ARGS)
	@echo "MLPSCOPE_HOST=$(A64_HOST) qemu-aarch64 $(BUILD)/aarch64/mlpscope machine"
	@MLPSCOPE_HOST=$(A64_HOST) qemu-aarch64 $(BUILD)/aarch64/mlpscope machine > $(BUILD)/aarch64/machine.txt 2>&1

# Everything CI runs: the native build, then tests/check.sh's three lanes at
# once (the AArch64 build and its tests under qemu; the fuzz build's plan on
# a fresh clone, the build and a few seconds of each fuzzer; the browser
# render and the suite), each optional check only after tests/toolchain.sh
# has proved its tools work end to end (a half-installed toolchain prints
# "SKIP <check>: <why>" instead of failing the build). The lanes' logs are
# printed whole once all have ended, the suite's last, so the last line is
# its "N passed, N failed" summary. From a clean tree it compiles the tree
# three times (native, AArch64, fuzz), most of its time on a small machine.
# The lanes' makes share one jobserver of CHECK_JOBS slots (check-lanes'
# make holds it; the `+` hands it to tests/check.sh's makes): a lane's
# build takes a second CPU when the other lanes leave one idle, as the
# AArch64 build did for its last 40 s at one job a lane.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check:
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) $(BIN) $(MAN) $(BUNZIP) $(TESTBIN) check-gen
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) check-lanes

check-lanes:
	+@MAKE='$(MAKE)' A64_CC='$(A64_CC)' FUZZ_CC='$(FUZZ_CC)' tests/check.sh $(TESTBIN)

# Fuzzing with libFuzzer (clang): one target per reader of untrusted bytes
# (tests/fuzz/fuzz_*.c: the CLI parser, the JSON reader and writer, the
# result loader followed by every writer that draws from a result, the
# trace parser, the bzip2 decoder against libbz2, its fast decode-stage
# paths against the plain ones, and the production decoder (bunzip2.h) at
# one thread and two against libbz2), the library built again under ASan, UBSan and
# float-cast-overflow, which gcc's -fsanitize=undefined leaves out. `make
# fuzz` runs each for FUZZ_SECONDS; `check` runs a few seconds of each where
# tests/toolchain.sh fuzz proves clang's libFuzzer works.
FUZZ_CC ?= clang-14
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := cli jsonr load trace bzip2 bzip2_paths bunzip2
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_OPT := -O1
# Debug info for the line numbers a finding's report needs. check's second
# a target builds without it, at -O0 and under ASan alone, in a folder of
# its own (tests/check.sh: FUZZ_DEBUG= FUZZ_OPT=-O0 FUZZ_SAN=address
# FUZZ_DIR=$(BUILD)/fuzz-smoke): a smoke proves the build and the targets
# run, which needs no speed, clang's ASan at -O0 takes half the compiler
# time of -O1, and UBSan's checks were a third of what is left (`make fuzz`
# keeps all three).
FUZZ_DEBUG := -g
FUZZ_SAN := address,undefined,float-cast-overflow
FUZZ_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(FUZZ_OPT) $(FUZZ_DEBUG) $(WARN) $(BZ2_CFLAGS) -Isrc -I$(BUILD)/gen \
	-fsanitize=$(FUZZ_SAN) -fno-sanitize-recover=all -fno-omit-frame-pointer
# The bzip2 walk's register loops (one per K) sent clang-14's -O1 under ASan
# into 200 s for this one file; at -O0 it compiles in a second and the
# decoder fuzz target still runs every instrumented line of it.
$(FUZZ_DIR)/obj/src/bzip2/ibwt.o: FUZZ_OPT := -O0
# The code that measures (src/exp/ but the curve analysis the readers
# share, the hot loops in src/kern/, the JIT, the per-ISA files and the run
# driver) is run by no fuzz target: the targets parse bytes, this code
# chases arenas on the live machine. The fuzz binaries link the normal
# build's objects for it, uninstrumented: under clang's ASan src/kern/ cost
# 30 s of CPU even at -O0 and src/exp/ 22 s, most of the fuzz build's time
# on `make check`'s longest lane.
FUZZ_NATIVE_SRC := $(filter-out src/exp/curve_falls.c,\
	$(filter src/kern/% src/exp/% src/jit/% src/arch/% src/run/%,$(LIB_SRC)))
FUZZ_OBJ := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(filter-out $(FUZZ_NATIVE_SRC),$(LIB_SRC))) \
	$(FUZZ_NATIVE_SRC:%.c=$(BUILD)/obj/%.o)
FUZZ_BIN := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)

$(FUZZ_DIR)/obj/%.o: %.c $(BUILDINFO)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $(filter-out %.h,$^) $(LDLIBS)
$(FUZZ_DIR)/fuzz_bzip2 $(FUZZ_DIR)/fuzz_bzip2_paths: tests/fuzz/bzip2_sink.h

# The objects are named only by the pattern rule above, so make would treat
# them as intermediates and delete them after linking; kept, a second
# `make fuzz` rebuilds nothing.
.SECONDARY: $(FUZZ_OBJ)

# The suite under ASan, UBSan and float-cast-overflow (not part of gcc's
# "undefined"), every report fatal, in its own build folder.
SAN_FLAGS := address,undefined,float-cast-overflow
test-sanitize:
	$(MAKE) --no-print-directory BUILD=$(BUILD)/san SANITIZE=$(SAN_FLAGS) CFLAGS=-fno-sanitize-recover=all test

fuzz-build: $(FUZZ_BIN)

fuzz: fuzz-build
	tests/fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# One second a target: the seeds and the regression cases replay, then the
# target mutates (from about 150 executions for the production decoder to
# 80,000 for the CLI parser on the 2-vCPU guest). Longer runs are `make
# fuzz`'s.
fuzz-smoke: fuzz-build
	tests/fuzz/run.sh $(FUZZ_DIR) 1 $(FUZZ_TARGETS)

# The JIT encoders' gold listings (tests/gold/jit_*.txt) are objdump's view
# of a fixed sample probe; rewrite them only after checking the new listing.
regen-jit-gold: $(TESTBIN)
	MLPSCOPE_REGEN_GOLD=1 $(TESTBIN) jit_gold

# Every hot loop that is compiled ahead of time: the lanes kernels and the
# bandwidth streams (scalar, and each vector width built for this ISA). The
# window probe is generated at run time: see `mlpscope window --dump-code`.
STREAM_OBJ := $(filter $(BUILD)/obj/src/kern/stream.o $(BUILD)/obj/src/arch/stream_%.o,$(LIB_OBJ))
disasm: $(BUILD)/obj/src/kern/lanes.gen.o $(STREAM_OBJ)
	objdump -d --no-show-raw-insn $(BUILD)/obj/src/kern/lanes.gen.o > $(BUILD)/lanes.disasm
	objdump -d --no-show-raw-insn $(STREAM_OBJ) > $(BUILD)/stream.disasm
	@echo "wrote $(BUILD)/lanes.disasm and $(BUILD)/stream.disasm"

# The app section's generated lane kernels: stack (spill) loads and stores
# per kernel, the evidence behind "a drop at large K in the register form
# alone points at spills".
app-spills: $(BUILD)/obj/src/kern/app.gen.o
	@tools/app_spills.sh $<

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
