package evaluate

import (
	"github.com/riskbatch/riskbatch/evaluate/release"
)

// The input vocabulary and the mechanisms are package release's, the floor
// below the evaluator; these names keep evaluate's API (and its own files)
// as they were.

// Field identifies one input column of the contract (release.Field).
type Field = release.Field

// The input columns, in the order the contract lists them.
const (
	FieldID              = release.FieldID
	FieldMechanism       = release.FieldMechanism
	FieldEpsilon         = release.FieldEpsilon
	FieldDelta           = release.FieldDelta
	FieldSigma           = release.FieldSigma
	FieldSensitivity     = release.FieldSensitivity
	FieldMu              = release.FieldMu
	FieldLaplaceScale    = release.FieldLaplaceScale
	FieldRho             = release.FieldRho
	FieldRDPOrder        = release.FieldRDPOrder
	FieldRDPEpsilon      = release.FieldRDPEpsilon
	FieldNoiseMultiplier = release.FieldNoiseMultiplier
	FieldSampleRate      = release.FieldSampleRate
	FieldSteps           = release.FieldSteps
	FieldExtraStages     = release.FieldExtraStages
	FieldRRCategories    = release.FieldRRCategories
	FieldMarginalK       = release.FieldMarginalK
	FieldColumnsTotal    = release.FieldColumnsTotal
	FieldColumnsUnknown  = release.FieldColumnsUnknown
	FieldCompositions    = release.FieldCompositions
	FieldBaseline        = release.FieldBaseline
	FieldCandidates      = release.FieldCandidates
	FieldPrior           = release.FieldPrior
	FieldTargets         = release.FieldTargets
	FieldSuccesses       = release.FieldSuccesses
	FieldConfidence      = release.FieldConfidence
	FieldTolerance       = release.FieldTolerance
	FieldTargetAdvantage = release.FieldTargetAdvantage
	FieldRecords         = release.FieldRecords
	FieldPredicateWeight = release.FieldPredicateWeight
	FieldPMPData         = release.FieldPMPData
	FieldAudit           = release.FieldAudit
	FieldCanaries        = release.FieldCanaries
	FieldGuesses         = release.FieldGuesses
	FieldCorrect         = release.FieldCorrect
	FieldOptions         = release.FieldOptions
	FieldNumTests        = release.FieldNumTests
	FieldSignificance    = release.FieldSignificance
	FieldAuditBound      = release.FieldAuditBound
	FieldCalibration     = release.FieldCalibration
	FieldBatchSize       = release.FieldBatchSize
	FieldDatasetSize     = release.FieldDatasetSize
	FieldEpochs          = release.FieldEpochs
	FieldDataset         = release.FieldDataset
	FieldReportDelta     = release.FieldReportDelta

	// numFields is the number of input fields.
)

// Domain is the set of valid values of a numeric input (release.Domain).
type Domain = release.Domain

// InputColumn is one input column of the contract (release.InputColumn).
type InputColumn = release.InputColumn

// Vocabulary is the input columns and their names (release.Vocabulary).
type Vocabulary = release.Vocabulary

// DuplicateColumnError is a table with two columns naming one input
// (release.DuplicateColumnError).
type DuplicateColumnError = release.DuplicateColumnError

// NewVocabulary returns the contract's input vocabulary.
func NewVocabulary() *Vocabulary { return release.NewVocabulary() }

// CanonicalName is a header as the vocabulary compares it
// (release.CanonicalName).
func CanonicalName(header string) string { return release.CanonicalName(header) }

// GaussianCalibrations returns the values of the calibration column.
func GaussianCalibrations() []string { return release.GaussianCalibrations() }

// Mechanism is a mechanism's canonical name (release.Mechanism).
type Mechanism = release.Mechanism

// The mechanisms.
const (
	MechanismPure        = release.MechanismPure
	MechanismApprox      = release.MechanismApprox
	MechanismGaussian    = release.MechanismGaussian
	MechanismGDP         = release.MechanismGDP
	MechanismLaplace     = release.MechanismLaplace
	MechanismZCDP        = release.MechanismZCDP
	MechanismRDP         = release.MechanismRDP
	MechanismRR          = release.MechanismRR
	MechanismDPSGD       = release.MechanismDPSGD
	MechanismMarginals   = release.MechanismMarginals
	MechanismExponential = release.MechanismExponential
)

// MechanismNames lists the contract's mechanism names.
func MechanismNames() []string { return release.MechanismNames() }

// The extra_stages cell and the stages of a composed release are
// release's (release.ParseStages).

// MechanismInputs returns the input columns a row of the named mechanism
// may fill with its parameters (release.MechanismInputs); nil for an
// unknown name.
func MechanismInputs(name string) []string { return release.MechanismInputs(name) }
