package web

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"
)

// flashCookie carries a one-time message to the page a form post
// redirects to. A cookie, not a query parameter, so that a link from
// elsewhere cannot make the app say something it did not.
const flashCookie = "capplan_flash"

// setFlash keeps msg for the next page this browser shows.
func setFlash(c echo.Context, msg string) {
	c.SetCookie(&http.Cookie{Name: flashCookie, Value: url.QueryEscape(msg), Path: "/", MaxAge: 60,
		HttpOnly: true, SameSite: http.SameSiteLaxMode})
}

// takeFlash returns the pending message, if any, and clears it.
func takeFlash(c echo.Context) string {
	ck, err := c.Cookie(flashCookie)
	if err != nil || ck.Value == "" {
		return ""
	}
	c.SetCookie(&http.Cookie{Name: flashCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	msg, _ := url.QueryUnescape(ck.Value)
	return msg
}

// redirectFlash answers a form post with a redirect and a message to show
// there.
func redirectFlash(c echo.Context, to, msg string) error {
	setFlash(c, msg)
	return redirect(c, to)
}
