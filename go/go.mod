module github.com/robotsc/robotsc/go

go 1.19
