#!/usr/bin/env python3
"""Checks that every #include points down the layers (docs/architecture.md).

The project is a stack of components (the LAYERS table below: each one and
the components it may include). This script reads every source file of the
repository, resolves each `#include "..."` (and `<...>` of a project header)
the way the build does (next to the file, from the repository root, from the
public include directories), and fails naming the file, the line and the
forbidden arrow for each include that goes to a component its own is not
allowed to use. Registered as the CTest entry `layering`.

usage: check-layers.py [ROOT]     (ROOT defaults to the repository)
"""

import os
import re
import sys

# Each component and the components it may include (its own headers always).
# Read as "A may include B": arrows point down, never up or sideways.
LIBS = ["abi", "support", "lang", "frontend", "codegen", "driver",
        "simrt-core", "simrt-host", "runtime", "kernels", "graph", "layergroup"]
LAYERS = {
    "abi": [],
    "support": [],
    "lang": ["abi"],
    "frontend": ["lang", "abi"],
    "codegen": ["lang", "abi"],
    "driver": ["frontend", "codegen", "lang", "abi"],
    "simrt-core": ["abi"],
    "simrt-host": ["driver", "codegen", "simrt-core", "abi"],
    "runtime": ["simrt-host", "simrt-core", "driver", "lang", "abi"],
    "kernels": ["runtime", "simrt-host", "simrt-core", "lang", "abi",
                "support"],
    "graph": ["support"],
    "layergroup": ["graph", "kernels", "simrt-host", "simrt-core", "abi",
                   "support"],
    "tools": LIBS,
    "bench": LIBS,
    "fuzz": LIBS + ["tools"],  # the command-line parsers (ArgsFuzzer)
    "examples": ["runtime", "simrt-host", "simrt-core", "driver", "lang",
                 "abi", "kernels"],
    "test": LIBS + ["tools", "bench", "fuzz", "test"],
}

# Which component a file belongs to: the first rule whose pattern matches
# its path (relative to the root, with '/').
COMPONENTS = [
    (r"(^|.*/)test/", "test"),
    (r"(^|.*/)bench/", "bench"),
    (r"abi/", "abi"),
    (r"support/", "support"),
    (r"lang/", "lang"),
    (r"frontend/", "frontend"),
    (r"codegen/", "codegen"),
    (r"driver/", "driver"),
    (r"simrt/(lib/Module\.cpp|include/bangsim/Module\.h)$", "simrt-host"),
    (r"simrt/", "simrt-core"),
    (r"runtime/", "runtime"),
    (r"kernels/", "kernels"),
    (r"(graph/)?layergroup/", "layergroup"),
    (r"graph/", "graph"),
    (r"tools/", "tools"),
    (r"fuzz/", "fuzz"),
    (r"examples/", "examples"),
]

# Public include directories (target_include_directories), searched after
# the including file's directory and the root, in this order.
INCLUDE_DIRS = ["abi/include", "driver/include", "simrt/include",
                "runtime/include", "lang/include", "kernels/include"]
# Headers the build generates, by the directory they appear in.
GENERATED = {"bang/": "lang"}

SOURCE_EXT = (".c", ".cpp", ".h", ".hpp", ".def", ".inc", ".mlu")
SKIP_DIRS = {".git", ".ci", "docs", "scripts", "cmake"}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*(["<])([^">]+)[">]')


def component(path):
    for pattern, name in COMPONENTS:
        if re.match(pattern, path):
            return name
    return None


def resolve(root, including, target, quoted):
    """The including-root-relative path of `target`, or None (external)."""
    candidates = []
    if quoted:
        candidates.append(os.path.join(os.path.dirname(including), target))
    candidates.append(target)
    candidates += [os.path.join(d, target) for d in INCLUDE_DIRS]
    for c in candidates:
        c = os.path.normpath(c)
        if not c.startswith("..") and os.path.isfile(os.path.join(root, c)):
            return c
    return None


def source_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        top = rel.split(os.sep)[0]
        if top in SKIP_DIRS or top.startswith("build"):
            dirnames[:] = []
            continue
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith(SOURCE_EXT):
                yield os.path.normpath(os.path.join(rel, f)).replace(os.sep, "/")


def check(root):
    errors = []
    for path in source_files(root):
        src = component(path)
        if src is None:
            continue
        with open(os.path.join(root, path), encoding="utf-8",
                  errors="replace") as f:
            lines = f.readlines()
        for number, line in enumerate(lines, 1):
            m = INCLUDE_RE.match(line)
            if not m:
                continue
            target = m.group(2)
            found = resolve(root, path, target, m.group(1) == '"')
            if found:
                dst = component(found.replace(os.sep, "/"))
            else:
                dst = next((c for prefix, c in GENERATED.items()
                            if target.startswith(prefix)), None)
            if dst is None or dst == src or dst in LAYERS[src]:
                continue
            errors.append(f"{path}:{number}: {src} -> {dst} is not allowed "
                          f"(#include \"{target}\"); {src} may include: "
                          f"{', '.join(LAYERS[src]) or 'nothing'}")
    return errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    errors = check(root)
    for e in errors:
        print(e)
    if errors:
        print(f"check-layers: {len(errors)} include(s) against the layers "
              "(the table is in scripts/check-layers.py and "
              "docs/architecture.md)")
        return 1
    print("check-layers: every include points down the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
