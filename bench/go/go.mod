module github.com/robotsc/robotsc/bench/go

go 1.19

require github.com/robotsc/robotsc/go v0.0.0

replace github.com/robotsc/robotsc/go => ../../go
