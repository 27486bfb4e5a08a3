module dev.operatorstarter/operator-starter-test/supervisor

go 1.22
