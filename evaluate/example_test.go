package evaluate_test

import (
	"fmt"
	"log"

	"github.com/riskbatch/riskbatch/evaluate"
	"github.com/riskbatch/riskbatch/table"
)

// One release evaluated without files: a Gaussian mechanism of σ = 10 on a
// count (μ = 0.1), the attacker singling out one of 100 candidates
// (baseline 1%): with the release they succeed at most 1.3% of the time
// (Φ(Φ⁻¹(0.01) + μ)), and no baseline gains more than 2Φ(μ/2) − 1 ≈ 4%. The row's cells
// are bound to the contract's input columns by their headers, and the
// output row holds the status, the message, the headline and every bound.
func Example() {
	ev := evaluate.New()
	b, err := ev.Bind([]table.Column{{Name: "mechanism"}, {Name: "sigma"}, {Name: "delta"}, {Name: "candidates"}})
	if err != nil {
		log.Fatal(err)
	}
	row := []table.Cell{table.TextCell("gaussian"), table.NumberCell(10), table.NumberCell(1e-6), table.NumberCell(100)}
	out := make([]table.Cell, ev.Width())
	status := b.Evaluate(row, out)
	fmt.Println(status)
	for k, o := range ev.Outputs() {
		switch o.Name {
		case "fdp_success", "fdp_worst_advantage":
			fmt.Println(o.Name, out[evaluate.HeadWidth+k].Num)
		}
	}
	// Output:
	// ok
	// fdp_success 0.012995444546147712
	// fdp_worst_advantage 0.03987761167674498
}
