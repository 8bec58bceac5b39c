package cmdutil

import (
	"errors"
	"fmt"
)

// UsageError is a command line that cannot run as given: an unknown flag
// or command, a missing argument, a flag value out of range. main exits
// with 2 on it, after the message and a pointer to --help.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a UsageError with a formatted message.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// Usage marks err as a usage error; nil stays nil.
func Usage(err error) error {
	if err == nil {
		return nil
	}
	var u *UsageError
	if errors.As(err, &u) {
		return err
	}
	return &UsageError{Err: err}
}

// ErrInputsFailed is what the error of a command that read several inputs,
// wrote what it could and could not analyse some of them is (errors.Is).
// main exits 1 on it, as on any failure.
var ErrInputsFailed = errors.New("some inputs failed")

// InputsFailed returns an ErrInputsFailed with a formatted message, such as
// "3 of 10 runs could not be exported (see above)".
func InputsFailed(format string, args ...any) error {
	return &inputsFailed{msg: fmt.Sprintf(format, args...)}
}

type inputsFailed struct{ msg string }

func (e *inputsFailed) Error() string        { return e.msg }
func (e *inputsFailed) Is(target error) bool { return target == ErrInputsFailed }
