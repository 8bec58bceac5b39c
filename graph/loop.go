package graph

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/offattr/offattr/extract"
)

// A step's repeats are looked for among the earlier steps of its group: one
// agent's steps of one loop class. A group of at most exactGroup steps is
// compared pair by pair. In a larger one, candidates are found with MinHash
// and locality-sensitive hashing, not by comparing every pair: each step's
// token set gets lshBands×lshRows MinHash values, each band of lshRows
// values is hashed into a bucket, and only steps sharing a bucket are
// compared exactly. With 20 bands of 3 rows, a pair at Jaccard 0.6 shares a
// bucket with probability 1-(1-0.6³)²⁰ ≈ 0.99, at 0.75 with probability ≈
// 1. A bucket keeps only its latest lshBucketCap steps, so a text repeated
// a thousand times costs a bounded amount per step: cost is linear in the
// number of tokens, and pairs are compared only within groups of bounded
// size.
const (
	lshBands     = 20
	lshRows      = 3
	lshBucketCap = 4
	// lshSlack lets a candidate whose MinHash estimate falls below the
	// threshold by this much still be checked exactly.
	lshSlack = 0.25
)

type loopClass uint8

const (
	loopNone loopClass = iota
	loopPlan
	loopInstruction
	loopOutcome
)

// loopClassOf says which steps a step may repeat: plans repeat plans,
// instructions instructions, outcomes (results, answers, reports) outcomes.
// Ledgers, thoughts, the task and terminations are bookkeeping that repeats
// by design and are left out.
func loopClassOf(k kindSet) loopClass {
	switch {
	case k.Any(trialKinds):
		return loopPlan
	case k.Has(extract.KindInstruction):
		return loopInstruction
	case k.Any(setOf(extract.KindLedger, extract.KindThought, extract.KindTask, extract.KindTermination)):
		return loopNone
	default:
		return loopOutcome
	}
}

func (c loopClass) threshold() float64 {
	if c == loopOutcome {
		return LoopOutcome
	}
	return LoopInstruction
}

// lshTable holds one group's buckets (an agent's steps of one class), band
// by band, keyed by the band's hash.
type lshTable [lshBands]lshBand

// newLSHTable makes a table for a group of size steps: no band can have
// more buckets than that.
func newLSHTable(size int) *lshTable {
	var t lshTable
	for band := range t {
		// At most four in seven slots are used, so a probe for a bucket
		// not there ends soon.
		n := size + size*3/4 + 1
		t[band].keys, t[band].refs = make([]uint64, n), make([]int32, n)
	}
	return &t
}

// lshBand is one band's buckets, by their hash, in a table probed in
// order from the slot the hash picks, each bucket held in its slot. A
// long run's bands hold a bucket for most steps: a map's lookup reads its
// control word and then its slot, two places in memory a long way from
// the last lookup's, where a probe reads one.
type lshBand struct {
	// A slot is keys[i] and refs[i], in two arrays rather than one of
	// structs, which alignment would pad by a third. Slot i is empty
	// while refs[i] is 0; its bucket's one step is refs[i]-1, or, once it
	// has more, the bucket is spills[-refs[i]-1].
	keys []uint64
	refs []int32
	// spills holds the buckets of more than one step, which few are: a
	// slot holds its bucket's step while it has one, so that a large
	// group's tables, a slot for most of its steps in every band, stay
	// small.
	spills []lshBucket
}

// find returns the slot of the bucket with the given hash, or the empty
// slot where it would go, with the hash set.
func (t *lshBand) find(key uint64) int {
	// The hashes are mixed (bandHash): their high bits pick the slot.
	hi, _ := bits.Mul64(key, uint64(len(t.keys)))
	for i := int(hi); ; i++ {
		if i == len(t.keys) {
			i = 0
		}
		if t.refs[i] == 0 || t.keys[i] == key {
			t.keys[i] = key
			return i
		}
	}
}

// bucket returns the bucket held in slot i.
func (t *lshBand) bucket(i int) lshBucket {
	switch r := t.refs[i]; {
	case r == 0:
		return lshBucket{}
	case r > 0:
		return lshBucket{n: 1, steps: [lshBucketCap]int32{r - 1}}
	default:
		return t.spills[-r-1]
	}
}

// add puts step j in the bucket of slot i.
func (t *lshBand) add(i, j int) {
	switch r := t.refs[i]; {
	case r == 0:
		t.refs[i] = int32(j) + 1
	case r > 0:
		bk := t.bucket(i)
		bk.add(j)
		t.spills = append(t.spills, bk)
		t.refs[i] = -int32(len(t.spills))
	default:
		t.spills[-r-1].add(j)
	}
}

// clear empties every bucket of the band.
func (t *lshBand) clear() {
	clear(t.refs)
	t.spills = t.spills[:0]
}

// lshBucket holds a bucket's latest steps (by their place in the group),
// oldest first. Steps are int32, which halves the buckets.
type lshBucket struct {
	n     int32
	steps [lshBucketCap]int32
}

// add puts step j in the bucket, dropping its oldest step when it is full.
func (bk *lshBucket) add(j int) {
	if bk.n == lshBucketCap {
		copy(bk.steps[:], bk.steps[1:])
		bk.n--
	}
	bk.steps[bk.n] = int32(j)
	bk.n++
}

// addLoops links each step to the most recent earlier step of the same agent
// and class that it repeats (Similarity at or above the class threshold).
// Groups are independent, so each is looked at on its own, and its token
// sets, signatures and buckets are let go before the next: what a long run
// holds at once is one group's, not every group's.
func (b *builder) addLoops() {
	// Steps repeat within a group: one agent's steps of one loop class.
	type group struct {
		agent int
		class loopClass
	}
	var order []group
	members := map[group][]int{}
	for j := 0; j < b.n; j++ {
		g := group{int(b.agentOf[j]), loopClassOf(b.kinds[j])}
		if g.class == loopNone {
			continue
		}
		if _, ok := members[g]; !ok {
			order = append(order, g)
		}
		members[g] = append(members[g], j)
	}
	seen := 0 // steps looked at, for checking ctx every 256
	var lsh loopScratch
	for _, g := range order {
		steps := members[g]
		// A step alone in its group (its agent's only plan, say) repeats
		// nothing and is repeated by nothing: its tokens are not read.
		if len(steps) < 2 {
			continue
		}
		if !b.loopsIn(g.class.threshold(), steps, &lsh, &seen) {
			return // BuildContext reports it
		}
	}
}

// loopScratch is what finding loops in one group leaves for the next:
// the token sets and signatures of the group's steps, by their place in
// the group, the array the signatures are cut from, and the buckets,
// emptied. A long run's groups are few and large: these are made once
// and reused, not made anew for each group or each step of the run.
type loopScratch struct {
	sets [][]uint64
	// places holds each step's signature (its seeds' tokens, by their
	// places in its set), len(minHashSeeds) a step; wide, those of the
	// steps with more tokens than a place can name, as the tokens.
	places  []uint16
	wide    map[int][]uint64
	sig     [len(minHashSeeds)]uint64 // the step being looked at's, as minHash gives it
	buckets *lshTable
	size    int // the group size the buckets were made for
}

// reset readies s for a group of size steps, compared exactly or not.
// Buckets made for a group much larger are not reused: emptying them
// costs their size, not the group's.
func (s *loopScratch) reset(size int, exact bool) {
	if cap(s.sets) < size {
		s.sets = make([][]uint64, size)
	}
	s.sets = s.sets[:size]
	clear(s.sets)
	clear(s.wide)
	if exact {
		return
	}
	if s.buckets == nil || s.size < size || s.size > 4*size {
		s.buckets, s.size = newLSHTable(size), size
	} else {
		for band := range s.buckets {
			s.buckets[band].clear()
		}
	}
	if n := size * len(minHashSeeds); cap(s.places) < n {
		s.places = make([]uint16, n)
	}
}

// sign computes the signature of the group's jth step, whose token set is
// set, keeps it, and returns its values.
func (s *loopScratch) sign(j int, set []uint64) []uint64 {
	n := len(minHashSeeds)
	places := s.places[j*n : (j+1)*n : (j+1)*n]
	minHash(s.sig[:], places, set)
	if len(set) > math.MaxUint16+1 {
		if s.wide == nil {
			s.wide = map[int][]uint64{}
		}
		w := make([]uint64, n)
		for k, p := range places {
			w[k] = set[p]
		}
		s.wide[j] = w
	}
	return s.sig[:]
}

// signature returns the kept signature of the group's jth step.
func (s *loopScratch) signature(j int) signature {
	if w, ok := s.wide[j]; ok {
		return signature{tokens: w}
	}
	n := len(minHashSeeds)
	return signature{set: s.sets[j], places: s.places[j*n : (j+1)*n]}
}

// signature is a step's MinHash signature as, per seed, the token whose
// mixed hash is least, rather than that hash: mixing is a bijection and a
// set's tokens are distinct, so two signatures agree at a seed exactly
// when their tokens are the same, and a token's place in the set takes a
// quarter of the hash's room. tokens holds the tokens themselves instead,
// for a set with more tokens than a place can name.
type signature struct {
	set    []uint64
	places []uint16
	tokens []uint64
}

// token is the token seed k picks.
func (s signature) token(k int) uint64 {
	if s.tokens != nil {
		return s.tokens[k]
	}
	return s.set[s.places[k]]
}

// loopsIn links the repeats among one group's steps, in order, at
// Similarity thr. Steps are named by their place in the group, in the
// buckets as in sets and sigs. It returns false when ctx is done.
func (b *builder) loopsIn(thr float64, steps []int, lsh *loopScratch, seen *int) bool {
	var (
		cands   []int
		scratch []uint64
		earlier []int // places so far, when the group is compared exactly
	)
	exact := len(steps) <= exactGroup
	need := agreeingNeeded(thr - lshSlack)
	lsh.reset(len(steps), exact)
	sets, buckets := lsh.sets, lsh.buckets
	for j, step := range steps {
		if *seen%256 == 0 && b.ctx.Err() != nil {
			return false
		}
		*seen++
		scratch = scratchTokenSet(scratch, b.r.Steps[step].Content)
		if scratch == nil {
			continue
		}
		set := slices.Clone(scratch)
		sets[j] = set
		if exact {
			for k := len(earlier) - 1; k >= 0; k-- {
				i := earlier[k]
				if !mayReach(len(sets[i]), len(set), thr) {
					continue
				}
				if sim := jaccard(sets[i], set); sim >= thr {
					b.addLoopEdge(steps[i], step, sim)
					break
				}
			}
			earlier = append(earlier, j)
			continue
		}
		sig := lsh.sign(j, set)
		var slots [lshBands]int // to be given j once it is compared
		cands = cands[:0]
		for band := range slots {
			key := bandHash(sig[band*lshRows : (band+1)*lshRows])
			s := buckets[band].find(key)
			slots[band] = s
			bk := buckets[band].bucket(s)
			for _, i := range bk.steps[:bk.n] {
				if !containsInt(cands, int(i)) {
					cands = append(cands, int(i))
				}
			}
		}
		// The latest first: cands are distinct.
		slices.Sort(cands)
		signed := lsh.signature(j)
		for k := len(cands) - 1; k >= 0; k-- {
			i := cands[k]
			// Sets of sizes too far apart cannot reach thr, whatever
			// their signatures say.
			if !mayReach(len(sets[i]), len(set), thr) || !agreeing(lsh.signature(i), signed, need) {
				continue
			}
			if sim := jaccard(sets[i], set); sim >= thr {
				b.addLoopEdge(steps[i], step, sim)
				break
			}
		}
		for band, s := range slots {
			buckets[band].add(s, j)
		}
	}
	return true
}

// exactGroup is the largest group whose steps are each compared with
// every earlier one: up to it, the comparisons cost less than the MinHash
// signatures that would spare them, and miss nothing.
const exactGroup = 64

// mayReach reports whether sets of sizes m and n can reach Jaccard thr:
// their intersection is at most the smaller, their union at least the
// larger. It divides as jaccard does, so that a pair at the bound exactly
// is kept.
func mayReach(m, n int, thr float64) bool {
	return float64(min(m, n))/float64(max(m, n)) >= thr
}

// addLoopEdge links step j to the earlier step i it repeats, at
// similarity sim of their token sets. Its evidence is made when the edge
// is asked for (loopEvidence): a run that repeats itself has a loop edge
// for many of its steps, and the rules read their ends, not their
// evidence.
func (b *builder) addLoopEdge(i, j int, sim float64) {
	e := stepEdge(i, j, Loop)
	e.percent = percent(sim)
	b.add(e, "")
	b.state.loopEdges = append(b.state.loopEdges, [2]int{i, j})
}

// loopEvidence is a loop edge's evidence, from its steps' texts as the
// loop finder measured them: their similarity, and the first tokens the
// repeat has that the earlier step lacks and the reverse.
func (g *Graph) loopEvidence(e *edge) string {
	a, b := g.steps[e.from].Content, g.steps[e.to].Content
	setA, setB := scratchTokenSet(nil, a), scratchTokenSet(nil, b)
	added, dropped := tokenDiff(a, b, setA, setB, 4)
	ev := fmt.Sprintf("jaccard %.2f", jaccard(setA, setB))
	if len(added) > 0 {
		ev += "; new: " + strings.Join(added, " ")
	}
	if len(dropped) > 0 {
		ev += "; gone: " + strings.Join(dropped, " ")
	}
	return ev
}

// percent is a similarity in [0, 1] in hundredths, rounded: a loop edge
// reports it so, as two decimals.
func percent(x float64) uint8 { return uint8(int(x*100 + 0.5)) }

// minHashSeeds are the odd multiples of the golden ratio constant, so that
// each gives an independent-looking permutation of a token hash; they are
// computed once, not for every token.
var minHashSeeds = func() (seeds [lshBands * lshRows]uint64) {
	for k := range seeds {
		seeds[k] = uint64(2*k+1) * 0x9e3779b97f4a7c15
	}
	return seeds
}()

// minHash writes set's signature into sig, which holds one value per seed
// (per seed, the least mixed token hash), and into places the place in set
// of the token that gives it.
func minHash(sig []uint64, places []uint16, set []uint64) {
	for p, h := range set {
		for k, seed := range minHashSeeds {
			if v := mix64(h ^ seed); p == 0 || v < sig[k] {
				sig[k] = v
				places[k] = uint16(p)
			}
		}
	}
}

func bandHash(rows []uint64) uint64 {
	h := uint64(fnvOffset)
	for _, v := range rows {
		h = mix64(h ^ v)
	}
	return h
}

// agreeingNeeded is how many of a signature's positions must agree for
// the MinHash estimate of Jaccard similarity, the share of agreeing
// positions, to reach thr; one more than there are when it cannot.
func agreeingNeeded(thr float64) int {
	n := len(minHashSeeds)
	need := 0
	for need <= n && float64(need)/float64(n) < thr {
		need++
	}
	return need
}

// agreeing reports whether signatures a and b agree in at least need
// positions, reading only as far as it takes to tell.
func agreeing(a, b signature, need int) bool {
	eq := 0
	n := len(minHashSeeds)
	for k := range n {
		if eq >= need {
			return true
		}
		if eq+n-k < need {
			return false
		}
		if a.token(k) == b.token(k) {
			eq++
		}
	}
	return eq >= need
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// LoopGroup is a repeated plan–execute cycle inside one trial (CHIEF §4.3.2):
// the steps joined by loop edges, merged when a repeating instruction
// addresses a repeating step, with the planner and executor sides split out
// so that the rules can ask whether the planner changed strategy.
type LoopGroup struct {
	Trial int   `json:"trial"`
	Steps []int `json:"steps"` // the repeating steps, ascending
	// Planner holds the planner steps of the cycle: the repeating planner
	// steps, and the instructions that led to repeating executor steps.
	Planner []int `json:"planner"`
	// Executor holds the executor steps: the repeating non-planner steps,
	// and the steps that repeating instructions addressed.
	Executor []int `json:"executor"`
}

// loopGroups joins loop edges within a trial (trial boundaries bound loop
// groups; a loop edge across trials, such as a re-plan repeating the old
// plan, stays in the graph but joins no group) and instructs edges between
// their members: a group is a connected component of these links, found by
// union–find over the steps (doc.go says why not with the library).
func (b *builder) loopGroups(g *Graph) []LoopGroup {
	// parent[i] leads towards the least step of i's group; only members
	// are ever joined.
	parent := make([]int32, b.n)
	for i := range parent {
		parent[i] = int32(i)
	}
	root := func(i int) int {
		for int(parent[i]) != i {
			parent[i] = parent[parent[i]]
			i = int(parent[i])
		}
		return i
	}
	join := func(i, j int) {
		ri, rj := root(i), root(j)
		if ri > rj {
			ri, rj = rj, ri
		}
		parent[rj] = int32(ri)
	}
	member := make([]bool, b.n)
	var members []int
	for _, e := range b.state.loopEdges {
		if b.trialOf[e[0]] == b.trialOf[e[1]] {
			join(e[0], e[1])
			for _, v := range e {
				if !member[v] {
					member[v] = true
					members = append(members, v)
				}
			}
		}
	}
	for _, m := range members {
		for _, j := range g.Successors(m, Instructs) {
			if member[j] && b.trialOf[j] == b.trialOf[m] {
				join(m, j)
			}
		}
	}
	// Members in order, each group opened by its least step: groups come
	// ordered by first step, and their steps ascending.
	sort.Ints(members)
	var groups []LoopGroup
	at := map[int]int{} // a group's root → its place in groups
	for _, m := range members {
		r := root(m)
		k, ok := at[r]
		if !ok {
			k = len(groups)
			at[r] = k
			groups = append(groups, LoopGroup{Trial: int(b.trialOf[m])})
		}
		groups[k].Steps = append(groups[k].Steps, m)
	}
	for k := range groups {
		lg := &groups[k]
		for _, m := range lg.Steps {
			if g.plannerStep[m] {
				lg.Planner = append(lg.Planner, m)
				lg.Executor = append(lg.Executor, g.Successors(m, Instructs)...)
			} else {
				lg.Executor = append(lg.Executor, m)
				lg.Planner = append(lg.Planner, g.Predecessors(m, Instructs)...)
			}
		}
		lg.Planner, lg.Executor = sortedSet(lg.Planner), sortedSet(lg.Executor)
	}
	if groups == nil {
		groups = []LoopGroup{}
	}
	return groups
}

func sortedSet(xs []int) []int {
	if len(xs) == 0 {
		return []int{}
	}
	sort.Ints(xs)
	out := xs[:1]
	for _, x := range xs[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}
