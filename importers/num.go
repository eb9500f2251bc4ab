package importers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// num is a JSON number as the benchmark tools write it: a number, null,
// a numeric string ("550"), or one of the infinities and NaN (as a bare
// token rewritten by sanitizer, or vLLM's string "inf").
type num struct {
	v   float64
	set bool // present and not null
}

// UnmarshalJSON implements json.Unmarshaler.
func (n *num) UnmarshalJSON(b []byte) error {
	*n = num{}
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	s := string(b)
	if b[0] == '"' {
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return err
		}
		switch strings.ToLower(strings.TrimSpace(str)) {
		case "inf", "+inf", "infinity", "+infinity":
			*n = num{v: math.Inf(1), set: true}
			return nil
		case "-inf", "-infinity":
			*n = num{v: math.Inf(-1), set: true}
			return nil
		case "nan":
			*n = num{v: math.NaN(), set: true}
			return nil
		}
		s = strings.TrimSpace(str)
	} else if b[0] != '-' && (b[0] < '0' || b[0] > '9') {
		return fmt.Errorf("expected a number, found %s", clip(b))
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return fmt.Errorf("number %s is out of range", clip([]byte(s)))
		}
		return fmt.Errorf("expected a number, found %s", clip(b))
	}
	*n = num{v: v, set: true}
	return nil
}

// clip shortens b for an error message.
func clip(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// lstr is a lenient string: a JSON string, or "" for null or any other type.
type lstr string

// UnmarshalJSON implements json.Unmarshaler.
func (s *lstr) UnmarshalJSON(b []byte) error {
	*s = ""
	if len(b) > 0 && b[0] == '"' {
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = lstr(v)
	}
	return nil
}
