package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// The referee's and the organiser's desks: pages beside the player's,
// under the same Content-Security-Policy. The staff token is typed into
// the page and kept in the tab's sessionStorage; the page sends it as the
// Authorization header, never in a URL.

func (s *Server) deskPage(file string) echo.HandlerFunc {
	return func(c echo.Context) error {
		b, err := webFS.ReadFile("web/" + file)
		if err != nil {
			return err
		}
		h := c.Response().Header()
		h.Set("Content-Security-Policy", pageCSP)
		h.Set("Cache-Control", "no-cache")
		h.Set("Referrer-Policy", "no-referrer")
		return c.HTMLBlob(http.StatusOK, b)
	}
}
