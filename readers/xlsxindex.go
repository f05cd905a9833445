package readers

import (
	"archive/zip"
	"encoding/xml"
	"fmt"
	"path"
	"strings"
)

// The workbook's index, read whole at Open: the relationships that lead
// from the package to the workbook part and from it to the sheets, the
// sheet list with the date system, and the shared strings.

// readIndex reads what the sheets of a workbook share: the list of its
// sheets with their parts, its date system, its shared strings and its
// number formats. Each part read is charged to budget.
func readIndex(name string, parts map[string]*zip.File, budget *partBudget, lim Limits) (*workbook, error) {
	// The workbook part, from the package relationships.
	wbPath := "xl/workbook.xml"
	pkgRels, err := readRels(parts, "_rels/.rels", "", lim)
	if err != nil {
		return nil, damaged(name, err)
	}
	for _, r := range pkgRels {
		if strings.HasSuffix(r.typ, "/officeDocument") {
			wbPath = r.target
			break
		}
	}
	wbPart := parts[strings.ToLower(wbPath)]
	if wbPart == nil {
		return nil, damaged(name, fmt.Errorf("it has no workbook part %s", wbPath))
	}
	sheets, date1904, err := readWorkbook(wbPart, lim)
	if err != nil {
		return nil, damaged(name, err)
	}
	if err := budget.charge(wbPart); err != nil {
		return nil, err
	}
	if int64(len(sheets)) > lim.XLSXParts {
		return nil, fileError(name, limitError(limitXLSXParts, lim.XLSXParts, "the workbook lists %s sheets", groupDigits(int64(len(sheets)))))
	}
	dir := path.Dir(wbPath)
	rels, err := readRels(parts, path.Join(dir, "_rels", path.Base(wbPath)+".rels"), dir, lim)
	if err != nil {
		return nil, damaged(name, err)
	}
	byID := make(map[string]rel, len(rels))
	sstPath := path.Join(dir, "sharedStrings.xml")
	stylesPath := path.Join(dir, "styles.xml")
	for _, r := range rels {
		byID[r.id] = r
		switch {
		case strings.HasSuffix(r.typ, "/sharedStrings"):
			sstPath = r.target
		case strings.HasSuffix(r.typ, "/styles"):
			stylesPath = r.target
		}
	}
	wb := &workbook{name: name, lim: lim, date1904: date1904}
	if p := parts[strings.ToLower(sstPath)]; p != nil {
		if wb.sst, wb.sstLong, err = readSharedStrings(p, lim); err != nil {
			return nil, damaged(name, err)
		}
		if err := budget.charge(p); err != nil {
			return nil, err
		}
	}
	if p := parts[strings.ToLower(stylesPath)]; p != nil {
		if wb.styles, err = readStyles(p, lim); err != nil {
			return nil, damaged(name, err)
		}
		if err := budget.charge(p); err != nil {
			return nil, err
		}
	}
	wb.refs = make([]sheetRef, len(sheets))
	for i, s := range sheets {
		wb.refs[i].name = s.name
		if r, ok := byID[s.rid]; ok && !r.external {
			wb.refs[i].part = parts[strings.ToLower(r.target)]
		}
	}
	return wb, nil
}

// rel is one relationship of a part.
type rel struct {
	id, typ, target string // target resolved to a path in the archive
	external        bool
}

// readRels reads a relationships part, resolving targets relative to dir.
// A missing part has no relationships.
func readRels(parts map[string]*zip.File, name, dir string, lim Limits) ([]rel, error) {
	f := parts[strings.ToLower(name)]
	if f == nil {
		return nil, nil
	}
	var out []rel
	err := scanPart(f, lim, func(d *xml.Decoder, se xml.StartElement) error {
		if se.Name.Local != "Relationship" {
			return nil
		}
		var r rel
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "Id":
				r.id = a.Value
			case "Type":
				r.typ = a.Value
			case "Target":
				r.target = a.Value
			case "TargetMode":
				r.external = strings.EqualFold(a.Value, "External")
			}
		}
		if !r.external {
			t := strings.ReplaceAll(r.target, `\`, "/")
			if strings.HasPrefix(t, "/") {
				t = path.Clean(t)[1:]
			} else {
				t = path.Join(dir, t)
			}
			r.target = t
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, partError(name, err)
	}
	return out, nil
}

// wbSheet is a <sheet> of workbook.xml.
type wbSheet struct{ name, rid string }

// readWorkbook lists the workbook's sheets in order, and tells whether
// its dates count from 1904 (workbookPr date1904, set by old Mac Excel).
func readWorkbook(f *zip.File, lim Limits) ([]wbSheet, bool, error) {
	var out []wbSheet
	date1904 := false
	err := scanPart(f, lim, func(d *xml.Decoder, se xml.StartElement) error {
		switch se.Name.Local {
		case "workbookPr":
			switch strings.ToLower(strings.TrimSpace(attrOr(se, "date1904"))) {
			case "1", "true", "on":
				date1904 = true
			}
			return nil
		case "sheet":
		default:
			return nil
		}
		var s wbSheet
		for _, a := range se.Attr {
			switch {
			case a.Name.Local == "name":
				s.name = a.Value
			case a.Name.Local == "id" && a.Name.Space != "":
				s.rid = a.Value
			}
		}
		out = append(out, s)
		return nil
	})
	if err != nil {
		return nil, false, partError(f.Name, err)
	}
	return out, date1904, nil
}

// readSharedStrings reads the shared strings table. Strings longer than
// lim.CellBytes are not kept: long gives their lengths by index, for the
// error of the cells that use them.
func readSharedStrings(f *zip.File, lim Limits) (sst []string, long map[int]int64, err error) {
	err = scanPart(f, lim, func(d *xml.Decoder, se xml.StartElement) error {
		if se.Name.Local != "si" {
			return nil
		}
		s, n, err := richText(d, lim.CellBytes)
		if err != nil {
			return err
		}
		if n > lim.CellBytes {
			if long == nil {
				long = map[int]int64{}
			}
			long[len(sst)] = n
		}
		sst = append(sst, s)
		return nil
	})
	if err != nil {
		return nil, nil, partError(f.Name, err)
	}
	return sst, long, nil
}
