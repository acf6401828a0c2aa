#!/usr/bin/env python3
"""Usage: python3 scripts/doctest_coverage.py [src]

List every public module of the crate and count runnable doctests in it.
A public module counts its own file plus files of its private (non-pub) submodules.
A doctest is a ``` fence inside /// or //! comments whose info string is empty or
'rust' (possibly with should_panic/compile_fail excluded; ignore/text/no_run excluded)."""
import os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else 'src'
def modfile(d, name):
    for p in (os.path.join(d, name + '.rs'), os.path.join(d, name, 'mod.rs')):
        if os.path.exists(p): return p
    return None
def subdir(path):
    # directory where children of module in `path` live
    if path.endswith('mod.rs') or path.endswith('lib.rs'): return os.path.dirname(path)
    return path[:-3]
def children(path):
    out = []
    for line in open(path):
        m = re.match(r'\s*(pub\s+)?mod\s+(\w+)\s*;', line)
        if m: out.append((bool(m.group(1)), m.group(2)))
    return out
def doctests(path):
    n = 0; inblock = False
    for line in open(path):
        s = line.strip()
        m = re.match(r'(///|//!)\s?(.*)', s)
        if not m: continue
        body = m.group(2).strip()
        if body.startswith('```'):
            if not inblock:
                info = body[3:].strip()
                tags = [t.strip() for t in info.split(',') if t.strip()]
                runnable = all(t in ('rust',) or t.startswith('edition') for t in tags)
                if runnable: n += 1
                inblock = True
            else:
                inblock = False
    return n
def walk(path, modpath, public, acc):
    files = [path]
    for pub, name in children(path):
        f = modfile(subdir(path), name)
        if f is None: continue
        if pub and public:
            walk(f, modpath + '::' + name, True, acc)
        else:
            files += walk_private(f)
    if modpath != 'crate':
        acc.append((modpath, sum(doctests(f) for f in files)))
    return acc
def walk_private(path):
    files = [path]
    for _, name in children(path):
        f = modfile(subdir(path), name)
        if f: files += walk_private(f)
    return files
acc = walk(os.path.join(root, 'lib.rs'), 'crate', True, [])
missing = 0
for m, n in sorted(acc):
    print(f'{m:40s} {n}')
    missing += n == 0
print(f'# {len(acc)} public modules, {missing} without a runnable doctest')
