#!/usr/bin/env bash
# Mutation testing: do the tests catch the bugs they claim to? Each entry of
# a checked-in list (test/mutations.txt) is a small, realistic bug: one
# exact piece of text in one file and its replacement. The runner works in
# its own clone of HEAD (never in the tree it is run from, where others may
# be editing), builds it once, then for each mutation applies it, rebuilds
# incrementally, runs the entry's CTest tests with a timeout, and reverts it.
# It prints a table (caught, survived, build failure, stale) and the score
# caught / (total - stale - build failures). Every ninja and ctest call takes
# the shared build lock for that step alone. Exit status 0 unless the runner
# itself failed. Not for CI: run it before resolving a large issue.
#   scripts/mutate.sh [--list FILE] [--only ID...] [--build DIR] [--jobs N]
#                     [--timeout SECONDS]
# See "Mutation testing" in docs/testing.md for the list format.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
exec /usr/bin/python3 - "$ROOT" "$@" <<'PY'
import argparse, fcntl, os, re, signal, subprocess, sys, time

ROOT = sys.argv[1]
LOCK = os.environ.get("BANGC_BUILD_LOCK", "/tmp/bangc-build.lock")


class RunnerError(Exception):
    pass


# ---- The list -------------------------------------------------------------

FIELDS = ("id", "file", "desc", "tests", "area", "env")


def parse_list(path):
    """Entries of the block format: `key: value` lines, then `-` lines (the
    original text) and `+` lines (its replacement). `id:` starts an entry."""
    entries, cur = [], None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for no, line in enumerate(lines, 1):
        where = f"{path}:{no}"
        if cur is None and (line.strip() == "" or line.startswith("#")):
            continue
        if line.startswith("#") or line.strip() == "":
            continue
        if line[0] in "-+":
            if cur is None:
                raise RunnerError(f"{where}: text line before any 'id:'")
            if len(line) > 1 and line[1] != " ":
                raise RunnerError(f"{where}: '{line[0]}' must be followed by "
                                  "one space, then the text")
            key = "old" if line[0] == "-" else "new"
            if key == "old" and cur["new"]:
                raise RunnerError(f"{where}: '-' line after a '+' line")
            cur[key].append(line[2:])
            continue
        m = re.match(r"([a-z]+):\s?(.*)$", line)
        if not m or m.group(1) not in FIELDS:
            raise RunnerError(f"{where}: expected one of {', '.join(FIELDS)}"
                              " (as 'key: value'), '- text' or '+ text'")
        key, value = m.group(1), m.group(2).rstrip()
        if key == "id":
            cur = {"id": value, "line": no, "old": [], "new": [], "env": []}
            entries.append(cur)
        elif cur is None:
            raise RunnerError(f"{where}: '{key}:' before any 'id:'")
        elif key == "env":
            if "=" not in value:
                raise RunnerError(f"{where}: env: wants VAR=VALUE")
            cur["env"].append(value.split("=", 1))
        elif key in cur:
            raise RunnerError(f"{where}: second '{key}:' in entry {cur['id']}")
        else:
            cur[key] = value
    seen = set()
    for e in entries:
        where = f"{path}:{e['line']}"
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", e["id"]):
            raise RunnerError(f"{where}: bad id '{e['id']}'")
        if e["id"] in seen:
            raise RunnerError(f"{where}: duplicate id '{e['id']}'")
        seen.add(e["id"])
        for key in ("file", "desc"):
            if not e.get(key):
                raise RunnerError(f"{where}: entry {e['id']} has no '{key}:'")
        if not e["old"] or not e["new"]:
            raise RunnerError(f"{where}: entry {e['id']} needs '-' and '+' lines")
        e["old"] = "\n".join(e["old"])
        e["new"] = "\n".join(e["new"])
        e.setdefault("area", e["file"].split("/")[0])
        e.setdefault("tests", "")
    return entries


# ---- Commands -------------------------------------------------------------

def run(cmd, log=None, env=None, timeout=None, locked=False):
    """Runs cmd, its output appended to `log`; with `locked`, under the
    shared build lock (the lock flock(1) takes), held for this step alone,
    and `timeout` counts from when the lock is ours. On a timeout the whole
    process group is killed. Returns (status, output); 124 on timeout."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    lock = open(LOCK, "a") if locked else None
    try:
        if lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, env=full_env,
                             start_new_session=True)
        try:
            raw, _ = p.communicate(timeout=timeout)
            status = p.returncode
        except BaseException as ex:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            raw, _ = p.communicate()
            if not isinstance(ex, subprocess.TimeoutExpired):
                raise
            status = 124
            raw += f"\n[mutate.sh] timed out after {timeout} s\n".encode()
    finally:
        if lock:
            lock.close()
    out = raw.decode("utf-8", "replace")
    if log:
        with open(log, "a") as f:
            f.write(f"$ {' '.join(cmd)}\n{out}\n[status {status}]\n")
    return status, out


def git(src, *args):
    status, out = run(["git", "-C", src] + list(args))
    if status != 0:
        raise RunnerError(f"git {' '.join(args)} in {src} failed:\n{out}")
    return out.strip()


def prepare_clone(work, log):
    """work/src: a clone at the HEAD of ROOT (made once, then updated)."""
    src = os.path.join(work, "src")
    head = git(ROOT, "rev-parse", "HEAD")
    if not os.path.isdir(os.path.join(src, ".git")):
        os.makedirs(work, exist_ok=True)
        status, out = run(["git", "clone", "--quiet", ROOT, src], log)
        if status != 0:
            raise RunnerError(f"git clone failed:\n{out}")
    else:
        git(src, "fetch", "--quiet", ROOT, "HEAD")
    git(src, "checkout", "--quiet", "--force", "--detach", head)
    git(src, "clean", "--quiet", "-fdx")
    return src, head


def build_targets(build, skip):
    """What `all` builds, without the directories matching `skip` (the
    benchmarks by default: no test runs them), as ninja targets."""
    out, work = [], ["all"]
    while work:
        status, text = run(["ninja", "-C", build, "-t", "query", work.pop()])
        if status != 0:
            raise RunnerError(f"ninja -t query failed:\n{text}")
        lines = text.splitlines()
        start = next(i for i, l in enumerate(lines) if l.strip() == "input: phony")
        for line in lines[start + 1:]:
            if not line.startswith("    "):
                break
            target = line.strip()
            if skip and re.search(skip, target):
                continue
            (work if target.endswith("/all") else out).append(target)
    return sorted(out)


def ninja(build, jobs, log, targets=()):
    return run(["ninja", "-C", build, f"-j{jobs}"] + list(targets), log,
               locked=True)


def first_error(out):
    for line in out.splitlines():
        if re.search(r"\berror\b", line):
            return line.strip()[:100]
    return "(see log)"


# "\t247 - NAME (Failed)"; a parameterised test's NAME goes on with
# "  # GetParam() = (...)".
FAILED = re.compile(r"^\s*\d+\s+-\s+(.+?)\s+\(([^()]*)\)\s*$")


def ctest(build, regex, exclude, jobs, timeout, env, log):
    """Runs the selected CTest entries. Returns (ran, failed, status, names):
    how many ran, the failures to show in order, the exit status (124:
    timeout), the full names of the failing entries."""
    cmd = ["ctest", "--test-dir", build, "--output-on-failure", f"-j{jobs}",
           "--timeout", str(timeout)]
    if regex:
        cmd += ["-R", regex]
    if exclude:
        cmd += ["-E", exclude]
    status, out = run(cmd, log, env=dict(env), timeout=timeout, locked=True)
    failed, in_list = [], False
    for line in out.splitlines():
        if line.startswith("The following tests FAILED:"):
            in_list = True
        elif in_list:
            m = FAILED.match(line)
            if m:
                failed.append((m.group(1), m.group(2)))
    names = [name for name, _ in failed]
    failed = [f"{name.split('  #')[0]} ({why})" for name, why in failed]
    m = re.search(r"tests? failed out of (\d+)", out)
    ran = int(m.group(1)) if m else 0
    if "No tests were found" in out:
        return 0, [], status, []
    lit = re.search(r"^FAIL: .* :: (\S+)", out, re.M)
    if lit and failed and failed[0].startswith("lit "):
        failed[0] = f"lit: {lit.group(1)}"
    if status == 124:
        failed.append("(the whole run timed out)")
    elif status != 0 and not failed:
        failed.append(f"(ctest exit {status}, see log)")
    return ran, failed, status, names


# ---- One mutation ---------------------------------------------------------

def locate(src, e):
    """The file's text, or None and the reason the entry is stale. `src` is
    a directory, or None for the HEAD commit of ROOT."""
    if src is None:
        status, text = run(["git", "-C", ROOT, "show", "HEAD:" + e["file"]])
        if status != 0:
            return None, "stale: no such file"
    else:
        path = os.path.join(src, e["file"])
        if not os.path.isfile(path):
            return None, "stale: no such file"
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    if e["old"] == e["new"]:
        return None, "stale: replacement equals the original"
    count = text.count(e["old"])
    if count != 1:
        return None, f"stale: original found {count} times"
    return text, None


def write(path, text):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def mutate_one(e, src, build, args, exclude, logs, targets):
    log = os.path.join(logs, e["id"] + ".log")
    if os.path.exists(log):
        os.remove(log)
    text, stale = locate(src, e)
    if stale:
        return "stale", stale[len("stale: "):]
    path = os.path.join(src, e["file"])
    write(path, text.replace(e["old"], e["new"], 1))
    try:
        t0 = time.time()
        status, out = ninja(build, args.jobs, log, targets)
        e["build_s"] = time.time() - t0
        if status != 0:
            return "build-failure", first_error(out)
        t0 = time.time()
        ran, failed, status, _ = ctest(build, e["tests"], exclude, args.jobs,
                                    args.timeout, e["env"], log)
        e["test_s"] = time.time() - t0
        if ran == 0 and not failed:
            return "stale", f"no test matches -R '{e['tests']}'"
        if failed:
            return ("timeout" if status == 124 else "caught"), failed[0]
        return "survived", f"{ran} tests passed"
    finally:
        write(path, text)
        if run(["git", "-C", src, "diff", "--quiet"])[0] != 0:
            raise RunnerError(f"{e['id']}: the clone is not clean after revert")


# ---- Main -----------------------------------------------------------------

def baseline(entries, build, args, logs):
    """The selected tests on the unmutated tree; a test failing here would
    'catch' every mutation, so it is left out (-E) of every run."""
    regexes = sorted({e["tests"] for e in entries})
    union = "" if "" in regexes else "|".join(f"({r})" for r in regexes)
    log = os.path.join(logs, "baseline.log")
    if os.path.exists(log):
        os.remove(log)
    ran, failed, status, names = ctest(build, union, "", args.jobs,
                                       args.timeout * 3, [], log)
    if status == 124:
        raise RunnerError(f"the baseline test run timed out; see {log}")
    if status != 0 and not names:
        raise RunnerError(f"the baseline test run failed; see {log}")
    for n in names:
        print(f"warning: {n} fails without any mutation; left out of every run")
    return "|".join("^" + re.escape(n) + "$" for n in names)


def table(results):
    rows = [("id", "area", "description", "result", "first failing test")]
    rows += [(e["id"], e["area"], e["desc"], r, d) for e, r, d in results]
    widths = [min(max(len(r[i]) for r in rows), cap)
              for i, cap in enumerate((28, 10, 60, 13, 200))]
    for r in rows:
        cells = [c if len(c) <= w else c[:w - 1] + "~"
                 for c, w in zip(r, widths)]
        print("  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip())


def main():
    p = argparse.ArgumentParser(prog="scripts/mutate.sh")
    p.add_argument("--list", default=os.path.join(ROOT, "test/mutations.txt"))
    p.add_argument("--only", nargs="+", metavar="ID")
    p.add_argument("--build", default=os.path.join(ROOT, "build-mutate"),
                   help="work directory: src/ (the clone), build/, logs/")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=int, default=600,
                   help="seconds for one mutation's tests")
    p.add_argument("--skip-build", default=r"(^|/)bench/", metavar="REGEX",
                   help="ninja directories not to build (default: benchmarks)")
    p.add_argument("--check", action="store_true",
                   help="only check the list against HEAD: no clone, no build")
    args = p.parse_args(sys.argv[2:])
    entries = parse_list(args.list)
    # One file's mutations in a row: its object is then rebuilt once per
    # mutation, not also once more to revert the one before.
    order = {}
    for e in entries:
        order.setdefault(e["file"], len(order))
    entries.sort(key=lambda e: order[e["file"]])
    if args.only:
        known = {e["id"] for e in entries}
        unknown = [i for i in args.only if i not in known]
        if unknown:
            raise RunnerError(f"--only: no entry {', '.join(unknown)}")
        entries = [e for e in entries if e["id"] in args.only]
    if args.check:
        stale = [(e, locate(None, e)[1]) for e in entries]
        stale = [(e, why) for e, why in stale if why]
        for e, why in stale:
            print(f"{args.list}:{e['line']}: {e['id']}: {why}")
        print(f"{len(entries)} entries, {len(stale)} stale")
        return
    work = os.path.abspath(args.build)
    logs = os.path.join(work, "logs")
    os.makedirs(logs, exist_ok=True)
    setup = os.path.join(logs, "setup.log")
    if os.path.exists(setup):
        os.remove(setup)
    start = time.time()
    src, head = prepare_clone(work, setup)
    build = os.path.join(work, "build")
    print(f"mutate.sh: {len(entries)} mutations of {head[:12]} in {src}")
    if not os.path.exists(os.path.join(build, "build.ninja")):
        status, out = run(["cmake", "-S", src, "-B", build, "-G", "Ninja",
                           "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], setup,
                          locked=True)
        if status != 0:
            raise RunnerError(f"cmake failed; see {setup}")
    targets = build_targets(build, args.skip_build)
    status, out = ninja(build, args.jobs, setup, targets)
    if status != 0:
        raise RunnerError(f"the unmutated clone does not build; see {setup}")
    print(f"built in {time.time() - start:.0f} s; baseline tests ...",
          flush=True)
    live = [e for e in entries if not locate(src, e)[1]]
    exclude = baseline(live, build, args, logs) if live else ""
    results = []
    for n, e in enumerate(entries, 1):
        t0 = time.time()
        result, detail = mutate_one(e, src, build, args, exclude, logs,
                                    targets)
        results.append((e, result, detail))
        steps = "".join(f", {k} {e[k + '_s']:.0f} s" for k in ("build", "test")
                        if k + "_s" in e)
        print(f"[{n}/{len(entries)}] {e['id']}: {result} ({detail}) "
              f"{time.time() - t0:.0f} s{steps}", flush=True)
    print()
    table(results)
    count = lambda *rs: sum(1 for _, r, _ in results if r in rs)
    caught, stale, broke = count("caught", "timeout"), count("stale"), \
        count("build-failure")
    scored = len(results) - stale - broke
    print(f"\n{len(results)} mutations: {caught} caught by tests "
          f"({count('timeout')} by a timeout), {count('survived')} survived, "
          f"{broke} caught by the compiler, {stale} stale")
    score = f"{caught}/{scored}" + (f" = {100 * caught / scored:.0f}%"
                                    if scored else "")
    print(f"score: caught / (total - stale - build failures) = {score}")
    print(f"{time.time() - start:.0f} s in all; logs in {logs}")
    with open(os.path.join(work, "results.tsv"), "w") as f:
        for e, r, d in results:
            f.write("\t".join((e["id"], e["area"], e["desc"], r, d)) + "\n")


try:
    main()
except RunnerError as err:
    print(f"mutate.sh: {err}", file=sys.stderr)
    sys.exit(2)
except KeyboardInterrupt:
    print("mutate.sh: interrupted (the clone was reverted)", file=sys.stderr)
    sys.exit(130)
PY
