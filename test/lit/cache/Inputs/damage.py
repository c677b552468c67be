#!/usr/bin/env python3
"""Test helper: damage every file of one kind in a compile cache directory.

  damage.py flip|truncate|empty|version|manifest-garbage|manifest-truncate DIR
"""
import glob
import os
import sys

how, root = sys.argv[1], sys.argv[2]
kind = ".manifest" if how.startswith("manifest") else ".entry"
files = glob.glob(os.path.join(root, "**", "*" + kind), recursive=True)
if not files:
    sys.exit("no %s files under %s" % (kind, root))
for path in files:
    data = bytearray(open(path, "rb").read())
    if how == "flip":
        data[len(data) * 3 // 4] ^= 0x40  # inside the object
    elif how in ("truncate", "manifest-truncate"):
        data = data[: len(data) * 2 // 3]
    elif how == "empty":
        data = bytearray()
    elif how == "version":
        data[8] += 1  # the format field after the magic
    elif how == "manifest-garbage":
        data = bytearray(os.urandom(200))
    else:
        sys.exit("unknown damage " + how)
    open(path, "wb").write(data)
