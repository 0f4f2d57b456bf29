#!/usr/bin/env bash
# A classifier stage on a lent GPU machine (models/README.md, "Stage G1 on
# the GPU machine"). That machine has PyTorch, pip's OpenCV (no FreeType),
# numpy and onnx, but none of Debian's tile art and fonts, and a call carries
# at most 64 MiB. So:
#
#   bash models/train/gpu_stage.sh pack     # here: .gpu/ (about 42 MiB)
#   bash models/train/gpu_stage.sh aside    # testdata/, docs/, checkpoints/ out of the tree
#   # with the device tool: run "bash models/train/gpu_stage.sh run", carry [".gpu"]
#   bash models/train/gpu_stage.sh back     # and into it again
#
# pack records what synth.py reads from Debian's packages (synth_replay.py)
# and takes 540 of the 1,350 train photos (every second in name order, less
# every fifth of those), the dev photos and the proc-heldout design. run
# draws 15 x SCENES_N scenes (500: G1's 7,500 of seeds 100-109, 200-202,
# 300-301, 75 s; SEED_SHIFT=10 and SCENES_N=600 were G2's), and from
# SEED_SHIFT=20 on SCENES_N more of rows of backs and close-ups (seed
# 400 + SEED_SHIFT; they replay sealed from the packed atlas), on the
# machine's 16 cores, each process given GEN_S seconds, then trains from
# the shipped classifier (models/tile_classifier.onnx: G2 now, so a next
# stage takes SEED_SHIFT=20 or more; remaking G2 needs checkpoints/
# classifier-g1 copied there first) for BUDGET_S seconds of GPU time with
# 15 processes cutting the epochs (5-6 s an epoch) and leaves the state in
# $OUT/g.pt; export it here:
#   /usr/bin/python3 classifier.py --resume g.pt --width 2 --epochs 0 --lying 0.2 --limit 1 --out DIR
# The same recipe on this machine's CPU: `run` with --device cpu, --workers 1
# and --epochs 15 in place of --time-budget (not the same bytes; hours).
set -euo pipefail
cd "$(dirname "$0")/../.."
R=$PWD
TEN=default,classic,jade,smooth,postmodern,dorothys,dorothys2,dorwhite,dorwhite2,real
BIG="testdata docs models/train/checkpoints" ASIDE=${ASIDE:-$R/../.mjscan-gpu-aside}
case "${1:-}" in
photos)
	# the 540 train photos the stage carries (every second in name order,
	# less every fifth of those), copied into DIR; train.sh takes the same
	mkdir -p "${2:?usage: gpu_stage.sh photos DIR}"
	shared=$(cd models/train && /usr/bin/python3 -c 'from common import photos_dir; print(photos_dir())')
	ls "$shared/train"/*.jpg | sort | awk 'NR % 2 == 1' | awk 'NR % 5 != 0' | while read -r f; do
		cp "$f" "${f%.jpg}.txt" "$2/"
	done
	;;
aside)
	# the tracked folders a run needs not, out of the tree into $ASIDE, so
	# that what travels (tracked files and .gpu/) fits the call's 64 MiB
	[ ! -e "$ASIDE" ] || { echo "$ASIDE is there already: run 'gpu_stage.sh back' first" >&2; exit 1; }
	git diff --quiet HEAD -- $BIG || { echo "commit or stash the changes under $BIG first" >&2; exit 1; }
	mkdir -p "$ASIDE"
	for d in $BIG; do mkdir -p "$ASIDE/$(dirname "$d")" && mv "$d" "$ASIDE/$d"; done
	# (du: the files moved aside are missing, hence || true)
	size=$( { git ls-files -z | xargs -0 -r du -cb 2>/dev/null || true; du -sb .gpu 2>/dev/null || true; } |
		awk '$2 == "total" || $2 == ".gpu" {s += $1} END {print s + 0}')
	echo "aside in $ASIDE; what travels: $((size / 1048576)) MiB of 64 (.gpu/ included); 'gpu_stage.sh back' puts it back"
	;;
back)
	[ -d "$ASIDE" ] || { echo "nothing aside ($ASIDE)" >&2; exit 1; }
	for d in $BIG; do
		[ ! -e "$d" ] || { echo "$d is in the tree already; $ASIDE/$d stays where it is" >&2; exit 1; }
	done
	for d in $BIG; do mv "$ASIDE/$d" "$d"; done
	rm -rf "$ASIDE"
	git status --short -- $BIG | head -5
	echo "back from $ASIDE"
	;;
pack)
	PY=/usr/bin/python3
	G=$R/.gpu W=$(mktemp -d)
	trap 'rm -rf "$W"' EXIT
	rm -rf "$G" && mkdir -p "$G/photos/train"
	shared=$(cd models/train && $PY -c 'from common import photos_dir; print(photos_dir())')
	cd models/train
	$PY synth_replay.py record "$G/atlas.pkl.gz" -- scenes --sets proc --rare train --variety --n 300 --seed 31 --out "$W/a"
	$PY synth_replay.py record "$G/atlas.pkl.gz" -- scenes --sets $TEN --rare train --variety --n 200 --seed 3 --out "$W/b"
	$PY synth_replay.py record "$G/atlas.pkl.gz" --complete -- scenes --sets $TEN --rare train --variety --dark 0.35 --n 200 --seed 21 --out "$W/c"
	bash "$R/models/train/gpu_stage.sh" photos "$G/photos/train"
	cp -r "$shared/dev" "$G/photos/dev"
	cp -r "$R/testdata/synth/proc-heldout" "$G/proc-heldout"
	du -sh "$G"
	;;
run)
	export PYTHONUNBUFFERED=1
	# pip's OpenCV keeps a thread pool that a forked worker inherits locked:
	# with more than one OpenCV thread the epoch workers hang for good.
	export OPENCV_FOR_THREADS_NUM=1
	G=$R/.gpu S=/tmp/scenes OUT=${OUT:-/tmp/gpu-out}
	# scenes a process and the seeds' shift: G1 drew 500 of seeds 100-109,
	# 200-202, 300-301 (the defaults); G2 600 of 110-119, 210-212, 310-311
	N=${SCENES_N:-500} SHIFT=${SEED_SHIFT:-0}
	GEN_S=${GEN_S:-$((N / 4 + 40))}   # a process's scenes take about N / 6 s
	mkdir -p "$OUT" shared/data && ln -sfn "$G/photos" shared/data/photos
	nvidia-smi -L || true
	python3 -c "import torch, cv2, numpy; print(torch.__version__, cv2.__version__, numpy.__version__, torch.cuda.is_available())"
	cd models/train
	gen() { timeout "$GEN_S" python3 synth_replay.py replay "$G/atlas.pkl.gz" -- scenes "$@" >/dev/null 2>>"$OUT/gen.log" || true; }
	if [ ! -d $S/p0 ]; then
		for i in $(seq 0 9); do gen --sets proc --rare train --variety --n $N --seed $((100 + SHIFT + i)) --out $S/p$i & done
		for i in 0 1 2; do gen --sets $TEN --rare train --variety --n $N --seed $((200 + SHIFT + i)) --out $S/t$i & done
		for i in 0 1; do gen --sets $TEN --rare train --variety --dark 0.35 --n $N --seed $((300 + SHIFT + i)) --out $S/d$i & done
		# rows of touching backs and close-ups (the broad detector's B3
		# scenes' kinds), from SEED_SHIFT 20 on: G1 and G2 drew none
		if [ "$SHIFT" -ge 20 ]; then
			gen --sets $TEN,proc --rare train --variety --dark 0.3 --kinds backs,close --n $N --seed $((400 + SHIFT)) --out $S/k0 &
		fi
		wait
	fi
	for f in $S/*/*.jpg; do [ -f "${f%.jpg}.txt" ] || rm -f "$f"; done
	n=$(ls $S/*/*.jpg | wc -l)
	echo "scenes: $n"
	[ "$n" -ge 1500 ] || { echo "too few scenes: see $OUT/gen.log"; exit 3; }
	python3 classifier.py --from-onnx ../tile_classifier.onnx --width 2 --lr "${LR:-2e-4}" --jitter wide --turn 0.35 --lying 0.2 \
		--rare-boost 2.5 --synthetic "$(ls -d $S/* | paste -sd,)" --synthetic-per-epoch 24000 --set-contrast 1.0 \
		--contrast-scenes 4 --contrast-tiles 12 --heldout "$G/proc-heldout" --structure 1.0 --detector-boxes ../tile_detector.onnx \
		--device cuda --workers 15 --time-budget "${BUDGET_S:-90}" --no-export --save "$OUT/g.pt" --out /tmp/gout 2>&1 | tee "$OUT/train.log"
	;;
*)
	echo "usage: gpu_stage.sh pack|aside|run|back|photos DIR" >&2
	exit 2
	;;
esac
