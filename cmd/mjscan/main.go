// Command mjscan reads photos of mahjong tables and scores hands.
//
//	mjscan score "22444m333567p44s" --win 4s --tsumo --seat S
//	mjscan score --jsonl < requests.jsonl > results.jsonl
//	mjscan recognize photo.jpg --overlay out.png
//	mjscan calibrate grid.jpg --out bank.mjb
//	mjscan serve --addr 127.0.0.1:8080
package main

import (
	"fmt"
	"os"
)

const usage = `mjscan: photos of mahjong hands in, verified scores out.

Commands:
  score HAND [flags]     score one hand and explain it (mjscan score -h)
  score --jsonl          CONTRACT hand requests on stdin, results on stdout
  recognize PHOTO        find and read the tiles in a photo (--overlay out.png)
  recognize --jsonl      {"id","path"} lines on stdin, recognitions on stdout
  calibrate PHOTO        build a template bank from a photo of your own tiles in
                         the documented grid (--out bank.mjb); read with it by
                         recognize --bank bank.mjb (serve: MJSCAN_BANK)
  serve [--addr H:P]     the HTTP API and phone page (settings: MJSCAN_* variables)
  rules                  list the rule sets and their presets
  version                print the engine version

Run 'mjscan COMMAND -h' for a command's flags.
`

// version is the engine version reported with every result.
const version = "0.1.0"

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		return cmdServe(args[1:], os.Stderr)
	case "score":
		return cmdScore(args[1:], os.Stdin, os.Stdout, os.Stderr)
	case "recognize":
		return cmdRecognize(args[1:], os.Stdin, os.Stdout, os.Stderr)
	case "calibrate":
		return cmdCalibrate(args[1:], os.Stdout, os.Stderr)
	case "rules":
		return cmdRules(os.Stdout)
	case "version":
		fmt.Println("mjscan", version)
		return 0
	case "-h", "--help", "help":
		fmt.Print(usage)
		return 0
	}
	fmt.Fprintf(os.Stderr, "mjscan: unknown command %q\n\n%s", args[0], usage)
	return 2
}
