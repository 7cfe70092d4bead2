"""`make bench`: run every benchmark script in this folder, one after the other."""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    scripts = sorted(
        p for p in HERE.glob("*.py") if p.name != "run.py" and not p.name.startswith("_")
    )
    failed = 0
    for script in scripts:
        print(f"\n=== {script.stem} ===", flush=True)
        failed += subprocess.call([sys.executable, str(script)], cwd=HERE.parent) != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
