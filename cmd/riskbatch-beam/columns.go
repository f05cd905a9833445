package main

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/riskbatch/riskbatch/table"
)

// column is a table.Column as the pipeline's DoFns and coders carry it:
// Beam's schemas cannot hold an interface, so a Source that is an Arrow
// type (a column of Parquet input, which the Parquet writer writes back
// with its type) travels as an Arrow IPC stream of a schema of one field.
type column struct {
	Name   string
	Kind   table.Kind
	Role   table.Role
	Format table.Format
	Note   string
	Arrow  []byte // the Source's Arrow type, or nil
}

// toColumns converts a header for Beam.
func toColumns(cols []table.Column) ([]column, error) {
	out := make([]column, len(cols))
	for i, c := range cols {
		out[i] = column{Name: c.Name, Kind: c.Kind, Role: c.Role, Format: c.Format, Note: c.Note}
		dt, ok := c.Source.(arrow.DataType)
		if !ok {
			continue
		}
		var buf bytes.Buffer
		w := ipc.NewWriter(&buf, ipc.WithSchema(arrow.NewSchema([]arrow.Field{{Name: c.Name, Type: dt, Nullable: true}}, nil)))
		if err := w.Close(); err != nil {
			return nil, fmt.Errorf("column %s: encoding its type %s: %w", c.Name, dt, err)
		}
		out[i].Arrow = buf.Bytes()
	}
	return out, nil
}

// tableColumns converts a header back. The Arrow types were encoded by
// toColumns; one that cannot be decoded leaves its column without a Source
// (the writers then type it by its kind).
func tableColumns(cs []column) []table.Column {
	out := make([]table.Column, len(cs))
	for i, c := range cs {
		out[i] = table.Column{Name: c.Name, Kind: c.Kind, Role: c.Role, Format: c.Format, Note: c.Note}
		if c.Arrow == nil {
			continue
		}
		r, err := ipc.NewReader(bytes.NewReader(c.Arrow))
		if err != nil {
			continue
		}
		if s := r.Schema(); s.NumFields() == 1 {
			out[i].Source = s.Field(0).Type
		}
		r.Release()
	}
	return out
}
