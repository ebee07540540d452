#!/usr/bin/env python3
# The module graph of hcl-serde: which top-level module names which
# (`crate::x`, `use crate::{x, ...}`; comments and unit tests left out),
# then the cycles (strongly connected groups). ARCHITECTURE.md's picture
# ("Modules of hcl-serde") is this output.
#
#   python3 .ci/modules.py [--check] [hcl-serde/src]
#
# --check (CI): exit 1 when there is a cycle, or when ARCHITECTURE.md does
# not hold the graph exactly as printed here (the fenced block of lines
# `a -> b, c` under "Modules of hcl-serde").
import re, os, sys, collections
args = sys.argv[1:]
check = '--check' in args
args = [a for a in args if a != '--check']
here = os.path.dirname(os.path.abspath(__file__))
root = args[0] if args else os.path.join(here, '..', 'hcl-serde', 'src')
edges = collections.defaultdict(set)
detail = collections.defaultdict(set)
for dp, _, fs in os.walk(root):
    for f in fs:
        if not f.endswith('.rs'): continue
        p = os.path.join(dp, f)
        rel = os.path.relpath(p, root)
        top = rel.split(os.sep)[0].removesuffix('.rs')
        if top == 'lib': continue
        text = open(p).read()
        # strip comments
        text = re.sub(r'//[^\n]*', '', text)
        # unit tests are not the module's dependencies
        if f == 'tests.rs': continue
        text = re.split(r'#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*mod tests', text)[0]
        targets = [m.group(1) for m in re.finditer(r'\bcrate::(\w+)', text)]
        for m in re.finditer(r'\bcrate::\{', text):
            depth, i = 1, m.end()
            start = i
            while depth and i < len(text):
                depth += {'{': 1, '}': -1}.get(text[i], 0); i += 1
            inner = text[start:i-1]
            # top-level items of the group: split on commas at depth 0
            d, cur, items = 0, '', []
            for ch in inner:
                if ch == '{': d += 1
                if ch == '}': d -= 1
                if ch == ',' and d == 0: items.append(cur); cur = ''
                else: cur += ch
            items.append(cur)
            targets += [re.match(r'\s*(\w+)', it).group(1) for it in items if re.match(r'\s*(\w+)', it)]
        for tgt in targets:
            # root re-exports: map to their module
            tgt = {'Value': 'value', 'Map': 'value', 'Number': 'number', 'NumberError': 'number',
                   'Error': 'error', 'Result': 'error', 'Category': 'error', 'Context': 'eval',
                   'Evaluate': 'eval', 'from_str': 'de', 'Deserializer': 'de', 'RawExpression': 'de',
                   'RawBody': 'de', 'Syntax': 'source', 'to_value': 'ser', 'to_string': 'ser', 'grammar': None,
                   'format': 'format', 'from_value': 'de', 'from_str_with': 'de', 'from_slice': 'de', 'Serializer': 'ser', 'self': None, '__value_internal': None}.get(tgt, tgt)
            if tgt and tgt != top:
                edges[top].add(tgt)
                detail[(top, tgt)].add(rel)
mods = sorted(set(edges) | {t for v in edges.values() for t in v})
graph = [f'{m:8} -> {", ".join(sorted(edges[m]))}'.rstrip() for m in mods]
print('\n'.join(graph))
# cycles: strongly connected components
index = {}; low = {}; st = []; on = set(); sccs = []; c = [0]
def strong(v):
    index[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
    for w in edges[v]:
        if w not in index: strong(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: sccs.append(comp)
for m in mods:
    if m not in index: strong(m)
print('cycles (strongly connected groups):', sccs or 'none')
for comp in sccs:
    for a in comp:
        for b in comp:
            if (a, b) in detail:
                print(f'  {a} -> {b}: {", ".join(sorted(detail[(a, b)]))}')
if check:
    failed = False
    if sccs:
        print('error: the module graph has a cycle (see above); only the language\'s own recursion, inside a module, may be one', file=sys.stderr)
        failed = True
    doc = open(os.path.join(here, '..', 'ARCHITECTURE.md')).read()
    if '```\n' + '\n'.join(graph) + '\n```' not in doc:
        print('error: ARCHITECTURE.md ("Modules of hcl-serde") does not hold this graph exactly: paste the lines above into its fenced block', file=sys.stderr)
        failed = True
    sys.exit(1 if failed else 0)
