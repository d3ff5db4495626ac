"""Every bundled build stays byte for byte what it was: the PDFs of `deckpress build` (five decks,
both papers, both inks) and the calibration sheet, against sha256 sums in tests/data/bundled-hashes.json.

The bytes depend on the libraries that write them (reportlab, fontTools' subsetter, Pillow, svg2pdf, pikepdf,
zlib), so the sums are checked only with the versions they were taken with; with others the test
is skipped and says which. A change meant to alter output updates the sums on purpose:
`python tests/test_same_output.py` rewrites them, and the commit says why the bytes changed.
"""

from __future__ import annotations

import hashlib
import json
import sys
import zlib
from importlib.metadata import version
from pathlib import Path

import pytest
from click.testing import CliRunner

HASHES = Path(__file__).parent / "data" / "bundled-hashes.json"
LIBRARIES = ("reportlab", "fonttools", "pillow", "svg2pdf-py", "pikepdf")  # what writes the bytes


def installed_versions() -> dict[str, str]:
    found = {name: version(name) for name in LIBRARIES}
    found["zlib"] = zlib.ZLIB_RUNTIME_VERSION
    return found


def build_all(out: Path) -> dict[str, str]:
    """sha256 of every file `deckpress build` and `deckpress calibrate` write into `out`, by relative path."""
    from deckpress.cli import main

    runner = CliRunner()
    for args in (["build", "--out", str(out)], ["calibrate", "--out", str(out)]):
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
    return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file()}


def test_bundled_builds_are_byte_identical_to_the_recorded_sums(tmp_path, monkeypatch):
    recorded = json.loads(HASHES.read_text(encoding="utf-8"))
    if recorded["versions"] != installed_versions():
        pytest.skip(f"sums taken with {recorded['versions']}, these are {installed_versions()}")
    monkeypatch.setenv("DECKPRESS_CONFIG", str(tmp_path / "config.yaml"))  # no saved back offset
    built = build_all(tmp_path / "out")
    assert sorted(built) == sorted(recorded["files"]), "the same files, no more and no fewer"
    changed = [name for name, digest in built.items() if recorded["files"][name] != digest]
    assert not changed, f"{len(changed)} files changed: {changed[:10]}"


if __name__ == "__main__":  # rewrite the sums after a change meant to alter output
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        files = build_all(Path(folder))
    doc = json.loads(HASHES.read_text(encoding="utf-8"))
    doc.update(versions=installed_versions(), files=files)
    HASHES.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(files)} sums written to {HASHES}", file=sys.stderr)
