module mjscan

go 1.22

require gocv.io/x/gocv v0.31.0
