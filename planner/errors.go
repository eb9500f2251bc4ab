package planner

import "strings"

// FieldError is a refused input: which field and what is wrong with it.
// Field is the key the forms use, e.g. "self_hosted.labour_rate" or
// "scenarios[1].busy_hour_share"; the error text names it by its label
// (FieldLabel): "Operator labour loaded rate: operator labour must be typed".
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (e *FieldError) Error() string { return FieldLabel(e.Field) + ": " + e.Message }

// FieldErrors is every refused input of one validation, in order.
type FieldErrors []*FieldError

func (es FieldErrors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

// err returns es as an error, or nil when it is empty.
func (es FieldErrors) err() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

func (es *FieldErrors) add(field, msg string) {
	*es = append(*es, &FieldError{Field: field, Message: msg})
}
