package cmdutil

import (
	"io"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
)

// Stuck sees a write to a standard stream that no one reads, once it has
// waited as long as asked, and no write that went through.
func TestStuckSeesAWriteNoOneReads(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, w := io.Pipe()
		out, errOut := &watched{w: w}, &watched{w: io.Discard}
		s := &IOStreams{Out: out, ErrOut: errOut, outWatch: out, errWatch: errOut}
		_, err := s.ErrOut.Write([]byte("progress\n"))
		assert.NoError(t, err)
		go func() { _, _ = s.Out.Write([]byte("a record no one reads\n")) }()
		synctest.Wait()
		assert.False(t, s.Stuck(time.Second), "not yet a second")
		time.Sleep(time.Second)
		assert.True(t, s.Stuck(time.Second))
		r.Close()
		synctest.Wait()
		assert.False(t, s.Stuck(time.Second), "the write is over")
	})
}
