package number_test

import (
	"fmt"

	"github.com/riskbatch/riskbatch/evaluate/number"
)

// A number as a person types it, and one whose reading depends on the
// decimal mark until the file settles it.
func Example() {
	for _, s := range []string{"1e-5", "5%", "1,000,000", "1/1000", "−3"} {
		v, err := number.Parse(s)
		fmt.Println(s, v, err)
	}
	_, err := number.Parse("2,500")
	fmt.Println(number.IsLocaleError(err))
	v, _ := number.Format{Mark: number.DecimalComma, Settled: true}.Parse("2,500")
	fmt.Println(v)
	// Output:
	// 1e-5 1e-05 <nil>
	// 5% 0.05 <nil>
	// 1,000,000 1e+06 <nil>
	// 1/1000 0.001 <nil>
	// −3 -3 <nil>
	// true
	// 2.5
}
