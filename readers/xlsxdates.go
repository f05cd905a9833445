package readers

import (
	"archive/zip"
	"encoding/xml"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/riskbatch/riskbatch/table"
)

// A spreadsheet stores a date or time as a number, the days since an epoch
// (its serial number), and says that it is one only through the cell's
// number format. The reader reads the workbook's styles to know which
// cells have a date or time format, and turns their numbers into Date,
// Timestamp or TimeOfDay cells.

// timeClass is what a number format shows of a number.
type timeClass uint8

const (
	plainNumber   timeClass = iota // a number (General, 0.00, 0%, [h]:mm elapsed time...)
	dateOnly                       // a calendar date (yyyy-mm-dd)
	timeOnly                       // a time of day (hh:mm:ss)
	dateAndTime                    // both (yyyy-mm-dd hh:mm)
	elapsedFormat                  // [h]:mm:ss: a duration, read as a number
)

// builtinTimeClass classes the built-in number formats (ECMA-376 Part 1,
// 18.8.30): 14–22 and 45–47 in every locale, 27–36 and 50–58 the East
// Asian date and time formats.
func builtinTimeClass(id int) timeClass {
	switch id {
	case 14, 15, 16, 17, 27, 28, 29, 30, 31, 36, 50, 51, 54, 57, 58:
		return dateOnly
	case 18, 19, 20, 21, 32, 33, 34, 35, 45, 47, 52, 53, 55, 56:
		return timeOnly
	case 22:
		return dateAndTime
	case 46:
		return elapsedFormat
	}
	return plainNumber
}

// formatTimeClass classes a custom number format code by the date and time
// tokens of its first section, outside quoted text, escaped characters and
// brackets: y, d, e, g and b are parts of a date; h and s parts of a time;
// m is a month or a minute (its neighbours decide, and either way the class
// does not change, except in a format of months alone, which is a date).
// [h], [m] and [s] are elapsed time, a duration rather than a time of day.
func formatTimeClass(code string) timeClass {
	if strings.EqualFold(strings.TrimSpace(code), "general") {
		return plainNumber
	}
	var date, clock, month, elapsed bool
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch c {
		case ';':
			i = len(code) // the first section decides
			continue
		case '"':
			for i++; i < len(code) && code[i] != '"'; i++ {
			}
			continue
		case '\\', '_', '*':
			i++ // the next character is shown (or used as padding) as is
			continue
		case '[':
			end := strings.IndexByte(code[i:], ']')
			if end < 0 {
				i = len(code)
				continue
			}
			inner := strings.ToLower(code[i+1 : i+end])
			if inner != "" && strings.Trim(inner, "hms") == "" {
				elapsed = true
			}
			i += end
			continue
		}
		switch c | 0x20 { // lower case
		case 'y', 'd', 'g', 'b':
			date = true
		case 'e':
			// Era year, unless it is a scientific exponent (0.0E+00).
			if i+1 < len(code) && (code[i+1] == '+' || code[i+1] == '-') {
				continue
			}
			date = true
		case 'h', 's':
			clock = true
		case 'm':
			month = true
		case 'a':
			// AM/PM and A/P mark a time but add no letter that matters.
			for _, ap := range []string{"am/pm", "a/p"} {
				if strings.HasPrefix(strings.ToLower(code[i:]), ap) {
					clock = true
					i += len(ap) - 1
					break
				}
			}
		}
	}
	switch {
	case elapsed:
		return elapsedFormat
	case date && clock:
		return dateAndTime
	case date || month && !clock:
		return dateOnly
	case clock:
		return timeOnly
	}
	return plainNumber
}

// styles is what the reader needs of a workbook's styles part: the time
// class of each cell format (the s attribute of a cell indexes it).
type styles struct {
	class []timeClass
}

// classOf returns the time class of the cell format s ("" or out of
// range: a plain number).
func (st *styles) classOf(s string) timeClass {
	if st == nil || s == "" {
		return plainNumber
	}
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 || i >= len(st.class) {
		return plainNumber
	}
	return st.class[i]
}

// readStyles reads the number formats and cell formats of a styles part.
func readStyles(f *zip.File, lim Limits) (*styles, error) {
	custom := map[int]string{}
	var xfs []int // numFmtId of each cellXfs entry
	err := scanPart(f, lim, func(d *xml.Decoder, se xml.StartElement) error {
		switch se.Name.Local {
		case "numFmt":
			id, err := strconv.Atoi(attrOr(se, "numFmtId"))
			if err == nil {
				custom[id] = attrOr(se, "formatCode")
			}
		case "cellXfs":
			// Its <xf> children, up to its end (cellStyleXfs has <xf>
			// elements too, which cells do not index).
			depth := 0
			for {
				tok, err := d.RawToken()
				if err != nil {
					return unexpected(err)
				}
				switch t := tok.(type) {
				case xml.StartElement:
					if depth == 0 && t.Name.Local == "xf" {
						id, _ := strconv.Atoi(attrOr(t, "numFmtId"))
						xfs = append(xfs, id)
					}
					depth++
				case xml.EndElement:
					if depth == 0 {
						return nil
					}
					depth--
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, partError(f.Name, err)
	}
	st := &styles{class: make([]timeClass, len(xfs))}
	for i, id := range xfs {
		if code, ok := custom[id]; ok {
			st.class[i] = formatTimeClass(code)
		} else {
			st.class[i] = builtinTimeClass(id)
		}
	}
	return st, nil
}

// attrOr returns an attribute's value, or "".
func attrOr(se xml.StartElement, local string) string {
	v, _ := attr(se, local)
	return v
}

// Epochs of the two date systems, in days since 1970-01-01: serial 0 of
// the 1900 system is 1899-12-31 for serials below 60 and 1899-12-30 from
// 61 on (serial 60 is 1900-02-29, a day that did not exist, kept by Excel
// for compatibility with Lotus 1-2-3); serial 0 of the 1904 system is
// 1904-01-01.
const (
	epoch1900     = -25569 // 1899-12-30
	epoch1900Low  = -25568 // 1899-12-31, for serials below 60
	epoch1904     = -24107 // 1904-01-01
	msPerDay      = 86_400_000
	maxDateSerial = 2_958_465 // 9999-12-31 in the 1900 system
)

// serialCell turns the serial number x of a cell whose format is of class
// c into a Date, Timestamp or TimeOfDay cell. The time is rounded to the
// millisecond (a serial number resolves about a microsecond, and its last
// digits are rounding noise); the unit is seconds when the time has no
// milliseconds. A date format on a serial with a time of day keeps the
// time (a Timestamp), and a time format on a serial of a day or more keeps
// the date, so that no part of the value is lost; a time of day is a
// serial below 1 under a time format, or under a date-and-time format in
// the 1900 system (whose day 0 is no date). ok is false when x is no date
// the spreadsheet could show (negative, beyond 9999-12-31, 1900-02-29, or
// day 0 under a date format): the caller keeps the number.
func serialCell(x float64, c timeClass, date1904 bool) (table.Cell, bool) {
	if c == plainNumber || c == elapsedFormat || math.IsNaN(x) || x < 0 || x >= maxDateSerial+1 {
		return table.Cell{}, false
	}
	ms := int64(math.Round(x * msPerDay))
	days, clock := ms/msPerDay, ms%msPerDay
	timeOfDay := days == 0 && (c == timeOnly || c == dateAndTime && !date1904)
	if timeOfDay {
		return clockCell(table.TimeOfDay, clock), true
	}
	var unixDays int64
	switch {
	case date1904:
		unixDays = epoch1904 + days
	case days == 0 || days == 60:
		return table.Cell{}, false
	case days < 60:
		unixDays = epoch1900Low + days
	default:
		unixDays = epoch1900 + days
	}
	if c == dateOnly && clock == 0 {
		return table.DateCell(unixDays), true
	}
	return clockCell(table.Timestamp, unixDays*msPerDay+clock), true
}

// clockCell is a Timestamp or TimeOfDay cell of ms milliseconds, in
// seconds when that is exact.
func clockCell(kind table.Kind, ms int64) table.Cell {
	if ms%1000 == 0 {
		return table.Cell{Kind: kind, Int: ms / 1000, Unit: table.Second}
	}
	return table.Cell{Kind: kind, Int: ms, Unit: table.Millisecond}
}

// isoCell reads the ISO 8601 text of a date cell (t="d"): a date
// (2024-01-02), a date and time (2024-01-02T10:30:00, with a fraction of a
// second and a Z for UTC if any) or a time (10:30:00). Other text stays
// Text.
func isoCell(v string) table.Cell {
	s := strings.TrimSpace(v)
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return table.DateCell(t.Unix() / 86400)
	}
	utc := strings.HasSuffix(s, "Z")
	body := strings.TrimSuffix(s, "Z")
	for _, layout := range []string{"2006-01-02T15:04:05", "15:04:05", "T15:04:05"} {
		head, frac, _ := strings.Cut(body, ".")
		t, err := time.Parse(layout, head)
		if err != nil || len(frac) > 9 || strings.Trim(frac, "0123456789") != "" {
			continue
		}
		unit, per := table.Second, int64(1)
		switch {
		case len(frac) > 6:
			unit, per = table.Nanosecond, 1e9
		case len(frac) > 3:
			unit, per = table.Microsecond, 1e6
		case len(frac) > 0:
			unit, per = table.Millisecond, 1e3
		}
		digits := frac + strings.Repeat("0", int(math.Log10(float64(per)))-len(frac))
		sub, _ := strconv.ParseInt("0"+digits, 10, 64)
		if layout != "2006-01-02T15:04:05" {
			if utc {
				continue
			}
			sec := int64(t.Hour()*3600 + t.Minute()*60 + t.Second())
			return table.TimeOfDayCell(sec*per+sub, unit)
		}
		if sec := t.Unix(); sec > math.MaxInt64/per-1 || sec < math.MinInt64/per+1 {
			continue // beyond the unit's range: kept as text
		}
		if utc {
			unit = unit.InUTC()
		}
		return table.TimestampCell(t.Unix()*per+sub, unit)
	}
	return textCell(v)
}
