package timev

import (
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

const exited1 = `Command exited with non-zero status 1
	Command being timed: "dshtest repro small.jsonl"
	User time (seconds): 9.12
	System time (seconds): 0.41
	Percent of CPU this job got: 158%
	Elapsed (wall clock) time (h:mm:ss or m:ss): 0:06.03
	Average shared text size (kbytes): 0
	Maximum resident set size (kbytes): 156672
	Average resident set size (kbytes): 0
	Exit status: 1
`

const killed = `Command terminated by signal 9
	Command being timed: "dshtest repro tiny.jsonl"
	Elapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03
	Maximum resident set size (kbytes): 966656
	Exit status: 0
`

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		name string
		text string
		want Report
		err  bool
	}{
		{"exited 1", exited1, Report{Wall: 6030 * time.Millisecond, MaxRSS: 156672 << 10, ExitStatus: 1}, false},
		{"signal, hours", killed, Report{Wall: time.Hour + 2*time.Minute + 3*time.Second, MaxRSS: 966656 << 10, Signal: 9}, false},
		{"minutes", "Elapsed (wall clock) time (h:mm:ss or m:ss): 2:05.50\nMaximum resident set size (kbytes): 10\nExit status: 0\n",
			Report{Wall: 2*time.Minute + 5500*time.Millisecond, MaxRSS: 10 << 10}, false},
		{"no RSS", "Elapsed (wall clock) time (h:mm:ss or m:ss): 0:01.00\n", Report{}, true},
		{"empty", "", Report{}, true},
		{"bad clock", "Elapsed (wall clock) time (h:mm:ss or m:ss): 0:99.00\nMaximum resident set size (kbytes): 1\n", Report{}, true},
		{"bad RSS", "Elapsed (wall clock) time (h:mm:ss or m:ss): 0:01.00\nMaximum resident set size (kbytes): -3\n", Report{}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.text))
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want error %v", err, tt.err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
	if _, err := Parse(nil); !errors.Is(err, ErrIncomplete) {
		t.Errorf("empty report: %v, want ErrIncomplete", err)
	}
}

func TestWrap(t *testing.T) {
	cmd := exec.Command("/bin/true", "a", "b")
	report := filepath.Join(t.TempDir(), "report")
	Wrap(cmd, report)
	want := []string{Path, "-v", "-o", report, "/bin/true", "a", "b"}
	if cmd.Path != Path || !slices.Equal(cmd.Args, want) {
		t.Errorf("wrapped: %s %q, want %q", cmd.Path, cmd.Args, want)
	}
	if Available() != nil {
		t.Skip("no " + Path)
	}
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	r, err := ReadReport(report)
	if err != nil {
		t.Fatal(err)
	}
	if r.ExitStatus != 0 || r.Signal != 0 || r.MaxRSS <= 0 {
		t.Errorf("report of /bin/true: %+v", r)
	}
}
