# Galley: build, test, demo and benchmark on Debian 12 with the Swift toolchain.
# `make demo` and `make test` are all a fresh machine needs: both run `setup` first.

SWIFT        ?= swift
PREFIX       ?= /usr/local
CONFIG       ?= release
BIN          := .build/$(CONFIG)/galley
OUT          ?= out
# Tests see only the fonts setup installs (see Tests/fonts.conf).
TEST_FONTS   := $(CURDIR)/Tests/fonts.conf

# Everything the project needs from Debian: libraries, fonts, hyphenation dictionaries, PDF tools
# (libqpdf-dev for the press post-pass; ghostscript ships the default output intent and sRGB profiles
# and converts --cmyk builds; liblcms2-dev builds their device link).
APT_PACKAGES := pkg-config zlib1g-dev libdeflate-dev libisal-dev libfreetype-dev libcairo2-dev libpango1.0-dev libpng-dev libgdk-pixbuf-2.0-dev librsvg2-2 \
                libhyphen-dev hyphen-en-us hyphen-en-gb hyphen-de hyphen-fr hyphen-es hyphen-it \
                hyphen-nl hyphen-pt-pt hyphen-pt-br \
                fonts-dejavu fonts-urw-base35 fonts-liberation2 fonts-noto-cjk fonts-noto-color-emoji \
                fonts-croscore fonts-crosextra-carlito fonts-crosextra-caladea fonts-roboto-slab \
                fonts-comic-neue fonts-arphic-ukai \
                poppler-utils qpdf libqpdf-dev liblcms2-dev ghostscript texlive-binaries
# Only for `make bench`: the corpus sources and timing tools.
BENCH_PACKAGES := bible-kjv fortunes-zh hyperfine time python3-venv

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all setup build test sanitize fuzz demo bench lint install clean

all: build

# Idempotent: installs only what is missing, then makes sure the font cache is warm.
setup:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "setup: installing $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	  fc-cache -f >/dev/null; \
	else \
	  fc-cache >/dev/null; \
	fi

build: setup
	$(SWIFT) build -c $(CONFIG) --static-swift-stdlib --product galley

test: setup
	FONTCONFIG_FILE=$(TEST_FONTS) $(SWIFT) test --parallel

# Every sample through galley built with AddressSanitizer (C libraries' misuse of Swift buffers
# shows up here: libhyphen once read past a word that had no NUL), then every fuzz input kept
# (Tests/Fuzz) through its target's replayer. Our C is also built with UndefinedBehaviorSanitizer
# (swiftc has no -sanitize=undefined for Swift, whose arithmetic traps on its own). Any report
# fails the target, as does a data race in the ThreadSanitizer pass below.
ASAN_DIR := .build/asan
ASAN_BUILD := -c release --scratch-path $(ASAN_DIR) -Xswiftc -sanitize=address -Xcc -fsanitize=address,undefined
SANITIZE_REPORT := 'AddressSanitizer|runtime error:'
# Then galley's Swift built with ThreadSanitizer (our C is not: TSan's instrumentation runs in the
# pixel kernels' ifunc resolvers before its runtime starts), through the builds whose threads
# share the most: shaping ahead of the drawing thread, an issue's articles laid out in parallel,
# the press post-pass's helpers.
TSAN_DIR := .build/tsan
TSAN_BUILD := -c release --scratch-path $(TSAN_DIR) -Xswiftc -sanitize=thread
TSAN_COMMANDS := "build samples/feature.txt --social -o $(TSAN_DIR)/out/feature.pdf" \
  "build samples/long.txt -o $(TSAN_DIR)/out/long.pdf" \
  "build samples/issue/issue.json --root samples --press -o $(TSAN_DIR)/out/issue.pdf" \
  "preview samples/issue/issue.json --root samples --page 3 -o $(TSAN_DIR)/out/issue.png"
sanitize: setup
	$(SWIFT) build $(ASAN_BUILD) --product galley
	@mkdir -p $(ASAN_DIR)/out
	@for f in samples/*.txt; do \
	  n=$$(basename $$f .txt); \
	  for cmd in "build $$f --social -o $(ASAN_DIR)/out/$$n.pdf" "preview $$f --social --dpi 200 -o $(ASAN_DIR)/out/$$n.png" \
	             "inspect $$f --social --json"; do \
	    ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 FONTCONFIG_FILE=$(TEST_FONTS) \
	      $(ASAN_DIR)/release/galley $$cmd -q >$(ASAN_DIR)/out/log 2>&1; \
	    if grep -Eq $(SANITIZE_REPORT) $(ASAN_DIR)/out/log; then cat $(ASAN_DIR)/out/log; echo "sanitize: galley $$cmd"; exit 1; fi; \
	  done; \
	  echo "sanitize: $$f clean"; \
	done
	@for t in $(FUZZ_TARGETS); do \
	  $(SWIFT) build $(ASAN_BUILD) --product GalleyFuzz$$(echo $$t | sed 's/^./\U&/') >/dev/null || exit 1; \
	done
	@for t in $(FUZZ_TARGETS); do \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 SWIFT_BACKTRACE=enable=no FONTCONFIG_FILE=$(TEST_FONTS) \
	    $(ASAN_DIR)/release/GalleyFuzz$$(echo $$t | sed 's/^./\U&/') Tests/Fuzz/corpus/$$t $$(ls -d Tests/Fuzz/regressions/$$t 2>/dev/null) \
	    >$(ASAN_DIR)/out/log 2>&1; status=$$?; \
	  if [ $$status != 0 ] || grep -Eq $(SANITIZE_REPORT) $(ASAN_DIR)/out/log; then \
	    tail -40 $(ASAN_DIR)/out/log; echo "sanitize: fuzz inputs of $$t"; exit 1; fi; \
	  echo "sanitize: $$(tail -1 $(ASAN_DIR)/out/log), clean"; \
	done
	$(SWIFT) build $(TSAN_BUILD) --product galley
	@mkdir -p $(TSAN_DIR)/out
	@for cmd in $(TSAN_COMMANDS); do \
	  TSAN_OPTIONS=halt_on_error=0 FONTCONFIG_FILE=$(TEST_FONTS) $(TSAN_DIR)/release/galley $$cmd -q >$(TSAN_DIR)/out/log 2>&1; \
	  status=$$?; \
	  if [ $$status != 0 ] || grep -q ThreadSanitizer $(TSAN_DIR)/out/log; then cat $(TSAN_DIR)/out/log; echo "sanitize (threads): galley $$cmd"; exit 1; fi; \
	  echo "sanitize (threads): galley $$cmd clean"; \
	done

# Each fuzz target (Sources/GalleyFuzz) for FUZZ_SECONDS under libFuzzer and AddressSanitizer, one
# process, from the kept corpus (Tests/Fuzz/corpus/TARGET, read only) and what earlier runs found
# (.build/fuzz/corpus/TARGET). A crash stops the run with its input in .build/fuzz/crashes/TARGET/:
# once fixed, that input goes to Tests/Fuzz/regressions/TARGET/, which the tests replay.
FUZZ_DIR     := .build/fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= markup template emoticons layout manifest
# Each target's executable and its longest input: a few lines of markup, a template, a pack;
# less for a whole layout.
FUZZ_markup    := GalleyFuzzMarkup 4096
FUZZ_template  := GalleyFuzzTemplate 4096
FUZZ_emoticons := GalleyFuzzEmoticons 2048
FUZZ_layout    := GalleyFuzzLayout 512
FUZZ_manifest  := GalleyFuzzManifest 4096
FUZZ_BUILD   := -c release --scratch-path $(FUZZ_DIR) -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
                -Xcc -fsanitize=fuzzer-no-link,address
fuzz: $(addprefix fuzz-,$(FUZZ_TARGETS))

fuzz-%: setup
	$(SWIFT) build $(FUZZ_BUILD) --product $(word 1,$(FUZZ_$*))
	@mkdir -p $(FUZZ_DIR)/corpus/$* $(FUZZ_DIR)/crashes/$*
	@echo "fuzz: $* for $(FUZZ_SECONDS) s"
	@SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 FONTCONFIG_FILE=$(TEST_FONTS) \
	  $(FUZZ_DIR)/release/$(word 1,$(FUZZ_$*)) $(FUZZ_DIR)/corpus/$* Tests/Fuzz/corpus/$* \
	  -max_total_time=$(FUZZ_SECONDS) -max_len=$(word 2,$(FUZZ_$*)) -timeout=10 -rss_limit_mb=2048 \
	  -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/crashes/$*/ $(FUZZ_ARGS) >$(FUZZ_DIR)/$*.log 2>&1 \
	  || { tail -40 $(FUZZ_DIR)/$*.log; echo "fuzz: $* failed (log: $(FUZZ_DIR)/$*.log); once fixed, copy its input" \
	       "from $(FUZZ_DIR)/crashes/$*/ to Tests/Fuzz/regressions/$*/"; exit 1; }
	@grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' $(FUZZ_DIR)/$*.log

# Typesets every sample to PDF, and page 1 of each to PNG, in $(OUT)/.
demo: build
	@mkdir -p $(OUT)
	@for f in samples/*.txt; do \
	  n=$$(basename $$f .txt); \
	  $(BIN) build $$f -o $(OUT)/$$n.pdf && $(BIN) preview $$f --page 1 -q -o $(OUT)/$$n.png || exit 1; \
	  echo "demo: $(OUT)/$$n.pdf ($$(pdfinfo $(OUT)/$$n.pdf | awk '/^Pages/ {print $$2}') pages), $(OUT)/$$n.png"; \
	done
	@# The issue: its articles are the samples, beside its folder, so the root is samples/.
	@$(BIN) build samples/issue/issue.json --root samples -o $(OUT)/issue.pdf && \
	  $(BIN) preview samples/issue/issue.json --root samples --page 1 -q -o $(OUT)/issue.png && \
	  echo "demo: $(OUT)/issue.pdf ($$(pdfinfo $(OUT)/issue.pdf | awk '/^Pages/ {print $$2}') pages), $(OUT)/issue.png"

# Builds the benchmark corpus and Typst (PyPI), then prints timings, memory and ratios.
bench: build
	@missing=$$(for p in $(BENCH_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; done); \
	if [ -n "$$missing" ]; then $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi
	python3 Tests/Bench/bench.py --galley $(BIN)

lint:
	$(SWIFT) format lint --recursive --strict --configuration .swift-format Sources Tests Package.swift
	@# The pipeline links FoundationEssentials only (ARCHITECTURE.md: 7 MiB and 40 ms a run).
	@! grep -rln --include='*.swift' '^import Foundation$$' Sources --exclude-dir=TestSupport \
		|| { echo 'lint: import FoundationEssentials, not Foundation, outside TestSupport'; exit 1; }

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/galley/templates
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/galley
	install -m 644 templates/*.json $(DESTDIR)$(PREFIX)/share/galley/templates/

clean:
	rm -rf .build $(OUT)
