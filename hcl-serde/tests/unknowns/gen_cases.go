// Command gen_cases fills in the expected results of hcl-serde/tests/unknowns/*.cases
// from the reference implementation (hcl 2.14.1, go-cty 1.12.1), which can
// evaluate with unknown variables although hcl-oracle cannot declare them.
//
// Build it beside the oracle's function table (the same functions as
// `hcl-oracle --funcs stdlib`) and run it on a cases file:
//
//	d=$(mktemp -d); cp hcl-serde/tests/unknowns/gen_cases.go ../shared/oracle/funcs.go "$d"
//	(cd "$d" && GO111MODULE=off GOPATH=/usr/share/gocode GOPROXY=off go build -o gen .)
//	"$d/gen" hcl-serde/tests/unknowns/eval.cases > /tmp/out && mv /tmp/out hcl-serde/tests/unknowns/eval.cases
//
// A `vars: JSON` line (a JSON object; a variable written {"$unknown": TYPE}
// is cty.UnknownVal of that type, TYPE in go-cty's JSON type encoding; other
// values have go-cty's implied types) sets the variables of the cases after
// it. A case is a block of lines: `## name`, `expr: EXPRESSION` (one line),
// and the generated `want: RESULT`: the value as compact JSON with object keys
// sorted and numbers in go-cty's text, an unknown value (at any depth) as
// {"$unknown": TYPE}; or `error: SUMMARY` when the reference fails.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

func main() {
	src, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	vars, expr := "{}", ""
	for _, line := range strings.Split(strings.TrimRight(string(src), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "want: "), strings.HasPrefix(line, "error: "):
			continue
		case strings.HasPrefix(line, "vars: "):
			vars = strings.TrimPrefix(line, "vars: ")
		case strings.HasPrefix(line, "expr: "):
			expr = strings.TrimPrefix(line, "expr: ")
			fmt.Fprintln(out, line)
			fmt.Fprintln(out, run(vars, expr))
			continue
		}
		fmt.Fprintln(out, line)
	}
}

func run(varsJSON, src string) string {
	vars, err := loadVars(varsJSON)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bad vars:", varsJSON, err)
		os.Exit(2)
	}
	expr, diags := hclsyntax.ParseExpression([]byte(src), "case.hcl", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		return "error: " + diags[0].Summary
	}
	ctx := &hcl.EvalContext{Variables: vars, Functions: stdlibFuncs()}
	v, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return "error: " + diags[0].Summary
	}
	var b bytes.Buffer
	render(&b, v)
	return "want: " + b.String()
}

func loadVars(src string) (map[string]cty.Value, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(src), &raw); err != nil {
		return nil, err
	}
	vars := map[string]cty.Value{}
	for k, r := range raw {
		v, err := decode(r)
		if err != nil {
			return nil, err
		}
		vars[k] = v
	}
	return vars, nil
}

// decode reads JSON with go-cty's implied types, {"$unknown": T} as unknown.
func decode(r json.RawMessage) (cty.Value, error) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(r, &obj) == nil {
		if t, ok := obj["$unknown"]; ok && len(obj) == 1 {
			ty, err := ctyjson.UnmarshalType(t)
			if err != nil {
				return cty.NilVal, err
			}
			return cty.UnknownVal(ty), nil
		}
		attrs := map[string]cty.Value{}
		for k, e := range obj {
			v, err := decode(e)
			if err != nil {
				return cty.NilVal, err
			}
			attrs[k] = v
		}
		return cty.ObjectVal(attrs), nil
	}
	var arr []json.RawMessage
	if json.Unmarshal(r, &arr) == nil && arr != nil {
		elems := make([]cty.Value, 0, len(arr))
		for _, e := range arr {
			v, err := decode(e)
			if err != nil {
				return cty.NilVal, err
			}
			elems = append(elems, v)
		}
		return cty.TupleVal(elems), nil
	}
	ty, err := ctyjson.ImpliedType(r)
	if err != nil {
		return cty.NilVal, err
	}
	return ctyjson.Unmarshal(r, ty)
}

func render(b *bytes.Buffer, v cty.Value) {
	switch {
	case !v.IsKnown():
		t, _ := ctyjson.MarshalType(v.Type())
		b.WriteString(`{"$unknown":`)
		b.Write(t)
		b.WriteString("}")
	case v.IsNull():
		b.WriteString("null")
	case v.Type() == cty.String:
		writeString(b, v.AsString())
	case v.Type() == cty.Number:
		b.WriteString(v.AsBigFloat().Text('f', -1))
	case v.Type() == cty.Bool:
		fmt.Fprint(b, v.True())
	case v.Type().IsObjectType() || v.Type().IsMapType():
		m := v.AsValueMap()
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			writeString(b, k)
			b.WriteString(":")
			render(b, m[k])
		}
		b.WriteString("}")
	default:
		b.WriteString("[")
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			_, e := it.Element()
			if i > 0 {
				b.WriteString(",")
			}
			render(b, e)
		}
		b.WriteString("]")
	}
}

func writeString(b *bytes.Buffer, s string) {
	var q bytes.Buffer
	enc := json.NewEncoder(&q)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Write(bytes.TrimRight(q.Bytes(), "\n"))
}
