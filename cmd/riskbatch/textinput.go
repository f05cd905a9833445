package main

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/evaluate/release"
	"github.com/riskbatch/riskbatch/layout"
	"github.com/riskbatch/riskbatch/priors"
	"github.com/riskbatch/riskbatch/readers"
	"github.com/urfave/cli/v2"
)

// textCategory groups the flags that say how text input is read.
const textCategory = "Reading CSV and TSV files, and numbers written as text"

// textFlags are eval's flags for reading CSV/TSV text and text numbers.
func textFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "encoding", Category: textCategory, Usage: "CSV/TSV: the files' character encoding: utf-8, utf-16le, utf-16be, windows-1252, iso-8859-1, iso-8859-15, mac-roman, or another IANA name (default: from the byte order mark, else UTF-8 if valid, else Windows-1252)"},
		&cli.StringFlag{Name: "delimiter", Category: textCategory, Usage: "CSV/TSV: the field delimiter, one character: ',', ';', tab, '|' … (default: a first line sep=X, else detected from the header)"},
		&cli.BoolFlag{Name: "decimal-comma", Category: textCategory, Usage: "numbers written as text use a decimal comma (2,5 is two and a half; 1.234,5 is 1234.5)"},
		&cli.BoolFlag{Name: "decimal-point", Category: textCategory, Usage: "numbers written as text use a decimal point (2,500 is two thousand five hundred)"},
	}
}

// textSettings are the values of textFlags.
type textSettings struct {
	encoding  string
	delimiter rune
	decimal   evaluate.DecimalMark
}

// textSettingsFrom reads textFlags. An error names the flag.
func textSettingsFrom(c *cli.Context) (textSettings, error) {
	s := textSettings{encoding: strings.TrimSpace(c.String("encoding"))}
	if c.IsSet("delimiter") {
		d, err := parseDelimiter(c.String("delimiter"))
		if err != nil {
			return s, cli.Exit("--delimiter: "+err.Error(), exitUsage)
		}
		s.delimiter = d
	}
	switch comma, point := c.Bool("decimal-comma"), c.Bool("decimal-point"); {
	case comma && point:
		return s, cli.Exit("--decimal-comma and --decimal-point contradict each other: pass one", exitUsage)
	case comma:
		s.decimal = evaluate.DecimalComma
	case point:
		s.decimal = evaluate.DecimalPoint
	}
	return s, nil
}

// parseDelimiter reads --delimiter: one ASCII character, or a name (tab,
// comma, semicolon, pipe, space), or \t.
func parseDelimiter(s string) (rune, error) {
	switch strings.ToLower(s) {
	case "tab", `\t`:
		return '\t', nil
	case "comma":
		return ',', nil
	case "semicolon":
		return ';', nil
	case "pipe":
		return '|', nil
	case "space":
		return ' ', nil
	}
	if r, n := utf8.DecodeRuneInString(s); n == len(s) && n == 1 && r != '"' && r != '\r' && r != '\n' {
		return r, nil
	}
	return 0, fmt.Errorf("%q is not a delimiter: give one ASCII character other than a quote, or tab, comma, semicolon, pipe or space", s)
}

// openInputs opens every input file, says on stderr how the CSV and TSV
// files were read when riskbatch assumed or detected something, and
// refuses at once a table whose header names no input column, with one
// line that says what it read and what the user may have meant.
func openInputs(cfg evalConfig, opts readers.Options, vocab *release.Vocabulary) ([]readers.Table, error) {
	var tables []readers.Table
	fail := func(err error) ([]readers.Table, error) {
		closeTables(tables)
		return nil, err
	}
	for _, in := range cfg.inputs {
		// The headers of the sheets a workbook's Accept turned down, for
		// the message when none qualifies.
		var refused [][]string
		o := opts
		o.Accept = func(header []string) bool {
			ok := opts.Accept == nil || opts.Accept(header)
			if !ok {
				refused = append(refused, slices.Clone(header))
			}
			return ok
		}
		ts, err := readers.Open(in, o)
		if err != nil {
			if s := suggestions(vocab, slices.Concat(refused...)); s != "" {
				err = fmt.Errorf("%w; %s", err, s)
			}
			return fail(err)
		}
		tables = append(tables, ts...)
		for _, t := range ts {
			names := headerNames(t)
			if !vocab.Recognizes(names) {
				return fail(noKnownColumn(t, names, vocab))
			}
		}
	}
	for _, t := range tables {
		if n := dialectNote(t, cfg.text.decimal); n != "" {
			fmt.Fprintf(cfg.stderr, "riskbatch: %s: %s\n", t.File(), n)
		}
	}
	return tables, nil
}

// headerNames returns a table's column names.
func headerNames(t readers.Table) []string {
	cols := t.Columns()
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return names
}

// dialectNote is what riskbatch says about how a CSV or TSV file was read,
// or "": an encoding it assumed, a delimiter it detected, and the decimal
// commas a semicolon-delimited file is read with.
func dialectNote(t readers.Table, decimal evaluate.DecimalMark) string {
	dt, ok := t.(readers.DialectTable)
	if !ok {
		return ""
	}
	note := dt.Dialect().Note()
	if dt.DecimalComma() && decimal == evaluate.DecimalUnknown {
		if note != "" {
			note += "; "
		}
		note += "its numbers are read with decimal commas, as it is semicolon-delimited (pass --decimal-point if they have decimal points)"
	}
	return note
}

// noKnownColumn is the one-line refusal of a table whose header names no
// input column: the header as read, the closest known names, for a CSV or
// TSV file the encoding and delimiter it was read with, and hints for the
// usual causes.
func noKnownColumn(t readers.Table, names []string, vocab *release.Vocabulary) error {
	var b strings.Builder
	b.WriteString(layout.SourceName(t))
	b.WriteString(": the header names no input column riskbatch knows")
	dt, isText := t.(readers.DialectTable)
	if isText {
		d := dt.Dialect()
		fmt.Fprintf(&b, " (read as %s, fields separated by %s)", d.Encoding, readers.DelimiterName(d.Delimiter))
	}
	b.WriteString(": ")
	b.WriteString(quoteNames(names, 6))
	if s := suggestions(vocab, names); s != "" {
		b.WriteString("; ")
		b.WriteString(s)
	}
	if isText {
		for _, h := range textHints(names, dt.Dialect()) {
			b.WriteString("; ")
			b.WriteString(h)
		}
	}
	b.WriteString("; `riskbatch columns` lists the input columns")
	return fmt.Errorf("%s", b.String())
}

// textHints are the likely causes of a CSV or TSV header that names no
// known column.
func textHints(names []string, d readers.Dialect) []string {
	joined := strings.Join(names, string(d.Delimiter))
	var hints []string
	if strings.ContainsRune(joined, 0) || strings.Contains(joined, "\uFFFD") {
		hints = append(hints, "the header holds zero bytes or undecodable ones: the file may be UTF-16 or another encoding (pass --encoding, e.g. utf-16le)")
	}
	for _, c := range []struct {
		r    rune
		name string
	}{{';', "';'"}, {'\t', "tab"}, {',', "','"}, {'|', "'|'"}} {
		if c.r != d.Delimiter && strings.ContainsRune(joined, c.r) {
			hints = append(hints, fmt.Sprintf("the header holds %s: if it separates the fields, pass --delimiter %s", readers.DelimiterName(c.r), strings.Trim(c.name, "'")))
			break
		}
	}
	if len(names) > 0 && strings.HasPrefix(strings.ToLower(strings.TrimSpace(names[0])), "sep=") {
		hints = append(hints, "its first line looks like Excel's sep= line: it must be the first line of the file, alone (sep=;)")
	}
	return hints
}

// suggestions names, for the headers that are close to a known input
// column, the known name ("dlta" → delta), or returns "".
func suggestions(vocab *release.Vocabulary, headers []string) string {
	// Every name a header may have, canonical, with the contract's name.
	var known []string
	contract := map[string]string{}
	for _, c := range vocab.Columns() {
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			k := release.CanonicalName(n)
			known = append(known, k)
			contract[k] = c.Name
		}
	}
	var parts []string
	seen := map[string]bool{}
	for _, h := range headers {
		// Zero bytes and other controls (UTF-16 read as UTF-8) are no
		// part of the name meant.
		k := release.CanonicalName(strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return -1
			}
			return r
		}, h))
		if utf8.RuneCountInString(k) < 3 || seen[k] {
			continue // a name of one or two letters is close to too many
		}
		seen[k] = true
		close := priors.Closest(k, known, 3)
		var names []string
		for _, c := range close {
			// id is no input of a release: a header near it is no clue.
			if n := contract[c]; n != "id" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		if len(names) > 0 {
			parts = append(parts, fmt.Sprintf("%q → %s", clipName(h), strings.Join(names, " or ")))
		}
		if len(parts) == 6 {
			break
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "closest known names: " + strings.Join(parts, ", ")
}

// quoteNames quotes up to n header names for a message.
func quoteNames(names []string, n int) string {
	if len(names) == 0 {
		return "no names"
	}
	var q []string
	for i, s := range names {
		if i == n {
			q = append(q, fmt.Sprintf("… (%d columns)", len(names)))
			break
		}
		q = append(q, fmt.Sprintf("%q", clipName(s)))
	}
	return strings.Join(q, ", ")
}

// clipName shortens a header name quoted in a message.
func clipName(s string) string {
	if r := []rune(s); len(r) > 30 {
		return string(r[:30]) + "…"
	}
	return s
}
