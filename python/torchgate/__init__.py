# torchgate/__init__.py - the torchgate command from Python, without importing torch
# SPDX-License-Identifier: MIT
"""Run torchgate, the build-time torch version gate, from Python.

The ``torchgate`` wheel installs the ``torchgate`` command (a C program)
into the environment's ``bin/`` and this small package beside it. A
``setup.py`` that lists ``"torchgate"`` in ``[build-system] requires``
calls it to learn, from files and in milliseconds, which torch the
package is being built for::

    import torchgate
    torchgate.verify("torch>=2.1,<2.12", policy="base")
    ext = Extension("myext", ["myext.cpp"], **torchgate.flags(name="myext"))

Nothing here imports torch or runs the target interpreter: every call
runs the binary (``bin()``) with a timeout and returns what it printed,
parsed. A failure raises ``TorchgateError`` (or ``VersionError`` for a
torch that does not satisfy ``verify``) carrying torchgate's own
one-line message and exit status.

The environment to look at: ``python`` (an interpreter), ``prefix`` (an
environment directory) or ``site_packages`` (one or more directories).
When none is given, the interpreter running this code
(``sys.executable``) is meant: under pip, also inside its isolated build
environment, that is the interpreter of the environment the package is
being built for (``torchgate help environment``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import sysconfig
from typing import Any, Dict, List, Optional, Sequence, Union

__all__ = [
    "DEFAULT_TIMEOUT",
    "TorchgateError",
    "TorchgateNotFound",
    "VersionError",
    "__version__",
    "bin",
    "emit",
    "env",
    "flags",
    "probe",
    "require",
    "run",
    "verify",
]

try:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as _dist_version

    try:
        __version__: str = _dist_version("torchgate")
    except PackageNotFoundError:  # run from a source tree, not installed
        __version__ = "0+unknown"
except ImportError:  # Python 3.7
    __version__ = "0+unknown"

#: Seconds a call waits for the binary before it gives up (every call
#: takes ``timeout=`` too). torchgate answers in milliseconds; ``audit``
#: and ``require`` on a large tree take longer.
DEFAULT_TIMEOUT: float = 120.0

PathLike = Union[str, "os.PathLike[str]"]
SitePackages = Union[PathLike, Sequence[PathLike], None]


class TorchgateError(Exception):
    """torchgate failed, or could not be run.

    ``message`` is torchgate's own message (its stderr without the
    notes, or why it could not run), ``returncode`` its exit status
    (None when it did not run or did not finish), ``cmd`` the command
    line, ``stdout`` and ``stderr`` what it printed.
    """

    def __init__(self, message: str, returncode: Optional[int] = None,
                 cmd: Sequence[str] = (), stdout: str = "",
                 stderr: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.returncode = returncode
        self.cmd = list(cmd)
        self.stdout = stdout
        self.stderr = stderr

    def __str__(self) -> str:
        if self.returncode is None:
            return self.message
        return "%s (exit status %d)" % (self.message, self.returncode)


class TorchgateNotFound(TorchgateError, FileNotFoundError):
    """The torchgate binary is in none of the places ``bin()`` looks."""


class VersionError(TorchgateError):
    """``verify``: the torch found does not satisfy the requirement
    (torchgate's exit status 1); ``message`` says why."""


def _candidates() -> List[str]:
    """Where the binary may be, most specific first (uv's find_uv_bin)."""
    exe = "torchgate"
    here = os.path.dirname(os.path.abspath(__file__))
    site = os.path.dirname(here)
    dirs: List[str] = []
    # Beside this package, as the wheel installed them: a prefix layout
    # (PREFIX/lib/pythonX.Y/site-packages/torchgate -> PREFIX/bin; pip's
    # isolated build environment is one) and pip --target (T/torchgate ->
    # T/bin).
    parts = site.replace("\\", "/").split("/")
    if len(parts) >= 3 and parts[-1] in ("site-packages", "dist-packages") \
            and re.match(r"^python[0-9.]*$", parts[-2]) and parts[-3] == "lib":
        dirs.append(os.path.join(os.path.dirname(os.path.dirname(
            os.path.dirname(site))), "bin"))
    dirs.append(os.path.join(site, "bin"))
    # The running interpreter's scheme, then the user scheme.
    dirs.append(sysconfig.get_path("scripts"))
    try:
        user = sysconfig.get_preferred_scheme("user")  # type: ignore[attr-defined]
    except AttributeError:  # Python < 3.10
        user = "posix_user"
    try:
        dirs.append(sysconfig.get_path("scripts", scheme=user))
    except KeyError:
        pass
    # Last, PATH: a torchgate installed from source, when this package
    # is used without the wheel's binary.
    dirs += [d for d in os.environ.get("PATH", "").split(os.pathsep) if d]
    seen: List[str] = []
    for d in dirs:
        p = os.path.join(d, exe)
        if p not in seen:
            seen.append(p)
    return seen


def bin() -> str:  # noqa: A001 (ruff's find_ruff_bin, by another name)
    """The path of the torchgate binary.

    ``$TORCHGATE`` when set; else the binary the wheel installed beside
    this package (``PREFIX/bin/torchgate`` for
    ``PREFIX/lib/pythonX.Y/site-packages/torchgate``, ``T/bin/torchgate``
    for ``pip install --target T``), then the running interpreter's
    scripts directory, the user scheme's, and last ``PATH``. Raises
    ``TorchgateNotFound``, listing every place it looked.
    """
    e = os.environ.get("TORCHGATE")
    if e:
        if os.path.isfile(e) and os.access(e, os.X_OK):
            return e
        raise TorchgateNotFound(
            "$TORCHGATE is '%s', which is not an executable file" % e)
    tried = _candidates()
    for p in tried:
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    raise TorchgateNotFound(
        "the torchgate binary was not found; looked for:\n  "
        + "\n  ".join(tried)
        + "\n(pip install torchgate, or set TORCHGATE to the binary)")


def _env_args(python: Optional[PathLike], prefix: Optional[PathLike],
              site_packages: SitePackages) -> List[str]:
    """The environment options: exactly one of the three, default
    ``--python sys.executable``."""
    given = [n for n, v in (("python", python), ("prefix", prefix),
                            ("site_packages", site_packages))
             if v is not None]
    if len(given) > 1:
        raise ValueError("give at most one of python, prefix and "
                         "site_packages, not %s" % " and ".join(given))
    if prefix is not None:
        return ["--prefix", os.fspath(prefix)]
    if site_packages is not None:
        if isinstance(site_packages, (str, os.PathLike)):
            site_packages = [site_packages]
        out: List[str] = []
        for d in site_packages:
            out += ["--site-packages", os.fspath(d)]
        return out
    return ["--python", os.fspath(python) if python is not None
            else sys.executable]


def _message(stderr: str, returncode: int) -> str:
    """torchgate's message: its stderr lines that are not notes."""
    lines = [ln for ln in stderr.splitlines()
             if ln.strip() and ": note: " not in ln]
    if lines:
        return "\n".join(lines)
    return "torchgate exited with status %d" % returncode


def run(*args: str, timeout: Optional[float] = DEFAULT_TIMEOUT,
        check: bool = True, input: Optional[str] = None,
        cwd: Optional[PathLike] = None) -> "subprocess.CompletedProcess[str]":
    """Run ``torchgate ARGS...`` and return the completed process (text
    stdout and stderr). With ``check`` (the default) a non-zero exit
    status raises ``TorchgateError`` with torchgate's message; a run past
    ``timeout`` seconds is killed and raises ``TorchgateError``."""
    cmd = [bin()] + [os.fspath(a) for a in args]
    try:
        r = subprocess.run(cmd, input=input, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True,
                           timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired as e:
        raise TorchgateError("'%s' did not finish in %s s"
                             % (" ".join(cmd), timeout), None, cmd,
                             _text(e.stdout), _text(e.stderr)) from None
    except OSError as e:
        raise TorchgateError("cannot run '%s': %s" % (cmd[0], e.strerror),
                             None, cmd) from None
    if check and r.returncode != 0:
        raise TorchgateError(_message(r.stderr, r.returncode), r.returncode,
                             cmd, r.stdout, r.stderr)
    return r


def _text(b: Union[bytes, str, None]) -> str:
    if b is None:
        return ""
    if isinstance(b, bytes):
        return b.decode("utf-8", "replace")
    return b


def _json(*args: str, timeout: Optional[float]) -> Dict[str, Any]:
    r = run(*args, timeout=timeout)
    try:
        doc = json.loads(r.stdout)
    except ValueError as e:
        raise TorchgateError("'%s' printed no JSON: %s"
                             % (" ".join(r.args), e), r.returncode,
                             r.args, r.stdout, r.stderr) from None
    if not isinstance(doc, dict):
        raise TorchgateError("'%s' printed JSON that is not an object"
                             % " ".join(r.args), r.returncode, r.args,
                             r.stdout, r.stderr)
    return doc


def probe(python: Optional[PathLike] = None,
          site_packages: SitePackages = None,
          prefix: Optional[PathLike] = None, *,
          timeout: Optional[float] = DEFAULT_TIMEOUT) -> Dict[str, Any]:
    """The installed torch, as ``torchgate probe --format=json`` gives
    it: ``version``, ``cuda``, ``cxx11_abi``, ``include_dirs``, every
    version source, and more (``torchgate help probe``). No torch
    there raises ``TorchgateError`` with exit status 3."""
    return _json("probe", "--quiet", "--format=json",
                 *_env_args(python, prefix, site_packages), timeout=timeout)


def verify(spec: str, python: Optional[PathLike] = None,
           site_packages: SitePackages = None,
           prefix: Optional[PathLike] = None, *,
           policy: Optional[str] = None,
           timeout: Optional[float] = DEFAULT_TIMEOUT) -> bool:
    """Check the installed torch against ``spec`` (``"torch>=2.1,<3"``
    or a bare ``">=2.1"``); ``policy`` is ``"strict"`` (PEP 440, the
    default), ``"base"`` (compare the release: a pre-release or nightly
    of 2.5 counts as 2.5) or ``"release"``. Returns True; raises
    ``VersionError`` with torchgate's message when torch does not
    satisfy it, ``TorchgateError`` for anything else (no torch: exit
    status 3, a bad specifier: 2)."""
    args = ["verify", "--quiet"]
    if policy is not None:
        args.append("--policy=" + policy)
    args += _env_args(python, prefix, site_packages)
    args.append(spec)
    try:
        run(*args, timeout=timeout)
    except TorchgateError as e:
        if e.returncode == 1:
            raise VersionError(e.message, e.returncode, e.cmd, e.stdout,
                               e.stderr) from None
        raise
    return True


def flags(python: Optional[PathLike] = None,
          site_packages: SitePackages = None,
          prefix: Optional[PathLike] = None, *, name: Optional[str] = None,
          cuda: bool = False, full: bool = False,
          timeout: Optional[float] = DEFAULT_TIMEOUT) -> Dict[str, Any]:
    """The flags ``torch.utils.cpp_extension`` would build an extension
    with (``torchgate flags --format=json``), as keyword arguments of
    ``setuptools.Extension``: ``include_dirs``, ``define_macros`` (a list
    of tuples), ``extra_compile_args``, ``library_dirs``,
    ``runtime_library_dirs``, ``libraries``, ``language``. ``name`` sets
    ``TORCH_EXTENSION_NAME``; ``cuda`` adds CUDA's. With ``full`` the
    whole JSON document instead (``extension``, ``nvcc``, ``cuda_home``,
    each flag and where it comes from)."""
    args = ["flags", "--quiet", "--format=json"]
    if name is not None:
        args += ["--name", name]
    if cuda:
        args.append("--cuda")
    doc = _json(*args, *_env_args(python, prefix, site_packages),
                timeout=timeout)
    if full:
        return doc
    ext = dict(doc.get("extension") or {})
    ext["define_macros"] = [tuple(m) for m in ext.get("define_macros", [])]
    return ext


def emit(header: Optional[PathLike] = None,
         module: Optional[PathLike] = None, *,
         apis: Sequence[str] = (), macro_prefix: Optional[str] = None,
         python: Optional[PathLike] = None,
         site_packages: SitePackages = None,
         prefix: Optional[PathLike] = None,
         torch_version: Optional[str] = None,
         timeout: Optional[float] = DEFAULT_TIMEOUT) -> None:
    """Write the guard header (C/C++) and/or the Python constants module
    for the installed torch (``torchgate emit``): version macros, CUDA,
    the C++11 ABI, and ``<P>_HAS_<STEM>`` for each id in ``apis``. Files
    are left alone when unchanged. ``torch_version`` judges for that
    version instead of an installed torch."""
    if header is None and module is None:
        raise ValueError("emit needs header, module or both")
    args = ["emit", "--quiet"]
    if header is not None:
        args += ["--header", os.fspath(header)]
    if module is not None:
        args += ["--module", os.fspath(module)]
    if macro_prefix is not None:
        args += ["--macro-prefix", macro_prefix]
    for a in apis:
        args += ["--api", a]
    if torch_version is not None:
        if python is not None or prefix is not None or site_packages is not None:
            raise ValueError("torch_version excludes python, prefix and "
                             "site_packages")
        args += ["--torch-version", torch_version]
    else:
        args += _env_args(python, prefix, site_packages)
    run(*args, timeout=timeout)


def require(*paths: PathLike, check_declared: bool = False,
            timeout: Optional[float] = DEFAULT_TIMEOUT) -> Dict[str, Any]:
    """The torch range the code under ``paths`` needs, from the APIs it
    uses (``torchgate require --format=json``). With ``check_declared``
    the package's declared torch requirement is judged too; a declared
    range the code contradicts raises ``TorchgateError`` (exit status
    1) whose ``stdout`` holds the JSON report."""
    if not paths:
        raise ValueError("require needs at least one path")
    args = ["require", "--quiet", "--format=json"]
    if check_declared:
        args.append("--check-declared")
    return _json(*args, "--", *[os.fspath(p) for p in paths],
                 timeout=timeout)


def env(python: Optional[PathLike] = None,
        site_packages: SitePackages = None,
        prefix: Optional[PathLike] = None, *, elf: bool = True,
        timeout: Optional[float] = DEFAULT_TIMEOUT) -> Dict[str, Any]:
    """The whole environment against its torch (``torchgate env
    --format=json``): who requires torch and whether it is satisfied,
    CUDA wheels and variants, extensions built for another torch.
    Findings are in the document: this returns it also when torchgate
    exits 1 for them. ``elf=False`` skips reading extension modules'
    symbols."""
    args = ["env", "--quiet", "--format=json"]
    if not elf:
        args.append("--no-elf")
    args += _env_args(python, prefix, site_packages)
    r = run(*args, timeout=timeout, check=False)
    if r.returncode not in (0, 1):
        raise TorchgateError(_message(r.stderr, r.returncode), r.returncode,
                             r.args, r.stdout, r.stderr)
    try:
        doc = json.loads(r.stdout)
    except ValueError as e:
        raise TorchgateError("'%s' printed no JSON: %s"
                             % (" ".join(r.args), e), r.returncode, r.args,
                             r.stdout, r.stderr) from None
    if not isinstance(doc, dict):
        raise TorchgateError("'%s' printed JSON that is not an object"
                             % " ".join(r.args), r.returncode, r.args,
                             r.stdout, r.stderr)
    return doc
