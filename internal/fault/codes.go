package fault

// The service's problem codes beyond the CONTRACT's scoring codes (which
// scoring defines: bad_request, not_a_win, …). They are part of the API:
// a problem's type is urn:mjscan:problem:CODE.
const (
	CodeNotAPhoto       = "not_a_photo"
	CodeTooLarge        = "too_large"
	CodeBusy            = "busy"
	CodeTimeout         = "timeout"
	CodeNoRecognition   = "recognition_unavailable"
	CodeRecognition     = "recognition_failed"
	CodeNotFound        = "not_found"
	CodeUnsupportedType = "unsupported_media_type"
	CodeInternal        = "internal"
)
