package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoopsAsDefined holds loop edges to their definition: a step repeats
// the most recent earlier step of its agent and class whose token sets
// reach the class's threshold. A group of at most exactGroup steps is
// compared pair by pair and must give exactly that; a larger one is
// searched with MinHash buckets, which may miss a pair or settle for an
// older one, but every edge it draws must hold and few may be missing.
func TestLoopsAsDefined(t *testing.T) {
	for _, n := range []int{60, 300, 2000} {
		t.Run(fmt.Sprintf("steps=%d", n), func(t *testing.T) {
			r, f := synthRun(n, 3)
			g, err := Build(r, f)
			require.NoError(t, err)

			type group struct {
				agent string
				class loopClass
			}
			groupOf := make([]group, n)
			size := map[group]int{}
			for j := range n {
				groupOf[j] = group{normName(r.Steps[j].Agent), loopClassOf(kindsOf(&f.Steps[j]))}
				if groupOf[j].class != loopNone {
					size[groupOf[j]]++
				}
			}
			sets := make([][]uint64, n)
			want := map[int]int{} // step → the step it repeats, by definition
			for j := range n {
				gj := groupOf[j]
				if gj.class == loopNone || size[gj] < 2 {
					continue
				}
				sets[j] = tokenSet(r.Steps[j].Content)
				for i := j - 1; i >= 0 && sets[j] != nil; i-- {
					if groupOf[i] == gj && sets[i] != nil && jaccard(sets[i], sets[j]) >= gj.class.threshold() {
						want[j] = i
						break
					}
				}
			}

			got := map[int]int{}
			for _, e := range g.Edges(Loop) {
				got[stepOf(t, e.To)] = stepOf(t, e.From)
			}
			exact, sampled, found := 0, 0, 0
			for j, i := range want {
				if size[groupOf[j]] <= exactGroup {
					exact++
					assert.Equal(t, i, got[j], "step %d of a group of %d", j, size[groupOf[j]])
					continue
				}
				sampled++
				if _, ok := got[j]; ok {
					found++
				}
			}
			for j, i := range got {
				assert.Equal(t, groupOf[i], groupOf[j], "edge %d->%d joins two groups", i, j)
				assert.Less(t, i, j)
				assert.GreaterOrEqual(t, jaccard(sets[i], sets[j]), groupOf[j].class.threshold(), "edge %d->%d", i, j)
				if size[groupOf[j]] <= exactGroup {
					assert.Contains(t, want, j, "edge %d->%d is not a repeat", i, j)
				}
			}
			if sampled > 0 {
				assert.GreaterOrEqual(t, float64(found), 0.9*float64(sampled), "MinHash found %d of %d repeats", found, sampled)
			}
			t.Logf("%d repeats compared exactly, %d by MinHash (%d found)", exact, sampled, found)
			if n == 2000 {
				assert.Positive(t, sampled, "a run this long has a group past exactGroup")
			}
			if n == 60 {
				assert.Positive(t, exact, "a short run's repeats are compared exactly")
			}
		})
	}
}

func stepOf(t *testing.T, id string) int {
	t.Helper()
	i, err := strconv.Atoi(strings.TrimPrefix(id, "s"))
	require.NoError(t, err, id)
	return i
}

// TestAgreeingIsTheEstimate holds agreeing, which stops reading once the
// answer is settled, to the MinHash estimate it stands for: the share of
// agreeing positions at or above a threshold, at every count of agreeing
// positions and at thresholds on and between the shares.
func TestAgreeingIsTheEstimate(t *testing.T) {
	n := len(minHashSeeds)
	rng := rand.New(rand.NewPCG(1, 2))
	var thresholds []float64
	for k := -1; k <= n+1; k++ {
		share := float64(k) / float64(n)
		thresholds = append(thresholds, share, share+1e-9, share-1e-9)
	}
	for eq := 0; eq <= n; eq++ {
		a, b := make([]uint64, n), make([]uint64, n)
		for k, p := range rng.Perm(n) {
			a[k] = uint64(k)
			b[k] = uint64(k)
			if p >= eq {
				b[k] += uint64(n)
			}
		}
		for _, thr := range thresholds {
			want := float64(eq)/float64(n) >= thr
			assert.Equal(t, want, agreeing(signature{tokens: a}, signature{tokens: b}, agreeingNeeded(thr)), "%d agreeing, threshold %v", eq, thr)
		}
	}
}

// TestSignatureAgreesAsTheHashes holds a signature kept as its seeds'
// tokens to the MinHash values it stands for: at every seed, two steps'
// tokens are the same exactly when their least mixed hashes are, for sets
// that share most tokens, small and with more tokens than a place can
// name.
func TestSignatureAgreesAsTheHashes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	randomSet := func(n int, shared []uint64) []uint64 {
		set := slices.Clone(shared)
		for range n {
			set = append(set, rng.Uint64())
		}
		slices.Sort(set)
		return slices.Compact(set)
	}
	hashes := func(set []uint64) []uint64 {
		sig := make([]uint64, len(minHashSeeds))
		for k, seed := range minHashSeeds {
			sig[k] = ^uint64(0)
			for _, h := range set {
				sig[k] = min(sig[k], mix64(h^seed))
			}
		}
		return sig
	}
	for _, tt := range []struct {
		name  string
		sizes [2]int
	}{
		{"small", [2]int{3, 5}},
		{"wide", [2]int{math.MaxUint16 + 10, 40}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var lsh loopScratch
			lsh.reset(2, false)
			// The second set has most of the first's tokens.
			lsh.sets[0] = randomSet(tt.sizes[0], nil)
			lsh.sets[1] = randomSet(tt.sizes[1], lsh.sets[0][:len(lsh.sets[0])*9/10])
			for j := range 2 {
				assert.Equal(t, hashes(lsh.sets[j]), lsh.sign(j, lsh.sets[j]), "step %d's values", j)
			}
			a, b := hashes(lsh.sets[0]), hashes(lsh.sets[1])
			agree := 0
			for k := range minHashSeeds {
				same := a[k] == b[k]
				assert.Equal(t, same, lsh.signature(0).token(k) == lsh.signature(1).token(k), "seed %d", k)
				if same {
					agree++
				}
			}
			assert.Positive(t, agree, "the shared tokens give most seeds the same token")
		})
	}
}
