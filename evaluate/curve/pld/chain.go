package pld

import (
	"math"
	"math/bits"
	"sync"
)

// Chains remembers one step's discretised PLD and the powers x^(2^j) of it
// that NewDPSGD composes a stage from, so that accountants of the same step
// (noise multiplier and sample rate, or the other kinds' parameters) on
// the same grid with different numbers of steps share them: a sweep over
// epochs discretises each step's PLD once and raises it to each count by
// one FFT exponentiation (or, for a step of few points, squares it once
// and each step count adds only its own products). The powers depend
// on the step, the direction, the grid step and the tail mass alone, not
// on the number of steps (see chain.level), so an accountant built with
// Chains has the values, bit for bit, of one built without.
//
// A Chains is bounded by the grid points it holds (chainsPoints, about 32
// MB); when full it starts afresh, which costs recomputation, never
// memory. It is safe for concurrent use: accountants that need the same
// power wait for one computation of it.
type Chains struct {
	mu     sync.Mutex
	levels map[chainKey]*chainLevel
	points int // grid points of the computed levels in the map, and 1 a level
	limit  int // chainsPoints
}

// chainsPoints bounds the grid points a Chains holds.
const chainsPoints = 1 << 22

// NewChains returns an empty Chains.
func NewChains() *Chains { return &Chains{levels: map[chainKey]*chainLevel{}, limit: chainsPoints} }

// Bytes returns about how many bytes the powers held take (8 a point).
func (c *Chains) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return 8 * int64(c.points)
}

// chainKey identifies x^(2^level) of one step's PLD: the stage without its
// step count, the direction, the grid step and the per-step tail mass.
type chainKey struct {
	stage Stage // Steps is 0
	d     direction
	h     float64
	tail  float64
	level int
}

// chainLevel is a power of a step's PLD, or why it could not be built,
// computed once.
type chainLevel struct {
	once sync.Once
	pmf  *lossPMF
	err  error
}

// get returns the level of key, computing it with compute on first use
// (other callers wait for it).
func (c *Chains) get(key chainKey, compute func() (*lossPMF, error)) (*lossPMF, error) {
	c.mu.Lock()
	l := c.levels[key]
	if l == nil {
		if c.points > c.limit {
			c.levels, c.points = map[chainKey]*chainLevel{}, 0
		}
		l = &chainLevel{}
		c.levels[key] = l
		c.points++ // every level counts, so that failures cannot pile up
	}
	c.mu.Unlock()
	l.once.Do(func() {
		l.pmf, l.err = compute()
		if l.pmf != nil {
			c.mu.Lock()
			c.points += len(l.pmf.probs)
			c.mu.Unlock()
		}
	})
	if l.pmf == nil && l.err == nil {
		// compute panicked in another caller, and will again here.
		return compute()
	}
	return l.pmf, l.err
}

// chain is the source of the powers of one stage's step PLD in one
// direction, for one accountant's build: the run's Chains and the
// convolver of the goroutine building.
type chain struct {
	chains *Chains
	key    chainKey
	step   stepMechanism
	cv     *convolver
}

// newChain returns the chain of st's step in direction d on grid step h,
// whose truncations move at most tail per step (see level).
func newChain(chains *Chains, cv *convolver, st Stage, d direction, h, tail float64) *chain {
	st.Steps = 0
	return &chain{chains: chains, key: chainKey{stage: st, d: d, h: h, tail: tail}, step: stepOf(st), cv: cv}
}

// maxChainDepth is the number of squarings whose truncation thresholds
// grow with their level (see level): a stage of n steps uses the levels
// below bits.Len(n).
const maxChainDepth = 32

// level returns x^(2^j), x the step's discretised PLD (stepPMF, whose
// tails beyond a mass of tail at each end are cut, the upper one to +∞),
// by squaring level j − 1 (convolver.compose). Each squaring may move
// up to τ_j = tail·2^j/(2·maxChainDepth) of its upper tail to +∞, beside
// the mass below its rounding noise: a mass cut from x^(2^j) reaches n
// composed steps at most n/2^j times, so the squarings below depth
// maxChainDepth move at most n·tail/2 in all, and the step's own tails
// n·tail, whatever n. Beyond that depth τ stays at its value there.
func (c *chain) level(j int) (*lossPMF, error) {
	k := c.key
	k.level = j
	return c.chains.get(k, func() (*lossPMF, error) {
		if j == 0 {
			p, err := c.step.stepPMF(k.d, k.h, k.tail, MaxGridPoints)
			if err != nil {
				return nil, &SizeError{GridStep: k.h, Points: MaxGridPoints + 1, Limit: MaxGridPoints}
			}
			return p, nil
		}
		prev, err := c.level(j - 1)
		if err != nil {
			return nil, err
		}
		tau := math.Ldexp(k.tail/(2*maxChainDepth), min(j, maxChainDepth))
		sq := c.cv.compose(prev, prev, tau, tau)
		if len(sq.probs) > MaxGridPoints {
			return nil, &SizeError{GridStep: k.h, Points: len(sq.probs), Limit: MaxGridPoints}
		}
		return sq, nil
	})
}

// selfCompose returns the PLD of n compositions of the chain's step: by
// one FFT exponentiation of the step's PLD (power), whose window and
// truncation move at most budget beside its rounding noise, when the step
// has at least minPowerPoints points; otherwise, or when power declines,
// the product of the powers x^(2^j) (level) for the set bits j of n, from
// the lowest, each product's truncation moving at most budget/bits.Len(n)
// of its upper tail to +∞ beside its rounding noise. The powers are shared
// (Chains); the products are this n's own. The result may be a power
// itself (n a power of 2), which the caller must not modify.
func (c *chain) selfCompose(n int, budget float64) (*lossPMF, error) {
	if n >= 2 {
		x, err := c.level(0)
		if err != nil {
			return nil, err
		}
		if len(x.probs) >= minPowerPoints {
			if p := c.cv.power(x, n, budget); p != nil {
				if len(p.probs) > MaxGridPoints {
					return nil, &SizeError{GridStep: c.key.h, Points: len(p.probs), Limit: MaxGridPoints}
				}
				return p, nil
			}
		}
	}
	return c.squaredCompose(n, budget)
}

// squaredCompose returns the PLD of n compositions of the chain's step as
// the product of the powers x^(2^j) (level) for the set bits j of n (see
// selfCompose).
func (c *chain) squaredCompose(n int, budget float64) (*lossPMF, error) {
	per := budget / float64(bits.Len(uint(n)))
	var result *lossPMF
	for j := 0; n > 0; j, n = j+1, n>>1 {
		if n&1 == 0 {
			continue
		}
		x, err := c.level(j)
		if err != nil {
			return nil, err
		}
		if result == nil {
			result = x
			continue
		}
		result = c.cv.compose(result, x, per, per)
		if len(result.probs) > MaxGridPoints {
			return nil, &SizeError{GridStep: c.key.h, Points: len(result.probs), Limit: MaxGridPoints}
		}
	}
	return result, nil
}
