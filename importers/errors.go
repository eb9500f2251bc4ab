package importers

import (
	"encoding/json"
	"fmt"
	"io"
)

// tokenErr describes a decoding error at path; truncation keeps
// io.ErrUnexpectedEOF in the chain.
func tokenErr(path string, err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if err == io.ErrUnexpectedEOF {
		return fmt.Errorf("%s: file ends in the middle of the document: %w", orRoot(path), err)
	}
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		p := path
		if te.Field != "" {
			p += "." + te.Field
		}
		return fmt.Errorf("%s: wrong type: expected %s, found JSON %s", orRoot(p), te.Type, te.Value)
	}
	if se, ok := err.(*json.SyntaxError); ok {
		return fmt.Errorf("%s: invalid JSON at byte %d: %w", orRoot(path), se.Offset, err)
	}
	return fmt.Errorf("%s: %w", orRoot(path), err)
}

func orRoot(p string) string {
	if p == "" {
		return "top level"
	}
	return p
}
