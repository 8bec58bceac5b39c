package screencmd

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard is a stable 1/Count of the inputs: those whose name hashes to
// Index. Count 0 means every input.
type Shard struct {
	Index, Count int
}

// ParseShard reads "i/n" with 0 ≤ i < n, the form batch schedulers give
// ($JOB_COMPLETION_INDEX, $SLURM_ARRAY_TASK_ID with --array=0-(n-1)).
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	i, n, ok := strings.Cut(s, "/")
	idx, err1 := strconv.Atoi(strings.TrimSpace(i))
	cnt, err2 := strconv.Atoi(strings.TrimSpace(n))
	switch {
	case !ok || err1 != nil || err2 != nil:
		return Shard{}, fmt.Errorf("--shard %q: want i/n, such as 0/8", s)
	case cnt < 1:
		return Shard{}, fmt.Errorf("--shard %q: n must be at least 1", s)
	case idx < 0 || idx >= cnt:
		return Shard{}, fmt.Errorf("--shard %q: i must be 0..%d (shards count from 0)", s, cnt-1)
	}
	return Shard{Index: idx, Count: cnt}, nil
}

// Includes reports whether the input named name belongs to this shard.
// The name is hashed as given on the command line (a relative path stays
// relative), so machines that mount the corpus at different places agree
// as long as they run the same command from the same relative spot.
func (s Shard) Includes(name string) bool {
	if s.Count <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()%uint64(s.Count) == uint64(s.Index)
}

func (s Shard) String() string {
	if s.Count <= 1 {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}
