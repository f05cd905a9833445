package priorfiles_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riskbatch/riskbatch/priors/build"
	"github.com/riskbatch/riskbatch/priors/priorfiles"
	"github.com/riskbatch/riskbatch/readers"
)

// TestLoadMemoryIsLoad loads the same files from disk and from memory: the
// keys, files, priors, distributions and the messages of a missing key
// must agree, since a distributed run's row messages must be eval's.
func TestLoadMemoryIsLoad(t *testing.T) {
	dir := t.TempDir()
	res, err := priorfiles.BuildFile(penguinsPath, readers.Options{}, build.Options{Columns: []string{"Sex"}, Given: []string{"Island"}})
	if err != nil {
		t.Fatal(err)
	}
	built := filepath.Join(dir, "p.csv")
	if err := priorfiles.WriteResult(built, res, ""); err != nil {
		t.Fatal(err)
	}
	freq := filepath.Join(dir, "p-frequencies.csv")
	other := writeFile(t, dir, "b.tsv", "p\tprior\n1\tother\n0\tother\n")
	paths := []string{built, other}
	contents := map[string][]byte{}
	for _, p := range []string{built, freq, other} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("%s: %v (WriteResult writes the frequency table beside the prior table)", p, err)
		}
		contents[p] = data
	}
	disk := mustLoad(t, paths)
	mem, err := priorfiles.LoadMemory(paths, contents)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(disk.Keys(), mem.Keys()) || !slices.Equal(disk.Files(), mem.Files()) {
		t.Fatalf("keys %q files %q from memory, %q %q from disk", mem.Keys(), mem.Files(), disk.Keys(), disk.Files())
	}
	for _, key := range disk.Keys() {
		d, _ := disk.Lookup(key)
		m, err := mem.Lookup(key)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if !slices.Equal(d.Ps(), m.Ps()) || d.Source() != m.Source() {
			t.Errorf("%s: p %v from %s in memory, %v from %s on disk", key, m.Ps(), m.Source(), d.Ps(), d.Source())
		}
		if (d.Distributions() == nil) != (m.Distributions() == nil) {
			t.Errorf("%s: distributions %v in memory, %v on disk", key, m.Distributions() != nil, d.Distributions() != nil)
		} else if d.Distributions() != nil && (d.Distributions().Domain != m.Distributions().Domain || d.Distributions().Cells != m.Distributions().Cells) {
			t.Errorf("%s: distributions differ", key)
		}
	}
	if p, _ := disk.Lookup("penguins:Sex|Island"); p.Distributions() == nil {
		t.Errorf("the frequency table beside %s was not loaded from disk", built)
	}
	_, derr := disk.Lookup("penguins:Sexx")
	_, merr := mem.Lookup("penguins:Sexx")
	if derr == nil || merr == nil || derr.Error() != merr.Error() {
		t.Errorf("missing key: %v from memory, %v from disk", merr, derr)
	}

	// Without the frequency table's content, the prior table loads alone.
	delete(contents, freq)
	mem, err = priorfiles.LoadMemory(paths, contents)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := mem.Lookup("penguins:Sex|Island"); err != nil || p.Distributions() != nil {
		t.Errorf("no frequency table given, yet distributions (%v)", err)
	}
	// A path whose content is absent is an error naming it.
	_, err = priorfiles.LoadMemory([]string{filepath.Join(dir, "absent.csv")}, contents)
	if err == nil || !strings.Contains(err.Error(), "absent.csv") {
		t.Errorf("absent content: %v", err)
	}
}
