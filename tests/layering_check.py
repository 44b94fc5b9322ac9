#!/usr/bin/env python3
"""The layers of sim/ as a test, derived from the build's own link lists.

Every folder under sim/ is one library, declared in its CMakeLists.txt by
`t3sim_library(NAME SOURCES ... DEPENDS ... PRIVATE ...)` (the t3sim executable by add_executable and
target_link_libraries). From those lists this script checks every #include of every source file:

  - a file may include a project header only from its own library or from a library its library
    links (DEPENDS or PRIVATE), or that one of those exposes (DEPENDS, transitively);
  - a header may include only from its own library and what it exposes (DEPENDS): a PRIVATE
    library's headers would leak to every user;
  - <simgrid/...> only under sim/engine, <yaml-cpp/...> only under sim/io, <CLI/...> only under
    sim/cli, <nlopt...> only under sim/calib, <boost/...> only in .cpp files of sim/core/topology;
  - and no file outside sim/engine (resp. sim/io) reaches SimGrid (resp. yaml-cpp) through the
    headers it includes, directly or not;
  - no folder holds more than 15 source files (.cpp and .hpp).

Usage: layering_check.py [ROOT]   (ROOT: the source tree, default: this file's parent's parent).
Exit 0 when every rule holds, 1 with one line per violation otherwise.
"""
import os
import re
import sys

MAX_SOURCES_PER_FOLDER = 15
# External headers: the only folders (prefixes of the file's path) allowed to include them.
EXTERNAL_RULES = [
    ("simgrid/", "sim/engine/", "SimGrid"),
    ("yaml-cpp/", "sim/io/", "yaml-cpp"),
    ("CLI/", "sim/cli/", "CLI11"),
    ("nlopt", "sim/calib/", "NLopt"),
    ("boost/", "sim/core/topology/", "Boost"),
]
# Externals that must not reach files outside their folder through project headers either.
SEALED = [("simgrid/", "sim/engine/", "SimGrid"), ("yaml-cpp/", "sim/io/", "yaml-cpp")]

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def strip_comments(text):
    text = re.sub(r"#[^\n]*", "", text)
    return text


executables = set()  # an executable's headers are its own: they may include whatever it links


def parse_libraries(root):
    """Library name -> (folder, public deps, private deps), from every CMakeLists.txt under sim/."""
    libs = {}
    for folder, _, files in os.walk(os.path.join(root, "sim")):
        if "CMakeLists.txt" not in files:
            continue
        rel = os.path.relpath(folder, root).replace(os.sep, "/")
        text = strip_comments(open(os.path.join(folder, "CMakeLists.txt")).read())
        for m in re.finditer(r"t3sim_library\(([^)]*)\)", text):
            words = m.group(1).split()
            name, public, private, mode = words[0], [], [], None
            for w in words[1:]:
                if w in ("SOURCES", "DEPENDS", "PRIVATE"):
                    mode = w
                elif mode == "DEPENDS":
                    public.append(w)
                elif mode == "PRIVATE":
                    private.append(w)
            libs[name] = (rel, public, private)
        for m in re.finditer(r"add_executable\((\w+)", text):
            name = m.group(1)
            links = re.search(r"target_link_libraries\(" + name + r"\s+PRIVATE([^)]*)\)", text)
            deps = links.group(1).split() if links else []
            libs[name] = (rel, [], deps)
            executables.add(name)
    return libs


def exposed(lib, libs, seen=None):
    """lib and everything its public deps expose, transitively (project libraries only)."""
    seen = set() if seen is None else seen
    if lib in seen or lib not in libs:
        return seen
    seen.add(lib)
    for dep in libs[lib][1]:
        exposed(dep, libs, seen)
    return seen


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    libs = parse_libraries(root)
    folder_lib = {folder: name for name, (folder, _, _) in libs.items()}
    problems = []
    if not libs:
        print(f"{root}: no t3sim_library() found under sim/")
        return 1

    # Every source file: its folder's library and its includes.
    includes = {}
    for folder, _, files in os.walk(os.path.join(root, "sim")):
        rel = os.path.relpath(folder, root).replace(os.sep, "/")
        sources = sorted(f for f in files if f.endswith((".cpp", ".hpp")))
        if len(sources) > MAX_SOURCES_PER_FOLDER:
            problems.append(f"{rel}/: holds {len(sources)} source files (at most {MAX_SOURCES_PER_FOLDER})")
        if sources and rel not in folder_lib:
            problems.append(f"{rel}/: holds sources but declares no library in a CMakeLists.txt")
        for f in sources:
            path = f"{rel}/{f}"
            entries = []
            for number, line in enumerate(open(os.path.join(folder, f), encoding="utf-8"), 1):
                m = INCLUDE.match(line)
                if m:
                    entries.append((number, m.group(1), m.group(2)))
            includes[path] = entries

    for path, entries in sorted(includes.items()):
        folder = path.rsplit("/", 1)[0]
        lib = folder_lib.get(folder)
        if lib is None:
            continue
        header = path.endswith(".hpp") and lib not in executables
        may = exposed(lib, libs)
        if not header:
            for dep in libs[lib][1] + libs[lib][2]:
                may |= exposed(dep, libs)
        for number, kind, target in entries:
            where = f"{path}:{number}"
            if kind == '"' and target.startswith("sim/"):
                if target not in includes:
                    problems.append(f"{where}: includes {target}, which does not exist")
                    continue
                target_lib = folder_lib.get(target.rsplit("/", 1)[0])
                if target_lib not in may:
                    reach = "exposes (DEPENDS)" if header else "links"
                    problems.append(f"{where}: {lib} includes {target} of {target_lib}, which {lib} "
                                    f"neither is nor {reach}: an include that climbs or crosses the layers")
            elif kind == "<":
                for prefix, allowed, what in EXTERNAL_RULES:
                    if target.startswith(prefix) and not path.startswith(allowed):
                        problems.append(f"{where}: includes <{target}>: {what} belongs to {allowed} only")
                    elif target.startswith("boost/") and header:
                        problems.append(f"{where}: includes <{target}> in a header: Boost stays in .cpp files")

    # Sealed externals: no file outside their folder reaches them through project headers.
    reaches = {}

    def reached(path, stack=()):
        if path in reaches:
            return reaches[path]
        found = {}
        for number, kind, target in includes.get(path, []):
            if kind == "<":
                for prefix, _, what in SEALED:
                    if target.startswith(prefix):
                        found.setdefault(what, [path])
            elif target.startswith("sim/") and target in includes and target not in stack:
                for what, chain in reached(target, stack + (path,)).items():
                    found.setdefault(what, [path] + chain)
        reaches[path] = found
        return found

    for path in sorted(includes):
        for prefix, allowed, what in SEALED:
            if path.startswith(allowed):
                continue
            chain = reached(path).get(what)
            if chain and len(chain) > 1:  # a direct include is reported by the rule above
                problems.append(f"{path}: reaches {what} through " + " -> ".join(chain[1:]) +
                                f" ({what} must stay inside {allowed})")

    for p in problems:
        print(p)
    print(f"layering: {len(includes)} files in {len(libs)} libraries, {len(problems)} violation(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
