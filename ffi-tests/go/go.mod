module deepgemm

go 1.19
