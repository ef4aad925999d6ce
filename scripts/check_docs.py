#!/usr/bin/env python3
"""The docs' links and index: every relative link in the project's Markdown (README.md, docs/*.md
and each folder's README.md) names a file that exists, and an anchor (#...) one that the page has (a
heading, as GitHub makes its anchor, or an <a id="...">); every page of docs/ is in docs/README.md's
index, and every file of experiments/ in docs/experiments.md's list of them. Prints each broken link
(file, line, link, why) and exits 1 if there is one; 0 otherwise.

  scripts/check_docs.py [--root DIR]
"""
import argparse
import os
import re
import sys

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`[^`]*`")


def markdown_files(root):
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("build", "node_modules", "results")]
        rel = os.path.relpath(folder, root)
        for f in files:
            if f.endswith(".md") and (rel == "." or rel == "docs" or f == "README.md"):
                found.append(os.path.normpath(os.path.join(rel, f)))
    return sorted(found)


def prose_lines(text):
    """(line number, line) outside fenced and indented code blocks."""
    fenced = code = False
    previous = ""
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        # (an indented line after a blank one, or after code, is code; after text, a list item's own)
        code = (line.startswith("    ") or line.startswith("\t")) and (code or not previous.strip())
        previous = line
        if fenced or code:
            continue
        yield number, line


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation but hyphens dropped, spaces to hyphens."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[`*]", "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text):
    found, seen = set(), {}
    for _, line in prose_lines(text):
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            found.add(base if n == 0 else f"{base}-{n}")
            seen[base] = n + 1
    found.update(re.findall(r'<a\s+(?:id|name)="([^"]+)"', text))
    return found


def main():
    ap = argparse.ArgumentParser(description="the docs' links and index")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = ap.parse_args()
    root = args.root
    if not os.path.isfile(os.path.join(root, "docs", "README.md")):
        print(f"check_docs.py: --root {root}: no docs/README.md there (accepted: the project's folder)", file=sys.stderr)
        return 2
    broken = []
    cache = {}
    checked = 0

    def page_anchors(path):
        if path not in cache:
            cache[path] = anchors(open(path, encoding="utf-8").read())
        return cache[path]

    pages = markdown_files(root)
    for page in pages:
        text = open(os.path.join(root, page), encoding="utf-8").read()
        for number, line in prose_lines(text):
            for m in LINK.finditer(CODE_SPAN.sub("", line)):  # (a link's text in a code span is no link)
                target = m.group(1) or m.group(2)
                if re.match(r"[a-z]+:", target):  # (http:, https:, mailto:: not checked here)
                    continue
                checked += 1
                path, _, anchor = target.partition("#")
                file = os.path.normpath(os.path.join(root, os.path.dirname(page), path)) if path else os.path.join(root, page)
                where = f"{page}:{number}: ({target})"
                if not os.path.exists(file):
                    broken.append(f"{where}: no file {os.path.relpath(file, root)}")
                elif anchor and file.endswith(".md") and anchor not in page_anchors(file):
                    broken.append(f"{where}: {os.path.relpath(file, root)} has no heading or <a id> '{anchor}'")
    index = open(os.path.join(root, "docs", "README.md"), encoding="utf-8").read()
    listed = {os.path.normpath(os.path.join("docs", t.partition("#")[0])) for t in re.findall(r"\]\(([^)\s]+)\)", index)}
    for page in pages:
        if page.startswith("docs" + os.sep) and page != os.path.join("docs", "README.md") and page not in listed:
            broken.append(f"docs/README.md: does not list {page}")
    # (every experiment file in experiments.md's list of them, as every page in the index)
    experiments = open(os.path.join(root, "docs", "experiments.md"), encoding="utf-8").read()
    for f in sorted(os.listdir(os.path.join(root, "experiments"))):
        if f.endswith(".yaml") and f"| `{f}` |" not in experiments:
            broken.append(f"docs/experiments.md: 'The files in experiments/' does not list {f}")
    for b in broken:
        print(b)
    print(f"check_docs.py: {len(pages)} pages, {checked} links, {len(broken)} broken" +
          (" links or index entries" if broken else ""))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
