"""Comments and indentation out of the page's own scripts and style sheets in dist/ (issue
43): about a third of their bytes, which a host that compresses nothing sends on every first
visit (the table's files before its first hand: 596 KB -> 424 KB, most of a second at
1.6 Mbit/s). The
sources in site/ keep them; nothing else changes (no renaming, no joining of files, every
line break between tokens kept, so automatic semicolon insertion reads the code as before).

The JavaScript is read by a small lexer: strings, template literals (with their `${...}`),
regular expression literals (told from a division by the token before the slash, as a
JavaScript parser does for the code this project writes) and comments. What it cannot read
(an unterminated string, comment or template) fails the build rather than guessing."""

from __future__ import annotations

import re

from .common import BuildError
from .output import Output

# Words after which a slash starts a regular expression literal, not a division.
_REGEX_AFTER_WORDS = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw",
                      "yield", "await", "instanceof"}
# Characters after which a slash starts a regular expression literal ("" = the file's start).
_REGEX_AFTER_CHARS = set("(,=:[!&|?{};+-*%<>~^") | {""}
_WORD = re.compile(r"[\w$]+")


def strip_js(src: str, name: str = "<js>") -> str:
    """`src` without its comments, blank lines and indentation (outside strings, template
    literals and regular expressions, which are copied as they are)."""
    out: list[str] = []
    line: list[str] = []  # the current output line (code context only decides its fate)
    n = len(src)
    i = 0
    templates: list[int] = []  # brace depth at each open `${`
    depth = 0
    last = ""  # the last significant character of code
    last_word = ""

    def newline() -> None:
        text = "".join(line).rstrip()
        line.clear()
        if text.strip():
            out.append(text.lstrip() + "\n")

    def fail(what: str, at: int) -> None:
        lineno = src.count("\n", 0, at) + 1
        raise BuildError(f"{name}:{lineno}: cannot strip: {what}")

    def template(at: int) -> int:
        """Copy a template literal's text from `at` (after the backtick or a closing brace);
        returns where code goes on (after the closing backtick or an opening `${`)."""
        nonlocal depth
        j = at
        while j < n:
            c = src[j]
            if c == "\\":
                j += 2
                continue
            if c == "`":
                line.append(src[at:j + 1])
                return j + 1
            if c == "$" and j + 1 < n and src[j + 1] == "{":
                line.append(src[at:j + 2])
                templates.append(depth)
                depth += 1
                return j + 2
            j += 1
        fail("unterminated template literal", at)
        return n

    while i < n:
        c = src[i]
        if c == "\n":
            newline()
            i += 1
            continue
        if c in " \t\r":
            if line and line[-1] not in (" ", "\t"):
                line.append(" ")
            i += 1
            continue
        if c == "/" and src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "/" and src.startswith("/*", i):
            j = src.find("*/", i + 2)
            if j < 0:
                fail("unterminated comment", i)
            comment = src[i:j + 2]
            i = j + 2
            if "\n" in comment:
                newline()
            elif line and line[-1] != " ":
                line.append(" ")
            continue
        if c in "'\"":
            j = i + 1
            while j < n and src[j] != c:
                if src[j] == "\\":
                    j += 1
                elif src[j] == "\n":
                    fail("unterminated string", i)
                j += 1
            if j >= n:
                fail("unterminated string", i)
            line.append(src[i:j + 1])
            i = j + 1
            last, last_word = c, ""
            continue
        if c == "`":
            line.append("`")
            i = template(i + 1)
            last, last_word = "`", ""
            continue
        if c == "/" and (last in _REGEX_AFTER_CHARS or last_word in _REGEX_AFTER_WORDS or last == "}"):
            j = i + 1
            in_class = False
            while j < n:
                d = src[j]
                if d == "\\":
                    j += 2
                    continue
                if d == "\n":
                    fail("unterminated regular expression", i)
                if d == "[":
                    in_class = True
                elif d == "]":
                    in_class = False
                elif d == "/" and not in_class:
                    break
                j += 1
            if j >= n:
                fail("unterminated regular expression", i)
            j += 1
            while j < n and (src[j].isalnum()):
                j += 1  # its flags
            line.append(src[i:j])
            i = j
            last, last_word = "/", ""
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            if templates and templates[-1] == depth - 1:
                templates.pop()
                depth -= 1
                line.append("}")
                i = template(i + 1)
                last, last_word = "`", ""
                continue
            depth -= 1
        m = _WORD.match(src, i)
        if m:
            line.append(m.group(0))
            last, last_word = m.group(0)[-1], m.group(0)
            i = m.end()
            continue
        line.append(c)
        last, last_word = c, ""
        i += 1
    if templates:
        fail("unterminated template substitution", n)
    newline()
    return "".join(out)


def strip_css(src: str, name: str = "<css>") -> str:
    """`src` without its comments, blank lines and indentation (strings copied as they are)."""
    out: list[str] = []
    i = 0
    n = len(src)
    while i < n:
        c = src[i]
        if c == "/" and src.startswith("/*", i):
            j = src.find("*/", i + 2)
            if j < 0:
                raise BuildError(f"{name}: cannot strip: unterminated comment")
            i = j + 2
            continue
        if c in "'\"":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            out.append(src[i:j + 1])
            i = j + 1
            continue
        out.append(c)
        i += 1
    lines = (ln.strip() for ln in "".join(out).splitlines())
    return "".join(ln + "\n" for ln in lines if ln)


def strip_static(out: Output) -> None:
    """The page's own scripts and style sheets in dist/static/, stripped (third-party files
    in static/js/vendor/ are left as they came)."""
    for rel in sorted(out.files):
        if not rel.startswith("static/") or rel.startswith("static/js/vendor/"):
            continue
        if rel.endswith(".js"):
            out.files[rel] = strip_js(out.data(rel).decode("utf-8"), rel).encode("utf-8")
        elif rel.endswith(".css"):
            out.files[rel] = strip_css(out.data(rel).decode("utf-8"), rel).encode("utf-8")
