package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"mjscan/scoring"
	"mjscan/scoring/rulebook"
)

// maxLine bounds one JSON request line; longer lines get an error line.
const maxLine = 1 << 20

func cmdScore(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		jsonl   = fs.Bool("jsonl", false, "read CONTRACT hand requests (JSON lines) on stdin and write one result line each")
		asJSON  = fs.Bool("json", false, "print the result as CONTRACT JSON instead of text")
		rules   = fs.String("rules", "riichi", "rule set: "+strings.Join(rulebook.Names(), ", "))
		preset  = fs.String("preset", "", "rule preset (riichi: default, msmc-2016, sanma)")
		win     = fs.String("win", "", "the winning tile (default: the last tile of the hand)")
		tsumo   = fs.Bool("tsumo", false, "won by self-draw (default: on a discard)")
		seat    = fs.String("seat", "E", "seat wind: E, S, W or N")
		round   = fs.String("round", "E", "round wind: E, S, W or N")
		dora    = fs.String("dora", "", "dora indicators, e.g. 1m3z")
		ura     = fs.String("ura", "", "ura dora indicators")
		flowers = fs.String("flowers", "", "flowers and seasons set aside, e.g. 15f")
		nuki    = fs.Int("nuki", 0, "sanma: north winds set aside")
		honba   = fs.Int("honba", 0, "repeat counters")
		sticks  = fs.Int("sticks", 0, "riichi sticks on the table")
		options = fs.String("options", "", `rule options as JSON, e.g. '{"kiriage_mangan":true}'`)
	)
	flags := map[string]*bool{}
	for _, name := range []string{"riichi", "double-riichi", "ippatsu", "rinshan", "double-kong", "chankan", "haitei", "houtei", "tenhou", "chiihou", "renhou", "last-tile"} {
		flags[name] = fs.Bool(name, false, "situation: "+name)
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mjscan score HAND [flags]   or   mjscan score --jsonl\n\n"+
			"HAND is MPSZ with melds after commas: 22444m333567p44s  or  123m456p55s,666=z,1-23m\n"+
			"(marker after the called tile: - left, = across, + right; four tiles with no marker are a concealed kong)\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		return 2
	}
	if *jsonl {
		if err := scoreLines(stdin, stdout); err != nil {
			fmt.Fprintln(stderr, "mjscan score:", err)
			return 1
		}
		return 0
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	concealed, melds, err := scoring.ParseMPSZ(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "mjscan score: hand:", err)
		return 2
	}
	if *win != "" && (len(concealed)+3*len(melds))%3 == 1 {
		// A ready hand plus the winning tile given apart, as players say it.
		w, err := scoring.ParseTile(*win)
		if err != nil {
			fmt.Fprintln(stderr, "mjscan score: --win:", err)
			return 2
		}
		concealed = append(concealed, w)
	}
	if *win == "" && len(concealed) > 0 {
		*win = concealed[len(concealed)-1].String()
	}
	req := scoring.Request{
		ID: "cli", Rules: *rules, Preset: *preset, Hand: scoring.FormatTiles(concealed), WinTile: *win,
		Flowers: *flowers, Nuki: *nuki, DoraIndicators: *dora, UraDoraIndicators: *ura,
		Tsumo: *tsumo, SeatWind: *seat, RoundWind: *round, Honba: *honba, RiichiSticks: *sticks,
		Riichi: *flags["riichi"], DoubleRiichi: *flags["double-riichi"], Ippatsu: *flags["ippatsu"],
		Rinshan: *flags["rinshan"], DoubleKong: *flags["double-kong"], Chankan: *flags["chankan"],
		Haitei: *flags["haitei"], Houtei: *flags["houtei"], Tenhou: *flags["tenhou"], Chiihou: *flags["chiihou"],
		Renhou: *flags["renhou"], LastTileOfKind: *flags["last-tile"],
	}
	for _, m := range melds {
		req.Melds = append(req.Melds, scoring.MeldSpec{Type: m.Type.String(), Tiles: scoring.FormatTiles(m.Tiles), From: m.From.String()})
	}
	if *options != "" {
		if err := json.Unmarshal([]byte(*options), &req.Options); err != nil {
			fmt.Fprintln(stderr, "mjscan score: --options is not a JSON object:", err)
			return 2
		}
	}
	res := rulebook.Score(&req)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(res)
	} else {
		fmt.Fprint(stdout, renderResult(&req, &res))
	}
	if !res.OK {
		return 1
	}
	return 0
}

// flagsFirst lets flags follow positional arguments ("score HAND --win
// 4s"): Go's flag package stops at the first non-flag argument. A flag
// that is not boolean carries the next argument as its value.
func flagsFirst(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || len(a) == 1 {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") || i+1 >= len(args) {
			continue
		}
		if f := fs.Lookup(name); f != nil {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				flags = append(flags, args[i+1])
				i++
			}
		}
	}
	return append(flags, pos...)
}

// scoreLines is the CONTRACT batch surface: one result line per input
// line, in order, ids echoed; a bad line gets an error line.
func scoreLines(in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for {
		line, tooLong, err := readLine(r)
		if err != nil && err != io.EOF {
			return err
		}
		atEOF := err == io.EOF
		if atEOF && len(line) == 0 && !tooLong {
			return nil
		}
		var res scoring.Result
		switch {
		case tooLong:
			res = scoring.Result{Error: scoring.Errorf(scoring.CodeBadRequest, "line longer than %d bytes", maxLine)}
		case len(bytes.TrimSpace(line)) == 0:
			res = scoring.Result{Error: scoring.Errorf(scoring.CodeBadRequest, "empty line: want one JSON hand request per line")}
		default:
			res = rulebook.ScoreJSON(line)
		}
		if err := enc.Encode(res); err != nil {
			return err
		}
		if atEOF {
			return nil
		}
	}
}

// readLine reads one line without its newline; a line over maxLine is read
// to its end and reported as too long.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > maxLine {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return trimNewline(buf), tooLong, err
	}
}

func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

func cmdRules(w io.Writer) int {
	for _, name := range rulebook.Names() {
		e, _ := rulebook.Lookup(name)
		presets := e.Presets()
		sort.Strings(presets)
		fmt.Fprintf(w, "%-12s presets: %s\n", name, strings.Join(presets, ", "))
	}
	return 0
}
