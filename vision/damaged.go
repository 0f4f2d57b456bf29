package vision

import "bytes"

// Truncated says whether a JPEG or PNG file ends before its picture does:
// an upload or a copy cut short. Decoders fill the missing part with grey
// and find no tiles there, so the photo is refused as damaged instead of
// answered "0 tiles". A file of another format, or whose structure is not
// understood, is not called truncated.
func Truncated(data []byte) bool {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		// IEND, its CRC, is the last chunk; nothing else ends with it.
		return !bytes.Contains(data, []byte("IEND\xaeB`\x82"))
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8}):
		return !jpegEnds(data)
	}
	return false
}

// jpegEnds walks a JPEG's segments (skipping each by its length, so that
// an embedded thumbnail's end marker is never taken for the photo's) and
// the entropy-coded data after each start of scan, where a 0xFF byte is
// always followed by 0x00 or a restart marker, to the end-of-image marker.
func jpegEnds(b []byte) bool {
	i := 2
	for i+1 < len(b) {
		if b[i] != 0xFF {
			return true // not a structure this reads: not called truncated
		}
		m := b[i+1]
		switch {
		case m == 0xFF: // fill byte
			i++
			continue
		case m == 0xD9: // end of image
			return true
		case m == 0x01 || (m >= 0xD0 && m <= 0xD7): // markers without a length
			i += 2
			continue
		}
		if i+3 >= len(b) {
			return false
		}
		next := i + 2 + (int(b[i+2])<<8 | int(b[i+3]))
		if m != 0xDA { // not a start of scan: skip the segment
			i = next
			continue
		}
		j := next
		for ; j+1 < len(b); j++ {
			if b[j] == 0xFF && b[j+1] != 0 && b[j+1] != 0xFF && (b[j+1] < 0xD0 || b[j+1] > 0xD7) {
				break
			}
		}
		i = j
	}
	return false
}
