#!/usr/bin/env python3
"""Mutation testing of the mmchal library sources.

Applies one mutation at a time to a library file under src/, rebuilds the
tests that cover it in a dedicated build directory, runs them (with a timeout
per mutant: ten times the test's run on the unmodified tree plus 10 s, at most
--timeout) and records whether they noticed. Mutants are made in a copy of
the tree inside the build directory, never in the working tree; the file is
always restored, also on Ctrl-C or SIGTERM.

Mutation operators (each mutant changes exactly one place):
  ror   relational and equality flips    <  <=  >  >=  ==  !=
  lor   logical connective swap          &&  ||
  aor   arithmetic and bitwise swaps     + -  * /  %  << >>  & |
  cst   integer constants                N -> N + 1, 0 -> 1, 1 -> 0
  del   deleted expression statements    x = y;  f(a);  i++;
  neg   negated conditions               if (c) -> if (!(c)), also while
  ret   changed return values            return e; -> return 0; 0 -> 1;
                                         true <-> false

Binary operators are only mutated where the kernel style puts spaces around
them, which keeps unary minus, address-of and pointer declarations out.
Comments, strings, character literals and preprocessor lines are skipped.

Scores: killed / (killed + survived). Mutants that do not compile are
reported but not counted (the compiler caught them), nor are mutants whose
object file is byte for byte the original's (code in a preprocessor branch
the build leaves out, e.g. the MMCHAL_EMMC_RO paths): they count as
equivalent; a mutant that hangs until
the timeout counts as killed. A mutant listed in the equivalence file (default
tools/mutate/equivalent.txt, one line per mutant with the reason) is not
counted; the survivors list prints each survivor in that file's format.

Which tests: those whose ctest name starts with the file's directory under
src/ (src/iommu/x.c -> ^iommu_), the one named after the file first so that
most mutants die in the first, cheapest test; for the simulator (sim/x.c,
given with --files) the tests of tests/sim (^test_sim_); --tests overrides.
"""

import argparse
import collections
import filecmp
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# Where the mutants are made and built: a copy of the tree inside the build
# directory (sync_tree), so that the working tree is never modified and other
# builds from it can go on while a run is in progress.
TREE = None
DEFAULT_EQUIV = os.path.join("tools", "mutate", "equivalent.txt")

ROR = {"<": ["<="], "<=": ["<"], ">": [">="], ">=": [">"], "==": ["!="], "!=": ["=="]}
LOR = {"&&": ["||"], "||": ["&&"]}
AOR = {"+": ["-"], "-": ["+"], "*": ["/"], "/": ["*"], "%": ["*"], "<<": [">>"],
       ">>": ["<<"], "&": ["|"], "|": ["&"], "^": ["|"]}
BINOP = re.compile(r"(?<= )(<=|>=|==|!=|<<|>>|&&|\|\||<|>|\+|-|\*|/|%|&|\||\^)(?= )")
CONST = re.compile(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)(?![\w.])")
COND = re.compile(r"\b(if|while)\s*\(")
RETURN = re.compile(r"\breturn\s+([^;]+);")
# An expression statement on one line: assignment, compound assignment,
# increment or a call, starting with an lvalue-ish expression.
STMT = re.compile(r"^\s*(\*?[A-Za-z_][\w.\->\[\]() ]*?"
                  r"(\s*([-+*/%&|^]|<<|>>)?=\s*.+|\+\+|--|\(.*\))"
                  r"|(\+\+|--)[A-Za-z_][\w.\->\[\]]*);\s*$")
DECL_START = re.compile(r"^\s*(const\s+|static\s+|struct\s+\w+\s+\**\w|enum\s+\w+\s+\**\w|"
                        r"unsigned\s|signed\s|int\s|char\s|bool\s|void\s|size_t\s|"
                        r"u?int(8|16|32|64|ptr)_t\s|mmchal_\w+_t\s|uintptr_t\s|return\b|"
                        r"break\b|continue\b|goto\b|case\b|default\b)")


class Mutant:
    def __init__(self, path, lineno, col, op, old, new, line_text):
        self.path = path          # relative to ROOT
        self.lineno = lineno      # 1-based
        self.col = col            # 0-based column in the raw line
        self.op = op
        self.old = old
        self.new = new
        self.line_text = line_text
        self.func = None          # the function the line is in (generate()), None at file scope
        self.shared = False       # another mutant of the file has the same key()
        self.status = None

    def _what(self):
        stripped = self.line_text.strip()
        lead = len(self.line_text) - len(self.line_text.lstrip())
        return "`%s` [%s col %d: %s -> %s]" % (
            stripped, self.op, self.col - lead, self.old.strip() or "(stmt)",
            self.new.strip() or "(deleted)")

    def key(self):
        """Stable identity: file, the stripped original line, where in it and what."""
        return "%s: %s" % (self.path, self._what())

    def fkey(self):
        """The key narrowed to the enclosing function, for a line whose text
        occurs more than once in the file ('return false;'); None at file scope."""
        if self.func is None:
            return None
        return "%s: in %s(): %s" % (self.path, self.func, self._what())

    def apply(self, lines):
        out = list(lines)
        ln = out[self.lineno - 1]
        out[self.lineno - 1] = ln[:self.col] + self.new + ln[self.col + len(self.old):]
        return out


def code_mask(text):
    """For each character: True when it is code (not comment, string, char
    literal or preprocessor line, including continuation lines)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start:
            j = i
            while j < n and text[j] in " \t":
                j += 1
            if j < n and text[j] == "#":
                # preprocessor directive, with backslash continuations
                while j < n:
                    if text[j] == "\n" and text[j - 1] != "\\":
                        break
                    j += 1
                for k in range(i, j):
                    mask[k] = False
                i = j
                continue
            at_line_start = False
        if c == "\n":
            at_line_start = True
            i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if text[k] != "\n":
                    mask[k] = False
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                mask[k] = False
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            for k in range(i, min(j + 1, n)):
                mask[k] = False
            i = j + 1
        else:
            i += 1
    return mask


FUNC_NAME = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def functions_of(lines, mask_lines):
    """For each line (0-based): the name of the function whose body holds it,
    else None. Kernel style: a body opens with '{' alone in column 0 and
    closes with '}' in column 0; the name is the identifier before the
    first '(' of the definition, which starts in column 0 above the '{'."""
    out = [None] * len(lines)
    cur = None
    for i, line in enumerate(lines):
        if line.rstrip() == "{" and mask_lines[i]:
            cur = None
            for j in range(i - 1, max(-1, i - 8), -1):
                head = lines[j]
                if head[:1].isspace() or not head.strip():
                    continue
                m = FUNC_NAME.search(head)
                if m and not head.lstrip().startswith(("#", "/*", "*")):
                    cur = m.group(1)
                break
            continue
        if line.startswith("}") and mask_lines[i]:
            cur = None
            continue
        out[i] = cur
    return out


def matching_paren(s, open_idx):
    depth = 0
    for i in range(open_idx, len(s)):
        if s[i] == "(":
            depth += 1
        elif s[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def generate(path):
    """All mutants of one file."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        text = f.read()
    mask = code_mask(text)
    lines = text.split("\n")
    line_masks = []
    off = 0
    for line in lines:
        line_masks.append(mask[off:off + len(line)])
        off += len(line) + 1
    funcs = functions_of(lines, [any(m) for m in line_masks])
    muts = []
    for idx, line in enumerate(lines):
        lineno = idx + 1
        lmask = line_masks[idx]
        if not any(lmask):
            continue
        code = "".join(ch if m else " " for ch, m in zip(line, lmask))
        if "_Static_assert" in code or "static_assert" in code:
            continue

        for m in BINOP.finditer(code):
            op = m.group(1)
            for table, kind in ((ROR, "ror"), (LOR, "lor"), (AOR, "aor")):
                for rep in table.get(op, []):
                    muts.append(Mutant(path, lineno, m.start(), kind, op, rep, line))

        for m in CONST.finditer(code):
            lit, suf = m.group(1), m.group(2)
            # array sizes and bit widths in declarations are still mutated;
            # they usually fail to compile or are caught.
            val = int(lit, 16) if lit.lower().startswith("0x") else int(lit)
            reps = []
            if val == 0:
                reps.append("1")
            elif val == 1:
                reps.append("0")
            else:
                reps.append((hex(val + 1) if lit.lower().startswith("0x") else str(val + 1)))
            for r in reps:
                muts.append(Mutant(path, lineno, m.start(), "cst", lit + suf, r + suf, line))

        for m in COND.finditer(code):
            open_idx = m.end() - 1
            close = matching_paren(code, open_idx)
            if close < 0:
                continue
            inner = line[open_idx + 1:close]
            muts.append(Mutant(path, lineno, open_idx, "neg", "(" + inner + ")",
                               "(!(" + inner + "))", line))

        # On the raw line (a string or character literal is a whole return
        # value), but only where the return keyword itself is code.
        for m in RETURN.finditer(line):
            if not lmask[m.start()]:
                continue
            expr = m.group(1).strip()
            start = m.start(1)
            old = line[start:m.end(1)]
            if expr == "0":
                reps = ["1"]
            elif expr in ("true", "false"):
                reps = ["false" if expr == "true" else "true"]
            elif expr in ("NULL", "0u"):
                reps = []
            elif expr.startswith('"'):
                reps = ["0"]
            else:
                reps = ["0"]
            for r in reps:
                muts.append(Mutant(path, lineno, start, "ret", old, r, line))

        stripped = code.strip()
        if (STMT.match(code) and not DECL_START.match(code) and stripped.endswith(";")
                and not stripped.startswith("}") and "{" not in stripped):
            lead = len(line) - len(line.lstrip())
            body = line[lead:]
            muts.append(Mutant(path, lineno, lead, "del", body, ";", line))
    # One mutant per distinct resulting line (e.g. 'return 0;' -> 'return 1;'
    # is both a constant and a return-value change).
    seen = set()
    uniq = []
    for m in muts:
        res = (m.lineno, m.apply(lines)[m.lineno - 1])
        if res in seen:
            continue
        seen.add(res)
        m.func = funcs[m.lineno - 1]
        uniq.append(m)
    return uniq


def load_equivalent(path):
    """Lines: '<key> -- <reason>'. Returns {key: reason}."""
    eq = {}
    if not os.path.exists(path):
        return eq
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if " -- " not in line:
                sys.exit("%s:%d: missing ' -- <reason>'" % (path, n))
            key, reason = line.rsplit(" -- ", 1)
            if not reason.strip():
                sys.exit("%s:%d: empty reason" % (path, n))
            eq[key.strip()] = reason.strip()
    return eq


def run(cmd, timeout=None, cwd=ROOT):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=timeout, check=False)


class Restorer:
    """Puts the original file back, whatever happens."""

    def __init__(self, build):
        self.backup_dir = os.path.join(build, "mutate-backup")
        self.current = None

    def recover(self):
        if not os.path.isdir(self.backup_dir):
            return
        for dirpath, _, files in os.walk(self.backup_dir):
            for fn in files:
                b = os.path.join(dirpath, fn)
                rel = os.path.relpath(b, self.backup_dir)
                print("mutate: restoring %s from an interrupted run" % rel)
                shutil.copyfile(b, os.path.join(TREE, rel))
                os.unlink(b)

    def save(self, rel):
        dst = os.path.join(self.backup_dir, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(os.path.join(TREE, rel), dst)
        self.current = rel

    def restore(self):
        if self.current is None:
            return
        b = os.path.join(self.backup_dir, self.current)
        shutil.copyfile(b, os.path.join(TREE, self.current))
        os.unlink(b)
        self.current = None


def tests_for(build, path, override):
    """ctest names for a file, the mirror test first."""
    if override:
        regex = override
    elif path.startswith("sim/"):
        # The simulator's own tests (tests/sim, named test_sim_*).
        regex = "^test_sim_"
    else:
        parts = path.split("/")
        regex = "^%s_" % parts[1] if len(parts) > 2 else "."
    out = run(["ctest", "-N", "-R", regex], cwd=build).stdout.decode()
    built = built_tests(build)
    names = [n for n in re.findall(r"Test\s+#\d+: (\S+)", out) if n in built]
    stem = os.path.splitext(os.path.basename(path))[0]
    mirror = [t for t in names if t.endswith("_" + stem)][:1]
    return mirror + [t for t in names if t not in mirror]


def built_tests(build):
    """ctest names whose command is a program of this build (a target to
    relink); a test that runs a script (cmake -P, python) links nothing.
    Before the first build ctest names no command for a program target."""
    import json
    out = run(["ctest", "--show-only=json-v1"], cwd=build).stdout.decode()
    root = os.path.realpath(build)
    names = set()
    for t in json.loads(out).get("tests", []):
        cmd = t.get("command") or []
        if not cmd or os.path.realpath(cmd[0]).startswith(root + os.sep):
            names.add(t["name"])
    return names


def sync_tree(build):
    """Bring the copy up to date with the working tree. Only files whose
    content differs are copied, and they get a fresh modification time: an
    object built from a mutant (an interrupted run) is then older than the
    source and make rebuilds it; unchanged files are not rebuilt."""
    global TREE
    TREE = os.path.join(build, "tree")
    os.makedirs(TREE, exist_ok=True)
    for d, dirs, fs in os.walk(ROOT):
        rel = os.path.relpath(d, ROOT)
        if rel == ".":
            dirs[:] = [x for x in dirs if x not in ("build", ".git")]
        os.makedirs(os.path.join(TREE, rel), exist_ok=True)
        for f in fs:
            src, dst = os.path.join(d, f), os.path.join(TREE, rel, f)
            if (not os.path.exists(dst) or os.stat(dst).st_size != os.stat(src).st_size
                    or not filecmp.cmp(src, dst, shallow=False)):
                shutil.copyfile(src, dst)
                shutil.copymode(src, dst)
    # Tests find the shared data beside the project (../shared).
    shared = os.path.join(build, "shared")
    if not os.path.exists(shared) and os.path.isdir(os.path.join(ROOT, "..", "shared")):
        os.symlink(os.path.abspath(os.path.join(ROOT, "..", "shared")), shared)


SANITIZE = "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"


def configure(build, cc, sanitize=False):
    # Warnings stay warnings here: a mutant that only draws a warning (an
    # unused parameter, mixed && and ||) must still run against the tests.
    # With sanitize the tests run under ASan and UBSan, as in the asan
    # preset, so a mutant that only breaks memory safety (a copy one byte too
    # long, an index one past the end) is noticed too.
    cflags = "-O1" + (" " + SANITIZE if sanitize else "")
    cmd = ["cmake", "-S", TREE, "-B", build, "-DCMAKE_BUILD_TYPE=Debug", "-DMMCHAL_WERROR=OFF",
           "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
           "-DMMCHAL_BUILD_BENCH=OFF", "-DMMCHAL_BUILD_TOOLS=OFF",
           "-DMMCHAL_FREESTANDING_CHECK=OFF", "-DCMAKE_C_FLAGS=" + cflags,
           "-DCMAKE_EXE_LINKER_FLAGS=" + ("-fsanitize=address,undefined" if sanitize else "")]
    if cc:
        cmd.append("-DCMAKE_C_COMPILER=" + cc)
    r = run(cmd)
    if r.returncode:
        sys.exit("mutate: configure failed:\n" + r.stdout.decode())


def build_targets(build, targets, jobs):
    return run(["cmake", "--build", build, "-j%d" % jobs, "--target"] + targets)


def run_tests(build, names, timeout):
    regex = "^(%s)$" % "|".join(re.escape(n) for n in names)
    try:
        r = run(["ctest", "--stop-on-failure", "--timeout", str(timeout), "-R", regex],
                cwd=build, timeout=timeout * len(names) + 30)
    except subprocess.TimeoutExpired:
        return "timeout"
    out = r.stdout.decode()
    if r.returncode == 0:
        return "survived"
    if "Timeout" in out:
        return "timeout"
    return "killed"


class FastBuild:
    """Rebuilds one mutant without make: the file's own compile command
    (compile_commands.json), the object replaced in the archive, each test
    relinked with its link.txt and run directly. The baseline build made
    sure that everything else is up to date; the build at the end of a run
    puts the original objects back."""

    def __init__(self, build):
        import json
        self.build = build
        with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
            self.cc = {os.path.realpath(e["file"]): e for e in json.load(f)}
        self.archive = os.path.join(build, "libmmchal.a")
        self.base = {}  # library file -> its baseline object's bytes
        self.base_time = {}  # test name -> seconds on the unmodified tree
        self.last_time = 0.0
        self.factor = 10.0
        out = run(["ctest", "--show-only=json-v1"], cwd=build).stdout.decode()
        self.tests = {}
        for t in json.loads(out)["tests"]:
            props = {p["name"]: p["value"] for p in t.get("properties", [])}
            env = dict(os.environ)
            for kv in props.get("ENVIRONMENT", []):
                k, _, v = kv.partition("=")
                env[k] = v
            if "command" not in t:
                continue
            binary = t["command"][0]
            bindir = os.path.dirname(binary)
            link = os.path.join(bindir, "CMakeFiles", t["name"] + ".dir", "link.txt")
            self.tests[t["name"]] = (t["command"], props.get("WORKING_DIRECTORY", bindir), env,
                                     bindir, link)

    def compile(self, path, restore=False):
        """Compile @p path and put its object into its archive. "same" when
        the object is the baseline's (and the archive is left alone); with
        @p restore the archive takes it in any case: the archive still holds
        the last mutant of @p path, which the baseline's object replaces."""
        e = self.cc.get(os.path.realpath(os.path.join(TREE, path)))
        if e is None:
            return False
        cmd = e.get("command") or " ".join(e["arguments"])
        obj = re.search(r"-o\s+(\S+)", cmd).group(1)
        # The object goes back into its own target's archive
        # (CMakeFiles/<target>.dir/... -> lib<target>.a beside it).
        archive = self.archive
        tgt = re.match(r"CMakeFiles/([^/]+)\.dir/", obj)
        if tgt:
            own = os.path.join(e["directory"], "lib%s.a" % tgt.group(1))
            if os.path.exists(own):
                archive = own
        obj = os.path.join(e["directory"], obj)
        if path not in self.base:
            # the first mutant of this file: the object on disk is still the
            # baseline's (the end of a run puts it back)
            with open(obj, "rb") as f:
                self.base[path] = f.read()
        if run(["sh", "-c", cmd], cwd=e["directory"]).returncode:
            return False
        if not restore:
            with open(obj, "rb") as f:
                if f.read() == self.base[path]:
                    return "same"
        if run(["ar", "rs", archive, obj]).returncode:
            return False
        if restore:
            # the archive must now hold the baseline's object again
            member = run(["ar", "p", archive, os.path.basename(obj)]).stdout
            if member != self.base[path]:
                return False
        return True

    def link(self, name):
        _, _, _, bindir, link = self.tests[name]
        with open(link, encoding="utf-8") as f:
            for line in f:
                if line.strip() and run(["sh", "-c", line], cwd=bindir).returncode:
                    return False
        return True

    def test(self, name, timeout):
        """Run one test. Once the unmodified tree has run it (base_time),
        a mutant gets FACTOR times that time plus SLACK seconds, at most
        @timeout: a mutant that loops forever then costs seconds, not the
        whole timeout, and a slow but finished run still fits."""
        cmd, wd, env, _, _ = self.tests[name]
        if name in self.base_time:
            timeout = min(timeout, self.factor * self.base_time[name] + self.SLACK)
        t0 = time.monotonic()
        try:
            r = subprocess.run(cmd, cwd=wd, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return "timeout"
        self.last_time = time.monotonic() - t0
        return "survived" if r.returncode == 0 else "killed"

    SLACK = 10.0

    def check_unmodified(self, files, tests, timeout):
        """The direct path must pass on the unmodified files, or "killed"
        would mean nothing: every file compiles through its own command, and
        every test relinks and passes once (an unmodified file leaves the
        archive as it was, so a test need not run again for each file). The
        times measured are the base of each mutant's timeout."""
        for f in files:
            if not self.compile(f):
                return "%s does not compile through its own command" % f
        for name in sorted({t for f in files for t in tests[f]}):
            if not self.link(name):
                return "%s does not relink" % name
            if self.test(name, timeout) != "survived":
                return "%s fails on the unmodified tree" % name
            self.base_time[name] = self.last_time
        return None


def try_mutant(fast, path, names, args):
    """Compile the mutant, then link and run the mirror test first: most
    mutants die there, and the others then need neither a link nor a run."""
    built = fast.compile(path)
    if not built:
        return "uncompiled"
    if built == "same":
        # byte for byte the baseline's object (code in a preprocessor branch
        # this build leaves out): no test can tell it apart
        return "equivalent"
    for name in names:
        if not fast.link(name):
            return "uncompiled"
        status = fast.test(name, args.timeout)
        if status != "survived":
            return status
    return "survived"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 1)[1])
    ap.add_argument("--files", nargs="+",
                    help="library or simulator files (default: every src/**/*.c)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "mutate"),
                    help="dedicated build directory (default build/mutate)")
    ap.add_argument("--cc", help="C compiler for the build directory")
    ap.add_argument("--tests", help="ctest regex instead of the per-directory default")
    ap.add_argument("--sample", type=int, help="run only N mutants, drawn at random")
    ap.add_argument("--seed", type=int, default=1, help="seed of the sample (default 1)")
    ap.add_argument("--ops", help="comma list of operators (ror,lor,aor,cst,del,neg,ret)")
    ap.add_argument("--match", help="only mutants whose key matches this regex (re-runs)")
    ap.add_argument("--timeout", type=int, default=60,
                    help="most seconds per test run (default 60)")
    ap.add_argument("--timeout-factor", type=float, default=10.0,
                    help="a mutant's test run may take this many times the unmodified "
                         "run, plus %.0f s, up to --timeout (default 10)" % FastBuild.SLACK)
    ap.add_argument("-j", "--jobs", type=int, default=2, help="build jobs (default 2)")
    ap.add_argument("--equivalent", default=os.path.join(ROOT, DEFAULT_EQUIV),
                    help="equivalent-mutant list (default tools/mutate/equivalent.txt)")
    ap.add_argument("--fail-under", type=float,
                    help="exit 1 when the total score, or the score of a file with at least "
                    "--min-mutants counted mutants, is below this percentage")
    ap.add_argument("--min-mutants", type=int, default=10,
                    help="smallest count for the per-file floor (default 10)")
    ap.add_argument("--sanitize", action="store_true",
                    help="build and run the tests under ASan and UBSan (slower; a memory "
                         "error counts as noticed)")
    ap.add_argument("--list", action="store_true", help="print the mutants and exit")
    ap.add_argument("--quiet", action="store_true", help="no line per mutant")
    args = ap.parse_args()

    if args.files:
        files = [os.path.relpath(os.path.abspath(f), ROOT) for f in args.files]
    else:
        files = sorted(os.path.relpath(os.path.join(d, f), ROOT)
                       for d, _, fs in os.walk(os.path.join(ROOT, "src")) for f in fs
                       if f.endswith(".c"))
    for f in files:
        if not f.startswith(("src/", "sim/")) or not os.path.isfile(os.path.join(ROOT, f)):
            sys.exit("mutate: %s is not a library file under src/ or sim/" % f)

    equiv = load_equivalent(args.equivalent)
    muts = []
    for f in files:
        muts.extend(generate(f))
    # before any filter: a key that several places of a file share is printed
    # with its function, so that an equivalent entry excuses only that place
    shared = collections.Counter(m.key() for m in muts)
    for m in muts:
        m.shared = shared[m.key()] > 1
    if args.ops:
        keep = set(args.ops.split(","))
        muts = [m for m in muts if m.op in keep]
    if args.match:
        rx = re.compile(args.match)
        muts = [m for m in muts if rx.search(m.key())]
    eq_used = set()
    for m in muts:
        for k in (m.key(), m.fkey()):
            if k is not None and k in equiv:
                m.status = "equivalent"
                eq_used.add(k)
    if args.sample is not None and args.sample < len(muts):
        rng = random.Random(args.seed)
        muts = rng.sample(muts, args.sample)
        muts.sort(key=lambda m: (m.path, m.lineno, m.col))
    if args.list:
        for m in muts:
            print("%s:%d: %s" % (m.path, m.lineno, m.key()))
        print("%d mutants" % len(muts))
        return 0

    build = os.path.abspath(args.build)
    restorer = Restorer(build)
    TREE_ = os.path.join(build, "tree")
    if os.path.isdir(TREE_):
        globals()["TREE"] = TREE_
        restorer.recover()
    sync_tree(build)
    configure(build, args.cc, args.sanitize)

    def on_signal(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    tests = {}
    for f in list(files):
        tests[f] = tests_for(build, f, args.tests)
        if not tests[f]:
            # Reported, not fatal: a directory whose tests have not landed yet
            # must not stop the run for everything else.
            print("mutate: no tests for %s: its mutants are not run" % f)
            files.remove(f)
    muts = [m for m in muts if m.path in files]
    if not files:
        print("mutate: nothing to run")
        return 0
    # Baseline: the unmodified tree must build and pass.
    all_tests = sorted({t for ts in tests.values() for t in ts})
    r = build_targets(build, all_tests, args.jobs)
    if r.returncode:
        sys.exit("mutate: baseline build failed:\n" + r.stdout.decode()[-3000:])
    if run_tests(build, all_tests, args.timeout) != "survived":
        sys.exit("mutate: the tests fail on the unmodified tree")

    fast = FastBuild(build)
    # A file this configuration does not compile (the stubs of a build
    # option that is off) has no object to mutate.
    for f in list(files):
        if os.path.realpath(os.path.join(TREE, f)) not in fast.cc:
            print("mutate: %s is not built in this configuration: its mutants are not run" % f)
            files.remove(f)
    muts = [m for m in muts if m.path in files]
    if not files:
        print("mutate: nothing to run")
        return 0
    todo = [m for m in muts if m.status is None]
    # Only the files with mutants to run (all of them, but for a sample).
    fast.factor = args.timeout_factor
    err = fast.check_unmodified(sorted({m.path for m in todo}), tests, args.timeout)
    if err:
        sys.exit("mutate: direct rebuild: " + err)
    t0 = time.time()
    # The archive keeps the object of the last mutant compiled: before the
    # first mutant of another file, the previous file's original object goes
    # back in, or that mutant would be linked into every later test.
    in_archive = None
    try:
        for n, m in enumerate(todo, 1):
            if in_archive is not None and in_archive != m.path:
                if not fast.compile(in_archive, restore=True):
                    sys.exit("mutate: the original %s no longer compiles" % in_archive)
            in_archive = m.path
            with open(os.path.join(TREE, m.path), encoding="utf-8") as fh:
                orig = fh.read()
            restorer.save(m.path)
            try:
                mutated = "\n".join(m.apply(orig.split("\n")))
                with open(os.path.join(TREE, m.path), "w", encoding="utf-8") as fh:
                    fh.write(mutated)
                m.status = try_mutant(fast, m.path, tests[m.path], args)
            finally:
                restorer.restore()
            if not args.quiet:
                print("[%d/%d %4.0fs] %-10s %s:%d %s" % (n, len(todo), time.time() - t0,
                                                        m.status, m.path, m.lineno, m.key()),
                      flush=True)
    except KeyboardInterrupt:
        restorer.restore()
        print("\nmutate: interrupted; the sources are restored; the figures so far:")
        done = [m for m in muts if m.status is not None]
        args.sample = len(done)  # a partial run: no stale-entry check
        report(files, done, equiv, eq_used, args)
        return 130
    finally:
        restorer.restore()
        # The build directory holds objects of the last mutant: bring it
        # back in line with the sources so that the next run starts clean.
        touched = {m.path for m in todo if m.status is not None}
        for p in touched:
            os.utime(os.path.join(TREE, p))
        if touched:
            build_targets(build, all_tests, args.jobs)

    return report(files, muts, equiv, eq_used, args)


def report(files, muts, equiv, eq_used, args):
    rows = []
    tot = {"killed": 0, "survived": 0, "equivalent": 0, "uncompiled": 0}
    failed = False
    for f in files:
        ms = [m for m in muts if m.path == f]
        k = sum(m.status in ("killed", "timeout") for m in ms)
        s = sum(m.status == "survived" for m in ms)
        e = sum(m.status == "equivalent" for m in ms)
        u = sum(m.status == "uncompiled" for m in ms)
        tot["killed"] += k
        tot["survived"] += s
        tot["equivalent"] += e
        tot["uncompiled"] += u
        score = 100.0 * k / (k + s) if k + s else 100.0
        if args.fail_under is not None and k + s >= args.min_mutants and score < args.fail_under:
            failed = True
        rows.append((f, len(ms), k, s, e, u, score))
    print()
    print("%-32s %7s %7s %8s %6s %6s %7s" % ("file", "mutants", "killed", "survived", "equiv",
                                             "nocomp", "score"))
    for f, n, k, s, e, u, score in rows:
        print("%-32s %7d %7d %8d %6d %6d %6.1f%%" % (f, n, k, s, e, u, score))
    k, s = tot["killed"], tot["survived"]
    total = 100.0 * k / (k + s) if k + s else 100.0
    print("%-32s %7d %7d %8d %6d %6d %6.1f%%" % ("total", len(muts), k, s, tot["equivalent"],
                                                 tot["uncompiled"], total))
    surv = [m for m in muts if m.status == "survived"]
    if surv:
        print("\nsurvivors (to kill with a test, or to list in %s with ' -- <reason>'):"
              % os.path.relpath(args.equivalent, ROOT))
        for m in surv:
            k = m.fkey() if m.shared and m.fkey() else m.key()
            print("  line %d: %s" % (m.lineno, k))
    if args.sample is None and args.match is None and args.ops is None:
        live = {m.key() for m in muts} | {m.fkey() for m in muts if m.fkey()}
        stale = [k for k in equiv if k not in live and
                 any(k.startswith(f + ":") for f in files)]
        for k in stale:
            print("mutate: stale entry in the equivalent list (no such mutant): %s" % k)
    if args.fail_under is not None and total < args.fail_under:
        failed = True
    if failed:
        print("mutate: FAIL: below the floor of %.1f%%" % args.fail_under)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
