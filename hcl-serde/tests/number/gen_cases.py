#!/usr/bin/env python3
"""Regenerates range.cases: number expressions over the reference's whole
range, with the text the reference gives for each.

usage: gen_cases.py  (needs ../shared/oracle/bin/hcl-oracle; HCL_ORACLE
overrides the path)

The expressions are written here (fixed: no randomness). Each is evaluated
by the reference as the template `"=${EXPR}"` (a lone interpolation would
keep its type), so the result is the
reference's own text for the number (Go's big.Float Text('f', -1)), never
re-rounded by a JSON reader. Each output line is `EXPR<TAB>TEXT`, or
`EXPR<TAB>!error SUMMARY` when the reference fails.
"""
import json, os, subprocess

here = os.path.dirname(os.path.abspath(__file__))
oracle = os.environ.get("HCL_ORACLE", os.path.join(here, "../../../../shared/oracle/bin/hcl-oracle"))

exprs = [
    # issue #10, group 3
    "1e400", "1e-400", "340282366920938463463374607431768211456 / 18446744073709551616",
    "1e30 % 3.3", "-1e30 % 3.3", "1/300000000000000000", "1/0", "-1/0", "0/0",
    "1/0 - 1/0", "1/0 * 0", "5 % (1/0)", "1/0 > 1e400", "-1/0 < -1e400", "(1/0) + 1",
    "jsonencode(340282366920938463463374607431768211456)", "jsonencode(1e400)",
    "jsonencode(1/3)", "jsonencode(1/0)", "tonumber(\"1e400\")", "tonumber(\"-1e-400\")",
    "tonumber(\"Inf\")", "tonumber(\"-inf\")", "tonumber(\"infinity\")", "tonumber(\"1.\")",
    "tonumber(\".5\")", "tonumber(\"+5\")", "tonumber(\"1e\")", "tonumber(\"0x10\")",
    "floor(1e400 + 0.5)", "ceil(-1e400 - 0.5)", "floor(1/3 * 1e200)", "abs(-1e400)",
    "max(1e400, 2)", "min(-1e400, 1/3)", "pow(2, 128)", "pow(10, 30) + 0", "pow(2, 0.5) * pow(2, 0.5)",
    "0.1 + 0.2", "1.1 * 3", "(1/3) * 3", "1/3 + 1/3", "10 % 3.3", "1e-30 % 3e-31",
    "12345678901234567890123456789012 % 97", "2e-400 * 1e-400", "1e400 * 1e400",
    "-0", "0 * -1", "-1e-400 * 1e-400", "1e308 * 10", "-1e308 * 10",
    "340282366920938463463374607431768211455 + 1", "18446744073709551616 * 18446744073709551616",
    "79228162514264337593543950335 + 1", "79228162514264337593543950335 * 10",
    "0.0000000000000000000000000001 / 3", "0.0000000000000000000000000001 * 0.1",
    "123456789012345678901234567890.5 - 0.5", "1e29 + 0.1", "1e-29 + 1",
    "-0 - 0", "-0 + 0", "-0 - -0", "-0 + -0", "tonumber(\"-0\")",
    "format(\"%f\", 1/0)", "format(\"%e\", -1/0)", "format(\"%10.2f\", 1/0)",
    "format(\"%.30f\", 1/3)", "format(\"%.40e\", 1/3)", "format(\"%e\", 1e-400)",
    "format(\"%s\", 1e400)", "format(\"%v\", 1/3)",
]
# Every exponent, every operator: a 30-digit mantissa scaled across the
# range, combined with a value near 1 and with itself.
m = "1.23456789012345678901234567890"
for e in range(-420, 421, 15):
    x = "%se%d" % (m, e)
    exprs += [x, "%s * 7" % x, "%s / 3" % x, "%s + 1" % x, "%s - 2.5e%d" % (x, e),
              "%s %% 0.7" % x, "1 / %s" % x, "%s * %s" % (x, x)]

out = []
for expr in exprs:
    p = subprocess.run([oracle, "expr", "-", "--funcs", "stdlib", "--compact"],
                       input='"=${%s}"\n' % expr, capture_output=True, text=True)
    d = json.loads(p.stdout)
    if d.get("error"):
        res = "!error " + d["diagnostics"][0]["summary"]
    else:
        res = d["value"][1:]
    out.append(expr + "\t" + res)
with open(os.path.join(here, "range.cases"), "w", encoding="utf-8") as f:
    f.write("\n".join(out) + "\n")
print("wrote range.cases", len(out), "cases")
