package serve

import "github.com/riskbatch/riskbatch/table"

type cellT = table.Cell

func rowColumns(names ...string) []table.Column {
	cols := make([]table.Column, len(names))
	for i, n := range names {
		cols[i] = table.Column{Name: n}
	}
	return cols
}

// cells makes cells of strings (text) and float64s (numbers).
func cells(vs ...any) []table.Cell {
	out := make([]table.Cell, len(vs))
	for i, v := range vs {
		switch v := v.(type) {
		case string:
			out[i] = table.TextCell(v)
		case float64:
			out[i] = table.NumberCell(v)
		}
	}
	return out
}
