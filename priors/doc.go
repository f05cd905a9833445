// Package priors is the model of the attacker priors that every
// non-worst-case bound of riskbatch depends on: tables of p_i read back for
// the evaluator ([Loader], [Tables], [Prior]), the distributions behind
// them ([Distributions]), inline Zipf and uniform priors ([ParseInline]),
// and the approximate-reconstruction window ([BestWindow]). It knows no
// file format: it reads rows already opened ([Rows]); package priorfiles
// opens and writes the files, and package priors/build turns data into
// priors.
//
// The p_i of a target is the attacker's a-priori probability of success on
// that target (Swanberg et al., "Beyond the Worst Case", arXiv 2507.08158,
// §3.1 and §3.3):
//
//   - exact match, attack-independent: p_i = max_x D_i(x), the Bayes-optimal
//     a-priori guess z*_i = argmax D_i (see package priors/build);
//   - attribute inference given known columns K: D_i = P(U | K = k_i), from
//     a frequency table P(u | k) = count(k, u)/count(k); with several unknown
//     columns the guess is the joint one, p_i = max over joint u of
//     P(u | k_i) (max-product over the joint, never the product of the
//     per-column maxima; package priors/build);
//   - approximate reconstruction of an ordinal or numeric column with L1
//     tolerance E: p_i = max_z Σ_{|x − z| ≤ E} D_i(x) ([BestWindow]);
//   - Zipf(s, N) priors, p(r) = r^{−s}/H_{N,s} ([Harmonic], [ZipfP],
//     [FitZipf], [ParseInline]).
//
// # Keys
//
// Each prior in a prior table has a key (the `prior` column):
//
//	NAME ":" TARGET [ "~" E ] [ "|" GIVEN ]
//
// NAME is the data set's name (build.Options.Name: by default the data
// file's base name without extension, e.g. "penguins"); TARGET is the
// attribute column, or the columns of a joint attribute separated by ",";
// "~E" marks an approximate reconstruction window of tolerance E (E
// formatted as the shortest decimal that reads back to the same float64);
// GIVEN lists the known columns separated by ",". Column names are written as in the data's header; the
// characters \ , | ~ and : inside a column name are escaped with a
// backslash. Examples: "penguins:Sex" (the marginal of Sex),
// "penguins:Sex|Species,Island" (Sex given Species and Island),
// "penguins:Sex,Species|Island" (the joint of Sex and Species given Island),
// "penguins:Body Mass (g)~100|Species" (body mass within ±100 g, given the
// species). [Tables.Lookup] matches keys exactly, else ignoring case.
//
// # Prior tables
//
// A prior table (shared/spec/CONTRACT.md, "Prior tables") has the columns
// `prior` (the key) and `p` (a target's prior success probability), one row
// per target; the optional column `targets` (a whole number ≥ 1, default 1)
// says how many targets with that same p the row stands for. Every other
// column is ignored by a [Loader]. A key whose rows add up to n targets
// describes n targets: the one-run tail bound uses all n values, a
// single-target bound uses the largest ([Prior.Max]).
package priors
