#!/usr/bin/env python3
"""Keeps the docs honest: fails (exit 1) when README.md or docs/*.md say something the tree contradicts.

Checks:
  1. README.md has at most 200 lines.
  2. Every relative markdown link (and image) in README.md and docs/*.md names a file that exists; a
     link's #anchor names a heading of the page it points to.
  3. Every backticked path under sim/, tests/, workloads/, platforms/, validation/, bench/ or docs/
     names a file or folder that exists (`x.*` and other globs must match at least one file), and so
     does every such path in the pages' command lines (indented or fenced code).
  4. The README's test command (the one CI runs verbatim) is, byte for byte, the command .ci/run
     runs after "== tests".
  5. Every `t3sim SUBCOMMAND --option` in a command line of the pages is an option sim/cli/main.cpp
     declares, and docs/commands.md names every subcommand and option main.cpp declares.

Usage: python3 docs/check_docs.py [--root DIR] [--skip-missing PREFIX]...
  --skip-missing sim/   report missing paths under sim/ as warnings, not failures (e.g. while a move
                        of the sources is pending)
Exit 0 when every check passes, 1 otherwise (each failure printed as FILE:LINE: what).
"""
import argparse
import glob
import os
import re
import sys

PATH_PREFIXES = ("sim/", "tests/", "workloads/", "platforms/", "validation/", "bench/", "docs/")
MAX_README_LINES = 200


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def split_page(text):
    """Yields (line number, line, in_code) for each line; in_code for fenced or indented code."""
    in_fence = False
    prev_blank = True
    in_indented = False
    for n, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            yield n, line, True
            prev_blank = False
            continue
        if in_fence:
            yield n, line, True
            continue
        if line.startswith("    ") and line.strip() and (prev_blank or in_indented):
            in_indented = True
            yield n, line, True
        else:
            if line.strip():
                in_indented = False
            yield n, line, False
        prev_blank = not line.strip()


def anchors_of(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        with open(path, encoding="utf-8") as f:
            for _, line, code in split_page(f.read()):
                m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
                if m and not code:
                    s = slug(m.group(2))
                    k = seen.get(s, 0)
                    found.add(s if k == 0 else f"{s}-{k}")
                    seen[s] = k + 1
        cache[path] = found
    return cache[path]


def path_exists(root, p):
    p = p.rstrip(".,;")
    full = os.path.join(root, p)
    if any(c in p for c in "*?["):
        return bool(glob.glob(full))
    return os.path.exists(full)


def declared_cli(main_cpp):
    """Subcommands and, per subcommand, the options main.cpp declares."""
    text = open(main_cpp, encoding="utf-8").read()
    subs = re.findall(r'add_subcommand\(\s*"([a-z-]+)"', text)
    # Options declared through add_point_options belong to run and sensitivity.
    point = set(re.findall(r'(?<!_)cmd->add_(?:option|flag)\("(--[a-z-]+)"', text))
    opts = {s: set() for s in subs}
    for var, opt in re.findall(r'(\w+)_cmd\s*->\s*add_(?:option|flag)\(\s*"(--[a-z-]+)"', text):
        name = {"run": "run", "sens": "sensitivity", "route": "route", "describe": "describe", "val": "validate",
                "report": "report", "cal": "calibrate", "sweep": "sweep", "bench": "bench"}.get(var)
        if name:
            opts[name].add(opt)
    for s in ("run", "sensitivity"):
        if s in opts:
            opts[s] |= point
    # Options chained on the next line: `sweep_cmd\n ->add_option("--uncertainty", ...)`.
    for var, opt in re.findall(r'(\w+)_cmd\s*\n\s*->\s*add_(?:option|flag)\(\s*"(--[a-z-]+)"', text):
        name = {"run": "run", "sweep": "sweep", "bench": "bench", "cal": "calibrate"}.get(var)
        if name:
            opts[name].add(opt)
    return subs, opts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--skip-missing", action="append", default=[], metavar="PREFIX")
    args = ap.parse_args()
    root = args.root
    failures, warnings = [], []

    def missing(where, p, what):
        msg = f"{where}: {what} names {p}, which does not exist"
        (warnings if any(p.startswith(s) for s in args.skip_missing) else failures).append(msg)

    readme = os.path.join(root, "README.md")
    pages = [readme] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))

    # 1. README length.
    with open(readme, encoding="utf-8") as f:
        n_lines = len(f.read().splitlines())
    if n_lines > MAX_README_LINES:
        failures.append(f"README.md: {n_lines} lines, more than {MAX_README_LINES}")

    main_cpp = os.path.join(root, "sim", "cli", "main.cpp")
    subs, opts = declared_cli(main_cpp) if os.path.exists(main_cpp) else ([], {})
    code_lines = []

    for page in pages:
        rel = os.path.relpath(page, root)
        with open(page, encoding="utf-8") as f:
            text = f.read()
        for n, line, code in split_page(text):
            where = f"{rel}:{n}"
            if code:
                code_lines.append((where, line))
                # 3b. Paths in command lines.
                for tok in re.findall(r"(?<![\w/.-])((?:%s)[\w./*-]+)" % "|".join(re.escape(p) for p in PATH_PREFIXES),
                                      line):
                    if not path_exists(root, tok):
                        missing(where, tok, "a command line")
                continue
            # 2. Relative links and images.
            for target in re.findall(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", line):
                if re.match(r"^[a-z]+:", target):
                    continue
                file_part, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(page), file_part)) if file_part else page
                if file_part and not os.path.exists(dest):
                    missing(where, os.path.relpath(dest, root), "a link")
                    continue
                if anchor and dest.endswith(".md") and anchor not in anchors_of(dest):
                    failures.append(f"{where}: link #{anchor} names no heading of {os.path.relpath(dest, root)}")
            # 3a. Backticked paths (no spaces: a path, not a command or a message).
            for span in re.findall(r"`([^`]+)`", line):
                if span.startswith(PATH_PREFIXES) and not re.search(r"\s", span):
                    if not path_exists(root, span):
                        missing(where, span, "a backticked path")

    # 4. The README's test command is the one .ci/run runs.
    ci_run = os.path.join(root, ".ci", "run")
    with open(ci_run, encoding="utf-8") as f:
        ci_lines = f.read().splitlines()
    ci_test = None
    for i, line in enumerate(ci_lines):
        if line.strip() == 'echo "== tests"' and i + 1 < len(ci_lines):
            ci_test = ci_lines[i + 1].strip()
    if ci_test is None:
        failures.append(".ci/run: no command after 'echo \"== tests\"' to compare the README's with")
    else:
        with open(readme, encoding="utf-8") as f:
            readme_cmds = [l[4:] for l in f.read().splitlines() if l.startswith("    ")]
        if ci_test not in readme_cmds:
            failures.append(f"README.md: no command line equals the test command .ci/run runs: {ci_test}")

    # 5. Options in command lines exist; commands.md documents every option.
    if subs:
        for where, line in code_lines:
            for command in re.split(r"&&|\|\||;|\|", re.sub(r"#.*", "", line)):
                m = re.search(r"\bt3sim\s+([a-z-]+)(.*)", command)
                if not m or m.group(1) not in opts:
                    if m and m.group(1) not in subs and not m.group(1).startswith("-"):
                        failures.append(f"{where}: t3sim {m.group(1)} is not a subcommand of sim/cli/main.cpp")
                    continue
                sub, rest = m.group(1), m.group(2)
                for opt in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", rest):
                    if opt not in opts[sub] and opt not in ("--help", "--version"):
                        failures.append(f"{where}: t3sim {sub} has no option {opt} in sim/cli/main.cpp")
        commands_md = os.path.join(root, "docs", "commands.md")
        if os.path.exists(commands_md):
            text = open(commands_md, encoding="utf-8").read()
            sections = dict(re.findall(r"^## ([a-z]+)\n(.*?)(?=^## |\Z)", text, flags=re.S | re.M))
            for sub in subs:
                if sub not in sections:
                    failures.append(f"docs/commands.md: no section '## {sub}' for the subcommand {sub}")
                    continue
                body = sections[sub] + (sections.get("run", "") if sub == "sensitivity" else "")
                for opt in sorted(opts[sub]):
                    if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(opt), body):
                        failures.append(f"docs/commands.md: section {sub} does not document {opt}")
    else:
        failures.append("sim/cli/main.cpp: not found, so the options could not be checked")

    for w in warnings:
        print("warning:", w)
    for f in failures:
        print("FAIL:", f)
    print(f"check_docs: {len(pages)} pages, {len(failures)} failures, {len(warnings)} warnings (skipped prefixes)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
