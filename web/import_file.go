package web

import (
	"errors"
	"io/fs"
	"mime"
	"net/http"

	"github.com/labstack/echo/v4"
)

// importFile sends an import's raw file back, byte for byte, under its
// original name: the evidence behind the report's figures.
func (s *Server) importFile(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	iid, err := idParam(c, "iid")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if _, err := s.store.Report(ctx, id); err != nil {
		return err
	}
	im, err := s.store.ImportByID(ctx, id, iid)
	if err != nil {
		return err
	}
	f, err := s.svc.OpenRaw(im.SHA256)
	if errors.Is(err, fs.ErrNotExist) {
		return echo.NewHTTPError(http.StatusNotFound, "The raw file of "+im.FileName+" is not in the data folder.")
	}
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": im.FileName}))
	h.Set("X-Content-SHA256", im.SHA256)
	http.ServeContent(c.Response(), c.Request(), "", st.ModTime(), f)
	return nil
}
