package api

import (
	"embed"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"
)

// The phone web page: plain HTML, CSS and JavaScript, no build step.
//
//go:embed web
var webFS embed.FS

//go:embed openapi.json
var openAPIDoc []byte

func (s *Server) getOpenAPI(c echo.Context) error {
	return c.Blob(http.StatusOK, "application/json", openAPIDoc)
}

// pageCSP lets the page run its own script and style, show the photo the
// player picked (a blob: URL) or an overlay (data:), and talk to this
// service only. It has no inline script or style attribute to allow
// (TestPageWithinCSP keeps it so).
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func (s *Server) getIndex(c echo.Context) error {
	b, err := webFS.ReadFile("web/index.html")
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Security-Policy", pageCSP)
	return c.HTMLBlob(http.StatusOK, b)
}

func (s *Server) getWeb(c echo.Context) error {
	name := path.Clean("/" + c.Param("*"))
	if strings.Contains(name, "..") || name == "/" {
		return echo.ErrNotFound
	}
	b, err := fs.ReadFile(webFS, "web"+name)
	if err != nil {
		return echo.ErrNotFound
	}
	ct := mime.TypeByExtension(path.Ext(name))
	if ct == "" {
		ct = "application/octet-stream"
	}
	cache := "no-cache"
	if strings.HasPrefix(name, "/tiles/") {
		cache = "public, max-age=86400" // the tile pictures change only with a release
	}
	c.Response().Header().Set("Cache-Control", cache)
	return c.Blob(http.StatusOK, ct, b)
}
