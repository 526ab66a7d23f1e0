#!/usr/bin/env python3
"""Galley's performance and typography figures, each against its target.

Run from anywhere (paths are relative to the repository root):

    python3 Tests/Bench/bench.py --galley .build/release/galley [--runs 5] [--only NAME]
                                 [--skip-peer] [--markdown] [--strict]

Everything this script writes stays under .build/bench/: the corpus (corpus/), the one-page input,
Typst's virtual environment (venv/), and the PDFs and PNGs of the runs (out/).
Python 3 standard library only. See Tests/Bench/README.md for what each figure means.
"""
import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, ".build", "bench")
CORPUS = os.path.join(BENCH, "corpus")
OUT = os.path.join(BENCH, "out")
VENV = os.path.join(BENCH, "venv")
STDERR_LOG = os.path.join(BENCH, "last-stderr.log")
ONE_PAGE = os.path.join(BENCH, "one-page.galley.txt")

TYPST_VERSION = "0.15.2"
XL_KB = 6000
RUN_TIMEOUT = 900  # seconds for one run of one command before it is killed

# What make_corpus.py writes per corpus name (see its write()); all must exist to skip making it.
CORPUS_NAMES = ["en-small", "en-large", "en-xl", "cjk-small"]
COMMON_SUFFIXES = [".txt", ".plain.txt", ".galley.txt", ".pango", ".typ", ".html"]
EN_SUFFIXES = [".lua.tex", ".pdf.tex", ".ms"]

MEASUREMENTS = ["en-large", "en-xl", "preview", "one-page", "faces", "en-small", "cjk-small", "cjk-punctuation", "attributes", "smart-quotes", "press", "cmyk", "floats", "spans", "social-line", "breaks", "line-diagnostics",
                "font-tags", "spacing"]
ISSUE_DIR = os.path.join(CORPUS, "issue")
PATHOLOGICAL = ["marks", "unclosed-spans", "float-captions", "page-caption", "long-paragraph", "input-50mb"]
# input-50mb last: its 50 MB strings raise this script's peak memory, and Linux reports a
# child's peak (ru_maxrss) as at least its parent's at the fork, so a memory figure measured
# after it would be this script's, not galley's.
MEASUREMENTS += [m for m in PATHOLOGICAL if m != "input-50mb"] + ["issue", "watch", "input-50mb"]
NEEDS_PEER = {"issue", "watch", "en-large", "en-small", "cjk-small"}
WATCH_EDITS = 100
# The watch figures are taken in rounds: WATCH_EDITS / WATCH_ROUNDS of galley's edits, then
# WATCH_PEER_EDITS of Typst's, in turn, so that both see the machine at the same speed.
WATCH_ROUNDS = 5
WATCH_PEER_EDITS = 3
RATIO_RUNS = 11  # the fewest rounds of a ratio that has a limit (see Bench.ratio)


def log(msg=""):
    print(msg, file=sys.stderr, flush=True)


def rel(path):
    r = os.path.relpath(path, ROOT)
    return path if r.startswith("..") else r


class SetupError(Exception):
    pass


# ----------------------------------------------------------------- shared material
def find_shared():
    """The folder with make_corpus.py and run_typst.py: $GALLEY_BENCH_SHARED, else shared/bench
    beside the repository or beside any folder above it (../shared/bench from a checkout)."""
    env = os.environ.get("GALLEY_BENCH_SHARED")
    candidates = [env] if env else []
    d = ROOT
    while True:
        candidates.append(os.path.join(os.path.dirname(d), "shared", "bench"))
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    for c in candidates:
        if c and os.path.isfile(os.path.join(c, "make_corpus.py")) and os.path.isfile(os.path.join(c, "run_typst.py")):
            return os.path.abspath(c)
    raise SetupError("cannot find shared/bench/make_corpus.py and run_typst.py beside the repository "
                     "(set GALLEY_BENCH_SHARED to the folder that holds them)")


# ----------------------------------------------------------------- corpus
def corpus_files():
    files = []
    for name in CORPUS_NAMES:
        suffixes = COMMON_SUFFIXES + ([] if name.startswith("cjk") else EN_SUFFIXES)
        files += [os.path.join(CORPUS, name + s) for s in suffixes]
    return files


def corpus_complete():
    return all(os.path.isfile(f) and os.path.getsize(f) > 0 for f in corpus_files())


def ensure_corpus(shared):
    if corpus_complete():
        log(f"corpus: {rel(CORPUS)} is complete, reusing it")
        return
    missing = []
    if not shutil.which("bible"):
        missing.append("bible-kjv")
    if not os.path.isfile("/usr/share/games/fortunes/tang300"):
        missing.append("fortunes-zh")
    if missing:
        raise SetupError(f"the corpus needs {' and '.join(missing)}: apt-get install -y {' '.join(missing)} "
                         "(or run `make bench`, which installs them)")
    log(f"corpus: making {rel(CORPUS)} (make_corpus.py --xl-kb {XL_KB}) ...")
    tmp = CORPUS + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    env = dict(os.environ, CORPUS_DIR=tmp)
    r = subprocess.run([sys.executable, os.path.join(shared, "make_corpus.py"), "--xl-kb", str(XL_KB)],
                       cwd=BENCH, env=env, stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise SetupError(f"make_corpus.py failed (exit {r.returncode})")
    shutil.rmtree(CORPUS, ignore_errors=True)
    os.rename(tmp, CORPUS)
    if not corpus_complete():
        raise SetupError("make_corpus.py did not write every expected file into " + rel(CORPUS))


def ensure_one_page():
    """A few paragraphs (~2 KB) of en-small: a heading and the paragraphs that follow it."""
    with open(os.path.join(CORPUS, "en-small.galley.txt"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    out, size = [], 0
    for line in lines:
        if size >= 2000:
            break
        out.append(line)
        size += len(line.encode()) + 1
    text = "\n".join(out) + "\n"
    try:
        with open(ONE_PAGE, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(ONE_PAGE, "w", encoding="utf-8") as f:
        f.write(text)


ATTRIBUTES = os.path.join(ROOT, ".build", "bench", "en-large-attributes.galley.txt")
FLOATS = os.path.join(ROOT, ".build", "bench", "en-large-floats.galley.txt")
SPANS = os.path.join(ROOT, ".build", "bench", "en-large-h1.galley.txt")
FLOAT_IMAGE = os.path.join(ROOT, "samples", "images", "chart.png")
# One paragraph of Weibo-style posts, and the same four times longer (issue 5: a huge number of
# codes on one line must cost no more than linear time).
SOCIAL_POSTS = 1500
# Core Text style markup: <font> tags that change the style and are never closed, and inline
# tags closed among them (each close once copied the whole stack of open fonts).
FONT_LINES = 4000
FONT_TAGS = os.path.join(ROOT, ".build", "bench", "font-tags.galley.txt")
FONT_TAGS_4X = os.path.join(ROOT, ".build", "bench", "font-tags-4x.galley.txt")
BREAKS = 10000
BREAK_RUN = os.path.join(ROOT, ".build", "bench", "breaks.galley.txt")
BREAK_RUN_4X = os.path.join(ROOT, ".build", "bench", "breaks-4x.galley.txt")
LINE_DIAGNOSTICS = 1000
LINE_DIAGNOSTICS_1X = os.path.join(ROOT, ".build", "bench", "line-diagnostics.galley.txt")
LINE_DIAGNOSTICS_4X = os.path.join(ROOT, ".build", "bench", "line-diagnostics-4x.galley.txt")
SOCIAL_LINE = os.path.join(ROOT, ".build", "bench", "social-line.galley.txt")
SOCIAL_LINE_4X = os.path.join(ROOT, ".build", "bench", "social-line-4x.galley.txt")


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def ensure_variants():
    """en-large with attributes sprinkled (two or three spans in every body paragraph), and
    en-large with a floating image every 5 paragraphs (issues 3 and 4 measure their cost)."""
    with open(os.path.join(CORPUS, "en-large.galley.txt"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    spans = [
        '<span weight="bold">', '<i>', '<span underline="single">', '<span background="#fff3b0">',
        '<span kern="0.5">', '<span strikethrough="single" strikethroughColor="red">', '<span baseline="2">',
        '<span shadow="0.5 0.5 1 gray">', '<span obliqueness="0.15">', '<span expansion="0.1">',
        '<span ligatures="0">', '<span features="onum">', '<a href="https://example.com/x">',
    ]
    closers = {"<i>": "</i>", '<a href="https://example.com/x">': "</a>"}
    out, body = [], 0
    for line in lines:
        if line.startswith("<font") or not line.strip():
            out.append(line)
            continue
        words = line.split(" ")
        n = 2 + body % 2
        for k in range(n):
            i = (body * 7 + k * 13) % len(spans)
            at = (len(words) * (k + 1)) // (n + 1)
            if at + 2 >= len(words):
                continue
            # Not inside or next to existing markup.
            before = " ".join(words[:at])
            if before.count("<") != before.count(">") or any(c in w for w in words[at:at + 3] for c in '<>"='):
                continue
            opener = spans[i]
            closer = closers.get(opener, "</span>")
            words[at] = opener + words[at]
            words[at + 2] = words[at + 2] + closer
        out.append(" ".join(words))
        body += 1
    write_if_changed(ATTRIBUTES, "\n".join(out) + "\n")
    # The image beside the document: images are read only under the input's folder.
    image = os.path.join(os.path.dirname(FLOATS), os.path.basename(FLOAT_IMAGE))
    if not os.path.isfile(image):
        shutil.copyfile(FLOAT_IMAGE, image)
    out, body = [], 0
    for line in lines:
        out.append(line)
        if not line.startswith("<font") and line.strip():
            body += 1
            if body % 5 == 0:
                side = "left" if body % 10 == 0 else "right"
                out.append(f'<img src="{os.path.basename(image)}" float="{side}" width="35%" margin="6">')
    write_if_changed(FLOATS, "\n".join(out) + "\n")
    # Every chapter heading an <h1> (built with headings.h1.span=all: across the columns, the
    # columns above it balanced).
    heading = re.compile(r'^<font face="DejaVu Serif Bold" size="12">(.*)</font>$')
    write_if_changed(SPANS, "\n".join(heading.sub(r"<h1>\1</h1>", line) for line in lines) + "\n")
    codes = ["[微笑]", "[哈哈]", "[心]", "[赞]", "[doge]", "[泪]"]

    def posts(n):
        return "".join(f"{codes[i % len(codes)]}@读者{i}：转发 #排版# https://example.com/p/{i} 好文{codes[(i * 5) % len(codes)]} "
                       for i in range(n)) + "\n"

    write_if_changed(SOCIAL_LINE, posts(SOCIAL_POSTS))

    def font_lines(n):
        colors = ["#8b0000", "#00008b", "#006400", "black"]
        return "".join(f'<font color="{colors[i % 4]}">Line {i} of the story, <b>set in bold</b> and <i>italic</i>, '
                       f'then <font color="{colors[(i + 1) % 4]}">another colour until the next one.\n' for i in range(n))

    write_if_changed(FONT_TAGS, font_lines(FONT_LINES))
    write_if_changed(FONT_TAGS_4X, font_lines(4 * FONT_LINES))
    write_if_changed(SOCIAL_LINE_4X, posts(4 * SOCIAL_POSTS))
    # A pathological shape (hardening): one paragraph of consecutive <br>s.
    write_if_changed(BREAK_RUN, "x" + "<br>" * BREAKS + "\n")
    write_if_changed(BREAK_RUN_4X, "x" + "<br>" * (4 * BREAKS) + "\n")
    # Another: thousands of diagnostics on one line (a warning: an unknown class, again and again).
    write_if_changed(LINE_DIAGNOSTICS_1X, '<span class="nope">x</span>' * LINE_DIAGNOSTICS + "\n")
    write_if_changed(LINE_DIAGNOSTICS_4X, '<span class="nope">x</span>' * (4 * LINE_DIAGNOSTICS) + "\n")


# ----------------------------------------------------------------- peer (Typst from PyPI)
def venv_python():
    return os.path.join(VENV, "bin", "python")


def typst_installed_version():
    py = venv_python()
    if not os.path.isfile(py):
        return None
    r = subprocess.run([py, "-c", "import importlib.metadata as m, typst; print(m.version('typst'))"],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    return r.stdout.strip() if r.returncode == 0 else None


def ensure_typst():
    """Returns (python of the venv, None) when Typst is ready, else (None, reason)."""
    v = typst_installed_version()
    if v == TYPST_VERSION:
        log(f"peer: Typst {v} in {rel(VENV)}")
        return venv_python(), None
    py = venv_python()
    if os.path.isfile(py):
        ok = subprocess.run([py, "-m", "pip", "--version"], capture_output=True, stdin=subprocess.DEVNULL).returncode == 0
        if not ok:
            shutil.rmtree(VENV, ignore_errors=True)
    if not os.path.isfile(py):
        log(f"peer: creating {rel(VENV)} ...")
        r = subprocess.run([sys.executable, "-m", "venv", VENV], capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if r.returncode != 0:
            shutil.rmtree(VENV, ignore_errors=True)
            return None, "python3 -m venv failed (is python3-venv installed?): " + last_line(r.stderr or r.stdout)
    log(f"peer: pip install typst=={TYPST_VERSION} ...")
    try:
        r = subprocess.run([py, "-m", "pip", "install", "--no-cache-dir", "--disable-pip-version-check", "-q",
                            f"typst=={TYPST_VERSION}"], capture_output=True, text=True, timeout=900,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, "pip install timed out (no network?)"
    if r.returncode != 0:
        return None, "pip install failed (no network?): " + last_line(r.stderr or r.stdout)
    v = typst_installed_version()
    if v != TYPST_VERSION:
        return None, f"after pip install, typst is {v or 'not importable'}"
    log(f"peer: Typst {v} installed")
    return py, None


def last_line(text):
    lines = [l for l in (text or "").strip().splitlines() if l.strip()]
    return lines[-1].strip() if lines else "(no output)"


# ----------------------------------------------------------------- running and timing
class Cmd:
    def __init__(self, key, argv, env=None):
        self.key, self.argv, self.env = key, argv, env
        self.times, self.rss_kib = [], []
        self.error = None

    @property
    def median(self):
        return statistics.median(self.times) if self.times else None

    def over(self, other):
        """This command's time as a multiple of `other`'s, timed in the same rounds: the median of the
        rounds' own ratios. A round's two runs see the same load, so a drift of the machine's speed
        between rounds cancels out of each ratio, where it would not out of a ratio of medians."""
        pairs = list(zip(self.times, other.times))
        if not pairs or len(self.times) != len(other.times):
            return self.median / other.median if self.times and other.times else None
        return statistics.median(a / b for a, b in pairs)

    @property
    def peak_mib(self):
        return max(self.rss_kib) / 1024 if self.rss_kib else None


def run_once(argv, env=None):
    """Runs argv once; returns (wall seconds, peak RSS in KiB, CPU seconds, exit status, stderr text).
    The child is reaped with os.wait4 so that its own ru_maxrss (KiB on Linux) is read."""
    with open(STDERR_LOG, "w+b") as err:
        start = time.perf_counter()
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                             env=env, cwd=ROOT)
        done = threading.Event()

        def kill():
            # SIGTERM first: galley removes its temporary output before it dies; then SIGKILL.
            for sig, grace in ((signal.SIGTERM, 5), (signal.SIGKILL, 0)):
                if done.is_set():
                    return
                try:
                    os.kill(p.pid, sig)
                except ProcessLookupError:
                    return
                done.wait(grace)

        timer = threading.Timer(RUN_TIMEOUT, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(p.pid, 0)
        finally:
            done.set()
            timer.cancel()
        elapsed = time.perf_counter() - start
        p.returncode = os.waitstatus_to_exitcode(status)  # tell Popen it has been reaped
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    return elapsed, usage.ru_maxrss, usage.ru_utime + usage.ru_stime, p.returncode, stderr


CAIRO_FLOOR = re.compile(r"Cairo writing the pages (\d+) ms, Cairo writing the fonts (\d+) ms")


def cairo_floor(stderr):
    """Seconds Cairo spent writing the pages and the fonts, from a `--timings` line; None without one."""
    m = CAIRO_FLOOR.search(stderr)
    return (int(m.group(1)) + int(m.group(2))) / 1000 if m else None


def measure(title, cmds, runs, warmup=1):
    """Runs cmds in turn, `warmup` discarded rounds, then `runs` timed ones; every other round in
    the reverse order (a, b, then b, a, ...), so that whatever the second place in a round does to
    a time (a cache the first command warmed, a clock that had sped up) falls on each alike."""
    for c in cmds:
        log(f"  {c.key}: {' '.join(shown(a) for a in c.argv)}")
    total = warmup + runs
    for i in range(total):
        parts = []
        for c in (cmds if i % 2 == 0 else cmds[::-1]):
            if c.error:
                continue
            t, rss, cpu, rc, stderr = run_once(c.argv, c.env)
            if rc != 0:
                c.error = f"exit {rc}: {last_line(stderr)}"
                log(f"  {c.key} failed ({c.error})" + (":\n" + indent(stderr.strip()[-2000:]) if stderr.strip() else ""))
                continue
            if i >= warmup:
                c.times.append(t)
                c.rss_kib.append(rss)
            parts.append(f"{c.key} {t:.3f} s (cpu {cpu:.2f} s) {rss / 1024:.1f} MiB")
        if not parts:
            break
        label = "warm-up" if i < warmup else f"run {i - warmup + 1}/{runs}"
        log(f"  {title} {label}: " + " | ".join(parts))


def shown(arg):
    if os.path.isabs(arg):
        arg = rel(arg)
    return arg if arg and " " not in arg else repr(arg)


def indent(text):
    return "\n".join("    " + l for l in text.splitlines())


# ----------------------------------------------------------------- table
class Row:
    def __init__(self, what, galley="", peer="", value="", target="", status=""):
        self.cells = [what, galley, peer, value, target, status]


HEADERS = ["what", "galley", "peer", "ratio / value", "target", "result"]


def fmt_s(t):
    if t is None:
        return "—"
    return f"{t * 1000:.0f} ms" if t < 1 else f"{t:.2f} s"


def fmt_mib(m):
    return "—" if m is None else f"{m:.1f} MiB"


def fmt_x(r):
    return "—" if r is None else f"{r:.2f}×"


def verdict(value, limit):
    if value is None:
        return "n/a"
    return "PASS" if value <= limit else "FAIL"


def text_table(rows):
    widths = [max(len(r.cells[i]) for r in rows + [Row(*HEADERS)]) for i in range(len(HEADERS))]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    out = [line(HEADERS), "  ".join("-" * w for w in widths)]
    out += [line(r.cells) for r in rows]
    return "\n".join(out)


def markdown_table(rows):
    esc = lambda s: s.replace("|", "\\|") or " "
    out = ["| " + " | ".join(HEADERS) + " |", "| " + " | ".join("---" for _ in HEADERS) + " |"]
    out += ["| " + " | ".join(esc(c) for c in r.cells) + " |" for r in rows]
    return "\n".join(out)


# ----------------------------------------------------------------- the measurements
class Bench:
    def __init__(self, galley, runs, typst_py, peer_reason, shared):
        self.galley, self.runs = galley, runs
        self.typst_py, self.peer_reason, self.shared = typst_py, peer_reason, shared
        self.rows, self.notes = [], []
        self.social = "--social" in subprocess.run([galley, "build", "--help"], capture_output=True,
                                                   text=True, stdin=subprocess.DEVNULL).stdout

    def corpus(self, name):
        return os.path.join(CORPUS, name + ".galley.txt")

    def build(self, name, *extra):
        return Cmd("galley", [self.galley, "build", self.corpus(name), "-o", os.path.join(OUT, f"galley-{name}.pdf"), *extra])

    def typst(self, name):
        if not self.typst_py:
            return None
        env = dict(os.environ, CORPUS_DIR=CORPUS, OUT_DIR=OUT)
        return Cmd("typst", [self.typst_py, os.path.join(self.shared, "run_typst.py"), name], env)

    def error_row(self, what, cmd):
        self.rows.append(Row(what, "error", "", "", "", "ERROR"))
        self.notes.append(f"{what}: {cmd.key} {cmd.error}")

    @staticmethod
    def without_hooks(cmd):
        """The same command with the executable's hooks into zlib and FreeType off."""
        return Cmd(cmd.key + "-no-hooks", cmd.argv, dict(cmd.env or os.environ, GALLEY_NO_HOOKS="1"))

    def hooks_off_row(self, what, off, versus):
        """The row of a hooks-off run beside its hooks-on figure: reported, with no target."""
        if off.error:
            self.error_row(what, off)
            return
        ratio = off.over(versus) if versus and versus.times else None
        self.rows.append(Row(what, fmt_s(off.median), fmt_s(versus.median if versus else None), fmt_x(ratio), "reported", "info"))

    def versus(self, name, label, galley_cmd, time_targets, mem_target=None, hooks_off=False):
        """galley vs typst on one corpus file; time_targets: [(what, limit or None, target text)].
        With `hooks_off`, the same build with GALLEY_NO_HOOKS=1 is timed in the same rounds."""
        peer = self.typst(name)
        off = self.without_hooks(galley_cmd) if hooks_off else None
        log(f"{label}:")
        measure(name, [c for c in (galley_cmd, off, peer) if c], self.runs)
        if galley_cmd.error:
            self.error_row(label, galley_cmd)
            return
        if peer and peer.error:
            self.notes.append(f"{label}: Typst {peer.error}")
        g = galley_cmd.median
        p = peer.median if peer and not peer.error else None
        ratio = galley_cmd.over(peer) if p else None
        for what, limit, target in time_targets:
            if limit is None:
                status = "info" if ratio is not None else "n/a"
            else:
                status = verdict(ratio, limit)
            self.rows.append(Row(what, fmt_s(g), fmt_s(p), fmt_x(ratio), target, status))
        if off:
            self.hooks_off_row(f"{name} build, hooks off ÷ hooks on", off, galley_cmd)
            if p and not off.error:
                self.rows.append(Row(f"{name} build, hooks off, vs Typst", fmt_s(off.median), fmt_s(p), fmt_x(off.over(peer)),
                                     "reported", "info"))
        what = f"{name} peak memory"
        pm = peer.peak_mib if peer and not peer.error else None
        if mem_target is None:
            self.rows.append(Row(what, fmt_mib(galley_cmd.peak_mib), fmt_mib(pm), fmt_mib(galley_cmd.peak_mib), "", "info"))
        else:
            self.rows.append(Row(what, fmt_mib(galley_cmd.peak_mib), fmt_mib(pm), fmt_mib(galley_cmd.peak_mib),
                                 f"≤ {mem_target} MiB", verdict(galley_cmd.peak_mib, mem_target)))

    def m_en_large(self):
        self.versus("en-large", "en-large build (600 KB) vs Typst", self.build("en-large"),
                    [("en-large build time vs Typst", 0.35, "≤ 0.35× (issue 6)"),
                     ("en-large build time vs Typst, core", 0.5, "≤ 0.5× (core issue)")],
                    mem_target=40, hooks_off=True)

    def m_issue(self):
        """The 20-article issue (make_issue.py) against its Typst twin."""
        if not os.path.isfile(os.path.join(ISSUE_DIR, "issue.json")):
            log("issue: making it (make_issue.py) ...")
            env = dict(os.environ, CORPUS_DIR=CORPUS)
            r = subprocess.run([sys.executable, os.path.join(self.shared, "make_issue.py")], env=env, stdin=subprocess.DEVNULL)
            if r.returncode != 0:
                self.rows.append(Row("issue build vs Typst", "error", "", "", "", "ERROR"))
                self.notes.append(f"make_issue.py failed (exit {r.returncode})")
                return
        g = Cmd("galley", [self.galley, "build", os.path.join(ISSUE_DIR, "issue.json"), "-o", os.path.join(OUT, "galley-issue.pdf"), "-q"])
        cached = self.issue_cache_rebuild()
        peer = None
        if self.typst_py:
            env = dict(os.environ, CORPUS_DIR=ISSUE_DIR, OUT_DIR=OUT)
            peer = Cmd("typst", [self.typst_py, os.path.join(self.shared, "run_typst.py"), "issue"], env)
        log("the 20-article issue (galley, then Typst on its twin):")
        measure("issue", [c for c in (g, cached, peer) if c], self.runs)
        if g.error:
            self.error_row("issue build vs Typst", g)
            return
        p = peer.median if peer and not peer.error else None
        ratio = g.over(peer) if p else None
        self.rows.append(Row("20-article issue build vs Typst", fmt_s(g.median), fmt_s(p), fmt_x(ratio), "≤ 0.3× (issue 17)",
                             verdict(ratio, 0.3)))
        self.rows.append(Row("20-article issue peak memory", fmt_mib(g.peak_mib), fmt_mib(peer.peak_mib if p else None),
                             fmt_mib(g.peak_mib), "≤ 60 MiB", verdict(g.peak_mib, 60)))
        self.issue_passes(g)
        what = "20-article issue rebuild with --cache, one paragraph of one article edited ÷ clean build"
        if cached.error:
            self.error_row(what, cached)
        else:
            ratio = cached.over(g)
            self.rows.append(Row(what, f"{fmt_s(cached.median)} ÷ {fmt_s(g.median)}", "", fmt_x(ratio), "≤ 0.5× (issue 17)",
                                 verdict(ratio, 0.5)))
            self.issue_floor(cached, g)

    def issue_passes(self, clean):
        """How many times the 20-article issue's contents were set before its page numbers held
        (the build's --json summary)."""
        r = subprocess.run(clean.argv + ["--json"], stdin=subprocess.DEVNULL, capture_output=True, cwd=ROOT)
        try:
            passes = json.loads(r.stdout)["contentsPasses"] if r.returncode == 0 else None
        except (ValueError, KeyError):
            passes = None
        self.rows.append(Row("20-article issue: passes until the contents' page numbers hold", "", "",
                             "—" if passes is None else str(passes), "≤ 3 (issue 17)", verdict(passes, 3)))

    def issue_floor(self, cached, clean):
        """Cairo's part of the cached rebuild (from `--timings`, runs of their own): every page is
        written again, so this is the least that rebuild can take."""
        floors = []
        for _ in range(self.runs):
            _, _, _, status, stderr = run_once(cached.argv + ["--timings"])
            floor = cairo_floor(stderr) if status == 0 else None
            if floor is not None:
                floors.append(floor)
        if floors:
            floor = statistics.median(floors)
            self.rows.append(Row("20-article issue rebuild with --cache: Cairo writing the pages and fonts (its floor) ÷ clean build",
                                 f"{fmt_s(floor)} ÷ {fmt_s(clean.median)}", "", fmt_x(floor / clean.median), "reported (issue 17)", "info"))

    def issue_cache_rebuild(self):
        """The issue copied to a folder of its own with a warm --cache, and a command that edits one
        paragraph in the middle of its tenth article (two versions in turn, so that every run lays
        that article out again: the cache keeps one entry per article) and builds it again."""
        work = os.path.join(BENCH, "issue-cache")
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(ISSUE_DIR, work)
        article = sorted(f for f in os.listdir(work) if f.endswith(".txt"))[9]
        path = os.path.join(work, article)
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        mid = len(lines) // 2
        for name, words in (("a", " And it was so."), ("b", " And it was so, and it was good.")):
            edited = lines[:mid] + [lines[mid] + words] + lines[mid + 1:]
            with open(os.path.join(work, f"{article}.{name}"), "w", encoding="utf-8") as f:
                f.write("\n".join(edited))
        cache = os.path.join(work, "cache")
        build = [self.galley, "build", os.path.join(work, "issue.json"), "-o", os.path.join(OUT, "galley-issue-cached.pdf"), "-q",
                 "--cache", cache]
        subprocess.run(build, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        script = ('if cmp -s "$1" "$1.a"; then cp "$1.b" "$1"; else cp "$1.a" "$1"; fi; shift; exec "$@"')
        return Cmd("galley --cache", ["sh", "-c", script, "sh", path] + build)

    def m_watch(self):
        """galley watch on en-large after a one-paragraph edit in the middle (the whole PDF, then the
        edited page's PNG), against Typst's incremental recompile of the same edit; and the watch
        process's peak memory over WATCH_EDITS edits."""
        work = os.path.join(BENCH, "watch")
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        src = os.path.join(work, "en-large.galley.txt")
        shutil.copyfile(os.path.join(CORPUS, "en-large.galley.txt"), src)
        with open(src, encoding="utf-8") as f:
            text = f.read()
        mid = text.find("\n", len(text) // 2) + 1  # the start of the paragraph nearest the middle
        line = text.count("\n", 0, mid) + 1
        log(f"watch: {WATCH_EDITS} edits of en-large's line {line}, the PDF rewritten each time, and Typst's, in turn ...")
        peer = []

        def typst_round():
            # Typst's incremental recompile of the same edit, between galley's rounds of edits.
            if not self.typst_py:
                return
            env = dict(os.environ, CORPUS_DIR=CORPUS)
            r = subprocess.run([self.typst_py, os.path.join(self.shared, "run_typst_incremental.py"), "en-large",
                                "--edits", str(WATCH_PEER_EDITS)], capture_output=True, text=True, env=env)
            m = re.search(r"^median ([0-9.]+)", r.stdout, re.M)
            if m:
                peer.append(float(m.group(1)))
            else:
                self.notes.append(f"run_typst_incremental.py failed: {last_line(r.stderr)}")

        pdf = self.watch_edits(src, text, mid, ["-o", os.path.join(work, "out.pdf")], WATCH_EDITS, timings=True,
                               between=typst_round, rounds=WATCH_ROUNDS)
        page = None
        r = subprocess.run([self.galley, "locate", src, "--source", f"{line}:1", "--json", "-q"], capture_output=True, text=True)
        if r.returncode == 0:
            page = json.loads(r.stdout).get("page")
        log(f"watch: the PNG of page {page}, {self.runs * 2} edits ...")
        png = self.watch_edits(src, text, mid, ["--page", str(page or 1), "-o", os.path.join(work, "p.png")], self.runs * 2)
        typst = statistics.median(peer) if peer else None
        for name, result, target, limit in (("the whole PDF", pdf, "≤ 1× (issue 20)", 1.0),
                                            (f"the edited page's PNG (page {page})", png, "≤ 0.3× (issue 20)", 0.3)):
            what = f"watch: en-large, {name} after a one-paragraph edit vs Typst incremental"
            if result is None:
                self.rows.append(Row(what, "error", "", "", target, "ERROR"))
                continue
            ratio = result[0] / typst if typst else None
            if result is pdf and typst and len(peer) == len(pdf[4]):
                # Paired: each round of galley's edits against the Typst round after it.
                ratio = statistics.median(g / t for g, t in zip(pdf[4], peer))
            self.rows.append(Row(what, fmt_s(result[0]), fmt_s(typst), fmt_x(ratio), target, verdict(ratio, limit)))
        if pdf and pdf[3] is not None:
            # The same PDF timed from the save: the wait for a burst of saves to end (during which
            # the pages before the last edit are drawn) and the rebuild.
            self.rows.append(Row("watch: en-large, the whole PDF from the save (the 80 ms wait for a burst of saves to end included) vs Typst incremental",
                                 fmt_s(pdf[3]), fmt_s(typst), fmt_x(pdf[3] / typst if typst else None), "reported (issue 20)", "info"))
        if pdf and pdf[2] is not None:
            # What no work of Galley's shortens: Cairo writing every page and the fonts again.
            floor = pdf[2]
            self.rows.append(Row("watch: en-large, Cairo writing the pages and fonts within that PDF rebuild (its floor, the pages drawn before the edit aside) vs Typst incremental",
                                 fmt_s(floor), fmt_s(typst), fmt_x(floor / typst if typst else None), "reported (issue 20)", "info"))
            self.rows.append(Row("watch: en-large, the PDF rebuild ÷ its floor", f"{fmt_s(pdf[0])} ÷ {fmt_s(floor)}", "",
                                 fmt_x(pdf[0] / floor if floor else None), "reported (issue 20)", "info"))
        if pdf:
            self.rows.append(Row(f"watch: peak memory over {WATCH_EDITS} edits of en-large", fmt_mib(pdf[1]), "", fmt_mib(pdf[1]),
                                 "≤ 80 MiB", verdict(pdf[1], 80)))

    def watch_edits(self, src, text, mid, args, edits, timings=False, between=None, rounds=1):
        """Runs `galley watch src ARGS`, makes `edits` edits (written beside, renamed over), and returns
        the median rebuild time galley reports and its peak memory in MiB; None on failure. With
        `timings`, a third figure: the median of Cairo's part of each rebuild, from `--timings`; then
        the median time from the save, and the median of each of `rounds` rounds of edits. After each
        round `between` runs (the peer), and the next edit is not timed: watch had time to draw the
        pages before the edit while it waited."""
        p = subprocess.Popen([self.galley, "watch", src, "-q"] + args + (["--timings"] if timings else []),
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        timer = threading.Timer(RUN_TIMEOUT, p.kill)
        timer.start()
        floors = []
        latencies = []

        def built():
            while True:
                line = p.stderr.readline()
                if not line:
                    return None
                m = re.search(r" wrote .* in ([0-9.]+) s(?: \(([0-9.]+) s after the save\))?", line)
                if m:
                    # The timings line follows its build's line.
                    floor = cairo_floor(p.stderr.readline()) if timings else None
                    if floor is not None:
                        floors.append(floor)
                    if m.group(2):
                        latencies.append(float(m.group(2)))
                    return float(m.group(1))
                if "kept as it was" in line:
                    return None
        try:
            if built() is None:
                return None
            floors.clear()  # the first build's, which lays everything out
            times = []
            medians = []
            per = max(1, edits // rounds)
            for k in range(edits + rounds):
                with open(src + ".new", "w", encoding="utf-8") as f:
                    f.write(text[:mid] + "And behold, " * (k + 1) + text[mid:])
                os.replace(src + ".new", src)
                t = built()
                if t is None:
                    return None
                if k % (per + 1) == 0:
                    # The first edit of a round follows the first build or the peer's round.
                    floors[-1:] = []
                    latencies[-1:] = []
                    continue
                times.append(t)
                if k % (per + 1) == per:
                    medians.append(statistics.median(times[-per:]))
                    if between:
                        between()
            with open(f"/proc/{p.pid}/status") as f:
                hwm = next(int(l.split()[1]) for l in f if l.startswith("VmHWM:"))
            return (statistics.median(times), hwm / 1024, statistics.median(floors) if floors else None,
                    statistics.median(latencies) if latencies else None, medians)
        finally:
            timer.cancel()
            p.terminate()
            p.wait()
            with open(src, "w", encoding="utf-8") as f:
                f.write(text)

    def m_en_small(self):
        self.versus("en-small", "en-small build (60 KB) vs Typst", self.build("en-small"),
                    [("en-small build time vs Typst", None, "")])

    def m_cjk_small(self):
        if self.social:
            self.versus("cjk-small", "cjk-small build --social vs Typst", self.build("cjk-small", "--social"),
                        [("cjk-small build --social vs Typst", 0.5, "≤ 0.5×")], hooks_off=True)
        else:
            self.versus("cjk-small", "cjk-small build vs Typst", self.build("cjk-small"),
                        [("cjk-small build time vs Typst", None, "(≤ 0.5× once --social exists)")])

    def ratio(self, key, first, second, what, target, limit, runs=None):
        """Times `first` and `second` interleaved and adds the row: their paired ratio (`Cmd.over`).
        A ratio held to a limit is timed over at least RATIO_RUNS rounds (or `runs`): its limit is a
        few hundredths from what it measures, and five rounds do not hold a median that still."""
        measure(key, [first, second], runs or (max(self.runs, RATIO_RUNS) if limit is not None else self.runs))
        for c in (first, second):
            if c.error:
                self.error_row(what, c)
                return None
        r = first.over(second)
        self.rows.append(Row(what, f"{fmt_s(first.median)} ÷ {fmt_s(second.median)}", "", fmt_x(r), target,
                             verdict(r, limit) if limit is not None else "info"))
        return r

    def variant(self, key, path, label, limit, target):
        ensure_variants()
        log(f"{label} (galley, interleaved with the plain en-large):")
        v = Cmd(key, [self.galley, "build", path, "-o", os.path.join(OUT, f"galley-{key}.pdf"), "-q"])
        plain = self.build("en-large")
        plain.key = "en-large"
        self.ratio(key, v, plain, f"{label} ÷ plain en-large build", target, limit)

    def m_attributes(self):
        self.variant("attributes", ATTRIBUTES, "en-large with 2–3 attributes a paragraph", 1.15, "≤ 1.15× (issue 3)")
        log("the attribute mix and the plain en-large with the hooks off (interleaved):")
        mix = self.without_hooks(Cmd("attributes", [self.galley, "build", ATTRIBUTES, "-o",
                                                    os.path.join(OUT, "galley-attributes.pdf"), "-q"]))
        plain = self.without_hooks(self.build("en-large"))
        self.ratio("attributes-no-hooks", mix, plain, "en-large with 2–3 attributes ÷ plain, hooks off", "reported", None)

    def m_smart_quotes(self):
        log("en-large with typographic quotes (the default) and with them off (interleaved):")
        on = self.build("en-large")
        on.key = "en-large"
        off = self.build("en-large", "--set", "typography.smartQuotes=false")
        off.key = "smart-quotes-off"
        self.ratio("smart-quotes", on, off, "en-large with smart quotes ÷ without", "≤ 1.03× (issue 18)", 1.03)

    def m_cjk_punctuation(self):
        log("cjk-small with punctuation compression (the default) and with full-width marks (interleaved):")
        social = ("--social",) if self.social else ()
        on = self.build("cjk-small", *social)
        on.key = "cjk-small"
        off = self.build("cjk-small", *social, "--set", "cjk.punctuation=full")
        off.key = "cjk-punctuation-full"
        self.ratio("cjk-punctuation", on, off, "cjk-small with punctuation compression ÷ full-width", "≤ 1.05× (issue 23)", 1.05)

    def m_press(self):
        log("en-large on press sheets, PDF/X-4 (--press), and plain (interleaved):")
        press = Cmd("galley", [self.galley, "build", self.corpus("en-large"), "--press", "-o",
                               os.path.join(OUT, "galley-en-large-press.pdf")])
        press.key = "press"
        plain = self.build("en-large")
        plain.key = "en-large"
        # Twice the rounds of other ratios: the post-pass adds 20-30 ms to a 300 ms build, and on this
        # machine eleven rounds' median of that ratio moved from 1.06× to 1.16× between runs.
        self.ratio("press", press, plain, "en-large with --press (sheet, marks, PDF/X-4 post-pass) ÷ plain build",
                   "≤ 1.15× (issue 19)", 1.15, runs=2 * RATIO_RUNS)

    def m_cmyk(self):
        log("en-large converted to CMYK (--press --cmyk) and on press sheets in RGB (--press) (interleaved):")
        cmyk = Cmd("galley", [self.galley, "build", self.corpus("en-large"), "--press", "--cmyk", "-o",
                              os.path.join(OUT, "galley-en-large-cmyk.pdf")])
        cmyk.key = "cmyk"
        press = Cmd("galley", [self.galley, "build", self.corpus("en-large"), "--press", "-o",
                               os.path.join(OUT, "galley-en-large-press.pdf")])
        press.key = "press"
        self.ratio("cmyk", cmyk, press, "en-large with --press --cmyk (Ghostscript's conversion, ink measured) ÷ --press",
                   "reported (issue 19)", None)

    def m_spans(self):
        ensure_variants()
        log("en-large with every chapter heading across the columns (galley, interleaved with the plain en-large):")
        v = Cmd("spans", [self.galley, "build", SPANS, "--set", "headings.h1.span=all", "-o",
                          os.path.join(OUT, "galley-spans.pdf"), "-q"])
        plain = self.build("en-large")
        plain.key = "en-large"
        self.ratio("spans", v, plain, "en-large, every chapter an <h1> across the columns, balanced ÷ plain en-large build",
                   "≤ 1.2× (issue 16)", 1.2)

    def m_floats(self):
        self.variant("floats", FLOATS, "en-large with a float every 5 paragraphs", 1.3, "≤ 1.3× (issue 4)")

    def m_social_line(self):
        ensure_variants()
        log(f"one paragraph of {4 * SOCIAL_POSTS} posts ÷ one of {SOCIAL_POSTS} (galley --social, interleaved):")
        big = Cmd("4x", [self.galley, "build", SOCIAL_LINE_4X, "--social", "-o", os.path.join(OUT, "galley-social-4x.pdf"),
                         "-q"])
        small = Cmd("1x", [self.galley, "build", SOCIAL_LINE, "--social", "-o", os.path.join(OUT, "galley-social.pdf"),
                           "-q"])
        self.ratio("social-line", big, small,
                   f"one paragraph of {4 * SOCIAL_POSTS} posts ÷ {SOCIAL_POSTS} (codes, links, text 4×)",
                   "≤ 4.4× (issue 5)", 4.4)

    def m_font_tags(self):
        ensure_variants()
        log(f"{4 * FONT_LINES} lines of Core Text style <font> tags ÷ {FONT_LINES} (galley check, interleaved):")
        big = Cmd("4x", [self.galley, "check", FONT_TAGS_4X, "-q"])
        small = Cmd("1x", [self.galley, "check", FONT_TAGS, "-q"])
        self.ratio("font-tags", big, small,
                   f"{4 * FONT_LINES} lines with unclosed <font>s ÷ {FONT_LINES} (check, 4× the tags)", "≤ 4.4× (linear)", 4.4)

    def m_breaks(self):
        ensure_variants()
        log(f"{4 * BREAKS} consecutive <br>s ÷ {BREAKS} (galley check, interleaved):")
        big = Cmd("4x", [self.galley, "check", BREAK_RUN_4X, "-q"])
        small = Cmd("1x", [self.galley, "check", BREAK_RUN, "-q"])
        self.ratio("breaks", big, small, f"{4 * BREAKS} consecutive <br>s ÷ {BREAKS} (check, 4× the input)", "≤ 4.4× (linear)", 4.4)

    def m_line_diagnostics(self):
        ensure_variants()
        log(f"{4 * LINE_DIAGNOSTICS} diagnostics on one line ÷ {LINE_DIAGNOSTICS} (galley check, interleaved):")
        big = Cmd("4x", [self.galley, "check", LINE_DIAGNOSTICS_4X])
        small = Cmd("1x", [self.galley, "check", LINE_DIAGNOSTICS_1X])
        self.ratio("line-diagnostics", big, small, f"{4 * LINE_DIAGNOSTICS} diagnostics on one line ÷ {LINE_DIAGNOSTICS} (check, 4× the input)",
                   "≤ 4.4× (linear)", 4.4)

    # Pathological shapes (hardening): each input and the same four times over, `check`ed
    # (layout without drawing), interleaved. Linear means at most 4.4x the time.
    def linear(self, key, unit, make, label, extra=(), runs=None):
        paths = []
        for k in (1, 4):
            path = os.path.join(BENCH, f"{key}-{k}x.galley.txt")
            write_if_changed(path, make(k * unit))
            paths.append(path)
        log(f"{label}, 4x ÷ 1x (galley check, interleaved):")
        small = Cmd("1x", [self.galley, "check", paths[0], "-q", *extra])
        big = Cmd("4x", [self.galley, "check", paths[1], "-q", *extra])
        self.ratio(key, big, small, f"{label} ({4 * unit} ÷ {unit}, check)", "≤ 4.4× (linear)", 4.4,
                   runs=min(self.runs, runs or self.runs))

    def m_marks(self):
        self.linear("marks", 10000, lambda n: "a" + "\u0301" * n + " b\n", "one letter with n combining marks")

    def m_unclosed_spans(self):
        self.linear("unclosed-spans", 25000, lambda n: '<span color="red">x ' * n + "\n", "n <span>s never closed")

    @staticmethod
    def caption_doc(n, how):
        words = " ".join(f"word{i}" for i in range(n))
        image = os.path.join(ROOT, "samples", "images", "harbour.jpg")
        return f'Before.\n<img src="{image}" {how} caption="{words}">\n' + "Text after the figure. " * 200 + "\n"

    def m_float_captions(self):
        self.linear("float-captions", 2000, lambda n: self.caption_doc(n, 'float="right" width="40%"'),
                    "a float with an n-word caption", ("--root", ROOT))

    def m_page_caption(self):
        self.linear("page-caption", 2000, lambda n: self.caption_doc(n, 'span="page"'),
                    "a page-wide figure with an n-word caption", ("--root", ROOT))

    def m_long_paragraph(self):
        # One paragraph of en-large's words, hyphenated over many columns: each column that
        # ends on a hyphen breaks the paragraph again (no hyphen across a column).
        with open(self.corpus("en-large"), encoding="utf-8") as f:
            words = " ".join(f.read().split())
        self.linear("long-paragraph", 100_000, lambda n: words[:n] + "\n", "one paragraph of n bytes", runs=3)

    def m_input_50mb(self):
        with open(self.corpus("en-large"), encoding="utf-8") as f:
            text = f.read()
        quarter = 12_500_000
        whole = (text * (4 * quarter // len(text) + 1))[:4 * quarter]
        self.linear("input", quarter, lambda n: whole[:n], "an input of n bytes of en-large", runs=2)

    def m_en_xl(self):
        log("en-xl build ÷ en-large build (galley, interleaved):")
        xl, large = self.build("en-xl"), self.build("en-large")
        xl.key, large.key = "en-xl", "en-large"
        size = os.path.getsize(self.corpus("en-xl")) / os.path.getsize(self.corpus("en-large"))
        if self.ratio("en-xl", xl, large, f"en-xl ÷ en-large build time (text {size:.1f}×)", "≤ 10.5×", 10.5) is None:
            return
        self.rows.append(Row("en-xl peak memory", fmt_mib(xl.peak_mib), "", fmt_mib(xl.peak_mib), "", "info"))

    def m_preview(self):
        log("preview page 50 ÷ full build (galley, en-large, interleaved):")
        preview = Cmd("preview", [self.galley, "preview", self.corpus("en-large"), "--page", "50", "-o",
                                  os.path.join(OUT, "galley-en-large-p50.png")])
        build = self.build("en-large")
        build.key = "build"
        self.ratio("preview", preview, build, "preview page 50 ÷ en-large build", "≤ 0.6×", 0.6)

    # Faces named as on a Mac, none installed here, each resolved by kind (issue 18), against
    # the same page naming the faces they become: what resolving costs a one-page build.
    FACES = ["Didot", "Hoefler Text", "American Typewriter", "Avenir Next", "Gill Sans", "Futura", "Optima", "Menlo",
             "Baskerville", "Helvetica Neue"]

    def m_faces(self):
        chosen = []
        for face in self.FACES:
            r = subprocess.run([self.galley, "fonts", "--resolve", face], capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, cwd=ROOT)
            head = r.stdout.split("\n", 1)[0]
            if r.returncode != 0 or " → " not in head:
                self.rows.append(Row("faces resolved by kind", "error", "", "", "", "ERROR"))
                self.notes.append(f"galley fonts --resolve {face}: {last_line(r.stderr) or head}")
                return
            family = head.split(" → ", 1)[1].split(",", 1)[0].rsplit(" ", 1)[0]
            chosen.append(family)
        text = ("The harbour at dawn is a study in grey and silver; the boats come in one by one, "
                "and the compositor sets the tide tables before the ink is dry. ") * 2

        def page(faces):
            return "".join(f'<font face="{f}">{text}</font>\n' for f in faces)
        asked, direct = (os.path.join(BENCH, f"faces-{k}.galley.txt") for k in ("asked", "direct"))
        write_if_changed(asked, page(self.FACES))
        write_if_changed(direct, page(chosen))
        log(f"a page in {len(self.FACES)} faces resolved by kind ÷ the same naming what they become (interleaved):")
        a = Cmd("asked", [self.galley, "build", asked, "-o", os.path.join(OUT, "galley-faces-asked.pdf"), "-q"])
        d = Cmd("direct", [self.galley, "build", direct, "-o", os.path.join(OUT, "galley-faces-direct.pdf"), "-q"])
        # A difference of a few ms between two ~50 ms builds: more runs than a ratio of long
        # builds needs for its median to hold still.
        measure("faces", [a, d], max(self.runs, 25))
        what = f"one page in {len(self.FACES)} Mac faces resolved by kind − the same page naming the faces they become"
        for c in (a, d):
            if c.error:
                self.error_row(what, c)
                return
        extra = a.median - d.median
        self.rows.append(Row(what, f"{fmt_s(a.median)} − {fmt_s(d.median)}", "", f"{extra * 1000:.1f} ms",
                             "≤ 5 ms (issue 18)", verdict(extra, 0.005)))

    def m_one_page(self):
        ensure_one_page()
        kb = os.path.getsize(ONE_PAGE) / 1000
        pages = None
        r = subprocess.run([self.galley, "inspect", ONE_PAGE, "--json", "-q"], capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, cwd=ROOT)
        if r.returncode == 0:
            try:
                pages = len(json.loads(r.stdout)["pages"])
            except (ValueError, KeyError, TypeError):
                pass
        log(f"one-page build ({rel(ONE_PAGE)}, {kb:.1f} KB, {pages or '?'} page(s)):")
        c = Cmd("galley", [self.galley, "build", ONE_PAGE, "-o", os.path.join(OUT, "galley-one-page.pdf")])
        measure("one-page", [c], self.runs)
        what = f"one-page build ({kb:.1f} KB, {pages or '?'} page{'s' if pages != 1 else ''})"
        if c.error:
            self.error_row(what, c)
            return
        self.rows.append(Row(what, fmt_s(c.median), "", f"{c.median * 1000:.0f} ms", "≤ 50 ms",
                             verdict(c.median, 0.050)))
        if pages not in (None, 1):
            self.notes.append(f"the one-page input laid out as {pages} pages")

    SPACING = [  # (key in statistics or counts, label, kind, limit, target text)
        ("loose", "loose lines (widest space > 1.5×)", "pct", 0.09, "≤ 9 %"),
        ("veryLoose", "very loose lines (> 2×)", "pct", 0.005, "≤ 0.5 %"),
        ("tight", "tight lines (narrowest < 0.8×)", "pct", 0.12, "≤ 12 %"),
        ("widestP95", "widest space, 95th percentile", "x", 1.6, "≤ 1.6×"),
        ("longestHyphenRun", "longest run of hyphenated lines", "n", 2, "≤ 2"),
        ("widows", "widows", "n", 0, "0"),
        ("orphans", "orphans", "n", 0, "0"),
        ("headingsAtFoot", "headings at a column foot", "n", 0, "0"),
        ("hyphenated", "hyphenated lines", "pct", None, ""),
        ("overfullLines", "overfull lines", "n", None, ""),
        ("justifiedLines", "justified lines measured", "n", None, ""),
        ("lines", "lines", "n", None, ""),
        ("pages", "pages", "n", None, ""),
    ]

    # Three columns on A4 (some 35 characters a line): issue 18's targets for a narrow measure.
    THREE_COLUMNS = {"loose": (0.15, "≤ 15 % (issue 18)"), "veryLoose": (0.02, "≤ 2 % (issue 18)"),
                     "tight": (0.10, "≤ 10 % (issue 18)"), "widows": (0, "0"), "orphans": (0, "0")}

    def m_spacing(self):
        modes = (("total-fit", []), ("three columns", ["--set", "columns=3"]), ("greedy", ["--set", "lineBreaking=greedy"]))
        for mode, extra in modes:
            argv = [self.galley, "inspect", self.corpus("en-large"), "--stats", "--json", "-q", *extra]
            log(f"spacing ({mode}): {' '.join(shown(a) for a in argv)}")
            r = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, cwd=ROOT)
            prefix = {"total-fit": "en-large ", "three columns": "en-large, 3 columns: "}.get(mode, "greedy: ")
            try:
                if r.returncode != 0:
                    raise ValueError(f"exit {r.returncode}: {last_line(r.stderr)}")
                s = json.loads(r.stdout)["statistics"]
                counts = s["counts"]
            except (ValueError, KeyError, TypeError) as e:
                self.rows.append(Row(f"spacing ({mode})", "error", "", "", "", "ERROR"))
                self.notes.append(f"galley inspect --stats ({mode}): {e}")
                continue
            for key, label, kind, limit, target in self.SPACING:
                v = s.get(key, counts.get(key))
                if v is None:
                    self.rows.append(Row(prefix + label, "missing", "", "", target, "ERROR"))
                    self.notes.append(f"statistics has no '{key}'")
                    continue
                text = f"{v * 100:.2f} %" if kind == "pct" else f"{v:.2f}×" if kind == "x" else str(v)
                if mode == "three columns":
                    limit, target = self.THREE_COLUMNS.get(key, (None, ""))
                if mode == "greedy" or limit is None:
                    status = "info"
                    target = f"({target})" if target and mode == "greedy" else target
                else:
                    status = verdict(v, limit)
                self.rows.append(Row(prefix + label, "", "", text, target, status))


# ----------------------------------------------------------------- main
def write_report(path, b, version, peer, runs, load0, load1, selected):
    """BENCHMARKS.md: the figures of this run, when and where they were measured."""
    uname = os.uname()
    lines = [
        "# Galley benchmarks",
        "",
        "Written by `make bench` (Tests/Bench/bench.py); what each figure means is in Tests/Bench/README.md.",
        "",
        f"- measured: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        f"- galley: {version}; peer: {peer}",
        f"- machine: {uname.sysname} {uname.release} {uname.machine}, {os.cpu_count()} cores, "
        f"load average {load0[0]:.2f} at start and {load1[0]:.2f} at end",
        f"- {runs} timed run{'s' if runs != 1 else ''} per command after one warm-up, interleaved; times are medians, "
        "memory the highest peak RSS",
        f"- measurements: {', '.join(selected)}",
        "- hooks: rows marked \"hooks off\" ran with GALLEY_NO_HOOKS=1 (the executable's hooks into zlib and "
        "FreeType off), in the same rounds as their hooks-on figures",
        "",
        markdown_table(b.rows),
        "",
    ]
    lines += [f"- note: {n}" for n in b.notes]
    write_if_changed(path, "\n".join(lines).rstrip("\n") + "\n")


def main():
    ap = argparse.ArgumentParser(description="Galley's performance and typography figures against their targets.")
    ap.add_argument("--galley", default=os.path.join(ROOT, ".build", "release", "galley"),
                    help="the galley binary (default: .build/release/galley)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs of each command (default 5), after one warm-up")
    ap.add_argument("--only", action="append", choices=MEASUREMENTS, metavar="NAME",
                    help="run only this measurement (repeatable): " + ", ".join(MEASUREMENTS))
    ap.add_argument("--skip-peer", action="store_true", help="do not install or run Typst")
    ap.add_argument("--markdown", action="store_true", help="also print the table as Markdown")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a target fails or a command errs")
    ap.add_argument("--write", metavar="FILE", default=os.path.join(ROOT, "BENCHMARKS.md"),
                    help="also write the figures as Markdown to FILE (default BENCHMARKS.md; - for none)")
    a = ap.parse_args()
    if a.runs < 1:
        ap.error("--runs must be at least 1")
    galley = os.path.abspath(a.galley)
    if not (os.path.isfile(galley) and os.access(galley, os.X_OK)):
        log(f"bench: no galley binary at {a.galley}; build it first "
            "(swift build -c release --static-swift-stdlib --product galley, or make bench)")
        return 2
    selected = a.only or MEASUREMENTS
    selected = [m for m in MEASUREMENTS if m in selected]

    os.makedirs(OUT, exist_ok=True)
    typst_py, peer_reason = None, None
    try:
        shared = find_shared()
        ensure_corpus(shared)
        if a.skip_peer:
            peer_reason = "skipped (--skip-peer)"
        elif NEEDS_PEER & set(selected):
            typst_py, peer_reason = ensure_typst()
            if peer_reason:
                log(f"peer: Typst is not available: {peer_reason}")
                log("peer: printing galley-only figures")
    except SetupError as e:
        log(f"bench: {e}")
        return 2

    b = Bench(galley, a.runs, typst_py, peer_reason, shared)
    load0 = os.getloadavg()
    started = time.time()
    for m in selected:
        getattr(b, "m_" + m.replace("-", "_"))()
    try:
        os.remove(STDERR_LOG)
    except FileNotFoundError:
        pass
    load1 = os.getloadavg()

    version = subprocess.run([galley, "--version"], capture_output=True, text=True).stdout.strip()
    version = version.splitlines()[0] if version else "galley (version unknown)"
    peer = f"Typst {TYPST_VERSION} (PyPI, via run_typst.py)" if typst_py else f"none: {peer_reason}" if peer_reason else "not needed"
    print()
    print(f"Galley benchmarks: {version} ({rel(galley)}); peer: {peer}")
    print(f"{a.runs} timed run{'s' if a.runs != 1 else ''} per command after 1 warm-up, interleaved; "
          f"times are medians, memory is the highest peak RSS of the runs")
    print(f"machine: {os.cpu_count()} cores, load average {load0[0]:.2f} at start, {load1[0]:.2f} at end; "
          f"{time.time() - started:.0f} s")
    print()
    print(text_table(b.rows))
    for n in b.notes:
        print(f"note: {n}")
    if a.markdown:
        print()
        print(markdown_table(b.rows))
    failed = [r.cells[0] for r in b.rows if r.cells[5] in ("FAIL", "ERROR")]
    if a.write != "-":
        write_report(a.write, b, version, peer, a.runs, load0, load1, selected)
        log(f"bench: wrote {rel(a.write)}")
    print()
    print(f"{len(failed)} target{'s' if len(failed) != 1 else ''} missed or erred" + (": " + "; ".join(failed) if failed else ""))
    return 1 if a.strict and failed else 0


if __name__ == "__main__":
    sys.exit(main())
