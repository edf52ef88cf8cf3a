# eventboost — see README.md.
#   make                      module for KVER (default: running kernel, else newest)
#   make module KVER=<rel>    eventboost.ko for one installed kernel's headers
#   make check                all tests, in QEMU guests on 6.1, 6.12, 6.12-rt
KVER ?= $(shell scripts/default-kver.sh)

all: module

module:
	@test -n "$(KVER)" || { echo "error: no kernel headers installed (apt-get install linux-headers-amd64)"; exit 2; }
	scripts/kbuild.sh $(KVER) eventboost Kbuild governor uapi

check:
	scripts/check.sh

clean:
	rm -rf build

.PHONY: all module check clean
