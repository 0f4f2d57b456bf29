#!/bin/sh
# Rebuild every shipped model from scratch (make train). CPU only, fixed
# seeds; each stage resumes from the one before with a lower learning rate.
# Needs (scripts/setup.sh --train installs them) Debian's python3-torch, python3-numpy, python3-opencv and
# python3-onnx, librsvg2-bin, kdegames-mahjongg-data-kf5 and fonts-noto-cjk,
# and shared/data/photos beside the repository. Writes models/*.onnx and
# their manifests; then run `go test ./vision/ ./models/` and
# `bin/mjscan recognize --eval ../shared/data/photos/dev`.
# `make train-check` shows on a small slice that a stage run twice gives
# the same bytes.
set -e
cd "$(dirname "$0")"
PY="nice -n 10 /usr/bin/python3 -u"
W=${TMPDIR:-/tmp}/mjscan-train
mkdir -p "$W"
# Synthetic scenes of the three training tile sets (synth.py, SYNTH.md):
# backs, sideways tiles, red fives, kings/queens and jokers, which the
# photos do not have. The held-out set (testdata/synth/heldout) uses another
# tile set and drawing style.
$PY synth.py scenes --sets default,classic,jade --rare train --n 1500 --seed 1 --out "$W/synth"
$PY synth.py scenes --sets default,classic,jade --rare train --variety --n 1500 --seed 1 --out "$W/synth2"
# ... and of those three with seven more tile sets cut from the
# gnome-mahjongg and xmahjongg sheets (synth_raster.py).
$PY synth.py scenes --sets default,classic,jade,smooth,postmodern,dorothys,dorothys2,dorwhite,dorwhite2,real --rare train --variety --n 3000 --seed 3 --out "$W/synth3"
# Detector: five stages on the photos; the classifier learns from the boxes
# of the fifth (d5). Then the synthetic scenes are mixed in, 40% of each
# batch (tiles cut by a scene's edge are taught as background: the photos
# leave such tiles unlabelled), and two short stages with 10% and 5% bring
# the real photos' precision back.
$PY detector.py --epochs 10 --save "$W/det1.pt"
$PY detector.py --resume "$W/det1.pt" --epochs 14 --lr 1e-3 --save "$W/det2.pt"
$PY detector.py --resume "$W/det2.pt" --epochs 10 --lr 5e-4 --save "$W/det3.pt"
$PY detector.py --resume "$W/det3.pt" --epochs 10 --lr 3e-4 --save "$W/det4.pt"
$PY detector.py --resume "$W/det4.pt" --epochs 10 --lr 2e-4 --decode-threshold 0.15 --save "$W/det5.pt" --out "$W/d5"
$PY detector.py --resume "$W/det5.pt" --epochs 12 --lr 5e-4 --synthetic "$W/synth2,$W/synth3" --synthetic-share 0.4 --decode-threshold 0.15 --save "$W/det6.pt" --out "$W/d6"
$PY detector.py --resume "$W/det6.pt" --epochs 4 --lr 2e-4 --synthetic "$W/synth2,$W/synth3" --synthetic-share 0.1 --decode-threshold 0.15 --save "$W/det7.pt" --out "$W/d7"
$PY detector.py --resume "$W/det7.pt" --epochs 3 --lr 1e-4 --synthetic "$W/synth2,$W/synth3" --synthetic-share 0.05 --decode-threshold 0.15 --save "$W/det8.pt"
# The broad detector a taught set reads with: the shipped one, 8 more
# epochs with 40% of each batch from drawn sets (synth_proc.py), the ten
# sets and dark-fronted tiles, windows scaled 0.5-1.6 (smaller tiles). It
# finds more tiles of sets the photos never showed and fewer of theirs
# (models/README.md, "A broad detector for taught sets").
$PY synth.py scenes --sets proc --rare train --variety --n 600 --seed 31 --out "$W/proc1"
$PY synth.py scenes --sets proc --rare train --variety --n 1200 --seed 32 --out "$W/proc2"
TEN=default,classic,jade,smooth,postmodern,dorothys,dorothys2,dorwhite,dorwhite2,real
$PY synth.py scenes --sets $TEN --rare train --variety --n 750 --seed 3 --out "$W/synth3s"
$PY synth.py scenes --sets $TEN --rare train --variety --dark 0.35 --n 750 --seed 21 --out "$W/synth4-0"
$PY synth.py scenes --sets $TEN --rare train --variety --dark 0.35 --n 750 --seed 22 --out "$W/synth4-1"
$PY detector.py --init-onnx ../tile_detector.onnx --name broad_detector --epochs 8 --lr 3e-4 --scale 0.5,1.6 \
	--synthetic "$W/proc1,$W/synth3s,$W/synth4-0,$W/synth4-1,$W/proc2" --synthetic-share 0.4 --decode-threshold 0.15 --save "$W/broad.pt"
# B3, shipped: 30 epochs more with half of each batch drawn, adding rows of
# touching backs and close-ups of large tiles (--kinds); chosen among five
# such stages on the validation designs, scripts/validate.sh (models/README.md,
# "Doubtful backs and blank dragons" and "A validation design").
$PY synth.py scenes --sets $TEN,proc --rare train --variety --dark 0.3 --kinds backs,close --n 1000 --seed 41 --out "$W/kinds1"
$PY detector.py --init-onnx ../broad_detector.onnx --name broad_detector --epochs 30 --lr 2e-4 --scale 0.5,1.6 \
	--synthetic "$W/proc1,$W/synth3s,$W/synth4-0,$W/synth4-1,$W/proc2,$W/kinds1" --synthetic-share 0.5 --decode-threshold 0.15 --save "$W/broad3.pt"
# Classifier: the photos' crops with tilted tiles; then also the boxes the
# detector finds in the photos and the synthetic scenes' crops (every code
# about equally likely).
$PY classifier.py --epochs 10 --lr 3e-3 --jitter wide --turn 0.35 --save "$W/cls1.pt"
$PY classifier.py --resume "$W/cls1.pt" --epochs 4 --lr 1e-3 --jitter wide --turn 0.35 --synthetic "$W/synth" --detector-boxes "$W/d5/tile_detector.onnx" --save "$W/cls2.pt"
$PY classifier.py --resume "$W/cls2.pt" --epochs 4 --lr 4e-4 --jitter wide --turn 0.35 --synthetic "$W/synth" --detector-boxes "$W/d5/tile_detector.onnx" --save "$W/cls3.pt"
$PY classifier.py --resume "$W/cls3.pt" --epochs 5 --lr 6e-4 --jitter wide --turn 0.35 --synthetic "$W/synth2" --synthetic-per-epoch 12000 --detector-boxes "$W/d5/tile_detector.onnx" --save "$W/cls4.pt"
$PY classifier.py --resume "$W/cls4.pt" --epochs 5 --lr 4e-4 --jitter wide --turn 0.35 --synthetic "$W/synth2" --synthetic-per-epoch 12000 --detector-boxes "$W/d5/tile_detector.onnx" --save "$W/cls5.pt"
# Then the ten-set scenes, places where no tile is (a not-a-tile output,
# used in training only) and tiles lying across their crops (the
# lying-across output the rotated flag reads).
$PY classifier.py --resume "$W/cls5.pt" --epochs 5 --lr 6e-4 --jitter wide --turn 0.35 --lying 0.2 --negatives 6000 --synthetic "$W/synth3" --synthetic-per-epoch 16000 --detector-boxes "$W/d5/tile_detector.onnx" --save "$W/cls6.pt"
# Two more stages with three times the synthetic crops: the net underfitted
# the scenes (it read 28% of the training scenes' own kings/queens right);
# the last one draws kings/queens and jokers 2.5 times as often.
$PY classifier.py --resume "$W/cls6.pt" --epochs 6 --lr 1.5e-3 --jitter wide --turn 0.35 --lying 0.2 --negatives 6000 --synthetic "$W/synth3" --synthetic-per-epoch 48000 --detector-boxes "$W/d5/tile_detector.onnx" --save "$W/cls7.pt"
$PY classifier.py --resume "$W/cls7.pt" --epochs 4 --lr 1e-3 --jitter wide --turn 0.35 --lying 0.2 --negatives 6000 --synthetic "$W/synth3" --synthetic-per-epoch 48000 --rare-boost 2.5 --detector-boxes "$W/d5/tile_detector.onnx" --save "$W/cls8.pt"
# Stage 9: the same net twice as wide (32-64-128-256 channels), started
# from stage 8 by copying each channel (Net2WiderNet: it computes the same
# function) and trained on: the narrow net had stopped gaining.
$PY classifier.py --resume "$W/cls8.pt" --widen 2 --width 2 --epochs 2 --lr 1e-3 --jitter wide --turn 0.35 --lying 0.2 --negatives 6000 --synthetic "$W/synth3" --synthetic-per-epoch 48000 --rare-boost 2.5 --detector-boxes "$W/d5/tile_detector.onnx" --save "$W/cls9.pt"
$PY calibrate_confidence.py
# The classifier stages toward tile sets no training saw (issue 17;
# models/README.md, sections from "The long run toward unseen designs" to
# "Boxes with no tile face, and S11 again"). Each starts from the exported
# network of the stage before (--from-onnx: BatchNorm folded and frozen),
# with drawn faces (synth_proc.py), the ten sets and dark-fronted tiles
# beside the photos. Stage 9 above is the first of them; S11, the last, is
# the shipped classifier. A manifest's `last_stage` names the /tmp folders
# of the runs that made them; train.sh names them $W/... (same seeds, same
# scenes): /tmp/mjscan-proc/train is $W/proc1, /tmp/mjscan-l12/proc2
# $W/proc2, /tmp/mjscan-s4/proc3 $W/proc3, /tmp/mjscan-s9/proc4 $W/proc4.
$PY synth.py scenes --sets proc --rare train --variety --n 1200 --seed 33 --out "$W/proc3"
$PY synth.py scenes --sets proc --rare train --variety --n 1200 --seed 34 --out "$W/proc4"
S="$W/proc1,$W/synth3s,$W/synth4-0,$W/synth4-1"
CLS="--width 2 --jitter wide --turn 0.35 --lying 0.2 --rare-boost 2.5 --heldout ../../testdata/synth/proc-heldout"
SET="--contrast-scenes 4 --contrast-tiles 12"
# Detector stages da-dc, whose boxes of the train photos stage B learns from.
$PY detector.py --init-onnx ../tile_detector.onnx --epochs 8 --lr 3e-4 --scale 0.5,1.6 --synthetic "$S,$W/proc2" --synthetic-share 0.4 --decode-threshold 0.15 --out "$W/da"
$PY detector.py --init-onnx "$W/da/tile_detector.onnx" --epochs 4 --lr 1.5e-4 --synthetic "$S,$W/proc2" --synthetic-share 0.15 --decode-threshold 0.15 --out "$W/db"
$PY detector.py --init-onnx "$W/db/tile_detector.onnx" --epochs 3 --lr 1e-4 --synthetic "$S,$W/proc2" --synthetic-share 0.05 --decode-threshold 0.15 --out "$W/dc"
# c11, A, B (checkpoints/classifier-b)
$PY classifier.py --from-onnx ../tile_classifier.onnx $CLS --epochs 1 --lr 3e-4 --synthetic "$W/proc1,$W/synth3s,$W/synth4-0" --synthetic-per-epoch 20000 --out "$W/c11"
$PY classifier.py --from-onnx "$W/c11/tile_classifier.onnx" $CLS --epochs 3 --lr 3e-4 --synthetic "$S" --synthetic-per-epoch 24000 --out "$W/a"
$PY classifier.py --from-onnx "$W/a/tile_classifier.onnx" $CLS --epochs 3 --lr 2e-4 --synthetic "$S,$W/proc2" --synthetic-per-epoch 28000 --detector-boxes "$W/dc/tile_detector.onnx" --out "$W/b"
# S, S2, S3 (checkpoints/classifier-s2, -s3): the within-set contrastive loss
$PY classifier.py --from-onnx "$W/b/tile_classifier.onnx" $CLS --epochs 2 --lr 1e-4 --synthetic "$S,$W/proc2" --synthetic-per-epoch 24000 --set-contrast 0.5 $SET --out "$W/s"
$PY classifier.py --from-onnx "$W/s/tile_classifier.onnx" $CLS --epochs 2 --lr 1e-4 --synthetic "$S,$W/proc2" --synthetic-per-epoch 24000 --set-contrast 1.0 $SET --out "$W/s2"
$PY classifier.py --from-onnx "$W/s2/tile_classifier.onnx" $CLS --epochs 2 --lr 1e-4 --synthetic "$S,$W/proc2" --synthetic-per-epoch 24000 --set-contrast 1.0 $SET --out "$W/s3"
# S4, S5 (checkpoints/classifier-s5): 1,200 more drawn sets
S45="$W/proc1,$W/synth3s,$W/synth4-0,$W/proc2,$W/proc3"
$PY classifier.py --from-onnx "$W/s3/tile_classifier.onnx" $CLS --epochs 2 --lr 1e-4 --synthetic "$S45" --synthetic-per-epoch 24000 --set-contrast 1.0 $SET --out "$W/s4"
$PY classifier.py --from-onnx "$W/s4/tile_classifier.onnx" $CLS --epochs 2 --lr 1e-4 --synthetic "$S45" --synthetic-per-epoch 24000 --set-contrast 1.0 $SET --out "$W/s5"
# S9, S10 (checkpoints/classifier-s10): 1,200 more, the structure outputs,
# then the shipped detector's boxes of the train photos
S9="$S45,$W/proc4"
$PY classifier.py --from-onnx "$W/s5/tile_classifier.onnx" $CLS --epochs 2 --lr 1e-4 --synthetic "$S9" --synthetic-per-epoch 36000 --set-contrast 1.0 $SET --structure 1.0 --out "$W/s9"
$PY classifier.py --from-onnx "$W/s9/tile_classifier.onnx" $CLS --epochs 1 --lr 1e-4 --synthetic "$S9" --synthetic-per-epoch 24000 --set-contrast 1.0 $SET --structure 1.0 --detector-boxes ../tile_detector.onnx --out "$W/s10"
# S11 (checkpoints/classifier-s11): two more epochs with the detector's boxes at a lower rate
$PY classifier.py --from-onnx "$W/s10/tile_classifier.onnx" $CLS --epochs 2 --lr 7e-5 --synthetic "$S9" --synthetic-per-epoch 16000 --set-contrast 1.0 $SET --structure 1.0 --detector-boxes ../tile_detector.onnx --out "$W/s11"
# The GPU stages (gpu_stage.sh run; models/README.md, "Stage G1 on the GPU
# machine" and "Stage G2 ..."), here on the CPU in order: --epochs for
# --time-budget, the same data and schedule's length, not the same bytes.
# gscenes DIR N SHIFT draws a stage's scenes as gpu_stage.sh run does (15 x
# N: drawn sets of seeds 100-109, ten-set 200-202, dark-fronted 300-301,
# each shifted by SHIFT); gstage FROM EPOCHS DIR [ARGS] trains on them beside
# the 540 train photos gpu_stage.sh takes.
gscenes() {
	for i in $(seq 0 9); do $PY synth.py scenes --sets proc --rare train --variety --n $2 --seed $((100 + $3 + i)) --out "$1/p$i"; done
	for i in 0 1 2; do $PY synth.py scenes --sets $TEN --rare train --variety --n $2 --seed $((200 + $3 + i)) --out "$1/t$i"; done
	for i in 0 1; do $PY synth.py scenes --sets $TEN --rare train --variety --dark 0.35 --n $2 --seed $((300 + $3 + i)) --out "$1/d$i"; done
}
gstage() {
	from=$1 epochs=$2 dir=$3
	shift 3
	$PY classifier.py --from-onnx "$from" $CLS --epochs "$epochs" --lr 2e-4 --synthetic "$(ls -d "$dir"/[ptd][0-9] | paste -sd,)" \
		--synthetic-per-epoch 24000 --set-contrast 1.0 $SET --structure 1.0 --detector-boxes ../tile_detector.onnx --train-dir "$W/g1/photos" "$@"
}
bash gpu_stage.sh photos "$W/g1/photos"
# G1 (checkpoints/classifier-g1): S11, then 15 epochs in 90 s with 15
# processes cutting the epochs (about three hours on one core here), from
# 7,500 scenes of seeds no stage before drew.
gscenes "$W/g1" 500 0
gstage "$W/s11/tile_classifier.onnx" 15 "$W/g1" --out "$W/g1"
# G2, shipped: G1, then 74 epochs in 370 s (SCENES_N=600 SEED_SHIFT=10
# BUDGET_S=370 GEN_S=140 gpu_stage.sh run; about fifteen hours on one core
# here), from 9,000 scenes of fresh seeds.
gscenes "$W/g2" 600 10
gstage "$W/g1/tile_classifier.onnx" 74 "$W/g2"
$PY calibrate_confidence.py
# The part reader (parts.py, vision/parts.go): the numeral over 萬 and the
# wind under 王 or 后 on one half of a tile, from 120,000 drawn character,
# king and queen tiles in every training font, kings with seats small and
# pale and faces framed (models/README.md, "Reading half a tile" and "A
# second part reader"); two threads, as the shipped reader was trained.
for s in 21 22 23 24 25 26; do $PY parts.py draw 20000 $s "$W/parts_$s.npz"; done
$PY parts.py train --epochs 10 --threads 2 "$W/parts.pt" "$W"/parts_2[1-6].npz
$PY parts.py export "$W/parts.pt" ../part_reader.onnx
# The index reader (index_reader.py, vision/index.go): the Arabic index on
# one half of a suit tile, or none, from 100,000 drawn tiles, three in five
# suit tiles given an index in DejaVu or a training font's digits, half
# the tiles seen standing or slanted as a table's photo shows them
# (models/README.md, "Reading the index" and "A wider look at the index");
# two threads.
for s in 51 52 53 54 55; do $PY index_reader.py draw 20000 $s "$W/index_$s.npz"; done
$PY index_reader.py train --epochs 6 --threads 2 "$W/index.pt" "$W"/index_5[1-5].npz
$PY index_reader.py export "$W/index.pt" ../index_reader.onnx
