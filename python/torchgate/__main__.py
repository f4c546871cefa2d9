# torchgate/__main__.py - python -m torchgate: run the binary
# SPDX-License-Identifier: MIT
"""``python -m torchgate ARGS...`` runs ``torchgate ARGS...`` (the binary
``torchgate.bin()`` finds), as ``python -m ruff`` does."""

import os
import sys

from torchgate import TorchgateNotFound, bin


def main() -> int:
    """Replace this process with the binary; 127 when there is none."""
    try:
        exe = bin()
    except TorchgateNotFound as e:
        print("torchgate: %s" % e.message, file=sys.stderr)
        return 127
    os.execv(exe, [exe] + sys.argv[1:])
    return 127  # not reached


if __name__ == "__main__":
    sys.exit(main())
