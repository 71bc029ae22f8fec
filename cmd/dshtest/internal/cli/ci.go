package cli

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dshtest/dshtest/harness"
	"github.com/dshtest/dshtest/harness/suitedir"
	"github.com/dshtest/dshtest/internal/ground/safefile"
	"github.com/dshtest/dshtest/internal/ground/words"
	"github.com/dshtest/dshtest/terminal/display"
)

// This file writes a run's failures for CI: JUnit XML (run --junit FILE),
// GitHub Actions annotations (run --github), and the structured failures
// of run --json.

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if s == "" {
		return "failed"
	}
	return s
}

// xmlText makes s safe for an XML document or a workflow command: the one
// escaper (display.Escape: control characters as \xNN, BiDi and other
// reordering characters as \uNNNN, invalid UTF-8 as U+FFFD), and the two
// noncharacters XML 1.0 forbids besides.
func xmlText(s string) string {
	return strings.NewReplacer("\ufffe", `\ufffe`, "\uffff", `\uffff`).Replace(display.Escape(s))
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure"`
	Skipped   *struct{}     `xml:"skipped"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes the run as JUnit XML: one test case per scenario, a
// failed one with one <failure> holding all its failures and their diffs
// (most reporters show only one failure element of a case); a failed
// inventory or setup is a test case of its own, named for what it is.
func writeJUnit(w io.Writer, res *harness.Result) error {
	s := junitSuite{Name: "dshtest scenarios", Time: seconds(res.Elapsed.Seconds())}
	for _, o := range res.Outcomes {
		c := junitCase{Name: xmlText(o.Name), Classname: "scenarios", File: xmlText(suitedir.ScenarioFile(o.Name)), Time: seconds(o.Elapsed.Seconds())}
		switch o.Status {
		case "fail":
			s.Failures++
			c.Failure = junitFailureOf(o.Failures)
		case "skip":
			s.Skipped++
			c.Skipped = &struct{}{}
		}
		s.Cases = append(s.Cases, c)
	}
	s.Tests = len(s.Cases)
	all := junitSuites{Suites: []junitSuite{s}, Time: s.Time}
	if len(res.Inventory) > 0 || res.Setup != "" {
		extra := junitSuite{Name: "dshtest suite checks", Time: "0"}
		if len(res.Inventory) > 0 {
			text := strings.Join(res.Inventory, "\n")
			extra.Cases = append(extra.Cases, junitCase{Name: "closed fixture inventory", Classname: "fixtures", Time: "0",
				Failure: &junitFailure{Message: xmlText(firstLine(text)), Type: "inventory", Text: xmlText(text)}})
		}
		if res.Setup != "" {
			extra.Cases = append(extra.Cases, junitCase{Name: "suite setup", Classname: "dshtest", Time: "0",
				Failure: &junitFailure{Message: xmlText(res.Setup), Type: "setup", Text: xmlText(res.Setup)}})
		}
		extra.Tests, extra.Failures = len(extra.Cases), len(extra.Cases)
		all.Suites = append(all.Suites, extra)
	}
	for _, su := range all.Suites {
		all.Tests += su.Tests
		all.Failures += su.Failures
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitFailureOf is a failed scenario's one <failure>: the first failure
// as its message (with how many more), every failure and its diff in its
// text, and its type snapshot, step, or scenario when it holds both.
func junitFailureOf(fs []harness.Failure) *junitFailure {
	var (
		head  string
		texts []string
		kinds = map[string]bool{}
	)
	for i, f := range fs {
		where := f.File
		if f.Line > 0 {
			where += ":" + strconv.Itoa(f.Line)
		}
		text := where + ": " + f.Message
		if i == 0 {
			head = text
		}
		if f.Diff != "" {
			text += "\n" + f.Diff
		}
		texts = append(texts, strings.TrimRight(text, "\n"))
		if f.Fixture != "" {
			kinds["snapshot"] = true
		} else {
			kinds["step"] = true
		}
	}
	if len(fs) > 1 {
		head += fmt.Sprintf(" (and %s)", words.Plural(len(fs)-1, "more failure"))
	}
	kind := "scenario"
	if len(kinds) == 1 {
		for k := range kinds {
			kind = k
		}
	}
	return &junitFailure{Message: xmlText(head), Type: kind, Text: xmlText(strings.Join(texts, "\n\n") + "\n")}
}

func seconds(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }

// writeJUnitFile writes the JUnit report to path atomically.
func writeJUnitFile(path string, res *harness.Result) error {
	var b strings.Builder
	if err := writeJUnit(&b, res); err != nil {
		return err
	}
	if err := safefile.WriteFile(path, []byte(b.String()), safefile.Options{Force: true}); err != nil {
		return fmt.Errorf("--junit %s: %w", path, err)
	}
	return nil
}

// writeGitHub prints one GitHub Actions error annotation per failure:
// "::error file=scenarios/X.txtar,line=N,title=…::message", the message's
// line breaks encoded as the workflow commands require. A file is named
// from the repository's root, as GitHub reads it: dir is the suite folder
// from there ("" or "." at the root).
func writeGitHub(w io.Writer, res *harness.Result, dir string) {
	for _, o := range res.Outcomes {
		for _, f := range o.Failures {
			props := "file=" + ghProp(path.Join(dir, f.File))
			if f.Line > 0 {
				props += ",line=" + strconv.Itoa(f.Line)
			}
			title := o.Name
			if f.Fixture != "" {
				title += ": " + f.Fixture
			}
			props += ",title=" + ghProp(title)
			msg := f.Message
			if f.Diff != "" {
				msg += "\n" + f.Diff
			}
			fmt.Fprintf(w, "::error %s::%s\n", props, ghData(msg))
		}
	}
	for _, e := range res.Inventory {
		fmt.Fprintf(w, "::error title=closed fixture inventory::%s\n", ghData(e))
	}
	if res.Setup != "" {
		fmt.Fprintf(w, "::error title=suite setup::%s\n", ghData(res.Setup))
	}
}

// githubDir is the suite folder root from the repository's root, as
// annotations name files: from $GITHUB_WORKSPACE (the checkout, in a
// workflow), else from the working directory; "" when root is not inside
// it.
func githubDir(root, workspace string) string {
	base := workspace
	if base == "" {
		var err error
		if base, err = os.Getwd(); err != nil {
			return ""
		}
	}
	rel, err := filepath.Rel(base, root)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// ghData escapes a workflow command's message; ghProp a property value.
func ghData(s string) string {
	return xmlText(strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s))
}

func ghProp(s string) string {
	return xmlText(strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s))
}
