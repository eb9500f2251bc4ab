package importers

import (
	"encoding/json"
	"fmt"
	"io"
)

// walker navigates a JSON stream token by token, decoding small values
// whole and leaving large ones to callbacks. Paths in its errors say where
// in the document a problem is.
type walker struct {
	d *json.Decoder
}

func newWalker(r io.Reader) *walker { return &walker{d: json.NewDecoder(r)} }

// object reads an object, calling fn for each key; fn must consume the value.
// A null is accepted as an empty object.
func (w *walker) object(path string, fn func(key string) error) error {
	t, err := w.d.Token()
	if err != nil {
		return tokenErr(path, err)
	}
	if t == nil {
		return nil
	}
	if t != json.Delim('{') {
		return fmt.Errorf("%s: expected an object, found %s", orRoot(path), describe(t))
	}
	for w.d.More() {
		t, err := w.d.Token()
		if err != nil {
			return tokenErr(path, err)
		}
		k, ok := t.(string)
		if !ok {
			return fmt.Errorf("%s: expected a key, found %s", orRoot(path), describe(t))
		}
		if err := fn(k); err != nil {
			return err
		}
	}
	if _, err := w.d.Token(); err != nil {
		return tokenErr(path, err)
	}
	return nil
}

// array reads an array, calling fn for each element; fn must consume it.
// A null is accepted as an empty array.
func (w *walker) array(path string, fn func(i int) error) error {
	t, err := w.d.Token()
	if err != nil {
		return tokenErr(path, err)
	}
	if t == nil {
		return nil
	}
	if t != json.Delim('[') {
		return fmt.Errorf("%s: expected an array, found %s", orRoot(path), describe(t))
	}
	for i := 0; w.d.More(); i++ {
		if err := fn(i); err != nil {
			return err
		}
	}
	if _, err := w.d.Token(); err != nil {
		return tokenErr(path, err)
	}
	return nil
}

// decode reads the next value into v.
func (w *walker) decode(path string, v any) error {
	if err := w.d.Decode(v); err != nil {
		return tokenErr(path, err)
	}
	return nil
}

// skip reads and drops the next value.
func (w *walker) skip(path string) error { return w.decode(path, &discard{}) }

// end checks that nothing but whitespace follows the document.
func (w *walker) end() error {
	t, err := w.d.Token()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return tokenErr("end of document", err)
	}
	return fmt.Errorf("unexpected %s after the end of the document", describe(t))
}

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

func describe(t json.Token) string {
	switch v := t.(type) {
	case nil:
		return "null"
	case json.Delim:
		switch v {
		case '{':
			return "an object"
		case '[':
			return "an array"
		}
		return fmt.Sprintf("%q", string(v))
	case string:
		return fmt.Sprintf("the string %q", clip([]byte(v)))
	case bool:
		return fmt.Sprintf("the boolean %v", v)
	default:
		return fmt.Sprintf("the number %v", v)
	}
}
