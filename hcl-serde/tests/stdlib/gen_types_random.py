#!/usr/bin/env python3
"""Random expressions that exercise HCL's type rules (unification in
conditionals and functions, conversions to collections, typed equality,
`for` conditions with unknown values), with the reference's results.

Usage: gen_types_random.py SEED COUNT OUT.cases [ORACLE]
(ORACLE defaults to ../../../../shared/oracle/bin/hcl-oracle). Runs the
oracle once in batch mode and writes OUT.cases in the format of
stdlib_cases.rs (see regen.py)."""
import json, os, random, subprocess, sys, tempfile
from decimal import Decimal

here = os.path.dirname(os.path.abspath(__file__))
seed, count, out_path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
oracle = sys.argv[4] if len(sys.argv) > 4 else os.path.join(here, '../../../../shared/oracle/bin/hcl-oracle')
R = random.Random(seed)

PRIMS = ['1', '0', '2.5', '"a"', '"1"', '"true"', '""', 'true', 'false', 'null']

def prim():
    return R.choice(PRIMS)

def tup(depth):
    return '[' + ', '.join(value(depth + 1) for _ in range(R.randint(0, 3))) + ']'

def obj(depth):
    keys = R.sample(['a', 'b', 'c'], R.randint(0, 3))
    return '{' + ', '.join('%s = %s' % (key, value(depth + 1)) for key in keys) + '}'

def value(depth=0):
    k = R.random()
    if depth >= 2 or k < 0.35:
        return prim()
    if k < 0.55:
        return tup(depth)
    if k < 0.72:
        return obj(depth)
    if k < 0.82:
        return 'tolist(%s)' % tup(depth)
    if k < 0.9:
        return 'toset(%s)' % tup(depth)
    if k < 0.96:
        return 'tomap(%s)' % obj(depth)
    return '(%s ? %s : %s)' % (R.choice(['true', 'false']), value(depth + 1), value(depth + 1))

def seq():
    items = '[' + ', '.join(value(2) for _ in range(R.randint(0, 3))) + ']'
    return R.choice(['%s', 'tolist(%s)', 'toset(%s)'] ) % items

COND = ['x', '!x', 'x == 1', 'x > 1', 'x + 1', '"a"', '"true"', '1', 'null', '[x]', '{a = x}',
        'x.a', 'x[0]', 'length(x) > 0', 'upper(x)', 'tonumber(x)', 'coalesce(x, 1)',
        'coalesce(x, true)', 'x ? 1 : 2', 'x ? true : "false"', 'can(x.a)', 'true ? 1 : x',
        '"${x}"', 'nosuch', 'contains(x, 1)', 'x && 1', 'x || false', 'jsonencode(x) == "1"']

def expr():
    k = R.randrange(14)
    if k == 0:
        return '%s ? %s : %s' % (R.choice(['true', 'false']), value(), value())
    if k == 1:
        return 'tolist(%s)' % tup(0)
    if k == 2:
        return 'toset(%s)' % tup(0)
    if k == 3:
        return 'tomap(%s)' % obj(0)
    if k == 4:
        return 'contains(%s, %s)' % (seq(), value(1))
    if k == 5:
        return 'coalesce(%s)' % ', '.join(value(1) for _ in range(R.randint(1, 3)))
    if k == 6:
        return 'coalescelist(%s)' % ', '.join(seq() for _ in range(R.randint(1, 3)))
    if k == 7:
        return '%s(%s, %s)' % (R.choice(['setunion', 'setintersection', 'setsubtract']), seq(), seq())
    if k == 8:
        return 'concat(%s, %s)' % (seq(), seq())
    if k == 9:
        return 'merge(%s, %s)' % (value(1), value(1))
    if k == 10:
        return '%s %s %s' % (value(1), R.choice(['==', '!=']), value(1))
    if k == 11:
        coll = R.choice(['[]', '{}', '[1, 2]', '["a", "true"]', '[true, false]'])
        return '[for x in %s : x if %s]' % (coll, R.choice(COND))
    if k == 12:
        return '[%s, %s][%d]' % (value(), value(), R.randint(0, 1))
    return 'flatten([%s, %s])' % (seq(), seq())

def hcl_string(s):
    out = ['"']
    for c in s:
        if c == '"': out.append('\\"')
        elif c == '\\': out.append('\\\\')
        elif c == '\n': out.append('\\n')
        elif c == '\t': out.append('\\t')
        elif ord(c) < 0x20: out.append('\\u%04x' % ord(c))
        else: out.append(c)
    return (''.join(out) + '"').replace('${', '$${').replace('%{', '%%{')

def hcl(v):
    if v is None: return 'null'
    if v is True: return 'true'
    if v is False: return 'false'
    if isinstance(v, str): return hcl_string(v)
    if isinstance(v, list): return '[' + ', '.join(hcl(x) for x in v) + ']'
    if isinstance(v, dict): return '{' + ', '.join(hcl_string(k) + ' = ' + hcl(x) for k, x in v.items()) + '}'
    return str(v)

exprs = []
seen = set()
while len(exprs) < count:
    e = expr()
    if e not in seen:
        seen.add(e)
        exprs.append(e)
with tempfile.TemporaryDirectory() as d:
    for i, e in enumerate(exprs):
        with open(os.path.join(d, '%06d.hclexpr' % i), 'w') as f:
            f.write(e)
    subprocess.run([oracle, 'batch', d, '--funcs', 'stdlib', '--compact'], check=True, capture_output=True)
    lines = ['# Random type-rule expressions (gen_types_random.py %d %d); expected results from the reference.' % (seed, count), '']
    for i, e in enumerate(exprs):
        with open(os.path.join(d, '%06d.hclexpr.expected.json' % i)) as f:
            doc = json.loads(f.read(), parse_float=Decimal)
        lines.append(e)
        if doc.get('error'):
            diag = doc['diagnostics'][0]
            lines.append('=> error %d:%d %s' % (diag['line'], diag['column'], diag['detail'].replace('\n', ' ')[:200]))
        else:
            lines.append('=> ' + hcl(doc['value']))
with open(out_path, 'w') as f:
    f.write('\n'.join(lines) + '\n')
