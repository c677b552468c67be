#!/usr/bin/env python3
"""expect-exit.py CODE CMD...: run CMD, pass its output through, and exit 0
only if CMD exited with CODE (lit's `not` accepts any non-zero status)."""
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write("expected exit status %d, got %d\n" % (want, got))
    sys.exit(1)
