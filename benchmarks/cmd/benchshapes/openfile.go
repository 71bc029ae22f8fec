package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// holdsOpen reports whether the process pid, or one of its descendants,
// has path open (Linux /proc). view reads a long log behind its screen and
// closes it once read: the screen it draws then has the whole log.
func holdsOpen(pid int, path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	dir := "/proc/" + strconv.Itoa(pid)
	fds, _ := os.ReadDir(dir + "/fd")
	for _, fd := range fds {
		if target, err := os.Readlink(dir + "/fd/" + fd.Name()); err == nil && target == abs {
			return true
		}
	}
	tasks, _ := os.ReadDir(dir + "/task")
	for _, t := range tasks {
		children, _ := os.ReadFile(dir + "/task/" + t.Name() + "/children")
		for _, c := range strings.Fields(string(children)) {
			if n, err := strconv.Atoi(c); err == nil && holdsOpen(n, path) {
				return true
			}
		}
	}
	return false
}

// awaitClosed waits until pid and its descendants no longer hold path
// open, polling, and returns when that was seen; false after timeout.
func awaitClosed(pid int, path string, timeout time.Duration) (time.Time, bool) {
	end := time.Now().Add(timeout)
	for time.Now().Before(end) {
		if !holdsOpen(pid, path) {
			return time.Now(), true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Time{}, false
}
