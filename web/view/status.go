package view

import (
	"net/http"
	"strconv"
)

// StatusText is an error page's heading: what happened, in words a user
// reads (not the protocol's reason phrase: "Conflict").
func StatusText(code int) string {
	switch code {
	case http.StatusNotFound:
		return "Not found" // sentence case, as every heading
	case http.StatusConflict:
		return "Not done: the report has changed or is locked"
	case http.StatusUnprocessableEntity:
		return "Not accepted"
	case http.StatusForbidden:
		return "Not allowed"
	case http.StatusRequestEntityTooLarge:
		return "Too large"
	case http.StatusBadRequest:
		return "Not understood"
	case http.StatusInternalServerError:
		return "Something went wrong"
	case http.StatusUnauthorized:
		return "Log in first"
	case http.StatusMethodNotAllowed:
		return "This address does not take that request"
	case http.StatusTooManyRequests:
		return "Too many requests at once"
	case http.StatusServiceUnavailable:
		return "Busy: nothing was changed"
	}
	if code >= 500 {
		return "Something went wrong"
	}
	if t := http.StatusText(code); t != "" {
		return t
	}
	return "Error " + strconv.Itoa(code)
}
