package readers

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
)

// Guards on the parts of the archive: the total a workbook's parts unpack
// to, each part's declared size and compression ratio, and the check that
// a part unpacks to no more than it declares.

// partBudget bounds what the parts read from one workbook unpack to
// together (Limits.XLSXTotalBytes), as their archive entries declare.
type partBudget struct {
	file  string // the workbook's name, for the error
	limit int64
	total int64
}

// charge counts the part f (nil: none) and fails once the parts counted
// exceed the limit.
func (b *partBudget) charge(f *zip.File) error {
	if f == nil {
		return nil
	}
	b.total = addClamped(b.total, clampInt64(f.UncompressedSize64))
	if b.total > b.limit {
		return fileError(b.file, limitError(limitXLSXTotalBytes, b.limit, "the parts read up to %s unpack to %s in all", f.Name, byteSize(b.total)))
	}
	return nil
}

// partError is an error reading the named part: a *LimitError already
// names it.
func partError(name string, err error) error {
	var le *LimitError
	if errors.As(err, &le) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// checkPart refuses a part that declares more than limit unpacked bytes
// (the limit called name), or a compression ratio above lim.XLSXRatio.
// What it declares binds: archive/zip fails when a part unpacks to more.
func checkPart(f *zip.File, limit int64, name string, lim Limits) error {
	size := clampInt64(f.UncompressedSize64)
	if size > limit {
		return limitError(name, limit, "the part %s unpacks to %s", f.Name, byteSize(size))
	}
	if size > ratioGrace {
		packed := clampInt64(f.CompressedSize64)
		if packed == 0 || size/packed > lim.XLSXRatio || (size/packed == lim.XLSXRatio && size%packed != 0) {
			ratio := "without end"
			if packed > 0 {
				ratio = groupDigits(size/packed) + " times its size"
			}
			return limitError(limitXLSXRatio, lim.XLSXRatio, "the part %s unpacks from %s to %s (%s), as a zip bomb does", f.Name, byteSize(packed), byteSize(size), ratio)
		}
	}
	return nil
}

// openPart opens a part that checkPart accepted. The reader fails with a
// clear error if the part unpacks to more than the archive declares.
func openPart(f *zip.File) (io.ReadCloser, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	return &declaredReader{rc: rc, f: f}, nil
}

// declaredReader explains archive/zip's refusal of a part that unpacks to
// more bytes than it declares.
type declaredReader struct {
	rc   io.ReadCloser
	f    *zip.File
	read uint64
}

func (r *declaredReader) Read(p []byte) (int, error) {
	n, err := r.rc.Read(p)
	r.read += uint64(n)
	if errors.Is(err, zip.ErrFormat) && r.read >= r.f.UncompressedSize64 {
		err = fmt.Errorf("the part %s unpacks to more than the %s its archive entry declares: the workbook is damaged or forged", r.f.Name, byteSize(clampInt64(r.f.UncompressedSize64)))
	}
	return n, err
}

func (r *declaredReader) Close() error { return r.rc.Close() }

// scanPart decodes a part held in memory (at most lim.XLSXPartBytes) and
// calls fn for each start element not consumed by an earlier call.
func scanPart(f *zip.File, lim Limits, fn func(*xml.Decoder, xml.StartElement) error) error {
	if err := checkPart(f, lim.XLSXPartBytes, limitXLSXPartBytes, lim); err != nil {
		return err
	}
	rc, err := openPart(f)
	if err != nil {
		return err
	}
	defer rc.Close()
	d := xml.NewDecoder(rc)
	for {
		// RawToken, not Token: the element readers consume nested
		// elements with RawToken, which Token's nesting check would not
		// see. Names are matched by local name, so prefixes do not matter.
		tok, err := d.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if se, ok := tok.(xml.StartElement); ok {
			if err := fn(d, se); err != nil {
				return err
			}
		}
	}
}
