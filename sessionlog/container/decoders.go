package container

import (
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Decoders keeps the Zstandard decoder a read of a log used for the next
// read (Options.Decoders), so that a log read twice, as repro reads it,
// holds one decoder's window and not two: a decoder allocates its frame's
// whole window (up to 128 MiB for a frame `zstd --long=27` writes) at its
// first block, and a second one allocated while the collector has yet to
// free the first would be resident beside it. It is safe for concurrent
// use; a read that finds the decoder taken makes its own. The zero value
// is ready; Close releases what it keeps.
type Decoders struct {
	mu        sync.Mutex
	dec       *zstd.Decoder
	maxMemory int64 // the memory cap dec was made with
	closed    bool
}

// get returns a decoder whose memory cap is maxMemory: the one d keeps,
// or a new one (d may be nil).
func (d *Decoders) get(maxMemory int64) (*zstd.Decoder, error) {
	if d != nil {
		d.mu.Lock()
		dec, made := d.dec, d.maxMemory
		d.dec = nil
		d.mu.Unlock()
		if dec != nil && made == maxMemory {
			return dec, nil
		}
		if dec != nil {
			dec.Close()
		}
	}
	return newZstdDecoder(false, zstd.WithDecoderMaxMemory(uint64(maxMemory)))
}

// put keeps dec, done with, for the next read, or closes it.
func (d *Decoders) put(dec *zstd.Decoder, maxMemory int64) {
	if d != nil {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.dec == nil && !d.closed && dec.Reset(nil) == nil {
			d.dec, d.maxMemory = dec, maxMemory
			return
		}
	}
	dec.Close()
}

// Close releases the decoder d keeps; a read after it makes its own.
func (d *Decoders) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dec != nil {
		d.dec.Close()
		d.dec = nil
	}
	d.closed = true
}
