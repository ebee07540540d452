#!/usr/bin/env python3
"""Regenerates CASES.expected from CASES.hclexprs with the reference CLI.

usage: gen_expected.py CASES.hclexprs  (needs ../shared/oracle/bin/hcl-oracle)

Each output line is `EXPR<TAB>RESULT`, RESULT being the reference's value as
compact JSON, or `!error LINE:COLUMN SUMMARY` for an error document (the
position of the first diagnostic).
"""
import json, subprocess, sys, os

oracle = os.environ.get("HCL_ORACLE", os.path.join(os.path.dirname(__file__),
    "../../../../../shared/oracle/bin/hcl-oracle"))
src = sys.argv[1]
out = []
for line in open(src, encoding="utf-8"):
    expr = line.rstrip("\n")
    if not expr or expr.startswith("#"):
        continue
    p = subprocess.run([oracle, "expr", "-", "--funcs", "stdlib", "--compact"],
                       input=expr + "\n", capture_output=True, text=True)
    d = json.loads(p.stdout)
    if d.get("error"):
        g = d["diagnostics"][0]
        res = "!error %s:%s %s" % (g["line"], g["column"], g["summary"])
    else:
        res = json.dumps(d["value"], ensure_ascii=False, separators=(", ", ": "))
    out.append(expr + "\t" + res)
dst = src.rsplit(".", 1)[0] + ".expected"
with open(dst, "w", encoding="utf-8") as f:
    f.write("\n".join(out) + "\n")
print("wrote", dst, len(out), "cases")
