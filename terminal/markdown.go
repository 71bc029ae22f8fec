package terminal

import "strings"

// markdown renders display-safe text with the small Markdown subset this
// renderer supports (see the package documentation): every source line is a
// line (paragraphs and hard line breaks are preserved as written), a fenced
// ``` block shows its info string, if any, as a row and its lines indented
// by two spaces in the code colour, followed by a blank row unless a blank
// line follows anyway, and `inline code` is shown without its backticks in
// the code colour. Everything else is literal text. base is the style of
// ordinary text; code keeps base's attributes.
func markdown(text string, base sty) []line {
	code := sty{fg: fgCode, at: base.at}
	var out []line
	inFence := false
	lines := strings.Split(text, "\n")
	for i, src := range lines {
		// A closing fence carries no info string: inside a block, a line
		// like "```[image]" is content, so no text is lost.
		if info, ok := fence(src); ok && (!inFence || info == "") {
			if !inFence && info != "" {
				out = append(out, textLine(info, base.with(atLabel)))
			}
			inFence = !inFence
			if !inFence && (i+1 == len(lines) || strings.TrimSpace(lines[i+1]) != "") {
				out = append(out, nil)
			}
			continue
		}
		if inFence {
			l := line{{text: "  ", st: base}}
			if src != "" {
				l = append(l, span{text: src, st: code})
			}
			out = append(out, l)
			continue
		}
		out = append(out, inlineCode(src, base, code))
	}
	return out
}

// fence reports whether src is a code fence line (up to three spaces of
// indentation, then ```), and returns its info string.
func fence(src string) (string, bool) {
	t := strings.TrimLeft(src, " ")
	if len(src)-len(t) > 3 || !strings.HasPrefix(t, "```") {
		return "", false
	}
	return strings.TrimSpace(strings.TrimLeft(t, "`")), true
}

// inlineCode splits one line into text and `code` spans.
func inlineCode(src string, base, code sty) line {
	var l line
	for src != "" {
		i := strings.IndexByte(src, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(src[i+1:], '`')
		if j <= 0 { // unclosed, or empty ``: literal
			if j < 0 {
				break
			}
			l = append(l, span{text: src[:i+2], st: base})
			src = src[i+2:]
			continue
		}
		if i > 0 {
			l = append(l, span{text: src[:i], st: base})
		}
		l = append(l, span{text: src[i+1 : i+1+j], st: code})
		src = src[i+2+j:]
	}
	if src != "" {
		l = append(l, span{text: src, st: base})
	}
	return l
}
