module mjscan

go 1.22
