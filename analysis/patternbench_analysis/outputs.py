"""Where a command writes, checked before any work: a bad path is one line on stderr and exit 2.

Every command that writes goes through these helpers, so `-o EXISTING_FILE`, a folder that cannot
be created, a file in a folder that does not exist, or a write that fails (a full disk,
`/dev/full`) end as a `PathError` naming the path, never a traceback. A file output is written
through (`open(path, "w")`), so a symlink, FIFO or device given as `-o` is written to, not replaced.
"""

from __future__ import annotations

import os
from pathlib import Path

from .results import PathError


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def output_folder(path: str | Path, option: str = "-o", create: bool = True) -> Path:
    """A folder to write charts or reports into: created with its parents when absent.

    Refused (PathError) when it exists and is not a folder, cannot be created, or is not writable.
    With `create=False` nothing is made: the nearest existing folder above it must be writable.
    """
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise PathError(f"{option} {folder}: exists and is not a folder (give a folder to write into)")
    if not create:
        above = next(p for p in [folder, *folder.absolute().parents] if p.exists())
        if not above.is_dir():
            raise PathError(f"{option} {folder}: {above} is not a folder")
        if not os.access(above, os.W_OK | os.X_OK):
            raise PathError(f"{option} {folder}: {above} is not writable")
        return folder
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PathError(f"{option} {folder}: cannot create the folder: {_reason(error)}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PathError(f"{option} {folder}: the folder is not writable")
    return folder


def output_file(path: str | Path, option: str = "-o") -> Path:
    """A file to write: absent or an existing file (a regular file is overwritten), in a folder that exists."""
    file = Path(path)
    if file.is_dir():
        raise PathError(f"{option} {file}: is a folder (give a file name)")
    parent = file.parent
    if not parent.is_dir():
        what = "is not a folder" if parent.exists() else "does not exist"
        raise PathError(f"{option} {file}: its folder {parent} {what}")
    if not file.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise PathError(f"{option} {file}: its folder {parent} is not writable")
    return file


def write_text(path: str | Path, text: str, option: str = "-o") -> Path:
    """Writes `text` through to `path` (checked by `output_file`); a failed or short write is a PathError."""
    file = output_file(path, option)
    try:
        with open(file, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        raise PathError(f"{option} {file}: cannot write: {_reason(error)}") from None
    return file


def database_file(path: str | Path | None, option: str = "--db", create: bool = True) -> None:
    """A SQLite file's folder must exist or be creatable and be writable (a postgresql:// URL passes).

    `create=False` (the commands that only read the history) checks without making anything: a
    path whose folder is a file is refused here, a database that is simply not there yet is the
    store's to name."""
    if path is None or str(path).startswith(("postgresql://", "postgres://")):
        return
    file = Path(path)
    if file.is_dir():
        return  # the store names this case itself ("is a folder; give a file")
    parent = file.parent
    for folder in (parent, *parent.parents):
        if folder.exists():
            if not folder.is_dir():
                raise PathError(f"{option} {file}: its folder {folder} is not a folder")
            break
    if not create:
        return
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PathError(f"{option} {file}: cannot create its folder {parent}: {_reason(error)}") from None
    if not os.access(parent, os.W_OK | os.X_OK) or (file.exists() and not os.access(file, os.W_OK)):
        raise PathError(f"{option} {file}: not writable")
