package sessiongen

import (
	"errors"

	"github.com/dshtest/dshtest/sessionlog"
)

// Real returns a session of about n events assembled from the turns of the
// real upstream logs in the corpus directory.
func Real(seed int64, n int, corpus string) ([]sessionlog.Event, error) {
	return nil, errors.New("sessiongen: the real shape is not built yet")
}
