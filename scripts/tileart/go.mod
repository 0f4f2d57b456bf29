module mjscan/scripts/tileart

go 1.22

require golang.org/x/image v0.18.0

require golang.org/x/text v0.16.0 // indirect
