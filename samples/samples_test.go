package samples_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/riskbatch/riskbatch/samples"
)

// The embedded workbook is the committed one. (That the committed files,
// releases.xlsx among them, hold exactly the rows of samples.Releases is
// tested by package readers, which reads them: TestSampleFilesMatchReleases.)
// Run `go run ./samples/gen` after changing the rows.
func TestEmbeddedWorkbook(t *testing.T) {
	disk, err := os.ReadFile("releases.xlsx")
	if err != nil || !bytes.Equal(disk, samples.Workbook()) {
		t.Errorf("embedded workbook differs from releases.xlsx")
	}
}
