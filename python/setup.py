# SPDX-License-Identifier: Apache-2.0
"""Builds robotsc._robotsc against the project's C libraries.

By default the libraries are built from this repository with CMake as
position-independent static archives (in ROBOTSC_CMAKE_BUILD_DIR, default
python/build/cmake) and linked into the extension, their symbols hidden.
ROBOTSC_PREFIX=/usr/local uses an installed copy instead (include/ and lib/
with librobotsc, librobotsc_runtime and librobotsc_crawl).
From a source release (`cmake --build build --target dist`) the C build
uses the pre-generated parser and lexer (grammar/generated/), so neither
bison nor re2c is needed; a git checkout needs both. The wheel carries the
compiled extension: installing it needs no compiler.
    pip wheel --no-build-isolation ./python
Offline install (Debian's setuptools):
    /usr/bin/python3 -m venv --system-site-packages VENV
    VENV/bin/python -m pip install --no-build-isolation ./python
"""
import glob
import os
import re
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.abspath(os.environ.get("ROBOTSC_SOURCE_DIR", os.path.join(HERE, "..")))
PREFIX = os.environ.get("ROBOTSC_PREFIX")
INCLUDE = os.path.join(PREFIX or SOURCE, "include")
# robotsc.Store needs the LMDB store (store/); ROBOTSC_STORE=0 leaves it out.
STORE = (os.environ.get("ROBOTSC_STORE", "1") != "0"
         and os.path.exists(os.path.join(INCLUDE, "robotsc", "store.h")))
LIBS = (["robotsc_store"] if STORE else []) + ["robotsc_crawl", "robotsc", "robotsc_runtime"]


def project_version():
    try:
        with open(os.path.join(SOURCE, "CMakeLists.txt"), encoding="utf-8") as f:
            m = re.search(r"project\(robotsc\s+VERSION\s+([0-9.]+)", f.read())
        return m.group(1) if m else "0.0.0"
    except OSError:
        return "0.0.0"


def header_defines():
    """Feature macros: RSC_HAVE_STORE when the LMDB store is linked in."""
    return [("RSC_HAVE_STORE", "1")] if STORE else []


def pkg_libs(*mods):
    try:
        out = subprocess.run(["pkg-config", "--libs", *mods], check=True,
                             capture_output=True, text=True).stdout
        return out.split()
    except (OSError, subprocess.CalledProcessError):
        return ["-l" + m.replace("lib", "", 1) for m in mods]


class BuildExt(build_ext):
    def build_extensions(self):
        ext = self.extensions[0]
        if PREFIX:
            ext.library_dirs.append(os.path.join(PREFIX, "lib"))
            ext.libraries += LIBS
        else:
            ext.extra_objects += self.cmake_archives()
        ext.extra_link_args += pkg_libs(*(["lmdb"] if STORE else []), "libidn2", "libcurl")
        super().build_extensions()

    def cmake_archives(self):
        build = os.path.abspath(os.environ.get(
            "ROBOTSC_CMAKE_BUILD_DIR", os.path.join(HERE, "build", "cmake")))
        cmake = shutil.which("cmake")
        if not cmake:
            raise RuntimeError("cmake is needed to build robotsc's C libraries "
                               "(or set ROBOTSC_PREFIX to an installed copy)")
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            args = [cmake, "-S", SOURCE, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                    "-DCMAKE_POSITION_INDEPENDENT_CODE=ON", "-DBUILD_SHARED_LIBS=OFF",
                    "-DRSC_BUILD_TESTS=OFF", "-DRSC_BUILD_CLI=OFF", "-DRSC_BUILD_BENCH=OFF",
                    "-DRSC_BUILD_STORE=%s" % ("ON" if STORE else "OFF"), "-DRSC_SANITIZE=OFF"]
            if shutil.which("ninja"):
                args += ["-G", "Ninja"]
            subprocess.run(args, check=True)
        else:
            # An existing build directory follows this build's choices.
            subprocess.run([cmake, "-S", SOURCE, "-B", build, "-DRSC_BUILD_STORE=%s" % ("ON" if STORE else "OFF")],
                           check=True, stdout=subprocess.DEVNULL)
        jobs = os.environ.get("ROBOTSC_JOBS", "2")
        subprocess.run([cmake, "--build", build, "-j", jobs, "--target", *LIBS], check=True)
        archives = []
        for name in LIBS:
            hits = sorted(glob.glob(os.path.join(build, "**", "lib%s.a" % name), recursive=True))
            if not hits:
                raise RuntimeError("lib%s.a not found under %s" % (name, build))
            archives.append(hits[0])
        return archives


cflags = ["-std=c11", "-Wall", "-Wextra", "-Wno-missing-field-initializers",
          "-Wno-cast-function-type"]
if os.environ.get("ROBOTSC_WERROR"):
    cflags.append("-Werror")

setup(
    version=project_version(),
    ext_modules=[Extension(
        "robotsc._robotsc",
        sources=["src/robotsc_module.c", "src/args.c", "src/compile.c", "src/robots.c", "src/origin.c", "src/diff.c",
                 "src/store.c"],
        include_dirs=[INCLUDE],
        define_macros=[("ROBOTSC_PY_VERSION", '"%s"' % project_version())] + header_defines(),
        extra_compile_args=cflags,
        # The static archives' symbols stay private to the extension.
        extra_link_args=["-Wl,--exclude-libs,ALL"],
    )],
    cmdclass={"build_ext": BuildExt},
)
