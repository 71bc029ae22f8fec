package markdown

import "strings"

// goldmark parses a few shapes of Markdown in time that grows with the
// square of their size: containers nested on one line ("> > > …",
// "- - - …": every level scans the rest of the line again), link or image
// destinations that never close ("![](![](…": every opener scans to the
// end of the paragraph) and link reference definitions ("[a]: url" lines:
// each one taken from its paragraph copies the rest). A prompt of 100 KB
// of them took minutes to draw, in every command that draws it. No
// written text holds them in such numbers, so a text that does is drawn
// as plain text, its source as written.

// maxLineNest is the most container markers (">", a bullet, an ordered
// list's number) one line may open before the text is drawn plain; the
// renderer draws maxNest levels of them.
const maxLineNest = 8 * maxNest

// maxTextMarkers is the most container markers a whole text may hold
// before it is drawn plain: every one is a node or two of goldmark's tree,
// and lines each just under maxLineNest had made a 2.6 MB prompt a tree of
// over half a gigabyte. A written text, however long its lists, holds far
// fewer.
const maxTextMarkers = 1 << 16

// maxOpenDestinations is the most link or image destinations ("](") a text
// may open, and the most lines that may read as link reference
// definitions, before it is drawn plain.
const maxOpenDestinations = 4096

// tangled reports whether text holds more of those shapes than a written
// text does: a line opening more than maxLineNest containers, more than
// maxTextMarkers container markers in all, or more than
// maxOpenDestinations destinations or definitions.
func tangled(text string) bool {
	if len(text) < maxLineNest/2 {
		return false // too short to hold either (a tab is two levels)
	}
	if strings.Count(text, "](") > maxOpenDestinations {
		return true
	}
	defs, markers := 0, 0
	for line := range strings.SplitSeq(text, "\n") {
		n, levels := lineNest(line)
		if levels > maxLineNest {
			return true
		}
		if markers += n; markers > maxTextMarkers {
			return true
		}
		if t := strings.TrimLeft(line, " "); len(line)-len(t) <= 3 && strings.HasPrefix(t, "[") && strings.Contains(t, "]:") {
			if defs++; defs > maxOpenDestinations {
				return true
			}
		}
	}
	return false
}

// lineNest counts the containers line opens or continues: its markers
// (quote markers, bullets and ordered list numbers), and in levels those
// and a level for every two columns of indentation (a list nested by
// indentation; a tab is four columns). It stops counting past maxLineNest
// levels.
func lineNest(line string) (markers, levels int) {
	n, cols := 0, 0
	for i := 0; i < len(line); {
		if n+cols/2 > maxLineNest {
			return n, n + cols/2
		}
		switch c := line[i]; {
		case c == ' ':
			cols++
			i++
		case c == '\t':
			cols += 4
			i++
		case c == '>':
			n++
			i++
			if i < len(line) && line[i] == ' ' {
				i++ // the marker's own blank
			}
		case (c == '-' || c == '*' || c == '+') && i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t'):
			n++
			i += 2
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j+1 < len(line) && (line[j] == '.' || line[j] == ')') && (line[j+1] == ' ' || line[j+1] == '\t') {
				n++
				i = j + 2
				continue
			}
			return n, n + cols/2
		default:
			return n, n + cols/2
		}
	}
	return n, n + cols/2
}

// drawnPlain reports whether text is drawn as plain text: it is
// (plainMarkdown), or it is too tangled to parse (tangled).
func drawnPlain(text string) bool { return plainMarkdown(text) || tangled(text) }
