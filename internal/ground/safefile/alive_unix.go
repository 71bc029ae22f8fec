//go:build unix

package safefile

import (
	"errors"
	"syscall"
)

// alive reports whether a process with this id runs.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
