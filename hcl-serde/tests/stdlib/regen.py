#!/usr/bin/env python3
"""Writes the expected results of every case in *.cases from the reference.

Usage: python3 regen.py [ORACLE]   (default ../../../../shared/oracle/bin/hcl-oracle)

A .cases file holds expressions, one a line (comments start with `#`); each
is followed by the reference's result: `=> VALUE` (the value as an HCL
expression) or `=> error LINE:COLUMN DETAIL`. Lines starting with `=>` are
rewritten; everything else is kept.
"""
import json, os, subprocess, sys
from decimal import Decimal

here = os.path.dirname(os.path.abspath(__file__))
oracle = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '../../../../shared/oracle/bin/hcl-oracle')

def hcl_string(s):
    out = ['"']
    i = 0
    for c in s:
        if c == '"': out.append('\\"')
        elif c == '\\': out.append('\\\\')
        elif c == '\n': out.append('\\n')
        elif c == '\r': out.append('\\r')
        elif c == '\t': out.append('\\t')
        elif ord(c) < 0x20 or ord(c) in (0x7f, 0x85, 0x2028, 0x2029): out.append('\\u%04x' % ord(c))
        else: out.append(c)
    s = ''.join(out) + '"'
    return s.replace('${', '$${').replace('%{', '%%{')

def hcl(v):
    if v is None: return 'null'
    if v is True: return 'true'
    if v is False: return 'false'
    if isinstance(v, str): return hcl_string(v)
    if isinstance(v, list): return '[' + ', '.join(hcl(x) for x in v) + ']'
    if isinstance(v, dict): return '{' + ', '.join(hcl_string(k) + ' = ' + hcl(x) for k, x in v.items()) + '}'
    return str(v)

for name in sorted(os.listdir(here)):
    if not name.endswith('.cases'): continue
    path = os.path.join(here, name)
    out = []
    for line in open(path, encoding='utf-8').read().split('\n'):
        if line.startswith('=>'): continue
        out.append(line)
        if not line.strip() or line.startswith('#'): continue
        r = subprocess.run([oracle, 'expr', '-', '--funcs', 'stdlib', '--compact'],
                           input=line.encode(), capture_output=True)
        doc = json.loads(r.stdout.decode(), parse_float=Decimal, parse_int=int)
        if doc.get('error'):
            d = doc['diagnostics'][0]
            detail = d['detail'].replace('\n', ' ')[:200]
            out.append(f"=> error {d['line']}:{d['column']} {detail}")
        else:
            out.append('=> ' + hcl(doc['value']))
    while out and out[-1] == '':
        out.pop()
    open(path, 'w', encoding='utf-8').write('\n'.join(out) + '\n')
    print(name, 'updated')
