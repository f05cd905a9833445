package resolve

import (
	"github.com/riskbatch/riskbatch/evaluate/celldata"
)

// Files named in cells are package celldata's (celldata.Loader); these
// names keep evaluate's API.

// The pmp_data tables and results of a run (celldata.Cache).
type (
	pmpCache    = celldata.Cache
	pmpSource   = celldata.Source
	pmpRef      = celldata.Ref
	pmpKey      = celldata.Key
	pmpResult   = celldata.Result
	pmpRefError = celldata.RefError
)

func newPMPCache() *pmpCache { return celldata.NewCache() }
