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

func (s *Server) getIndex(c echo.Context) error {
	b, err := webFS.ReadFile("web/index.html")
	if err != nil {
		return err
	}
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
	c.Response().Header().Set("Cache-Control", "no-cache")
	return c.Blob(http.StatusOK, ct, b)
}
