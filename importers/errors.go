package importers

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// truncatedError is a document that ends before it is complete; Path is
// where the reader was ("" at the top level). It unwraps to
// io.ErrUnexpectedEOF.
type truncatedError struct{ Path string }

func (e *truncatedError) Error() string {
	switch {
	case e.Path == "":
		return "the file is cut off (truncated): export it again"
	case strings.HasPrefix(e.Path, "line "):
		return "the file is cut off (truncated) at " + e.Path + ": export it again"
	}
	return "the file is cut off (truncated) inside " + e.Path + ": export it again"
}

func (e *truncatedError) Unwrap() error { return io.ErrUnexpectedEOF }

// tokenErr describes a decoding error at path in words; truncation keeps
// io.ErrUnexpectedEOF in the chain.
func tokenErr(path string, err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return &truncatedError{Path: path}
	}
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		p := path
		if te.Field != "" {
			p += "." + te.Field
		}
		return fmt.Errorf("%s: wrong type: expected %s, found JSON %s", orRoot(p), te.Type, te.Value)
	}
	if se, ok := err.(*json.SyntaxError); ok {
		if strings.Contains(se.Error(), "exceeded max depth") {
			return fmt.Errorf("%s: nested deeper than %d levels: not a benchmark result", orRoot(path), maxDepth)
		}
		why := strings.TrimPrefix(se.Error(), "invalid character ")
		return fmt.Errorf("%s: not valid JSON at byte %d (unexpected %s)", orRoot(path), se.Offset, why)
	}
	return fmt.Errorf("%s: %w", orRoot(path), err)
}

func orRoot(p string) string {
	if p == "" {
		return "top level"
	}
	return p
}
