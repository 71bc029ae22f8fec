package markdown

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	gtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// wordTagLine is a line that opens an HTML block of CommonMark's type 7 by
// marked's rule (marked 18, pi-tui's lexer): a complete open or close tag
// alone on its line, whose name may hold "_" (marked's [a-z][\w-]*, case
// folded). CommonMark and goldmark allow letters, digits and "-" only, so
// "<skill_instructions>" would be a paragraph there and a heading after it
// a heading; upstream prints the block literally (presenters.md §5.6).
var wordTagLine = regexp.MustCompile(`^ {0,3}(?:<([a-zA-Z][\w-]*)(?: +[a-zA-Z:_][\w.:-]*(?: *= *"[^"\n]*"| *= *'[^'\n]*'| *= *[^\s"'=<>` + "`" + `]+)?)* */?>|</([a-zA-Z][\w-]*)\s*>)[ \t]*\r?\n?$`)

// wordTagBlock parses the HTML blocks of wordTagLine whose tag name holds
// "_", which goldmark's own HTML block parser does not take; every other
// tag line is left to it. Like type 7, such a block cannot interrupt a
// paragraph, and it ends at a blank line.
type wordTagBlock struct{}

func (wordTagBlock) Trigger() []byte { return []byte{'<'} }

func (wordTagBlock) Open(parent ast.Node, reader gtext.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, segment := reader.PeekLine()
	m := wordTagLine.FindSubmatch(line)
	if m == nil || !strings.Contains(string(m[1])+string(m[2]), "_") {
		return nil, parser.NoChildren
	}
	name := strings.ToLower(string(m[1]) + string(m[2]))
	if name == "script" || name == "pre" || name == "style" || name == "textarea" {
		return nil, parser.NoChildren
	}
	node := ast.NewHTMLBlock(ast.HTMLBlockType7)
	reader.AdvanceToEOL()
	node.Lines().Append(segment)
	return node, parser.NoChildren
}

func (wordTagBlock) Continue(node ast.Node, reader gtext.Reader, pc parser.Context) parser.State {
	line, segment := reader.PeekLine()
	if util.IsBlank(line) {
		return parser.Close
	}
	node.Lines().Append(segment)
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (wordTagBlock) Close(node ast.Node, reader gtext.Reader, pc parser.Context) {}

func (wordTagBlock) CanInterruptParagraph() bool { return false }

func (wordTagBlock) CanAcceptIndentedLine() bool { return false }
