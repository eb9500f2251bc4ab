package view

import (
	"net/url"
	"strconv"
)

// partPath is where lazyPart fetches the body of a closed part.
func partPath(reportID int64, name, key string) string {
	p := "/reports/" + strconv.FormatInt(reportID, 10) + "/part/" + name
	if key != "" {
		p += "?key=" + url.QueryEscape(key)
	}
	return p
}
